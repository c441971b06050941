"""Breakdown columns for the tidy per-game table: one ``measure(state, seat) -> dict`` per game.

A measure runs in the worker after each game (``play_variants(..., measure=...)``), so each is a
module-level function (worker processes import it by name). Every row of one game has the same keys,
whatever the deal, so a CSV has fixed columns: a Kingdom Maps row has all 12 criteria, blank for
those not in play.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sheetkit.core.protocol import GameState
from sheetkit.core.registry import get_game

Measure = Callable[[GameState, int], Mapping[str, Any]]

__all__ = ["avenue_breakdown", "breakdown_measure", "generic_breakdown", "kingdom_breakdown", "win_share"]


def avenue_breakdown(state: Any, seat: int) -> dict[str, Any]:
    """Avenue: the farms in order, each score box, the castles, zero boxes and their penalty."""
    b = state.breakdown(seat)
    out: dict[str, Any] = {"farms": "".join(state.round_farms)}
    for k in range(state.params.rounds):
        out[f"box{k + 1}"] = b["farms"][k]["box"] if k < len(b["farms"]) else None
    out.update(farm_total=b["farm_total"], castle_purple=b["castles"]["purple"],
               castle_green=b["castles"]["green"], zeros=b["zeros"], penalty=b["penalty"], placing=b["placing"])
    return out


def kingdom_breakdown(state: Any, seat: int) -> dict[str, Any]:
    """Kingdom Maps: the criteria in play, each criterion's score (all 12 columns), the banked ? scores,
    powers and hexes drawn."""
    from sheetkit.games.kingdom_maps.criteria import CRITERIA

    b = state.breakdown(seat)
    s = state.sheets[seat]
    scores = {c["code"]: c["score"] for c in b["criteria"]}
    out: dict[str, Any] = {"criteria": " ".join(state.criteria), "criteria_total": b["criteria_total"],
                           "question_total": b["question_total"], "banks": len(b["questions"]),
                           "powers": s.powers, "spent": s.spent, "drawn": b["drawn"], "empty": b["empty"],
                           "placing": b["placing"]}
    for code in CRITERIA:
        out[code] = scores.get(code)
    return out


def generic_breakdown(state: Any, seat: int) -> dict[str, Any]:
    """Any registered game: the plain (number, text, bool) fields of its breakdown, nested dicts flattened."""
    spec = get_game(state.game_name)
    if spec.breakdown is None:
        return {}
    out: dict[str, Any] = {}

    def walk(prefix: str, value: Any) -> None:
        if isinstance(value, Mapping):
            for k, v in value.items():
                walk(f"{prefix}_{k}" if prefix else str(k), v)
        elif isinstance(value, (int, float, str, bool)) or value is None:
            out[prefix] = value

    walk("", {k: v for k, v in spec.breakdown(state)[seat].items() if k not in ("player", "total", "final")})
    return out


def win_share(state: Any, seat: int) -> dict[str, Any]:
    """Any game: the seat's placing and its share of the win (1 alone on top, 1/k when k seats share first)."""
    placings = state.placings()
    first = sum(1 for p in placings if p == 1)
    return {"placing": placings[seat], "win": (1 / first) if placings[seat] == 1 else 0.0}


_MEASURES: dict[str, Measure] = {"avenue": avenue_breakdown, "kingdom-maps": kingdom_breakdown}


def breakdown_measure(game: str) -> Measure:
    """The breakdown columns' measure for ``game`` (the generic flattener for games without their own)."""
    return _MEASURES.get(get_game(game).name, generic_breakdown)
