"""Kingdom Maps bots: they play only legal moves, in every seat and player count, and greedy plays well."""

from __future__ import annotations

import statistics

import pytest

from sheetkit.analysis.simulate import run_games
from sheetkit.core.chance import derive_seed
from sheetkit.core.play import play_out, step_table
from sheetkit.games.kingdom_maps import (
    BOTS,
    CRITERIA,
    Announce,
    Bank,
    Deal,
    GreedyBot,
    KingdomParams,
    KingdomState,
    Pick,
    Place,
    Power,
    RandomBot,
)
from sheetkit.games.kingdom_maps.terrains import FOREST


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_bots_finish_games_with_legal_moves(players: int, bot: str) -> None:
    """Bots for solo and as opponents: every decision (terrain, die, powers, hexes, ?) is a legal move."""
    for seed in range(2):
        state = KingdomState(KingdomParams(), players, seed=seed)
        play_out(state, [BOTS[bot](seed=derive_seed(seed, "bot", p)) for p in range(players)])  # checked apply
        assert state.is_terminal()
        lo, hi = state.score_bounds()
        assert all(lo <= s <= hi for s in state.scores())


def test_greedy_beats_random() -> None:
    """Greedy plays for the criteria in play: far above random play, solo."""
    g = run_games("kingdom-maps", "greedy", 12, seed=1)
    r = run_games("kingdom-maps", "random", 12, seed=1)
    assert g.scores.mean() > r.scores.mean() + 30


def test_greedy_banks_its_best_criterion_and_uses_powers() -> None:
    """Greedy banks the criterion worth most now; over a few games it gains and spends powers."""
    state = KingdomState(KingdomParams(), 1, deal=Deal(("A1", "A2", "B1", "B5"), (3, 3, 3, 1, 1)))
    step_table(state)
    state.apply(0, Announce(FOREST, 3))
    for hx in [(0, 0), (1, 0), (2, 0)]:
        state.apply(0, Place(*hx))
    step_table(state)
    state.apply(0, Pick(1))
    state.apply(0, Place(-1, 0))
    scores = state.criterion_scores(0)
    assert GreedyBot().act(state, 0) == Bank(max(scores, key=scores.get))
    spent = []
    for seed in range(4):
        s = KingdomState(KingdomParams(), 1, seed=seed)
        play_out(s, [GreedyBot()], fast=True)
        spent.append(s.sheets[0].spent)
    assert sum(spent) > 0


def test_greedy_spends_a_power_when_one_more_hex_pays() -> None:
    """Greedy weighs powers: with a range of mountains one hex short, it turns a 2 into a 3."""
    state = KingdomState(KingdomParams(), 1, deal=Deal(("A1",), (2, 2, 2, 2, 2)))
    step_table(state)
    state.sheets[0].powers = 1
    bot = GreedyBot()
    first = bot.act(state, 0)
    assert isinstance(first, Announce) and first.terrain == 1
    state.apply(0, first)
    assert bot.act(state, 0) == Power(1)


def test_random_bot_is_seeded() -> None:
    """Bots are seeded: the same seed plays the same game."""
    runs = []
    for _ in range(2):
        s = KingdomState(KingdomParams(), 2, seed=8)
        play_out(s, [RandomBot(seed=1), RandomBot(seed=2)], fast=True)
        runs.append(s.scores())
    assert runs[0] == runs[1]


def test_fast_path_reaches_the_same_scores_as_checked_play() -> None:
    """apply_fast (no checks, no log) ends each game with the same scores as apply."""
    for players in (1, 2, 4):
        for bot in ("random", "greedy"):
            slow = KingdomState(KingdomParams(), players, seed=31)
            fast = KingdomState(KingdomParams(), players, seed=31)
            play_out(slow, [BOTS[bot](seed=p) for p in range(players)])
            play_out(fast, [BOTS[bot](seed=p) for p in range(players)], fast=True)
            assert slow.scores() == fast.scores() and fast.log[-1] == {"chance": "end"}


@pytest.mark.slow
def test_criteria_are_balanced_under_the_greedy_bot() -> None:
    """docs/kingdom_maps.md §Balance table: under the bot, every criterion's mean is within a factor 2 of every
    other's."""
    per: dict[str, list[int]] = {c: [] for c in CRITERIA}
    for seed in range(150):
        state = KingdomState(KingdomParams(), 1, seed=derive_seed(2024, seed))
        play_out(state, [GreedyBot()], fast=True)
        for c, v in state.criterion_scores(0).items():
            per[c].append(v)
    means = {c: statistics.fmean(v) for c, v in per.items()}
    assert min(len(v) for v in per.values()) >= 25
    assert max(means.values()) / min(means.values()) < 2.0, means
