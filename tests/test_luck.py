"""Luck or choices? (issue 16, part 4): the engine's analysis of a finished game, with stand-in experts.

The stand-ins (tests/stand_ins.py) follow the Expert and Hindsight protocols, so these tests hold for
whichever real expert a game gets.
"""

from __future__ import annotations

from typing import Any

import pytest
from stand_ins import StandInExpert, stand_in_hindsight

from sheetkit.analysis.luck import Cancelled, LuckBudget, analyse, baseline, decisions_of, fresh_deal, value_decision
from sheetkit.analysis.results import play_as_table
from sheetkit.games.avenue import new_game
from sheetkit.games.avenue.moves import Draw

CHEAP = LuckBudget(expert=1.0, hindsight=1.0, screen=1.0, check=1.0, checked=4)


class WorstOnce:
    """Plays like the stand-in expert, except at its ``spoil``-th real choice, where it plays its worst move."""

    name = "spoiler"

    def __init__(self, spoil: int) -> None:
        self.spoil, self.choices = spoil, 0
        self.expert = StandInExpert()

    def act(self, state: Any, player: int) -> Any:
        legal = state.legal_actions(player)
        if len(legal) > 1:
            self.choices += 1
            if self.choices == self.spoil:
                values = self.expert.evaluate(state, player, legal)
                worst = [a for a, v in zip(legal, values, strict=True) if isinstance(a, Draw)]
                return min(worst, key=lambda a: values[legal.index(a)])
        return self.expert.act(state, player)


def short_solo(seed: int, me: Any) -> Any:
    """A finished short Avenue game (3 rounds), solo, with ``me`` choosing every move."""
    state = new_game(["You"], seed=seed, variant="short")
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
        else:
            state.apply(0, me.act(state, 0))
    return state


def report(state: Any, **kw: Any) -> Any:
    return analyse(state, 0, [], expert=StandInExpert, hindsight=stand_in_hindsight, budget=CHEAP, **kw)


def test_the_expert_own_moves_cost_nothing() -> None:
    game = short_solo(3, StandInExpert())
    r = report(game)
    assert r.considered > 5
    assert r.decisions == ()            # no decision gave anything away
    assert r.expert_score == r.score    # the expert on the same deal plays the same game
    assert r.choices == 0
    before, played, legal = decisions_of(game)[0]
    best, v_best, v_played, _ = value_decision(StandInExpert, 0, 1, before, 0, played, legal, 1.0)
    assert best == played and v_best == v_played


def test_a_deliberately_bad_move_shows_as_the_costliest() -> None:
    game = short_solo(3, WorstOnce(spoil=4))
    r = report(game)
    assert r.decisions, "the spoiled move must show"
    worst = r.decisions[0]
    assert worst.number == 4
    assert worst.cost >= 5              # the worst cell of the sheet, by the stand-in's own values
    assert worst.played != worst.best
    # the sheet before it: the three moves before, nothing of the move itself
    assert sum(1 for e in worst.before.log if e.get("player") == 0) == 3
    assert worst.before.legal_actions(0).count(worst.played) == 1


def test_the_same_game_gives_the_same_report() -> None:
    game = play_as_table("avenue", 11, "random", ["greedy"])
    a, b = (analyse(game, 0, ["greedy"], expert=StandInExpert, hindsight=stand_in_hindsight,
                    budget=LuckBudget(screen=1.0, check=1.0, checked=3)) for _ in range(2))
    assert (a.score, a.expert_score, a.hindsight, a.considered) == (b.score, b.expert_score, b.hindsight, b.considered)
    assert [(d.number, d.played, d.best, d.cost) for d in a.decisions] == \
           [(d.number, d.played, d.best, d.cost) for d in b.decisions]
    assert len(a.decisions) == 3
    assert a.decisions[0].cost >= a.decisions[1].cost >= a.decisions[2].cost > 0


def test_progress_runs_to_the_end_and_cancel_stops() -> None:
    game = short_solo(5, StandInExpert())
    seen: list[float] = []
    report(game, progress=lambda f, _w: seen.append(f))
    assert seen[-1] == 1.0 and seen == sorted(seen) and len(seen) > 10
    asked: list[float] = []
    with pytest.raises(Cancelled):
        report(game, progress=lambda f, _w: asked.append(f), cancel=lambda: len(asked) > 3)
    assert len(asked) < len(seen)


