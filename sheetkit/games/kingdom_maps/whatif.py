"""Kingdom Maps in the what-if explorer: its rule knobs (read from and written to ``KingdomParams``) and the words
its page speaks — the first question, what a shared deal holds, how its changes pair up, questions to try.

The figures in the answers come from ``python -m sheetkit simulate --game kingdom-maps -n 500 --set KEY=VALUE
--compare`` (one greedy player, seed 0), the very deals the explorer plays.
"""

from __future__ import annotations

from typing import Any

from sheetkit.core.knobs import Knob, Try, WhatIfSpec, field_writer
from sheetkit.games.kingdom_maps.criteria import CRITERIA, GROUP_A, GROUP_B
from sheetkit.games.kingdom_maps.params import PRESETS

__all__ = ["KNOBS", "WHATIF"]

_FAMILY = PRESETS["family"].criteria


def _write_criteria(doc: dict[str, Any], value: Any) -> None:
    field_writer("criteria")(doc, None if value is None else list(value))


KNOBS = (
    Knob("uses", "uses per terrain", "choice", lambda p: p.uses, field_writer("uses"),
         choices=(("by player count (3/3/2/1)", None), ("1", 1), ("2", 2), ("3", 3), ("4", 4), ("5", 5)),
         help="how often each player may announce each terrain"),
    Knob("powers", "+1/-1 powers", "bool", lambda p: p.powers, field_writer("powers"),
         help="drawing on a +1/-1 hex gains a power"),
    Knob("questions", "? hexes", "bool", lambda p: p.questions, field_writer("questions"),
         help="drawing on a ? hex banks a criterion's score"),
    Knob("criteria", "criteria in play", "choice", lambda p: p.criteria, _write_criteria,
         choices=(
             ("rolled each game (2 from A, 2 from B)", None),
             (f"family: {' '.join(_FAMILY or ())}", _FAMILY),
             ("all 12", tuple(CRITERIA)),
             ("group A only (A1–A6)", tuple(GROUP_A)),
             ("group B only (B1–B6)", tuple(GROUP_B)),
         ),
         help="which scoring criteria count"),
)

WHATIF = WhatIfSpec(
    knobs=KNOBS,
    question="what if the +1/-1 powers were switched off?",
    example={"powers": False},
    example_deals=200,
    players=1,
    deals=1000,
    same_deal="the same dice rolls and the same criteria",
    pairing=(
        "Here most changes also change how the bot plays (where it draws, which ? hexes it banks), so even on "
        "the same dice old and new scores correlate at only about 0.4–0.55: a few hundred deals give a clear "
        "answer.",
        "**Changing the criteria in play** changes what the bot aims for: the dice stay the same, but old and "
        "new are nearly different games (correlation about 0.07) and pairing hardly helps.",
    ),
    tries=(
        Try("Switch the *? hexes* off. How much of a score do the banked ? hexes make?",
            "About a third: 145.7 → 93.8 points solo (−51.9 ± 1.3 on 500 deals). The bot banks its four ? "
            "hexes late, when a criterion is worth most."),
        Try("Set *uses per terrain* to 1. What happens to the score, and why?",
            "It falls from 145.7 to 118.1 (−27.6 ± 1.7 on 500 deals): solo, the rules give 3 uses of each "
            "terrain, so with 1 the game has a third as many turns and far fewer hexes are drawn."),
        Try("Count *all 12* criteria. Why is the correlation so low?",
            "Scores jump by about 110 points (145.7 → 255.8), but old and new correlate at only 0.07: with all "
            "12 criteria the bot chases other shapes, so the same dice make a different map, and the paired "
            "CI is hardly narrower than the unpaired one."),
    ),
)
