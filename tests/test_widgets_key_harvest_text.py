"""Key Harvest's table in words: each log line says what a move did and why it matters; the status line
and the action reasons come from the engine."""

from __future__ import annotations

from key_harvest_util import put_in_store, set_counters, table
from sheetkit.widgets.key_harvest import text as words

from sheetkit.games.key_harvest import Bid, Buy, Harvest, PlaceWorker


def last_line(s, what: str) -> str:
    j = next(j for j in reversed(s.journal) if j["what"] == what)
    line = words.describe_journal(s, j)
    assert line is not None
    return line.text


def test_a_bot_buying_from_your_store_says_who_keeps_what_and_where_the_tile_goes():
    s = table(active=1, p1=["C5", "C6", "C7", "C8"])
    put_in_store(s, 0, "C4", (2, 1, 0, 0, 0))
    set_counters(s, 1, (2, 1, 0, 0, 0))
    s.apply(1, Buy("C4"))
    assert last_line(s, "buy") == ("Player 2 bought C4 from your store for 2 wine + 1 hops: you keep the bid and the "
                                   "payment; C4 joins its largest group (5 tiles).")


def test_a_bid_says_what_the_tile_would_make_and_that_anyone_may_buy_it():
    s = table(active=0, p0=["A1", "A2"])
    set_counters(s, 0, (0, 0, 1, 0, 0))
    code = s.registry[0]
    s.apply(0, Bid(code, (0, 0, 1, 0, 0)))
    text = last_line(s, "bid")
    assert text.startswith(f"You bid 1 apples for {code} (now in your store; ")
    assert text.endswith("anyone may buy it for that on their turn.")


def test_a_harvest_and_a_worker_in_words():
    s = table(active=0, p0=["A1", "A2", "A3"])
    s.apply(0, Harvest("A2"))
    assert last_line(s, "harvest").startswith("You harvested 3 tiles (A1, A2, A3) and took ")
    s2 = table(active=0, p0=["A1", "A2", "A3"])
    s2.apply(0, PlaceWorker("h2b", "B2"))
    assert last_line(s2, "worker") == ("You played the Reaper (2) on B2: take 1 counter of each different crop among "
                                      "the tiles it touches — worth 2 points while it stays.")


def test_the_action_reasons_are_the_engines():
    s = table(active=0, p0=["A1"])
    set_counters(s, 0, (1, 0, 0, 0, 0))
    assert words.may_reason(s, 0, "bid") is None
    s.apply(0, Bid(s.registry[0], (1, 0, 0, 0, 0)))
    assert words.may_reason(s, 0, "buy") == "you cannot take tiles from stores after bidding in the same turn"
    assert words.may_reason(s, 1, "harvest") == "it is not your turn"
    assert "Done: bid." in words.status_line(s, 0)
