"""The fast greedy bot (issue #8) makes exactly the moves of the old full-rescoring one.

``tests/data/kingdom_greedy_golden.json`` holds the moves of 60 seeded games (every preset, 1–4
players, 12 of them beside random bots) recorded with the greedy bot as it was before issue #8
(``tests/old_kingdom_greedy.py``) by ``tests/kingdom_greedy_golden.py``; every game
is replayed here with today's ``GreedyBot`` on the checked path. Fresh old and new bots are also asked
for moves on states random bots reach (maps no greedy bot would draw, drawings the bot did not plan), and
the incremental scorer (``fastscore.MapScorer``) is checked against full rescoring with each criterion's
``guide``. (A longer run of the random-state comparison, 60 games: 5,376 moves asked, 2,749 of them
continuing a drawing, no difference.)
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest
from kingdom_greedy_golden import GAMES, encode, play
from old_kingdom_greedy import GreedyBot as OldGreedyBot

from sheetkit.games.kingdom_maps import CRITERIA, PRESETS, KingdomState, RandomBot
from sheetkit.games.kingdom_maps.board import load_map
from sheetkit.games.kingdom_maps.bots import GreedyBot
from sheetkit.games.kingdom_maps.fastscore import FRACTIONAL, SLOTS, MapScorer

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = json.loads((ROOT / "tests" / "data" / "kingdom_greedy_golden.json").read_text("utf-8"))["games"]


def test_the_golden_file_covers_every_setup() -> None:
    assert [{k: g[k] for k in ("preset", "seats", "seed")} for g in GOLDEN] == GAMES
    assert len(GOLDEN) == 60
    kinds = {t[1] for g in GOLDEN for t in g["moves"].split()}
    assert kinds == {"A", "K", "P", "H", "B", "X"}  # announces, picks, powers, places, banks, passes


@pytest.mark.parametrize("game", GOLDEN, ids=lambda g: f"{g['preset']}-{len(g['seats'])}p-{g['seed']}")
def test_greedy_bot_makes_the_recorded_moves(game: dict) -> None:
    state = play(game, GreedyBot)
    moves, want = encode(state).split(), game["moves"].split()
    first = next((k for k, (a, b) in enumerate(zip(moves, want, strict=False)) if a != b), None)
    assert first is None and len(moves) == len(want), (
        f"move {first}: {moves[first] if first is not None else '(end)'} instead of "
        f"{want[first] if first is not None else '(end)'}")
    assert state.scores() == game["scores"]
    assert hashlib.sha256(state.fingerprint().encode()).hexdigest()[:16] == game["fingerprint"]


@pytest.mark.parametrize("seed", range(12))
def test_incremental_gains_equal_full_rescoring(seed: int) -> None:
    """MapScorer.deltas == 10 × (guide after − guide before), criterion by criterion, as hexes are drawn; its
    scores and guides equal the criteria's own (fractional hints to the last bit of the float)."""
    board = load_map("default")
    rng = random.Random(seed)
    fill = rng.random()
    cells = [rng.randint(1, 6) if rng.random() < fill else 0 for _ in range(board.size)]
    scorers = {c: MapScorer(board, cells, [c]) for c in CRITERIA}
    for _ in range(6):
        empties = [i for i in range(board.size) if not cells[i]]
        if not empties:
            break
        t = rng.randint(1, 6)
        for c, sc in scorers.items():
            before = CRITERIA[c].guide(board, cells)
            for h, d in zip(empties, sc.deltas(empties, t), strict=True):
                after = cells.copy()
                after[h] = t
                assert d == round(10 * (CRITERIA[c].guide(board, after) - before)), (c, h, t)
                if c in FRACTIONAL:
                    assert sc.fractional_guide(c, h, t, sc.term_hexes(c, h)) == CRITERIA[c].guide(board, after)
                if c == "A3":  # the tie-break's shortcut: the float sum restarted at the first term h changes
                    assert sc.a3_guide(h, t, sc.a3_terms()) == CRITERIA[c].guide(board, after)
        h = rng.choice(empties)
        cells[h] = t
        for c, sc in scorers.items():
            sc.place(h, t)
            assert sc.cells == cells
            assert sc.scores() == {c: CRITERIA[c].score(board, cells)}  # what the bot's ? bonus reads
            if c not in FRACTIONAL:
                assert sc.whole_guides() == {c: round(10 * CRITERIA[c].guide(board, cells))}
            else:
                assert sc.fractional_guide(c, -1, 0) == CRITERIA[c].guide(board, cells)  # to the last bit


@pytest.mark.parametrize("seed", range(6))
def test_compiled_gains_equal_the_reference_deltas(seed: int) -> None:
    """The loop the bot runs (``MapScorer.gains_function``, generated per set of criteria) gives exactly ``deltas``'
    gains, and per criterion exactly its ``split`` (twelve slots), for random criteria, maps, terrains and bonuses
    (one of them fractional, where the order of the additions shows in the last bit)."""
    board = load_map("default")
    rng = random.Random(100 + seed)
    checked = 0
    for _ in range(25):
        codes = tuple(sorted(rng.sample(sorted(CRITERIA), rng.randint(1, 12))))
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
                sc.deltas(empties, t, split)
                gains, parts = sc.gains_function(True)(sc, empties, t, bonus)
                assert gains == sc.gains_function()(sc, empties, t, bonus) == sc.deltas(empties, t, None, bonus)
                live = {SLOTS[c] for c in codes}  # parts: all twelve slots, 0 for a criterion not in play
                assert parts == [tuple(x if k in live else 0 for k, x in enumerate(p)) for p in split], (codes, t)
                checked += len(empties)
            sc.place(rng.choice(empties), rng.randint(1, 6))
    assert checked > 1000


def test_fresh_bots_agree_on_states_no_greedy_bot_would_reach() -> None:
    """Random bots play; at random moments a fresh old and a fresh new greedy bot are asked for the same seat's
    move (so new bots also continue drawings they did not plan: ``Planner.extend``). They always agree."""
    rng = random.Random(8)
    asked = 0
    for g in range(8):
        preset, players = rng.choice(sorted(PRESETS)), rng.randint(1, 4)
        state = KingdomState(PRESETS[preset], players, seed=rng.randrange(10**6))
        walker = RandomBot(seed=g)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_chance()
                continue
            for p in state.current_players():
                if rng.random() < 0.3:
                    assert GreedyBot().act(state, p) == OldGreedyBot().act(state, p), (preset, players, state.turn, p)
                    asked += 1
                state.apply(p, walker.act(state, p))
    assert asked > 200
