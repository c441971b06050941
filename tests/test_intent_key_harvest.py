"""What a click or a button means at the Key Harvest table, without a browser or a widget
(widgets/key_harvest/intent.py): the composer builds a bid from a registry tile and counters, a
worker's spaces, a harvest; every refusal is the engine's words and changes nothing."""

from __future__ import annotations

import pytest
from intent_util import refusal
from key_harvest_util import put_in_store, set_counters, table
from sheetkit.widgets.key_harvest import intent
from sheetkit.widgets.key_harvest.intent import Compose, Composer, Move

from sheetkit.core.errors import IllegalAction
from sheetkit.games.key_harvest import Bid, Buy, Harvest, PlaceWorker
from sheetkit.games.key_harvest.moves import EndTurn, RemoveWorker


def test_a_registry_tile_then_counters_builds_the_bid_the_engine_accepts():
    s = table(active=0, p0=["A1"])
    set_counters(s, 0, (2, 0, 1, 0, 0))
    c = Composer()
    code = s.registry[0]
    out = intent.town_click(s, 0, c, ("registry", code))
    assert out == Compose(next="counters", town_first=True)      # the counters come next
    assert (c.mode, c.tile, c.bid) == ("bid", code, [0, 0, 0, 0, 0])
    intent.add_counter(s, 0, c, 0)
    intent.add_counter(s, 0, c, 0)
    intent.add_counter(s, 0, c, 2)
    move = intent.confirm_bid(s, 0, c)
    assert move == Move(Bid(code, (2, 0, 1, 0, 0)))
    s.apply(0, move.action)
    intent.after_move(c, move.action)
    assert c == Composer()                                        # the composer is put away after the move
    assert s.stores[0][-1][0] == code


def test_a_counter_you_do_not_have_and_an_empty_bid_are_refused_and_the_bid_stays():
    s = table(active=0, p0=["A1"])
    set_counters(s, 0, (1, 0, 0, 0, 0))
    c = Composer()
    assert "registry tile" in str(refusal(intent.add_counter, s, 0, c, 0))   # no tile chosen yet
    intent.town_click(s, 0, c, ("registry", s.registry[0]))
    assert str(refusal(intent.confirm_bid, s, 0, c)) == "a bid needs at least one counter"     # the engine's words
    intent.add_counter(s, 0, c, 0)
    e = refusal(intent.add_counter, s, 0, c, 0)
    assert str(e) == "You have only 1 wine behind your screen."
    assert c.bid == [1, 0, 0, 0, 0]


def test_a_registry_tile_after_bid_then_harvest_is_refused_with_the_engines_reason():
    s = table(active=0, p0=["A1"])
    set_counters(s, 0, (2, 0, 0, 0, 0))
    s.apply(0, Bid(s.registry[0], (1, 0, 0, 0, 0)))
    s.apply(0, Harvest("A1"))         # the bid action is over: no second bid after another action
    c = Composer()
    e = refusal(intent.town_click, s, 0, c, ("registry", s.registry[0]))
    assert s.may(0, "bid") is not None
    assert str(e) == f"You cannot bid for {s.registry[0]} now: {s.may(0, 'bid')[0]}."
    assert c == Composer()


def test_buy_after_bid_is_refused_in_the_engines_words():
    s = table(active=0, p0=["A1"])
    set_counters(s, 0, (1, 0, 0, 0, 0))
    s.apply(0, Bid(s.registry[0], (1, 0, 0, 0, 0)))
    e = refusal(intent.press_action, s, 0, Composer(), "buy")
    assert str(e) == "Buy is not possible now: you cannot take tiles from stores after bidding in the same turn"


def test_an_action_pressed_twice_is_put_away():
    s = table(active=0, p0=["A1", "A2"])
    c = Composer()
    intent.press_action(s, 0, c, "harvest")
    assert c.mode == "harvest"
    intent.press_action(s, 0, c, "harvest")
    assert c.mode is None


