"""Avenue's title table ("par"): sheetkit's own targets, set from its bots' solo score distributions.

The rules give no solo targets (docs/avenue.md §Playing solo). The thresholds below sit on
percentiles of 1,000 seeded solo games per bot on the standard rules (docs/avenue.md,
docs/data/avenue_stats_1000.json, `python benchmarks/avenue_stats.py -n 1000`):
greedy p10 ≈ 5, median 14, p90 28; montecarlo median 31, p75 43, p90 54.
"""

from __future__ import annotations

# (lowest total for the title, title, what it means) — highest first.
TITLES: tuple[tuple[int, str, str], ...] = (
    (55, "Grand cru", "beats nine in ten of the Monte Carlo bot's games"),
    (40, "Vintner", "a strong Monte Carlo bot game"),
    (28, "Vine dresser", "beats nine in ten of the greedy bot's games"),
    (14, "Grape picker", "the greedy bot's median game"),
    (5, "Day tripper", "the greedy bot's weakest games"),
)
LOWEST_TITLE = ("Lost in the vines", "below the greedy bot's worst tenth")


def title_for(total: int) -> str:
    """The title a final score earns on the standard rules."""
    for lowest, title, _ in TITLES:
        if total >= lowest:
            return title
    return LOWEST_TITLE[0]


def title_table() -> list[tuple[str, str, str]]:
    """Rows (score range, title, meaning) for display, best first."""
    rows, upper = [], None
    for lowest, title, meaning in TITLES:
        rows.append((f"{lowest}+" if upper is None else f"{lowest}–{upper - 1}", title, meaning))
        upper = lowest
    rows.append((f"below {upper}", *LOWEST_TITLE))
    return rows
