"""The ground floor: grids, chance, the game protocol, records and game codes."""

from sheetkit.core.errors import BrokenGame, IllegalAction, RecordError, SheetkitError

__all__ = ["BrokenGame", "IllegalAction", "RecordError", "SheetkitError"]
