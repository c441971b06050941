"""The "luck or choices?" panel in Voila (issue 16, part 4): an Avenue game played to its end by clicks, then the
panel read as a player sees it, at 1280, 1024 and 390 px; the Hint button draws on the sheet and plays nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from avenue_driver import AvenueDriver, play_to_the_end
from voila_harness import assert_no_traceback, status_text

pytestmark = pytest.mark.browser

CODE = "AV-0000-001A"


def panel_text(p: Any) -> str:
    return p.locator(".sk-luck").first.inner_text()


def test_an_avenue_game_to_its_end_fills_the_panel_at_three_widths(repo_server, page, artifacts):
    p = page.page
    d = AvenueDriver(code=CODE, bots="greedy")
    p.goto(repo_server.url(d.notebook, d.query))
    d.wait_ready(p)
    assert "When your game ends" in panel_text(p)
    # the Hint: the status line names the expert's move (when the game has an expert), nothing is played
    hint = p.locator(".sk-hint")
    if hint.is_enabled():
        before = d.road_cells(p)
        hint.click()
        p.wait_for_function("() => /Hint: /.test(document.querySelector('.sk-status').innerText)", timeout=60_000)
        assert d.road_cells(p) == before
    play_to_the_end(p, d)
    # the panel: a progress bar while it works (it may be done before we look), then the figures
    p.wait_for_function("() => /Your score/.test((document.querySelector('.sk-luck-figures') || {}).innerText || '')",
                        timeout=180_000)
    text = panel_text(p)
    score = re.search(r"You scored (−?\d+)", status_text(p).replace("Game over: you", "You"))
    shown = p.locator(".sk-luck-num").first.inner_text().strip()
    if score:
        assert shown == score.group(1).replace("−", "-") or shown == score.group(1)
    assert not p.locator(".sk-luck-progress").is_visible()
    expert = "The expert on your deal" in text
    if expert:
        assert re.search(r"Your choices", text)
        rows = p.locator(".sk-luck-decision")
        rows.first.wait_for(timeout=30_000)
        assert 1 <= rows.count() <= 3 and "Decision" in rows.first.inner_text()
        assert re.search(r"cost about \d+ points?", rows.first.inner_text())
    assert_no_traceback(p)
    for w, h in ((1280, 900), (1024, 768), (390, 844)):
        p.set_viewport_size({"width": w, "height": h})
        p.wait_for_timeout(400)
        p.locator(".sk-luck").first.evaluate("e => e.scrollIntoView({block: 'start'})")
        p.wait_for_timeout(300)
        box = p.evaluate("""() => { const r = document.querySelector('.sk-luck').getBoundingClientRect();
            const wide = Array.from(document.querySelectorAll('.sk-luck *')).map(e => e.getBoundingClientRect().right);
            return {right: Math.max(r.right, ...wide), width: window.innerWidth}; }""")
        assert box["right"] <= box["width"] + 1, f"at {w} px the panel runs past the right edge: {box}"
        p.screenshot(path=str(artifacts / f"luck-panel-{w}.png"))
