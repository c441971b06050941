"""Avenue (Eilif Svensson & Kristian Amundsen Østby, Aporta Games 2016): flip-and-write roads.

The rules as implemented, then the layout, balance, bots and titles: docs/avenue.md.
"""

from sheetkit.games.avenue.bots import BOTS, GreedyBot, MonteCarloBot, RandomBot
from sheetkit.games.avenue.cards import ROAD_EDGES, ROAD_NAMES, RoadCard
from sheetkit.games.avenue.layout import Layout, load_layout, shipped_layouts
from sheetkit.games.avenue.moves import Draw, Pass, Peek, parse_action
from sheetkit.games.avenue.params import PRESETS, AvenueParams
from sheetkit.games.avenue.spec import SPEC, new_game
from sheetkit.games.avenue.state import AvenueState, Deal, parse_deal

__all__ = [
    "BOTS", "PRESETS", "ROAD_EDGES", "ROAD_NAMES", "SPEC", "AvenueParams", "AvenueState", "Deal", "Draw",
    "GreedyBot", "Layout", "MonteCarloBot", "Pass", "Peek", "RandomBot", "RoadCard", "load_layout", "new_game",
    "parse_action", "parse_deal", "shipped_layouts",
]
