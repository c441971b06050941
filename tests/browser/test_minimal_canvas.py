"""The harness itself, on the baseline notebook (benchmarks/minimal_canvas.ipynb): Voila serves it,
Chromium draws it, a click reaches the kernel and its fill comes back, pixels read back right."""

from __future__ import annotations

import pytest
from avenue_driver import MinimalDriver
from voila_harness import JS_HELPERS, assert_no_traceback, canvas_info, click_canvas, region_pixels

pytestmark = pytest.mark.browser


def test_minimal_canvas_click_fills_only_that_cell(repo_server, page):
    p = page.page
    d = MinimalDriver()
    p.goto(repo_server.url(d.notebook, d.query))
    d.wait_ready(p)
    info = canvas_info(p)
    assert (info["width"], info["height"]) == (2 * d.width, 2 * d.height), "drawn at 2× like the Avenue sheet"
    assert (info["cssWidth"], info["cssHeight"]) == (d.width, d.height)

    before = region_pixels(p, 0, 0, info["width"], info["height"])
    x, y, w, h = d.cell_rect(3, 2)
    click_canvas(p, x + w / 2, y + h / 2)
    # The fill is blue-ish (first click on a cell) at the cell's centre.
    p.wait_for_function(JS_HELPERS + ";(a) => { const d = window.__sk.region(a[0], a[1], 1, 1); "
                        "return d[2] > 150 && d[0] < 100; }", arg=[x + w // 2, y + h // 2], timeout=15_000)
    after = region_pixels(p, 0, 0, info["width"], info["height"])
    rows, cols = (before != after).any(axis=2).nonzero()
    assert rows.min() >= y and rows.max() < y + h, "pixels changed outside the clicked row"
    assert cols.min() >= x and cols.max() < x + w, "pixels changed outside the clicked column"
    assert_no_traceback(p)
    assert not [e for e in page.errors if "pageerror" in e], page.errors
