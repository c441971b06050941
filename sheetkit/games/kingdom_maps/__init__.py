"""Kingdom Maps (Martín Oddino, RunDOS Studio 2020, free print-and-play): roll-and-draw hex kingdoms.

The rules as implemented, then design notes and balance tables: docs/kingdom_maps.md. The hex map,
the 12 criteria and the solo titles are sheetkit's own.
"""

from sheetkit.games.kingdom_maps.board import Board, load_map, shipped_maps
from sheetkit.games.kingdom_maps.bots import BOTS, GreedyBot, RandomBot
from sheetkit.games.kingdom_maps.criteria import CRITERIA, GROUP_A, GROUP_B, Criterion
from sheetkit.games.kingdom_maps.dice import Deal, parse_deal
from sheetkit.games.kingdom_maps.moves import Announce, Bank, Pass, Pick, Place, Power, parse_action
from sheetkit.games.kingdom_maps.params import PRESETS, KingdomParams
from sheetkit.games.kingdom_maps.placement import can_draw, empty_patches, next_hexes, start_hexes
from sheetkit.games.kingdom_maps.spec import SPEC, new_game
from sheetkit.games.kingdom_maps.state import KingdomState
from sheetkit.games.kingdom_maps.terrains import TERRAINS, Terrain, terrain_name
from sheetkit.games.kingdom_maps.titles import SOLO_TITLES, solo_title

__all__ = [
    "BOTS", "CRITERIA", "GROUP_A", "GROUP_B", "PRESETS", "SOLO_TITLES", "SPEC", "TERRAINS", "Announce", "Bank",
    "Board", "Criterion", "Deal", "GreedyBot", "KingdomParams", "KingdomState", "Pass", "Pick", "Place", "Power",
    "RandomBot", "Terrain", "can_draw", "empty_patches", "load_map", "new_game", "next_hexes", "parse_action",
    "parse_deal", "shipped_maps", "solo_title", "start_hexes", "terrain_name",
]
