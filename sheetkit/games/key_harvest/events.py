"""The 14 event tiles (ours, except the two known from play reports; docs/key_harvest.md §Events).

An event drawn from the bag while the registry is refilled affects every player at once, in turn
order starting with the active player; then it goes on the next event space and the drawing
goes on. Events marked ``many_only`` are left out with 2–3 players (12 events then).

| id | name | effect (ours unless marked known) |
|---|---|---|
| boundary | Boundary shift | known: every player passes one of their field tiles to the player on their left |
| land_sale | Land sale | known: every player may buy one tile from the registry for 3 counters of their choice |
| rain | Good rains | every player's harvested tiles turn back up |
| showers | Spring showers | the harvested tiles of every player's largest group turn back up |
| market | Market day | every player may give 1 counter to the stock and take 1 of another crop |
| bounty | Bountiful season | every player takes 1 counter of a crop of their choice |
| vintage | Fine vintage | every player takes 1 wine counter (stock allowing) |
| windfall | Windfall | a player with fewer than 3 counters is topped up to 3 (crops the stock holds most of) |
| tithe | Tithe | every player gives 1 counter of the crop they hold most of (ties: first crop) to the stock |
| frost | Late frost | every player turns one of their unharvested tiles over, taking nothing |
| deadline | Registry deadline | every store tile goes onto its owner's board; its bid goes to the stock |
| holiday | Farmhands' holiday | every player takes their lowest farmhand off their board (ties: first id) |
| drought | Drought | the registry's tiles are discarded (the registry refills as usual) — many_only |
| census | Census | the player(s) with the fewest field tiles may take a tile from the registry, free — many_only |
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Event:
    """One event tile."""

    id: str
    name: str
    effect: str  # plain words
    many_only: bool = False  # left out with 2–3 players

    def __str__(self) -> str:
        return self.name


EVENT_LIST: tuple[Event, ...] = (
    Event("boundary", "Boundary shift", "every player passes one of their field tiles to the player on their left"),
    Event("land_sale", "Land sale", "every player may buy one tile from the registry for 3 counters"),
    Event("rain", "Good rains", "every player's harvested tiles turn back up"),
    Event("showers", "Spring showers", "the harvested tiles of every player's largest group turn back up"),
    Event("market", "Market day", "every player may give 1 counter to the stock and take 1 of another crop"),
    Event("bounty", "Bountiful season", "every player takes 1 counter of a crop of their choice"),
    Event("vintage", "Fine vintage", "every player takes 1 wine counter"),
    Event("windfall", "Windfall", "every player with fewer than 3 counters is topped up to 3"),
    Event("tithe", "Tithe", "every player gives 1 counter of the crop they hold most of to the stock"),
    Event("frost", "Late frost", "every player turns one of their unharvested tiles over, taking nothing"),
    Event("deadline", "Registry deadline", "every store tile goes onto its owner's board; the bid goes to the stock"),
    Event("holiday", "Farmhands' holiday", "every player takes their lowest farmhand off their board"),
    Event("drought", "Drought", "the tiles in the registry are discarded", many_only=True),
    Event("census", "Census", "the player(s) with the fewest field tiles may take a registry tile free",
          many_only=True),
)
EVENTS: dict[str, Event] = {e.id: e for e in EVENT_LIST}


def events_for(players: int) -> tuple[str, ...]:
    """The event ids in the bag for this many players (12 with 2–3 players, 14 with 4)."""
    return tuple(e.id for e in EVENT_LIST if players >= 4 or not e.many_only)
