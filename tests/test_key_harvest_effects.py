"""One test per farmhand, townsfolk and event effect (docs/key_harvest.md §Worker actions, §Events; the effects
are ours, also listed in sheetkit/games/key_harvest/workers.py and events.py)."""

from __future__ import annotations

import pytest
from key_harvest_util import finish_turn, put_in_store, set_counters, table, total_counters

from sheetkit.core.errors import IllegalAction
from sheetkit.games.key_harvest import EVENT_LIST, WORKERS, Bid, Buy, Choose, EndTurn, Harvest, PlaceWorker

FIVE = ["D4", "D6", "C5", "C6", "E5"]  # D5 touches all five


def with_event(s, eid):
    """End the active player's turn with ``eid`` on top of the bag; returns after the event's draw."""
    s.registry = s.registry[:5]
    s._bag[s._bag_pos:] = [eid] + [x for x in s._bag[s._bag_pos:] if x != eid]
    s.apply(s.active, EndTurn())
    assert s.apply_chance() == {"chance": "draw", "event": eid}
    assert s.events_placed[-1] == eid


def choices(s, p):
    return {a.value for a in s.legal_actions(p)}


def test_every_worker_and_event_is_distinct_and_named():
    """docs/key_harvest.md §Components, §Worker actions, §Events — 12 workers with values 1,1,2,2,3,3 / 4,4,4,5,5,5,
    all actions different;
    14 events, 2 left out with 2–3 players."""
    assert sorted(w.value for w in WORKERS.values()) == [1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 5]
    assert len({w.action for w in WORKERS.values()}) == 12 and {"lawyer", "bailiff"} <= set(WORKERS)
    assert len(EVENT_LIST) == 14 and sum(e.many_only for e in EVENT_LIST) == 2
    assert len({e.effect for e in EVENT_LIST}) == 14


# ----- farmhands --------------------------------------------------------------------------------
def test_gleaner_takes_a_crop_of_your_choice():
    """docs/key_harvest.md §Worker actions — Gleaner (1): take 1 counter of a crop of your choice."""
    s = table(p0=["C4"])
    s.apply(0, PlaceWorker("h1a", "C5"))
    assert s.pending.kind == "crop" and s.pending.source == "h1a" and s.current_players() == [0]
    assert choices(s, 0) == {"wine", "hops", "apples", "vegetables", "wheat"}
    s.apply(0, Choose("apples"))
    assert s.counters[0] == (0, 0, 1, 0, 0) and s.pending is None and total_counters(s) == 60


def test_trader_swaps_one_counter_or_declines():
    """docs/key_harvest.md §Worker actions — Trader (1): give 1 counter to the stock, take 1 of another crop."""
    s = table(p0=["C4"])
    set_counters(s, 0, (1, 0, 0, 0, 0))
    s.apply(0, PlaceWorker("h1b", "C5"))
    assert choices(s, 0) == {"wine", "decline"}
    s.apply(0, Choose("wine"))
    assert s.pending.kind == "take" and "wine" not in choices(s, 0)
    s.apply(0, Choose("wheat"))
    assert s.counters[0] == (0, 0, 0, 0, 1) and total_counters(s) == 60
    s2 = table(p0=["C4"])
    s2.apply(0, PlaceWorker("h1b", "C5"))
    assert s2.pending is None  # nothing to give: nothing asked


def test_waterer_turns_touching_harvested_tiles_up():
    """docs/key_harvest.md §Worker actions — Waterer (2): every harvested tile it touches turns back up."""
    s = table(p0=["C4"], h0=["C6", "D4", "A1"])
    s.apply(0, PlaceWorker("h2a", "C5"))
    assert s.boards[0] == {"A1": "harvested", "C4": "up", "C6": "up", "D4": "up"}


def test_reaper_takes_one_of_each_crop_it_touches():
    """docs/key_harvest.md §Worker actions — Reaper (2): 1 counter of each different crop among touching tiles."""
    s = table(p0=["C4", "C6"], h0=["D4"])  # apples, apples, wheat
    s.apply(0, PlaceWorker("h2b", "C5"))
    assert s.counters[0] == (0, 0, 1, 0, 1)


