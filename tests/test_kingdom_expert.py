"""The Kingdom Maps expert bot and hindsight search (issue 16, parts 1 and 2; docs/kingdom_maps.md §Bots and speed).

The expert plays only legal moves, the same move for the same seed and table, never reads the dice to come,
prices moves with ``evaluate``, and beats the greedy bot. The hindsight search finds the true optimum on a
7-hex map where every game can be enumerated, its moves replay to its score, and it is never below the expert.
"""

from __future__ import annotations

import random
import statistics

import pytest

from sheetkit.core.grid import HexGrid
from sheetkit.core.play import play_out
from sheetkit.core.registry import get_game
from sheetkit.games.kingdom_maps import (
    BOTS,
    Bank,
    Board,
    Deal,
    GreedyBot,
    KingdomParams,
    KingdomState,
    RandomBot,
)
from sheetkit.games.kingdom_maps.expert import ExpertBot
from sheetkit.games.kingdom_maps.hindsight import hindsight
from sheetkit.games.kingdom_maps.lines import best_bank

FAST = 0.1  # a budget that keeps a whole expert game near a second


def play(state: KingdomState, bots: list) -> KingdomState:
    """Play to the end on the checked path (every move must be legal)."""
    return play_out(state, bots, fast=False)


def test_expert_is_registered_with_the_bots_and_the_spec() -> None:
    spec = get_game("kingdom-maps")
    bot = BOTS["expert"](seed=3, budget=0.5)
    assert bot.name == "expert" and bot.slow is True
    assert spec.bots["expert"] is ExpertBot and spec.hindsight is hindsight


def test_expert_plays_legal_moves_solo_and_against_others() -> None:
    solo = play(KingdomState(players=1, seed=11), [ExpertBot(seed=1, budget=FAST)])
    assert solo.is_terminal() and solo.scores()[0] > 0
    duo = play(KingdomState(players=2, seed=12), [GreedyBot(), ExpertBot(seed=2, budget=FAST)])
    assert duo.is_terminal()


def test_expert_is_deterministic_with_its_seed() -> None:
    a = play(KingdomState(players=1, seed=5), [ExpertBot(seed=9, budget=FAST)])
    b = play(KingdomState(players=1, seed=5), [ExpertBot(seed=9, budget=FAST)])
    assert a.log == b.log


def _first_drawing(dice: tuple[int, ...]) -> list:
    """The expert's moves for the first drawing of a fixed deal (criteria and first roll the same)."""
    state = KingdomState(players=1, deal=Deal(("A2", "A4", "B1", "B5"), dice))
    state.apply_chance()
    state.apply_chance()
    bot, moves = ExpertBot(seed=4, budget=FAST), []
    while state.step == 1 and not state.is_chance_node():
        move = bot.act(state, 0)
        moves.append(move)
        state.apply(0, move)
    return moves


def test_expert_reads_no_future_dice() -> None:
    """Two deals that differ only in the dice still to come get the same first drawing."""
    first = (2, 4, 5)
    a = _first_drawing(first + (1, 1, 6, 6, 6) * 30)
    b = _first_drawing(first + (6, 5, 2, 3, 1) * 30)
    assert a == b and len(a) >= 2


def test_evaluate_prices_every_action_and_banks_differ_by_the_criterion_scores() -> None:
    state = KingdomState(players=1, seed=21)
    bots = [GreedyBot()]
    bot = ExpertBot(seed=0, budget=0.25)
    lo, hi = state.score_bounds()
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
            continue
        acts = state.legal_actions(0)
        if acts and isinstance(acts[0], Bank) and len(acts) > 1:
            values = bot.evaluate(state, 0, acts)
            scores = state.criterion_scores(0)
            # a bank changes nothing else: with the same sampled dice the futures are the same
            assert [v - values[0] for v in values] == pytest.approx(
                [scores[a.criterion] - scores[acts[0].criterion] for a in acts])
            assert acts[values.index(max(values))] == best_bank(state, 0)
            checked += 1
        elif state.turn in (1, 6) and state.step == 1 and state.phase == "announce":
            values = bot.evaluate(state, 0, acts)
            assert len(values) == len(acts)
            assert all(lo <= v <= hi for v in values)
            assert max(values) > min(values)  # the choice matters
        state.apply(0, bots[0].act(state, 0))
    assert checked >= 1


