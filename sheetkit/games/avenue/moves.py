"""Avenue's structured moves: draw the flipped road in a cell, peek at the next farm, or pass."""

from __future__ import annotations

from typing import Any

from sheetkit.core.errors import RecordError
from sheetkit.core.moves import Move
from sheetkit.core.schema import expect_dict, expect_int, expect_str


class Draw(Move, kind="draw", says="draw at ({row}, {col})"):
    """Draw the current road card in cell (row, col)."""

    row: int
    col: int


class Peek(Move, kind="peek", says="peek"):
    """Look at the top farm card instead of drawing (once per round)."""


class Pass(Move, kind="pass", says="pass"):
    """Do nothing — only legal when the sheet is full and peeking is not allowed (variants)."""


AvenueAction = Draw | Peek | Pass


def parse_action(data: Any, path: str = "action") -> AvenueAction:
    """Read an action from its JSON form."""
    if not isinstance(data, dict):
        raise RecordError("an action must be an object like {\"type\": \"draw\", \"row\": 3, \"col\": 4}", path)
    kind = expect_str(data.get("type"), f"{path}.type", 10, ["draw", "peek", "pass"])
    if kind == "draw":
        d = expect_dict(data, path, required=["type", "row", "col"])
        # Bounds here only stop absurd values; the sheet size is checked against the layout when applied.
        return Draw(expect_int(d["row"], f"{path}.row", -1000, 1000), expect_int(d["col"], f"{path}.col", -1000, 1000))
    expect_dict(data, path, required=["type"])
    if kind == "peek":
        return Peek()
    if kind == "pass":
        return Pass()
    raise RecordError(f"unknown action {kind!r}", path)  # pragma: no cover - guarded by choices above
