"""Drive notebooks/key_harvest.ipynb in Chromium like a player: read what the page offers, click it.

The table publishes what is legal now in a hidden element, ``.sk-hooks .sk-kh-state``
(``data-state``: JSON with whose move it is, the pending decision and its choices, the spaces to
harvest, the store tiles to buy, the registry tiles to bid for, and where each space and town tile
is in its canvas's own pixels). The driver clicks those canvases with a real mouse (canvas pixel →
page point through the canvas's shown size, so a scaled canvas works too) and presses the buttons; with
``touch=True`` it taps both instead.

Its plan each turn: every fourth turn first play a 1-farmhand (its decision follows); harvest a
group; then buy a bot's store tile if one is offered, else bid one counter for a registry tile; then
End turn. Decisions take the first offered choice (a crop, a tile) and decline the land sale.
"""

from __future__ import annotations

import json
import time
from typing import Any

from voila_harness import HarnessError, click_canvas, press, wait_ready

from sheetkit.games.key_harvest.crops import CROPS

JS_STATE = """() => { const el = document.querySelector('.sk-kh-state');
  return el ? el.getAttribute('data-state') : null; }"""

JS_LINE_SERIAL = """() => { const el = document.querySelector('.sk-status [data-serial]');
  return el ? el.getAttribute('data-serial') : null; }"""


def page_state(page: Any) -> dict[str, Any]:
    """The table's published state (what is legal now)."""
    raw = page.evaluate(JS_STATE)
    if not raw:
        raise HarnessError("no .sk-kh-state element on the page")
    return dict(json.loads(raw))


def click_canvas_at(page: Any, selector: str, x: float, y: float, touch: bool = False) -> None:
    """Click (or with ``touch`` tap) the canvas ``selector`` at its own pixel (x, y)."""
    click_canvas(page, x, y, selector, touch)


JS_FOCUS_ON_BOARD = ("() => { const cs = document.querySelectorAll('.sk-board canvas');"
                     " return document.activeElement === cs[cs.length - 1]; }")
# a decision is answered on your board, in the town, or by its own buttons
JS_FOCUS_ON_DECISION = ("() => { const a = document.activeElement; if (!a) return false;"
                        " if (a.closest('.sk-choices') && a.tagName === 'BUTTON') return true;"
                        " return ['.sk-board', '.sk-town'].some((s) => {"
                        " const cs = document.querySelectorAll(s + ' canvas'); return a === cs[cs.length - 1]; }); }")
JS_FOCUSED = "() => { const a = document.activeElement; return a ? a.tagName + ' ' + (a.className || '') : 'nothing'; }"


