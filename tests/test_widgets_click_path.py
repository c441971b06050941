"""A click's drawing leaves the kernel first: the pen, the flush to the browser, your move before the bots'.

In a kernel, every message leaves through ipykernel's IOPub thread. The canvas a player clicked is
drawn in a message of its own, which ``batch`` hands to that thread before the table computes the
text; the bots think after your move is drawn. Figures: docs/performance.md (benchmarks/browser_bench.py).
"""

from __future__ import annotations

import sys
import threading
import time
import types
from typing import Any

import pytest
from canvas_recorder import Recorder
from ipycanvas import Canvas
from sheetkit.widgets import AvenueTable, KeyHarvestTable, batch, canvas_manager
from sheetkit.widgets.canvas import Layer

from sheetkit.games.avenue import Draw
from sheetkit.games.key_harvest import Harvest


def sent_styles(rec: Recorder) -> list[str]:
    return [name for m in rec.messages for _, name in m if name == "set"]


def test_the_pen_sends_a_style_once_and_again_after_restore_or_in_a_new_batch(rec: Recorder) -> None:
    layer = Layer(Canvas(width=20, height=20), 1.0)
    with batch():
        ctx = layer.ctx
        ctx.fill_style = "#123456"
        ctx.fill_style = "#123456"              # unchanged: nothing sent
        ctx.line_width = 2.5
        assert ctx.line_width == 2.5, "the pen answers what it set"
        ctx.save()
        ctx.fill_style = "#000000"
        ctx.restore()                           # the browser is back to #123456; the pen no longer knows
        ctx.fill_style = "#123456"
        ctx.fill_rect(0, 0, 5, 5)
    assert sent_styles(rec) == ["set"] * 4
    rec.clear()
    with batch():                               # a new batch (maybe a new browser): styles are sent again
        layer.ctx.fill_style = "#123456"
        layer.ctx.fill_rect(0, 0, 5, 5)
    assert sent_styles(rec) == ["set"]


class SlowIOThread:
    """Stands in for ipykernel's IOPub thread: runs what is scheduled, in order, a little later."""

    def __init__(self) -> None:
        self.done: list[str] = []

    def schedule(self, fn: Any) -> None:
        def later() -> None:
            time.sleep(0.02)
            fn()
            self.done.append(getattr(fn, "__name__", "?"))
        threading.Thread(target=later).start()


@pytest.fixture
def fake_kernel(monkeypatch: pytest.MonkeyPatch) -> SlowIOThread:
    io = SlowIOThread()
    kernel = types.SimpleNamespace(iopub_socket=types.SimpleNamespace(io_thread=io))
    app = types.SimpleNamespace(initialized=lambda: True, instance=lambda: types.SimpleNamespace(kernel=kernel))
    monkeypatch.setitem(sys.modules, "ipykernel.kernelapp", types.SimpleNamespace(IPKernelApp=app))
    return io


def test_a_batch_returns_once_the_kernel_has_sent_its_drawing(fake_kernel: SlowIOThread) -> None:
    """Without the wait, the drawing sat in the IOPub queue until the whole click handler had returned."""
    layer = Layer(Canvas(width=20, height=20), 1.0)
    with batch():
        layer.ctx.fill_rect(0, 0, 5, 5)
    assert fake_kernel.done == ["set"], "batch waited for the IOPub thread to pass the drawing on"
    fake_kernel.done.clear()
    with batch():
        pass                                    # nothing drawn: nothing to wait for
    time.sleep(0.05)
    assert fake_kernel.done == []


def test_your_road_is_drawn_before_the_bots_think(rec: Recorder, monkeypatch: pytest.MonkeyPatch) -> None:
    t = AvenueTable(code="AV-0000-001A", bots=("greedy",))
    t.simulate_client_ready()
    rec.clear()
    bot = t.bots[1]
    real = bot.act
    seen: list[int] = []

    def act(state: Any, p: int) -> Any:
        seen.append(rec.count())               # canvas messages already sent when the bot starts thinking
        return real(state, p)

    monkeypatch.setattr(bot, "act", act)
    d = next(a for a in t.state.legal_actions(0) if isinstance(a, Draw))
    t.click_cell(d.row, d.col)
    assert seen == [1], "your road had left before the bot began"
    ink = t.sheet.canvas["ink"].canvas.model_id
    assert rec.canvases(0) == {ink} and rec.commands(t.sheet.canvas["ink"].canvas, 0)["stroke"] == 1


def test_a_key_harvest_click_asks_the_engine_for_the_legal_moves_once(monkeypatch: pytest.MonkeyPatch) -> None:
    t = KeyHarvestTable(code="KH-0000-0001", bots=("greedy", "greedy"))
    t.simulate_client_ready()
    calls = []
    real = type(t.state).legal_actions

    def counted(self: Any, p: int) -> Any:
        calls.append(p)
        return real(self, p)

    monkeypatch.setattr(type(t.state), "legal_actions", counted)
    t.click_space(next(a for a in real(t.state, 0) if isinstance(a, Harvest)).code)
    assert "harvest" in t.state.turn_actions
    assert calls == [0], "the board, the town, the buttons, the status line and the hooks share one answer"


def test_a_failed_first_drawing_still_lets_the_bots_move(rec: Recorder, monkeypatch: pytest.MonkeyPatch) -> None:
    """The move is made before it is drawn: a drawing failure must not leave the card half played."""
    from sheetkit.widgets.avenue import art

    t = AvenueTable(code="AV-0000-001A", bots=("greedy",))
    t.simulate_client_ready()

    def broken(*_: Any, **__: Any) -> None:
        raise RuntimeError("pencil broke")

    monkeypatch.setattr(art, "road", broken)
    d = next(a for a in t.state.legal_actions(0) if isinstance(a, Draw))
    t.click_cell(d.row, d.col)
    assert all(a is not None for a in t.state.acted), "the bot played on the same card"
    assert "pencil broke" in t.status_text
    assert canvas_manager()._caching is False
