"""Key Harvest bots: they only make legal moves, and greedy clearly beats random (seeded)."""

from __future__ import annotations

from key_harvest_util import put_in_store, set_counters, table

from sheetkit.core.chance import derive_seed
from sheetkit.core.play import play_out
from sheetkit.games.key_harvest import BOTS, candidate_moves, new_game
from sheetkit.games.key_harvest.moves import Buy, Choose, EndTurn


def win_share(players: int, games: int) -> float:
    wins = 0.0
    for g in range(games):
        s = new_game(players, seed=5000 + g)
        seat = g % players
        bots = [BOTS["greedy" if p == seat else "random"](seed=derive_seed(g, "bot", p)) for p in range(players)]
        play_out(s, bots, fast=True)
        wins += s.placings()[seat] == 1
    return wins / games


def test_greedy_beats_random_two_players():
    """Greedy wins far more than half of 2-player games against random (seats alternate)."""
    assert win_share(2, 120) >= 0.85


def test_greedy_beats_random_four_players():
    """Greedy wins far more than a fair quarter of 4-player games against three random bots."""
    assert win_share(4, 60) >= 0.6


def test_candidate_moves_are_legal_and_bots_play_checked():
    """Every generated move passes ``check``; a checked game with both bots finishes."""
    s = new_game(3, seed=3)
    bots = [BOTS["greedy"](seed=0), BOTS["random"](seed=1), BOTS["greedy"](seed=2)]
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_chance()
            continue
        p = s.current_players()[0]
        for a in candidate_moves(s, p):
            s.check(p, a)
        s.apply(p, bots[p].act(s, p))
    assert s.is_terminal()


def _market_day(s) -> None:
    s.registry = s.registry[:5]
    s._bag[s._bag_pos:] = ["market"] + [x for x in s._bag[s._bag_pos:] if x != "market"]
    s.apply(s.active, EndTurn())
    assert s.apply_chance() == {"chance": "draw", "event": "market"}


def test_greedy_trades_a_spare_crop_for_the_one_a_wanted_store_tile_costs():
    """docs/key_harvest.md §Worker actions, §Events (Trader, Market day) and §Taking tiles from stores (buying pays the
    bid's very crops): one hops
    short of a tile it wants in another store, the greedy bot gives a spare wine and takes hops; the tile is then
    payable, and it is the buy the bot weighs against its other moves on its turn."""
    s = table(2, active=1, p0=["A1", "A2"], p1=["G1"])
    set_counters(s, 0, (2, 0, 0, 0, 0))
    put_in_store(s, 1, "G7", (0, 1, 0, 0, 0))
    bot = BOTS["greedy"](seed=0)
    assert bot._buy(s, 0) is None, "it cannot pay hops yet"
    _market_day(s)
    assert s.current_players() == [0] and s.pending.kind == "give"
    s.apply(0, bot.act(s, 0))
    assert s.pending.kind == "take" and s.counters[0] == (1, 0, 0, 0, 0), "gave one wine"
    s.apply(0, bot.act(s, 0))
    assert s.counters[0] == (1, 1, 0, 0, 0), "took the hops the tile costs"
    while s.current_players() != [0] or s.pending is not None:    # the other player declines; 0's turn comes
        if s.is_chance_node():
            s.apply_chance()
        else:
            s.apply(s.current_players()[0], Choose("decline"))
    assert Buy("G7") in s.legal_actions(0) and bot._buy(s, 0)[1] == Buy("G7")


def test_greedy_declines_a_trade_that_buys_nothing():
    """docs/key_harvest.md §Worker actions, §Events — with no store tile one counter short, a 1-for-1 swap gains
    nothing: decline."""
    s = table(2, active=1, p0=["A1", "A2"], p1=["G1"])
    set_counters(s, 0, (2, 0, 0, 0, 0))
    _market_day(s)
    assert BOTS["greedy"](seed=0).act(s, 0) == Choose("decline")
