"""The 12 scoring criteria (sheetkit's own design): A1–A6 reward terrains, B1–B6 the whole map.

Each criterion is a pure function of a map — ``score(board, cells) -> int`` where ``cells`` is
the flat list of terrain numbers (0 = empty) — and its ``rule`` is one sentence a child can
apply with a pencil. Balance figures: docs/kingdom_maps.md (benchmarks/kingdom_stats.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sheetkit.games.kingdom_maps.board import Board
from sheetkit.games.kingdom_maps.terrains import BLANK, FIELD, FOREST, LAKE, MEADOW, MOUNTAIN, VILLAGE

Cells = Sequence[int]


@dataclass(frozen=True)
class Criterion:
    """One scoring card: code (A1…B6), short name, the rule in one sentence, and its scoring function."""

    code: str
    name: str
    rule: str
    score: Callable[[Board, Cells], int]
    max_score: Callable[[Board], int]  # a safe upper bound on any map of this board
    terrain: int | None = None  # the terrain a group-A criterion is about
    # For bots only: the score plus a little credit for progress the score cannot see yet.
    hint: Callable[[Board, Cells], float] | None = None

    def guide(self, board: Board, cells: Cells) -> float:
        """What a bot aims for: the hint if the criterion has one, else the score."""
        return self.hint(board, cells) if self.hint is not None else float(self.score(board, cells))

    @property
    def group(self) -> str:
        """'A' or 'B'."""
        return self.code[0]

    def to_json(self) -> dict[str, object]:
        return {"code": self.code, "name": self.name, "rule": self.rule, "terrain": self.terrain}


def groups(board: Board, cells: Cells, terrain: int) -> list[list[int]]:
    """Groups of touching hexes of one terrain, each a list of hex numbers."""
    nbrs = board.nbrs
    todo = {i for i, c in enumerate(cells) if c == terrain}
    out = []
    while todo:
        grp = [todo.pop()]
        k = 0
        while k < len(grp):
            for b in nbrs[grp[k]]:
                if b in todo:
                    todo.discard(b)
                    grp.append(b)
            k += 1
        out.append(grp)
    return out


def group_sizes(board: Board, cells: Cells) -> list[int]:
    """The size of every one-terrain group on the map (every drawn hex is in exactly one)."""
    nbrs = board.nbrs
    seen = [c == BLANK for c in cells]
    sizes = []
    for start in range(board.size):
        if seen[start]:
            continue
        t = cells[start]
        seen[start] = True
        stack = [start]
        n = 0
        while stack:
            a = stack.pop()
            n += 1
            for b in nbrs[a]:
                if not seen[b] and cells[b] == t:
                    seen[b] = True
                    stack.append(b)
        sizes.append(n)
    return sizes


# ----- group A: particular terrains ------------------------------------------------------
RANGE_MIN, RANGE_POINTS = 3, 6


def mountain_ranges(board: Board, cells: Cells) -> int:
    """A1: each range of 3 or more touching mountains scores 6."""
    return RANGE_POINTS * sum(1 for g in groups(board, cells, MOUNTAIN) if len(g) >= RANGE_MIN)


FOREST_MIN = 3


def great_forests(board: Board, cells: Cells) -> int:
    """A2: each forest of 3 or more hexes scores 1 for each of its hexes."""
    return sum(len(g) for g in groups(board, cells, FOREST) if len(g) >= FOREST_MIN)


def watered_fields(board: Board, cells: Cells) -> int:
    """A3: each field touching a lake scores 2."""
    nbrs = board.nbrs
    return 2 * sum(1 for i in range(board.size)
                   if cells[i] == FIELD and any(cells[b] == LAKE for b in nbrs[i]))


def watered_fields_hint(board: Board, cells: Cells) -> float:
    """A3 for bots: lakes and dry fields with empty hexes beside them are worth a little (fields to come)."""
    nbrs = board.nbrs
    bonus = 0.0
    for i in range(board.size):
        c = cells[i]
        if c == LAKE or c == FIELD:
            near = [cells[b] for b in nbrs[i]]
            if BLANK in near and (c == LAKE or LAKE not in near):
                bonus += 0.8 if c == LAKE else 0.4
    return watered_fields(board, cells) + bonus


def lively_lakes(board: Board, cells: Cells) -> int:
    """A4: each lake scores 2 for every different terrain on its shore."""
    nbrs = board.nbrs
    total = 0
    for g in groups(board, cells, LAKE):
        kinds = {cells[b] for i in g for b in nbrs[i]} - {BLANK, LAKE}
        total += 2 * len(kinds)
    return total


def winding_meadows(board: Board, cells: Cells) -> int:
    """A5: each meadow touching exactly two other meadows scores 2."""
    nbrs = board.nbrs
    return 2 * sum(1 for i in range(board.size)
                   if cells[i] == MEADOW and sum(1 for b in nbrs[i] if cells[b] == MEADOW) == 2)


BUSY_KINDS, BUSY_POINTS = 2, 2


def busy_villages(board: Board, cells: Cells) -> int:
    """A6: each village touching at least 2 other different terrains scores 2."""
    nbrs = board.nbrs
    return BUSY_POINTS * sum(1 for i in range(board.size) if cells[i] == VILLAGE
                             and len({cells[b] for b in nbrs[i]} - {BLANK, VILLAGE}) >= BUSY_KINDS)


def busy_villages_hint(board: Board, cells: Cells) -> float:
    """A6 for bots: a village with one other terrain and room beside it is worth a little."""
    nbrs = board.nbrs
    bonus = 0.0
    for i in range(board.size):
        if cells[i] == VILLAGE:
            kinds = {cells[b] for b in nbrs[i]}
            if BLANK in kinds and len(kinds - {BLANK, VILLAGE}) == BUSY_KINDS - 1:
                bonus += 0.8
    return busy_villages(board, cells) + bonus


# ----- group B: the shape of the whole map -----------------------------------------------
BORDER_POINTS = 2


def colourful_border(board: Board, cells: Cells) -> int:
    """B1: walk around the edge of the map; score 2 each time the terrain changes from a hex to the next."""
    return BORDER_POINTS * sum(1 for a, b in board.edge_pairs if cells[a] and cells[b] and cells[a] != cells[b])


RUN_MIN, RUN_POINTS = 4, 4


def longest_run(cells: Sequence[int], row: Sequence[int]) -> int:
    """The most touching hexes of one terrain side by side in ``row`` (empty hexes break a run)."""
    best = run = 0
    prev = BLANK
    for i in row:
        c = cells[i]
        run = run + 1 if c != BLANK and c == prev else (1 if c != BLANK else 0)
        prev = c
        best = max(best, run)
    return best


def long_rows(board: Board, cells: Cells) -> int:
    """B2: each row with 4 or more touching hexes of one terrain side by side scores 4."""
    return RUN_POINTS * sum(1 for row in board.rows if longest_run(cells, row) >= RUN_MIN)


MIXED_KINDS, MIXED_POINTS = 4, 5


def mixed_rows(board: Board, cells: Cells) -> int:
    """B3: each row holding at least 4 different terrains scores 5."""
    return MIXED_POINTS * sum(1 for row in board.rows if len({cells[i] for i in row} - {BLANK}) >= MIXED_KINDS)


SCARCE_POINTS = 4


def mixed_rows_hint(board: Board, cells: Cells) -> float:
    """B3 for bots: a row one terrain short, with room left, is worth a little."""
    bonus = 0.0
    for row in board.rows:
        kinds = {cells[i] for i in row}
        if BLANK in kinds and len(kinds) - 1 == MIXED_KINDS - 1:
            bonus += 2.0
        elif BLANK in kinds and len(kinds) - 1 == MIXED_KINDS - 2:
            bonus += 0.8
    return mixed_rows(board, cells) + bonus


def scarcest_terrain(board: Board, cells: Cells) -> int:
    """B4: count the hexes of your scarcest terrain and score 4 for each."""
    counts = [0] * 7
    for c in cells:
        counts[c] += 1
    return SCARCE_POINTS * min(counts[1:])


def scarcest_terrain_hint(board: Board, cells: Cells) -> float:
    """B4 for bots: the next scarcest terrains count a little too (ties for the minimum hide progress)."""
    counts = [0] * 7
    for c in cells:
        counts[c] += 1
    low = sorted(counts[1:])
    return SCARCE_POINTS * low[0] + 3.0 * low[1] + 2.0 * low[2] + 1.0 * low[3]


PATCH_MIN, PATCH_POINTS = 2, 2


def patchwork(board: Board, cells: Cells) -> int:
    """B5: each group of 2 or more touching hexes of one terrain scores 2."""
    return PATCH_POINTS * sum(1 for n in group_sizes(board, cells) if n >= PATCH_MIN)


REGION_MIN, REGION_POINTS = 5, 3


def big_regions(board: Board, cells: Cells) -> int:
    """B6: each group of 5 or more touching hexes of one terrain scores 3."""
    return REGION_POINTS * sum(1 for n in group_sizes(board, cells) if n >= REGION_MIN)


def _rows(board: Board) -> int:
    return len(board.rows)


CRITERIA: dict[str, Criterion] = {c.code: c for c in (
    Criterion("A1", "Mountain ranges", f"Each range of {RANGE_MIN} or more touching mountains scores {RANGE_POINTS}.",
              mountain_ranges, lambda b: RANGE_POINTS * (b.size // RANGE_MIN), MOUNTAIN),
    Criterion("A2", "Great forests", f"Each forest of {FOREST_MIN} or more hexes scores 1 for each of its hexes.",
              great_forests, lambda b: b.size, FOREST),
    Criterion("A3", "Watered fields", "Each field that touches a lake scores 2.",
              watered_fields, lambda b: 2 * b.size, FIELD, watered_fields_hint),
    Criterion("A4", "Lively lakes", "Each lake (touching lake hexes make one lake) scores 2 for every different "
              "terrain touching it.",
              lively_lakes, lambda b: 2 * 5 * b.size, LAKE),
    Criterion("A5", "Winding meadows", "Each meadow that touches exactly two other meadows scores 2.",
              winding_meadows, lambda b: 2 * b.size, MEADOW),
    Criterion("A6", "Busy villages", f"Each village touching at least {BUSY_KINDS} different other terrains "
              f"scores {BUSY_POINTS}.", busy_villages, lambda b: BUSY_POINTS * b.size, VILLAGE,
              busy_villages_hint),
    Criterion("B1", "Colourful border", f"Walk around the edge of the map: score {BORDER_POINTS} each time the "
              "terrain changes from one hex to the next.", colourful_border,
              lambda b: BORDER_POINTS * len(b.edge_pairs)),
    Criterion("B2", "Long rows", f"Each row with {RUN_MIN} or more hexes of one terrain side by side scores "
              f"{RUN_POINTS}.", long_rows, lambda b: RUN_POINTS * _rows(b)),
    Criterion("B3", "Mixed rows", f"Each row holding at least {MIXED_KINDS} different terrains scores {MIXED_POINTS}.",
              mixed_rows, lambda b: MIXED_POINTS * _rows(b), hint=mixed_rows_hint),
    Criterion("B4", "The scarcest terrain", "Count the hexes of the terrain you have least of; score "
              f"{SCARCE_POINTS} for each.", scarcest_terrain, lambda b: SCARCE_POINTS * (b.size // 6),
              hint=scarcest_terrain_hint),
    Criterion("B5", "Patchwork", f"Each group of {PATCH_MIN} or more touching hexes of one terrain scores "
              f"{PATCH_POINTS}.",
              patchwork, lambda b: PATCH_POINTS * b.size),
    Criterion("B6", "Big regions", f"Each group of {REGION_MIN} or more touching hexes of one terrain scores "
              f"{REGION_POINTS}.", big_regions, lambda b: REGION_POINTS * (b.size // REGION_MIN)),
)}
GROUP_A: tuple[str, ...] = tuple(f"A{k}" for k in range(1, 7))
GROUP_B: tuple[str, ...] = tuple(f"B{k}" for k in range(1, 7))


def score_criteria(board: Board, cells: Cells, codes: Sequence[str]) -> dict[str, int]:
    """Each criterion's score on one map."""
    return {c: CRITERIA[c].score(board, cells) for c in codes}