@pytest.mark.parametrize("seed", range(8))
def test_greedy_rollouts_take_over_drawings_from_any_state(seed: int) -> None:
    """Rollouts (and evaluate) hand half-drawn drawings to greedy bots: every move they make must be legal.

    A random bot starts drawings and the greedy bot finishes them — its own bot, a fresh one, or one just
    reset the way rollouts reset it (the reported IndexError of ``_places(...)[plan[k]]`` lived here).
    """
    rng = random.Random(seed)
    players = [1, 1, 2, 3][seed % 4]
    state = KingdomState(players=players, seed=500 + seed)
    rand, greedy = RandomBot(seed), [GreedyBot() for _ in range(players)]
    taken_over = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
            continue
        for p in state.current_players():
            roll = rng.random()
            if roll < 0.35:
                move = rand.act(state, p)
            else:
                bot = greedy[p] if roll < 0.75 else GreedyBot()
                if roll > 0.9:
                    bot._want = bot._plan = None
                taken_over += bool(state.sheets[p].placed)
                move = bot.act(state, p)
            state.apply(p, move)  # checked: raises on an illegal move
    assert taken_over > 10


def test_expert_beats_greedy_on_average() -> None:
    """A smoke test of strength (the full figure: benchmarks/bot_strength.py --game kingdom-maps)."""
    diffs = []
    for seed in range(4):
        greedy = play_out(KingdomState(players=1, seed=seed), [GreedyBot()], fast=True).scores()[0]
        expert = play_out(KingdomState(players=1, seed=seed), [ExpertBot(seed=seed, budget=FAST)],
                          fast=True).scores()[0]
        diffs.append(expert - greedy)
    assert statistics.mean(diffs) > 5, diffs


# ----- hindsight -----------------------------------------------------------------------------------------
def tiny_params(hexes: int) -> KingdomParams:
    """A 7-hex hexagon, or a 5-hex map, each with a +1/-1 hex and a ? hex."""
    if hexes == 7:
        board = Board(HexGrid.hexagon(1).hexes, powers=[(1, 0)], questions=[(0, 0)], name="tiny")
    else:
        board = Board([(0, 0), (1, 0), (0, 1), (-1, 1), (1, -1)], powers=[(1, 0)], questions=[(0, 1)], name="five")
    return KingdomParams(inline_map=board)


def brute_force(state: KingdomState) -> int:
    """The best final total over every sequence of legal moves, memoised on what decides the rest of the game."""
    memo: dict[tuple, int] = {}

    def key(s: KingdomState) -> tuple:
        sh = s.sheets[0]
        return (tuple(sh.cells), tuple(sh.uses), sh.powers, sh.spent, sh.die, sh.shift, tuple(sorted(sh.placed)),
                sh.passed, sh.questions, sum(p for _, p in sh.banked), s.turn, s.step, s.phase, tuple(s.dice),
                s.terrain, s.taken, s.ending)

    def best(s: KingdomState) -> int:
        k = key(s)
        if k not in memo:
            if s.is_terminal():
                memo[k] = s.scores()[0]
            elif s.is_chance_node():
                nxt = s.clone()
                nxt.apply_chance()
                memo[k] = best(nxt)
            else:
                out = -1
                for act in s.legal_actions(0):
                    nxt = s.clone()
                    nxt.apply(0, act)
                    out = max(out, best(nxt))
                memo[k] = out
        return memo[k]

    return best(state)


