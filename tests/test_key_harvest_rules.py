"""Key Harvest rules, one test per rule (the section of docs/key_harvest.md each checks is in its docstring)."""

from __future__ import annotations

import pytest
from key_harvest_util import dealt, finish_turn, put_in_store, set_counters, table, total_counters

from sheetkit.core.errors import IllegalAction
from sheetkit.games.key_harvest import (
    CODES,
    CROP_OF,
    NEIGHBOURS,
    START_PAIRS,
    Bid,
    Buy,
    Choose,
    EndTurn,
    Harvest,
    KeyHarvestParams,
    PlaceWorker,
    RemoveWorker,
    new_game,
)
from sheetkit.games.key_harvest import board as B
from sheetkit.games.key_harvest.events import EVENTS


def refused(state, player, action, code):
    before = state.fingerprint()
    with pytest.raises(IllegalAction) as e:
        state.apply(player, action)
    assert e.value.code == code, (e.value.code, str(e.value))
    assert state.fingerprint() == before
    return str(e.value)


# ----- components, the country board -----------------------------------------------------------
def test_board_has_56_codes_in_rows_of_7_8_9_8_9_8_7():
    """docs/key_harvest.md §The country board — codes A1–A7, B1–B8, C1–C9, D1–D8, E1–E9, F1–F8, G1–G7."""
    assert len(CODES) == 56
    for row, n in zip("ABCDEFG", (7, 8, 9, 8, 9, 8, 7), strict=True):
        assert [c for c in CODES if c[0] == row] == [f"{row}{k}" for k in range(1, n + 1)]


def test_honeycomb_adjacency_offset_rule():
    """docs/key_harvest.md §The country board — a space touches up to 2 in its row and 2 in each row beside it."""
    assert set(NEIGHBOURS["B1"]) == {"A1", "B2", "C1", "C2"}
    assert set(NEIGHBOURS["D1"]) == {"C1", "C2", "D2", "E1", "E2"}
    assert set(NEIGHBOURS["E5"]) == {"E4", "E6", "D4", "D5", "F4", "F5"}
    assert set(NEIGHBOURS["A1"]) == {"A2", "B1", "B2"}
    assert set(NEIGHBOURS["C9"]) == {"C8", "B8", "D8"}
    for c in CODES:
        assert len(NEIGHBOURS[c]) <= 6
        for d in NEIGHBOURS[c]:
            assert c in NEIGHBOURS[d]
            # the bitmask version agrees with the code lists
        assert B.grow(B.BIT[c]) == B.BIT[c] | B.mask_of(NEIGHBOURS[c])


def test_crops_12_wine_11_each_other_and_no_patches():
    """docs/key_harvest.md §Components — 12 + 11 + 11 + 11 + 11 field tiles; §The country board — no crop forms a
    patch."""
    counts = [sum(1 for c in CODES if CROP_OF[c] == k) for k in range(5)]
    assert counts == [12, 11, 11, 11, 11]
    assert all(CROP_OF[c] != CROP_OF[d] for c in CODES for d in NEIGHBOURS[c])


def test_starting_pairs_do_not_touch_and_differ_in_crop():
    """docs/key_harvest.md §Setup — 8 fixed pairs of non-adjacent codes with different crops (ours)."""
    assert len(START_PAIRS) == 8 and len({c for p in START_PAIRS for c in p}) == 16
    for a, b in START_PAIRS:
        assert b not in NEIGHBOURS[a] and CROP_OF[a] != CROP_OF[b]


# ----- setup --------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_pairs_counters_registry_and_start(players):
    """docs/key_harvest.md §Setup — a starting pair each, 3 blind counters each, 6 registry tiles, random start player,
    12 events with 2–3 players and 14 with 4."""
    s = new_game(players, seed=11)
    assert s.is_chance_node() and s.phase == "setup"
    entry = s.apply_chance()
    assert entry["chance"] == "setup" and len(entry["pairs"]) == players
    for p in range(players):
        assert sorted(s.tiles_of(p)) == sorted(entry["pairs"][p]) and tuple(entry["pairs"][p]) in START_PAIRS
        assert sum(s.counters[p]) == 3 and entry["counters"][p] == list(s.counters[p])
    assert sum(s.stock) == 60 - 3 * players and total_counters(s) == 60
    assert len(s.registry) == 6 and not any(c in EVENTS for c in s.registry)
    events = 14 if players == 4 else 12
    assert s.bag_remaining() == 56 - 2 * players - 6 + events
    assert s.active == entry["start"] and s.phase == "act" and s.current_players() == [s.active]


