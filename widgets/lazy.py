"""Widgets built the first time they are needed: each widget is models the browser loads with the page.

A table part that is hidden at the start (an end panel, a decision's buttons, the pass-the-screen box) is a
``functools.cached_property`` that builds it and puts it in its box; ``built`` says whether it exists yet, so
that a render can leave a part alone that nobody has needed.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

__all__ = ["built", "cached_property", "in_order"]


def built(obj: Any, name: str) -> bool:
    """True once ``obj``'s part ``name`` exists (a plain attribute, or a cached property read once)."""
    return name in vars(obj)


def in_order(obj: Any, names: tuple[str, ...], **new: Any) -> tuple[Any, ...]:
    """``obj``'s parts of ``names`` that exist (with ``new``: those being built now), in that order."""
    have = {**vars(obj), **new}
    return tuple(have[n] for n in names if n in have)
