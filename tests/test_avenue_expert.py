"""Avenue's expert bot and hindsight search: legal, reproducible, blind to hidden cards, stronger than greedy;
hindsight optimal where every line can be tried, and its moves replay to its score."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from sheetkit.core.bots import RecordingBot
from sheetkit.core.play import play_out, step_table
from sheetkit.core.registry import get_game
from sheetkit.games.avenue import BOTS, AvenueParams, AvenueState, GreedyBot, Layout, Pass, Peek, new_game
from sheetkit.games.avenue.expert import ExpertBot
from sheetkit.games.avenue.hindsight import hindsight
from sheetkit.games.avenue.plan import Line


class Checked:
    """Wraps a bot: every action it picks must be legal, and thinking must not change the game."""

    def __init__(self, bot: Any) -> None:
        self.bot, self.name, self.picked = bot, bot.name, 0

    def act(self, state: AvenueState, player: int) -> Any:
        before = state.fingerprint()
        action = self.bot.act(state, player)
        assert state.fingerprint() == before, "the expert changed the game while thinking"
        assert action in state.legal_actions(player), f"the expert chose {action!r}, which is not legal"
        self.picked += 1
        return action


def _reshuffle_hidden(state: AvenueState, rng: np.random.Generator) -> AvenueState:
    """A copy whose face-down cards lie in another order (a farm this player peeked at stays on top)."""
    other = state.clone()
    rest = other.road_deck.order()[other.road_deck._pos:]
    other.road_deck.replace_rest([rest[k] for k in rng.permutation(len(rest))])
    farms = other.farm_deck.order()[other.farm_deck._pos:]
    keep = 1 if other.peeked[0] else 0
    tail = farms[keep:]
    other.farm_deck.replace_rest(farms[:keep] + [tail[k] for k in rng.permutation(len(tail))])
    return other


def test_expert_is_registered_as_a_slow_expert_bot() -> None:
    """Bots — 'expert' is in Avenue's bot list and the registry, thinks off the click path and can evaluate."""
    assert BOTS["expert"] is ExpertBot and get_game("avenue").bots["expert"] is ExpertBot
    bot = BOTS["expert"](seed=3, budget=0.5)
    assert bot.name == "expert" and bot.slow is True and callable(bot.evaluate)
    with pytest.raises(ValueError, match="budget"):
        ExpertBot(seed=0, budget=0)


def test_expert_plays_only_legal_moves_at_a_two_player_table() -> None:
    """docs/avenue.md §Drawing a road, §Peeking, §Playing together — the expert draws in empty cells and peeks at
    most once a round, beside another player."""
    state = new_game(["expert", "greedy"], seed=17, variant="short")
    bots = [Checked(ExpertBot(seed=1, budget=0.2)), Checked(GreedyBot())]
    play_out(state, bots)
    assert state.is_terminal() and bots[0].picked >= 10
    peeks = [e for e in state.log if e.get("player") == 0 and e["action"] == Peek().to_json()]
    assert len(peeks) <= state.params.rounds


def test_expert_passes_when_its_sheet_is_full() -> None:
    """docs/avenue.md §Passing — with more road cards than cells the expert fills its sheet, then peeks or passes."""
    params = AvenueParams().with_changes(deck=((8, 8),) * 6, yellows_per_round=9)
    state = AvenueState(params, ["A"], seed=3)
    play_out(state, [Checked(ExpertBot(seed=2, budget=0.05))])
    assert state.sheets[0].free == 0
    assert any(e.get("action") == Pass().to_json() for e in state.log)


def test_expert_is_deterministic_given_its_seed() -> None:
    """architecture.md — the same seed on the same deal plays the same game; asking twice gives the same move."""
    def record(seed: int) -> list[dict[str, Any]]:
        state = new_game(1, seed=99, variant="short")
        play_out(state, [ExpertBot(seed=seed, budget=0.2)])
        return state.log

    assert record(4) == record(4)
    state = new_game(1, seed=5)
    step_table(state)
    bot = ExpertBot(seed=7, budget=0.3)
    assert bot.act(state, 0) == bot.act(state, 0) == ExpertBot(seed=7, budget=0.3).act(state, 0)


