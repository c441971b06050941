"""The greedy bot's batched exact-tie floats equal the criteria's own guides, to the last bit."""

from __future__ import annotations

import random

import pytest

from sheetkit.games.kingdom_maps import CRITERIA
from sheetkit.games.kingdom_maps.board import load_map
from sheetkit.games.kingdom_maps.fastscore import MapScorer


@pytest.mark.parametrize("seed", range(40))
def test_a3_floats_equal_the_guide(seed: int) -> None:
    """``MapScorer.a3_floats`` == A3's guide of the map with each hex drawn, for every empty hex and terrain."""
    board = load_map("default")
    rng = random.Random(seed)
    fill = rng.random()
    # lakes and fields weighted up: their terms are what the floats add
    cells = [rng.choice((1, 2, 3, 4, 5, 6, 3, 4, 3, 4)) if rng.random() < fill else 0 for _ in range(board.size)]
    sc = MapScorer(board, cells, ["A3"])
    empties = [i for i in range(board.size) if not cells[i]]
    for t in range(1, 7):
        want = []
        for h in empties:
            after = cells.copy()
            after[h] = t
            want.append(CRITERIA["A3"].guide(board, after))
        assert sc.a3_floats(empties, t, sc.a3_terms()) == want, t
