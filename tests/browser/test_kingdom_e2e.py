"""The Kingdom Maps dashboard end to end, as a player sees it: Voila serves notebooks/kingdom_maps.ipynb
to headless Chromium; a seeded solo game is played to the end by clicks (terrain and die buttons, hexes
the page says are legal, powers, ? banks, Confirm); the saved record replays (CLI) to the breakdown on
the page; the map's pixels show exactly the hexes drawn; Load restores the finished game."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from kingdom_driver import KingdomDriver, hex_point, page_state
from sheetkit.widgets.kingdom_maps.art import tint
from sheetkit.widgets.theme import PAPER
from voila_harness import JS_HELPERS, assert_no_traceback, canvas_info, click_canvas, save_record

from sheetkit.core.records import replay
from sheetkit.games.kingdom_maps import TERRAINS

pytestmark = pytest.mark.browser

CODE = "KM-0000-0005"
IGNORED_CONSOLE = ("Failed to load resource",)   # offline Chromium cannot fetch Voila's CDN fonts


def page_errors(page_fixture: Any) -> list[str]:
    return [e for e in page_fixture.errors if not any(s in e for s in IGNORED_CONSOLE)]


def breakdown_shown(page: Any) -> list[dict[str, Any]]:
    """The end-of-game table as shown: per ``tr[data-player]`` its criteria, ? box, total, placing, title."""
    rows = page.evaluate("""() => Array.from(document.querySelectorAll('.sk-breakdown tr[data-player]')).map(tr => ({
        player: +tr.dataset.player,
        name: tr.querySelector('td.sk-name').innerText.trim(),
        criteria: Object.fromEntries(Array.from(tr.querySelectorAll('td[data-code]'))
            .map(td => [td.dataset.code, +td.innerText])),
        q: +tr.querySelector('td.sk-q').innerText, total: +tr.querySelector('td.sk-total').innerText,
        place: tr.querySelector('td.sk-place').innerText.trim(),
        title: tr.querySelector('td.sk-title') ? tr.querySelector('td.sk-title').innerText.trim() : null}))""")
    return sorted(rows, key=lambda r: r["player"])


def expected(cli: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for p, b in enumerate(cli["breakdown"]):
        place = f"{b['placing']}" + {1: "st", 2: "nd", 3: "rd"}.get(b["placing"], "th")
        out.append({"player": p, "name": b["player"], "criteria": {c["code"]: c["score"] for c in b["criteria"]},
                    "q": b["question_total"], "total": b["total"], "place": place, "title": b.get("title")})
    return out


def pixels_at(page: Any, points: list[tuple[float, float]]) -> list[list[int]]:
    """RGB of the composited map canvas at each canvas-pixel point."""
    return page.evaluate(JS_HELPERS + """;(pts) => { const i = window.__sk.info();
        const d = window.__sk.composite(0, 0, i.width, i.height);
        return pts.map(([x, y]) => { const k = (Math.round(y) * i.width + Math.round(x)) * 4;
            return [d[k], d[k + 1], d[k + 2]]; }); }""", [list(p) for p in points])


def rgb(colour: str) -> list[int]:
    return [int(colour[k:k + 2], 16) for k in (1, 3, 5)]


def close(a: list[int], b: list[int], tol: int = 24) -> bool:
    return sum(abs(x - y) for x, y in zip(a, b, strict=True)) <= tol


def wait_error(p: Any, words: str) -> None:
    err = p.locator(".sk-status .sk-error")
    err.wait_for(state="visible", timeout=15_000)
    assert words in err.inner_text(), err.inner_text()


def test_play_a_seeded_solo_game_by_clicks_then_save_replay_and_load(repo_server, page, artifacts, tmp_path):
    p = page.page
    d = KingdomDriver(code=CODE)
    p.goto(repo_server.url(d.notebook, d.query))
    d.wait_ready(p)
    assert p.locator(".sk-code").inner_text().strip() == CODE
    info = canvas_info(p)
    assert info["width"] == 2 * info["cssWidth"], "the map is drawn at 2× its CSS size (HiDPI)"

    # A hex before announcing explains itself; nothing changes.
    st = page_state(p)
    x, y = hex_point(st["geometry"], 0, 0)
    click_canvas(p, x, y)
    wait_error(p, "First announce a terrain and take a die")

    # The first drawing by hand: announce, one hex, a hex away from it (refused), Undo the hex, then on.
    st = d.step(p, page_state(p))                       # terrain + die
    assert st["legal"] and not st["confirm"]
    first = st["legal"][0]
    st = d.step(p, st)                                  # the first hex: legal[0]
    far = next([q, r] for q in range(-4, 5) for r in range(-4, 5)
               if abs(q + r) <= 4 and [q, r] not in st["legal"] and [q, r] != first)
    click_canvas(p, *hex_point(st["geometry"], *far))
    wait_error(p, "")
    assert page_state(p)["legal"] == st["legal"], "a refused hex changes nothing"
    serial = page_state(p)["serial"]
    p.locator("button.sk-undo").click()
    st = d.wait_change(p, serial)
    assert first in st["legal"] and not st["confirm"], "Undo gave the hex back"

    actions = d.play_to_end(p)
    assert actions > 40
    # The hidden state says "over" a message before the status line does (the status line comes last).
    p.locator(".sk-status").filter(has_text="Game over").wait_for(timeout=15_000)
    status = p.locator(".sk-status").inner_text()
    assert status.startswith("Game over: you scored"), status
    p.locator(".sk-end").wait_for(state="visible", timeout=15_000)   # its own message, after the status line
    p.locator(".sk-km-title").wait_for(state="visible", timeout=15_000)
    assert_no_traceback(p)

    # Save: the record downloads; the CLI's replay agrees with the breakdown on the page.
    saved = artifacts / "kingdom-finished.json"
    name, record = save_record(p, saved)
    assert name == f"kingdom-maps-{CODE}-final.json"
    assert record["game"] == "kingdom-maps" and record["players"] == ["You"]
    cli = json.loads(subprocess.run([sys.executable, "-m", "sheetkit", "replay", "--json", str(saved)],
                                    capture_output=True, text=True, check=True, cwd=tmp_path).stdout)
    assert cli["final"] is True
    shown = breakdown_shown(p)
    assert shown == expected(cli), f"page breakdown {shown} != CLI replay {expected(cli)}"
    you = cli["breakdown"][0]
    assert f"you scored {you['total']} — {you['title']}" in status
    assert you["title"] in p.locator(".sk-end-summary").inner_text()
    used = [e["action"] for e in record["log"] if e.get("player") == 0]
    assert sum(a["type"] == "power" for a in used) >= 1, "the game spent a +1/-1 power by click"
    assert sum(a["type"] == "bank" for a in used) >= 1, "the game banked a ? by click"

    # The map's pixels: every hex the record drew shows its terrain's colour, every other hex is paper.
    state = replay(record)
    terrain_at = {state.board.coords[i]: t for i, t in enumerate(state.sheets[0].cells) if t}
    geo = page_state(p)["geometry"]
    probes = [(hx, hy - 0.75 * geo["size"]) for hx, hy in (hex_point(geo, q, r) for q, r in state.board.coords)]
    colours = pixels_at(p, probes)
    for (q, r), got in zip(state.board.coords, colours, strict=True):
        terrain = terrain_at.get((q, r), 0)
        want = rgb(tint(TERRAINS[terrain - 1].colour, 0.18)) if terrain else rgb(PAPER)
        assert close(got, want), f"hex {(q, r)}: pixel {got}, expected {want} (terrain {terrain})"
    p.locator(".sk-table").screenshot(path=str(artifacts / "kingdom-finished.png"))

    # New game clears the map; Load of the saved record restores the finished game exactly.
    p.locator(".sk-new").click()
    p.locator(".sk-status").filter(has_text="Choose a terrain").wait_for(timeout=30_000)
    with p.expect_file_chooser() as chooser:
        p.locator(".sk-load").click()
    chooser.value.set_files(str(saved))
    p.locator(".sk-status").filter(has_text="Record loaded").wait_for(timeout=30_000)
    assert breakdown_shown(p) == shown
    assert p.locator(".sk-code").inner_text().strip() == CODE
    p.wait_for_timeout(300)
    again = pixels_at(p, probes)
    assert all(close(a, b) for a, b in zip(again, colours, strict=True)), "the loaded map is drawn as it was"
    assert_no_traceback(p)
    assert not page_errors(page), page_errors(page)