def test_the_expert_replays_the_deal_with_the_table_bots() -> None:
    game = play_as_table("key-harvest", 4, "greedy", ["greedy", "greedy"])
    # the person played like greedy: the greedy bot "as expert" on the same deal and bots gives the same game
    from sheetkit.games.key_harvest import BOTS

    class AsExpert(BOTS["greedy"]):  # type: ignore[misc,valid-type]
        def __init__(self, seed: int = 0, budget: float = 1.0) -> None:
            super().__init__(seed=0)

        def evaluate(self, state: Any, player: int, actions: Any) -> list[float]:
            return [0.0] * len(actions)

    as_expert = AsExpert

    r = analyse(game, 0, ["greedy", "greedy"], expert=as_expert, hindsight=None,
                budget=LuckBudget(screen=1.0, checked=0))
    assert r.expert_score == r.score and r.choices == 0


def test_a_game_not_finished_is_refused_and_a_person_at_the_table_is_said() -> None:
    game = new_game(["You"], seed=1)
    with pytest.raises(Exception, match="not finished"):
        analyse(game, expert=StandInExpert)
    done = play_as_table("avenue", 2, "greedy", ["greedy"])
    done.players[1] = "Anna"
    r = analyse(done, 0, None, expert=StandInExpert, hindsight=None, budget=LuckBudget(screen=0.1, checked=0))
    assert r.expert_score is None and any("Another person" in n for n in r.notes)
    assert fresh_deal(done).seed == done.seed


def test_a_game_without_an_expert_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    game = short_solo(2, StandInExpert())
    from sheetkit.core.registry import get_game

    monkeypatch.delitem(get_game("avenue").bots, "expert", raising=False)   # a game with no expert (yet)
    r = analyse(game, 0, [], hindsight=None)
    assert r.expert_score is None and r.decisions == () and "no expert" in r.notes[0]


def test_baselines_name_game_variant_and_opponents() -> None:
    assert baseline("avenue", "no-such-variant", []) is None
    any_bots = baseline("avenue", "standard", ["greedy", "random"])      # Avenue's opponents never change your score
    assert any_bots is not None and any_bots == baseline("avenue", "standard", [])
    assert any_bots.deals >= 10 and "benchmarks/luck_panel.py" in any_bots.how
    assert baseline("key-harvest", "standard", ["greedy", "greedy"]) is not None
    assert baseline("key-harvest", "standard", ["random"]) is None       # other opponents: another average


def test_the_best_known_on_a_deal_is_the_higher_of_the_two_games_played_on_it() -> None:
    from sheetkit.analysis.luck import Baseline, LuckReport
    from sheetkit.core.protocol import HindsightResult

    r = LuckReport("avenue", "standard", 0, 10, 40, HindsightResult(35, ()), Baseline(30.0, 5.0, 20, "test"), (), 9)
    assert r.best == 40 and r.choices == 30 and r.luck == 5.0
    r = LuckReport("avenue", "standard", 0, 10, 20, HindsightResult(35, ()), None, (), 9)
    assert r.best == 35 and r.luck is None


def _replayed(state: Any, moves: list[Any]) -> int:
    """The score ``moves`` reach on the deal of ``state``, played from its start."""
    sim, left = fresh_deal(state), iter(moves)
    while not sim.is_terminal():
        if sim.is_chance_node():
            sim.apply_chance()
        else:
            sim.apply(0, next(left))
    return int(sim.scores()[0])


@pytest.mark.parametrize("you_play_well", [False, True])
def test_the_hindsight_search_starts_from_the_better_game_played_on_the_deal(you_play_well: bool) -> None:
    """The panel hands the search the better of the expert's game and yours, so its best is never below either."""
    from sheetkit.core.bots import RandomBot

    given: list[list[Any]] = []

    def search(state: Any, player: int, opponents: Any = None, budget: float = 1.0, baseline: Any = None) -> Any:
        given.append(list(baseline))
        return stand_in_hindsight(state, player, opponents, budget)

    class RandomExpert(StandInExpert):
        """Values moves as the stand-in does but plays at random: an expert a good player beats."""

        def act(self, state: Any, player: int) -> Any:
            return RandomBot(seed=self.seed).act(state, player)

    you, expert = (StandInExpert(), RandomExpert) if you_play_well else (RandomBot(seed=4), StandInExpert)
    game = short_solo(11, you)
    r = analyse(game, 0, [], expert=expert, hindsight=search, budget=LuckBudget(screen=0.1, checked=0))
    yours = int(game.scores()[0])
    assert yours != r.expert_score
    assert len(given) == 1 and _replayed(game, given[0]) == max(yours, r.expert_score)
