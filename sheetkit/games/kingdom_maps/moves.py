"""Kingdom Maps' structured moves: announce, pick a die, spend a power, place a hex, pass, bank a ?."""

from __future__ import annotations

from typing import Any

from sheetkit.core.errors import RecordError
from sheetkit.core.moves import Move
from sheetkit.core.schema import expect_dict, expect_int, expect_str
from sheetkit.games.kingdom_maps.terrains import terrain_name


class Announce(Move, kind="announce"):
    """Active player (and solo's first drawing): cross out a use of ``terrain`` and take the die showing ``die``."""

    terrain: int
    die: int

    def __str__(self) -> str:
        return f"announce {terrain_name(self.terrain, plural=True) if 1 <= self.terrain <= 6 else self.terrain}, " \
               f"take the {self.die}"


class Pick(Move, kind="pick", says="pick the {die}"):
    """Passive player: draw the number on a remaining die; solo's second drawing: ``die`` is the amount."""

    die: int


class Power(Move, kind="power", says="spend a power: {delta:+d}"):
    """Spend one +1/-1 power to change your die by ``delta`` (+1 or -1), before drawing."""

    delta: int


class Place(Move, kind="place", says="draw at ({q}, {r})"):
    """Draw one hex of this turn's terrain at axial (q, r)."""

    q: int
    r: int


class Pass(Move, kind="pass", says="draw nothing (no room)"):
    """Draw nothing — only when the amount cannot be drawn anywhere (the game ends after this turn)."""


class Bank(Move, kind="bank", says="bank {criterion}"):
    """For a ? hex drawn this turn: score ``criterion`` now and bank it."""

    criterion: str


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
