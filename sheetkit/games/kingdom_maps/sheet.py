"""One player's sheet: the drawn map, terrain uses, powers, banked ? scores, and this drawing's progress."""

from __future__ import annotations

from typing import Any

from sheetkit.games.kingdom_maps.terrains import TERRAIN_NUMBERS


class Sheet:
    """Everything written on one player's sheet, plus where they are in the current drawing."""

    __slots__ = ("banked", "cells", "die", "passed", "placed", "powers", "questions", "shift", "spent", "uses")

    def __init__(self, size: int, uses: int) -> None:
        self.cells: list[int] = [0] * size  # terrain per hex, 0 = empty
        self.uses: list[int] = [0] + [uses] * len(TERRAIN_NUMBERS)  # uses left per terrain (index 1–6)
        self.powers = 0  # +1/-1 powers gained (one line through a box)
        self.spent = 0  # powers spent (the second line)
        self.banked: list[tuple[str, int]] = []  # (criterion, points) per ? hex used
        self.questions = 0  # ? hexes drawn this turn, still to be banked at the turn's end
        self.new_drawing()

    def new_drawing(self) -> None:
        """Clear the per-drawing fields (a new roll)."""
        self.die: int | None = None  # the die value this player draws (None: not chosen yet)
        self.shift = 0  # net change from powers spent this drawing
        self.placed: list[int] = []  # hexes drawn this drawing, in order
        self.passed = False  # could not draw the amount: draws nothing

    @property
    def available(self) -> int:
        """Powers gained and not yet spent."""
        return self.powers - self.spent

    @property
    def amount(self) -> int | None:
        """How many hexes this drawing takes (die ± powers), None before a die is chosen."""
        return None if self.die is None else self.die + self.shift

    @property
    def drawn(self) -> int:
        """Hexes drawn on the whole map."""
        return sum(1 for c in self.cells if c)

    def placed_all(self) -> bool:
        """True when this drawing's hexes are all drawn (or the player drew nothing for lack of room)."""
        return self.die is not None and (self.passed or len(self.placed) == self.amount)

    def finished(self, bank_now: bool) -> bool:
        """True when this drawing asks nothing more of the player (``bank_now``: the turn ends with it)."""
        return self.placed_all() and not (bank_now and self.questions)

    def copy(self) -> Sheet:
        """An independent copy."""
        new = Sheet.__new__(Sheet)
        new.cells, new.uses, new.placed = list(self.cells), list(self.uses), list(self.placed)
        new.banked = list(self.banked)
        new.powers, new.spent, new.die, new.shift = self.powers, self.spent, self.die, self.shift
        new.passed, new.questions = self.passed, self.questions
        return new

    def to_json(self) -> dict[str, Any]:
        """JSON form (views and fingerprints)."""
        return {"cells": list(self.cells), "uses": self.uses[1:], "powers": self.powers, "spent": self.spent,
                "banked": [list(b) for b in self.banked], "die": self.die, "shift": self.shift,
                "placed": list(self.placed), "passed": self.passed, "questions": self.questions}
