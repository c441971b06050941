"""Avenue's entry in the game registry, and ``new_game`` for people."""

from __future__ import annotations

from sheetkit.core.chance import fresh_seed
from sheetkit.core.codes import game_setup
from sheetkit.core.records import MAX_NAME, MAX_PLAYERS
from sheetkit.core.registry import game_spec, register
from sheetkit.games.avenue.bots import BOTS
from sheetkit.games.avenue.hindsight import hindsight
from sheetkit.games.avenue.moves import parse_action
from sheetkit.games.avenue.params import PRESETS, AvenueParams
from sheetkit.games.avenue.state import AvenueState, parse_deal
from sheetkit.games.avenue.whatif import WHATIF


def new_game(players: list[str] | int = 1, seed: int | None = None, code: str | None = None,
             params: AvenueParams | None = None, variant: str = "standard") -> AvenueState:
    """Start a game: from a typed game ``code``, or a ``seed`` (fresh if neither), and a variant.

    The players are checked as a record checks them, so every game started here can be saved and replayed.
    """
    names = players if isinstance(players, int) else list(players)
    count = names if isinstance(names, int) else len(names)
    if not 1 <= count <= MAX_PLAYERS:
        raise ValueError(f"Avenue takes 1 to {MAX_PLAYERS} players, not {count}")
    if not isinstance(names, int):
        for name in names:
            if not isinstance(name, str) or len(name) > MAX_NAME:
                raise ValueError(f"a player's name is a text of at most {MAX_NAME} characters, not {str(name)[:80]!r}")
    seed, params = game_setup(code, seed, params, variant, prefix="AV", title="Avenue", presets=PRESETS)
    return AvenueState(params, names, seed=fresh_seed() if seed is None else seed)


SPEC = register(game_spec(
    AvenueState, AvenueParams, title="Avenue", min_players=1, max_players=MAX_PLAYERS, parse_action=parse_action,
    credits="Avenue by Eilif Svensson and Kristian Amundsen Østby, published by Aporta Games (2016).",
    parse_deal=parse_deal, bots=BOTS, whatif=WHATIF, hindsight=hindsight,
))
