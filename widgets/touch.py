"""Taps: a canvas's touch and mouse events turned into exactly one click each.

ipycanvas 0.14's canvas view calls ``preventDefault()`` on every touch event, so a browser makes no
mouse events from a tap: a table that listened to ``mouse_down`` only could not be played on a
phone. Its touch events carry ``event.touches`` (the fingers still on the glass, in canvas pixels):
``touch_start`` names the new finger, but ``touch_end`` after a one-finger tap names none, so where
the finger went is known only from ``touch_move``. The browser sends ``touch_move`` whether or not a
callback is registered (measured: a 10-step swipe on a canvas sent 10 ``touch_move`` messages with
no callback), so listening to it costs no extra traffic.

A tap is one finger down and up again within ``slop`` px of where it went down (the point clicked is
where it went down); a swipe (the finger moved farther) or a second finger (a pinch) is no tap. A
mouse press at the same spot right after a tap is the same tap again (a device that makes mouse
events from a tap as well) and is dropped.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence

Point = tuple[float, float]

TAP_SLOP = 16.0      # px (of the drawing) a finger may drift and still tap: about a browser's own tap slop
ECHO_SECONDS = 1.0   # a mouse press this soon after a tap, at the same spot, is the tap's echo


class Taps:
    """Feed it a canvas's touch and mouse events (in one unit, e.g. CSS px); it calls ``click(x, y)`` once per tap
    or mouse press."""

    def __init__(self, click: Callable[[float, float], None], slop: float = TAP_SLOP,
                 echo_seconds: float = ECHO_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        self._click, self._slop, self._echo, self._clock = click, slop, echo_seconds, clock
        self._down: Point | None = None          # where the one finger went down, while it may still tap
        self._last_tap: tuple[float, Point] | None = None    # when a tap's click ended, and where it was

    def touch_start(self, touches: Sequence[Point]) -> None:
        """A finger went down; ``touches`` are all fingers now on the canvas."""
        self._down = tuple(touches[0]) if len(touches) == 1 else None   # type: ignore[assignment]

    def touch_move(self, touches: Sequence[Point]) -> None:
        """Fingers moved: one that left the slop circle makes this a swipe."""
        if self._down is not None and (len(touches) != 1 or self._far(touches[0], self._down)):
            self._down = None

    def touch_end(self, touches: Sequence[Point]) -> None:
        """A finger went up; ``touches`` are the fingers still down."""
        down, self._down = self._down, None
        if down is None or touches:
            return
        try:
            self._click(*down)
        finally:
            self._last_tap = (self._clock(), down)

    def touch_cancel(self, touches: Sequence[Point]) -> None:
        """The browser took the touch over (a system gesture): no tap."""
        self._down = None

    def mouse_down(self, x: float, y: float) -> None:
        """A mouse press: a click, unless it is the echo of the tap just handled."""
        last, self._last_tap = self._last_tap, None
        if last is not None and self._clock() - last[0] <= self._echo and not self._far((x, y), last[1]):
            return
        self._click(x, y)

    def _far(self, a: Sequence[float], b: Point) -> bool:
        return math.hypot(a[0] - b[0], a[1] - b[1]) > self._slop
