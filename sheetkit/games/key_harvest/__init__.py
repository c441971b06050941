"""Key Harvest (Richard Breese, R&D Games 2007 / Rio Grande Games): bid for field tiles, build two big holdings.

The rules as implemented (effects included), then records and balance: docs/key_harvest.md. The
board's crops, the starting pairs, the workers' and events' effects are sheetkit's own.
"""

from sheetkit.games.key_harvest.board import CODES, CROP_OF, NEIGHBOURS, POSITION, START_PAIRS, board_text
from sheetkit.games.key_harvest.bots import BOTS, GreedyBot, RandomBot, candidate_moves
from sheetkit.games.key_harvest.crops import CROPS
from sheetkit.games.key_harvest.events import EVENT_LIST, EVENTS, Event, events_for
from sheetkit.games.key_harvest.moves import (
    Bid,
    Buy,
    Choose,
    EndTurn,
    Harvest,
    PlaceWorker,
    RemoveWorker,
    parse_action,
)
from sheetkit.games.key_harvest.params import PRESET_NOTES, PRESETS, KeyHarvestParams
from sheetkit.games.key_harvest.spec import SPEC, new_game, parse_deal
from sheetkit.games.key_harvest.state import KeyHarvestState, Pending
from sheetkit.games.key_harvest.workers import FARMHANDS, TOWNSFOLK, WORKERS, Worker

__all__ = [
    "BOTS", "CODES", "CROPS", "CROP_OF", "EVENTS", "EVENT_LIST", "FARMHANDS", "NEIGHBOURS", "POSITION", "PRESETS",
    "PRESET_NOTES", "SPEC", "START_PAIRS", "TOWNSFOLK", "WORKERS", "Bid", "Buy", "Choose", "EndTurn", "Event",
    "GreedyBot", "Harvest", "KeyHarvestParams", "KeyHarvestState", "Pending", "PlaceWorker", "RandomBot",
    "RemoveWorker", "Worker", "board_text", "candidate_moves", "events_for", "new_game", "parse_action", "parse_deal",
]
