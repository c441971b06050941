"""The registry of games: name → GameSpec. Games register themselves on import."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sheetkit.core.protocol import Bot, GameState


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


_GAMES: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    """Add a game to the registry (idempotent for the same name)."""
    _GAMES[spec.name] = spec
    return spec


def get_game(name: str) -> GameSpec:
    """Look up a registered game by name, with a helpful error."""
    import sheetkit.games  # noqa: F401  (registers the built-in games)

    key = name.strip().lower().replace("_", "-")
    if key not in _GAMES:
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(sorted(_GAMES))}")
    return _GAMES[key]


def all_games() -> list[GameSpec]:
    """Every registered game, sorted by name."""
    import sheetkit.games  # noqa: F401

    return [_GAMES[k] for k in sorted(_GAMES)]
