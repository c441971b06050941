"""A click on a canvas that runs past the edge of the screen lands where the player clicked.

ipycanvas focuses a canvas on mousedown and measures it after that; without TABLE_CSS's scroll margin
the browser scrolls the canvas into view in between, and the click lands as many pixels off as the
page moved (found playing Key Harvest on a 1024x768 projector: a registry tile click missed its tile).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from avenue_driver import DRAW
from key_harvest_driver import KeyHarvestDriver, click_canvas_at, page_state
from voila_harness import close_page, wait_ready

SCROLLER = "() => { const c = document.querySelector('#rendered_cells'); return c ? c.scrollTop : window.scrollY; }"


@pytest.fixture
def projector_page(browser: Any) -> Any:
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    page.set_default_timeout(30_000)
    yield page
    close_page(page)
    context.close()


def test_a_registry_tile_below_the_fold_is_the_tile_clicked(repo_server: Any, projector_page: Any) -> None:
    """Key Harvest on a projector with the browser's bars (1024x640): the town board runs past the bottom;
    clicking a registry tile opens its bid."""
    page = projector_page
    # the whole town fits a full 1024x768 screen (test_key_harvest_fit.py); 128 px of browser bars do not
    page.set_viewport_size({"width": 1024, "height": 640})
    driver = KeyHarvestDriver(code="KH-0000-0007", bots="greedy,greedy")
    page.goto(repo_server.url("notebooks/key_harvest.ipynb", "code=KH-0000-0007&bots=greedy,greedy"))
    driver.wait_ready(page)
    st = page_state(page)
    bottom = page.evaluate("() => document.querySelector('.sk-town').getBoundingClientRect().bottom")
    assert bottom > 640, "the town board must run past the screen's bottom for this test to mean anything"
    code = st["bid"][min(3, len(st["bid"]) - 1)]
    before = page.evaluate(SCROLLER)
    click_canvas_at(page, ".sk-town", *st["town"][f"registry:{code}"])
    page.wait_for_function("(c) => document.querySelector('.sk-status').innerText.includes('Your bid for ' + c)",
                           arg=code, timeout=30_000)
    assert page.evaluate(SCROLLER) == before, "the page moved under the pointer"


def test_a_sheet_scrolled_half_out_of_view_draws_in_the_clicked_cell(repo_server: Any, projector_page: Any) -> None:
    """Avenue at 1024x768 with the sheet's top scrolled away: a click on row 7, column 1 draws there."""
    page = projector_page
    page.goto(repo_server.url("notebooks/avenue.ipynb", "code=AV-0000-001A&bots=none"))
    wait_ready(page, DRAW)
    page.evaluate("() => { const c = document.querySelector('#rendered_cells'); if (c) c.scrollTop = 160; "
                  "else window.scrollTo(0, 160); }")
    top = page.evaluate("() => document.querySelector('.sk-sheet').getBoundingClientRect().top")
    assert top < 0, "the sheet's top must be out of view for this test to mean anything"
    row, col = 6, 0                                 # 0-based: the bottom-left cell, empty on every layout
    click_canvas_at(page, ".sk-sheet", 2 * (28 + 54 * (col + 0.5)), 2 * (48 + 54 * (row + 0.5)))
    page.wait_for_function("() => /you: row \\d+, col \\d+/.test(document.querySelector('.sk-log').innerText)",
                           timeout=30_000)
    drawn = re.search(r"you: row (\d+), col (\d+)", page.locator(".sk-log").first.inner_text())
    assert drawn and (int(drawn[1]), int(drawn[2])) == (row + 1, col + 1), drawn and drawn.group(0)
