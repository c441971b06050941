"""Issue #10's balance question, re-checked: banking one criterion on every ? hex does not beat playing for all four.

The figures in docs/kingdom_maps.md ("Banking one criterion again and again") come from
benchmarks/kingdom_banking.py; this runs the same code on fewer deals (seeded: the same games every run).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from sheetkit.games.kingdom_maps import Bank, new_game

ROOT = Path(__file__).resolve().parents[1]


def _bench():
    spec = importlib.util.spec_from_file_location("kingdom_banking", ROOT / "benchmarks" / "kingdom_banking.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


BENCH = _bench()


def test_the_focused_bot_banks_only_its_criterion_and_plays_legal_moves():
    state = new_game(["You"], seed=3)
    state.apply_chance()
    x = state.criteria[2]
    bot = BENCH.BankOneBot(x, seed=0, focus=True)
    banks = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
            continue
        action = bot.act(state, 0)
        state.apply(0, action)          # checked: the focused bot's moves are all legal
        if isinstance(action, Bank):
            banks.append(action.criterion)
    assert banks and set(banks) == {x}, "every ? hex banked the same criterion"


@pytest.mark.slow
def test_banking_one_criterion_again_and_again_does_not_dominate_solo():
    res = BENCH.run(24, 1, 0, "standard")
    s = res["strategies"]
    assert s["focus-X"]["games"] == s["bank-X"]["games"] == 4 * 24
    # Playing for one criterion and banking it every time loses to playing for all four, by a wide margin ...
    assert s["focus-X"]["minus_greedy"]["high"] < -10
    assert s["bank-X"]["minus_greedy"]["high"] < -10
    # ... and even the best criterion to focus on, picked after the game, does not beat greedy play.
    assert res["best_focus_minus_greedy"]["mean"] < 5
