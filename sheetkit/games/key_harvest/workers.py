"""The 12 workers: 6 farmhands each player owns (1, 1, 2, 2, 3, 3) and 6 shared townsfolk (4, 4, 4, 5, 5, 5).

Names and actions are sheetkit's own (ours; docs/key_harvest.md §Worker actions): every action
is different and helps build or join land. A worker is played onto an empty space of its owner's
board touching at least ``value`` field tiles and no other worker; its action happens at once.
Ids are stable: farmhands ``h1a h1b h2a h2b h3a h3b`` (every player has the same six ids),
townsfolk by name (``notary miller foreman lawyer bailiff mayor``).

| id | name | value | action (ours) |
|---|---|---|---|
| h1a | Gleaner | 1 | take 1 counter of a crop of your choice from the stock |
| h1b | Trader | 1 | give 1 counter of yours to the stock and take 1 of another crop (or decline) |
| h2a | Waterer | 2 | every harvested tile it touches turns back up |
| h2b | Reaper | 2 | take 1 counter of each different crop among the tiles it touches |
| h3a | Steward | 3 | your store's tiles cannot be taken by others until your next turn begins |
| h3b | Carter | 3 | this turn you may take up to 3 tiles from stores instead of 2 |
| notary | Notary | 4 | a tile of your store onto your board now (even one stored this turn); bid to the stock |
| miller | Miller | 4 | take 2 counters of one crop of your choice from the stock |
| foreman | Foreman | 4 | harvest one more group now (it does not use your harvest action) |
| lawyer | Lawyer | 5 | take a tile from another player's store onto your board; its owner takes the bid back |
| bailiff | Bailiff | 5 | take a tile from the land registry onto your board, free |
| mayor | Mayor | 5 | every harvested tile on your board turns back up |
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Worker:
    """One worker tile: its id, name, number (its points and how many tiles it must touch) and action."""

    id: str
    name: str
    value: int
    townsfolk: bool
    action: str  # the action in plain words

    def __str__(self) -> str:
        return f"{self.name} ({self.value})"


FARMHANDS: tuple[Worker, ...] = (
    Worker("h1a", "Gleaner", 1, False, "take 1 counter of a crop of your choice from the stock"),
    Worker("h1b", "Trader", 1, False, "give 1 counter to the stock and take 1 of another crop"),
    Worker("h2a", "Waterer", 2, False, "every harvested tile it touches turns back up"),
    Worker("h2b", "Reaper", 2, False, "take 1 counter of each different crop among the tiles it touches"),
    Worker("h3a", "Steward", 3, False, "your store's tiles cannot be taken by others until your next turn"),
    Worker("h3b", "Carter", 3, False, "this turn you may take up to 3 tiles from stores"),
)
TOWNSFOLK: tuple[Worker, ...] = (
    Worker("notary", "Notary", 4, True, "put a tile of your store onto your board now, paying its bid to the stock"),
    Worker("miller", "Miller", 4, True, "take 2 counters of one crop of your choice from the stock"),
    Worker("foreman", "Foreman", 4, True, "harvest one more group now"),
    Worker("lawyer", "Lawyer", 5, True, "take a tile from another player's store; its owner takes the bid back"),
    Worker("bailiff", "Bailiff", 5, True, "take a tile from the land registry onto your board, free"),
    Worker("mayor", "Mayor", 5, True, "every harvested tile on your board turns back up"),
)
WORKERS: dict[str, Worker] = {w.id: w for w in FARMHANDS + TOWNSFOLK}
FARMHAND_IDS: tuple[str, ...] = tuple(w.id for w in FARMHANDS)
TOWNSFOLK_IDS: tuple[str, ...] = tuple(w.id for w in TOWNSFOLK)


def worker(wid: str) -> Worker:
    """The worker with id ``wid`` (KeyError if unknown)."""
    return WORKERS[wid]
