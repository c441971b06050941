"""The ground floor: grids, chance, the game protocol, records and game codes."""

from sheetkit.core.errors import IllegalAction, RecordError, SheetkitError

__all__ = ["IllegalAction", "RecordError", "SheetkitError"]
