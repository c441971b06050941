"""The greedy bot's batched exact-tie floats equal the criteria's own guides, to the last bit."""

from __future__ import annotations

import random

import pytest

from sheetkit.games.kingdom_maps import CRITERIA
from sheetkit.games.kingdom_maps.board import load_map
from sheetkit.games.kingdom_maps.fastscore import MapScorer
from sheetkit.games.kingdom_maps.terrains import FIELD, LAKE


def _a3_terms_after(board, cells: list[int], h: int, t: int) -> tuple[int, list[float]]:
    """A3 with ``h`` drawn as ``t``, read off the whole map: (watered fields, each hint term in hex order)."""
    after = cells.copy()
    after[h] = t
    watered, hints = 0, []
    for i, c in enumerate(after):
        empty = any(not after[b] for b in board.nbrs[i])
        if c == LAKE and empty:
            hints.append(0.8)
        elif c == FIELD:
            if any(after[b] == LAKE for b in board.nbrs[i]):
                watered += 1
            elif empty:
                hints.append(0.4)
    return watered, hints


@pytest.mark.parametrize("seed", range(40))
def test_a3_same_when_the_terms_are(seed: int) -> None:
    """``MapScorer.a3_same`` is true exactly when the hexes leave the same watered fields and the same hint terms
    in the same order (so the same float, to the last bit)."""
    board = load_map("default")
    rng = random.Random(seed)
    fill = rng.random()
    cells = [rng.choice((1, 2, 3, 4, 5, 6, 3, 4, 3, 4)) if rng.random() < fill else 0 for _ in range(board.size)]
    sc = MapScorer(board, cells, ["A3"])
    empties = [i for i in range(board.size) if not cells[i]]
    if len(empties) < 2:
        return
    for t in range(1, 7):
        terms = {h: _a3_terms_after(board, cells, h, t) for h in empties}
        guide = {h: sc.a3_guide(h, t, sc.a3_terms()) for h in empties}  # (= the criterion's, to the last bit)
        for _ in range(30):
            hexes = rng.sample(empties, min(len(empties), rng.randint(2, 4)))
            same = sc.a3_same(hexes, t)
            assert same == all(terms[h] == terms[hexes[0]] for h in hexes), (t, hexes)
            if same:
                assert len({guide[h] for h in hexes}) == 1
    assert sc.cells == cells  # (the map is left as it was)


@pytest.mark.parametrize("seed", range(40))
def test_b3_floats_equal_the_guide(seed: int) -> None:
    """``MapScorer.b3_floats`` == B3's guide of the map with each hex drawn, for every empty hex and terrain."""
    board = load_map("default")
    rng = random.Random(seed)
    fill = rng.random()
    cells = [rng.randint(1, 6) if rng.random() < fill else 0 for _ in range(board.size)]
    sc = MapScorer(board, cells, ["B3"])
    empties = [i for i in range(board.size) if not cells[i]]
    for t in range(1, 7):
        want = []
        for h in empties:
            after = cells.copy()
            after[h] = t
            want.append(CRITERIA["B3"].guide(board, after))
        assert sc.b3_floats(empties, t) == want, t


@pytest.mark.parametrize("seed", range(40))
def test_equal_a6_gains_by_few_villages_move_the_same_counts(seed: int) -> None:
    """Hexes with the same A6 gain and at most 2 villages by them change ``village_counts`` alike (the tie check
    skips them)."""
    board = load_map("default")
    rng = random.Random(seed)
    fill = 0.3 + 0.6 * rng.random()
    cells = [rng.choice((1, 2, 3, 4, 5, 6, 6, 6, 6)) if rng.random() < fill else 0 for _ in range(board.size)]
    sc = MapScorer(board, cells, ["A6"])
    empties = [i for i in range(board.size) if not cells[i]]
    villages = {h: sum(cells[b] == 6 for b in board.nbrs[h]) for h in empties}
    for t in range(1, 7):
        deltas = [sc.village_counts_delta(h, t) for h in empties]
        for d, g in zip(deltas, sc.deltas(empties, t), strict=True):
            assert g == 20 * d[0] + 8 * d[1]  # what the tied hexes' equal gains say
        by_gain: dict[int, set[tuple[int, int]]] = {}
        for h, d in zip(empties, deltas, strict=True):
            if villages[h] <= 2:
                by_gain.setdefault(20 * d[0] + 8 * d[1], set()).add(d)
        assert all(len(ds) == 1 for ds in by_gain.values()), t
