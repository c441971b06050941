"""Key Harvest's rule parameters (the what-if knobs) and named presets.

The defaults are the rules in docs/key_harvest.md; the ones marked (ours) there are knobs here:
``counters_per_point`` (1 point per 3 counters), the store size, the starting counters.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from sheetkit.core.errors import RecordError
from sheetkit.core.params import RuleParams
from sheetkit.core.schema import expect_bool, expect_dict, expect_int

MIN_PLAYERS, MAX_PLAYERS = 2, 4

# name -> (lowest, highest) for the whole-number knobs
_RANGES: dict[str, tuple[int, int]] = {
    "counters_per_point": (1, 60),
    "largest_mult": (0, 5),
    "second_mult": (0, 5),
    "start_counters": (0, 10),
    "registry_size": (2, 8),
    "store_size": (1, 4),
    "end_event": (1, 14),
    "final_turns": (0, 4),
    "max_turns": (8, 400),
}


@dataclass(frozen=True)
class KeyHarvestParams(RuleParams):
    """Rule variant of one game; the defaults are the rules."""

    counters_per_point: int = 3  # 1 point per this many counters owned (ours)
    largest_mult: int = 1  # points per tile of the largest group
    second_mult: int = 2  # points per tile of the second largest group
    events: bool = True  # event tiles in the bag
    start_counters: int = 3  # counters each player draws blind at the start
    registry_size: int = 6  # face-up tiles in the land registry
    store_size: int = 2  # tiles a store holds
    end_event: int = 10  # placing this event starts the final turns
    final_turns: int = 2  # turns each player takes after that
    max_turns: int = 200  # safeguard (ours): the game ends after this many turns in all

    def to_json(self) -> dict[str, Any]:
        """JSON form stored in records (only what differs from the rules)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if v != f.default:
                out[f.name] = v
        return out

    @classmethod
    def from_json(cls, data: Any, path: str = "params") -> KeyHarvestParams:
        """Parse and validate params; every field is optional and defaults to the rules."""
        d = expect_dict(data, path, optional=[f.name for f in fields(cls)])
        kw: dict[str, Any] = {}
        for name, (lo, hi) in _RANGES.items():
            if name in d:
                kw[name] = expect_int(d[name], f"{path}.{name}", lo, hi)
        if "events" in d:
            kw["events"] = expect_bool(d["events"], f"{path}.events")
        p = cls(**kw)
        if p.largest_mult == 0 and p.second_mult == 0:
            raise RecordError("at least one of largest_mult and second_mult must score", path)
        return p


PRESETS: dict[str, KeyHarvestParams] = {
    "standard": KeyHarvestParams(),
    "noevents": KeyHarvestParams(events=False),
    "flat": KeyHarvestParams(second_mult=1),
    "rich": KeyHarvestParams(start_counters=6),
    "quick": KeyHarvestParams(end_event=6, final_turns=1),
}
PRESET_NOTES: dict[str, str] = {
    "standard": "the rules: events on, 1 + 2 points per tile of the two largest groups, 1 point per 3 counters",
    "noevents": "no event tiles (the game ends when the bag runs out)",
    "flat": "the second largest group scores 1 per tile, like the largest",
    "rich": "everyone starts with 6 blind counters instead of 3",
    "quick": "the 6th event starts the end, and everyone then takes one more turn",
}
