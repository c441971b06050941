"""The six terrains: number (for solo mode), name, symbol and colour — never colour alone."""

from __future__ import annotations

from dataclasses import dataclass

BLANK = 0


@dataclass(frozen=True)
class Terrain:
    """One terrain type as printed in the sheet's legend."""

    number: int
    name: str
    plural: str
    symbol: str  # a text glyph a widget can draw next to the colour
    shape: str  # the canvas icon a widget draws (peak, tree, wheat, wave, grass, house)
    colour: str  # fill colour (hex); always shown together with the symbol

    def to_json(self) -> dict[str, object]:
        return {"number": self.number, "name": self.name, "plural": self.plural, "symbol": self.symbol,
                "shape": self.shape, "colour": self.colour}


TERRAINS: tuple[Terrain, ...] = (
    Terrain(1, "Mountain", "Mountains", "▲", "peak", "#8d8478"),
    Terrain(2, "Forest", "Forests", "♣", "tree", "#4f8a4c"),
    Terrain(3, "Field", "Fields", "≡", "wheat", "#e3c25b"),
    Terrain(4, "Lake", "Lakes", "≈", "wave", "#5b9bd5"),
    Terrain(5, "Meadow", "Meadows", "\"", "grass", "#a9d18e"),
    Terrain(6, "Village", "Villages", "⌂", "house", "#c0504d"),
)
MOUNTAIN, FOREST, FIELD, LAKE, MEADOW, VILLAGE = 1, 2, 3, 4, 5, 6
TERRAIN_NUMBERS: tuple[int, ...] = tuple(t.number for t in TERRAINS)


def terrain(number: int) -> Terrain:
    """The terrain with solo-mode number 1–6."""
    return TERRAINS[number - 1]


def terrain_name(number: int, plural: bool = False) -> str:
    """'Forest' / 'Forests' for 2."""
    t = TERRAINS[number - 1]
    return t.plural if plural else t.name
