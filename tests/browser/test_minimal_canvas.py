"""The harness itself, on the baseline notebook (benchmarks/minimal_canvas.ipynb): Voila serves it,
Chromium draws it, a click reaches the kernel and its fill comes back, pixels read back right."""

from __future__ import annotations

import pytest
from voila_harness import REPO, assert_no_traceback, canvas_info, click_canvas, region_pixels, wait_ready

pytestmark = pytest.mark.browser

CELL = 64


def test_minimal_canvas_click_fills_only_that_cell(repo_server, page):
    p = page.page
    p.goto(repo_server.url("benchmarks/minimal_canvas.ipynb"))
    wait_ready(p, "Ready")
    info = canvas_info(p)
    assert (info["width"], info["height"]) == (6 * CELL, 7 * CELL)

    before = region_pixels(p, 0, 0, info["width"], info["height"])
    click_canvas(p, 2 * CELL + CELL / 2, 3 * CELL + CELL / 2)            # cell (row 3, col 2)
    p.wait_for_function("""() => { const c = document.querySelector('.sk-sheet');
        const d = c.getContext('2d').getImageData(%d, %d, 1, 1).data; return d[2] > 150 && d[0] < 100; }"""
                        % (2 * CELL + CELL // 2, 3 * CELL + CELL // 2), timeout=15_000)
    after = region_pixels(p, 0, 0, info["width"], info["height"])
    changed = (before != after).any(axis=2)
    rows, cols = changed.nonzero()
    assert rows.min() >= 3 * CELL and rows.max() < 4 * CELL, "pixels changed outside the clicked row"
    assert cols.min() >= 2 * CELL and cols.max() < 3 * CELL, "pixels changed outside the clicked column"
    assert_no_traceback(p)
    assert not [e for e in page.errors if "pageerror" in e], page.errors
    assert REPO.exists()
