"""Analysis on top of the engine (floor 2: imports games, never widgets).

- ``exact``: finite distributions in fractions — decks, dice, reroll processes;
- ``montecarlo``: seeded bot games of any game and variant, in parallel, with paired CIs (``Results``);
- ``simulate``: the original ``run_games`` batch (the CLI's numbers);
- ``knobs``: each game's rule parameters as what-if controls; ``whatif``: old-vs-new runs in the background;
- ``measures``: breakdown columns for the per-game table; ``text``: plain-text breakdowns for ``replay``;
- ``lessons``: the probability lessons' formulas, enumerations and engine runs;
- ``key_harvest_lessons``: Key Harvest's lesson — every bid followed to its fate, the bag's chances exactly;
- ``avenue_review``: looking back at one Avenue game.
"""

from __future__ import annotations

from typing import Any

__all__ = ["SimResult", "run_games", "summarize"]


def __getattr__(name: str) -> Any:
    """``run_games`` and the rest, imported when first asked for: a page that needs one analysis module (the Key
    Harvest plots) does not load the batch runner (and ``statistics``) with it."""
    if name in __all__:
        from sheetkit.analysis import simulate

        return getattr(simulate, name)
    raise AttributeError(f"module 'sheetkit.analysis' has no attribute {name!r}")
