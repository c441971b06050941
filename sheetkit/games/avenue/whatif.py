"""Avenue in the what-if explorer: its rule knobs (read from and written to ``AvenueParams``) and the words its
page speaks — the first question, what a shared deal holds, how its changes pair up, questions to try.

The figures in the answers come from ``python -m sheetkit simulate -n 1000 --set KEY=VALUE --compare``
(greedy bot, seed 0), the very deals the explorer plays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sheetkit.core.knobs import Knob, Try, WhatIfSpec, field_writer, int_knob

__all__ = ["KNOBS", "WHATIF", "avenue_deck"]


def _spread(total: int, weights: Sequence[int]) -> list[int]:
    """``total`` split in proportion to ``weights`` (largest remainders; ties go to the earlier entry)."""
    s = sum(weights)
    if s == 0:
        return [0] * len(weights)
    exact = [total * w / s for w in weights]
    out = [int(x) for x in exact]
    order = sorted(range(len(weights)), key=lambda i: (-(exact[i] - out[i]), i))
    for i in order[: total - sum(out)]:
        out[i] += 1
    return out


def avenue_deck(yellow: int = 22, straights: int = 14, total: int = 42) -> tuple[tuple[int, int], ...]:
    """An Avenue road deck of ``total`` cards, ``straights`` of them straight roads (5 and 6, the rest the four
    corners), ``yellow`` of them yellow, spread as evenly as the numbers allow. ``avenue_deck()`` is the
    published deck: corners 4 yellow + 3 grey each, straights 3 + 4."""
    if not 0 <= straights <= total or not 0 <= yellow <= total:
        raise ValueError("the deck cannot hold that many straight or yellow cards")
    counts = _spread(total - straights, [1, 1, 1, 1]) + _spread(straights, [1, 1])
    yellows = _spread(yellow, counts)
    return tuple((y, n - y) for y, n in zip(yellows, counts, strict=True))


def _deck(params: Any) -> tuple[tuple[int, int], ...]:
    return tuple(params.deck)


def _set_deck(doc: dict[str, Any], yellow: int | None = None, straights: int | None = None) -> None:
    deck = [tuple(doc["deck"][str(n)]) for n in range(1, 7)]
    total = sum(y + g for y, g in deck)
    y = yellow if yellow is not None else sum(y for y, _ in deck)
    s = straights if straights is not None else sum(y + g for y, g in deck[4:])
    new = avenue_deck(min(y, total), min(s, total), total)
    doc["deck"] = {str(n): list(yg) for n, yg in enumerate(new, start=1)}


KNOBS = (
    int_knob("penalty", "penalty per 0 box", 0, 15, "points lost for every score box holding 0"),
    int_knob("rounds", "rounds", 1, 6, "farms scored (the sheet has 6 farms)"),
    int_knob("yellows_per_round", "yellows per round", 1, 8, "a round ends on its n-th yellow card"),
    Knob("rising", "rising rule", "bool", lambda p: p.rising, field_writer("rising"),
         help="a farm scores only if it beats the box above"),
    Knob("yellow_cards", "yellow cards in the deck", "int", lambda p: sum(y for y, _ in _deck(p)),
         lambda doc, v: _set_deck(doc, yellow=v), 4, 38, help="of the 42 road cards (published: 22)"),
    Knob("straights", "straight roads in the deck", "int", lambda p: sum(y + g for y, g in _deck(p)[4:]),
         lambda doc, v: _set_deck(doc, straights=v), 2, 30,
         help="roads 5 and 6; the rest are the four corners (published: 14)"),
)

WHATIF = WhatIfSpec(
    knobs=KNOBS,
    question="what if a 0 box cost 3 points instead of 5?",
    example={"penalty": 3},
    example_deals=200,
    players=1,
    deals=1000,
    same_deal="the same road and farm cards, in the same order",
    pairing=(
        "A pure scoring change (the **penalty**) leaves every move as it was: old and new scores correlate "
        "almost perfectly, and a few dozen deals are enough.",
        "**Changing the deck** (yellow cards, straight roads) shuffles a different deck from the same seed, so "
        "the deals are no longer the same cards: the comparison stays fair, but pairing helps less.",
    ),
    tries=(
        Try("Switch the *rising rule* off. Does the greedy bot score more or less, and by roughly how much?",
            "Far more: about +14.6 points a game (15.5 → 30.1 on 1,000 deals). Without the rising rule almost "
            "every farm that reaches a grape scores, so zero boxes (−5 each) nearly vanish."),
        Try("Set *yellows per round* to 3. Why do scores fall?",
            "A round then ends at its 3rd yellow card: about 5.6 cards instead of 7.5 (the lesson "
            "`lessons/avenue_cards.ipynb` counts them), so fewer roads are drawn before each farm is scored — "
            "about 3.6 points less a game (15.5 → 11.9 on 1,000 deals). Notice the low correlation (about "
            "0.3): the rounds now end on other cards, so the same deal is a different game and pairing helps far "
            "less than for the penalty."),
    ),
)
