"""The Avenue dashboard end to end, as a player sees it: Voila serves notebooks/avenue.ipynb to
headless Chromium; a seeded game against two bots is played to the end by clicking cells the sheet
shows as legal; the saved record replays (CLI) to the breakdown on the page; Load restores it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from typing import Any

import numpy as np
import pytest
from avenue_driver import DRAW, OVER, AvenueDriver, play_to_the_end
from voila_harness import (
    assert_no_traceback,
    canvas_info,
    close_page,
    region_pixels,
    save_record,
    wait_ready,
)

pytestmark = pytest.mark.browser

CODE = "AV-0000-001A"
BOTS = "greedy,random"
# Chromium offline cannot fetch Voila's FontAwesome CSS from its CDN; that is not our page failing.
IGNORED_CONSOLE = ("Failed to load resource",)


def breakdown_rows(page: Any) -> list[list[str]]:
    """The end-of-game table as shown: one list of cell texts per ``tr[data-player]``, in player order."""
    rows = page.evaluate("""() => Array.from(document.querySelectorAll('.sk-breakdown tr[data-player]'))
        .map(tr => [tr.dataset.player, ...Array.from(tr.querySelectorAll('td')).map(td => td.innerText.trim())])""")
    rows.sort(key=lambda r: int(r[0]))
    return [r[1:] for r in rows]


def expected_rows(cli: dict[str, Any]) -> list[list[str]]:
    """What the table must show for the CLI's breakdown: name, farm boxes, castles, penalty, total, place."""
    out = []
    for b in cli["breakdown"]:
        farms = [f"{f['farm']} {f['box']}" for f in b["farms"]]
        place = f"{b['placing']}" + {1: "st", 2: "nd", 3: "rd"}.get(b["placing"], "th")
        out.append([b["player"], *farms, str(b["castles"]["purple"]), str(b["castles"]["green"]),
                    str(b["penalty"]), str(b["total"]), place])
    return out