def test_setup_differs_by_seed_and_repeats_for_the_same_seed():
    """docs/key_harvest.md §Setup — random pairs and start player, reproducible from the game's seed."""
    a, b, c = (new_game(4, seed=k) for k in (1, 1, 2))
    assert a.apply_chance() == b.apply_chance()
    assert c.apply_chance() != a.log[0]
    assert a.fingerprint() == b.fingerprint()


# ----- a turn: structure --------------------------------------------------------------------
def test_two_different_actions_at_most():
    """docs/key_harvest.md §A turn — one or two DIFFERENT actions: a third action is refused."""
    s = table(p0=["C4", "C5", "C6"])
    set_counters(s, 0, (3, 0, 0, 0, 0))
    s.apply(0, Harvest("C4"))
    s.apply(0, PlaceWorker("h1b", "D4"))
    s.apply(0, Choose("decline"))
    assert s.turn_actions == ["harvest", "worker"]
    refused(s, 0, Bid(s.registry[0], (1, 0, 0, 0, 0)), "two-actions")
    assert not any(isinstance(a, Bid) for a in s.legal_actions(0))
    s.apply(0, EndTurn())


def test_each_action_at_most_once():
    """docs/key_harvest.md §A turn — each action at most once: a second harvest (or worker) is refused."""
    s = table(p0=["A1", "C4"])
    s.apply(0, Harvest("A1"))
    refused(s, 0, Harvest("C4"), "once")


def test_buy_never_after_bid():
    """docs/key_harvest.md §A turn — c never after d: taking a store tile after bidding is refused."""
    s = table(p0=["C4"], p1=["E5"])
    s.registry = ["C5", "E6", "A1"]
    set_counters(s, 0, (3, 0, 0, 0, 0))
    s.stores[1] = [("E6", (1, 0, 0, 0, 0), 0)]
    s.registry.remove("E6")
    s.apply(0, Bid("C5", (1, 0, 0, 0, 0)))
    assert refused(s, 0, Buy("E6"), "buy-after-bid").startswith("you cannot take tiles from stores after bidding")


def test_buy_then_bid_is_allowed():
    """docs/key_harvest.md §A turn — c then d is fine."""
    s = table(p0=["C4"], p1=["E5"])
    s.registry = ["C5", "A1"]
    set_counters(s, 0, (3, 0, 0, 0, 0))
    s.stores[1] = [("E6", (1, 0, 0, 0, 0), 0)]
    s.apply(0, Buy("E6"))
    s.apply(0, Bid("C5", (1, 0, 0, 0, 0)))
    assert s.turn_actions == ["buy", "bid"]


def test_bid_up_to_two_tiles_and_store_holds_two():
    """docs/key_harvest.md §Bidding — up to 2 tiles from the registry; the store holds 2 at most."""
    s = table(p0=["C4"])
    s.registry = ["C5", "A1", "G7"]
    set_counters(s, 0, (3, 0, 0, 0, 0))
    s.apply(0, Bid("C5", (1, 0, 0, 0, 0)))
    s.apply(0, Bid("A1", (1, 0, 0, 0, 0)))
    refused(s, 0, Bid("G7", (1, 0, 0, 0, 0)), "limit")
    s2 = table(p0=["C4"])
    s2.registry = ["C5", "A1", "G7"]
    set_counters(s2, 0, (3, 0, 0, 0, 0))
    s2.stores[0] = [("E1", (0, 0, 0, 0, 0), 0)]
    s2.apply(0, Bid("C5", (1, 0, 0, 0, 0)))
    refused(s2, 0, Bid("A1", (1, 0, 0, 0, 0)), "store-full")


