"""The class-play dashboard without a browser, and the result code the tables show at the end."""

from __future__ import annotations

import base64
import csv
import datetime as dt
import html
import io
import re

import pytest
from sheetkit.widgets import AvenueTable, KingdomTable
from sheetkit.widgets.classroom import Classroom
from test_results import play

from sheetkit.analysis.class_review import todays_deal
from sheetkit.analysis.results import read_result_code, result_code
from sheetkit.core.codes import parse_code
from sheetkit.core.records import dumps
from sheetkit.core.registry import get_game
from sheetkit.games.avenue import Draw, Peek
from sheetkit.games.kingdom_maps import GreedyBot


def shown_code(table) -> str:
    m = re.search(r"<code class='sk-result-text'[^>]*>(.*?)</code>", table.result_code.value)
    assert m, table.result_code.value
    return html.unescape(m.group(1))


def row_of(box, widget):
    """The box whose children hold ``widget``."""
    for child in getattr(box, "children", ()):
        if child is widget:
            return box
        found = row_of(child, widget)
        if found is not None:
            return found
    return None


def test_the_avenue_table_shows_a_result_code_at_the_end_beside_save():
    """Hidden while playing; at the end, a code that replays to the table's score (undo included); gone on Again."""
    t = AvenueTable(code="AV-0000-001A", bots=("greedy", "random"))
    t.simulate_client_ready()
    assert t.result_code.layout.display == "none" and t.result_code.value == ""
    assert t.result_code in row_of(t.widget, t.save_button).children, "beside Save"
    k = 0
    while not t.state.is_terminal():
        if t.state.is_chance_node():
            t.next_button.click()
            continue
        legal = t.state.legal_actions(0)
        a = legal[(7 * k) % len(legal)]
        k += 1
        if k % 5 == 0 and isinstance(a, Draw):      # change your mind now and then
            t.click_cell(a.row, a.col)
            t.undo_button.click()
            a = legal[-2] if len(legal) > 1 else legal[0]
        if isinstance(a, Draw):
            t.click_cell(a.row, a.col)
        elif isinstance(a, Peek):
            t.peek_button.click()
    assert t.result_code.layout.display == "flex"
    code = shown_code(t)
    assert code.startswith("AV-0000-001A.R1GR.")
    got = read_result_code(code)
    assert got.score == t.state.scores()[0]
    assert [s.roads for s in got.state.sheets] == [s.roads for s in t.state.sheets]
    t.again_button.click()
    assert t.result_code.layout.display == "none" and t.result_code.value == ""


def test_the_kingdom_table_shows_a_result_code_at_the_end():
    """A whole Kingdom Maps game against a bot, played through the table: its code gives the same score."""
    t = KingdomTable(code="KM-0000-0005", bots=("greedy",))
    t.simulate_client_ready()
    bot = GreedyBot(seed=1)
    for _ in range(2000):
        st = t.state
        if st.is_terminal():
            break
        if not t.confirm_button.disabled:
            t.confirm_button.click()
            continue
        st.apply(0, bot.act(st, 0))
        t._moved()
        assert t._error is None
    assert t.state.is_terminal() and "Result code" in t.result_code.value
    assert read_result_code(shown_code(t)).score == t.state.scores()[0]


def test_the_dashboard_link_chooses_game_deal_and_bots():
    """?game=…&code=…&bots=… sets up the class; the invite shows the code and the students' link."""
    c = Classroom.from_query("game=kingdom-maps&code=km-0000-0005&bots=greedy", plays=1)
    assert c.deal.deal == "KM-0000-0005" and c.deal.bots == ("greedy",)
    assert "KM-0000-0005" in c.invite.value
    assert "kingdom_maps.ipynb?code=KM-0000-0005&amp;bots=greedy" in c.invite.value


