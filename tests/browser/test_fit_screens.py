"""Every table fits the screen (issue #10): on a phone (390×844) and on 1024×768 and 1280×800 laptops
the sheet, the status line and the next action's controls are on screen without scrolling, nothing
scrolls sideways, clicks on a sheet scaled to a phone's width land in the right cell, and a refusal
in the status line does not move the buttons. Screenshots go to docs/screenshots/<game>-<w>x<h>.png.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from avenue_driver import NEXT, AvenueDriver
from kingdom_driver import KingdomDriver, page_state
from voila_harness import REPO, assert_no_traceback, canvas_info, click_canvas, close_page

pytestmark = pytest.mark.browser

VIEWPORTS = [(390, 844), (1024, 768), (1280, 800)]
SHOTS = REPO / "docs" / "screenshots"
# Chromium offline cannot fetch Voila's FontAwesome CSS from its CDN; that is not our page failing.
IGNORED_CONSOLE = ("Failed to load resource",)

# Where each part sits (viewport px, page scrolled to the top), and how far anything reaches sideways.
JS_LAYOUT = """(sels) => {
  const rect = (e) => { const r = e.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height}; };
  const out = {parts: {}};
  for (const s of sels) { const e = document.querySelector(s); out.parts[s] = e ? rect(e) : null; }
  const cells = document.querySelector('#rendered_cells') || document.scrollingElement;
  out.scroll = {docW: document.scrollingElement.scrollWidth, innerW: innerWidth, innerH: innerHeight,
                cellsW: cells.scrollWidth, cellsClientW: cells.clientWidth, top: cells.scrollTop + scrollY};
  // Visible table elements reaching past the right edge (would need a sideways scroll, inner or outer).
  out.wide = Array.from(document.querySelectorAll('.sk-table *')).filter((e) => {
    const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && r.right > innerWidth + 0.5;
  }).slice(0, 5).map((e) => e.tagName + '.' + e.className.toString().slice(0, 60));
  return out; }"""


def layout(page: Any, selectors: list[str]) -> dict[str, Any]:
    return dict(page.evaluate(JS_LAYOUT, selectors))


def assert_fits(lay: dict[str, Any], selectors: list[str], size: tuple[int, int]) -> None:
    """Each part lies wholly inside the viewport, and nothing scrolls sideways."""
    w, h = size
    sc = lay["scroll"]
    assert sc["top"] == 0, f"the page scrolled ({sc['top']} px) at {w}x{h}"
    assert sc["docW"] <= sc["innerW"], f"the page scrolls sideways at {w}x{h}: {sc}"
    assert sc["cellsW"] <= sc["cellsClientW"], f"the notebook scrolls sideways at {w}x{h}: {sc}"
    assert not lay["wide"], f"at {w}x{h} these reach past the right edge: {lay['wide']}"
    for sel in selectors:
        r = lay["parts"][sel]
        assert r is not None and r["width"] > 0 and r["height"] > 0, f"{sel} is not shown at {w}x{h}"
        inside = r["left"] >= 0 and r["top"] >= 0 and r["right"] <= w and r["bottom"] <= h
        assert inside, f"{sel} at {r} is not inside the {w}x{h} viewport"


def to_top(page: Any) -> None:
    """Scroll back to the top (Playwright scrolls a button into view when it must) before a screenshot."""
    page.evaluate("() => { const c = document.querySelector('#rendered_cells'); if (c) c.scrollTop = 0; "
                  "window.scrollTo(0, 0); }")


def top_of(page: Any, selector: str) -> float:
    return float(page.evaluate("(s) => document.querySelector(s).getBoundingClientRect().top", selector))


@pytest.fixture
def sized_page(browser: Any, request: pytest.FixtureRequest, artifacts: Any) -> Iterator[Any]:
    """A page of the viewport size the test is parametrized with (``size``)."""
    w, h = request.node.callspec.params["size"]
    context = browser.new_context(viewport={"width": w, "height": h})
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    page.on("console", lambda m: errors.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
    page.errors = errors   # type: ignore[attr-defined]
    try:
        yield page
    finally:
        rep = getattr(request.node, "rep_call", None)
        if rep is not None and rep.failed:
            try:
                page.screenshot(path=str(artifacts / f"FAILED-{request.node.name}.png"))
            except Exception:
                pass
        close_page(page)
        context.close()


def page_errors(page: Any) -> list[str]:
    return [e for e in page.errors if not any(s in e for s in IGNORED_CONSOLE)]


@pytest.mark.parametrize("size", VIEWPORTS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_avenue_fits_the_screen(repo_server: Any, sized_page: Any, size: tuple[int, int]) -> None:
    page, (w, h) = sized_page, size
    d = AvenueDriver()
    page.goto(repo_server.url(d.notebook))          # the default link: a fresh deal against the greedy bot
    d.wait_ready(page)
    parts = [".sk-sheet", ".sk-status", ".sk-next", ".sk-peek"]
    lay = layout(page, parts)
    assert_fits(lay, parts, size)
    info = canvas_info(page)
    if w < 500:   # a phone: the 500 px sheet is shown at the screen's width, its aspect ratio kept
        assert info["cssWidth"] <= w - 20 and info["cssWidth"] < 500, info
        assert abs(info["cssHeight"] / info["cssWidth"] - info["height"] / info["width"]) < 0.01, info
    else:
        assert info["cssWidth"] == 500, info

    # A refusal (a click beside the grid) shows its reason first without moving the buttons.
    next_top = top_of(page, ".sk-next")
    before = d.status(page)
    click_canvas(page, 10 * d.scale, 10 * d.scale)
    text = d.wait_status(page, re.compile("Click inside the grid"), previous=before)
    assert page.locator(".sk-status .sk-error").count() == 1, text
    assert top_of(page, ".sk-next") == next_top, f"the status line pushed Next card down: {text!r}"

    # A few moves by clicks: each road lands in the clicked cell (the driver checks the table's words),
    # which on a phone proves the scaled sheet maps clicks to cells.
    for _ in range(3):
        d.check_one_draw(page)
        while NEXT.search(d.status(page)):
            d.press_next(page)
    assert len(d.clicked) == 3
    lay = layout(page, parts)
    assert_fits(lay, parts, size)               # nothing had to scroll into view, nothing grew sideways
    assert_no_traceback(page)
    assert not page_errors(page), page_errors(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    to_top(page)
    page.screenshot(path=str(SHOTS / f"avenue-{w}x{h}.png"))


@pytest.mark.parametrize("size", VIEWPORTS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_kingdom_maps_fits_the_screen(repo_server: Any, sized_page: Any, size: tuple[int, int]) -> None:
    page, (w, h) = sized_page, size
    d = KingdomDriver(code="KM-0000-0005", bots="greedy")
    page.goto(repo_server.url(d.notebook, d.query))
    d.wait_ready(page)
    # The announcement's controls (dice, terrains) and Confirm, which ends every turn.
    parts = [".sk-sheet", ".sk-status", ".sk-die-0", ".sk-die-2", ".sk-terrain-1", ".sk-terrain-6", ".sk-confirm",
             ".sk-undo"]
    assert_fits(layout(page, parts), parts, size)
    info = canvas_info(page)
    if w < 700:
        assert info["cssWidth"] <= w - 20, info
        assert abs(info["cssHeight"] / info["cssWidth"] - info["height"] / info["width"]) < 0.01, info

    # The bot's map is legible: its canvas is not shrunk, and its hexes are 10 px in radius (17 px across).
    opp = page.evaluate("() => { const c = document.querySelector('.sk-opponents'); "
                        "return {w: c.getBoundingClientRect().width, cw: c.width}; }")
    assert opp["cw"] / opp["w"] == pytest.approx(2, rel=0.02), opp

    # A refusal (a click on the map's title, before announcing) does not move Confirm.
    confirm_top = top_of(page, ".sk-confirm")
    st = page_state(page)
    click_canvas(page, 20 * st["geometry"]["scale"], 10 * st["geometry"]["scale"])
    st = d.wait_change(page, st["serial"])
    assert page.locator(".sk-status .sk-error").count() == 1, page.locator(".sk-status").inner_text()
    assert top_of(page, ".sk-confirm") == confirm_top

    # Two whole turns by clicks (terrain, die, hexes on the possibly scaled map, Confirm).
    turn = st["turn"]
    for _ in range(80):
        if st["turn"] >= turn + 2 or st["over"]:
            break
        st = d.step(page, st)
        assert page.locator(".sk-status .sk-error").count() == 0, (d.actions[-3:],
                                                                    page.locator(".sk-status").inner_text())
    assert st["turn"] >= turn + 2, d.actions
    assert any(a.startswith("hex") for a in d.actions) and "confirm" in d.actions
    assert_fits(layout(page, parts[:3]), parts[:3], size)   # nothing had to scroll into view
    assert_no_traceback(page)
    assert not page_errors(page), page_errors(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"kingdom_maps-{w}x{h}.png"))
