"""Bots any game can seat: uniform random play (the games' ``random`` bot), and a recorder of another bot's moves."""

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


class RecordingBot:
    """Plays as the bot it wraps and keeps the moves it made (a game to hand on, e.g. as a search's baseline)."""

    def __init__(self, bot: Any, moves: list[Any] | None = None) -> None:
        self.bot = bot
        self.moves: list[Any] = [] if moves is None else moves
        self.name = getattr(bot, "name", "bot")

    def act(self, state: GameState, player: int) -> Any:
        """The wrapped bot's move, kept in ``moves``."""
        move = self.bot.act(state, player)
        self.moves.append(move)
        return move
