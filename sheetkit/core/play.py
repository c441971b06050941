"""Drive a game to its end with bots: the one loop every simulation and test uses."""

from __future__ import annotations

from collections.abc import Sequence

from sheetkit.core.errors import BrokenGame
from sheetkit.core.protocol import Bot, GameState


def step_table(state: GameState) -> None:
    """Apply table steps until a player must act or the game ends."""
    while state.is_chance_node() and not state.is_terminal():
        state.apply_chance()


def play_out(state: GameState, bots: Sequence[Bot], fast: bool = False) -> GameState:
    """Play ``state`` to the end, each player choosing with its bot; returns the same state.

    ``fast`` uses the unchecked, unlogged path (no record is kept); otherwise every move is checked. Every game
    played here is audited at its end (``GameState.audit``): one that broke a conservation law raises
    ``BrokenGame`` instead of adding its scores to a simulation.
    """
    apply = state.apply_fast if fast else state.apply
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
            continue
        for p in state.current_players():
            apply(p, bots[p].act(state, p))
    problems = state.audit()
    if problems:
        seed = getattr(state, "seed", None)
        raise BrokenGame(f"the game (seed {seed}) broke a conservation law: " + "; ".join(problems))
    return state
