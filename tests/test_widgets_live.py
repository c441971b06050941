"""Live analysis panels never hold the table: a redraw set off by a browser's click runs on a worker.

ipykernel handles one message at a time; a panel redrawing its charts inside the Next card handler
made the player's next click wait 0.7–3.7 s. These tests run the table inside an asyncio event loop
(the kernel's main thread has one) and block the panel's render on purpose: the table must still
take the next click at once, and the panel must catch up afterwards with the newest game.
"""

from __future__ import annotations

import asyncio
import importlib
import threading
from typing import Any

import ipywidgets as W
import pytest
from sheetkit.widgets import AvenueTable, live

from sheetkit.games.avenue import Draw, GreedyBot

CODE = "AV-0000-001A"
live_module = importlib.import_module("sheetkit.widgets.live")   # the package's ``live`` is the function


def texts(box: W.VBox) -> list[str]:
    return [c.value for c in box.children if isinstance(c, W.HTML)]


def my_move(t: AvenueTable) -> None:
    a = GreedyBot().act(t.state, 0)
    if isinstance(a, Draw):
        t.click_cell(a.row, a.col)
    else:
        t.peek_button.click()


def to_round_end(t: AvenueTable) -> None:
    """Play (through the table's handlers) until the next flip ends a round; that flip is not made."""
    while True:
        if not t.state.is_chance_node():
            my_move(t)
            continue
        if t.state.round_ends_after_this_card() and t.state.card is not None:
            return
        t.next_button.click()


def on_own_thread(fn: Any) -> None:
    """Run ``fn`` on a new thread and re-raise what it raised there.

    Its event loop (or the lack of one) is then the test's own: in a full run, Playwright's sync API
    (the browser tests' session-wide browser) keeps an event loop running on the main thread.
    """
    errors: list[BaseException] = []

    def run() -> None:
        try:
            fn()
        except BaseException as e:
            errors.append(e)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(120)
    assert not worker.is_alive(), "the test's thread did not finish"
    if errors:
        raise errors[0]


async def until(cond: Any, timeout: float = 10.0) -> None:
    for _ in range(int(timeout / 0.01)):
        if cond():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