def test_steward_guards_the_store_until_your_next_turn():
    """docs/key_harvest.md §Worker actions — Steward (3): others cannot take your store's tiles until your next turn."""
    s = table(2, p0=["C4", "C6", "D4"], p1=["G7"])
    put_in_store(s, 0, "A1", (1, 0, 0, 0, 0), turn=0)
    set_counters(s, 1, (2, 0, 0, 0, 0))
    s.apply(0, PlaceWorker("h3a", "C5"))
    assert s.protected[0]
    finish_turn(s)
    with pytest.raises(IllegalAction) as e:
        s.apply(1, Buy("A1"))
    assert e.value.code == "protected" and Buy("A1") not in s.legal_actions(1)
    finish_turn(s)
    assert s.active == 0 and not s.protected[0]


def test_carter_allows_three_tiles_from_stores():
    """docs/key_harvest.md §Worker actions — Carter (3): this turn up to 3 tiles from stores."""
    s = table(2, p0=["C4", "C6", "D4"], p1=["G7"])
    for code in ("A1", "A2", "A3"):
        put_in_store(s, 1, code, (0, 0, 0, 0, 0))
    s.apply(0, PlaceWorker("h3b", "C5"))
    for code in ("A1", "A2", "A3"):
        s.apply(0, Buy(code))
    assert {"A1", "A2", "A3"} <= set(s.tiles_of(0))
    s2 = table(2, p0=["C4"], p1=["G7"])
    for code in ("A1", "A2", "A3"):
        put_in_store(s2, 1, code, (0, 0, 0, 0, 0))
    s2.apply(0, Buy("A1"))
    s2.apply(0, Buy("A2"))
    with pytest.raises(IllegalAction):
        s2.apply(0, Buy("A3"))


def test_carter_allows_a_third_tile_never_a_fourth():
    """docs/key_harvest.md §Worker actions — Carter (3): the limit of tiles from stores goes from 2 to 3 for the
    turn, not further: with four tiles on offer the fourth is refused and no longer listed."""
    s = table(3, p0=["C4", "C6", "D4"], p1=["G7"], p2=["E9"])
    for owner, code in ((1, "A1"), (1, "A2"), (2, "A3"), (2, "A4")):
        put_in_store(s, owner, code, (0, 0, 0, 0, 0))
    s.apply(0, PlaceWorker("h3b", "C5"))
    for code in ("A1", "A2", "A3"):
        s.apply(0, Buy(code))
    assert s.buys_left() == 0 and Buy("A4") not in s.legal_actions(0)
    with pytest.raises(IllegalAction) as e:
        s.apply(0, Buy("A4"))
    assert e.value.code == "limit" and "at most 3 tiles" in str(e.value) and "A4" not in s.tiles_of(0)


# ----- townsfolk --------------------------------------------------------------------------------
def test_notary_claims_a_tile_stored_this_turn():
    """docs/key_harvest.md §Worker actions — Notary (4): a store tile onto your board now, bid to the stock."""
    s = table(p0=FIVE)
    s.registry = ["G7", "A1"]
    set_counters(s, 0, (0, 2, 0, 0, 0))
    s.apply(0, Bid("G7", (0, 2, 0, 0, 0)))
    s.apply(0, PlaceWorker("notary", "D5"))
    assert choices(s, 0) == {"G7", "decline"}
    s.apply(0, Choose("G7"))
    assert "G7" in s.tiles_of(0) and s.stores[0] == [] and s.stock[1] == 12 and s.workers_on[0]["D5"] == "notary"


def test_miller_takes_two_of_one_crop():
    """docs/key_harvest.md §Worker actions — Miller (4): 2 counters of one crop of your choice."""
    s = table(p0=FIVE)
    s.apply(0, PlaceWorker("miller", "D5"))
    s.apply(0, Choose("hops"))
    assert s.counters[0] == (0, 2, 0, 0, 0) and "miller" not in s.townsfolk_in_town


def test_foreman_harvests_another_group():
    """docs/key_harvest.md §Worker actions — Foreman (4): harvest one more group, besides the harvest action."""
    s = table(p0=[*FIVE, "A1"])
    s.apply(0, Harvest("A1"))
    s.apply(0, PlaceWorker("foreman", "D5"))
    assert s.pending.kind == "foreman"
    s.apply(0, Choose("C5"))
    assert all(v == "harvested" for v in s.boards[0].values())
    assert sum(s.counters[0]) == 6


def test_lawyer_takes_a_tile_from_another_store_owner_takes_bid_back():
    """docs/key_harvest.md §Worker actions — Lawyer (5): take another player's store tile; its owner takes the bid
    back."""
    s = table(p0=FIVE, p1=["G7"])
    put_in_store(s, 1, "A1", (2, 0, 0, 0, 0))
    s.apply(0, PlaceWorker("lawyer", "D5"))
    assert choices(s, 0) == {"A1", "decline"}
    s.apply(0, Choose("A1"))
    assert "A1" in s.tiles_of(0) and s.stores[1] == [] and s.counters[1] == (2, 0, 0, 0, 0)
    assert total_counters(s) == 60


