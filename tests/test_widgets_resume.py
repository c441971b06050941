"""The table's resume code and the page's link (issue 15, part 2: a reload loses nothing)."""

from __future__ import annotations

from sheetkit.widgets import AvenueTable, KeyHarvestTable
from sheetkit.widgets.resume import link_query

from sheetkit.games.avenue import Draw


def draw_somewhere(t: AvenueTable) -> None:
    a = next(a for a in t.state.legal_actions(0) if isinstance(a, Draw))
    t.sheet.canvas.simulate_click(28 + 54 * a.col + 27, 48 + 54 * a.row + 27)
    t.next_button.click()


def test_the_link_carries_the_game_and_a_table_made_from_it_is_the_same_game():
    t = AvenueTable.from_query("code=AV-0000-001A&bots=greedy&theme=dark")
    assert t.resume.code is None and t.resume.link == "theme=dark&code=AV-0000-001A&bots=greedy"
    for _ in range(3):
        draw_somewhere(t)
    link = t.resume.link
    assert link.startswith("theme=dark&code=AV-0000-001A&bots=greedy&resume=AV-0000-001A.P1G.3."), link
    assert t.resume.code in t.resume.line.value
    back = AvenueTable.from_query(link)
    assert back.state.fingerprint() == t.state.fingerprint()
    assert back.status_text.startswith("Your game is back where you left it.")
    draw_somewhere(back)      # and it goes on
    assert back.resume.code.split(".")[2] == "4"


def test_a_damaged_resume_code_gives_the_deal_from_its_start_and_says_why():
    t = AvenueTable.from_query("code=AV-0000-001A&bots=greedy&resume=AV-0000-001A.P1G.3.1KW9.TENFA")
    assert "could not be brought back" in t.status_text and "check" in t.status_text
    assert t.state.game_code() == "AV-0000-001A" and not any(e.get("player") == 0 for e in t.state.log)


def test_pass_and_play_has_no_resume_code_and_keeps_its_link():
    t = KeyHarvestTable.from_query("people=Ann,Bob&bots=none&code=KH-0000-0001")
    assert t.resume.code is None and t.resume.line.value == ""
    assert "people=Ann%2CBob" in t.resume.link or "people=Ann,Bob" in t.resume.link


def test_a_table_not_made_from_the_page_link_leaves_the_link_alone():
    t = AvenueTable(code="AV-0000-001A", bots=("greedy",))
    draw_somewhere(t)
    assert t.resume.code and t.page.query == ""


def test_link_query_keeps_other_parts_and_replaces_its_own():
    assert link_query("?code=X&people=Ann&resume=old", "AV-0000-001A", [], "NEW") == \
        "people=Ann&code=AV-0000-001A&bots=none&resume=NEW"
