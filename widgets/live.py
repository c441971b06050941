"""Live analysis panels: re-render a function of the table's game whenever a round ends or a game starts.

A panel's redraw can take seconds (exact tables, matplotlib charts). When a browser's click or
button press sets it off, the redraw must not hold the kernel: ipykernel handles one message at a
time on its main thread, so a click arriving meanwhile would wait for the charts. Such redraws
therefore run on one worker thread, on a copy of the game (``state.clone()``), and only the short
swap of the panel's widgets comes back to the kernel's event loop; redraws asked for while one
runs collapse into one, of the newest game, and the panel says "updating…" until it is current.
A redraw set off by code in a cell (a script, a test, nbclient) still runs at once, so the cell
sees the panel up to date when it returns.
"""

from __future__ import annotations

import asyncio
import io
import os
import sys
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import ipywidgets as W
from sheetkit.widgets.off_click import WorkerThread
from sheetkit.widgets.shared import HTMLStyle, is_shared, shared

Part = Any  # an HTML string, a matplotlib Figure, or a widget
DEFAULT_EVENTS = ("round", "over", "new")
# SHEETKIT_LIVE=inline redraws inside the handler, as before (benchmarks/browser_bench.py compares both).
DEFER = os.environ.get("SHEETKIT_LIVE", "defer") != "inline"
UPDATING = "<i class='sk-small'>updating…</i>"
SWITCH_INTERVAL = 0.0005   # s: the GIL's switch interval while a panel redraws (see _Panel._work)

# The one worker thread of every panel: matplotlib is not safe with two figures drawing at once.
_WORKER = WorkerThread("sk-live")


@dataclass(frozen=True)
class _Png:
    """A figure already turned into PNG bytes (the slow half of ``to_widget``)."""

    data: bytes
    width: float


def _prepare(part: Part) -> Part:
    """A matplotlib figure as PNG bytes; anything else as it is. Safe off the main thread."""
    if isinstance(part, W.Widget | str) or not hasattr(part, "savefig"):
        return part
    buf = io.BytesIO()
    dpi = 96
    width = part.get_figwidth() * dpi
    part.savefig(buf, format="png", dpi=2 * dpi, facecolor="white")  # 2×: crisp on HiDPI screens
    if "matplotlib.pyplot" in sys.modules:     # only pyplot keeps figures alive; never import it here
        sys.modules["matplotlib.pyplot"].close(part)
    return _Png(buf.getvalue(), width)


def to_widget(part: Part) -> W.Widget:
    """An HTML string, a matplotlib Figure (as a crisp PNG) or a widget, as a widget."""
    part = _prepare(part)
    if isinstance(part, W.Widget):
        return part
    if isinstance(part, str):
        return _html(part)
    if isinstance(part, _Png):
        return W.Image(value=part.data, format="png", layout=W.Layout(width=f"{part.width:.0f}px"))
    return _html(str(part))


def _html(text: str) -> W.HTML:
    # nothing changes a panel's HTML's layout or style: it shares both (each is a model for the page to load)
    return W.HTML(text, layout=shared(W.Layout), style=shared(HTMLStyle))


def _refresh(widget: W.Widget, part: Part) -> bool:
    """Show ``part`` in the widget already on the page, if it is of the same kind; False if it is not."""
    if isinstance(part, str) and type(widget) is W.HTML:
        widget.value = part
        return True
    if isinstance(part, _Png) and isinstance(widget, W.Image):
        widget.value = part.data
        widget.layout.width = f"{part.width:.0f}px"
        return True
    return part is widget


def close_widget(widget: W.Widget) -> None:
    """Close a widget with its layout and style (closing a widget alone leaves those two open in the kernel), unless
    other widgets share them."""
    for extra in (getattr(widget, "layout", None), getattr(widget, "style", None)):
        if isinstance(extra, W.Widget) and not is_shared(extra):
            extra.close()
    widget.close()


def live(table: Any, render: Callable[[Any], Part | Sequence[Part]],
         events: Iterable[str] = DEFAULT_EVENTS, *, defer: bool | None = None) -> W.VBox:
    """A panel showing ``render(table.state)``, redrawn on the table's ``events`` (never raises).

    ``defer``: None (the default) redraws off the kernel's message handler when a browser's message
    set the event off, True whenever the kernel's event loop runs, False never (always at once).
    """
    box = W.VBox(_dom_classes=("sk-live",), layout=shared(W.Layout))
    panel = _Panel(box, render)
    wanted = set(events)

    def update(event: str | None = None) -> None:
        if event is not None and event not in wanted:
            return
        loop = _deferring_loop(DEFER if defer is None else defer, auto=defer is None) if event else None
        if loop is None:
            panel.now(table.state)
        else:
            panel.later(table.state.clone(), loop)   # a copy: the next click changes the table's game

    table.on_change(update)
    update()
    return box


