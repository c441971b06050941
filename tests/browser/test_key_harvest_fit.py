"""Key Harvest fits the screens of issues #9 and #10 with the next action on the first screen.

At 1024x768 (a projector) and 1280x800 (a laptop), at the start of your turn, without scrolling: the
status line, the action buttons, the counters behind your screen, every registry tile and every
store tile (with bids on them, a few turns into a seeded game). The town tiles are found where the
table says they are (``.sk-kh-state``: canvas pixels) and mapped through the town canvas's shown size
to page points, the way a click would. On a 390x844 phone the page never scrolls sideways.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from key_harvest_driver import KeyHarvestDriver, click_canvas_at, page_state
from sheetkit.widgets import theme
from sheetkit.widgets.key_harvest.town import EV_FONT, EV_W, REG_R, STORE_R, event_lines
from sheetkit.widgets.theme import SCALE
from voila_harness import assert_no_traceback, close_page

from sheetkit.games.key_harvest.crops import CROPS
from sheetkit.games.key_harvest.events import EVENT_LIST

pytestmark = pytest.mark.browser

CODE = "KH-0000-0007"
CONTROLS = (".sk-status", ".sk-act-harvest", ".sk-act-worker", ".sk-act-buy", ".sk-act-bid", ".sk-end-turn",
            ".sk-undo", ".sk-screen", ".sk-add-wine", ".sk-add-wheat")

JS_BOXES = """(sels) => Object.fromEntries(sels.map((s) => { const e = document.querySelector(s);
  if (!e) return [s, null]; const r = e.getBoundingClientRect();
  return [s, {left: r.left, top: r.top, right: r.right, bottom: r.bottom}]; }))"""
# Town tile centres (canvas px) → page points through the canvas's shown size; with the tile's radius
# in page px so the whole tile, not only its centre, must be on screen.
JS_TOWN = """([pts, radius]) => { const c = document.querySelector('.sk-town'), r = c.getBoundingClientRect();
  const k = r.width / c.width;
  return Object.fromEntries(Object.entries(pts).map(([key, [x, y]]) => [key,
    {x: r.left + x * k, y: r.top + y * r.height / c.height, r: radius[key.split(':')[0]] * k}])); }"""
JS_TOP = "() => { const c = document.querySelector('#rendered_cells'); if (c) c.scrollTop = 0; window.scrollTo(0, 0); }"
JS_SIDEWAYS = """() => { const cells = document.querySelector('#rendered_cells') || document.scrollingElement;
  return [document.scrollingElement.scrollWidth - innerWidth, cells.scrollWidth - cells.clientWidth]; }"""


def start_of_a_turn_with_bids(page: Any, driver: KeyHarvestDriver, stores: int = 2) -> dict[str, Any]:
    """Play (by clicks) until it is your turn, nothing done yet, and ``stores`` stores hold tiles."""
    st = page_state(page)
    for _ in range(300):
        owners = {k.split(":")[1] for k in st["town"] if k.startswith("store:")}
        if st["mine"] and not st["done"] and not st["pending"] and len(owners) >= stores:
            return st
        st = driver.step(page, st)
    raise AssertionError(f"no turn start with {stores} stores holding tiles: {st}")


def off_screen(page: Any, st: dict[str, Any], w: int, h: int) -> list[str]:
    """What of the next action is not wholly inside the w x h screen."""
    page.set_viewport_size({"width": w, "height": h})
    page.wait_for_timeout(400)
    page.evaluate(JS_TOP)
    bad = []
    for sel, r in page.evaluate(JS_BOXES, list(CONTROLS)).items():
        if not r or r["left"] < 0 or r["top"] < 0 or r["right"] > w or r["bottom"] > h:
            bad.append(f"{sel} at {r}")
    radius = {"registry": REG_R * SCALE, "store": (STORE_R + 2) * SCALE}    # canvas px, with the ring
    for key, p in page.evaluate(JS_TOWN, [st["town"], radius]).items():
        if p["x"] - p["r"] < 0 or p["y"] - p["r"] < 0 or p["x"] + p["r"] > w or p["y"] + p["r"] > h:
            bad.append(f"{key} at ({p['x']:.0f}, {p['y']:.0f})")
    return bad


@contextmanager
def table_page(repo_server: Any, browser: Any, w: int, h: int) -> Iterator[tuple[Any, KeyHarvestDriver]]:
    """The dashboard of the seeded deal at w x h, the table ready; closed after."""
    context = browser.new_context(viewport={"width": w, "height": h})
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        driver = KeyHarvestDriver(code=CODE, bots="greedy,greedy")
        page.goto(repo_server.url(driver.notebook, driver.query))
        driver.wait_ready(page)
        yield page, driver
        assert_no_traceback(page)
    finally:
        close_page(page)
        context.close()


def test_the_next_action_fits_a_projector_and_a_laptop_and_a_phone_never_scrolls_sideways(repo_server, browser):
    with table_page(repo_server, browser, 1024, 768) as (page, driver):
        st = start_of_a_turn_with_bids(page, driver, stores=3)
        stores = [k for k in st["town"] if k.startswith("store:")]
        registry = [k for k in st["town"] if k.startswith("registry:")]
        assert len(registry) == 6 and len(stores) >= 2, st["town"]
        for w, h in ((1024, 768), (1280, 800)):
            assert off_screen(page, st, w, h) == [], f"at {w}x{h} the next action needs scrolling"
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_timeout(400)
        assert max(page.evaluate(JS_SIDEWAYS)) <= 0, "the phone page scrolls sideways"
        board = page.evaluate(JS_BOXES, [".sk-board", ".sk-town"])
        assert all(b["right"] <= 390 for b in board.values()), board


JS_IN_VIEW = """(sels) => Object.fromEntries(sels.map((s) => { const e = document.querySelector(s);
  if (!e) return [s, null]; const r = e.getBoundingClientRect();
  return [s, r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth]; }))"""
JS_ICON_OFFSET = """(sel) => { const b = document.querySelector(sel), i = b.querySelector('i');
  const rb = b.getBoundingClientRect(), ri = i.getBoundingClientRect();
  return (ri.top + ri.bottom) / 2 - (rb.top + rb.bottom) / 2; }"""


def test_on_a_phone_choosing_a_registry_tile_brings_your_counters_and_confirm_into_view(repo_server, browser,
                                                                                      artifacts):
    """issue #15 part 4: the town lies under your board on a phone, far below the counters; after a tap on a registry
    tile the next step (your counters, Confirm bid) is on screen, and Confirm bid's icon sits on its text line."""
    with table_page(repo_server, browser, 390, 844) as (page, driver):
        st = page_state(page)
        for _ in range(100):
            if st["mine"] and not st["pending"] and st["handoff"] is None and st["bid"] and sum(st["counters"]):
                break
            st = driver.step(page, st)
        code = st["bid"][0]
        driver.actions.append(f"choose {code}")
        click_canvas_at(page, ".sk-town", *st["town"][f"registry:{code}"])    # scrolls the town into view first
        st = driver.wait_change(page, st["serial"])
        try:       # the table focuses your first counter, which scrolls it into view
            page.wait_for_function("() => document.activeElement?.matches('[class*=sk-add-]')", timeout=8000)
        except Exception:
            pass   # (no focus: the check below says what is off screen)
        page.wait_for_timeout(600)
        page.screenshot(path=str(artifacts / "key-harvest-390-bid-composer.png"))
        counters = [f".sk-add-{c}" for c in CROPS]
        seen = page.evaluate(JS_IN_VIEW, [*counters, "button.sk-confirm-bid", ".sk-bidline"])
        assert all(seen.values()), f"after choosing {code}, off screen: {[s for s, v in seen.items() if not v]}"
        assert abs(page.evaluate(JS_ICON_OFFSET, "button.sk-confirm-bid")) <= 2, "the gavel sits on the text line"
        assert abs(page.evaluate(JS_ICON_OFFSET, "button.sk-clear-bid")) <= 2
        # the same for a worker: once picked (below the action buttons), its tinted spaces are on your board
        wid = st["place"][0].split("@")[0]
        st = driver._button(page, "button.sk-act-worker", "worker", st)
        st = driver._button(page, f"button.sk-worker-{wid}", f"pick {wid}", st)
        page.wait_for_timeout(800)
        page.screenshot(path=str(artifacts / "key-harvest-390-worker-picked.png"))
        assert page.evaluate(JS_IN_VIEW, [".sk-board"])[".sk-board"], "the board is off screen after picking a worker"


def test_every_event_name_fits_its_space_on_the_town_board(browser):
    """issue #15 part 4: "Farmhands' holiday" was squeezed into its 41 px space; each line of each event's name, in
    the town's font as Chromium measures it, fits the space (the canvas would squeeze a wider one)."""
    page = browser.new_page()
    try:
        font = theme.font(EV_FONT, theme.FONT_INK, "bold")
        lines = {e.name: event_lines(e.name) for e in EVENT_LIST}
        widths = page.evaluate("""([font, lines]) => { const c = document.createElement('canvas').getContext('2d');
          c.font = font; return Object.fromEntries(Object.entries(lines).map(([n, ls]) =>
            [n, ls.map((l) => c.measureText(l).width)])); }""", [font, lines])
        too_wide = {n: w for n, w in widths.items() if max(w) > EV_W - 2 + 1.5}   # 1.5 px: a squeeze nobody sees
        assert too_wide == {}, too_wide
        assert all(len(ls) <= 3 for ls in lines.values())
    finally:
        page.close()