@pytest.mark.parametrize(("hexes", "dice"), [(7, (3, 2, 5, 4, 1)), (7, (6, 6, 1, 2, 2)),
                                             (5, (3, 2, 5, 4, 1, 2, 6, 1, 3, 3))])
def test_hindsight_finds_the_true_optimum_on_a_tiny_map(hexes: int, dice: tuple[int, ...]) -> None:
    """One turn on 7 hexes, two turns on 5 (the deal's dice run out): every game enumerated by brute force."""
    deal = Deal(("A2", "A4", "B1", "B5"), dice)
    got = hindsight(KingdomState(tiny_params(hexes), players=1, deal=deal), 0, width=100_000)
    assert got.exact
    assert got.score == brute_force(KingdomState(tiny_params(hexes), players=1, deal=deal))
    assert replay_score(KingdomState(tiny_params(hexes), players=1, deal=deal), got.actions) == got.score
    narrow = hindsight(KingdomState(tiny_params(hexes), players=1, deal=deal), 0, width=1)
    assert narrow.score <= got.score


def replay_score(state: KingdomState, actions: tuple) -> int:
    moves = iter(actions)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
            continue
        state.apply(0, next(moves))
    assert next(moves, None) is None
    return state.scores()[0]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_hindsight_replays_and_is_at_least_the_expert(seed: int) -> None:
    got = hindsight(KingdomState(players=1, seed=seed), 0, budget=0.5)
    assert not got.exact
    assert replay_score(KingdomState(players=1, seed=seed), got.actions) == got.score
    expert = play_out(KingdomState(players=1, seed=seed), [ExpertBot(seed=seed, budget=FAST)], fast=True)
    greedy = play_out(KingdomState(players=1, seed=seed), [GreedyBot()], fast=True)
    assert got.score >= expert.scores()[0] and got.score >= greedy.scores()[0]


def test_hindsight_against_opponents_replays_against_the_same_opponents() -> None:
    """With 2 players the opponent plays as it would (here a seeded random bot); the moves replay to the score."""
    got = hindsight(KingdomState(players=2, seed=4), 0, opponents=[None, RandomBot(5)], budget=0.3)
    state, opponent, moves = KingdomState(players=2, seed=4), RandomBot(5), iter(got.actions)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
            continue
        for p in state.current_players():
            state.apply(p, next(moves) if p == 0 else opponent.act(state, p))
    assert state.scores()[0] == got.score and next(moves, None) is None


class Recorder:
    """A bot that keeps the moves of the bot it wraps."""

    def __init__(self, bot: ExpertBot) -> None:
        self.bot, self.name, self.moves = bot, bot.name, []

    def act(self, state: KingdomState, player: int) -> object:
        move = self.bot.act(state, player)
        self.moves.append(move)
        return move


def test_hindsight_given_the_experts_game_never_scores_below_it() -> None:
    """On deal 7 a narrow search alone ends below the expert (171 < 183); seeded with the expert's game it cannot."""
    expert = Recorder(ExpertBot(seed=7, budget=0.25))
    played = play_out(KingdomState(players=1, seed=7), [expert], fast=True).scores()[0]
    alone = hindsight(KingdomState(players=1, seed=7), 0, budget=0.34)
    assert alone.score < played  # the case the seed is for: the one-game judge dropped the expert's line
    seeded = hindsight(KingdomState(players=1, seed=7), 0, budget=0.34, baseline=expert.moves)
    assert seeded.score >= played
    assert replay_score(KingdomState(players=1, seed=7), seeded.actions) == seeded.score


def test_hindsight_without_a_baseline_never_scores_below_the_greedy_bot() -> None:
    for seed in (3, 8):
        greedy = play_out(KingdomState(players=1, seed=seed), [GreedyBot()], fast=True).scores()[0]
        got = hindsight(KingdomState(players=1, seed=seed), 0, width=1, options=1, groups=1)
        assert got.score >= greedy
        assert replay_score(KingdomState(players=1, seed=seed), got.actions) == got.score
