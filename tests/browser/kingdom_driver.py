"""Drive notebooks/kingdom_maps.ipynb in Chromium like a player: read what the page offers, click it.

The table publishes what is legal now in a hidden element, ``.sk-hooks .sk-km-state``
(``data-state``: JSON with the legal hexes, the terrain/die/bank choices, and the map geometry in
canvas pixels). The driver computes each hex's centre itself from that geometry (pointy-top axial:
x = x0 + size·√3·(q + r/2), y = y0 + size·1.5·r) and clicks the canvas there with a real mouse (with
``touch=True`` it taps the canvas and the buttons instead).
"""

from __future__ import annotations

import json
import math
import time
from typing import Any

from voila_harness import HarnessError, click_canvas, press, wait_ready

SQRT3 = math.sqrt(3.0)
JS_STATE = """() => { const el = document.querySelector('.sk-km-state');
  return el ? el.getAttribute('data-state') : null; }"""


JS_LINE_SERIAL = """() => { const el = document.querySelector('.sk-status [data-serial]');
  return el ? el.getAttribute('data-serial') : null; }"""


def page_state(page: Any) -> dict[str, Any]:
    """The table's published state (what is legal now)."""
    raw = page.evaluate(JS_STATE)
    if not raw:
        raise HarnessError("no .sk-km-state element on the page")
    return dict(json.loads(raw))


def hex_point(geometry: dict[str, float], q: int, r: int) -> tuple[float, float]:
    """Centre of hex (q, r) in the map canvas's pixels."""
    return (geometry["x0"] + geometry["size"] * SQRT3 * (q + r / 2),
            geometry["y0"] + geometry["size"] * 1.5 * r)


class KingdomDriver:
    """notebooks/kingdom_maps.ipynb: plays by the page's own list of legal moves."""

    name = "kingdom"
    notebook = "notebooks/kingdom_maps.ipynb"

    def __init__(self, code: str = "KM-0000-0005", bots: str = "", touch: bool = False) -> None:
        self.code, self.bots = code, bots
        self.touch = touch               # tap (a touch screen) instead of clicking with the mouse
        self.query = f"code={code}" + (f"&bots={bots}" if bots else "")
        self.ready_pattern = "Choose a terrain"
        self.actions: list[str] = []     # what was clicked, in order (for failure messages)
        self.powers_spent = 0

    def wait_ready(self, page: Any, timeout: float = 90) -> None:
        """Wait until the map is drawn and the status line asks for a terrain."""
        wait_ready(page, self.ready_pattern, timeout=timeout)

    def wait_change(self, page: Any, serial: int, timeout: float = 20) -> dict[str, Any]:
        """Wait until the table has rendered again after an action (its serial moved on)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            st = page_state(page)
            # the hidden state moved on, and the status line of the same render has arrived too
            if st["serial"] != serial and page.evaluate(JS_LINE_SERIAL) == str(st["serial"]):
                return st
            page.wait_for_timeout(15)
        raise HarnessError(f"the table did not answer within {timeout:.0f} s after {self.actions[-3:]}; "
                           f"status: {page.locator('.sk-status').first.inner_text()!r}")

    def step(self, page: Any, st: dict[str, Any]) -> dict[str, Any]:
        """Make one move (or press Confirm) from state ``st``; returns the state after it."""
        serial = st["serial"]
        if st["confirm"]:
            self._click(page, "button.sk-confirm", "confirm")
        elif st["announce"]:
            # the highest die, on the terrain with the most uses left (turn by turn, a varied map)
            terrain, die = max(st["announce"], key=lambda a: (a[1], st["uses"][a[0] - 1], (a[0] + st["turn"]) % 6))
            k = st["dice"].index(die)
            self._click(page, f"button.sk-terrain-{terrain}", f"terrain {terrain}")
            st = self.wait_change(page, serial)
            serial = st["serial"]
            self._click(page, f"button.sk-die-{k}", f"die {die}")
        elif st["pick"]:
            value = max(st["pick"])
            k = self._free_die(page, st, value)
            self._click(page, f"button.sk-die-{k}", f"pick {value}")
        elif st["bank"]:
            code = max(st["bank"], key=lambda c: st["scores"].get(c, 0))
            self._click(page, f"button.sk-bank-{code}", f"bank {code}")
        elif 1 in st["power"] and self.powers_spent < 2:
            self.powers_spent += 1
            self._click(page, "button.sk-plus", "power +1")
        elif st["legal"]:
            q, r = st["legal"][0]
            x, y = hex_point(st["geometry"], q, r)
            self.actions.append(f"hex {q},{r}")
            click_canvas(page, x, y, touch=self.touch)
        elif st["pass"]:
            self._click(page, "button.sk-pass", "pass")
        else:
            raise HarnessError(f"nothing to do in state {st}")
        return self.wait_change(page, serial)

    def _free_die(self, page: Any, st: dict[str, Any], value: int) -> int:
        for k, v in enumerate(st["dice"]):
            if v == value and page.locator(f"button.sk-die-{k}").first.is_enabled():
                return k
        raise HarnessError(f"no enabled die button shows {value}")

    def _click(self, page: Any, selector: str, what: str) -> None:
        self.actions.append(what)
        press(page.locator(selector).first, self.touch)

    def play_to_end(self, page: Any, max_steps: int = 600) -> int:
        """Play until the game is over; returns the number of actions."""
        st = page_state(page)
        for n in range(max_steps):
            if st["over"]:
                return n
            st = self.step(page, st)
        raise HarnessError(f"the game did not end within {max_steps} actions")
