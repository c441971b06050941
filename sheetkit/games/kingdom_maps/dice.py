"""Where the dice come from: a seed, or a fixed deal (criteria + dice in order) for lessons and tests."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import numpy as np

from sheetkit.core.chance import MAX_SEED, make_rng
from sheetkit.core.errors import RecordError
from sheetkit.core.schema import expect_dict, expect_int, expect_list, expect_str
from sheetkit.games.kingdom_maps.criteria import CRITERIA, GROUP_A, GROUP_B

MAX_DEAL_DICE = 2000


@dataclass(frozen=True)
class Deal:
    """A fixed setup: the criteria in play and the dice in the order they are rolled.

    Dice are one flat list: each roll takes the next 3 (or 2, solo's second roll). When they run
    out the game ends at that roll — unless ``seed`` is given, which rolls on from there.
    """

    criteria: tuple[str, ...]
    dice: tuple[int, ...] = ()
    seed: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"criteria": list(self.criteria), "dice": list(self.dice)}
        if self.seed is not None:
            out["seed"] = self.seed
        return out


def parse_deal(data: Any, params: Any = None, path: str = "deal") -> Deal:
    """Validate a fixed deal: 1–12 distinct known criteria, dice 1–6, an optional seed."""
    d = expect_dict(data, path, required=["criteria"], optional=["dice", "seed"])
    raw = expect_list(d["criteria"], f"{path}.criteria", len(CRITERIA), 1)
    for k, c in enumerate(raw):
        expect_str(c, f"{path}.criteria[{k}]", 2, list(CRITERIA))
    if len(set(raw)) != len(raw):
        raise RecordError("a criterion is listed twice", f"{path}.criteria")
    fixed = getattr(params, "criteria", None)
    if fixed is not None and tuple(raw) != tuple(fixed):
        raise RecordError(f"the variant plays with {', '.join(fixed)}; the deal says {', '.join(raw)}",
                          f"{path}.criteria")
    dice = expect_list(d.get("dice", []), f"{path}.dice", MAX_DEAL_DICE)
    for k, v in enumerate(dice):
        expect_int(v, f"{path}.dice[{k}]", 1, 6)
    seed = expect_int(d["seed"], f"{path}.seed", 0, MAX_SEED) if "seed" in d else None
    return Deal(tuple(raw), tuple(dice), seed)


class DiceSource:
    """Rolls dice in order: from a fixed list first (if any), then from a seeded generator (if any)."""

    def __init__(self, fixed: tuple[int, ...] = (), seed: int | None = None) -> None:
        self.fixed = fixed
        self.used = 0
        self.rng: np.random.Generator | None = make_rng(seed) if seed is not None else None

    def can_roll(self, n: int) -> bool:
        """True when ``n`` more dice are available."""
        return self.rng is not None or self.used + n <= len(self.fixed)

    def roll(self, n: int) -> list[int]:
        """The next ``n`` dice (raises IndexError when a fixed deal has run out)."""
        out: list[int] = []
        while len(out) < n:
            if self.used < len(self.fixed):
                out.append(self.fixed[self.used])
            elif self.rng is not None:
                out.append(int(self.rng.integers(1, 7)))
            else:
                raise IndexError("the deal has no more dice")
            self.used += 1
        return out

    def roll_criteria(self) -> tuple[str, ...]:
        """Roll 2 dice for group A and 2 for group B, rerolling a repeated number (docs/kingdom_maps.md §Setup)."""
        chosen: list[str] = []
        for names in (GROUP_A, GROUP_B):
            a = self.roll(1)[0]
            b = self.roll(1)[0]
            while b == a:
                b = self.roll(1)[0]
            chosen += [names[a - 1], names[b - 1]]
        return tuple(chosen)

    def copy(self) -> DiceSource:
        """An independent copy at the same position."""
        new = DiceSource.__new__(DiceSource)
        new.fixed, new.used = self.fixed, self.used
        new.rng = copy.deepcopy(self.rng)
        return new
