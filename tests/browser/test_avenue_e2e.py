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
from avenue_driver import DRAW, NEXT, OVER, AvenueDriver
from voila_harness import (
    JS_HELPERS,
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
PEEK_ROUND = 2            # peek on the first card of this round
ILLEGAL_AFTER = 3         # after this many roads, click an occupied cell once
OCCUPIED = "That cell already has a road — pick an empty one."
# Chromium offline cannot fetch Voila's FontAwesome CSS from its CDN; that is not our page failing.
IGNORED_CONSOLE = ("Failed to load resource",)


def sheet_hash(page: Any) -> int:
    """A hash of every pixel of the composited sheet."""
    return int(page.evaluate(JS_HELPERS + ";(() => { const i = window.__sk.info(); "
                                          "return window.__sk.hash(0, 0, i.width, i.height); })()"))


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


def round_shown(page: Any) -> tuple[int, str | None]:
    """The round number and farm letter in the round line ('Round 2 of 5 · farm D must beat 3 …')."""
    text = page.locator(".sk-info").inner_text()
    m = re.search(r"Round (\d+) of \d+(?: · farm ([A-Z]))?", text)
    return (int(m.group(1)), m.group(2)) if m else (0, None)


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


def play_to_the_end(p: Any, d: AvenueDriver) -> dict[str, Any]:
    """Play the game through the page; check the peek and an illegal click on the way."""
    seen: dict[str, Any] = {"peeked": None, "illegal": False}
    for _ in range(300):
        text = d.status(p)
        if OVER.search(text):
            return seen
        if NEXT.search(text):
            before_round = round_shown(p)[0]
            d.press_next(p)
            rnd, farm = round_shown(p)
            if seen["peeked"] and rnd == PEEK_ROUND + 1 and before_round == PEEK_ROUND:
                assert farm == seen["peeked"], f"peeked at farm {seen['peeked']}, round {rnd} flipped farm {farm}"
            continue
        assert DRAW.search(text), f"the status line should ask for a road: {text!r}"
        legal = d.wait_my_turn(p)
        assert p.locator(".sk-next").is_disabled(), "Next card must wait for your move"
        if d.clicked:       # after Next card (now disabled) the focus is on the sheet, not dropped to the page
            p.wait_for_function("() => { const cs = document.querySelectorAll('.sk-sheet canvas');"
                                " return document.activeElement === cs[cs.length - 1]; }", timeout=15_000)
        both = set(legal) & set(d.clicked)
        assert not both, f"cells with your roads are shown as legal: {both}"
        rnd, _ = round_shown(p)
        if rnd == PEEK_ROUND and seen["peeked"] is None:
            assert p.locator(".sk-peek").is_enabled()
            d.peek(p)
            p.wait_for_function("() => /next farm is/.test(document.querySelector('.sk-peekinfo').innerText)",
                                timeout=15_000)
            info = p.locator(".sk-peekinfo").inner_text()
            m = re.search(r"next farm is ([A-Z])", info)
            assert m, f"after a peek the table says which farm is next: {info!r}"
            seen["peeked"] = m.group(1)
            continue
        if len(d.clicked) == ILLEGAL_AFTER and not seen["illegal"]:
            click_an_occupied_cell(p, d)
            seen["illegal"] = True
        d.draw(p, *d.choose(legal))
    raise AssertionError(f"the game did not end within 300 steps; status: {d.status(p)!r}")


def click_an_occupied_cell(p: Any, d: AvenueDriver) -> None:
    """Clicking a cell that has a road explains itself in the status line and changes nothing."""
    row, col = d.clicked[0]
    before_text, before_pixels = d.status(p), sheet_hash(p)
    d.click_cell(p, row, col)
    err = p.locator(".sk-status .sk-error")
    err.wait_for(state="visible", timeout=15_000)
    assert err.inner_text().strip() == OCCUPIED
    status = d.status(p)
    assert DRAW.search(status), f"after a refused click it is still your move: {status!r}"
    assert status != before_text
    p.wait_for_timeout(300)          # a stray redraw would arrive within this
    assert sheet_hash(p) == before_pixels, "a refused click must not change the sheet"
    assert_no_traceback(p)


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