def test_todays_deal_is_the_same_for_everyone_on_a_date():
    """Two dashboards on one date make the same deal; another date another; the default is today's."""
    spec = get_game("avenue")
    day = dt.date(2026, 3, 14)
    assert todays_deal(spec, day) == todays_deal(spec, day)
    assert todays_deal(spec, day) != todays_deal(spec, day + dt.timedelta(days=1))
    c = Classroom(game="avenue", plays=1)
    assert c.deal.deal == todays_deal(spec)
    assert parse_code(c.deal.deal).prefix == "AV" and c.deal.bots == ("greedy",)   # the Avenue table's default


def test_a_typed_code_of_another_game_is_explained_and_todays_deal_used():
    c = Classroom(game="avenue", code="KM-0000-0005", plays=1)
    assert "another game" in c.invite.value and c.deal.deal == todays_deal(get_game("avenue"))


JUNK = "".join("qwertyuiopasdfghjklzxcvbnm0123456789 .:-"[(7 * i * i + 3 * i) % 40] for i in range(2000))


@pytest.fixture(scope="module")
def avenue_class():
    """A class on AV-0000-001A against the greedy bot: 28 different games (one greedy 'student', the
    greedy bot ignoring its seed, and 27 random), one of another deal, one damaged, one game pasted
    twice, one under a second name, and 2,000 random characters."""
    c = Classroom.from_query("game=avenue&code=AV-0000-001A&bots=greedy", plays=2)
    lines, scores = [], {}
    for i in range(28):
        st = play("avenue", 42, "greedy" if i == 0 else "random", ("greedy",), student_seed=i)
        lines.append(f"Pupil {i + 1}: {result_code(st, ['greedy'])}")
        scores[f"Pupil {i + 1}"] = st.scores()[0]
    other = result_code(play("avenue", 7, "random", ("greedy",)), ["greedy"])
    lines.append(f"Zed: {other}")
    lines.append(f"Yan: {lines[0].split(': ')[1][:-4]}")
    lines.append(lines[3])                                     # Pupil 4 pasted twice
    lines.append(f"Xia: {lines[5].split(': ')[1]}")           # Pupil 6's game under another name
    lines.append(JUNK)
    c.read("\n".join(lines))
    return c, scores


def test_thirty_pasted_codes_give_a_leaderboard_and_reasons(avenue_class):
    """The leaderboard has the 28 good games best first with recomputed scores; the others are listed with why:
    the copies once each, the random characters as a line with no code, shortened on screen."""
    c, scores = avenue_class
    rows = re.findall(r"<tr data-rank='(\d+)'><td>\d+</td><td class='sk-name'>(.*?)</td>"
                      r"<td class='sk-score'>(.*?)</td>", c.board.value)
    assert len(rows) == 28
    got = {name: int(s.replace("−", "-")) for _, name, s in rows}
    assert got == scores
    assert [int(s.replace("−", "-")) for _, _, s in rows] == sorted(scores.values(), reverse=True)
    assert "28</b> games read" in c.summary.value and "5 not counted" in c.summary.value
    assert "2 copies of a game already read" in c.summary.value and "1 line with no code" in c.summary.value
    assert "2 codes or files refused" in c.summary.value
    assert "Zed" in c.skipped.value and "another deal (AV-0000-0007)" in c.skipped.value
    assert "Yan" in c.skipped.value and "cut short" in c.skipped.value
    items = re.findall(r"<li data-skipped='([^']*)'><b>(.*?)</b> <code[^>]*>(.*?)</code>: "
                       r"<span class='sk-why'>(.*?)</span>", c.skipped.value)
    assert [(kind, who) for kind, who, _, _ in items] == [
        ("refused", "line 29 · Zed"), ("refused", "line 30 · Yan"), ("copy", "line 31 · Pupil 4"),
        ("copy", "line 32 · Xia"), ("no code", "line 33")]
    assert "counted once" in items[2][3] and "same game as Pupil 6&#x27;s on line 6" in items[3][3]
    shown = html.unescape(items[4][2])
    assert shown.endswith("…") and len(shown) <= 60 and JUNK.startswith(shown[:-1])