def eventually(check: Any, what: str, timeout: float = 10) -> None:
    """Poll ``check()`` until true (the canvas message and the text updates arrive separately)."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def assert_fits_1280x800(page: Any, when: str) -> None:
    """The whole table (sheet, panel, log) fits a 1280×800 window without scrolling (look.md)."""
    box = page.evaluate("""() => { const r = document.querySelector('.sk-table').getBoundingClientRect();
        return {bottom: r.bottom + window.scrollY, right: r.right + window.scrollX}; }""")
    assert box["bottom"] <= 800 and box["right"] <= 1280, f"{when}: the table needs {box} px, more than 1280×800"


def page_errors(page_fixture: Any) -> list[str]:
    return [e for e in page_fixture.errors if not any(s in e for s in IGNORED_CONSOLE)]


def test_play_a_seeded_game_to_the_end_then_save_replay_and_load(repo_server, page, artifacts, tmp_path):
    p = page.page
    d = AvenueDriver(code=CODE, bots=BOTS)
    p.goto(repo_server.url(d.notebook, d.query))
    d.wait_ready(p)
    assert p.locator(".sk-code").inner_text().strip() == CODE
    assert_fits_1280x800(p, "at the start")

    seen = play_to_the_end(p, d)
    assert seen["peeked"] and seen["illegal"]
    status = d.status(p)
    p.locator(".sk-end").wait_for(state="visible", timeout=15_000)   # its own message, after the status line
    assert_fits_1280x800(p, "at the end")
    assert_no_traceback(p)

    # Save: the record downloads, and the CLI's replay agrees with the breakdown on the page.
    saved = artifacts / "avenue-finished.json"
    name, record = save_record(p, saved)
    assert name == f"avenue-{CODE}-final.json"
    mine = [e["action"] for e in record["log"] if e.get("player") == 0]
    assert [(a["row"], a["col"]) for a in mine if a["type"] == "draw"] == d.clicked
    assert [a["type"] for a in mine].count("peek") == 1
    cli = json.loads(subprocess.run([sys.executable, "-m", "sheetkit", "replay", "--json", str(saved)],
                                    capture_output=True, text=True, check=True, cwd=tmp_path).stdout)
    assert cli["final"] is True
    shown = breakdown_rows(p)
    assert shown == expected_rows(cli), f"page breakdown {shown} != CLI replay {expected_rows(cli)}"
    assert [b["player"] for b in cli["breakdown"]] == ["You", "Greedy bot", "Random bot"]
    you = cli["breakdown"][0]
    total = f"−{-you['total']}" if you["total"] < 0 else str(you["total"])   # a true minus sign, as on the sheet
    assert f"with {total}." in status, status
    assert f"{total} point" in p.locator(".sk-end-summary").inner_text()

    # The sheet's pixels: a road in every cell clicked, in no other.
    roads = d.road_cells(p)
    first, never = d.clicked[0], next((r, c) for r in range(d.rows) for c in range(d.cols) if (r, c) not in d.clicked)
    assert first in roads, f"no road drawn in the clicked cell {first}"
    assert never not in roads, f"a road is drawn in {never}, which was never clicked"
    assert roads == set(d.clicked), f"roads drawn {sorted(roads)} != cells clicked {sorted(d.clicked)}"
    info = canvas_info(p)
    finished = region_pixels(p, 0, 0, info["width"], info["height"])
    p.locator(".sk-table").screenshot(path=str(artifacts / "avenue-finished.png"))

    # New game clears the sheet; Load of the saved record restores the finished game.
    p.locator(".sk-new").click()
    d.wait_status(p, DRAW, previous=status)
    eventually(lambda: d.road_cells(p) == set(), "New game gives a clean sheet")
    with p.expect_file_chooser() as chooser:
        p.locator(".sk-load").click()
    chooser.value.set_files(str(saved))
    loaded = d.wait_status(p, re.compile("Record loaded"))
    assert OVER.search(loaded), loaded
    assert p.locator(".sk-code").inner_text().strip() == CODE
    assert breakdown_rows(p) == shown
    eventually(lambda: d.road_cells(p) == set(d.clicked), "the loaded record's roads are drawn where you drew them")
    # The restored sheet is drawn in one go, the played one move by move: they may differ only in
    # a few antialiased pixels where a road ends on a cell edge (under 0.01 %, never by much).
    restored = region_pixels(p, 0, 0, info["width"], info["height"])
    diff = np.abs(restored.astype(int) - finished.astype(int)).max(axis=2)
    assert (diff > 64).sum() == 0 and (diff > 0).mean() < 1e-4, (
        f"the loaded sheet differs from the finished one in {(diff > 0).sum()} pixels (max {diff.max()})")
    assert_no_traceback(p)
    assert not page_errors(page), page_errors(page)


def test_landing_page_lists_the_games_and_each_link_opens_its_table(repo_server, page):
    p = page.page
    p.goto(repo_server.url("notebooks/index.ipynb"))
    table = p.locator("table.sk-games")
    table.wait_for(state="visible", timeout=60_000)
    text = table.inner_text()
    for game in ("Avenue", "Kingdom Maps", "Key Harvest"):
        assert game in text
    links = p.evaluate("() => Array.from(document.querySelectorAll('table.sk-games a'))"
                       ".map(a => [a.innerText.trim(), a.href])")
    assert [label for label, _ in links][:4] == ["Play Avenue", "against the greedy bot", "solo", "against three bots"]
    widths: dict[str, float] = {}
    for label, href in links:
        # JupyterLab's HTML renderer gives output links target=_blank: each opens a new tab.
        with p.context.expect_page() as tab:
            p.get_by_role("link", name=label, exact=True).click()
        game = tab.value
        try:
            assert game.url == href
            wait_ready(game)
            assert_no_traceback(game)
            if "avenue.ipynb" in href:
                wait_ready(game, DRAW)
                opp = game.locator(".sk-opponents")
                widths[label] = opp.bounding_box()["width"] if opp.is_visible() else 0.0
        finally:
            close_page(game)
    one = widths["Play Avenue"]
    assert one > 0 and widths["against the greedy bot"] == one
    assert widths["solo"] == 0.0, "solo: no opponents' sheets"
    assert widths["against three bots"] == pytest.approx(3 * one), "three bots: three small sheets"
    assert not page_errors(page), page_errors(page)