def test_bailiff_takes_a_registry_tile_free():
    """docs/key_harvest.md §Worker actions — Bailiff (5): a registry tile onto your board, free."""
    s = table(p0=FIVE)
    s.registry = ["G7", "A1"]
    s.apply(0, PlaceWorker("bailiff", "D5"))
    s.apply(0, Choose("A1"))
    assert "A1" in s.tiles_of(0) and s.registry == ["G7"] and s.counters[0] == (0,) * 5


def test_mayor_turns_every_harvested_tile_up():
    """docs/key_harvest.md §Worker actions — Mayor (5): every harvested tile of yours turns back up."""
    s = table(h0=[*FIVE, "A1"])
    s.apply(0, PlaceWorker("mayor", "D5"))
    assert all(v == "up" for v in s.boards[0].values())


# ----- events ---------------------------------------------------------------------------------
def test_boundary_shift_passes_a_tile_left_in_turn_order():
    """docs/key_harvest.md §Events — known event: every player passes one field tile to the player on the left."""
    s = table(3, active=1, p0=["A1"], p1=["C4"], h2=["G7"])
    with_event(s, "boundary")
    assert s.current_players() == [1] and s.pending.kind == "pass" and choices(s, 1) == {"C4"}
    s.apply(1, Choose("C4"))
    assert s.current_players() == [2]
    assert choices(s, 2) == {"C4", "G7"}  # a tile just received may be passed on
    s.apply(2, Choose("G7"))
    s.apply(0, Choose("A1"))
    assert s.tiles_of(0) == ["G7"] and s.tiles_of(1) == ["A1"] and s.tiles_of(2) == ["C4"]
    assert s.boards[0]["G7"] == "harvested"  # a tile keeps its side


def test_land_sale_buys_a_registry_tile_for_three_counters():
    """docs/key_harvest.md §Events — known event: every player may buy one more tile for 3 counters."""
    s = table(3, p0=["A1"], p1=["C4"], p2=["G7"])
    set_counters(s, 0, (2, 1, 0, 0, 0))
    set_counters(s, 1, (1, 0, 0, 0, 0))
    set_counters(s, 2, (0, 0, 5, 0, 0))
    with_event(s, "land_sale")
    code = s.registry[0]
    assert Choose(code, (2, 1, 0, 0, 0)) in s.legal_actions(0) and Choose("decline") in s.legal_actions(0)
    with pytest.raises(IllegalAction):
        s.apply(0, Choose(code, (1, 1, 0, 0, 0)))
    s.apply(0, Choose(code, (2, 1, 0, 0, 0)))
    assert code in s.tiles_of(0) and s.counters[0] == (0,) * 5
    assert s.current_players() == [2]  # player 1 cannot pay 3: not asked
    s.apply(2, Choose("decline"))
    assert s.pending is None and total_counters(s) == 60


def test_good_rains_turn_every_harvested_tile_up():
    """docs/key_harvest.md §Events — Good rains: everyone's harvested tiles turn back up."""
    s = table(2, h0=["A1", "A2"], h1=["G7"], p1=["G1"])
    with_event(s, "rain")
    assert set(s.boards[0].values()) == {"up"} and set(s.boards[1].values()) == {"up"}


def test_spring_showers_only_the_largest_group():
    """docs/key_harvest.md §Events — Spring showers: the harvested tiles of each largest group turn up."""
    s = table(2, h0=["A1", "A2", "A3", "G7"], h1=["G1"])
    with_event(s, "showers")
    assert s.boards[0] == {"A1": "up", "A2": "up", "A3": "up", "G7": "harvested"}


def test_market_day_trade_or_decline():
    """docs/key_harvest.md §Events — Market day: each may give 1 counter and take 1 of another crop."""
    s = table(2, p0=["A1"], p1=["G7"])
    set_counters(s, 0, (0, 0, 1, 0, 0))
    set_counters(s, 1, (1, 0, 0, 0, 0))
    with_event(s, "market")
    s.apply(0, Choose("apples"))
    s.apply(0, Choose("wine"))
    s.apply(1, Choose("decline"))
    assert s.counters[0] == (1, 0, 0, 0, 0) and s.counters[1] == (1, 0, 0, 0, 0) and s.pending is None


