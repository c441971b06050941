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
    assert seen == [2], "your road, then the rest of your sheet, had left before the bot began"
    ink = t.sheet.canvas["ink"].canvas.model_id
    assert rec.canvases(0) == {ink} and rec.commands(t.sheet.canvas["ink"].canvas, 0)["stroke"] == 2


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


POINTS = {"clearRect": 4, "fillRect": 4, "strokeRect": 4, "moveTo": 2, "lineTo": 2, "quadraticCurveTo": 4, "arcTo": 4}


def test_your_road_leaves_alone_inside_the_clicked_cell_and_the_sheet_ends_as_a_full_redraw(rec: Recorder) -> None:
    from sheetkit.widgets.avenue.sheet import _cell_looks

    t = AvenueTable(code="AV-0000-001A", bots=("greedy",))
    t.simulate_client_ready()
    for _ in range(3):
        rec.clear()
        d = [a for a in t.state.legal_actions(0) if isinstance(a, Draw)][4]
        x, y, s, _ = t.sheet.geometry.cell_rect(d.row, d.col)
        t.click_cell(d.row, d.col)
        first = [(name, args) for _, name, args in rec.drawn[0] if name in POINTS]
        assert first and len(rec.drawn[0]) < 40, "your road alone: a few dozen commands, not the legal cells' tints"
        for name, args in first:
            xs, ys = args[0:POINTS[name]:2], args[1:POINTS[name]:2]
            if name.endswith("Rect"):                       # x, y, width, height
                xs, ys = [args[0], args[0] + args[2]], [args[1], args[1] + args[3]]
            assert all(x - 0.01 <= v <= x + s + 0.01 for v in xs), (name, args, "outside the clicked cell")
            assert all(y - 0.01 <= v <= y + s + 0.01 for v in ys), (name, args, "outside the clicked cell")
        assert rec.count() == 3 and rec.commands(t.sheet.canvas["ink"].canvas, 1)["clearRect"] > 0, \
            "then the rest of your sheet: the other legal cells' tints go"
        assert t.sheet._cells == _cell_looks(t.state, 0, True), "what is drawn is what a full redraw would draw"
        t.next_button.click()


def test_the_pen_draws_polygons_as_path_commands_without_binary_buffers(rec: Recorder) -> None:
    layer = Layer(Canvas(width=20, height=20), 1.0)
    square = [(1.0, 1.0), (9.0, 1.0), (9.0, 9.0), (1.0, 9.0)]
    with batch():
        layer.ctx.fill_polygon(square)
        layer.ctx.stroke_polygon(square)
        layer.ctx.stroke_lines(square)
    names = [name for _, name, _ in rec.drawn[0]]
    square_path = ["beginPath", "moveTo", "lineTo", "lineTo", "lineTo"]
    assert names == ["setTransform", *square_path, "closePath", "fill", "stroke", *square_path, "stroke"], \
        "a polygon filled then outlined is one path; the open polyline another"
    assert [args for _, name, args in rec.drawn[0] if name == "moveTo"] == [[1.0, 1.0]] * 2
    assert rec.buffers == [0], "the points travel in the commands, not as a binary buffer per shape"
    rec.clear()
    with batch():
        layer.ctx.fill_polygon(square)
        layer.ctx.fill_circle(5, 5, 2)                # another shape begins another path
        layer.ctx.stroke_polygon(square)
    names = [name for _, name, _ in rec.drawn[0]]
    assert names == ["setTransform", *square_path, "closePath", "fill", "fillCircle",
                     *square_path, "closePath", "stroke"]
    rec.clear()
    layer.ctx.fill_polygon(square)                    # outside a batch each command would be a message: one command
    assert rec.count() == 1 and [name for _, name, _ in rec.drawn[0]] == ["fillPolygon"]


def test_a_harvest_is_one_small_message_without_binary_buffers(rec: Recorder) -> None:
    t = KeyHarvestTable(code="KH-0000-0001", bots=("greedy", "greedy"))
    t.simulate_client_ready()
    rec.clear()
    t.click_space(next(a for a in t.state.legal_actions(0) if isinstance(a, Harvest)).code)
    assert rec.count() == 1
    assert rec.buffers == [0], "no numpy buffer per hexagon"
    names = [name for _, name, _ in rec.drawn[0]]
    assert "clip" not in names and "clearRect" not in names, "the pale side goes over the tile: no erase, no clip"
    assert names.count("drawImage") >= 1 and len(names) < 20, "the crop's cover copied, and the code"


def test_in_a_kernel_the_click_steps_aside_once_its_drawing_has_left(fake_kernel: SlowIOThread, rec: Recorder,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """After your move's drawing is sent, the kernel gives the CPU to the server and the browser for a moment,
    before the bots and the text; outside a kernel it never sleeps."""
    from sheetkit.widgets import canvas

    t = AvenueTable(code="AV-0000-001A", bots=("greedy",))
    t.simulate_client_ready()
    events: list[str] = []
    real_sleep = time.sleep

    def sleep(s: float) -> None:
        if threading.current_thread() is threading.main_thread():   # not the stand-in IOPub thread's own waits
            events.append(f"sleep {s} after {rec.count()} messages")
        else:
            real_sleep(s)

    monkeypatch.setattr(canvas.time, "sleep", sleep)
    real = t.bots[1].act
    monkeypatch.setattr(t.bots[1], "act", lambda st, p: events.append("bot") or real(st, p))
    rec.clear()
    d = next(a for a in t.state.legal_actions(0) if isinstance(a, Draw))
    t.click_cell(d.row, d.col)
    assert events == ["sleep 0.001 after 2 messages", "bot"], "your road and sheet, a pause, the bot"
    events.clear()
    monkeypatch.delitem(sys.modules, "ipykernel.kernelapp")
    t.next_button.click()
    d = next(a for a in t.state.legal_actions(0) if isinstance(a, Draw))
    t.click_cell(d.row, d.col)
    assert events == ["bot"], "no kernel: no pause"


def test_in_a_kernel_choosing_a_registry_tile_moves_the_ring_then_steps_aside_before_the_text(
        fake_kernel: SlowIOThread, rec: Recorder, monkeypatch: pytest.MonkeyPatch) -> None:
    """Choosing a tile to bid for makes no move, but it is a click on the town all the same: the ring leaves
    first and the kernel steps aside before it writes the bid composer and the status line."""
    from sheetkit.widgets import canvas

    from sheetkit.games.key_harvest import Bid

    t = KeyHarvestTable(code="KH-0000-0001", bots=("greedy", "greedy"))
    t.simulate_client_ready()
    events: list[str] = []
    real_sleep = time.sleep

    def sleep(s: float) -> None:
        if threading.current_thread() is threading.main_thread():
            events.append(f"sleep after {rec.count()} messages")
        else:
            real_sleep(s)

    monkeypatch.setattr(canvas.time, "sleep", sleep)
    real_text = t._render_text
    monkeypatch.setattr(t, "_render_text", lambda *a, **k: events.append("text") or real_text(*a, **k))
    biddable = sorted({a.code for a in t.state.legal_actions(0) if isinstance(a, Bid)})
    rec.clear()
    t.click_town("registry", biddable[0])
    assert events == ["sleep after 1 messages", "text"], "the town's rings, a pause, then the text"
    assert rec.canvases() == {t.town.canvas["lit"].canvas.model_id}
    assert "Your bid for " + biddable[0] in t.status.value
