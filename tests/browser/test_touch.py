"""Touch screens play every table (issue #15 part 1): a phone (390×844) and a tablet (1024×768) with a touch screen
(``has_touch``, ``is_mobile``) play by taps only — sheets, boards, the registry, the dice and every button —
an Avenue game to its end, a Kingdom Maps game to its end (the phone; two turns on the tablet), a Key Harvest
harvest, bid and buy. Each tap makes exactly one
move, and reaches the kernel as touch events alone (ipycanvas cancels the touch, so the browser makes no mouse
click). On the phone a swipe in the strip beside a sheet scrolls the page, a swipe on the sheet moves nothing,
and every row of the page leaves room for a thumb (docs/architecture.md, "Touch").
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from avenue_driver import DRAW, NEXT, OVER, AvenueDriver, play_to_the_end
from key_harvest_driver import KeyHarvestDriver
from key_harvest_driver import page_state as kh_state
from kingdom_driver import KingdomDriver, hex_point
from kingdom_driver import page_state as km_state
from sheetkit.widgets.kingdom_maps.panels import die_rect
from voila_harness import (
    JS_CANVAS_POINT,
    REPO,
    assert_no_traceback,
    click_canvas,
    press,
    scroll_to,
    scroll_top,
    swipe,
    swipe_room,
)

pytestmark = pytest.mark.browser

SIZES = [(390, 844), (1024, 768), (1280, 800)]   # a phone, a tablet, a laptop with a touch screen
SHOTS = REPO / "docs" / "screenshots"
IGNORED_CONSOLE = ("Failed to load resource",)   # offline Chromium cannot fetch Voila's CDN fonts
THUMB = 44        # px: the narrowest room a thumb needs to start a swipe (a platform's minimum touch target)


def page_errors(page_fixture: Any) -> list[str]:
    return [e for e in page_fixture.errors if not any(s in e for s in IGNORED_CONSOLE)]


def sent(page_fixture: Any, mark: int = 0) -> Counter[str]:
    """The canvas events the page sent to the kernel since ``mark`` (touch_start, mouse_down, …)."""
    return Counter(kind.rsplit(":", 1)[1] for _, d, _, kind in page_fixture.frames.since(mark)
                   if d == "out" and "/custom:" in kind)


def only_taps(page_fixture: Any, canvas_taps: int, mark: int) -> None:
    """Every canvas move since ``mark`` reached the kernel as a tap: as many touches as taps, no mouse press."""
    events = sent(page_fixture, mark)
    assert events["mouse_down"] == 0, f"a mouse press reached the kernel: {events}"
    assert events["touch_end"] == canvas_taps == events["touch_start"], events


def opened(server: Any, touch_page: Any, size: tuple[int, int], driver: Any) -> tuple[Any, int, Any]:
    """The driver's table, opened on the touch screen and ready: (the page, its width, the driver)."""
    p = touch_page.page
    p.goto(server.url(driver.notebook, driver.query))
    driver.wait_ready(p)
    return p, size[0], driver


def assert_clean(touch_page: Any) -> None:
    """No traceback on the page, no error in the browser's console."""
    assert_no_traceback(touch_page.page)
    assert not page_errors(touch_page), page_errors(touch_page)


def rect(page: Any, selector: str) -> dict[str, float]:
    return dict(page.evaluate("""(s) => { const r = document.querySelector(s).getBoundingClientRect();
        return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height}; }""",
                              selector))


def check_swipes(p: Any, selector: str, spot: tuple[float, float], changed: Any) -> None:
    """On a phone: every row of the page has room for a thumb; a swipe in the strip right of the canvas
    ``selector`` scrolls the page; a swipe starting on it at canvas pixel ``spot`` (where a tap would move)
    moves nothing and scrolls nothing. ``changed()`` tells whether the table moved."""
    room = swipe_room(p)
    assert room["least"] >= THUMB, f"a row of the page {room['at']} px down has {room['least']} px to swipe in"
    scroll_to(p, selector)
    p.wait_for_timeout(200)
    r, width = rect(p, selector), p.evaluate("() => innerWidth")
    assert width - r["right"] >= THUMB, f"{selector} leaves {width - r['right']} px beside it"
    y0 = r["top"] + 0.6 * r["height"]
    before = scroll_top(p)
    swipe(p, (r["right"] + width) / 2, y0, y0 - 200)
    p.wait_for_timeout(800)                    # the fling settles
    assert scroll_top(p) - before >= 150, f"a 200 px swipe beside {selector} scrolled {scroll_top(p) - before} px"

    scroll_to(p, selector)
    p.wait_for_timeout(200)
    x, y = p.evaluate(JS_CANVAS_POINT, [selector, *spot])
    assert 150 < y < p.evaluate("() => innerHeight") - 150, f"the spot at {y} px down leaves no room to swipe over"
    before = scroll_top(p)
    swipe(p, x, y, y - 150)                     # from the spot where a tap would move, across the canvas
    p.wait_for_timeout(800)
    assert scroll_top(p) == before, "a swipe on a canvas scrolled the page (ipycanvas should have cancelled it)"
    assert not changed(), f"a swipe starting on {selector} made a move"