def test_bountiful_season_everyone_takes_a_crop():
    """docs/key_harvest.md §Events — Bountiful season: each takes 1 counter of a crop of their choice."""
    s = table(2, p0=["A1"], p1=["G7"])
    with_event(s, "bounty")
    s.apply(0, Choose("hops"))
    s.apply(1, Choose("wheat"))
    assert s.counters[0] == (0, 1, 0, 0, 0) and s.counters[1] == (0, 0, 0, 0, 1)


def test_fine_vintage_everyone_takes_wine_while_it_lasts():
    """docs/key_harvest.md §Events — Fine vintage: each takes 1 wine (stock allowing, in turn order)."""
    s = table(3, active=1, p0=["A1"], p1=["G7"], p2=["G1"])
    set_counters(s, 0, (11, 0, 0, 0, 0))
    with_event(s, "vintage")
    assert s.counters[1][0] == 1 and s.counters[2][0] == 0 and s.counters[0][0] == 11


def test_windfall_tops_poor_players_up_to_three():
    """docs/key_harvest.md §Events — Windfall: fewer than 3 counters → topped up to 3."""
    s = table(2, p0=["A1"], p1=["G7"])
    set_counters(s, 0, (0, 0, 0, 0, 1))
    set_counters(s, 1, (4, 0, 0, 0, 0))
    with_event(s, "windfall")
    assert sum(s.counters[0]) == 3 and s.counters[1] == (4, 0, 0, 0, 0)


def test_tithe_gives_one_of_the_most_held_crop():
    """docs/key_harvest.md §Events — Tithe: 1 counter of the crop you hold most of goes to the stock."""
    s = table(2, p0=["A1"], p1=["G7"])
    set_counters(s, 0, (1, 3, 0, 3, 0))
    with_event(s, "tithe")
    assert s.counters[0] == (1, 2, 0, 3, 0) and s.counters[1] == (0,) * 5


def test_late_frost_turns_one_tile_over_without_counters():
    """docs/key_harvest.md §Events — Late frost: each turns one unharvested tile over, taking nothing."""
    s = table(2, p0=["A1", "A2"], h1=["G7"])
    with_event(s, "frost")
    assert s.current_players() == [0] and choices(s, 0) == {"A1", "A2"}
    s.apply(0, Choose("A2"))
    assert s.boards[0] == {"A1": "up", "A2": "harvested"} and s.counters[0] == (0,) * 5 and s.pending is None


def test_registry_deadline_puts_store_tiles_on_boards():
    """docs/key_harvest.md §Events — Registry deadline: store tiles onto their owners' boards, bids to the stock."""
    s = table(2, p0=["A1"], p1=["G7"])
    put_in_store(s, 1, "G6", (2, 0, 0, 0, 0), turn=1)
    s.workers_on[1]["G6"] = "h1a"
    s.farmhands_free[1].remove("h1a")
    with_event(s, "deadline")
    assert "G6" in s.tiles_of(1) and s.stores[1] == [] and s.stock[0] == 12
    assert s.pending.kind == "replace" and s.current_players() == [1]  # its worker was displaced


def test_farmhands_holiday_sends_the_lowest_farmhand_home():
    """docs/key_harvest.md §Events — Farmhands' holiday: each takes their lowest farmhand off the board."""
    s = table(2, p0=["A1"], p1=["G7"])
    s.workers_on[0] = {"B1": "h2a", "C1": "h1b", "E1": "miller"}
    s.farmhands_free[0] = ["h1a", "h2b", "h3a", "h3b"]
    with_event(s, "holiday")
    assert s.workers_on[0] == {"B1": "h2a", "E1": "miller"} and "h1b" in s.farmhands_free[0]


def test_drought_discards_the_registry_and_drawing_goes_on():
    """docs/key_harvest.md §Events — Drought: the registry's tiles are discarded; the refill goes on."""
    s = table(4, p0=["A1"], p1=["G7"], p2=["G1"], p3=["C9"])
    with_event(s, "drought")
    assert s.registry == [] and len(s.discards) == 5 and s.is_chance_node()


def test_census_lets_the_smallest_landholder_take_a_tile():
    """docs/key_harvest.md §Events — Census: the player(s) with the fewest tiles may take a registry tile free."""
    s = table(4, p0=["A1", "A2"], p1=["G7"], p2=["G1", "G2"], p3=["C9", "C8"])
    with_event(s, "census")
    assert s.current_players() == [1] and s.pending.kind == "census"
    code = s.registry[0]
    s.apply(1, Choose(code))
    assert code in s.tiles_of(1) and s.pending is None
