"""A reload loses nothing (issue 15, part 2): a few moves into each game, a reload (a new kernel) brings the game back
— the same sheet, the same score, the same turn — from the page's link; and a page whose kernel died says so,
with a Reload button that brings the game back too."""

from __future__ import annotations

import os
import re
import signal
from pathlib import Path
from typing import Any

import pytest
from avenue_driver import NEXT, AvenueDriver
from key_harvest_driver import KeyHarvestDriver
from key_harvest_driver import page_state as kh_state
from kingdom_driver import KingdomDriver
from kingdom_driver import page_state as km_state
from voila_harness import assert_no_traceback

pytestmark = pytest.mark.browser

WELCOME = "Your game is back where you left it."
RESUME = re.compile(r"resume=([A-Z0-9.\-]+)")


def resume_code_shown(page: Any) -> str:
    """The resume code under the table (and the same in the page's link)."""
    code = page.locator(".sk-resume-code").inner_text(timeout=15_000).strip()
    m = RESUME.search(page.url)
    assert m and m.group(1) == code, f"the link {page.url!r} does not carry the table's resume code {code!r}"
    return code


def wait_link(page: Any, before: str | None = None) -> str:
    """Wait until the page's link carries a resume code (a new one when ``before`` is given); return it."""
    page.wait_for_function("(before) => { const m = location.search.match(/resume=([^&]+)/);"
                           " return m && m[1] !== before; }", arg=before, timeout=20_000)
    return resume_code_shown(page)


def status(page: Any) -> str:
    return page.locator(".sk-status").first.inner_text().replace(WELCOME, "").strip()


def avenue_seen(page: Any, d: AvenueDriver) -> dict[str, Any]:
    # the sheet cell by cell: the roads drawn and the cells tinted for the card now (its pixels differ in a few
    # anti-aliased edges of the tints between two drawings of the same sheet)
    return {"roads": sorted(d.road_cells(page)), "legal": d.legal_cells(page),
            "round": page.locator(".sk-info").inner_text(), "status": status(page), "code": resume_code_shown(page)}


def test_avenue_a_reload_and_a_dead_kernel_bring_the_game_back(repo_server, page):
    p, d = page.page, AvenueDriver(code="AV-0000-001A", bots="greedy")
    p.goto(repo_server.url(d.notebook, d.query))
    d.wait_ready(p)
    code = None
    for _ in range(4):
        row, col = d.wait_my_turn(p)[-1]
        d.draw(p, row, col)
        while NEXT.search(d.status(p)):
            d.press_next(p)
        code = wait_link(p, code)
    d.wait_my_turn(p)
    before = avenue_seen(p, d)
    assert len(before["roads"]) == 4, before

    p.reload()
    d.wait_ready(p)
    d.wait_my_turn(p)
    assert WELCOME in p.locator(".sk-status").first.inner_text()
    assert avenue_seen(p, d) == before

    # the kernel dies (a crash, a restart): the page says so, and Reload brings the game back
    pids = [pid for pid in repo_server.leftover_pids() if b"ipykernel" in Path(f"/proc/{pid}/cmdline").read_bytes()]
    assert pids
    for pid in pids:
        os.kill(pid, signal.SIGKILL)
    banner = p.locator(".sk-stopped")
    banner.wait_for(timeout=30_000)
    assert "This table has stopped — Reload to carry on." in banner.inner_text()
    assert banner.bounding_box()["y"] <= 1, "the banner is at the top of the screen"
    p.locator(".sk-stopped .sk-reload").click()
    d.wait_ready(p)
    d.wait_my_turn(p)
    assert avenue_seen(p, d) == before
    assert_no_traceback(p)
    # and the game goes on from there
    row, col = d.wait_my_turn(p)[0]
    d.draw(p, row, col)
    assert (row, col) in d.road_cells(p)


KH_KEYS = ("turn", "mine", "counters", "harvest", "buy", "bid", "done", "pending", "town", "board")


def test_key_harvest_a_reload_brings_the_game_back(repo_server, page):
    p, d = page.page, KeyHarvestDriver(code="KH-0000-0007", bots="greedy,greedy")
    p.goto(repo_server.url(d.notebook, d.query))
    d.wait_ready(p)
    st = kh_state(p)
    for _ in range(200):     # a few turns in, at the start of one of yours
        if st["turn"] >= 4 and st["mine"] and not st["done"] and not st["pending"] and st["handoff"] is None:
            break
        st = d.step(p, st)
    wait_link(p)
    p.wait_for_timeout(500)
    before = {k: kh_state(p)[k] for k in KH_KEYS}
    summary, code = p.locator(".sk-summary").first.inner_text(), resume_code_shown(p)

    p.reload()
    d.wait_ready(p)
    assert WELCOME in p.locator(".sk-status").first.inner_text()
    assert {k: kh_state(p)[k] for k in KH_KEYS} == before
    assert p.locator(".sk-summary").first.inner_text() == summary
    assert resume_code_shown(p) == code
    assert_no_traceback(p)


KM_KEYS = ("turn", "scores", "dice", "announce", "uses", "legal", "power", "over")


def test_kingdom_maps_a_reload_brings_the_game_back(repo_server, page):
    p, d = page.page, KingdomDriver(code="KM-0000-0005", bots="greedy")
    p.goto(repo_server.url(d.notebook, d.query))
    d.wait_ready(p)
    st = km_state(p)
    for _ in range(200):     # three turns in, at the start of a turn (the dice rolled, a terrain to choose)
        if st["turn"] >= 3 and st["announce"] and not st["confirm"]:
            break
        st = d.step(p, st)
    wait_link(p)
    p.wait_for_timeout(500)
    before = {k: km_state(p)[k] for k in KM_KEYS}
    code = resume_code_shown(p)

    p.reload()
    d.wait_ready(p)
    assert WELCOME in p.locator(".sk-status").first.inner_text()
    assert {k: km_state(p)[k] for k in KM_KEYS} == before
    assert resume_code_shown(p) == code
    assert_no_traceback(p)
