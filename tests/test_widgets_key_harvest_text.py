"""Key Harvest's table in words: each log line says what a move did and why it matters; the status line
and the action reasons come from the engine."""

from __future__ import annotations

import re

import pytest
from key_harvest_util import put_in_store, set_counters, table, with_event
from sheetkit.widgets.key_harvest import text as words

from sheetkit.games.key_harvest import WORKERS, Bid, Buy, Harvest, PlaceWorker
from sheetkit.games.key_harvest.crops import describe


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
    assert text.startswith(f"You bid 1 apple for {code} (now in your store; ")
    assert text.endswith("anyone may buy it for that on their turn.")


def test_a_harvest_and_a_worker_in_words():
    s = table(active=0, p0=["A1", "A2", "A3"])
    s.apply(0, Harvest("A2"))
    assert last_line(s, "harvest").startswith("You harvested 3 tiles (A1, A2, A3) and took ")
    s2 = table(active=0, p0=["A1", "A2", "A3"])
    s2.apply(0, PlaceWorker("h2b", "B2"))
    assert last_line(s2, "worker") == "You played the Reaper (2) on B2 — worth 2 points while it stays."
    assert last_line(s2, "gain").startswith("You took ") and last_line(s2, "gain").endswith(" (Reaper).")


def test_the_action_reasons_are_the_engines():
    s = table(active=0, p0=["A1"])
    set_counters(s, 0, (1, 0, 0, 0, 0))
    assert words.may_reason(s, 0, "bid") is None
    s.apply(0, Bid(s.registry[0], (1, 0, 0, 0, 0)))
    assert words.may_reason(s, 0, "buy") == "you cannot take tiles from stores after bidding in the same turn"
    assert words.may_reason(s, 1, "harvest") == "it is not your turn"
    assert "Done: bid." in words.status_line(s, 0)


# ----- issue #15 part 4: the log, found by playing to the end ---------------------------------------------------

def lines_after_event(s) -> list[str]:
    """The log lines of everything journalled after the last event (its effects), in order."""
    last = max(i for i, j in enumerate(s.journal) if j["what"] == "event")
    return [ln.text for j in s.journal[last + 1:] if (ln := words.describe_journal(s, j)) is not None]


def test_one_counter_is_singular_and_the_start_player_agrees_with_you():
    assert describe((0, 0, 1, 0, 0)) == "1 apple" and describe((0, 0, 0, 1, 1)) == "1 vegetable, 1 wheat"
    assert describe((0, 1, 2, 2, 0)) == "1 hops, 2 apples, 2 vegetables"
    s = table(2)
    setup = {"what": "setup", "pairs": [["A2", "B1"], ["A4", "A6"]]}
    assert words.describe_journal(s, {**setup, "start": 0}).text.endswith(". You start.")
    assert words.describe_journal(s, {**setup, "start": 1}).text.endswith(". Player 2 starts.")
    line = words.describe_journal(s, {"what": "choose", "player": 1, "kind": "crop", "value": "apples",
                                      "source": "h1a"})
    assert line.text == "Player 2 took 1 apple (Gleaner)."


@pytest.mark.parametrize("wid", sorted(WORKERS))
def test_a_bots_worker_line_does_not_speak_to_you(wid: str):
    """Someone else's Steward guards *their* store: the line says so, never "your store" (every worker)."""
    s = table(2)
    theirs = words.describe_journal(s, {"what": "worker", "player": 1, "worker": wid, "code": "B2", "replaced": None})
    assert not re.search(r"\byou(r|rs)?\b", theirs.text, re.I), theirs.text
    assert theirs.text.startswith(f"Player 2 played the {WORKERS[wid].name} ({WORKERS[wid].value}) on B2")
    mine = words.describe_journal(s, {"what": "worker", "player": 0, "worker": wid, "code": "B2", "replaced": None})
    if wid == "h3a":
        assert "the tiles in your store cannot be taken by others until your next turn" in mine.text
        assert "the tiles in Player 2's store cannot be taken by others until their next turn" in theirs.text


def test_tithe_says_who_gave_what():
    s = table(2, p0=["A1"], p1=["G7"])
    set_counters(s, 0, (1, 3, 0, 3, 0))
    with_event(s, "tithe")
    assert lines_after_event(s) == ["You gave 1 hops to the stock (Tithe).",
                                    "Player 2 had no counters to give (Tithe)."]


