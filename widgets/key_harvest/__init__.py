"""Key Harvest's table, country board, town board, words (the engine is sheetkit.games.key_harvest)."""

from sheetkit.widgets.key_harvest.table import KeyHarvestTable

__all__ = ["KeyHarvestTable"]
