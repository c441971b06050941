"""Both gains loops of the greedy bot give exactly ``MapScorer.deltas``: the compiled one and ``any_gains``.

``MapScorer.gains_function`` hands out ``anygains.any_gains`` for a set of criteria's first
``gainloops.COMPILE_AFTER`` asks and the loop compiled for the set after that; the bot's moves must not depend on
which one it got (``tests/test_kingdom_bot_golden.py`` replays the recorded games on either).
"""

from __future__ import annotations

import random

import pytest

from sheetkit.games.kingdom_maps import CRITERIA
from sheetkit.games.kingdom_maps import fastscore as fs
from sheetkit.games.kingdom_maps import gainloops as gl
from sheetkit.games.kingdom_maps.board import load_map
from sheetkit.games.kingdom_maps.bots import Planner
from sheetkit.games.kingdom_maps.fastscore import SLOTS, MapScorer


@pytest.mark.parametrize("seed", range(4))
def test_the_generic_and_the_compiled_loop_equal_deltas(seed: int) -> None:
    """Random criteria (in any order), maps, terrains and bonuses, one of them fractional (the order of the
    additions shows in the last bit): gains and per-criterion parts agree with ``deltas`` and its split."""
    board = load_map("default")
    rng = random.Random(700 + seed)
    checked = 0
    for _ in range(20):
        codes = tuple(rng.sample(sorted(CRITERIA), rng.randint(1, 12)))
        fill = rng.random()
        cells = [rng.randint(1, 6) if rng.random() < fill else 0 for _ in range(board.size)]
        sc = MapScorer(board, cells, codes)
        bonus = [rng.choice([0.0, 10.0, 30.0, 3.0000000000000004]) for _ in range(board.size)]
        for _ in range(3):
            empties = [i for i in range(board.size) if not sc.cells[i]]
            if not empties:
                break
            for t in range(1, 7):
                split: list[list[int]] = []
                want = sc.deltas(empties, t, split, bonus)
                live = {SLOTS[c] for c in codes}  # parts: all twelve slots, 0 for a criterion not in play
                parts = [tuple(x if k in live else 0 for k, x in enumerate(p)) for p in split]
                for loop in (gl._generic_gains, gl._compiled_gains):
                    assert loop(codes, False)(sc, empties, t, bonus) == want, (loop.__name__, codes, t)
                    assert loop(codes, True)(sc, empties, t, bonus) == (want, parts), (loop.__name__, codes, t)
                checked += len(empties)
            sc.place(rng.choice(empties), rng.randint(1, 6))
    assert checked > 500


def test_a_set_is_compiled_only_once_it_has_been_asked_for_often() -> None:
    board = load_map("default")
    codes = ("A2", "A5", "B2", "B6")
    gl._ASKED.pop((codes, True), None)
    sc = MapScorer(board, board.blank(), codes)
    got = [sc.gains_function(True) for _ in range(gl.COMPILE_AFTER + 1)]
    assert got[0] is gl._generic_gains(codes, True) and got[gl.COMPILE_AFTER - 1] is got[0]
    assert got[-1] is gl._compiled_gains(codes, True)


@pytest.mark.parametrize("seed", range(3))
def test_a_blank_map_needs_only_the_first_hex_of_each_kind(seed: int) -> None:
    """On a blank map the planner looks only at the first start of each kind (bonus, neighbours, row) for a
    group's first hex: every group it grows is the one looking at every start grows (criteria with a
    fractional hint included, where ties are settled on floats)."""
    board = load_map("default")
    rng = random.Random(900 + seed)
    for _ in range(12):
        codes = tuple(sorted(rng.sample(sorted(CRITERIA), rng.randint(1, 5))))
        bonus = [rng.choice([0.0, 0.0, 0.0, 1.0, 7.0, 8.0]) for _ in range(board.size)]
        fast = Planner(board, board.blank(), codes, bonus)
        full = Planner(board, board.blank(), codes, bonus)
        full._blank_firsts = lambda cand: cand  # type: ignore[method-assign]
        assert len(fast._blank_firsts(fast.starts(1))) < board.size // 4
        for t in range(1, 7):
            for amount in (1, 3, 6):
                assert fast.group(t, amount) == full.group(t, amount), (codes, t, amount)


def test_a_blank_maps_tables_are_those_built_hex_by_hex(monkeypatch: pytest.MonkeyPatch) -> None:
    """A scorer on a blank map takes the board's blank tables as made once; they equal the ones built hex by
    hex (the path every drawn map takes), table by table."""
    board = load_map("default")
    fast = MapScorer(board, board.blank(), sorted(CRITERIA))
    monkeypatch.setattr(fs, "any", lambda cells: True, raising=False)  # the build for a drawn map
    built = MapScorer(board, board.blank(), sorted(CRITERIA))
    for name in ("nc", "nm", "gid", "gsize", "gmembers", "lmask", "rmask", "rblank", "rok", "counts"):
        assert getattr(fast, name) == getattr(built, name), name


@pytest.mark.parametrize("codes", [("A1", "A4", "B3", "B4"), ("A2", "A6", "B2", "B5"), ("A3", "A5", "B1", "B6")])
def test_a_scratch_copy_is_brought_back_to_its_map(codes: tuple[str, ...]) -> None:
    """``copy_into`` makes a used copy equal to its scorer again, table by table (the planner grows every group
    on one such scratch copy), and gains read off it are the scorer's own."""
    board = load_map("default")
    rng = random.Random(5)
    cells = [rng.randint(1, 6) if rng.random() < 0.4 else 0 for _ in range(board.size)]
    sc = MapScorer(board, cells, codes)
    scratch = sc.copy()
    for _ in range(3):
        for h in rng.sample([i for i in range(board.size) if not scratch.cells[i]], 5):
            scratch.place(h, rng.randint(1, 6))
        assert scratch.cells != sc.cells
        sc.copy_into(scratch)
        for name in ("cells", "nc", "nm", "gid", "gsize", "gmembers", "lmask", "rmask", "rblank", "rok", "counts"):
            assert getattr(scratch, name) == getattr(sc, name), name
        empties = [i for i in range(board.size) if not sc.cells[i]]
        for t in range(1, 7):
            assert scratch.deltas(empties, t) == sc.deltas(empties, t)
