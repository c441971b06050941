"""Key Harvest's table steps in records: the setup step's schema, and how older record versions wrote it.

Since record version 2 the ``setup`` step logs the three counters each player drew blind
(``"counters": [[wine, hops, apples, vegetables, wheat], …]``, one list per player), so a record
says every counter's origin without the engine. The seed still deals them: a record whose counters
differ from its seed's deal is refused (docs/key_harvest.md §Records). Version 1 records have no
counters in their setup step and replay as before.
"""

from __future__ import annotations

from typing import Any

from sheetkit.core.errors import RecordError
from sheetkit.core.protocol import GameState
from sheetkit.core.schema import expect_dict, expect_int, expect_list
from sheetkit.games.key_harvest.crops import COUNTERS_PER_CROP, CROPS

COUNTERS_SINCE = 2  # the first record version whose setup step logs the blind counters
_SETUP_FIELDS = ["chance", "pairs", "registry", "start"]


def step_in(entry: dict[str, Any], version: int) -> dict[str, Any]:
    """The engine's table step as a record of ``version`` writes it (before version 2: no setup counters)."""
    if version < COUNTERS_SINCE and entry.get("chance") == "setup":
        return {k: v for k, v in entry.items() if k != "counters"}
    return entry


def check_step(state: GameState, entry: dict[str, Any], version: int, path: str) -> None:
    """Schema of a logged setup step: from version 2, one list of 5 crop counts per player, adding up to the
    counters each player draws (the deal itself is compared after, like every table step)."""
    if entry.get("chance") != "setup":
        return
    if version < COUNTERS_SINCE:
        if "counters" in entry:
            raise RecordError(f"a version {version} record has no setup counters (they came with version "
                              f"{COUNTERS_SINCE}): remove them or say version {COUNTERS_SINCE}", f"{path}.counters")
        return
    expect_dict(entry, path, required=[*_SETUP_FIELDS, "counters"])
    n = state.num_players
    each = state.params.start_counters  # type: ignore[attr-defined]
    rows = expect_list(entry["counters"], f"{path}.counters", n, n)
    for p, row in enumerate(rows):
        where = f"{path}.counters[{p}]"
        expect_list(row, where, len(CROPS), len(CROPS))
        for c, count in enumerate(row):
            expect_int(count, f"{where}[{c}]", 0, COUNTERS_PER_CROP)
        if sum(row) != each:
            raise RecordError(f"each player draws {each} counters at setup; player {p} has {sum(row)} "
                              f"(one count per crop: {', '.join(CROPS)})", where)
