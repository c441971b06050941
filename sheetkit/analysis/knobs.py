"""The what-if knobs: each game's rule parameters as sliders, toggles and choices, read from and written
back to the game's own params (validated by the game). A dashboard draws these; it knows no rules.

``knobs(game)`` lists them; ``knob_values(game, params)`` reads a variant's settings;
``params_from_knobs(game, base, values)`` builds the new variant (only knobs whose value differs from
``base`` change anything, so a custom deck survives until its deck knobs are moved);
``describe_changes`` says what changed in words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sheetkit.analysis.montecarlo import resolve_variant
from sheetkit.core.registry import get_game

__all__ = ["EXAMPLES", "Knob", "avenue_deck", "describe_changes", "knob_values", "knobs", "params_from_knobs"]


@dataclass(frozen=True)
class Knob:
    """One rule parameter as a control.

    ``kind``: "int" (a slider from ``low`` to ``high``), "bool" (a toggle) or "choice" (``choices``: (label, value)
    pairs). ``read(params)`` gives the variant's value; ``write(doc, value)`` sets it in the params' JSON.
    """

    key: str
    label: str
    kind: str
    read: Callable[[Any], Any]
    write: Callable[[dict[str, Any], Any], None]
    low: int = 0
    high: int = 0
    choices: tuple[tuple[str, Any], ...] = field(default=())
    help: str = ""

    def words(self, value: Any) -> str:
        """The value as a player would say it."""
        if self.kind == "bool":
            return "on" if value else "off"
        if self.kind == "choice":
            for label, v in self.choices:
                if v == value:
                    return label.split(":")[0].split(" (")[0]
        return str(value)


# ------------------------------------------------------------------------------------------ Avenue
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


def _field(name: str) -> Callable[[dict[str, Any], Any], None]:
    def write(doc: dict[str, Any], value: Any) -> None:
        if value is None:
            doc.pop(name, None)
        else:
            doc[name] = value

    return write


AVENUE = (
    Knob("penalty", "penalty per 0 box", "int", lambda p: p.penalty, _field("penalty"), 0, 15,
         help="points lost for every score box holding 0"),
    Knob("rounds", "rounds", "int", lambda p: p.rounds, _field("rounds"), 1, 6,
         help="farms scored (the sheet has 6 farms)"),
    Knob("yellows_per_round", "yellows per round", "int", lambda p: p.yellows_per_round,
         _field("yellows_per_round"), 1, 8, help="a round ends on its n-th yellow card"),
    Knob("rising", "rising rule", "bool", lambda p: p.rising, _field("rising"),
         help="a farm scores only if it beats the box above"),
    Knob("yellow_cards", "yellow cards in the deck", "int", lambda p: sum(y for y, _ in _deck(p)),
         lambda doc, v: _set_deck(doc, yellow=v), 4, 38, help="of the 42 road cards (published: 22)"),
    Knob("straights", "straight roads in the deck", "int", lambda p: sum(y + g for y, g in _deck(p)[4:]),
         lambda doc, v: _set_deck(doc, straights=v), 2, 30,
         help="roads 5 and 6; the rest are the four corners (published: 14)"),
)


# ------------------------------------------------------------------------------------ Kingdom Maps
def _criteria_choices() -> tuple[tuple[str, Any], ...]:
    from sheetkit.games.kingdom_maps.criteria import CRITERIA, GROUP_A, GROUP_B
    from sheetkit.games.kingdom_maps.params import PRESETS

    family = PRESETS["family"].criteria
    return (
        ("rolled each game (2 from A, 2 from B)", None),
        (f"family: {' '.join(family or ())}", family),
        ("all 12", tuple(CRITERIA)),
        ("group A only (A1–A6)", tuple(GROUP_A)),
        ("group B only (B1–B6)", tuple(GROUP_B)),
    )


def _kingdom() -> tuple[Knob, ...]:
    return (
        Knob("uses", "uses per terrain", "choice", lambda p: p.uses, _field("uses"),
             choices=(("by player count (3/3/2/1)", None), ("1", 1), ("2", 2), ("3", 3), ("4", 4), ("5", 5)),
             help="how often each player may announce each terrain"),
        Knob("powers", "+1/-1 powers", "bool", lambda p: p.powers, _field("powers"),
             help="drawing on a +1/-1 hex gains a power"),
        Knob("questions", "? hexes", "bool", lambda p: p.questions, _field("questions"),
             help="drawing on a ? hex banks a criterion's score"),
        Knob("criteria", "criteria in play", "choice", lambda p: p.criteria,
             lambda doc, v: _field("criteria")(doc, None if v is None else list(v)), choices=_criteria_choices(),
             help="which scoring criteria count"),
    )


# ------------------------------------------------------------------------------------- Key Harvest
def _int_field(key: str, label: str, low: int, high: int, help: str) -> Knob:
    return Knob(key, label, "int", lambda p: getattr(p, key), _field(key), low, high, help=help)


KEY_HARVEST = (
    _int_field("largest_mult", "points per tile, largest group", 0, 5, "the rules: 1 per tile of your largest group"),
    _int_field("second_mult", "points per tile, 2nd group", 0, 5, "the rules: 2 per tile of your second largest group"),
    _int_field("counters_per_point", "counters per point", 1, 12, "1 point per this many counters owned (ours: 3)"),
    Knob("events", "event tiles", "bool", lambda p: p.events, _field("events"),
         help="events in the bag; off: the game ends when the bag runs out"),
    _int_field("start_counters", "starting counters", 0, 10, "counters each player draws blind at the start"),
    _int_field("store_size", "store size", 1, 4, "tiles a store holds (the rules: 2)"),
    _int_field("registry_size", "registry tiles", 2, 8, "face-up tiles in the land registry (the rules: 6)"),
    _int_field("end_event", "event that starts the end", 1, 14,
               "placing this event starts the final turns (the rules: the 10th; 2–3 players have 12 events)"),
    _int_field("final_turns", "final turns each", 0, 4, "turns each player takes after that event (the rules: 2)"),
)

_KNOBS: dict[str, Callable[[], tuple[Knob, ...]]] = {"avenue": lambda: AVENUE, "kingdom-maps": _kingdom,
                                                     "key-harvest": lambda: KEY_HARVEST}

# A first question per game for a dashboard to open with: (knob changes, deals) — quick on one core.
EXAMPLES: dict[str, tuple[dict[str, Any], int]] = {
    "avenue": ({"penalty": 3}, 200),
    "kingdom-maps": ({"powers": False}, 20),
    "key-harvest": ({"second_mult": 1}, 100),
}


def knobs(game: str) -> tuple[Knob, ...]:
    """The what-if controls of ``game`` (empty for a game without any)."""
    make = _KNOBS.get(get_game(game).name)
    return make() if make is not None else ()


def knob_values(game: str, params: Any = None) -> dict[str, Any]:
    """Each knob's value under a variant (None, a preset name, JSON or params)."""
    _, p = resolve_variant(game, params)
    return {k.key: k.read(p) for k in knobs(game)}


