"""Road cards: six road shapes, each yellow or grey; and the default deck."""

from __future__ import annotations

from typing import NamedTuple

from sheetkit.core.grid import BOTTOM, LEFT, RIGHT, TOP

# The two edges each road number joins (a road is never rotated).
ROAD_EDGES: dict[int, int] = {
    1: TOP | LEFT,
    2: TOP | RIGHT,
    3: RIGHT | BOTTOM,
    4: BOTTOM | LEFT,
    5: LEFT | RIGHT,
    6: TOP | BOTTOM,
}
ROAD_NAMES: dict[int, str] = {
    1: "corner top–left",
    2: "corner top–right",
    3: "corner right–bottom",
    4: "corner bottom–left",
    5: "straight left–right",
    6: "straight top–bottom",
}
# (yellow, grey) cards per road number in the published deck: 22 yellow + 20 grey = 42.
DEFAULT_DECK: tuple[tuple[int, int], ...] = ((4, 3), (4, 3), (4, 3), (4, 3), (3, 4), (3, 4))


class RoadCard(NamedTuple):
    """One road card: its road number 1–6 and whether it is yellow (yellow cards end rounds)."""

    number: int
    yellow: bool

    @property
    def code(self) -> str:
        """Short text form used in records: '3Y' (yellow) or '5G' (grey)."""
        return f"{self.number}{'Y' if self.yellow else 'G'}"

    @property
    def colour(self) -> str:
        """'yellow' or 'grey'."""
        return "yellow" if self.yellow else "grey"

    @classmethod
    def parse(cls, text: str) -> RoadCard:
        """Inverse of ``code``; raises ValueError for anything else."""
        if len(text) != 2 or text[0] not in "123456" or text[1] not in "YG":
            raise ValueError(f"{text!r} is not a road card (like '3Y' or '5G')")
        return cls(int(text[0]), text[1] == "Y")


def build_deck(composition: tuple[tuple[int, int], ...]) -> list[RoadCard]:
    """All road cards of a deck composition, in a fixed canonical order (shuffle separately)."""
    cards: list[RoadCard] = []
    for number, (yellow, grey) in enumerate(composition, start=1):
        cards += [RoadCard(number, True)] * yellow + [RoadCard(number, False)] * grey
    return cards