def test_fine_vintage_says_who_took_wine_and_who_found_none_left():
    s = table(3, active=1, p0=["A1"], p1=["G7"], p2=["G1"])
    set_counters(s, 0, (11, 0, 0, 0, 0))
    with_event(s, "vintage")
    assert lines_after_event(s) == [
        "Player 2 took 1 wine (Fine vintage).",
        "Player 3 took nothing: the stock had none of that crop left (Fine vintage).",
        "You took nothing: the stock had none of that crop left (Fine vintage)."]


def test_the_registry_deadline_says_whose_tile_went_where_and_where_the_bid_went():
    s = table(2, p0=["A1"], p1=["G7"])
    put_in_store(s, 1, "G6", (2, 0, 0, 0, 0), turn=1)
    put_in_store(s, 0, "A2", (0, 0, 1, 0, 0), turn=1)
    with_event(s, "deadline")
    assert lines_after_event(s) == [
        "You put A2 from your store on your board; its bid (1 apple) went to the stock (Registry deadline).",
        "Player 2 put G6 from their store on their board; its bid (2 wine) went to the stock (Registry deadline)."]


def test_the_farmhands_holiday_says_whose_farmhand_went_home():
    s = table(2, p0=["A1"], p1=["G7"])
    s.workers_on[0] = {"B1": "h2a", "C1": "h1b"}
    s.farmhands_free[0] = ["h1a", "h2b", "h3a", "h3b"]
    s.workers_on[1] = {"G6": "h3a"}
    s.farmhands_free[1] = ["h1a", "h1b", "h2a", "h2b", "h3b"]
    with_event(s, "holiday")
    assert lines_after_event(s) == ["Your Trader (1) went home from C1 (Farmhands' holiday).",
                                    "Player 2's Steward (3) went home from G6 (Farmhands' holiday)."]


def test_the_reaper_says_what_it_took():
    s = table(2, active=1, p1=["D4", "D6", "C5"])     # wheat, wine, wine around D5
    s.apply(1, PlaceWorker("h2b", "D5"))
    gained = [words.describe_journal(s, j).text for j in s.journal if j["what"] == "gain"]
    assert gained == ["Player 2 took 1 wine + 1 wheat (Reaper)."]


def test_the_log_is_newest_first_throughout_and_the_turn_in_progress_has_a_heading():
    lines = [words.LogLine("turn", "Starting tiles."), words.LogLine("move", "A1"), words.LogLine("move", "A2"),
             words.LogLine("endturn", "Player 2's turn — harvest:"), words.LogLine("event", "E"),
             words.LogLine("move", "B1"), words.LogLine("move", "B2")]
    out = re.findall(r"<div class='sk-log-(\w+)'>(.*?)</div>", words.log_html(lines, now="Your turn, so far:"))
    assert out == [("now", "Your turn, so far:"), ("move", "B2"), ("move", "B1"), ("event", "E"),
                   ("endturn", "Player 2&#x27;s turn — harvest:"), ("move", "A2"), ("move", "A1"),
                   ("turn", "Starting tiles.")]


# ----- the status line ----------------------------------------------------------------------------------------

def test_bountiful_season_asks_in_its_own_name_not_the_gleaners():
    s = table(2, p0=["A1"], p1=["G7"])
    with_event(s, "bounty")
    assert words.status_line(s, 0).startswith("Bountiful season: choose a crop")
    s2 = table(2, p0=["A1", "A2"])
    s2.apply(0, PlaceWorker("h1a", "B1"))
    assert words.status_line(s2, 0).startswith("Gleaner: choose a crop")


def test_after_a_bid_the_status_offers_a_second_tile_not_another_bid_action():
    s = table(active=0, p0=["A1"])
    set_counters(s, 0, (2, 0, 0, 0, 0))
    s.apply(0, Bid(s.registry[0], (1, 0, 0, 0, 0)))
    assert "Next: Harvest / Worker / Bid for a second tile — or End turn." in words.status_line(s, 0)


def test_the_heading_of_the_lines_since_the_last_turn_says_whose_turn_it_is_or_that_it_has_ended():
    s = table(2, p0=["A1"], p1=["G7"])
    assert words.turn_heading(s) == "Your turn, so far:"
    with_event(s, "bounty")                       # your turn ended; the event asks while the registry refills
    assert words.turn_heading(s) == "After your turn:"
