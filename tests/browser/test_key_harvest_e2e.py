"""The Key Harvest dashboard end to end, as a player sees it: Voila serves notebooks/key_harvest.ipynb to
headless Chromium; a seeded 3-player game (you + 2 greedy bots) is played to the end by clicks (board
spaces, registry and store tiles on the town canvas, the bid composer, choice buttons, End turn); the
saved record replays (CLI) to the breakdown on the page; screenshots at three screen sizes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from key_harvest_driver import KeyHarvestDriver, click_canvas_at, page_state
from voila_harness import REPO, assert_no_traceback, save_record

pytestmark = pytest.mark.browser

CODE = "KH-0000-0001"
IGNORED_CONSOLE = ("Failed to load resource",)   # offline Chromium cannot fetch Voila's CDN fonts
SHOTS = REPO / "docs" / "screenshots"


def page_errors(page_fixture: Any) -> list[str]:
    return [e for e in page_fixture.errors if not any(s in e for s in IGNORED_CONSOLE)]


def breakdown_shown(page: Any) -> list[dict[str, Any]]:
    """The end-of-game table as shown (a column per player): per player, every score cell ``td.<part>[data-player]``."""
    rows = page.evaluate("""() => { const out = {};
        for (const th of document.querySelectorAll('.sk-breakdown th[data-player]'))
          out[th.dataset.player] = {player: +th.dataset.player, name: th.innerText.trim()};
        const parts = {'sk-largest': 'largest', 'sk-second': 'second', 'sk-groups': 'group_points',
          'sk-workers': 'workers', 'sk-counters': 'counters', 'sk-counter-points': 'counter_points',
          'sk-total': 'total', 'sk-place': 'place'};
        for (const [cls, key] of Object.entries(parts))
          for (const td of document.querySelectorAll('.sk-breakdown td.' + cls + '[data-player]'))
            out[td.dataset.player][key] = key === 'place' ? td.innerText.trim() : +td.innerText;
        return Object.values(out); }""")
    return sorted(rows, key=lambda r: r["player"])


JS_BREAKDOWN_FIT = """() => { const box = document.querySelector('.sk-breakdown'), e = box.getBoundingClientRect();
  const cells = Array.from(document.querySelectorAll('.sk-breakdown td, .sk-breakdown th'));
  const hidden = cells.filter(c => c.getBoundingClientRect().right > e.right + 0.5).map(c => c.innerText);
  const bg = getComputedStyle(box);
  return {right: document.querySelector('.sk-end').getBoundingClientRect().right, width: innerWidth, hidden,
          scrolls: box.scrollWidth > box.clientWidth + 1,
          cue: bg.backgroundImage.includes('radial-gradient') && bg.backgroundAttachment.includes('local')}; }"""


def expected(cli: dict[str, Any]) -> list[dict[str, Any]]:
    keys = ("largest", "second", "group_points", "workers", "counters", "counter_points", "total")
    out = []
    for p, b in enumerate(cli["breakdown"]):
        place = f"{b['placing']}" + {1: "st", 2: "nd", 3: "rd"}.get(b["placing"], "th")
        out.append({"player": p, "name": b["player"], **{k: b[k] for k in keys}, "place": place})
    return out


JS_BOXES = """(sels) => Object.fromEntries(sels.map((s) => { const e = document.querySelector(s);
  if (!e) return [s, null]; const r = e.getBoundingClientRect();
  return [s, {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width}]; }))"""
JS_SIDEWAYS = """() => { const cells = document.querySelector('#rendered_cells') || document.scrollingElement;
  return [document.scrollingElement.scrollWidth - innerWidth, cells.scrollWidth - cells.clientWidth]; }"""


def cli_registry(path: Path) -> list[str]:
    """The registry of a saved game, from the engine's replay."""
    from sheetkit.core.records import load_record, replay

    return list(replay(load_record(path)).registry)


def shoot(browser: Any, url: str, size: tuple[int, int], path: Path) -> None:
    """A screenshot of the dashboard at ``size`` (the first screen, as a visitor sees it), and what fits."""
    w, h = size
    page = browser.new_page(viewport={"width": w, "height": h})
    try:
        page.goto(url)
        KeyHarvestDriver().wait_ready(page)
        page.wait_for_timeout(800)
        page.screenshot(path=str(path))
        assert max(page.evaluate(JS_SIDEWAYS)) <= 0, f"the page scrolls sideways at {w}x{h}"
        # the next action is on screen without scrolling; on a projector or a laptop the board, your
        # counters and the whole town (registry and stores) too
        need = [".sk-status", ".sk-act-harvest", ".sk-act-bid", ".sk-end-turn"]
        if w >= 1024:
            need += [".sk-board", ".sk-screen", ".sk-town"]
        boxes = page.evaluate(JS_BOXES, [*need, ".sk-board"])
        for sel in need:
            r = boxes[sel]
            assert r and r["left"] >= 0 and r["top"] >= 0 and r["right"] <= w and r["bottom"] <= h, \
                f"{sel} at {r} is not inside the {w}x{h} screen"
        assert boxes[".sk-board"]["width"] <= w - 20, "the board is scaled to the screen's width"
    finally:
        page.close()