def test_a_turn_that_starts_with_a_full_store_cannot_bid():
    """docs/key_harvest.md §Bidding — the store holds 2 tiles: a turn that begins with 2 tiles in it has no bid
    at all, not even a first one (the store is not emptied by the new turn)."""
    s = table(p0=["C4"])
    s.registry = ["C5", "A1", "G7"]
    set_counters(s, 0, (3, 0, 0, 0, 0))
    put_in_store(s, 0, "E1", (1, 0, 0, 0, 0))
    put_in_store(s, 0, "E9", (0, 1, 0, 0, 0))
    assert s.may(0, "bid") == ("your store is full (2 tiles)", "store-full") and s.bids_left() == 0
    assert not any(isinstance(a, Bid) for a in s.legal_actions(0))
    refused(s, 0, Bid("C5", (1, 0, 0, 0, 0)), "store-full")
    s.stores[0].pop()  # one tile fewer: the same first bid is fine
    s.apply(0, Bid("C5", (1, 0, 0, 0, 0)))
    assert [code for code, _, _ in s.stores[0]] == ["E1", "C5"]


def test_starting_another_action_closes_the_first():
    """docs/key_harvest.md §A turn — buy and bid may be 2 consecutive moves; after another action they are closed."""
    s = table(p0=["C4"])
    s.registry = ["C5", "A1"]
    set_counters(s, 0, (3, 0, 0, 0, 0))
    s.apply(0, Bid("C5", (1, 0, 0, 0, 0)))
    s.apply(0, Harvest("C4"))
    refused(s, 0, Bid("A1", (1, 0, 0, 0, 0)), "once")


def test_a_turn_without_actions_is_a_pass():
    """docs/key_harvest.md §A turn — EndTurn with no action: the next player's turn begins (our reading: a pass)."""
    s = dealt(3, seed=7)
    first = s.active
    registry = list(s.registry)
    s.apply(first, EndTurn())
    assert s.active == (first + 1) % 3 and s.registry == registry and s.phase == "act"


# ----- a Harvest ---------------------------------------------------------------------------
def test_harvest_flips_the_group_connected_through_unharvested_tiles():
    """docs/key_harvest.md §Harvesting — one connected group, connected through UNHARVESTED tiles; +1 counter per
    tile."""
    s = table(p0=["C4", "C5", "C7"], h0=["C6"])
    s.apply(0, Harvest("C5"))
    assert s.boards[0] == {"C4": "harvested", "C5": "harvested", "C6": "harvested", "C7": "up"}
    # C4 apples, C5 wine
    assert s.counters[0] == (1, 0, 1, 0, 0) and total_counters(s) == 60


def test_harvest_needs_an_unharvested_tile():
    """docs/key_harvest.md §Harvesting — only unharvested tiles can be harvested."""
    s = table(p0=["C4"], h0=["C6"])
    refused(s, 0, Harvest("C6"), "not-harvestable")
    refused(s, 0, Harvest("G7"), "not-harvestable")
    refused(s, 0, Harvest("Z9"), "no-space")


def test_harvest_of_a_crop_that_ran_out_asks_for_another():
    """docs/key_harvest.md §Harvesting — if a crop has run out, take any crop still in stock (a choice when it
    matters)."""
    s = table(p0=["C5"])  # wine
    set_counters(s, 1, (12, 0, 0, 0, 0))
    s.apply(0, Harvest("C5"))
    assert s.pending is not None and s.pending.kind == "substitute" and s.pending.player == 0
    assert {a.value for a in s.legal_actions(0)} == {"hops", "apples", "vegetables", "wheat"}
    s.apply(0, Choose("wheat"))
    assert s.counters[0] == (0, 0, 0, 0, 1) and s.pending is None


def test_harvest_substitute_is_automatic_with_one_crop_left():
    """docs/key_harvest.md §Harvesting — with one crop left in stock there is nothing to choose."""
    s = table(p0=["C5"])
    set_counters(s, 1, (12, 12, 12, 12, 11))
    s.apply(0, Harvest("C5"))
    assert s.pending is None and s.counters[0] == (0, 0, 0, 0, 1) and sum(s.stock) == 0


