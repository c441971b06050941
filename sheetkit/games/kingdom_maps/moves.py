"""Kingdom Maps' structured moves: announce, pick a die, spend a power, place a hex, pass, bank a ?."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sheetkit.core.errors import RecordError
from sheetkit.core.schema import expect_dict, expect_int, expect_str
from sheetkit.games.kingdom_maps.terrains import terrain_name


@dataclass(frozen=True)
class Announce:
    """Active player (and solo's first drawing): cross out a use of ``terrain`` and take the die showing ``die``."""

    terrain: int
    die: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "announce", "terrain": self.terrain, "die": self.die}

    def __str__(self) -> str:
        return f"announce {terrain_name(self.terrain, plural=True) if 1 <= self.terrain <= 6 else self.terrain}, " \
               f"take the {self.die}"


@dataclass(frozen=True)
class Pick:
    """Passive player: draw the number on a remaining die; solo's second drawing: ``die`` is the amount."""

    die: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "pick", "die": self.die}

    def __str__(self) -> str:
        return f"pick the {self.die}"


@dataclass(frozen=True)
class Power:
    """Spend one +1/-1 power to change your die by ``delta`` (+1 or -1), before drawing."""

    delta: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "power", "delta": self.delta}

    def __str__(self) -> str:
        return f"spend a power: {self.delta:+d}"


@dataclass(frozen=True)
class Place:
    """Draw one hex of this turn's terrain at axial (q, r)."""

    q: int
    r: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "place", "q": self.q, "r": self.r}

    def __str__(self) -> str:
        return f"draw at ({self.q}, {self.r})"


@dataclass(frozen=True)
class Pass:
    """Draw nothing — only when the amount cannot be drawn anywhere (the game ends after this turn)."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "pass"}

    def __str__(self) -> str:
        return "draw nothing (no room)"


@dataclass(frozen=True)
class Bank:
    """For a ? hex drawn this turn: score ``criterion`` now and bank it."""

    criterion: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "bank", "criterion": self.criterion}

    def __str__(self) -> str:
        return f"bank {self.criterion}"


KingdomAction = Announce | Pick | Power | Place | Pass | Bank
_KINDS = ["announce", "pick", "power", "place", "pass", "bank"]


def parse_action(data: Any, path: str = "action") -> KingdomAction:
    """Read an action from its JSON form (ranges are checked against the game when applied)."""
    if not isinstance(data, dict):
        raise RecordError('an action must be an object like {"type": "place", "q": 0, "r": -1}', path)
    kind = expect_str(data.get("type"), f"{path}.type", 10, _KINDS)
    if kind == "announce":
        d = expect_dict(data, path, required=["type", "terrain", "die"])
        return Announce(expect_int(d["terrain"], f"{path}.terrain", 1, 6), expect_int(d["die"], f"{path}.die", 1, 6))
    if kind == "pick":
        d = expect_dict(data, path, required=["type", "die"])
        return Pick(expect_int(d["die"], f"{path}.die", 1, 6))
    if kind == "power":
        d = expect_dict(data, path, required=["type", "delta"])
        delta = expect_int(d["delta"], f"{path}.delta", -1, 1)
        if delta == 0:
            raise RecordError("a power changes the die by +1 or -1, not 0", f"{path}.delta")
        return Power(delta)
    if kind == "place":
        d = expect_dict(data, path, required=["type", "q", "r"])
        return Place(expect_int(d["q"], f"{path}.q", -100, 100), expect_int(d["r"], f"{path}.r", -100, 100))
    if kind == "bank":
        d = expect_dict(data, path, required=["type", "criterion"])
        return Bank(expect_str(d["criterion"], f"{path}.criterion", 2))
    expect_dict(data, path, required=["type"])
    return Pass()
