"""Class play end to end: a student's table shows a result code at the end; the teacher's dashboard
(notebooks/classroom.ipynb in Voila) takes 30 pasted codes (with copies and random characters among them)
and shows the leaderboard, the skipped entries with their reasons, the figure and the CSV link, and hides
the names for a projector. Screenshots at three window sizes go to docs/screenshots/."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from voila_harness import REPO, assert_no_traceback, at_screens

from sheetkit.analysis.results import play_as_table, result_code
from sheetkit.core.records import dumps

pytestmark = pytest.mark.browser

SEED, CODE = 42, "AV-0000-001A"
SHOTS = REPO / "docs" / "screenshots"


def play(seed: int, student: str, student_seed: int, bots: tuple[str, ...] = ("greedy",)) -> Any:
    """A finished Avenue game as a table plays it, a bot in seat 0 standing in for the student."""
    return play_as_table("avenue", seed, student, bots, student_seed)


def paste_box_overflow(page: Any) -> dict[str, float]:
    """How far the paste box reaches past the dashboard's right edge, and how far the dashboard scrolls sideways."""
    return page.evaluate("""() => {
        const box = document.querySelector('.sk-class'), area = document.querySelector('.sk-class-paste textarea');
        return {past: area.getBoundingClientRect().right - box.getBoundingClientRect().right,
                scroll: box.scrollWidth - box.clientWidth};
    }""")


def leaderboard(page: Any) -> list[tuple[str, int]]:
    rows = page.evaluate("""() => Array.from(document.querySelectorAll('.sk-leaderboard tr[data-rank]'))
        .map(tr => [tr.querySelector('.sk-name').innerText.trim(), tr.querySelector('.sk-score').innerText.trim()])""")
    return [(n, int(s.replace("−", "-"))) for n, s in rows]