# ----- b Worker ------------------------------------------------------------------------------
def test_worker_needs_as_many_touching_tiles_as_its_number():
    """docs/key_harvest.md §Workers — an empty space touching at least the worker's number of field tiles."""
    s = table(p0=["C4", "C6"], h0=["D4"])
    assert s.legal_spaces(0, "h3a") == ["C5"]  # C5 touches C4, C6 and D4 (harvested counts)
    assert "D5" in s.legal_spaces(0, "h2a") and "D5" not in s.legal_spaces(0, "h3a")
    msg = refused(s, 0, PlaceWorker("h3a", "D5"), "bad-space")
    assert "at least 3" in msg
    refused(s, 0, PlaceWorker("h1a", "C4"), "bad-space")  # a field tile is there


def test_worker_may_not_touch_another_worker():
    """docs/key_harvest.md §Workers — the space touches no other worker."""
    s = table(p0=["C4", "C5", "C6", "D4", "D5"])
    s.workers_on[0]["B5"] = "h1a"
    s.farmhands_free[0].remove("h1a")
    assert "B4" not in s.legal_spaces(0, "h1b") and "B6" not in s.legal_spaces(0, "h1b")
    assert "E5" in s.legal_spaces(0, "h1b")


def test_worker_replaces_own_lower_worker_which_goes_back():
    """docs/key_harvest.md §Workers — a worker may replace your own worker of a lower number (that one goes back)."""
    s = table(p0=["C4", "C6", "D4"])
    s.workers_on[0]["C5"] = "h1a"
    s.farmhands_free[0].remove("h1a")
    s.apply(0, PlaceWorker("h3a", "C5"))
    assert s.workers_on[0] == {"C5": "h3a"} and "h1a" in s.farmhands_free[0]
    s2 = table(p0=["C4", "C6", "D4"])
    s2.workers_on[0]["C5"] = "h3a"
    s2.farmhands_free[0].remove("h3a")
    refused(s2, 0, PlaceWorker("h3b", "C5"), "bad-space")  # equal number: no


def test_remove_worker_sends_farmhand_home_and_townsfolk_to_town():
    """docs/key_harvest.md §Workers — OR remove one of your workers (farmhand back beside the board, townsfolk to
    town)."""
    s = table(p0=["C4"])
    s.workers_on[0].update({"C5": "h1a", "A1": "miller"})
    s.farmhands_free[0].remove("h1a")
    s.townsfolk_in_town.remove("miller")
    s.apply(0, RemoveWorker("C5"))
    assert "h1a" in s.farmhands_free[0]
    refused(s, 0, RemoveWorker("A1"), "once")
    s.apply(0, EndTurn())
    s2 = table(p0=["C4"])
    s2.workers_on[0]["A1"] = "miller"
    s2.townsfolk_in_town.remove("miller")
    s2.apply(0, RemoveWorker("A1"))
    assert "miller" in s2.townsfolk_in_town and s2.workers_on[0] == {}


def test_townsfolk_only_while_in_town():
    """docs/key_harvest.md §Workers — a townsfolk still on the town board; someone else's is not yours to play."""
    s = table(p0=["C4", "C5", "C6", "D4", "D5"], p1=["G1"])
    s.workers_on[1]["F1"] = "miller"
    s.townsfolk_in_town.remove("miller")
    refused(s, 0, PlaceWorker("miller", "E5"), "worker-busy")


# ----- c Take tiles from stores ----------------------------------------------------------------
def test_buy_from_another_store_pays_the_owner_who_keeps_the_bid():
    """docs/key_harvest.md §Taking tiles from stores — pay the owner exactly the bid; the owner keeps bid and payment;
    cannot refuse."""
    s = table(p0=["C4"], p1=["E5"])
    set_counters(s, 0, (2, 1, 0, 0, 0))
    set_counters(s, 1, (0, 0, 0, 0, 1))
    put_in_store(s, 1, "C5", (1, 1, 0, 0, 0))
    s.apply(0, Buy("C5"))
    assert s.counters[0] == (1, 0, 0, 0, 0)
    assert s.counters[1] == (2, 2, 0, 0, 1)
    assert s.stores[1] == [] and "C5" in s.tiles_of(0) and total_counters(s) == 60


