"""The "luck or choices?" panel of Kingdom Maps and Key Harvest in Voila (issue 16, part 4): a game played to its end
(Kingdom Maps by taps on a phone, Key Harvest by mouse on a tablet), with the Hint button pressed on the way
(the expert's suggestion drawn on the sheet, nothing played, the result code marked); then the panel read as a
player sees it — your score, the expert on your deal, the best game on your deal with the dice or the bag known,
the three costliest decisions on their small sheets — at 390, 1024 and 1280 px, with a screenshot at each width."""

from __future__ import annotations

import re
from typing import Any

import pytest
from key_harvest_driver import KeyHarvestDriver
from key_harvest_driver import page_state as kh_state
from kingdom_driver import KingdomDriver
from kingdom_driver import page_state as km_state
from sheetkit.widgets.hints import THINKING
from sheetkit.widgets.kingdom_maps.sheet import MapLayout
from voila_harness import REPO, assert_no_traceback, press, status_text

from sheetkit.games.kingdom_maps.params import KingdomParams

pytestmark = pytest.mark.browser

SHOTS = REPO / "docs" / "screenshots"
SMALL_HEX = 19.0      # the hex radius of Kingdom Maps' small sheets (widgets/kingdom_maps/table.py)
WIDTHS = {390: 844, 1024: 768, 1280: 800}
BLUE, VERMILLION = (0x00, 0x72, 0xB2), (0xD5, 0x5E, 0x00)    # the expert's ring, yours (widgets/theme.py)
# the decisions whose move (yours or the expert's) is on the sheet, so the panel draws them on a small one
KM_ON_MAP = r"an? \w+ hex"
KH_ON_BOARD = r"harvest the group|play the|take the worker"
IGNORED_CONSOLE = ("Failed to load resource",)   # offline Chromium cannot fetch Voila's CDN fonts

# Pixels of one colour on a canvas (all its layers composited): how many lie within ``tol`` of it (per channel).
JS_COLOUR_COUNT = """([sel, rgb, tol, k]) => {
  const el = document.querySelectorAll(sel)[k || 0];
  if (!el) return -1;
  const ls = el.tagName === 'CANVAS' ? [el] : Array.from(el.querySelectorAll('canvas'));
  const w = ls[0].width, h = ls[0].height, c = document.createElement('canvas');
  c.width = w; c.height = h;
  const ctx = c.getContext('2d');
  for (const l of ls) ctx.drawImage(l, 0, 0);
  const d = ctx.getImageData(0, 0, w, h).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4)
    if (Math.abs(d[i] - rgb[0]) <= tol && Math.abs(d[i + 1] - rgb[1]) <= tol && Math.abs(d[i + 2] - rgb[2]) <= tol) n++;
  return n;
}"""

# For each centre (CSS px of the sheet's layout), the share of 96 points on the circle of radius ``r`` round it that
# are drawn in one colour: a ring drawn there in that colour covers most of them (a dashed one ~60%).
JS_RING_SHARE = """([k, centres, r, rgb, tol]) => {
  const c = document.querySelectorAll('.sk-luck-sheet')[k], s = c.width / parseFloat(c.style.width);
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  const near = (x, y) => { const i = (Math.round(y) * c.width + Math.round(x)) * 4;
    return [0, 1, 2].every(j => Math.abs(d[i + j] - rgb[j]) <= tol); };
  return centres.map(([cx, cy]) => { let n = 0;
    for (let a = 0; a < 96; a++) { const t = a * Math.PI / 48;
      if ([-1, 0, 1].some(dr => near(s * (cx + (r + dr) * Math.cos(t)), s * (cy + (r + dr) * Math.sin(t))))) n++; }
    return n / 96; });
}"""

