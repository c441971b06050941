"""What a game gives the what-if explorer: its rule knobs, and the words its page speaks about them.

Each game states these beside its params and presets (``sheetkit/games/<game>/whatif.py``, registered as
``GameSpec.whatif``), so the explorer and ``sheetkit.analysis.knobs`` know no game: a game from another
package brings its own knobs and words the same way. Words are plain text; ``**bold**``, ``*italic*``
and ```code``` are the only marks a page turns into styles.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Knob", "Try", "WhatIfSpec", "field_writer", "int_knob"]


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


def field_writer(name: str) -> Callable[[dict[str, Any], Any], None]:
    """A knob's ``write`` for a params field of the same name (None: back to the game's default)."""

    def write(doc: dict[str, Any], value: Any) -> None:
        if value is None:
            doc.pop(name, None)
        else:
            doc[name] = value

    return write


def int_knob(key: str, label: str, low: int, high: int, help: str) -> Knob:
    """A whole-number knob on the params field ``key``."""
    return Knob(key, label, "int", lambda p: getattr(p, key), field_writer(key), low, high, help=help)


@dataclass(frozen=True)
class Try:
    """A question for the reader to try in the explorer, and its answer (measured, with the figures)."""

    question: str
    answer: str


@dataclass(frozen=True)
class WhatIfSpec:
    """A game's what-if knobs and the words its explorer page speaks."""

    knobs: tuple[Knob, ...]
    # The first question the page asks, and the knob changes and deals that answer it (quick on one core).
    question: str                  # 'what if a 0 box cost 3 points instead of 5?'
    example: Mapping[str, Any]     # {'penalty': 3}
    example_deals: int = 100
    players: int = 1               # seats the explorer opens with
    deals: int = 1000              # where the deals slider starts
    # What "the same deal" holds under both rule sets: 'the same road and farm cards, in the same order'.
    same_deal: str = "the same chance"
    # How this game's changes pair up deal by deal: which ones keep the deals alike, which do not.
    pairing: tuple[str, ...] = ()
    tries: tuple[Try, ...] = ()
