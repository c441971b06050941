"""Avenue's networks computed from the rule text alone (docs/avenue.md §Components, §Networks), for tests
to compare the engine with: an independent, slow, obviously-right count."""

from __future__ import annotations

from collections import deque

# docs/avenue.md §Components, the road table, written out by hand: number → the two edges it joins.
ENDS = {1: "TL", 2: "TR", 3: "RB", 4: "BL", 5: "LR", 6: "TB"}
# Edge → (row step, column step, the neighbour's edge it meets).
STEP = {"T": (-1, 0, "B"), "B": (1, 0, "T"), "L": (0, -1, "R"), "R": (0, 1, "L")}


def oracle_network(roads: dict[tuple[int, int], int], start: tuple[int, int]) -> set[tuple[int, int]]:
    """The network through ``start``, from the rule text alone (both roads need an end on the shared edge)."""
    if start not in roads:
        return set()
    seen, todo = {start}, deque([start])
    while todo:
        r, c = todo.popleft()
        for end in ENDS[roads[(r, c)]]:
            dr, dc, back = STEP[end]
            nb = (r + dr, c + dc)
            if nb in roads and nb not in seen and back in ENDS[roads[nb]]:
                seen.add(nb)
                todo.append(nb)
    return seen
