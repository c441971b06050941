"""Key Harvest's entry in the game registry, and ``new_game`` for people."""

from __future__ import annotations

from typing import Any

from sheetkit.core.chance import fresh_seed
from sheetkit.core.codes import game_setup
from sheetkit.core.errors import RecordError
from sheetkit.core.registry import game_spec, register
from sheetkit.games.key_harvest.bots import BOTS
from sheetkit.games.key_harvest.codec import CODEC
from sheetkit.games.key_harvest.expert import ExpertBot
from sheetkit.games.key_harvest.hindsight import hindsight
from sheetkit.games.key_harvest.moves import parse_action
from sheetkit.games.key_harvest.params import MAX_PLAYERS, MIN_PLAYERS, PRESETS, KeyHarvestParams
from sheetkit.games.key_harvest.record_steps import check_step, step_in
from sheetkit.games.key_harvest.state import KeyHarvestState
from sheetkit.games.key_harvest.whatif import WHATIF

BOTS["expert"] = ExpertBot  # here, not in bots.py: the expert searches with the greedy bot defined there


def parse_deal(data: Any, params: Any = None, path: str = "deal") -> Any:
    """Key Harvest has no fixed-deal form: a record always names its seed."""
    raise RecordError("Key Harvest records have no fixed deal: give a 'seed' instead", path)


def new_game(players: list[str] | int = 3, seed: int | None = None, code: str | None = None,
             params: KeyHarvestParams | None = None, variant: str = "standard") -> KeyHarvestState:
    """Start a game from a typed game ``code`` (``KH-XXXX-XXXX``) or a ``seed`` (fresh if none), and a variant."""
    seed, params = game_setup(code, seed, params, variant, prefix="KH", title="Key Harvest", presets=PRESETS)
    return KeyHarvestState(params, players, seed=fresh_seed() if seed is None else seed)


SPEC = register(game_spec(
    KeyHarvestState, KeyHarvestParams, title="Key Harvest", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
    credits="Key Harvest by Richard Breese, R&D Games (2007) / Rio Grande Games. Board crops, starting pairs, "
            "worker and event effects: sheetkit's own.",
    parse_action=parse_action, parse_deal=parse_deal, bots=BOTS, choice_codec=CODEC, check_step=check_step,
    step_in=step_in, whatif=WHATIF, hindsight=hindsight,
))