def test_play_a_seeded_three_player_game_by_clicks_then_save_and_replay(repo_server, page, browser, artifacts,
                                                                       tmp_path):
    p = page.page
    d = KeyHarvestDriver(code=CODE, bots="greedy,greedy")
    url = repo_server.url(d.notebook, d.query)
    p.goto(url)
    d.wait_ready(p)
    assert p.locator(".sk-code").inner_text().strip() == CODE
    st = page_state(p)
    assert st["mine"], "with this deal the bots have moved and it is your turn"

    # An empty space explains itself in the status line; nothing changes.
    empty = next(c for c in st["board"] if c not in st["harvest"] and c not in st["place"])
    x, y = st["board"][empty]
    click_canvas_at(p, ".sk-board", x, y)
    err = p.locator(".sk-status .sk-error")
    err.wait_for(state="visible", timeout=15_000)
    assert "empty space" in err.inner_text()
    assert page_state(p)["done"] == []

    actions = d.play_to_end(p)
    assert actions > 20
    assert {"harvest", "bid", "end", "worker"} <= d.kinds, d.kinds
    assert any(k.startswith("choose-") for k in d.kinds), "a decision was answered by a button"
    assert d.focus_checks > 5, "after End turn the focus went to your board (checked in the driver)"
    # The hidden state says "over" a message before the status line does (the status line comes last).
    p.locator(".sk-status").filter(has_text="Game over").wait_for(timeout=15_000)
    status = p.locator(".sk-status").inner_text()
    assert status.startswith("Game over"), status
    p.locator(".sk-end").wait_for(state="visible", timeout=15_000)   # its own message, after the status line
    log = p.locator(".sk-log").inner_text()
    assert "Greedy bot" in log and "Game over" in log
    assert_no_traceback(p)

    saved = artifacts / "key-harvest-finished.json"
    name, record = save_record(p, saved)
    assert name == f"key-harvest-{CODE}-final.json"
    assert record["game"] == "key-harvest" and record["players"] == ["You", "Greedy bot", "Greedy bot 2"]
    cli = json.loads(subprocess.run([sys.executable, "-m", "sheetkit", "replay", "--json", str(saved)],
                                    capture_output=True, text=True, check=True, cwd=tmp_path).stdout)
    assert cli["final"] is True
    shown = breakdown_shown(p)
    assert shown == expected(cli), f"page breakdown {shown} != CLI replay {expected(cli)}"
    p.locator(".sk-table").screenshot(path=str(artifacts / "key-harvest-finished.png"))
    # The end box fits the screen and shows every column of the breakdown, nothing scrolled out of sight (issue
    # #15 part 4: at 1280x800 a 421 px table in a 352 px box hid the counters); should a table ever be wider than a
    # phone, its edge shows a shadow that says it scrolls.
    for w, h in ((1280, 800), (1024, 768), (390, 844)):
        p.set_viewport_size({"width": w, "height": h})
        p.wait_for_timeout(300)
        fit = p.evaluate(JS_BREAKDOWN_FIT)
        assert fit["right"] <= fit["width"] and fit["hidden"] == [] and not fit["scrolls"], f"at {w}x{h}: {fit}"
        p.locator(".sk-end").screenshot(path=str(artifacts / f"key-harvest-end-{w}.png"))
    p.set_viewport_size({"width": 220, "height": 700})      # narrower than any phone: the table must scroll
    p.wait_for_timeout(300)
    fit = p.evaluate(JS_BREAKDOWN_FIT)
    assert fit["scrolls"] and fit["cue"], fit
    p.locator(".sk-end").screenshot(path=str(artifacts / "key-harvest-end-220.png"))
    p.set_viewport_size({"width": 1280, "height": 800})

    # The live analysis below the table has followed the game: tile worth and the group trade-off.
    worth = p.locator(".sk-live table.sk-tile-worth")
    worth.wait_for(timeout=15_000)
    shown_codes = [c.strip() for c in worth.locator("tr[data-code] td:first-child").all_inner_texts()]
    assert shown_codes == [c for c in cli_registry(saved)], "the worth table lists the final registry"
    assert p.locator(".sk-live table.sk-groups").count() == 1 and p.locator(".sk-live svg.sk-tradeoff").count() >= 1
    assert not page_errors(page), page_errors(page)

    # The first screen at a phone, a projector and a laptop (kept in docs/screenshots/).
    SHOTS.mkdir(parents=True, exist_ok=True)
    for w, h in ((390, 844), (1024, 768), (1280, 800)):
        shoot(browser, url, (w, h), SHOTS / f"key-harvest-{w}x{h}.png")