def test_buy_needs_the_exact_crops():
    """docs/key_harvest.md §Taking tiles from stores — same number, same crops."""
    s = table(p0=["C4"], p1=["E5"])
    set_counters(s, 0, (0, 0, 0, 0, 5))
    s.stores[1] = [("C5", (1, 0, 0, 0, 0), 0)]
    assert refused(s, 0, Buy("C5"), "cannot-pay").startswith("you cannot pay 1 wine")


def test_own_store_tile_only_on_a_later_turn_paying_the_stock():
    """docs/key_harvest.md §Taking tiles from stores — from YOUR store, only a tile put there on an earlier turn; its
    bid goes to the stock."""
    s = table(2, p0=["C4"], p1=["G7"])
    s.registry = ["C5", "A1", "B1", "B2", "B3", "B4"]
    set_counters(s, 0, (2, 0, 0, 0, 0))
    s.apply(0, Bid("C5", (2, 0, 0, 0, 0)))
    refused(s, 0, Buy("C5"), "buy-after-bid")
    finish_turn(s)
    finish_turn(s)  # player 1 passes
    assert s.active == 0
    stock = s.stock
    s.apply(0, Buy("C5"))
    assert "C5" in s.tiles_of(0) and s.stock == (stock[0] + 2, *stock[1:]) and s.counters[0] == (0,) * 5


def test_own_store_same_turn_refused():
    """docs/key_harvest.md §Taking tiles from stores — a tile you put in your store this turn cannot be claimed this
    turn."""
    s = table(p0=["C4"])
    s.stores[0] = [("C5", (1, 0, 0, 0, 0), s.turn)]
    refused(s, 0, Buy("C5"), "too-soon")


def test_displaced_worker_may_be_replaced_and_acts_again():
    """docs/key_harvest.md §Displaced workers — a worker on the tile's space is displaced: re-place it free and act
    again."""
    s = table(p0=["C4", "C6", "B5"], p1=["G7"])
    s.workers_on[0]["C5"] = "h1a"
    s.farmhands_free[0].remove("h1a")
    s.stores[0] = [("C5", (1, 0, 0, 0, 0), 0)]
    s.apply(0, Buy("C5"))
    p = s.pending
    assert p is not None and p.kind == "replace" and p.worker == "h1a"
    assert Choose("decline") in s.legal_actions(0)
    s.apply(0, Choose("D5"))
    assert s.workers_on[0] == {"D5": "h1a"}
    assert s.pending is not None and s.pending.kind == "crop"  # the Gleaner acts again
    s.apply(0, Choose("hops"))
    assert s.counters[0][1] == 1


def test_displaced_worker_declined_goes_back():
    """docs/key_harvest.md §Displaced workers — otherwise it goes back."""
    s = table(p0=["C4", "C6"], p1=["G7"])
    s.workers_on[0]["C5"] = "h1a"
    s.farmhands_free[0].remove("h1a")
    s.stores[0] = [("C5", (0, 0, 0, 0, 0), 0)]
    s.apply(0, Buy("C5"))
    s.apply(0, Choose("decline"))
    assert s.workers_on[0] == {} and "h1a" in s.farmhands_free[0] and s.pending is None


# ----- d Bid -------------------------------------------------------------------------------
def test_bid_moves_the_tile_and_counters_into_the_store():
    """docs/key_harvest.md §Bidding — tile from the registry into your store with an open bid of at least 1 counter."""
    s = table(p0=["C4"])
    s.registry = ["C5", "A1"]
    set_counters(s, 0, (2, 1, 0, 3, 0))
    s.apply(0, Bid("C5", (2, 0, 0, 1, 0)))  # any mix: not in legal_actions' one-counter list, yet legal
    assert s.stores[0] == [("C5", (2, 0, 0, 1, 0), s.turn)] and s.registry == ["A1"]
    assert s.counters[0] == (0, 1, 0, 2, 0) and total_counters(s) == 60
    refused(s, 0, Bid("A1", (0, 0, 0, 0, 0)), "empty-bid")
    refused(s, 0, Bid("A1", (0, 2, 0, 0, 0)), "cannot-pay")
    refused(s, 0, Bid("G7", (0, 1, 0, 0, 0)), "not-in-registry")


