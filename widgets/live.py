"""Live analysis panels: re-render a function of the table's game whenever a round ends or a game starts."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import ipywidgets as W

Part = Any  # an HTML string, a matplotlib Figure, or a widget
DEFAULT_EVENTS = ("round", "over", "new")


def to_widget(part: Part) -> W.Widget:
    """An HTML string, a matplotlib Figure (as a crisp PNG) or a widget, as a widget."""
    if isinstance(part, W.Widget):
        return part
    if isinstance(part, str):
        return W.HTML(part)
    if hasattr(part, "savefig"):
        import matplotlib.pyplot as plt

        buf = io.BytesIO()
        dpi = 96
        width = part.get_figwidth() * dpi
        part.savefig(buf, format="png", dpi=2 * dpi, facecolor="white")  # 2×: crisp on HiDPI screens
        plt.close(part)
        return W.Image(value=buf.getvalue(), format="png", layout=W.Layout(width=f"{width:.0f}px"))
    return W.HTML(str(part))


def live(table: Any, render: Callable[[Any], Part | Sequence[Part]],
         events: Iterable[str] = DEFAULT_EVENTS) -> W.VBox:
    """A panel showing ``render(table.state)``, redrawn on the table's ``events`` (never raises)."""
    box = W.VBox()
    box.add_class("sk-live")
    wanted = set(events)

    def update(event: str | None = None) -> None:
        if event is not None and event not in wanted:
            return
        try:
            out = render(table.state)
            parts = list(out) if isinstance(out, list | tuple) else [out]
        except Exception as e:  # a panel explains its own failure, quietly
            parts = [f"<i>This analysis could not be drawn ({type(e).__name__}: {str(e)[:120]}).</i>"]
        old = box.children
        box.children = tuple(to_widget(p) for p in parts)
        for w in old:
            w.close()

    table.on_change(update)
    update()
    return box
