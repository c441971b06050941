"""The one play loop (sheetkit.core.play): where it stops, what it yields, determinism, broken games; the seating."""

from __future__ import annotations

import pytest

from sheetkit.core.chance import derive_seed
from sheetkit.core.errors import BrokenGame
from sheetkit.core.play import (
    Step,
    advance,
    apply_entry,
    bot_kind,
    bot_names,
    bot_seed,
    play_out,
    run,
    seat_bots,
    step_table,
)
from sheetkit.games.avenue import BOTS as AVENUE_BOTS
from sheetkit.games.avenue import Draw, Pass, new_game
from sheetkit.games.key_harvest import BOTS as KH_BOTS
from sheetkit.games.key_harvest import KeyHarvestState
from sheetkit.games.kingdom_maps import BOTS as KM_BOTS
from sheetkit.games.kingdom_maps import Announce, KingdomState


def test_it_stops_where_a_person_must_decide_and_the_bots_wait_for_them():
    """At Avenue's first card every sheet is to draw: the loop flips it and stops before any bot draws."""
    state = new_game(["You", "Greedy bot"], seed=4)
    steps = list(advance(state, seat_bots(AVENUE_BOTS, ["greedy"], 4), people={0}))
    assert steps and all(s.chance for s in steps)
    assert state.current_players() == [0, 1]          # the bot has not drawn before you
    assert state.legal_actions(0)
    state.apply(0, next(a for a in state.legal_actions(0) if isinstance(a, Draw)))
    after = list(advance(state, seat_bots(AVENUE_BOTS, ["greedy"], 4), people={0}))
    assert after[0].player == 1 and isinstance(after[0].action, Draw)   # then the bot draws
    assert not state.is_terminal() and 0 in state.current_players()


def test_it_yields_every_table_step_and_move_in_the_order_of_the_log():
    """What the loop yields is what the record logs: table steps with their entries, moves with their seats."""
    state = KeyHarvestState(None, ["A", "B", "C"], seed=8)
    steps = list(advance(state, seat_bots(KH_BOTS, {0: "greedy", 1: "random", 2: "greedy"}, 8)))
    assert state.is_terminal()
    assert len(steps) == len(state.log)
    for step, entry in zip(steps, state.log, strict=True):
        assert isinstance(step, Step)
        if step.chance:
            assert step.entry == entry and step.action is None
        else:
            assert entry["player"] == step.player and entry["action"] == step.action.to_json()
    assert steps[0].entry["chance"] == "setup" and steps[-1].entry["chance"] == "end"


def test_the_same_seeds_play_the_same_game_and_play_out_is_the_loop():
    """Two runs with the same seeds give the same game, and play_out plays exactly that game."""
    def game() -> KingdomState:
        state = KingdomState(None, ["A", "B"], seed=21)
        run(advance(state, [KM_BOTS["greedy"](seed=1), KM_BOTS["random"](seed=2)]))
        return state

    a, b = game(), game()
    assert a.fingerprint() == b.fingerprint() and a.is_terminal()
    c = play_out(KingdomState(None, ["A", "B"], seed=21), [KM_BOTS["greedy"](seed=1), KM_BOTS["random"](seed=2)])
    assert c.fingerprint() == a.fingerprint()
    other = KingdomState(None, ["A", "B"], seed=22)
    run(advance(other, [KM_BOTS["greedy"](seed=1), KM_BOTS["random"](seed=2)]))
    assert other.log != a.log


def test_fast_plays_the_same_moves_without_checking():
    """The fast path reaches the same final scores as the checked one."""
    bots = lambda: [AVENUE_BOTS["greedy"](seed=3), AVENUE_BOTS["random"](seed=4)]  # noqa: E731
    checked = play_out(new_game(["A", "B"], seed=9), bots())
    fast = play_out(new_game(["A", "B"], seed=9), bots(), fast=True)
    assert fast.scores() == checked.scores()


def test_moves_caps_the_bot_moves_but_table_steps_still_run():
    """``moves=0``: the table's setup only; ``moves=1``: one bot move at a time, each followed by the table steps
    it leads to (a turn's refill), stopping where the next bot must move."""
    state = KeyHarvestState(None, ["A", "B"], seed=3)
    bots = [KH_BOTS["greedy"](seed=0), KH_BOTS["greedy"](seed=1)]
    first = list(advance(state, bots, moves=0))
    assert first and all(s.chance for s in first) and not state.is_chance_node()
    saw_table_step_after_a_move = False
    for _ in range(60):
        steps = list(advance(state, bots, moves=1))
        assert [s.chance for s in steps].count(False) == 1
        saw_table_step_after_a_move |= steps[-1].chance
        assert state.is_terminal() or not state.is_chance_node()
    assert saw_table_step_after_a_move


