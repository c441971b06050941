"""Plain-text score breakdowns for a terminal (``python -m sheetkit replay``), one formatter per game.

``breakdown_lines(game, breakdowns)`` takes the game's JSON breakdowns (``spec.breakdown(state)``) and
returns lines of text; a game without its own formatter gets a generic one. The CLI only calls
``breakdown_lines``: no game-specific branches there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sheetkit.core.registry import get_game

Formatter = Callable[[Mapping[str, Any]], list[str]]

__all__ = ["avenue_lines", "breakdown_lines", "generic_lines", "kingdom_lines", "register_formatter"]


def _head(b: Mapping[str, Any]) -> str:
    return f"{b['player']}: {b['total']} points — placing {b['placing']}"


def avenue_lines(b: Mapping[str, Any]) -> list[str]:
    """One Avenue player: each round's farm box, the castles, zero boxes and their penalty."""
    out = [_head(b)]
    for f in b.get("farms", []):
        verdict = "written" if f["box"] else ("0 — did not beat" if f["grapes"] else "0 — no grapes")
        grapes = f"{f['grapes']} grape{'' if f['grapes'] == 1 else 's'}"
        out.append(f"  round {f['round']}: farm {f['farm']} reached {grapes}, needed more than "
                   f"{f['target']} → {f['box']} ({verdict})")
    if "castles" in b:
        out.append(f"  castles: purple {b['castles']['purple']}, green {b['castles']['green']}")
        out.append(f"  zero boxes: {b['zeros']} → {b['penalty']}")
    return out


def kingdom_lines(b: Mapping[str, Any]) -> list[str]:
    """One Kingdom Maps player: each criterion in play, each banked ? score, hexes drawn, solo title."""
    head = _head(b)
    if b.get("title"):
        head += f" — title {b['title']}"
    out = [head]
    crit = b.get("criteria", [])
    width = max((len(c["name"]) for c in crit), default=0)
    for c in crit:
        out.append(f"  {c['code']} {c['name']:<{width}}  {c['score']:>3}")
    out.append(f"  criteria: {b.get('criteria_total', sum(c['score'] for c in crit))}")
    banks = b.get("questions", [])
    if banks:
        listed = ", ".join(f"{q['criterion']} {q['score']}" for q in banks)
        out.append(f"  ? hexes banked: {listed} → {b.get('question_total', sum(q['score'] for q in banks))}")
    else:
        out.append("  ? hexes banked: none")
    if "drawn" in b:
        out.append(f"  hexes drawn: {b['drawn']}, left empty: {b.get('empty', '?')}")
    return out


def generic_lines(b: Mapping[str, Any]) -> list[str]:
    """Any game: the heading, then every other plain field as 'key: value'."""
    out = [_head(b)] if {"player", "total", "placing"} <= set(b) else [str(b.get("player", "player"))]
    for k, v in b.items():
        if k in ("player", "total", "placing", "final"):
            continue
        out.append(f"  {k.replace('_', ' ')}: {v}")
    return out


_FORMATTERS: dict[str, Formatter] = {"avenue": avenue_lines, "kingdom-maps": kingdom_lines}


def register_formatter(game: str, formatter: Formatter) -> None:
    """Give a game its own text breakdown (one player's breakdown → lines)."""
    _FORMATTERS[get_game(game).name] = formatter


def breakdown_lines(game: str, breakdowns: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every player's breakdown as lines of text, in seat order."""
    fmt = _FORMATTERS.get(get_game(game).name, generic_lines)
    return [line for b in breakdowns for line in fmt(b)]