# What of the panel a screen of this width cannot show: anything past the right edge, text cut by its box.
JS_PANEL_FIT = """() => {
  const panel = document.querySelector('.sk-luck'), width = document.documentElement.clientWidth;
  const all = [panel, ...panel.querySelectorAll('*')].filter(e => e.getClientRects().length);
  const past = all.filter(e => e.getBoundingClientRect().right > width + 1)
    .map(e => e.className + ' ' + Math.round(e.getBoundingClientRect().right));
  const cut = all.filter(e => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible'
      && e.tagName !== 'CANVAS' && e.innerText.trim())
    .map(e => e.className + ': ' + e.innerText.slice(0, 40));
  const sheets = Array.from(panel.querySelectorAll('.sk-luck-sheet')).map(e => e.getBoundingClientRect())
    .map(r => ({left: Math.round(r.left), right: Math.round(r.right), width: Math.round(r.width)}));
  const small = Array.from(panel.querySelectorAll('.sk-luck-bars div, .sk-luck-words, .sk-luck-say'))
    .filter(e => e.innerText.trim()).map(e => parseFloat(getComputedStyle(e).fontSize));
  return {width, past, cut, sheets, smallest: Math.min(...small)};
}"""


def page_errors(page_fixture: Any) -> list[str]:
    return [e for e in page_fixture.errors if not any(s in e for s in IGNORED_CONSOLE)]


def colour_count(p: Any, selector: str, rgb: tuple[int, int, int], k: int = 0, tol: int = 24) -> int:
    return int(p.evaluate(JS_COLOUR_COUNT, [selector, list(rgb), tol, k]))


def my_total(p: Any) -> int:
    """Your total in the end-of-game breakdown under the table."""
    return int(p.evaluate("""() => { const td = document.querySelector(
        '.sk-breakdown td.sk-total[data-player="0"], .sk-breakdown tr[data-player="0"] td.sk-total');
        return +td.innerText; }"""))


def km_rings(p: Any, k: int) -> dict[str, int]:
    """How many hexes of the k-th small Kingdom Maps sheet are ringed in vermillion (yours) and in blue (the
    expert's): the map prints its ? and ±1 hexes in those colours too, so it looks for a ring round a hex's centre."""
    layout = MapLayout(frozenset(KingdomParams().board.coords), SMALL_HEX)
    centres = [list(layout.geometry.cell_center(q, r)) for q, r in KingdomParams().board.coords]
    radius = 0.75 * SMALL_HEX
    out = {}
    for key, rgb, share in (("yours", VERMILLION, 0.8), ("expert", BLUE, 0.5)):     # a ring: 1.0; no ring: ≤ 0.1
        shares = p.evaluate(JS_RING_SHARE, [k, centres, radius, list(rgb), 40])
        out[key] = sum(x >= share for x in shares)
    return out


def kh_rings(p: Any, k: int) -> dict[str, int]:
    """Whether the k-th small Key Harvest board shows a vermillion ring (yours) and a blue one (the expert's): its
    tiles and crops use neither colour, so any good share of them is a ring."""
    return {key: int(colour_count(p, ".sk-luck-sheet", rgb, k) > 100)
            for key, rgb in (("yours", VERMILLION), ("expert", BLUE))}


def read_panel(p: Any, game: str) -> dict[str, Any]:
    """Wait for the panel's figures, then read them as shown: every bar's label and number, what they say, and
    the decisions (their words, and the rings on their small sheets)."""
    p.wait_for_function("() => /Your score/.test((document.querySelector('.sk-luck-figures') || {}).innerText || '')",
                        timeout=120_000)
    assert not p.locator(".sk-luck-progress").is_visible(), "the progress bar stays once the figures are in"
    bars = p.evaluate("""() => { const g = document.querySelector('.sk-luck-bars');
        const cells = Array.from(g.children), out = {};
        for (let i = 0; i + 2 < cells.length; i += 3)
          out[cells[i].innerText.trim()] = parseFloat(cells[i + 2].dataset.value);
        return out; }""")
    rows = p.locator(".sk-luck-decision")
    decisions, k = [], 0
    for n in range(rows.count()):
        row = rows.nth(n)
        seen = {"words": row.locator(".sk-luck-words").inner_text(), "legend": row.inner_text(), "sheet": None}
        if row.locator(".sk-luck-sheet").count():     # the sheets in page order: this row's is the k-th
            seen["sheet"] = km_rings(p, k) if game == "kingdom" else kh_rings(p, k)
            k += 1
        decisions.append(seen)
    return {"bars": bars, "say": p.locator(".sk-luck-say").inner_text(), "decisions": decisions, "game": game}