class SlowPanel:
    """A render that records each call and waits for ``gate`` (a slow chart, on purpose)."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.calls: list[tuple[int, int]] = []          # (round, cards flipped) of each game drawn
        self.threads: set[str] = set()
        self.home = threading.current_thread()          # the test's own thread (the kernel's main thread)

    def __call__(self, state: Any) -> str:
        self.calls.append((state.round, len(state.log)))
        self.threads.add(threading.current_thread().name)
        if threading.current_thread() is not self.home:
            assert self.gate.wait(10), "the test never let the panel finish"
        return f"<p>round {state.round}, {len(state.log)} entries</p>"


def test_a_round_end_leaves_the_table_free_for_the_next_click_and_the_panel_catches_up():
    async def main() -> None:
        t = AvenueTable(code=CODE, bots=("greedy",))
        t.simulate_client_ready()
        slow = SlowPanel()
        box = live(t, slow, defer=True)
        assert slow.threads == {slow.home.name} and len(texts(box)) == 1, "the first picture is drawn at once"
        to_round_end(t)
        slow.calls.clear()
        slow.threads.clear()
        before = t.state.round
        t.next_button.click()                           # ends the round: the panel's event
        assert t.state.round == before + 1 or t.state.is_terminal()
        assert "updating…" in " ".join(texts(box)), "the panel says it is behind"
        assert "Draw road" in t.status_text, "the table has answered the flip already"

        order: list[str] = []
        a = next(x for x in t.state.legal_actions(0) if isinstance(x, Draw))
        t.click_cell(a.row, a.col)                      # the player's next click, the panel still drawing
        order.append("click")
        assert t.state.sheets[0].roads[a.row * t.state.geo.cols + a.col], "the click was taken"
        assert "You drew road" in t.status_text
        assert texts(box)[0].startswith("<i"), "the panel is still at its old picture"

        shown = box.children
        slow.gate.set()
        await until(lambda: box.children is not shown and live_module.UPDATING not in texts(box))
        order.append("panel")
        assert order == ["click", "panel"]
        assert slow.threads == {"sk-live_0"}, "the redraw ran on the worker thread, never in the handler"
        assert len(slow.calls) == 1, "one round end, one redraw"
        assert texts(box) == [f"<p>round {t.state.round}, {slow.calls[0][1]} entries</p>"]

    on_own_thread(lambda: asyncio.run(main()))


def test_events_while_a_redraw_runs_collapse_into_one_redraw_of_the_newest_game():
    async def main() -> None:
        t = AvenueTable(code=CODE, bots=())
        t.simulate_client_ready()
        slow = SlowPanel()
        box = live(t, slow, events=("move",), defer=True)
        slow.calls.clear()
        for k in range(4):                              # four moves, four events, one panel behind
            t.next_button.click()
            my_move(t)
            newest = (t.state.round, len(t.state.log))  # the game right after this move
            if k == 0:                                  # the worker has taken the first game and is drawing it
                await until(lambda: len(slow.calls) == 1)
        slow.gate.set()
        await until(lambda: live_module.UPDATING not in texts(box))
        assert len(slow.calls) == 2, f"the first redraw, then one for the newest game only: {slow.calls}"
        assert slow.calls[-1] == newest
        assert texts(box) == [f"<p>round {newest[0]}, {newest[1]} entries</p>"]

    on_own_thread(lambda: asyncio.run(main()))


def test_code_in_a_cell_sees_the_panel_up_to_date_at_once(monkeypatch: pytest.MonkeyPatch):
    """No browser message in hand (a cell, a script): the panel redraws inside the call, as before."""
    async def main() -> None:
        t = AvenueTable(code=CODE, bots=())
        slow = SlowPanel()
        box = live(t, slow, events=("move",))           # the notebooks' default: defer when a browser asks
        my_move(t)
        assert slow.threads == {slow.home.name} and texts(box) == [f"<p>round {t.state.round}, "
                                                                 f"{len(t.state.log)} entries</p>"]
        monkeypatch.setattr(live_module, "_handling_browser_message", lambda: True)
        t.next_button.click()
        my_move(t)                                      # now as if a browser's click were being handled
        assert live_module.UPDATING in " ".join(texts(box))
        slow.gate.set()
        await until(lambda: live_module.UPDATING not in texts(box))
        assert "sk-live_0" in slow.threads

    on_own_thread(lambda: asyncio.run(main()))


def test_without_an_event_loop_the_panel_redraws_at_once_and_explains_a_failure():
    t = AvenueTable(code=CODE, bots=())

    def broken(state: Any) -> str:
        if any("player" in e for e in state.log):
            raise ValueError("no data yet")
        return "fine"

    def body() -> None:            # on a thread with no event loop at all
        box = live(t, broken, events=("move",), defer=True)
        assert texts(box) == ["fine"]
        my_move(t)
        assert texts(box) == ["<i>This analysis could not be drawn (ValueError: no data yet).</i>"]

    on_own_thread(body)


@pytest.mark.parametrize("msg_type, deferred", [("comm_msg", True), ("execute_request", False)])
def test_only_a_browsers_widget_message_defers_the_redraw(monkeypatch: pytest.MonkeyPatch, msg_type, deferred):
    """In a kernel, the message being handled decides: a widget message from a browser, or a cell."""
    import IPython

    class Kernel:
        def get_parent(self) -> dict[str, Any]:
            return {"header": {"msg_type": msg_type}}

    class Shell:
        kernel = Kernel()

    monkeypatch.setattr(IPython, "get_ipython", lambda: Shell())
    assert live_module._handling_browser_message() is deferred

    async def main() -> None:
        assert (live_module._deferring_loop(True, auto=True) is not None) is deferred
        assert live_module._deferring_loop(True, auto=False) is not None, "defer=True: whatever the message"
        assert live_module._deferring_loop(False, auto=True) is None

    on_own_thread(lambda: asyncio.run(main()))


def test_redraws_update_the_panel_in_place_and_leave_no_widget_open():
    """A panel redrawn every round keeps one set of widgets: nothing piles up in the kernel (or the browser)."""
    from ipywidgets.widgets.widget import _instances
    from matplotlib.figure import Figure

    def render(state: Any) -> list[Any]:
        fig = Figure(figsize=(2, 1))
        fig.add_subplot().plot([0, state.round])
        return [f"<b>round {state.round}</b>", fig]

    t = AvenueTable(code=CODE, bots=("greedy",), auto_next=True)
    panel = live(t, render, events=("turn", "round", "over", "new"), defer=False)
    first = panel.children
    t.simulate_client_ready()
    counts = []
    for _ in range(12):                                    # a dozen cards: a dozen redraws
        my_move(t)
        counts.append(len(_instances))
    assert texts(panel) == [f"<b>round {t.state.round}</b>"]
    assert panel.children == first, "the same widgets, updated in place"
    assert counts[-1] == counts[0], f"open widgets grew with each redraw: {counts}"


def test_a_panel_that_changes_shape_closes_the_old_widgets_with_their_layout_and_style():
    """When the parts change kind (text ↔ figure), the old widgets close together with their layout and style."""
    from ipywidgets.widgets.widget import _instances
    from matplotlib.figure import Figure

    def render(state: Any) -> list[Any]:
        if state.round % 2:
            return ["<i>odd round</i>"]
        fig = Figure(figsize=(2, 1))
        fig.add_subplot().plot([0, 1])
        return [fig, "<i>even round</i>"]

    t = AvenueTable(code=CODE, bots=("greedy",), auto_next=True)
    panel = live(t, render, events=("round",), defer=False)
    open_at = {1: len(_instances)}
    while t.state.round < 5:                               # rounds 1 → 5: the panel changes shape four times
        my_move(t)
        open_at.setdefault(t.state.round, len(_instances))
    assert texts(panel) == ["<i>odd round</i>"]
    assert open_at[1] == open_at[3] == open_at[5], f"open widgets at rounds 1, 3, 5: {open_at}"