def test_the_csv_download_holds_every_game(avenue_class):
    c, scores = avenue_class
    m = re.search(r"download='(class-AV-0000-001A\.csv)' href='data:text/csv;base64,([^']+)'", c.csv.value)
    assert m
    rows = list(csv.DictReader(io.StringIO(base64.b64decode(m.group(2)).decode())))
    counted = [r for r in rows if r["score"]]
    assert {r["name"]: int(r["score"]) for r in counted} == scores
    skipped = [r for r in rows if r["source"].startswith("skipped")]
    assert len(skipped) == 5
    assert skipped[-1]["code"] == JUNK and skipped[-1]["line"] == "33"     # whole, never cut with …


def test_the_class_is_shown_beside_the_bots_and_card_by_card(avenue_class):
    """A figure of the class's and the bots' scores; per card, the best bot's cell and the class's choices."""
    c, _scores = avenue_class
    assert c.plot.value.startswith("<img class='sk-class-plot'") and "class (28)" in c.plot.value
    assert "greedy bot" in c.plot.value and "random bot (2 seeds)" in c.plot.value
    rows = re.findall(r"<tr data-step='(\d+)'><td>\d+</td><td>(road \d \((?:yellow|grey)\))</td><td>(.*?)</td>"
                      r"<td>(.*?)</td><td>(.*?)</td></tr>", c.choices.value)
    assert len(rows) >= 30
    best = max(c.bot_games(), key=lambda g: g.score)
    assert f"best bot ({best.kind}" in c.choices.value
    # the first card: counts add up to the class size
    counts = [int(n) for n in re.findall(r"×(\d+)", rows[0][3])]
    assert sum(counts) <= 28 and rows[0][4].endswith("of 28")


def test_kingdom_maps_per_roll_terrain_and_amount():
    """For Kingdom Maps the comparison is per roll: the terrain and the number of hexes."""
    c = Classroom.from_query("game=kingdom-maps&code=KM-0000-0005&bots=none", plays=1)
    codes = [result_code(play("kingdom-maps", 5, "random" if i else "greedy", student_seed=i), []) for i in range(4)]
    c.read("\n".join(codes))
    assert len(re.findall(r"data-rank=", c.board.value)) == 4
    assert re.search(r"<td>dice [1-6] [1-6] [1-6]</td><td>\w+s × \d</td>", c.choices.value)
    assert "student 1" in c.board.value and "<th>place</th>" not in c.board.value   # solo: no placing column


def test_reading_nothing_says_so_and_clear_empties_everything(avenue_class):
    c = Classroom.from_query("game=avenue&code=AV-0000-001A&bots=greedy", plays=1)
    c.read("no codes here")
    assert "No result code found" in c.summary.value
    c.clear_button.click()
    assert c.summary.value == "" and c.paste.value == ""


def test_a_game_whose_bots_would_replay_otherwise_shows_no_code_rather_than_a_wrong_one():
    """A record saved mid-game and loaded at a new table: the random bot starts afresh there, so its later
    moves differ from a seeded bot's from the start — the table says to send the record file instead."""
    t = AvenueTable(code="AV-0000-001A", bots=("random",))
    for _ in range(12):
        if t.state.is_chance_node():
            t.next_button.click()
        a = t.state.legal_actions(0)[0]
        t.click_cell(a.row, a.col)
    t2 = AvenueTable(record=t.record(), bots=("random",))
    while not t2.state.is_terminal():
        if t2.state.is_chance_node():
            t2.next_button.click()
            continue
        a = t2.state.legal_actions(0)[-2]
        if isinstance(a, Draw):
            t2.click_cell(a.row, a.col)
        else:
            t2.peek_button.click()
    assert "sk-result-text" not in t2.result_code.value
    assert "No result code" in t2.result_code.value and "record file" in t2.result_code.value


