"""Kingdom Maps' entry in the game registry, and ``new_game`` for people."""

from __future__ import annotations

from sheetkit.core.chance import fresh_seed
from sheetkit.core.codes import game_setup
from sheetkit.core.registry import game_spec, register
from sheetkit.games.kingdom_maps.bots import BOTS
from sheetkit.games.kingdom_maps.dice import Deal, parse_deal
from sheetkit.games.kingdom_maps.expert import ExpertBot
from sheetkit.games.kingdom_maps.hindsight import hindsight
from sheetkit.games.kingdom_maps.moves import parse_action
from sheetkit.games.kingdom_maps.params import MAX_PLAYERS, PRESETS, KingdomParams
from sheetkit.games.kingdom_maps.state import KingdomState
from sheetkit.games.kingdom_maps.whatif import WHATIF


def new_game(players: list[str] | int = 1, seed: int | None = None, code: str | None = None,
             params: KingdomParams | None = None, variant: str = "standard", deal: Deal | None = None) -> KingdomState:
    """Start a game: from a typed game ``code``, a ``seed`` (fresh if none), or a fixed ``deal``; and a variant."""
    seed, params = game_setup(code, seed, params, variant, prefix="KM", title="Kingdom Maps", presets=PRESETS)
    if deal is not None:
        return KingdomState(params, players, deal=deal)
    return KingdomState(params, players, seed=fresh_seed() if seed is None else seed)


# The expert searches with the greedy bot, so it joins the bots here rather than in bots.py (no import circle).
BOTS["expert"] = ExpertBot


SPEC = register(game_spec(
    KingdomState, KingdomParams, title="Kingdom Maps", min_players=1, max_players=MAX_PLAYERS,
    credits="Kingdom Maps by Martín Oddino, RunDOS Studio (2020), a free print-and-play game. "
            "Map, criteria and solo titles: sheetkit's own.",
    parse_action=parse_action, parse_deal=parse_deal, bots=BOTS, whatif=WHATIF, hindsight=hindsight,
))
