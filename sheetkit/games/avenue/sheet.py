"""One player's sheet: roads in cells, and networks kept as a union-find with grape totals.

Networks only ever grow while a game runs, so a union-find whose roots carry the network's
totals (grapes by colour, farms and castles on it) answers "what would this road connect?"
in a few list look-ups. That is what makes thousands of bot games per second possible.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache

from sheetkit.core.grid import BOTTOM, EDGE_STEP, LEFT, OPPOSITE, RIGHT, TOP, Cell
from sheetkit.games.avenue.cards import ROAD_EDGES
from sheetkit.games.avenue.layout import FARM_LETTERS, Layout

PURPLE_CASTLE, GREEN_CASTLE = 1, 2


class Geometry:
    """Everything about a layout that never changes, flattened into lists for speed."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.rows, self.cols = layout.rows, layout.cols
        n = self.size = layout.rows * layout.cols
        self.grapes = [0] * n
        self.purple = [0] * n
        self.green = [0] * n
        self.farm_bit = [0] * n
        self.castle_bit = [0] * n
        for (r, c), (p, g) in layout.grapes.items():
            i = r * self.cols + c
            self.purple[i], self.green[i], self.grapes[i] = p, g, p + g
        self.farm_cell: dict[str, int] = {}
        for f, (r, c) in layout.farms.items():
            i = r * self.cols + c
            self.farm_bit[i] = 1 << FARM_LETTERS.index(f)
            self.farm_cell[f] = i
        self.castle_cell: dict[str, int] = {}
        for colour, (r, c) in layout.castles.items():
            i = r * self.cols + c
            self.castle_bit[i] = PURPLE_CASTLE if colour == "purple" else GREEN_CASTLE
            self.castle_cell[colour] = i
        # links[road][i]: the neighbours a road in cell i reaches, with the edge they must have.
        self.links: dict[int, list[tuple[tuple[int, int], ...]]] = {}
        for road, mask in ROAD_EDGES.items():
            per_cell = []
            for i in range(n):
                r, c = divmod(i, self.cols)
                out = []
                for edge in (TOP, RIGHT, BOTTOM, LEFT):
                    if mask & edge:
                        dr, dc = EDGE_STEP[edge]
                        rr, cc = r + dr, c + dc
                        if 0 <= rr < self.rows and 0 <= cc < self.cols:
                            out.append((rr * self.cols + cc, OPPOSITE[edge]))
                per_cell.append(tuple(out))
            self.links[road] = per_cell


@lru_cache(maxsize=32)
def geometry(layout: Layout) -> Geometry:
    """Cached geometry per layout."""
    return Geometry(layout)


class Sheet:
    """Roads drawn on one sheet, plus network totals kept at union-find roots."""

    __slots__ = ("cmask", "fmask", "free", "g", "geo", "grn", "parent", "pur", "roads")

    def __init__(self, geo: Geometry) -> None:
        self.geo = geo
        n = geo.size
        self.roads = [0] * n
        self.parent = list(range(n))
        self.g = list(geo.grapes)
        self.pur = list(geo.purple)
        self.grn = list(geo.green)
        self.fmask = list(geo.farm_bit)
        self.cmask = list(geo.castle_bit)
        self.free = n

    def copy(self) -> Sheet:
        """An independent copy."""
        s = Sheet.__new__(Sheet)
        s.geo = self.geo
        s.roads, s.parent = self.roads[:], self.parent[:]
        s.g, s.pur, s.grn, s.fmask, s.cmask = self.g[:], self.pur[:], self.grn[:], self.fmask[:], self.cmask[:]
        s.free = self.free
        return s

    def find(self, i: int) -> int:
        """Root of i's network (path halving)."""
        parent = self.parent
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def _union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return
        self.parent[rb] = ra
        self.g[ra] += self.g[rb]
        self.pur[ra] += self.pur[rb]
        self.grn[ra] += self.grn[rb]
        self.fmask[ra] |= self.fmask[rb]
        self.cmask[ra] |= self.cmask[rb]

    def place(self, i: int, road: int) -> None:
        """Draw ``road`` in empty cell ``i`` and join it to every road it meets end to end."""
        self.roads[i] = road
        self.free -= 1
        roads = self.roads
        for j, need in self.geo.links[road][i]:
            rj = roads[j]
            if rj and ROAD_EDGES[rj] & need:
                self._union(i, j)

    def preview(self, i: int, road: int) -> tuple[int, int, int, int, int, tuple[int, ...]]:
        """(grapes, purple, green, farms, castles, old roots) of the network ``road`` at ``i`` would make."""
        g, p, gr, fm, cm = self.g[i], self.pur[i], self.grn[i], self.fmask[i], self.cmask[i]
        roots: tuple[int, ...] = ()
        roads = self.roads
        for j, need in self.geo.links[road][i]:
            rj = roads[j]
            if rj and ROAD_EDGES[rj] & need:
                r = self.find(j)
                if r not in roots:
                    roots += (r,)
                    g += self.g[r]
                    p += self.pur[r]
                    gr += self.grn[r]
                    fm |= self.fmask[r]
                    cm |= self.cmask[r]
        return g, p, gr, fm, cm, roots

    def network_grapes(self, i: int) -> int:
        """Grapes (both colours) on the network through cell i; 0 if it has no road."""
        return self.g[self.find(i)] if self.roads[i] else 0

    def farm_grapes(self, farm: str) -> int:
        """Grapes a farm would score now."""
        i = self.geo.farm_cell.get(farm)
        return 0 if i is None else self.network_grapes(i)

    def castle_score(self, colour: str) -> int:
        """Grapes of the castle's own colour on its network."""
        i = self.geo.castle_cell[colour]
        if not self.roads[i]:
            return 0
        r = self.find(i)
        return self.pur[r] if colour == "purple" else self.grn[r]

    def network_cells(self, i: int) -> list[Cell]:
        """Cells of the network through cell i (empty list if no road there), in reading order."""
        if not self.roads[i]:
            return []
        cols, roads, links = self.geo.cols, self.roads, self.geo.links
        seen = {i}
        todo = deque([i])
        while todo:
            a = todo.popleft()
            for j, need in links[roads[a]][a]:
                if j not in seen and roads[j] and ROAD_EDGES[roads[j]] & need:
                    seen.add(j)
                    todo.append(j)
        return [divmod(k, cols) for k in sorted(seen)]

    def grid(self) -> list[list[int]]:
        """Road numbers as rows of ints (0 = empty)."""
        c = self.geo.cols
        return [self.roads[r * c:(r + 1) * c] for r in range(self.geo.rows)]