def test_key_harvest_class_reads_pasted_codes_and_record_files():
    """Key Harvest's bids fit a code now: the invite asks for the result code; pasted codes (and a saved
    record file, which shows its code) fill the leaderboard with recomputed scores."""
    c = Classroom.from_query("game=key-harvest&code=KH-0000-000B&bots=greedy", plays=1)
    assert "result code</b> shown beside Save" in c.invite.value and "record file" not in c.invite.value
    games = [play("key-harvest", 11, "random" if i else "greedy", ("greedy",), student_seed=i) for i in range(4)]
    codes = [result_code(g, ["greedy"]) for g in games]
    assert any(sum(e["action"]["counters"]) > 1 for g in games for e in g.log
               if e.get("player") == 0 and e["action"]["type"] == "bid"), "bids of several counters"
    c.read("\n".join(f"Kid {i}: {code}" for i, code in enumerate(codes[:3])),
           [("kid3.json", dumps(games[3].to_record()).encode())])
    rows = re.findall(r"<td class='sk-name'>(.*?)</td><td class='sk-score'>(.*?)</td>", c.board.value)
    got = {name: int(x.replace("−", "-")) for name, x in rows}
    assert {k: v for k, v in got.items() if k.startswith("Kid ")} == \
        {f"Kid {i}": g.scores()[0] for i, g in enumerate(games[:3])}
    assert sorted(got.values()) == sorted(g.scores()[0] for g in games)
    assert all(html.escape(code) in c.board.value for code in codes)     # the file's game shows its code too
    assert "<i>record file</i>" not in c.board.value and not c.gathered.skipped


def test_the_key_harvest_table_shows_a_result_code_at_the_end_beside_save():
    """A whole Key Harvest game at the table (bids of several counters, decisions answered): a code beside
    Save that replays to the table's game and score."""
    from sheetkit.widgets import KeyHarvestTable

    from sheetkit.games.key_harvest import BOTS

    t = KeyHarvestTable(code="KH-0000-000B", bots=("greedy", "random"))
    t.simulate_client_ready()
    assert t.result_code.layout.display == "none"
    assert t.result_code in row_of(t.widget, t.save_button).children, "beside Save"
    me = BOTS["greedy"](seed=3)
    for _ in range(3000):
        if t.state.is_terminal():
            break
        t._apply(0, me.act(t.state, 0))      # the path the table's clicks end in
    st = t.state
    assert st.is_terminal() and t.result_code.layout.display == "flex"
    code = shown_code(t)
    assert code.startswith("KH-0000-000B.R1GR.")
    mine = [e["action"] for e in st.log if e.get("player") == 0]
    assert any(a["type"] == "bid" and sum(a["counters"]) > 1 for a in mine)
    got = read_result_code(code)
    assert got.state.fingerprint() == st.fingerprint() and got.score == st.scores()[0]


def test_hiding_names_for_a_projector_leaves_no_name_on_screen_but_keeps_them_in_the_csv(avenue_class):
    """The toggle (off by default): the leaderboard shows ranks, scores and each code's end, no name; the
    skipped list (whose lines and reasons hold names) and the paste box are hidden; the figures never
    name anyone; the note beside the toggle says the CSV keeps the names, and it does."""
    c, scores = avenue_class
    assert c.hide_names.value is False and "Pupil 1<" in c.board.value
    assert "CSV download keeps the names" in c.privacy.children[1].value
    try:
        c.hide_names.value = True
        on_screen = " ".join(w.value for w in (c.summary, c.board, c.skipped, c.plot, c.choices))
        for name in [*scores, "Zed", "Yan", "Xia"]:
            assert name not in on_screen, name
        assert len(re.findall(r"data-rank=", c.board.value)) == 28 and "sk-name" not in c.board.value
        ends = re.findall(r"<td class='sk-rcode-end'>…(.*?)</td>", c.board.value)
        assert sorted(ends) == sorted(r.code[-12:] for r in c.gathered.results)
        assert "5 entries not counted" in c.skipped.value and "<li" not in c.skipped.value
        assert c.paste.layout.display == "none" and c.paste_hidden.layout.display != "none"
        data = re.search(r"base64,([^']+)'", c.csv.value).group(1)
        rows = list(csv.DictReader(io.StringIO(base64.b64decode(data).decode())))
        assert {r["name"] for r in rows if r["score"]} == set(scores)
    finally:
        c.hide_names.value = False
    assert "Pupil 1<" in c.board.value and "Zed" in c.skipped.value and c.paste.layout.display != "none"
