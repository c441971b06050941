"""Kingdom Maps' rule parameters (the what-if knobs) and named presets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sheetkit.core.errors import RecordError
from sheetkit.core.params import RuleParams
from sheetkit.core.schema import expect_bool, expect_dict, expect_int, expect_list, expect_str
from sheetkit.games.kingdom_maps.board import Board, load_map, shipped_maps
from sheetkit.games.kingdom_maps.criteria import CRITERIA

# Terrain uses per player, by number of players (docs/kingdom_maps.md §Setup); solo has 3.
USES_BY_PLAYERS = {1: 3, 2: 3, 3: 2, 4: 1}
MAX_PLAYERS = 4


@dataclass(frozen=True)
class KingdomParams(RuleParams):
    """Rule variant of one game; the defaults are the rules in docs/kingdom_maps.md."""

    uses: int | None = None  # uses of each terrain per player; None = by player count (3/3/2/1)
    powers: bool = True  # +1/-1 hexes give powers
    questions: bool = True  # ? hexes bank a criterion's score
    criteria: tuple[str, ...] | None = None  # fixed criteria in play; None = roll 2 from A and 2 from B
    map_name: str = "default"
    inline_map: Board | None = None

    @property
    def board(self) -> Board:
        """The hex map in play."""
        return self.inline_map if self.inline_map is not None else load_map(self.map_name)

    def uses_for(self, players: int) -> int:
        """Uses of each terrain each player starts with."""
        return self.uses if self.uses is not None else USES_BY_PLAYERS[min(max(players, 1), MAX_PLAYERS)]

    def to_json(self) -> dict[str, Any]:
        """JSON form stored in records (only what differs from the rules)."""
        out: dict[str, Any] = {"map": self.inline_map.to_json() if self.inline_map is not None else self.map_name}
        if self.uses is not None:
            out["uses"] = self.uses
        if not self.powers:
            out["powers"] = False
        if not self.questions:
            out["questions"] = False
        if self.criteria is not None:
            out["criteria"] = list(self.criteria)
        return out

    @classmethod
    def from_json(cls, data: Any, path: str = "params") -> KingdomParams:
        """Parse and validate params; every field is optional and defaults to the rules."""
        d = expect_dict(data, path, optional=["map", "uses", "powers", "questions", "criteria"])
        map_name, inline = "default", None
        if "map" in d:
            if isinstance(d["map"], str):
                map_name = expect_str(d["map"], f"{path}.map", 40, shipped_maps())
            else:
                inline = Board.from_json(d["map"], f"{path}.map")
        criteria = None
        if "criteria" in d:
            raw = expect_list(d["criteria"], f"{path}.criteria", len(CRITERIA), 1)
            for k, c in enumerate(raw):
                expect_str(c, f"{path}.criteria[{k}]", 2, list(CRITERIA))
            if len(set(raw)) != len(raw):
                raise RecordError("a criterion is listed twice", f"{path}.criteria")
            criteria = tuple(raw)
        uses = expect_int(d["uses"], f"{path}.uses", 1, 9) if "uses" in d else None
        return cls(uses=uses, powers=expect_bool(d.get("powers", True), f"{path}.powers"),
                   questions=expect_bool(d.get("questions", True), f"{path}.questions"),
                   criteria=criteria, map_name=map_name, inline_map=inline)


PRESETS: dict[str, KingdomParams] = {
    "standard": KingdomParams(),
    "plain": KingdomParams(powers=False, questions=False),
    "nopowers": KingdomParams(powers=False),
    "family": KingdomParams(criteria=("A2", "A3", "B1", "B2")),
    "long": KingdomParams(uses=3),
    "grand": KingdomParams(criteria=tuple(CRITERIA)),
}
PRESET_NOTES: dict[str, str] = {
    "standard": "the rules: 4 criteria rolled, powers and ? hexes on, uses by player count",
    "plain": "no +1/-1 powers and no ? hexes: just dice, terrains and the 4 criteria",
    "nopowers": "the +1/-1 hexes are plain; ? hexes still bank a criterion",
    "family": "four fixed, easy criteria (A2 great forest, A3 watered fields, B1 frontier, B2 full rows)",
    "long": "3 uses of each terrain whatever the player count (longer 3- and 4-player games)",
    "grand": "all 12 criteria count",
}