def test_a_table_shows_the_result_code_and_the_dashboard_reads_thirty(repo_server, page, tmp_path):
    p = page.page
    # A student's table: load a finished game; the result code appears beside Save, as selectable text.
    student = play(SEED, "greedy", 0)
    saved = Path(tmp_path) / "student.json"
    saved.write_text(dumps(student.to_record()))
    p.goto(repo_server.url("notebooks/avenue.ipynb", f"code={CODE}&bots=greedy"), timeout=120_000)
    p.locator(".sk-load").wait_for(timeout=120_000)
    with p.expect_file_chooser() as chooser:
        p.locator(".sk-load").click()
    chooser.value.set_files(str(saved))
    p.locator(".sk-status").filter(has_text="Record loaded").wait_for(timeout=60_000)
    code_el = p.locator(".sk-result-code code.sk-result-text")
    code_el.wait_for(timeout=30_000)
    shown = code_el.inner_text().strip()
    assert shown == result_code(student, ["greedy"])
    assert code_el.evaluate("e => getComputedStyle(e).userSelect") in ("all", "text", "auto")
    save_box = p.locator(".sk-save").evaluate("e => e.parentElement === document.querySelector('.sk-result-code')"
                                              ".parentElement")
    assert save_box, "the result code sits in Save's row"
    SHOTS.mkdir(parents=True, exist_ok=True)
    for w, h in ((1280, 800), (390, 844)):
        p.set_viewport_size({"width": w, "height": h})
        p.locator(".sk-result-code").evaluate("e => e.scrollIntoView({block: 'end'})")
        p.wait_for_timeout(300)
        p.screenshot(path=str(SHOTS / f"avenue-result-code-{w}x{h}.png"))
        box = code_el.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= w + 1, (w, box)
    p.set_viewport_size({"width": 1280, "height": 1000})

    # The teacher: 28 more codes (random 'students': the greedy bot ignores its seed, so it plays one game
    # only), one of another deal and one cut short, a code pasted twice, one under a second name, and 2,000
    # random characters, pasted in one go.
    lines = [f"Table student: {shown}"]
    want = {"Table student": student.scores()[0]}
    for i in range(28):
        st = play(SEED, "random", i + 1)
        lines.append(f"Pupil {i + 1}: {result_code(st, ['greedy'])}")
        want[f"Pupil {i + 1}"] = st.scores()[0]
    lines.append(f"Zed: {result_code(play(7, 'greedy', 0), ['greedy'])}")
    lines.append(f"Yan: {shown[:-5]}")
    lines.append(lines[2])
    lines.append(f"Xia: {lines[3].split(': ')[1]}")
    lines.append("".join("qwertyuiopasdfghjklzxcvbnm0123456789 .:-"[(7 * i * i + 3 * i) % 40] for i in range(2000)))
    p.goto(repo_server.url("notebooks/classroom.ipynb", f"game=avenue&code={CODE}&bots=greedy"), timeout=120_000)
    p.locator(".sk-class-code").filter(has_text=CODE).wait_for(timeout=120_000)
    link = p.locator("a.sk-class-link")
    assert link.get_attribute("href") == f"avenue.ipynb?code={CODE}&bots=greedy&hints=off"  # no Hint in class
    # The paste box fits the dashboard at every width: its right edge is not clipped.
    for w, h in ((1280, 800), (1024, 768), (390, 844)):
        p.set_viewport_size({"width": w, "height": h})
        p.wait_for_timeout(300)
        edge = paste_box_overflow(p)
        assert edge["past"] <= 0.5 and edge["scroll"] <= 0, (w, edge)
    p.set_viewport_size({"width": 1280, "height": 1000})
    p.locator(".sk-class-paste textarea").fill("\n".join(lines))
    p.locator(".sk-class-read").click()
    p.locator(".sk-leaderboard tr[data-rank]").nth(28).wait_for(timeout=120_000)
    # Each part of the dashboard is its own widget update: wait for the last ones too, not only the table.
    p.locator(".sk-skipped").filter(has_text="line 34").wait_for(timeout=60_000)
    p.locator(".sk-class-summary").filter(has_text="29 games read").wait_for(timeout=60_000)
    board = leaderboard(p)
    assert len(board) == 29 and dict(board) == want
    assert [s for _, s in board] == sorted(want.values(), reverse=True)
    skipped = p.locator(".sk-skipped").inner_text()
    assert re.search(r"Zed.*another deal \(AV-0000-0007\)", skipped)
    assert re.search(r"Yan.*(check characters|cut short)", skipped)
    assert re.search(r"line 32 · Pupil 2.*counted once", skipped)
    assert re.search(r"line 33 · Xia.*same game as Pupil 3's on line 4", skipped)
    assert re.search(r"line 34.*…: no result code on this line", skipped)
    summary = p.locator(".sk-class-summary").inner_text()
    assert "29 games read" in summary and "5 not counted" in summary
    p.locator("img.sk-class-plot").wait_for(timeout=60_000)
    assert p.locator(".sk-class-choices tr[data-step]").count() >= 30
    assert p.locator(".sk-class-csv a.sk-download").get_attribute("download") == f"class-{CODE}.csv"
    assert_no_traceback(p)

    for w, h in at_screens(p, ".sk-class-paste"):      # the paste box and the results at the top
        p.screenshot(path=str(SHOTS / f"classroom-{w}x{h}.png"))
        if w == 1280:
            p.locator("img.sk-class-plot").evaluate("e => e.scrollIntoView({block: 'start'})")
            p.wait_for_timeout(200)
            p.screenshot(path=str(SHOTS / "classroom-bots-1280x800.png"))
        # nothing wider than the window: no sideways scrolling on a phone
        overflow = p.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 2, (w, overflow)
        edge = paste_box_overflow(p)
        assert edge["past"] <= 0.5 and edge["scroll"] <= 0, (w, edge)

    # For the projector: names hidden on every part of the page; the note says the CSV keeps them.
    p.set_viewport_size({"width": 1280, "height": 800})
    privacy = p.locator(".sk-class-privacy")
    assert "CSV download keeps the names" in privacy.inner_text()
    privacy.locator("input[type=checkbox]").check()
    p.locator(".sk-leaderboard th").filter(has_text="result code ends").wait_for(timeout=60_000)
    p.locator(".sk-class-paste-hidden").wait_for(state="visible", timeout=60_000)
    assert p.locator(".sk-class-paste").is_hidden()
    assert p.locator(".sk-leaderboard tr[data-rank]").count() == 29
    shown_text = p.locator(".sk-class").inner_text()
    assert not [n for n in [*want, "Zed", "Yan", "Xia"] if n in shown_text]
    p.locator(".sk-class-privacy").evaluate("e => e.scrollIntoView({block: 'start'})")
    p.wait_for_timeout(200)
    p.screenshot(path=str(SHOTS / "classroom-names-hidden-1280x800.png"))
