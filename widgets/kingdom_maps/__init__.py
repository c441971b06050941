"""Kingdom Maps' table, map, dice, words and analysis panels (the engine is sheetkit.games.kingdom_maps)."""

from sheetkit.widgets.kingdom_maps.table import KingdomTable

__all__ = ["KingdomTable"]