def shoot(p: Any, name: str, selector: str) -> None:
    """A screenshot of the phone's screen with ``selector`` (the sheet) near its top."""
    scroll_to(p, selector, top=12)
    p.wait_for_timeout(300)
    SHOTS.mkdir(parents=True, exist_ok=True)
    p.screenshot(path=str(SHOTS / f"{name}-touch-390x844.png"))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_avenue_by_taps(repo_server: Any, touch_page: Any, size: tuple[int, int]) -> None:
    """A whole game on the phone and the tablet; a few moves on the laptop, whose layout the tablet's shares."""
    p, w, d = opened(repo_server, touch_page, size, AvenueDriver(code="AV-0000-001A", bots="greedy", touch=True))
    if w < 500:
        legal = d.wait_my_turn(p)
        status = d.status(p)
        check_swipes(p, ".sk-sheet", d.cell_center(*legal[0]), lambda: d.status(p) != status)
    mark = touch_page.frames.mark()
    if w < 500 or w >= 1280:
        for _ in range(3):                      # a few moves (then how the phone looks)
            d.check_one_draw(p)
            while NEXT.search(d.status(p)):
                d.press_next(p)
        if w < 500:
            shoot(p, "avenue", ".sk-sheet")
    seen = {"illegal": False}
    if w < 1280:
        seen = play_to_the_end(p, d)            # peek, a refused tap on a road, Next card: all by taps
        assert seen["peeked"] and seen["illegal"] and OVER.search(d.status(p))
    assert d.road_cells(p) == set(d.clicked), "a road in every tapped cell, and in no other"
    only_taps(touch_page, len(d.clicked) + seen["illegal"], mark)   # and the refused one
    if w < 1280:
        over = d.status(p)          # read before the tap: a quick kernel may have answered by the next read
        press(p.locator(".sk-again"), touch=True)   # the same deal again, by a tap
        d.wait_status(p, DRAW, previous=over)
    assert_clean(touch_page)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_kingdom_maps_by_taps(repo_server: Any, touch_page: Any, size: tuple[int, int]) -> None:
    p, w, d = opened(repo_server, touch_page, size, KingdomDriver(code="KM-0000-0005", bots="greedy", touch=True))
    st = km_state(p)
    if w < 500:                                 # a tap on the map now would be refused: a swipe is not even that
        serial = st["serial"]
        check_swipes(p, ".sk-sheet", hex_point(st["geometry"], 0, 0), lambda: km_state(p)["serial"] != serial)
    mark, turn = touch_page.frames.mark(), st["turn"]
    # Announce by taps: a terrain button, then a die on the dice drawing.
    terrain, die = max(st["announce"], key=lambda a: a[1])
    press(p.locator(f"button.sk-terrain-{terrain}").first, touch=True)
    st = d.wait_change(p, st["serial"])
    x, y, dw, dh = die_rect(st["dice"].index(die))
    scale = p.evaluate("() => { const c = document.querySelector('.sk-dice'); "
                       "return c.width / parseFloat(c.style.width); }")
    click_canvas(p, (x + dw / 2) * scale, (y + dh / 2) * scale, ".sk-dice", touch=True)
    st = d.wait_change(p, st["serial"])
    assert not st["announce"] and st["legal"], f"tapping the die did not announce {terrain}, {die}"
    shot = w >= 500
    last = 10_000 if w < 500 else turn + 2      # the phone plays the game to its end, the tablet two turns
    for _ in range(600):                        # hexes, powers, ? banks, Confirm: by taps
        if st["turn"] >= last or st["over"]:
            break
        st = d.step(p, st)
        assert p.locator(".sk-status .sk-error").count() == 0, (d.actions[-3:], p.locator(".sk-status").inner_text())
        if not shot and st["turn"] > turn:
            shoot(p, "kingdom_maps", ".sk-sheet")
            shot = True
    assert st["over"] if w < 500 else st["turn"] >= turn + 2, d.actions[-6:]
    hexes = sum(a.startswith("hex") for a in d.actions)
    assert hexes > 0 and "confirm" in d.actions
    only_taps(touch_page, 1 + hexes, mark)      # the die and the hexes
    assert_clean(touch_page)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_key_harvest_harvest_bid_and_buy_by_taps(repo_server: Any, touch_page: Any, size: tuple[int, int]) -> None:
    p, w, d = opened(repo_server, touch_page, size,
                     KeyHarvestDriver(code="KH-0000-0007", bots="greedy,greedy", touch=True))
    st = kh_state(p)
    if w < 500:
        serial = st["serial"]
        check_swipes(p, ".sk-board", st["board"][st["harvest"][0]], lambda: kh_state(p)["serial"] != serial)
    mark, shot = touch_page.frames.mark(), False
    for _ in range(300):                        # the driver's plan: harvest, buy if offered, else bid; End turn
        if {"harvest", "bid", "buy"} <= d.kinds or st["over"]:
            break
        st = d.step(p, st)
        if w < 500 and not shot and {"harvest", "bid"} <= d.kinds:
            shoot(p, "key-harvest", ".sk-board")
            shot = True
    assert {"harvest", "bid", "buy"} <= d.kinds, (d.kinds, d.actions[-6:])
    # the driver's canvas taps: the board (harvest, a worker's space, a decision there) and the town (buy, bid)
    canvas_taps = sum(a.startswith(("harvest", "buy", "place")) or a.endswith((" on the board", " to bid"))
                      for a in d.actions)
    only_taps(touch_page, canvas_taps, mark)
    assert_clean(touch_page)
