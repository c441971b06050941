"""Square (row, col) and hex (axial q, r) grids: neighbours, shared edges, components."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

Cell = tuple[int, int]

# Square-cell edges as bits, so a road's two ends fit in one small int.
TOP, RIGHT, BOTTOM, LEFT = 1, 2, 4, 8
EDGE_NAMES = {TOP: "top", RIGHT: "right", BOTTOM: "bottom", LEFT: "left"}
OPPOSITE = {TOP: BOTTOM, BOTTOM: TOP, LEFT: RIGHT, RIGHT: LEFT}
EDGE_STEP = {TOP: (-1, 0), RIGHT: (0, 1), BOTTOM: (1, 0), LEFT: (0, -1)}


@dataclass(frozen=True)
class SquareGrid:
    """A rows × cols grid of square cells addressed (row, col), origin top-left."""

    rows: int
    cols: int

    def __contains__(self, cell: object) -> bool:
        if not (isinstance(cell, tuple) and len(cell) == 2):
            return False
        r, c = cell
        return isinstance(r, int) and isinstance(c, int) and 0 <= r < self.rows and 0 <= c < self.cols

    def __len__(self) -> int:
        return self.rows * self.cols

    def cells(self) -> Iterator[Cell]:
        """All cells in reading order."""
        for r in range(self.rows):
            for c in range(self.cols):
                yield (r, c)

    def index(self, cell: Cell) -> int:
        """Flat index of a cell (row-major)."""
        return cell[0] * self.cols + cell[1]

    def cell(self, index: int) -> Cell:
        """Cell of a flat index."""
        return divmod(index, self.cols)

    def neighbour(self, cell: Cell, edge: int) -> Cell | None:
        """The cell across ``edge`` (TOP/RIGHT/BOTTOM/LEFT), or None off the grid."""
        dr, dc = EDGE_STEP[edge]
        n = (cell[0] + dr, cell[1] + dc)
        return n if n in self else None

    def neighbours(self, cell: Cell) -> list[Cell]:
        """Orthogonal neighbours on the grid."""
        return [n for e in (TOP, RIGHT, BOTTOM, LEFT) if (n := self.neighbour(cell, e)) is not None]

    def shared_edge(self, a: Cell, b: Cell) -> int | None:
        """The edge of ``a`` that it shares with ``b``, or None if they do not touch."""
        for e, (dr, dc) in EDGE_STEP.items():
            if (a[0] + dr, a[1] + dc) == b:
                return e
        return None

    def is_corner(self, cell: Cell) -> bool:
        """True for the four corner cells."""
        return cell[0] in (0, self.rows - 1) and cell[1] in (0, self.cols - 1)


# Axial hex directions, pointy-top layout (q to the east, r to the south-east).
HEX_DIRECTIONS: tuple[Cell, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


@dataclass(frozen=True)
class HexGrid:
    """A set of hexes in axial coordinates (q, r)."""

    hexes: frozenset[Cell]

    @classmethod
    def hexagon(cls, radius: int) -> HexGrid:
        """A hexagon-shaped map of the given radius (radius 4 → 61 hexes)."""
        hs = {
            (q, r)
            for q in range(-radius, radius + 1)
            for r in range(max(-radius, -q - radius), min(radius, -q + radius) + 1)
        }
        return cls(frozenset(hs))

    def __contains__(self, h: object) -> bool:
        return h in self.hexes

    def __len__(self) -> int:
        return len(self.hexes)

    def cells(self) -> list[Cell]:
        """All hexes, sorted by (r, q) so iteration is deterministic."""
        return sorted(self.hexes, key=lambda h: (h[1], h[0]))

    def neighbours(self, h: Cell) -> list[Cell]:
        """Adjacent hexes on the map."""
        q, r = h
        return [n for dq, dr in HEX_DIRECTIONS if (n := (q + dq, r + dr)) in self.hexes]

    def shared_edge(self, a: Cell, b: Cell) -> int | None:
        """Direction index 0–5 from ``a`` to ``b`` when they touch, else None."""
        d = (b[0] - a[0], b[1] - a[1])
        return HEX_DIRECTIONS.index(d) if d in HEX_DIRECTIONS else None

    def is_edge(self, h: Cell) -> bool:
        """True for hexes with fewer than six neighbours on the map."""
        return len(self.neighbours(h)) < 6

    @staticmethod
    def distance(a: Cell, b: Cell) -> int:
        """Hex distance in steps."""
        dq, dr = a[0] - b[0], a[1] - b[1]
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def components(
    cells: Iterable[Cell], linked: Callable[[Cell, Cell], bool], neighbours: Callable[[Cell], Iterable[Cell]]
) -> list[set[Cell]]:
    """Connected components of ``cells`` where neighbours are joined when ``linked(a, b)``."""
    todo = set(cells)
    out: list[set[Cell]] = []
    while todo:
        start = todo.pop()
        comp = {start}
        stack = [start]
        while stack:
            a = stack.pop()
            for b in neighbours(a):
                if b in todo and linked(a, b):
                    todo.discard(b)
                    comp.add(b)
                    stack.append(b)
        out.append(comp)
    return out
