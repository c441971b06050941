"""Avenue's structured moves: draw the flipped road in a cell, peek at the next farm, or pass."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sheetkit.core.errors import RecordError
from sheetkit.core.schema import expect_dict, expect_int, expect_str


@dataclass(frozen=True)
class Draw:
    """Draw the current road card in cell (row, col)."""

    row: int
    col: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "draw", "row": self.row, "col": self.col}

    def __str__(self) -> str:
        return f"draw at ({self.row}, {self.col})"


@dataclass(frozen=True)
class Peek:
    """Look at the top farm card instead of drawing (once per round)."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "peek"}

    def __str__(self) -> str:
        return "peek"


@dataclass(frozen=True)
class Pass:
    """Do nothing — only legal when the sheet is full and peeking is not allowed (variants)."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "pass"}

    def __str__(self) -> str:
        return "pass"


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