def test_legal_actions_list_one_counter_bids():
    """docs/key_harvest.md §Bidding — the listed bids are one counter of each crop held, per registry tile."""
    s = table(p0=["C4"])
    s.registry = ["C5", "A1"]
    set_counters(s, 0, (2, 0, 0, 1, 0))
    bids = [a for a in s.legal_actions(0) if isinstance(a, Bid)]
    assert bids == [Bid("C5", (1, 0, 0, 0, 0)), Bid("C5", (0, 0, 0, 1, 0)), Bid("A1", (1, 0, 0, 0, 0)),
                    Bid("A1", (0, 0, 0, 1, 0))]


# ----- end of turn: refill and events ----------------------------------------------------------
def test_registry_refills_to_six_and_events_resolve_then_drawing_goes_on():
    """docs/key_harvest.md §End of a turn — refill to 6 from the bag; an event is resolved, placed, drawing goes on."""
    s = table(p0=["C4"])
    s.registry = [c for c in s.registry][:4]
    pos = s._bag_pos
    tiles = [x for x in s._bag[pos:] if x not in EVENTS][:2]
    s._bag[pos:] = ["vintage", *tiles] + [x for x in s._bag[pos:] if x not in tiles and x != "vintage"]
    s.apply(0, EndTurn())
    assert s.apply_chance() == {"chance": "draw", "event": "vintage"}
    assert s.events_placed == ["vintage"] and s.counters[0][0] == 1
    assert s.apply_chance() == {"chance": "draw", "tile": tiles[0]}
    assert s.apply_chance() == {"chance": "draw", "tile": tiles[1]}
    assert len(s.registry) == 6 and s.phase == "act" and s.active == 1


# ----- game end and scoring -----------------------------------------------------------------
def test_tenth_event_gives_everyone_two_more_turns():
    """docs/key_harvest.md §Game end — when the 10th event is placed, every player (from the next) takes 2 more
    turns."""
    s = table(3, p0=["C4"], p1=["E5"], p2=["G7"])
    s.events_placed = ["rain"] * 9
    s.registry = s.registry[:5]
    s._bag[s._bag_pos:] = ["vintage"] + [x for x in s._bag[s._bag_pos:] if x != "vintage"]
    s.apply(0, EndTurn())
    s.apply_chance()
    assert s.final_turns_left == 6
    while s.is_chance_node() and not s.is_terminal():
        s.apply_chance()
    turns = []
    while s.phase == "act":
        turns.append(s.active)
        s.apply(s.active, EndTurn())
        while s.is_chance_node() and s.phase != "end":
            s.apply_chance()
    assert turns == [1, 2, 0, 1, 2, 0]
    assert s.phase == "end" and "last turns" in s.end_reason
    assert s.apply_chance() == {"chance": "end"} and s.is_terminal()


def test_events_drawn_during_the_last_turns_neither_restart_nor_shorten_them():
    """docs/key_harvest.md §Game end — the end comes from the 10th event: an 11th or 12th drawn during the last turns
    (or the bag running out then) changes nothing, and every player still takes exactly two more turns."""
    s = table(3, p0=["C4"], p1=["E5"], p2=["G7"])
    s.events_placed = ["rain"] * 9
    s.registry = s.registry[:5]
    s._bag[s._bag_pos:] = ["vintage", "windfall", "tithe"] + [x for x in s._bag[s._bag_pos:]
                                                              if x not in ("vintage", "windfall", "tithe")]
    s.apply(0, EndTurn())
    turns = []
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_chance()
        elif s.pending is not None:
            s.apply(s.current_players()[0], next(a for a in s.legal_actions(s.current_players()[0])))
        else:
            turns.append(s.active)
            s.registry = s.registry[:5]           # every refill draws again: the next events come up
            s.apply(s.active, EndTurn())
    assert len(s.events_placed) >= 11, "more events were drawn during the last turns"
    assert turns == [1, 2, 0, 1, 2, 0] and "last turns" in s.end_reason


