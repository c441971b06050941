"""Test-only stand-ins for a game's expert bot and hindsight search (the protocols of issue 16, parts 1-2).

They follow ``sheetkit.core.protocol.Expert`` and ``Hindsight`` with the simplest honest method, so the
luck panel's code and tests never depend on which game's real expert is in: ``evaluate`` plays each move
out with the greedy bot in every seat (on a copy of the game, seeded chance and all — a stand-in may
peek); ``hindsight`` keeps the best of a few seeded games of a random-then-greedy player.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sheetkit.core.chance import make_rng
from sheetkit.core.play import play_out
from sheetkit.core.protocol import Bot, GameState, HindsightResult
from sheetkit.core.registry import get_game


class StandInExpert:
    """Values a move by one greedy play-out after it; plays the best valued move (ties: the first listed)."""

    name = "expert"
    slow = True

    def __init__(self, seed: int | None = 0, budget: float = 1.0) -> None:
        self.seed, self.budget = seed, budget
        self.calls = 0

    def evaluate(self, state: GameState, player: int, actions: Sequence[Any]) -> list[float]:
        """One greedy play-out per move: ``player``'s final score after it."""
        self.calls += 1
        greedy = get_game(state.game_name).bots["greedy"]
        out = []
        for a in actions:
            sim = state.clone()
            sim.apply_fast(player, a)
            play_out(sim, [greedy(seed=p) for p in range(sim.num_players)], fast=True)
            out.append(float(sim.scores()[player]))
        return out

    def act(self, state: GameState, player: int) -> Any:
        legal = state.legal_actions(player)
        values = self.evaluate(state, player, legal)
        return legal[max(range(len(legal)), key=lambda i: (values[i], -i))]


def stand_in_hindsight(state: GameState, player: int, opponents: Sequence[Bot | None] | None = None,
                       budget: float = 1.0) -> HindsightResult:
    """The best of a few seeded games on this deal: random moves for a while, then greedy."""
    spec = get_game(state.game_name)
    best: HindsightResult | None = None
    for k in range(max(1, round(3 * budget))):
        rng = make_rng(k)
        sim = state.clone()
        greedy, mine = spec.bots["greedy"](seed=k), []
        seats = list(opponents) if opponents is not None else [None] * sim.num_players
        while not sim.is_terminal():
            if sim.is_chance_node():
                sim.apply_chance()
                continue
            for p in sim.current_players():
                if p == player:
                    legal = sim.legal_actions(p)
                    a = legal[int(rng.integers(len(legal)))] if len(mine) < 3 * k else greedy.act(sim, p)
                    mine.append(a)
                    sim.apply(p, a)
                else:
                    bot = seats[p] if seats[p] is not None else spec.bots["greedy"](seed=p)
                    sim.apply(p, bot.act(sim, p))
        got = HindsightResult(int(sim.scores()[player]), tuple(mine), exact=False)
        if best is None or got.score > best.score:
            best = got
    assert best is not None
    return best
