"""A bot any game can seat: it picks uniformly among the legal actions (the games' ``random`` bot)."""

from __future__ import annotations

from typing import Any

from sheetkit.core.chance import make_rng
from sheetkit.core.protocol import GameState


class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "random"

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = make_rng(seed)

    def act(self, state: GameState, player: int) -> Any:
        """One of ``state.legal_actions(player)``, each as likely."""
        acts = state.legal_actions(player)
        return acts[int(self.rng.integers(len(acts)))]