class KeyHarvestDriver:
    """notebooks/key_harvest.ipynb: plays seat 0 by the page's own list of legal moves."""

    name = "key-harvest"
    notebook = "notebooks/key_harvest.ipynb"

    def __init__(self, code: str = "KH-0000-0001", bots: str = "greedy,greedy", touch: bool = False) -> None:
        self.code, self.bots = code, bots
        self.touch = touch               # tap (a touch screen) instead of clicking with the mouse
        self.query = f"code={code}" + (f"&bots={bots}" if bots else "")
        self.actions: list[str] = []     # what was clicked, in order (for failure messages)
        self.kinds: set[str] = set()
        self.focus_checks = 0            # End turns after which the board was seen to have the focus

    def wait_ready(self, page: Any, timeout: float = 120) -> None:
        """Wait until the board is drawn and the table waits for you."""
        wait_ready(page, None, timeout=timeout)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if page.evaluate(JS_STATE):
                return
            page.wait_for_timeout(100)
        raise HarnessError("the table never published its state")

    def wait_change(self, page: Any, serial: int, timeout: float = 30) -> dict[str, Any]:
        """Wait until the table has rendered again after an action (its serial moved on)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            st = page_state(page)
            # the hidden state moved on, and the status line of the same render has arrived too
            if st["serial"] != serial and page.evaluate(JS_LINE_SERIAL) == str(st["serial"]):
                return st
            page.wait_for_timeout(15)
        raise HarnessError(f"the table did not answer within {timeout:.0f} s after {self.actions[-4:]}; "
                           f"status: {page.locator('.sk-status').first.inner_text()!r}")

    def _button(self, page: Any, selector: str, what: str, st: dict[str, Any]) -> dict[str, Any]:
        self.actions.append(what)
        press(page.locator(selector).first, self.touch, timeout=8000)
        return self.wait_change(page, st["serial"])

    def _board(self, page: Any, code: str, what: str, st: dict[str, Any]) -> dict[str, Any]:
        self.actions.append(what)
        x, y = st["board"][code]
        click_canvas_at(page, ".sk-board", x, y, self.touch)
        return self.wait_change(page, st["serial"])

    def _town(self, page: Any, key: str, what: str, st: dict[str, Any]) -> dict[str, Any]:
        self.actions.append(what)
        x, y = st["town"][key]
        click_canvas_at(page, ".sk-town", x, y, self.touch)
        return self.wait_change(page, st["serial"])

    def step(self, page: Any, st: dict[str, Any]) -> dict[str, Any]:
        """Make one move from state ``st``; returns the state after it."""
        if st["handoff"] is not None:
            return self._button(page, "button.sk-ready", "ready", st)
        if not st["mine"]:
            raise HarnessError(f"the page waits for nobody: {st}")
        if st["pending"]:
            choices = [c for c in st["choices"] if c != "decline"]
            if st["pending"] == "sale" or not choices:
                self.kinds.add("decline")
                return self._button(page, "button.sk-choice-decline", "decline", st)
            value = choices[0]
            self.kinds.add(f"choose-{st['pending']}")
            if value in st["board"] and st["pending"] in ("replace", "foreman", "frost", "pass"):
                return self._board(page, value, f"choose {value} on the board", st)
            return self._button(page, f"button.sk-choice-{value}", f"choose {value}", st)
        done = st["done"]
        farm = [pw for pw in st["place"] if pw.startswith("h1")]     # a Gleaner or a Trader: a decision follows
        if not done and farm and st["turn"] % 4 == 0:
            wid, code = farm[0].split("@")
            st = self._button(page, "button.sk-act-worker", "worker", st)
            st = self._button(page, f"button.sk-worker-{wid}", f"pick {wid}", st)
            self.kinds.add("worker")
            return self._board(page, code, f"place {wid} on {code}", st)
        if len(done) < 2 and "harvest" not in done and st["harvest"]:
            self.kinds.add("harvest")
            return self._board(page, st["harvest"][0], f"harvest {st['harvest'][0]}", st)
        if len(done) < 2 and "bid" not in done and "buy" not in done and st["buy"]:
            code = st["buy"][0]
            key = next(k for k in st["town"] if k.startswith("store:") and k.endswith(f":{code}"))
            self.kinds.add("buy")
            return self._town(page, key, f"buy {code}", st)
        if len(done) < 2 and "bid" not in done and st["bid"] and sum(st["counters"] or []) > 0:
            code = st["bid"][(st["turn"] // 3) % len(st["bid"])]
            st = self._town(page, f"registry:{code}", f"choose {code} to bid", st)
            crop = max(range(5), key=lambda c: st["counters"][c])
            st = self._button(page, f"button.sk-add-{CROPS[crop]}", f"add {CROPS[crop]}", st)
            self.kinds.add("bid")
            return self._button(page, "button.sk-confirm-bid", f"bid for {code}", st)
        self.kinds.add("end")
        st = self._button(page, "button.sk-end-turn", "end turn", st)
        if st["mine"] and st["handoff"] is None and st["pending"]:
            self.expect_focus(page, JS_FOCUS_ON_DECISION, "where the decision is answered")
        elif st["mine"] and st["handoff"] is None and st["harvest"]:
            self.expect_focus(page, JS_FOCUS_ON_BOARD, "on your board")
        return st

    def expect_focus(self, page: Any, test: str, where: str) -> None:
        """Your new turn starts: the table has handed the focus from End turn to where it goes on."""
        try:
            page.wait_for_function(test, timeout=10_000)
        except Exception as e:
            raise HarnessError(f"after End turn the focus stayed on {page.evaluate(JS_FOCUSED)}, not {where}") from e
        self.focus_checks += 1

    def play_to_end(self, page: Any, max_steps: int = 900) -> int:
        """Play until the game is over; returns the number of actions."""
        st = page_state(page)
        for n in range(max_steps):
            if st["over"]:
                return n
            st = self.step(page, st)
        raise HarnessError(f"the game did not end within {max_steps} actions")


# ----- the benchmark's clicks (benchmarks/browser_bench.py) -------------------------------------------
# Each gives the bench's `Timed` loop: next_click(page) -> (x, y, region) in the canvas `selector`'s own
# pixels, with the page made ready for that click first (untimed); after_click(page) checks the click
# was taken. The bench times click -> pixels in `region` changed.

JS_SCALE = """(sel) => { const el = document.querySelector(sel);
  const cs = el.tagName === 'CANVAS' ? [el] : Array.from(el.querySelectorAll('canvas'));
  const c = cs[cs.length - 1]; return c.width / (parseFloat(c.style.width) || c.getBoundingClientRect().width); }"""

Region = tuple[int, int, int, int]


def square(x: float, y: float, half: float) -> Region:
    """The canvas-pixel square of half-side ``half`` around (x, y)."""
    return round(x - half), round(y - half), round(2 * half), round(2 * half)


class HarvestClicks(KeyHarvestDriver):
    """Harvest a group on your board: the click a player makes every turn (the clicked tile turns pale).

    Between timed clicks the driver plays on by the base plan (buy or bid, End turn, decisions; the bots
    move) until a harvest is offered again, and deals the same game again at the end.
    """

    name = "key-harvest"
    selector = ".sk-sheet"                   # the board (it carries the player's-sheet class too)
    ready_pattern = "."                      # any status line: the board drawn is what counts

    def __init__(self, code: str = "KH-0000-0001", bots: str = "greedy,greedy") -> None:
        super().__init__(code, bots)
        self.pending: str | None = None
        self.serial = -1
        self.harvested: list[str] = []

    def _again(self, page: Any, st: dict[str, Any]) -> dict[str, Any]:
        return self._button(page, "button.sk-again", "play this deal again", st)

    def next_click(self, page: Any) -> tuple[float, float, Region]:
        st = page_state(page)
        for _ in range(400):
            if st["over"]:
                st = self._again(page, st)
            elif (st["mine"] and st["handoff"] is None and not st["pending"] and st["harvest"]
                  and "harvest" not in st["done"] and len(st["done"]) < 2):
                break
            else:
                st = self.step(page, st)
        else:
            raise HarnessError(f"no harvest offered within 400 actions: {self.actions[-6:]}")
        code = st["harvest"][0]
        x, y = st["board"][code]
        half = 0.5 * 26.0 * page.evaluate(JS_SCALE, ".sk-board")     # inside the 26 CSS px hexagon
        self.pending, self.serial = code, st["serial"]
        self.actions.append(f"harvest {code} (timed)")
        return x, y, square(x, y, half)

    def after_click(self, page: Any) -> None:
        st = self.wait_change(page, self.serial)
        if "harvest" not in st["done"]:
            raise HarnessError(f"the click on {self.pending} harvested nothing: {st['done']}")
        self.harvested.append(str(self.pending))
        self.pending = None


class RegistryClicks(KeyHarvestDriver):
    """Choose a registry tile to bid for, alternating between two: the town canvas moves its solid ring.

    It changes no game state (the bid is never confirmed), so every click is the same kind of redraw.
    """

    name = "key-harvest-registry"
    selector = ".sk-town"
    ready_pattern = "."

    def __init__(self, code: str = "KH-0000-0001", bots: str = "greedy,greedy") -> None:
        super().__init__(code, bots)
        self.k = 0
        self.pending: str | None = None
        self.serial = -1

    def next_click(self, page: Any) -> tuple[float, float, Region]:
        st = page_state(page)
        if not (st["mine"] and not st["pending"] and len(st["bid"]) >= 2):
            raise HarnessError(f"this deal does not open with two registry tiles to bid for: {st['bid']}")
        code = st["bid"][self.k % 2]
        self.k += 1
        x, y = st["town"][f"registry:{code}"]
        half = 0.5 * 40.0 * page.evaluate(JS_SCALE, ".sk-town")     # the hexagon and its ring
        self.pending, self.serial = code, st["serial"]
        return x, y, square(x, y, half)

    def after_click(self, page: Any) -> None:
        self.wait_change(page, self.serial)
        status = page.locator(".sk-status").first.inner_text()
        if str(self.pending) not in status:
            raise HarnessError(f"chose {self.pending} but the status line says {status!r}")
        self.pending = None
