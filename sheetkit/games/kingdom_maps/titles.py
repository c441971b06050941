"""Solo titles: sheetkit's own score targets, set from the greedy bot's solo score distribution.

The rulebook's solo targets are missing (docs/kingdom_maps.md §Solo play). These thresholds sit near the
greedy bot's solo percentiles on the standard rules — 10%, 25%, 50%, 75% and 90% — so "Map Maker"
means matching the bot's median game (docs/kingdom_maps.md, benchmarks/kingdom_stats.py).
"""

from __future__ import annotations

# (lowest total for the title, title) — highest first.
SOLO_TITLES: tuple[tuple[int, str], ...] = (
    (170, "Royal Cartographer"),
    (155, "Master Surveyor"),
    (145, "Map Maker"),
    (135, "Apprentice Surveyor"),
    (125, "Village Scout"),
    (0, "Lost Wanderer"),
)


def solo_title(total: int) -> str:
    """The title a solo total earns."""
    for lowest, title in SOLO_TITLES:
        if total >= lowest:
            return title
    return SOLO_TITLES[-1][1]


# A game against others: the title follows the placing (equal totals share a placing, and so a title).
PLACING_TITLES: tuple[str, ...] = ("Royal Cartographer", "Master Surveyor", "Map Maker", "Apprentice Surveyor")


def placing_title(placing: int) -> str:
    """The title a 1-based placing earns in a game with two or more players."""
    return PLACING_TITLES[min(max(placing, 1), len(PLACING_TITLES)) - 1]
