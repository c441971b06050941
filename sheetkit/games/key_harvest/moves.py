"""Key Harvest's structured moves (docs/key_harvest.md §A turn) and their JSON form.

A turn is one or two DIFFERENT actions — harvest, worker, buy (take from stores), bid — each at
most once, buy never after bid; buy and bid may each be up to 2 consecutive moves; ``EndTurn``
ends the turn (allowed at any time, so a turn with no action is a pass). ``Choose`` answers the
pending decision an effect asked for (see ``KeyHarvestState.pending``).
"""

from __future__ import annotations

from typing import Any

from sheetkit.core.errors import RecordError
from sheetkit.core.moves import Move
from sheetkit.core.schema import expect_dict, expect_int, expect_list, expect_str
from sheetkit.games.key_harvest.crops import Counters, counters, describe
from sheetkit.games.key_harvest.workers import WORKERS

MAX_COUNTERS = 60


class Harvest(Move, kind="harvest", says="harvest the group at {code}"):
    """Harvest the connected group of your unharvested tiles that holds ``code``."""

    code: str


class PlaceWorker(Move, kind="place"):
    """Play ``worker`` (a farmhand id like ``h2a`` or a townsfolk id like ``lawyer``) onto empty space ``code``."""

    worker: str
    code: str

    def __str__(self) -> str:
        w = WORKERS.get(self.worker)
        return f"play the {w.name} ({w.value}) on {self.code}" if w else f"play {self.worker} on {self.code}"


class RemoveWorker(Move, kind="remove", says="take the worker off {code}"):
    """Take your worker off space ``code`` (a farmhand back beside your board, a townsfolk back to town)."""

    code: str


class Buy(Move, kind="buy", says="take {code} from its store"):
    """Take tile ``code`` from a store: another player's (pay them its bid) or your own from an earlier turn."""

    code: str


class Bid(Move, kind="bid"):
    """Take tile ``code`` from the registry into your store with a bid of ``counters`` (wine, hops, apples,
    vegetables, wheat)."""

    code: str
    counters: Counters

    def __str__(self) -> str:
        return f"bid {describe(self.counters)} for {self.code}"


class EndTurn(Move, kind="end", says="end the turn"):
    """End your turn (the registry is then refilled); with no action taken it is a pass."""


class Choose(Move, kind="choose"):
    """Answer the pending decision: ``value`` is a crop name, a space code or ``"decline"``; ``counters``
    is the payment where one is asked for (the land sale)."""

    value: str
    counters: Counters | None = None

    def __str__(self) -> str:
        if self.value == "decline":
            return "decline"
        if self.counters is not None:
            return f"choose {self.value}, paying {describe(self.counters)}"
        return f"choose {self.value}"


KeyHarvestAction = Harvest | PlaceWorker | RemoveWorker | Buy | Bid | EndTurn | Choose
_KINDS = ["harvest", "place", "remove", "buy", "bid", "end", "choose"]


def _code(d: dict[str, Any], path: str) -> str:
    return expect_str(d["code"], f"{path}.code", 3)


def _counters(v: Any, path: str) -> Counters:
    raw = expect_list(v, path, 5, 5)
    return counters([expect_int(x, f"{path}[{i}]", 0, MAX_COUNTERS) for i, x in enumerate(raw)])


def parse_action(data: Any, path: str = "action") -> KeyHarvestAction:
    """Read a move from its JSON form (whether it is legal is checked against the game when applied)."""
    if not isinstance(data, dict):
        raise RecordError('a move must be an object like {"type": "harvest", "code": "C4"}', path)
    kind = expect_str(data.get("type"), f"{path}.type", 10, _KINDS)
    if kind == "harvest":
        return Harvest(_code(expect_dict(data, path, required=["type", "code"]), path))
    if kind == "place":
        d = expect_dict(data, path, required=["type", "worker", "code"])
        return PlaceWorker(expect_str(d["worker"], f"{path}.worker", 10), _code(d, path))
    if kind == "remove":
        return RemoveWorker(_code(expect_dict(data, path, required=["type", "code"]), path))
    if kind == "buy":
        return Buy(_code(expect_dict(data, path, required=["type", "code"]), path))
    if kind == "bid":
        d = expect_dict(data, path, required=["type", "code", "counters"])
        return Bid(_code(d, path), _counters(d["counters"], f"{path}.counters"))
    if kind == "choose":
        d = expect_dict(data, path, required=["type", "value"], optional=["counters"])
        value = expect_str(d["value"], f"{path}.value", 12)
        return Choose(value, _counters(d["counters"], f"{path}.counters") if "counters" in d else None)
    expect_dict(data, path, required=["type"])
    return EndTurn()
