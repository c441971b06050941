"""The what-if knobs: each game's rule parameters as sliders, toggles and choices, read from and written
back to the game's own params (validated by the game). A dashboard draws these; it knows no rules.

Each game states its knobs beside its params (``GameSpec.whatif``, a ``sheetkit.core.knobs.WhatIfSpec``:
``sheetkit/games/<game>/whatif.py``); this module knows no game. ``knobs(game)`` lists them;
``knob_values(game, params)`` reads a variant's settings; ``params_from_knobs(game, base, values)`` builds
the new variant (only knobs whose value differs from ``base`` change anything, so a custom deck survives
until its deck knobs are moved); ``describe_changes`` says what changed in words; ``example(game)`` is the
game's first question and ``simulate_command(game)`` the same question asked from a terminal.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from sheetkit.analysis.montecarlo import resolve_variant
from sheetkit.core.knobs import Knob, WhatIfSpec
from sheetkit.core.registry import get_game

__all__ = ["Knob", "describe_changes", "example", "knob_values", "knobs", "params_from_knobs", "simulate_command",
           "whatif_spec"]


def whatif_spec(game: str) -> WhatIfSpec | None:
    """What ``game`` gives the explorer (None for a game without knobs)."""
    return get_game(game).whatif


def knobs(game: str) -> tuple[Knob, ...]:
    """The what-if controls of ``game`` (empty for a game without any)."""
    spec = whatif_spec(game)
    return spec.knobs if spec is not None else ()


def example(game: str) -> tuple[dict[str, Any], int]:
    """The game's first question: (knob changes, deals) — quick on one core."""
    spec = whatif_spec(game)
    return (dict(spec.example), spec.example_deals) if spec is not None else ({}, 100)


def simulate_command(game: str) -> str:
    """The first question asked from a terminal: 'python -m sheetkit simulate --game … --set … --compare'."""
    spec = get_game(game)
    changes, n = example(game)
    players = spec.whatif.players if spec.whatif is not None else 1
    parts = ["python -m sheetkit simulate", f"--game {spec.name}"]
    if players != 1:
        parts.append(f"--players {players}")
    parts.append(f"-n {n}")
    parts += [f"--set {key}={json.dumps(value)}" for key, value in changes.items()]
    return " ".join([*parts, "--compare"])


def knob_values(game: str, params: Any = None) -> dict[str, Any]:
    """Each knob's value under a variant (None, a preset name, JSON or params)."""
    _, p = resolve_variant(game, params)
    return {k.key: k.read(p) for k in knobs(game)}


def params_from_knobs(game: str, base: Any, values: Mapping[str, Any]) -> Any:
    """The variant ``base`` with the knobs set to ``values`` (validated: RecordError if it cannot be played).
    Knobs left at ``base``'s value, or not given, change nothing."""
    spec = get_game(game)
    _, p = resolve_variant(game, base)
    doc = json.loads(json.dumps(p.to_json()))
    by_key = {k.key: k for k in knobs(game)}
    unknown = set(values) - set(by_key)
    if unknown:
        raise KeyError(f"unknown knob {sorted(unknown)[0]!r} for {spec.title}; knobs: {', '.join(by_key)}")
    for key, value in values.items():
        k = by_key[key]
        if k.read(p) != value:
            k.write(doc, value)
    return spec.parse_params(doc, "what-if")


def describe_changes(game: str, old: Any, new: Any) -> list[str]:
    """What differs between two variants, knob by knob: ["penalty per 0 box 5 → 3", "rising rule on → off"]."""
    a, b = knob_values(game, old), knob_values(game, new)
    out = []
    for k in knobs(game):
        if a[k.key] != b[k.key]:
            out.append(f"{k.label} {k.words(a[k.key])} → {k.words(b[k.key])}")
    if not out:
        _, pa = resolve_variant(game, old)
        _, pb = resolve_variant(game, new)
        if pa != pb:
            out.append("other rule details differ")
    return out
