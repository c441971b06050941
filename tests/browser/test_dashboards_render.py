"""Every dashboard that is not a game table renders cleanly in Voila: the landing page, the what-if
explorer and the lessons show their widgets (the lessons' live ipympl figures included), with no
"Error displaying widget", no traceback and no error output."""

from __future__ import annotations

import time
from typing import Any

import pytest
from voila_harness import assert_no_traceback, page_text

pytestmark = pytest.mark.browser

WIDGET_ERROR = "Error displaying widget"


def settled(page: Any, selector: str, want: int, timeout: float = 90) -> int:
    """Wait until at least ``want`` elements match and their count has stopped changing."""
    deadline = time.monotonic() + timeout
    last, stable = -1, 0
    while time.monotonic() < deadline:
        n = page.locator(selector).count()
        stable = stable + 1 if n == last and n >= want else 0
        if stable >= 4:
            return n
        last = n
        time.sleep(0.5)
    return last


@pytest.mark.parametrize(("notebook", "widgets", "figures"), [
    ("notebooks/index.ipynb", 0, 0),
    ("notebooks/whatif.ipynb", 10, 0),
    ("notebooks/lessons/avenue_cards.ipynb", 2, 1),
    ("notebooks/lessons/kingdom_dice.ipynb", 2, 1),
])
def test_the_page_renders_without_widget_errors(repo_server, page, notebook, widgets, figures):
    p = page.page
    p.goto(repo_server.url(notebook, ""), timeout=120_000)
    p.wait_for_selector("body", timeout=120_000)
    settled(p, ".jupyter-widgets", widgets)
    if figures:
        assert settled(p, ".jupyter-matplotlib canvas", figures) >= figures, \
            "the live figure (ipympl) did not render: is its front end installed and pinned?"
    text = page_text(p)
    assert WIDGET_ERROR not in text, text[text.index(WIDGET_ERROR) - 300:][:600]
    assert_no_traceback(p)
    assert "sheetkit" in text or "Avenue" in text or "dice" in text