def params_from_knobs(game: str, base: Any, values: Mapping[str, Any]) -> Any:
    """The variant ``base`` with the knobs set to ``values`` (validated: RecordError if it cannot be played).
    Knobs left at ``base``'s value, or not given, change nothing."""
    import json

    spec = get_game(game)
    _, p = resolve_variant(game, base)
    doc = json.loads(json.dumps(p.to_json()))
    by_key = {k.key: k for k in knobs(game)}
    unknown = set(values) - set(by_key)
    if unknown:
        raise KeyError(f"unknown knob {sorted(unknown)[0]!r} for {spec.title}; knobs: {', '.join(by_key)}")
    for key, value in values.items():
        k = by_key[key]
        if k.read(p) != value:
            k.write(doc, value)
    return spec.parse_params(doc, "what-if")


def describe_changes(game: str, old: Any, new: Any) -> list[str]:
    """What differs between two variants, knob by knob: ["penalty per 0 box 5 → 3", "rising rule on → off"]."""
    a, b = knob_values(game, old), knob_values(game, new)
    out = []
    for k in knobs(game):
        if a[k.key] != b[k.key]:
            out.append(f"{k.label} {k.words(a[k.key])} → {k.words(b[k.key])}")
    if not out:
        _, pa = resolve_variant(game, old)
        _, pb = resolve_variant(game, new)
        if pa != pb:
            out.append("other rule details differ")
    return out