def test_flip_false_stops_at_a_table_step_and_person_move_plays_a_seat():
    """Avenue's table waits for Next card (flip=False); a known move (a forced pass) is made without stopping."""
    state = new_game(["You"], seed=5)
    assert list(advance(state, {}, people={0}, flip=False)) == []
    assert state.is_chance_node()
    run(advance(state, {}, people={0}))
    first = state.legal_actions(0)[0]
    given = iter([first])
    made = list(advance(state, {}, people={0}, person_move=lambda st, p: next(given, None)))
    assert made[0] == Step(0, first) and made[1].chance          # then the next card, then you again
    assert not state.is_chance_node() and state.current_players() == [0]


def test_person_move_plays_all_of_a_persons_moves_before_the_bots():
    """At Kingdom Maps' drawing every seat draws; seat 0 (a person or a replayed code) draws all its hexes first."""
    state = KingdomState(None, ["You", "Greedy bot"], seed=6)
    me = KM_BOTS["greedy"](seed=9)
    turn: list[int] = []
    for step in advance(state, seat_bots(KM_BOTS, ["greedy"], 6), people={0},
                        person_move=lambda st, p: me.act(st, p)):
        if step.chance and turn:
            break
        if not step.chance and not isinstance(step.action, Announce):
            turn.append(step.player)
    assert 0 in turn and 1 in turn
    assert turn == sorted(turn)       # all of seat 0's moves, then the bot's


def test_step_table_moves_to_the_first_decision():
    """step_table applies the table's steps only: Kingdom Maps' criteria and first roll."""
    state = KingdomState(None, 2, seed=5)
    step_table(state)
    assert [e["chance"] for e in state.log] == ["criteria", "roll"]
    assert state.current_players() == [0]


class _Leaky:
    """A Key Harvest state whose audit finds a broken conservation law."""

    def __init__(self, inner: KeyHarvestState) -> None:
        self.inner = inner

    def __getattr__(self, name: str):
        return getattr(self.inner, name)

    def audit(self) -> list[str]:
        return ["a counter vanished"]


def test_play_out_raises_broken_game_for_a_broken_law_or_a_game_that_stops():
    """A game that breaks a conservation law, or stalls with nobody to move, raises BrokenGame."""
    with pytest.raises(BrokenGame, match="a counter vanished"):
        play_out(_Leaky(KeyHarvestState(None, 2, seed=1)), [KH_BOTS["random"](seed=0), KH_BOTS["random"](seed=1)])

    class Stalled(_Leaky):
        def is_chance_node(self) -> bool:
            return False

        def current_players(self) -> list[int]:
            return []

    with pytest.raises(BrokenGame, match="nobody to move"):
        play_out(Stalled(KeyHarvestState(None, 2, seed=1)), [])


def test_seats_name_and_seed_the_bots_as_every_table_does():
    """'Greedy bot', 'Greedy bot 2'; names read back to kinds; seeds from derive_seed(seed, 'table-bot', seat)."""
    assert bot_names(["greedy", "random", "greedy", "expert"]) == ["Greedy bot", "Random bot", "Greedy bot 2",
                                                                   "Expert bot"]
    assert bot_kind("Greedy bot 2", ["random", "greedy"]) == "greedy"
    assert bot_kind("Expert bot", ["greedy"]) is None
    assert bot_kind("Greedy botany", ["greedy"]) is None
    assert bot_seed(77, 2) == derive_seed(77, "table-bot", 2)
    bots = seat_bots(AVENUE_BOTS, ["greedy", "random"], 77)
    assert sorted(bots) == [1, 2] and type(bots[2]) is AVENUE_BOTS["random"]
    again = seat_bots(AVENUE_BOTS, {2: "random"}, 77)
    s1, s2 = new_game(["A", "B", "C"], seed=1), new_game(["A", "B", "C"], seed=1)
    step_table(s1)
    step_table(s2)
    assert bots[2].act(s1, 2) == again[2].act(s2, 2)


def test_a_seat_without_a_bot_or_a_person_takes_its_first_legal_move():
    """A loaded record's seat whose bot is unknown is not left hanging."""
    state = new_game(["A"], seed=2)
    step_table(state)
    want = state.legal_actions(0)[0]
    step = next(s for s in advance(state, {}) if not s.chance)
    assert step.action == want and want != Pass()


def test_apply_entry_follows_a_games_own_log_to_the_same_game():
    """Following every entry of a finished game's log on a fresh copy of its deal rebuilds that very game."""
    played = KeyHarvestState(None, ["A", "B"], seed=12)
    run(advance(played, [KH_BOTS["greedy"](seed=1), KH_BOTS["random"](seed=2)]))
    copy = KeyHarvestState(None, ["A", "B"], seed=12)
    steps = [apply_entry(copy, entry) for entry in played.log]
    assert copy.fingerprint() == played.fingerprint()
    assert [s.player for s in steps] == [e.get("player") for e in played.log]