@pytest.mark.parametrize("peek_first", [False, True])
def test_expert_never_reads_the_hidden_order(peek_first: bool) -> None:
    """docs/avenue.md §Setup, §Peeking — two games that differ only in the face-down order get the same move and
    the same evaluation."""
    state = new_game(1, seed=41)
    step_table(state)
    if peek_first:
        state.apply(0, Peek())
        step_table(state)
    bot = ExpertBot(seed=8, budget=0.3)
    for step in range(3):
        other = _reshuffle_hidden(state, np.random.default_rng(step))
        assert other.road_deck.order() != state.road_deck.order()
        assert other.view(0) == state.view(0)
        assert bot.act(other, 0) == bot.act(state, 0)
        acts = state.legal_actions(0)[:5]
        assert bot.evaluate(other, 0, acts) == bot.evaluate(state, 0, acts)
        state.apply(0, bot.act(state, 0))
        step_table(state)


def test_evaluate_is_exact_on_the_last_card() -> None:
    """docs/avenue.md §Final score — on the game's last card nothing is left to chance, so every move's value is
    the final score it makes."""
    spreads = []
    for seed in range(12, 60):
        state = new_game(1, seed=seed, variant="quick")   # a shorter game leaves cells free at the end
        greedy = GreedyBot()
        step_table(state)
        while not (state.round == state.params.rounds and state.round_ends_after_this_card()):
            state.apply(0, greedy.act(state, 0))
            step_table(state)
        acts = state.legal_actions(0)
        values = ExpertBot(seed=0, budget=0.1).evaluate(state, 0, acts)
        assert len(values) == len(acts)
        for a, v in zip(acts, values, strict=True):
            after = state.clone()
            after.apply(0, a)
            step_table(after)
            assert after.is_terminal() and v == after.total(0), (seed, a)
        spreads.append(max(values) - min(values))
        if spreads[-1] > 0:
            break
    assert spreads[-1] > 0, spreads   # on some deal the last card still matters, and the values say so


def test_evaluate_values_are_scores_in_range() -> None:
    """Bots — evaluate gives one value per action, in points, within the game's score bounds."""
    state = new_game(1, seed=23)
    step_table(state)
    acts = state.legal_actions(0)
    values = ExpertBot(seed=0, budget=0.25).evaluate(state, 0, acts)
    low, high = state.score_bounds()
    assert len(values) == len(acts) and all(low <= v <= high for v in values)
    assert ExpertBot(seed=0).evaluate(state, 0, []) == []


def test_line_plays_the_rules_like_the_engine() -> None:
    """docs/avenue.md §A round … §Final score — the planners' fast line, told the real deal, ends every greedy
    game with the engine's score."""
    for seed in range(15):
        for variant in ("standard", "quick", "norise"):
            real = new_game(1, seed=seed, variant=variant)
            fast = real.clone()
            play_out(real, [GreedyBot()], fast=True)
            step_table(fast)
            assert Line.from_state(fast, 0).finish_greedy() == real.total(0), (seed, variant)


def test_expert_beats_greedy_on_the_same_deals() -> None:
    """Bots — on 8 seeded deals the expert (at a fifth of its budget) outscores greedy on average."""
    expert, greedy = [], []
    for seed in range(8):
        a, b = new_game(1, seed=1000 + seed), new_game(1, seed=1000 + seed)
        play_out(a, [ExpertBot(seed=seed, budget=0.2)], fast=True)
        play_out(b, [GreedyBot()], fast=True)
        expert.append(a.total(0))
        greedy.append(b.total(0))
    assert np.mean(expert) >= np.mean(greedy) + 8, (np.mean(expert), np.mean(greedy))