def check_panel(panel: dict[str, Any], score: int, on_sheet: str, known: str) -> None:
    """What a player reads in the panel: their score as the table scored it, the expert's and the best game on
    their deal (``known``: what its search was told), what the gaps mean, and three decisions each with its cost
    in points; a decision with a move on the sheet (its words match ``on_sheet``) is shown on a small sheet, your
    move ringed and the expert's."""
    bars = panel["bars"]
    assert bars["Your score"] == score, f"the panel's score {bars} is not the table's {score}"
    assert "The expert on your deal" in bars, bars
    best = next((v for k, v in bars.items() if k.startswith(f"Best on your deal, {known}")), None)
    assert best is not None, f"no hindsight bar: {bars}"
    assert best >= bars["The expert on your deal"], "the best known game on the deal is at least the expert's"
    choices = bars["The expert on your deal"] - score
    say = panel["say"]
    if choices > 0:
        assert re.search(rf"the expert scored {int(choices)} points? more", say), say
    assert "The luck of this deal" in say, say
    assert re.search(r"The three decisions that cost most \(of the \d+ where you had a choice\)", say), say
    assert len(panel["decisions"]) == 3, panel["decisions"]
    costs = []
    for d in panel["decisions"]:
        words = d["words"]
        m = re.search(r"Decision (\d+) · cost about (\d+) points?", words)
        assert m, words
        costs.append(int(m.group(2)))
        assert "You: " in words and "The expert: " in words, words
        mine, its = re.search(rf"You: ({on_sheet})", words), re.search(rf"The expert: ({on_sheet})", words)
        if mine or its:
            # the small sheet: your move ringed in vermillion, the expert's dashed in blue
            s = d["sheet"]
            assert s is not None, f"no small sheet for {words!r}"
            assert (s["yours"], s["expert"]) == (int(bool(mine)), int(bool(its))), (words, s)
            assert "On the sheet: your move solid, the expert's dashed" in d["legend"], d["legend"]
    assert costs == sorted(costs, reverse=True) and costs[0] > 0, f"the costliest first: {costs}"
    assert any(d["sheet"] for d in panel["decisions"]), "not one decision shown on a small sheet"


def look_at_widths(p: Any, game: str, first: int) -> None:
    """The panel at each width, the one the game was played at first: nothing past the screen's right edge, no
    text cut off, the small sheets whole and the words no smaller than 12 px; a screenshot of it at each."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for w in (first, *(x for x in WIDTHS if x != first)):
        h = WIDTHS[w]
        p.set_viewport_size({"width": w, "height": h})
        p.wait_for_timeout(500)
        p.locator(".sk-luck").first.evaluate("e => e.scrollIntoView({block: 'start'})")
        p.wait_for_timeout(300)
        fit = p.evaluate(JS_PANEL_FIT)
        # the whole panel in one picture: the window made as tall as it (the same width, so the same layout)
        tall = p.evaluate("() => document.querySelector('.sk-luck').getBoundingClientRect().height")
        p.set_viewport_size({"width": w, "height": max(h, round(tall) + 40)})
        p.wait_for_timeout(300)
        p.locator(".sk-luck").first.evaluate("e => e.scrollIntoView({block: 'start'})")
        p.locator(".sk-luck").first.screenshot(path=str(SHOTS / f"{game}-luck-panel-{w}x{h}.png"))
        assert not fit["past"], f"at {w} px the panel runs past the right edge: {fit['past'][:5]}"
        assert not fit["cut"], f"at {w} px the panel cuts text off: {fit['cut'][:5]}"
        assert all(s["left"] >= 0 and s["right"] <= fit["width"] and s["width"] >= 120 for s in fit["sheets"]), \
            f"at {w} px a small sheet is cut or too small to read: {fit['sheets']}"
        assert fit["smallest"] >= 12, f"at {w} px the panel's words are {fit['smallest']} px"


def hinted_code(p: Any) -> str:
    """The finished game's result code: a game played with a hint says so."""
    code = p.locator(".sk-result-text")
    code.wait_for(timeout=60_000)
    line = p.locator(".sk-result-text").first.evaluate("e => e.parentElement.innerText")
    assert "(hints used)" in line, line
    return str(code.inner_text()).strip()