def test_empty_bag_finishes_the_round():
    """docs/key_harvest.md §Game end — if the bag empties first, finish the round and end."""
    s = table(3, p0=["C4"], p1=["E5"], p2=["G7"])
    s.start_player = 0
    s.active = 1
    s._bag_pos = len(s._bag)
    s.registry = s.registry[:3]
    s.apply(1, EndTurn())
    assert s.active == 2 and s.phase == "act"
    s.apply(2, EndTurn())
    assert s.phase == "end" and "bag ran out" in s.end_reason


def test_scoring_two_largest_groups_workers_counters():
    """docs/key_harvest.md §Scoring — 1/tile largest + 2/tile second + worker numbers + 1 per 3 counters (bids too)."""
    s = table(2, p0=["A1", "A2", "A3", "C1", "C2", "G7"], p1=["E5"])
    s.workers_on[0] = {"B1": "h1a", "E9": "lawyer"}
    set_counters(s, 0, (2, 2, 0, 0, 0))
    s.stores[0] = [("F1", (3, 0, 0, 0, 0), 0)]
    s.stock = (s.stock[0] - 3, *s.stock[1:])
    b = s.breakdown(0)
    assert (b["largest"], b["second"], b["group_points"]) == (3, 2, 7)
    assert (b["workers"], b["counters"], b["counter_points"], b["total"]) == (6, 7, 2, 15)


