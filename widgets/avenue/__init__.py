"""Avenue's table, sheet, cards, words and analysis panels (the engine is sheetkit.games.avenue)."""

from sheetkit.widgets.avenue.table import AvenueTable

__all__ = ["AvenueTable"]