def test_a_click_on_your_tile_harvests_its_group_and_on_a_harvested_one_says_what_turns_it_up():
    s = table(active=0, p0=["A1", "A2"], h0=["C3"])
    c = Composer()
    assert intent.board_click(s, 0, c, "A2") == Move(Harvest("A2"))
    e = refusal(intent.board_click, s, 0, c, "C3")
    assert str(e) == "C3 is harvested already: a Waterer, the Mayor or an event turns it back up"
    e = refusal(intent.board_click, s, 0, c, "G7")
    assert str(e).startswith("G7 is an empty space: its tile is in the bag, the registry or a store")


def test_a_picked_worker_goes_on_the_space_clicked_and_one_that_fits_nowhere_says_why():
    s = table(active=0, p0=["A1", "A2", "B1"])
    c = Composer()
    wid = next(w for w in s.workers_available(0) if s.legal_spaces(0, w))
    assert intent.press_worker(s, 0, c, wid) == Compose(next="board")
    space = s.legal_spaces(0, wid)[0]
    move = intent.board_click(s, 0, c, space)
    assert move == Move(PlaceWorker(wid, space))
    s.apply(0, move.action)
    c.clear()
    if s.pending is not None:        # a worker that asks something: a click on your board must answer first
        assert "is not one of the choices" in str(refusal(intent.board_click, s, 0, c, space))
        first = next(a.value for a in s.legal_actions(0) if hasattr(a, "value"))
        s.apply(0, intent.choose(s, 0, first).action)
    # your worker on the board: a click without Worker pressed says how to take it off; with it, takes it off
    assert "press Worker" in str(refusal(intent.board_click, s, 0, c, space))
    c.mode = "worker"
    assert intent.board_click(s, 0, c, space) == Move(RemoveWorker(space))

    bare = table(active=0, p0=["A1"])
    c = Composer()
    unfit = next(w for w in bare.workers_available(0) if not bare.legal_spaces(0, w))
    out = intent.press_worker(bare, 0, c, unfit)
    assert out.refusal is not None and "fits no space now: it needs an empty space touching" in out.refusal
    assert c.worker == unfit           # picked all the same: pressing it again puts it back
    intent.press_worker(bare, 0, c, unfit)
    assert c.worker is None


def test_a_store_tile_buys_it_and_the_engine_checks_the_payment():
    s = table(active=0, p0=["A1"], p1=["B1"])
    put_in_store(s, 1, s.registry[0], (1, 0, 0, 0, 0))
    code = s.stores[1][-1][0]
    move = intent.town_click(s, 0, Composer(), ("store", "1", code))
    assert move == Move(Buy(code))
    with pytest.raises(IllegalAction) as e:
        s.apply(0, move.action)       # no counters behind your screen: the engine refuses in its words
    assert e.value.code == "cannot-pay"


def test_not_your_move_and_the_screen_being_passed_are_refused():
    s = table(active=1)
    assert str(refusal(intent.acting_seat, s, 0, None, True)) == f"wait: {s.players[1]} is to act"
    assert "press Next step" in str(refusal(intent.acting_seat, s, 0, None, False))
    assert "I am ready" in str(refusal(intent.acting_seat, s, 1, 1, True))
    assert intent.acting_seat(s, 1, None, True) == 1


def test_the_spaces_a_click_serves_follow_what_you_are_doing():
    s = table(active=0, p0=["A1", "A2"], h0=["C3"])
    c = Composer()
    def legal():
        return s.legal_actions(0)

    assert intent.targets(s, 0, c, legal) == ([], [])
    c.mode = "harvest"
    assert sorted(intent.targets(s, 0, c, legal)[1]) == ["A1", "A2"]
    assert intent.next_click(s, 0, c, legal) == "board"
    assert intent.targets(s, 0, c, legal, handoff=1) == ([], [])
    s.apply(0, EndTurn())
    assert intent.next_click(s, 0, c, legal) is None     # not your move