@pytest.mark.parametrize(("params", "want"), [
    (KeyHarvestParams(), 3 * 1 + 2 * 2 + 6 + 7 // 3),
    (KeyHarvestParams(second_mult=1), 3 * 1 + 2 * 1 + 6 + 7 // 3),
    (KeyHarvestParams(largest_mult=2, counters_per_point=2), 3 * 2 + 2 * 2 + 6 + 7 // 2),
])
def test_total_and_scores_count_what_the_breakdown_shows(params, want):
    """docs/key_harvest.md §Scoring — the score a player sees (``total``, ``scores``, their own view, the
    placings) is the breakdown's total: groups × their multipliers + worker numbers + counters owned per point."""
    s = table(2, params=params, p0=["A1", "A2", "A3", "C1", "C2", "G7"], p1=["E5"])
    s.workers_on[0] = {"B1": "h1a", "E9": "lawyer"}
    set_counters(s, 0, (2, 2, 0, 0, 0))
    s.stores[0] = [("F1", (3, 0, 0, 0, 0), 0)]
    s.stock = (s.stock[0] - 3, *s.stock[1:])
    assert s.breakdown(0)["total"] == want
    assert s.total(0) == want and s.scores() == [want, s.breakdown(1)["total"]]
    assert s.view(0)["scores"][0] == want and s.placings() == [1, 2]


def test_two_equal_groups_count_one_each():
    """docs/key_harvest.md §Scoring — of two equal groups, one counts as each."""
    s = table(2, p0=["A1", "A2", "C1", "C2"], p1=["E5"])
    b = s.breakdown(0)
    assert (b["largest"], b["second"], b["group_points"]) == (2, 2, 6)


def test_workers_do_not_connect_groups():
    """docs/key_harvest.md §Scoring — workers do not connect."""
    s = table(2, p0=["C1", "C3"], p1=["E5"])
    s.workers_on[0] = {"C2": "h2a"}
    assert s.groups(0) == [["C1"], ["C3"]] and s.breakdown(0)["group_points"] == 1 + 2


def test_tie_goes_to_most_counters_then_shared():
    """docs/key_harvest.md §Scoring — tie: most counters owned; then shared."""
    s = table(3, p0=["A1"], p1=["E5"], p2=["G7"])
    set_counters(s, 0, (1, 0, 0, 0, 0))
    set_counters(s, 1, (0, 2, 0, 0, 0))
    set_counters(s, 2, (0, 0, 2, 0, 0))
    assert s.scores() == [1, 1, 1]
    assert s.placings() == [3, 1, 1]


def test_unclaimed_store_tiles_are_discarded_at_the_end():
    """docs/key_harvest.md §Game end, §Scoring — unclaimed store tiles are discarded (their bids stay counted for the
    owner)."""
    s = table(2, p0=["A1"], p1=["E5"])
    s.stores[1] = [("C5", (1, 0, 0, 0, 0), 1)]
    s.stock = (s.stock[0] - 1, *s.stock[1:])
    before = s.scores()
    s.phase = "end"
    s.apply_chance()
    assert s.stores[1] == [] and "C5" in s.discards and s.counters[1] == (1, 0, 0, 0, 0)
    assert s.scores() == before and s.is_terminal()


# ----- hidden information ------------------------------------------------------------------------------
def test_view_hides_other_counters_and_the_bag():
    """docs/key_harvest.md §Hidden information — counters behind screens are secret; everything else is public."""
    s = dealt(3, seed=4)
    v = s.view(1)
    assert v["counters"][1] == list(s.counters[1]) and v["counters"][0] == "hidden" == v["counters"][2]
    assert v["bag_remaining"] == s.bag_remaining() and "bag" not in v
    assert v["registry"] == s.registry


# ----- undo ---------------------------------------------------------------------------------------
def test_undo_own_moves_within_the_turn_only():
    """docs/key_harvest.md §Taking a move back — a move may be taken back until the turn ends (sheetkit's table
    rule)."""
    s = table(p0=["C4", "C6"])
    before = s.fingerprint()
    s.apply(0, Harvest("C4"))
    assert s.can_undo(0) and not s.can_undo(1)
    s.undo(0)
    assert s.fingerprint() == before
    s.apply(0, EndTurn())
    assert not s.can_undo(0)
    with pytest.raises(IllegalAction):
        s.undo(0)


def test_params_round_trip_and_refuse_nonsense():
    """docs/key_harvest.md §Scoring, §Variants — the counters-per-point rate is a parameter (ours)."""
    p = KeyHarvestParams(counters_per_point=4, events=False)
    assert KeyHarvestParams.from_json(p.to_json()) == p and p.to_json() == {"counters_per_point": 4, "events": False}
    from sheetkit.core.errors import RecordError

    with pytest.raises(RecordError):
        KeyHarvestParams.from_json({"counters_per_point": 0})
    with pytest.raises(RecordError):
        KeyHarvestParams.from_json({"largest_mult": 0, "second_mult": 0})


def test_may_says_why_an_action_is_closed_in_plain_words():
    """docs/key_harvest.md §A turn — the public ``may`` gives the table the reason: after a bid no buy; after two
    actions, none."""
    s = table(p0=["C4"], p1=["E5"])
    s.registry = ["C5", "E6", "A1"]
    set_counters(s, 0, (3, 0, 0, 0, 0))
    assert s.may(0, "buy") is None and s.may(0, "bid") is None
    s.apply(0, Bid("C5", (1, 0, 0, 0, 0)))
    reason, code = s.may(0, "buy")
    assert code == "buy-after-bid" and "after bidding" in reason
    s.apply(0, Harvest("C4"))
    assert s.may(0, "worker")[1] == "two-actions"
    with pytest.raises(ValueError):
        s.may(0, "dance")


@pytest.mark.parametrize("move", [
    Harvest({"x": 1}), Harvest(None), Buy(["C4"]), RemoveWorker(7), PlaceWorker({"id": 1}, "C4"),
    PlaceWorker("h1a", {"c": 4}), Bid("C5", None), Bid("C5", 3), Bid({"c": 5}, (1, 0, 0, 0, 0)),
])
def test_malformed_moves_are_refused_in_words(move):
    """docs/key_harvest.md §A turn — a move whose fields are not a space code, worker id or five counts is refused,
    state kept."""
    s = table(p0=["C4"], p1=["E5"])
    s.registry = ["C5", "E6", "A1"]
    set_counters(s, 0, (3, 0, 0, 0, 0))
    before = s.fingerprint()
    with pytest.raises(IllegalAction) as e:
        s.apply(0, move)
    assert str(e.value) and "Error" not in str(e.value)
    assert s.fingerprint() == before
