"""The what-if explorer in Voila speaks of the game it runs: on ``whatif.ipynb?game=key-harvest`` the first
question, its answer and 'Reading the answer' are Key Harvest's, with no word of Avenue's (issue 15, part 5).
Screenshots at three window sizes go to docs/screenshots/."""

from __future__ import annotations

import pytest
from voila_harness import REPO, assert_no_traceback, at_screens, page_text

pytestmark = pytest.mark.browser

SHOTS = REPO / "docs" / "screenshots"
AVENUE_WORDS = ("0 box", "penalt", "yellow", "farm", "road", "rising")


def test_the_key_harvest_explorer_asks_and_explains_in_its_own_words(repo_server, page):
    p = page.page
    p.set_viewport_size({"width": 1280, "height": 800})
    p.goto(repo_server.url("notebooks/whatif.ipynb", "game=key-harvest"), timeout=180_000)
    question = p.locator(".sk-question").filter(has_text="Answered below")
    question.wait_for(timeout=180_000)
    assert "what if the second largest group scored 1 point per tile instead of 2?" in question.inner_text()
    assert "points per tile, 2nd group 2 → 1" in p.locator(".sk-results").inner_text()
    guide = p.locator(".sk-guide")
    assert "Reading the answer" in guide.inner_text() and "drawn from the bag" in guide.inner_text()
    text = page_text(p).lower()
    assert not [w for w in AVENUE_WORDS if w in text], [w for w in AVENUE_WORDS if w in text]
    assert_no_traceback(p)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for w, h in at_screens(p, ".sk-question"):
        p.screenshot(path=str(SHOTS / f"whatif-key-harvest-{w}x{h}.png"))
        overflow = p.evaluate("() => { const b = document.querySelector('.sk-whatif'); "
                              "return b.scrollWidth - b.clientWidth; }")
        assert overflow <= 0, (w, overflow)     # the page wraps on a phone: nothing cut off at the right
    p.set_viewport_size({"width": 1280, "height": 800})
    guide.evaluate("e => e.scrollIntoView({block: 'start'})")
    p.wait_for_timeout(200)
    p.screenshot(path=str(SHOTS / "whatif-key-harvest-guide-1280x800.png"))


def test_the_skill_share_button_shows_old_and_new_rules_skill_share(repo_server, page):
    p = page.page
    p.set_viewport_size({"width": 1280, "height": 800})
    p.goto(repo_server.url("notebooks/whatif.ipynb", "game=kingdom-maps"), timeout=180_000)
    p.locator(".sk-question").filter(has_text="Answered below").wait_for(timeout=180_000)
    panel = p.locator(".sk-panel").filter(has=p.locator(".sk-skill"))
    panel.locator("select").select_option("4")
    p.locator(".sk-skill").click()
    p.locator(".sk-wstatus").filter(has_text="Done: 4 of 4 deals").wait_for(timeout=300_000)
    table = p.locator(".sk-skill-table")
    text = table.inner_text()
    assert "skill share" in text and "hindsight" in text and "standard" in text
    assert "new − old, same deals (paired)" in text
    assert_no_traceback(p)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for w, h in at_screens(p, ".sk-skill-table"):
        p.screenshot(path=str(SHOTS / f"whatif-skill-share-{w}x{h}.png"))
        overflow = p.evaluate("() => { const b = document.querySelector('.sk-whatif'); "
                              "return b.scrollWidth - b.clientWidth; }")
        assert overflow <= 0, (w, overflow)
