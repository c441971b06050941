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
    ("notebooks/lessons/key_harvest_bids.ipynb", 3, 1),
    ("notebooks/lessons/luck_and_skill.ipynb", 3, 0),
    ("notebooks/classroom.ipynb", 5, 0),
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
    assert "sheetkit" in text or "Avenue" in text or "dice" in text or "class" in text


@pytest.mark.parametrize(("label", "heading"), [
    ("Lesson: how many cards does a round last?", "How many cards does a round last?"),
    ("Lesson: which die will be left for you?", "Which die will be left for you?"),
    ("Lesson: what is a bid worth?", "What is a bid worth?"),
    ("Lesson: how much of a game is luck?", "Luck or skill? Measuring how much of a game is luck"),
])
def test_each_lesson_link_on_the_landing_page_opens_that_lesson(repo_server, page, label, heading):
    p = page.page
    p.goto(repo_server.url("notebooks/index.ipynb", ""), timeout=120_000)
    link = p.get_by_role("link", name=label)
    link.wait_for(timeout=120_000)
    with p.context.expect_page(timeout=60_000) as opened:   # Voila opens output links in a new tab
        link.click()
    lesson = opened.value
    try:
        # The lesson's own dashboard, not a file listing (the old folder link showed the repository root).
        # Voila runs the lesson before it answers: on a loaded machine that takes a while.
        lesson.wait_for_url("**/voila/render/notebooks/lessons/*.ipynb", timeout=240_000, wait_until="commit")
        lesson.get_by_role("heading", name=heading).wait_for(timeout=240_000)
        settled(lesson, ".jupyter-widgets", 2)
        text = page_text(lesson)
        assert WIDGET_ERROR not in text
        assert_no_traceback(lesson)
    finally:
        lesson.close()
