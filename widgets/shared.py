"""Layouts and styles several widgets share: each model is one more for the page to load (about 3 ms each).

Every ipywidgets Button or HTML comes with a Layout and a style model of its own, though most never change
them. ``shared(W.HTMLStyle)`` or ``shared(W.Layout, width="auto")`` is one model of those settings for every
widget that keeps them as they are. It is fixed once made: setting any of its properties raises (it would move,
hide or colour every widget sharing it), so a widget whose layout or style changes must have its own.
"""

from __future__ import annotations

from typing import Any, TypeVar

import ipywidgets as W

# ipywidgets does not export the HTML widget's style class: this is the one place that reaches for it
from ipywidgets.widgets.widget_string import HTMLStyle

__all__ = ["HTMLStyle", "is_shared", "shared"]

T = TypeVar("T", bound=W.Widget)
_FIXED: dict[type, type] = {}
_MADE: dict[tuple[type, tuple[tuple[str, Any], ...]], W.Widget] = {}


def _fixed(kind: type[T]) -> type[T]:
    """``kind`` (a Layout or a style class) whose properties cannot be set once made."""
    if kind not in _FIXED:
        own = frozenset(kind.class_trait_names()) - frozenset(W.Widget.class_trait_names())

        def __init__(self: Any, **settings: Any) -> None:
            kind.__init__(self, **settings)
            object.__setattr__(self, "_sk_fixed", True)

        def __setattr__(self: Any, name: str, value: Any) -> None:
            if name in own and self.__dict__.get("_sk_fixed"):
                raise AttributeError(f"this {kind.__name__} is shared by several widgets: give the widget its own "
                                     f"to change its {name}")
            kind.__setattr__(self, name, value)

        _FIXED[kind] = type(f"Shared{kind.__name__}", (kind,), {"__init__": __init__, "__setattr__": __setattr__})
    return _FIXED[kind]


def shared(kind: type[T], **settings: Any) -> T:
    """The one fixed ``kind`` (``W.Layout``, ``W.HTMLStyle``, ``W.ButtonStyle``...) of these settings."""
    key = (kind, tuple(sorted(settings.items())))
    made = _MADE.get(key)
    if made is None or made.comm is None:      # none yet, or closed (``Widget.close_all`` between tests)
        made = _MADE[key] = _fixed(kind)(**settings)
    return made  # type: ignore[return-value]


def is_shared(widget: object) -> bool:
    """True for a Layout or style made by ``shared`` (closing a widget must leave it open for the others)."""
    return type(widget) in _FIXED.values()