def _failure(e: Exception) -> str:
    """A panel's failure in plain words (never a traceback)."""
    return f"<i>This analysis could not be drawn ({type(e).__name__}: {str(e)[:120]}).</i>"


def _handling_browser_message() -> bool:
    """True while the kernel handles a widget message from a browser (a click, a button press)."""
    try:
        from IPython import get_ipython

        kernel = getattr(get_ipython(), "kernel", None)
        parent = kernel.get_parent() if kernel is not None else None
        return bool(parent) and parent.get("header", {}).get("msg_type") == "comm_msg"
    except Exception:  # no kernel, an older one: redraw at once
        return False


def _deferring_loop(defer: bool, auto: bool) -> asyncio.AbstractEventLoop | None:
    """The kernel's running event loop when this redraw should leave the handler; None: redraw now."""
    if not defer:
        return None
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:                     # no event loop (plain Python, pytest): nothing to come back to
        return None
    if auto and not _handling_browser_message():
        return None
    return loop



class _Panel:
    """One live panel: its box, its render function and its redraws (at once, or on the worker)."""

    def __init__(self, box: W.VBox, render: Callable[[Any], Part | Sequence[Part]]) -> None:
        self.box = box
        self.render = render
        self._lock = threading.Lock()
        self._gen = 0                            # the newest redraw asked for; older results are dropped
        self._waiting: tuple[int, Any] | None = None
        self._busy = False

    @cached_property
    def note(self) -> W.HTML:
        """The "updating…" line, built at the first redraw off the click path (the page loads without it)."""
        note = W.HTML(UPDATING)
        note.add_class("sk-live-note")
        return note

    def compute(self, state: Any) -> list[Part]:
        """The panel's parts for ``state``, figures already PNG bytes (the slow half)."""
        try:
            out = self.render(state)
            parts = list(out) if isinstance(out, list | tuple) else [out]
            return [_prepare(p) for p in parts]
        except Exception as e:  # a panel explains its own failure, quietly
            return [_failure(e)]

    def show(self, parts: list[Part], gen: int) -> None:
        """Swap the panel's widgets for ``parts`` (main thread), unless a newer redraw is on its way."""
        if gen != self._gen:
            return
        note = vars(self).get("note")         # the "updating…" line, if it was ever built
        old = [w for w in self.box.children if w is not note]
        try:
            ready = [_prepare(p) for p in parts]
            if len(ready) == len(old) and all(_refresh(w, p) for w, p in zip(old, ready, strict=True)):
                # The same kinds of parts as shown: their widgets were updated in place (a few small
                # updates, nothing opened or closed in the browser).
                self.box.children = tuple(old)
                return
            new = tuple(to_widget(p) for p in ready)
        except Exception as e:  # called from the event loop, where nobody would see a traceback
            new = (W.HTML(_failure(e)),)
        self.box.children = new
        for w in old:
            if w not in new:
                close_widget(w)

    def now(self, state: Any) -> None:
        """Redraw at once."""
        with self._lock:
            self._gen += 1
            gen, self._waiting = self._gen, None
        self.show(self.compute(state), gen)

    def later(self, state: Any, loop: asyncio.AbstractEventLoop) -> None:
        """Redraw ``state`` on the worker thread; show the result from ``loop`` (the kernel's)."""
        with self._lock:
            self._gen += 1
            self._waiting = (self._gen, state)
            start, self._busy = not self._busy, True
        if self.note not in self.box.children:
            self.box.children = (self.note, *self.box.children)
        if start:
            _WORKER.submit(self._work, loop)

    def _work(self, loop: asyncio.AbstractEventLoop) -> None:
        """Worker thread: redraw the newest game waiting until none is left."""
        # While this thread computes, the kernel's threads (the main one taking the next click, the
        # one sending messages) wait for the GIL up to the switch interval each time they ask for
        # it: 5 ms by default, tens of ms per click. A short interval hands it back at once.
        interval = sys.getswitchinterval()
        sys.setswitchinterval(min(interval, SWITCH_INTERVAL))
        try:
            while True:
                with self._lock:
                    job, self._waiting = self._waiting, None
                    if job is None:
                        self._busy = False
                        return
                gen, state = job
                parts = self.compute(state)
                loop.call_soon_threadsafe(self.show, parts, gen)
        except BaseException:  # the loop is closed (kernel shutting down): stop quietly
            with self._lock:
                self._busy, self._waiting = False, None
        finally:
            sys.setswitchinterval(interval)