# ----- hindsight ------------------------------------------------------------------------------------------------
TINY = Layout.from_json({"name": "tiny", "rows": 3, "cols": 3, "map": ["#p pp A", "gg . pg", "B gp #g"]})
# Four road cards (three yellow), two rounds ending on the 2nd yellow: every line of moves can be tried.
TINY_PARAMS = AvenueParams(rounds=2, yellows_per_round=2, deck=((1, 0), (0, 1), (1, 0), (0, 0), (1, 0), (0, 0)),
                           inline_layout=TINY)


def _brute_force(state: AvenueState) -> int:
    """The best final score over every sequence of legal moves, tried one by one on the engine itself."""
    step_table(state)
    if state.is_terminal():
        return state.total(0)
    best = None
    for action in state.legal_actions(0):
        child = state.clone()
        child.apply(0, action)
        value = _brute_force(child)
        best = value if best is None else max(best, value)
    assert best is not None
    return best


def _replay(state: AvenueState, actions: tuple[Any, ...], player: int = 0) -> AvenueState:
    """Play ``actions`` for ``player`` on a copy of ``state`` through the checked path (others play greedy)."""
    game = state.clone()
    moves = iter(actions)
    others = GreedyBot()
    while not game.is_terminal():
        if game.is_chance_node():
            game.apply_chance()
            continue
        for p in game.current_players():
            game.apply(p, next(moves) if p == player else others.act(game, p))
    assert next(moves, None) is None, "hindsight returned more moves than the game has cards"
    return game


@pytest.mark.parametrize("seed", range(6))
def test_hindsight_finds_the_true_optimum_on_a_tiny_deck(seed: int) -> None:
    """docs/avenue.md §Variants — on a 3 × 3 sheet with four road cards every line can be tried: hindsight says
    its score is exact, it equals the best of all lines, and its moves replay to it."""
    state = AvenueState(TINY_PARAMS, 1, seed=seed)
    found = hindsight(state, 0)
    assert found.exact
    assert found.score == _brute_force(state.clone())
    assert _replay(state, found.actions).total(0) == found.score


def test_hindsight_is_registered_and_its_moves_replay_to_its_score() -> None:
    """docs/avenue.md §Final score — on a full game the hindsight line is a real game: replayed move by move
    through the checked path on the same deal, it scores what hindsight said."""
    assert get_game("avenue").hindsight is hindsight
    state = new_game(1, seed=2026)
    found = hindsight(state, 0, budget=0.25)
    assert not found.exact   # too big to try every line: an "at least" score
    assert _replay(state, found.actions).total(0) == found.score
    two = new_game(["You", "Bot"], seed=2026)   # another sheet on the table changes nothing for this player
    assert hindsight(two, 0, budget=0.25) == found
    assert _replay(two, found.actions).total(0) == found.score


def test_hindsight_beats_greedy_and_the_expert_on_the_same_deals() -> None:
    """Bots — told the deal in advance, hindsight scores at least what greedy and the expert score on it."""
    for seed in range(3):
        state = new_game(1, seed=300 + seed)
        bound = hindsight(state, 0, budget=0.5).score   # half its beam width, to keep the test quick
        for bot in (GreedyBot(), ExpertBot(seed=seed, budget=0.3)):
            game = state.clone()
            play_out(game, [bot], fast=True)
            assert bound >= game.total(0), (seed, bot.name, bound, game.total(0))


def test_hindsight_given_the_experts_game_never_scores_below_it() -> None:
    """Bots — on deal 5 a one-line beam alone ends below the expert (88 < 102); given the expert's game as its
    baseline it cannot, and the moves it returns replay to its score."""
    expert = RecordingBot(ExpertBot(seed=5, budget=0.25))
    played = play_out(AvenueState(players=["x"], seed=5), [expert], fast=True).total(0)
    assert hindsight(AvenueState(players=["x"], seed=5), 0, budget=0.125).score < played
    found = hindsight(AvenueState(players=["x"], seed=5), 0, budget=0.125, baseline=expert.moves)
    assert found.score >= played
    assert _replay(AvenueState(players=["x"], seed=5), found.actions).total(0) == found.score
