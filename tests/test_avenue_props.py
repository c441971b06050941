"""Property tests: random legal and illegal Avenue actions keep the rules' invariants (hypothesis)."""

from __future__ import annotations

import json
from typing import Any

from avenue_oracle import oracle_network
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheetkit.core.errors import IllegalAction
from sheetkit.core.play import play_out
from sheetkit.core.records import replay
from sheetkit.games.avenue import PRESETS, AvenueState, Draw, Pass, Peek, RandomBot, load_layout, new_game
from sheetkit.games.avenue.sheet import Sheet, geometry

LAYOUT = load_layout("default")
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

players_st = st.integers(min_value=1, max_value=3)
seed_st = st.integers(min_value=0, max_value=2**40 - 1)
variant_st = st.sampled_from(sorted(PRESETS))
# Anything a confused caller might send: cells on and off the sheet, peeks, passes, and non-moves.
wild_action_st = st.one_of(
    st.builds(Draw, st.integers(-2, 8), st.integers(-2, 7)),
    st.just(Peek()), st.just(Pass()),
    st.sampled_from(["draw", None, 3, Draw(1.5, 2), Draw("1", "2")]),  # type: ignore[arg-type]
)


def snapshot(state: AvenueState) -> tuple[str, str]:
    """The whole state, byte for byte: fingerprint and record text."""
    return state.fingerprint(), json.dumps(state.to_record(), sort_keys=True)


def expect_refused(state: AvenueState, call: Any) -> None:
    """``call`` must raise IllegalAction and leave the state byte-identical."""
    before = snapshot(state)
    try:
        call()
    except IllegalAction as e:
        assert str(e) and e.code
    else:
        raise AssertionError("an illegal action was accepted")
    assert snapshot(state) == before


def frozen_rounds(state: AvenueState) -> list[list[tuple[int, int, int]]]:
    """Each player's finished rounds: (grapes, target, box)."""
    return [list(zip(state.grapes[p], state.targets[p], state.boxes[p], strict=True)) for p in range(state.num_players)]


def check_invariants(state: AvenueState, history: list[list[tuple[int, int, int]]]) -> None:
    """Finished rounds never change; scores stay within score_bounds."""
    now = frozen_rounds(state)
    for p in range(state.num_players):
        assert now[p][:len(history[p])] == history[p]
    history[:] = now
    lo, hi = state.score_bounds()
    assert all(lo <= s <= hi for s in state.scores())


@SETTINGS
@given(players=players_st, seed=seed_st, variant=variant_st, data=st.data())
def test_random_legal_and_illegal_actions(players: int, seed: int, variant: str, data: st.DataObject) -> None:
    """docs/avenue.md §Drawing a road, §Peeking — legal moves apply, illegal ones raise and change nothing; scored
    rounds stay put."""
    state = new_game(players, seed=seed, variant=variant)
    history: list[list[tuple[int, int, int]]] = [[] for _ in range(players)]
    while not state.is_terminal():
        kind = data.draw(st.sampled_from(["legal", "legal", "legal", "wild", "undo", "table"]))
        if state.is_chance_node():
            if kind == "wild":   # nobody may act while the table must flip
                p = data.draw(st.integers(0, players - 1))
                expect_refused(state, lambda p=p: state.apply(p, Peek()))
            state.apply_chance()
        elif kind == "legal":
            p = data.draw(st.sampled_from(state.current_players()))
            state.apply(p, data.draw(st.sampled_from(state.legal_actions(p))))
        elif kind == "wild":
            p = data.draw(st.integers(-1, players))
            action = data.draw(wild_action_st)
            legal = 0 <= p < players and action in state.legal_actions(p)
            if legal:
                state.apply(p, action)
            else:
                expect_refused(state, lambda p=p, a=action: state.apply(p, a))
        elif kind == "undo":
            p = data.draw(st.integers(0, players - 1))
            if state.can_undo(p):
                state.undo(p)
                assert p in state.current_players()
            else:
                expect_refused(state, lambda p=p: state.undo(p))
        else:
            expect_refused(state, state.apply_chance)   # players still have to act
        check_invariants(state, history)
    assert all(len(b) == state.params.rounds for b in state.boxes)
    expect_refused(state, state.apply_chance)
    expect_refused(state, lambda: state.apply(0, Peek()))
    # the record replays to the identical state (undone moves left no trace)
    assert replay(json.loads(json.dumps(state.to_record()))).fingerprint() == state.fingerprint()


def _without_log(state: AvenueState) -> dict[str, Any]:
    doc = json.loads(state.fingerprint())
    doc.pop("log")
    return doc


@SETTINGS
@given(players=players_st, seed=seed_st, variant=variant_st, bot_seed=st.integers(0, 10**6))
def test_fast_path_equals_checked_path(players: int, seed: int, variant: str, bot_seed: int) -> None:
    """architecture.md protocol — apply_fast (simulations) reaches exactly the state the checked path reaches."""
    checked = play_out(new_game(players, seed=seed, variant=variant),
                       [RandomBot(bot_seed + p) for p in range(players)])
    fast = play_out(new_game(players, seed=seed, variant=variant),
                    [RandomBot(bot_seed + p) for p in range(players)], fast=True)
    assert _without_log(fast) == _without_log(checked)
    assert fast.scores() == checked.scores() and fast.placings() == checked.placings()
    assert [fast.breakdown(p) for p in range(players)] == [checked.breakdown(p) for p in range(players)]
    lo, hi = checked.score_bounds()
    assert all(lo <= s <= hi for s in checked.scores())


@SETTINGS
@given(players=players_st, seed=seed_st, variant=variant_st, bot_seed=st.integers(0, 10**6),
       stop=st.integers(0, 200))
def test_record_replays_at_any_point(players: int, seed: int, variant: str, bot_seed: int, stop: int) -> None:
    """architecture.md protocol — the record of a game stopped anywhere replays to the identical state."""
    state = new_game(players, seed=seed, variant=variant)
    bots = [RandomBot(bot_seed + p) for p in range(players)]
    for _ in range(stop):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_chance()
        else:
            p = state.current_players()[0]
            state.apply(p, bots[p].act(state, p))
    again = replay(json.loads(json.dumps(state.to_record())))
    assert again.fingerprint() == state.fingerprint()
    assert again.scores() == state.scores()


@settings(max_examples=150, deadline=None)
@given(roads=st.dictionaries(st.tuples(st.integers(0, 6), st.integers(0, 5)), st.integers(1, 6), max_size=42))
def test_networks_follow_the_rule_text(roads: dict[tuple[int, int], int]) -> None:
    """docs/avenue.md §Networks, §Scoring farms, §Castles — farm and castle scores equal a from-the-text network
    count."""
    sheet = Sheet(geometry(LAYOUT))
    for (r, c), n in roads.items():
        sheet.place(r * 6 + c, n)

    def network(start: tuple[int, int]) -> set[tuple[int, int]]:
        return oracle_network(roads, start)

    def grapes(cells: set[tuple[int, int]], colour: int | None = None) -> int:
        return sum(sum(LAYOUT.grapes.get(c, (0, 0))) if colour is None else LAYOUT.grapes.get(c, (0, 0))[colour]
                   for c in cells)

    for farm, cell in LAYOUT.farms.items():
        assert sheet.farm_grapes(farm) == grapes(network(cell))
    assert sheet.castle_score("purple") == grapes(network(LAYOUT.castles["purple"]), 0)
    assert sheet.castle_score("green") == grapes(network(LAYOUT.castles["green"]), 1)
