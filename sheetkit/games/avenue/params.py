"""Avenue's rule parameters (the what-if knobs) and named presets."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from sheetkit.core.errors import RecordError
from sheetkit.core.params import RuleParams
from sheetkit.core.schema import expect_bool, expect_dict, expect_int, expect_list, expect_str
from sheetkit.games.avenue.cards import DEFAULT_DECK
from sheetkit.games.avenue.layout import Layout, load_layout, shipped_layouts


@lru_cache(maxsize=16)
def _shipped(name: str) -> Layout:
    return load_layout(name)


@dataclass(frozen=True)
class AvenueParams(RuleParams):
    """Rule variant of one Avenue game; the defaults are the published rules."""

    rounds: int = 5
    penalty: int = 5
    yellows_per_round: int = 4
    rising: bool = True
    deck: tuple[tuple[int, int], ...] = DEFAULT_DECK  # (yellow, grey) for roads 1..6
    layout_name: str = "default"
    inline_layout: Layout | None = field(default=None, compare=True)

    @property
    def layout(self) -> Layout:
        """The sheet layout in play."""
        return self.inline_layout if self.inline_layout is not None else _shipped(self.layout_name)

    def to_json(self) -> dict[str, Any]:
        """JSON form stored in records."""
        return {
            "rounds": self.rounds,
            "penalty": self.penalty,
            "yellows_per_round": self.yellows_per_round,
            "rising": self.rising,
            "deck": {str(n): list(yg) for n, yg in enumerate(self.deck, start=1)},
            "layout": self.inline_layout.to_json() if self.inline_layout is not None else self.layout_name,
        }

    @classmethod
    def from_json(cls, data: Any, path: str = "params") -> AvenueParams:
        """Parse and validate params; every field is optional and defaults to the published rules."""
        d = expect_dict(data, path, optional=["rounds", "penalty", "yellows_per_round", "rising", "deck", "layout"])
        layout_name, inline = "default", None
        if "layout" in d:
            lay = d["layout"]
            if isinstance(lay, str):
                layout_name = expect_str(lay, f"{path}.layout", 40, shipped_layouts())
            else:
                inline = Layout.from_json(lay, f"{path}.layout")
        layout = inline if inline is not None else _shipped(layout_name)
        nfarms = len(layout.farms)
        deck = DEFAULT_DECK
        if "deck" in d:
            dd = expect_dict(d["deck"], f"{path}.deck", required=[str(n) for n in range(1, 7)])
            rows = []
            for n in range(1, 7):
                pair = expect_list(dd[str(n)], f"{path}.deck.{n}", 2, 2)
                rows.append((expect_int(pair[0], f"{path}.deck.{n}[0]", 0, 60),
                             expect_int(pair[1], f"{path}.deck.{n}[1]", 0, 60)))
            deck = tuple(rows)
        yellow_total = sum(y for y, _ in deck)
        if yellow_total + sum(g for _, g in deck) == 0:
            raise RecordError("the road deck has no cards", f"{path}.deck")
        p = cls(
            rounds=expect_int(d.get("rounds", 5), f"{path}.rounds", 1, nfarms),
            penalty=expect_int(d.get("penalty", 5), f"{path}.penalty", 0, 100),
            yellows_per_round=expect_int(d.get("yellows_per_round", 4), f"{path}.yellows_per_round", 1,
                                         max(1, yellow_total)),
            rising=expect_bool(d.get("rising", True), f"{path}.rising"),
            deck=deck,
            layout_name=layout_name,
            inline_layout=inline,
        )
        return p


PRESETS: dict[str, AvenueParams] = {
    "standard": AvenueParams(),
    "norise": AvenueParams(rising=False),
    "short": AvenueParams(rounds=3),
    "gentle": AvenueParams(penalty=2),
    "quick": AvenueParams(yellows_per_round=3),
}