@pytest.mark.parametrize("size", [(390, 844)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_kingdom_maps_by_taps_to_its_end_then_the_panel(repo_server: Any, touch_page: Any,
                                                         size: tuple[int, int]) -> None:
    p = touch_page.page
    d = KingdomDriver(code="KM-0000-0005", touch=True)
    p.goto(repo_server.url(d.notebook, d.query))
    d.wait_ready(p)
    assert "When your game ends" in p.locator(".sk-luck").inner_text()
    st = d.step(p, km_state(p))                     # a terrain and a die: now the hexes to draw
    assert len(st["legal"]) > 1
    blue = colour_count(p, ".sk-sheet", BLUE)
    press(p.locator(".sk-hint"), touch=True)
    p.wait_for_function("() => /Hint: the expert would draw the hex ringed in blue/"
                        ".test(document.querySelector('.sk-status').innerText)", timeout=60_000)
    assert colour_count(p, ".sk-sheet", BLUE) > blue + 50, "the hint rings no hex in blue on the map"
    assert km_state(p)["legal"] == st["legal"], "a hint plays nothing"
    d.play_to_end(p)
    p.locator(".sk-status").filter(has_text="Game over").wait_for(timeout=15_000)
    assert re.search(r"\.H1[A-Z]*\.", hinted_code(p)), "a hinted game's result code says H1 (not R1)"
    check_panel(read_panel(p, "kingdom"), my_total(p), on_sheet=KM_ON_MAP, known="dice known")
    assert_no_traceback(p)
    look_at_widths(p, "kingdom_maps", 390)
    assert not page_errors(touch_page), page_errors(touch_page)


def hint_time(st: dict[str, Any]) -> bool:
    """The start of your turn, nothing chosen yet: a hint now can be checked to play nothing."""
    return bool(st["mine"] and st["handoff"] is None and not st["pending"] and not st["done"] and st["harvest"])


def test_key_harvest_by_mouse_to_its_end_then_the_panel(repo_server: Any, page: Any) -> None:
    p = page.page
    p.set_viewport_size({"width": 1024, "height": 768})
    d = KeyHarvestDriver(code="KH-0000-0001-QUICK", bots="greedy")
    p.goto(repo_server.url(d.notebook, d.query))
    d.wait_ready(p)
    st = kh_state(p)
    assert st["mine"] and st["harvest"], "the deal opens with your turn and a harvest"
    # The Hint at the start of your turns until the expert's move is on your board (its first is a bid: words only)
    drawn = hints = 0
    for _ in range(900):
        if st["over"]:
            break
        if not drawn and hints < 8 and hint_time(st):
            p.wait_for_timeout(400)             # the last move's render has landed: compare with the state it left
            st = kh_state(p)
        if not drawn and hints < 8 and hint_time(st):
            hints += 1
            blue = colour_count(p, ".sk-board", BLUE)
            p.locator(".sk-hint").click()
            after = d.wait_change(p, st["serial"])
            while status_text(p).startswith(THINKING):       # a render says so, then the hint's own render
                after = d.wait_change(p, after["serial"])
            words = status_text(p)
            assert words.startswith("Hint: the expert would "), words
            assert (after["done"], after["harvest"], after["bid"]) == (st["done"], st["harvest"], st["bid"]), \
                "a hint plays nothing"
            if "ringed in blue on your board" in words:
                assert colour_count(p, ".sk-board", BLUE) > blue + 50, "the hint rings no space in blue on the board"
                drawn = 1
            st = after
        st = d.step(p, st)
    assert st["over"], d.actions[-6:]
    assert drawn, f"in {hints} hints the expert never chose a space on your board"
    assert re.search(r"\.H1[A-Z]*\.", hinted_code(p)), "a hinted game's result code says H1 (not R1)"
    check_panel(read_panel(p, "key-harvest"), my_total(p), on_sheet=KH_ON_BOARD, known="bag order known")
    assert_no_traceback(p)
    look_at_widths(p, "key-harvest", 1024)
    assert not page_errors(page), page_errors(page)
