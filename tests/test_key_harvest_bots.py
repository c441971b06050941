"""Key Harvest bots: they only make legal moves, and greedy clearly beats random (seeded)."""

from __future__ import annotations

from sheetkit.core.chance import derive_seed
from sheetkit.core.play import play_out
from sheetkit.games.key_harvest import BOTS, candidate_moves, new_game


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
