"""The registry of games: name → GameSpec.

The core never imports a game. Games are found through the ``sheetkit.games`` entry-point group
(pyproject.toml), so a game shipped in another package registers the same way as the built-in
ones; importing a game's ``spec`` module also registers it directly.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any

from sheetkit.core.knobs import WhatIfSpec
from sheetkit.core.protocol import Bot, ChoiceCodec, GameState, Hindsight

ENTRY_POINT_GROUP = "sheetkit.games"


@dataclass(frozen=True)
class GameSpec:
    """Everything generic code (records, CLI, tests, analysis) needs to know about one game."""

    name: str
    title: str
    code_prefix: str
    credits: str
    min_players: int
    max_players: int
    # new_state(params, players, seed=None, deal=None) -> GameState
    new_state: Callable[..., GameState]
    # parse_params(json) -> params object (validated, raising RecordError)
    parse_params: Callable[[Any, str], Any]
    # parse_action(json, path) -> action
    parse_action: Callable[[Any, str], Any]
    # parse_deal(json, params, path) -> deal object for new_state(deal=...)
    parse_deal: Callable[[Any, Any, str], Any]
    default_params: Callable[[], Any]
    presets: Mapping[str, Callable[[], Any]]
    bots: Mapping[str, Callable[..., Bot]] = field(default_factory=dict)
    # describe(state) -> list of per-player JSON breakdowns, for `replay` output
    breakdown: Callable[[GameState], list[dict[str, Any]]] | None = None
    # How a result code writes a player's moves; None: by their index in legal_actions (every legal move listed)
    choice_codec: ChoiceCodec | None = None
    # check_step(state, entry, version, path): schema-check a logged table step before replaying it (RecordError)
    check_step: Callable[[GameState, dict[str, Any], int, str], None] | None = None
    # step_in(entry, version): the engine's table step as a record of that (older) version wrote it
    step_in: Callable[[dict[str, Any], int], dict[str, Any]] | None = None
    # The what-if explorer's knobs and the words its page speaks of this game; None: not in the explorer
    whatif: WhatIfSpec | None = None
    # The hindsight search (the whole deal known in advance): the skill share's "luck" yardstick; None: none yet
    hindsight: Hindsight | None = None


def game_spec(state: Any, params: Any, **rest: Any) -> GameSpec:
    """A GameSpec wired the usual way from a game's state class (``game_name``, ``code_prefix``, ``presets``)
    and its params class; ``rest`` gives the other fields."""
    return GameSpec(name=state.game_name, code_prefix=state.code_prefix, new_state=state,
                    parse_params=params.from_json, default_params=params,
                    presets={k: (lambda v=v: v) for k, v in state.presets.items()}, breakdown=breakdowns, **rest)


def breakdowns(state: Any) -> list[dict[str, Any]]:
    """Every player's ``state.breakdown(player)``: the score in full, for ``replay`` output."""
    return [state.breakdown(p) for p in range(state.num_players)]


_GAMES: dict[str, GameSpec] = {}
_BROKEN: dict[str, str] = {}  # entry-point name → why it could not be loaded
_discovered = False


def register(spec: GameSpec) -> GameSpec:
    """Add a game to the registry (idempotent for the same name)."""
    _GAMES[spec.name] = spec
    return spec


def _key(name: str) -> str:
    return name.strip().lower().replace("_", "-")


def discover() -> None:
    """Load every game installed under the ``sheetkit.games`` entry-point group (once)."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    _load(ep for ep in entry_points(group=ENTRY_POINT_GROUP) if _key(ep.name) not in _GAMES)


def _load(points: Any) -> None:
    """Load and register these entry points; a broken one is noted and warned about, never raised."""
    for ep in points:
        try:
            spec = ep.load()
        except Exception as e:  # one broken game must not hide the others
            _BROKEN[_key(ep.name)] = f"{type(e).__name__}: {e}"
            warnings.warn(f"the game {ep.name!r} ({ep.value}) could not be loaded: {e}", stacklevel=2)
            continue
        if not isinstance(spec, GameSpec):
            _BROKEN[_key(ep.name)] = f"{ep.value} is not a GameSpec"
            continue
        register(spec)


def get_game(name: str) -> GameSpec:
    """Look up a registered game by name, with a helpful error."""
    key = _key(name)
    if key in _GAMES:
        return _GAMES[key]
    if not _discovered:  # only this game's entry point: a page of one game need not import the others
        _load(ep for ep in entry_points(group=ENTRY_POINT_GROUP) if _key(ep.name) == key)
        if key in _GAMES:
            return _GAMES[key]
    discover()
    if key in _GAMES:
        return _GAMES[key]
    if key in _BROKEN:
        raise KeyError(f"the game {name!r} is installed but could not be loaded ({_BROKEN[key]})")
    if not _GAMES:
        raise KeyError(f"unknown game {name!r}: no games are installed (install sheetkit: pip install -e .)")
    raise KeyError(f"unknown game {name!r}; known games: {', '.join(sorted(_GAMES))}")


def all_games() -> list[GameSpec]:
    """Every registered game, sorted by name."""
    discover()
    return [_GAMES[k] for k in sorted(_GAMES)]
