"""The luck panel and the Hint button at the tables (issue 16, part 4), with the test stand-in expert.

What a player sees: the panel appears when the game ends, a progress bar first, then the figures and
the costliest decisions with small sheets; a Hint draws a suggestion and plays nothing; a game with a
hint says so in its result code, and the teacher's leaderboard marks it; class play's link turns hints off.
"""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from sheetkit.widgets import AvenueTable, KeyHarvestTable, KingdomTable
from sheetkit.widgets.classroom import Classroom, class_link, leaderboard_html
from sheetkit.widgets.luck_panel import LuckPanel
from sheetkit.widgets.query import dashboard_options
from stand_ins import StandInExpert, stand_in_hindsight

from sheetkit.analysis.luck import LuckBudget
from sheetkit.analysis.results import gather, play_as_table, read_result_code, result_code
from sheetkit.core.records import dumps
from sheetkit.games.avenue import BOTS as AVENUE_BOTS
from sheetkit.games.avenue.moves import Draw, Peek
from sheetkit.games.key_harvest import BOTS as KH_BOTS
from sheetkit.games.kingdom_maps import BOTS as KM_BOTS

CHEAP = LuckBudget(screen=1.0, check=1.0, checked=4)


class Avenue(AvenueTable):
    BOTS: ClassVar[dict[str, Any]] = {**AVENUE_BOTS, "expert": StandInExpert}


class Kingdom(KingdomTable):
    BOTS: ClassVar[dict[str, Any]] = {**KM_BOTS, "expert": StandInExpert}


class Harvest(KeyHarvestTable):
    BOTS: ClassVar[dict[str, Any]] = {**KH_BOTS, "expert": StandInExpert}


def panel_for(table: Any) -> LuckPanel:
    return LuckPanel(table, expert=StandInExpert, hindsight=stand_in_hindsight, budget=CHEAP)


def play_to_end(table: AvenueTable, spoil: bool = True) -> None:
    """Play the Avenue table by its clicks: the top-left free cell each time (a poor player), or peek."""
    st = table.state
    while not st.is_terminal():
        if st.is_chance_node():
            table._on_next()
            continue
        draws = [a for a in st.legal_actions(0) if isinstance(a, Draw)]
        if draws:
            table.click_cell(draws[0].row, draws[0].col)
        else:
            table._on_peek()


def test_the_panel_waits_for_the_end_then_shows_progress_figures_and_decisions(rec: Any) -> None:
    table = Avenue(seed=5, bots=(), variant="short")
    panel = panel_for(table)
    assert panel.figures.value == "" and panel.working.layout.display == "none"
    assert "When your game ends" in panel.note.value
    seen: list[float] = []
    panel.bar.observe(lambda c: seen.append(c["new"]), "value")
    play_to_end(table)
    assert len(seen) > 5 and seen == sorted(seen) and seen[-1] == 1.0     # the bar moved on to the end
    assert panel.working.layout.display == "none"                          # ... and went when the figures came
    r = panel.report
    assert r is not None and r.score == table.state.total(0)
    text = panel.figures.value
    for words in ("Your score", "The expert on your deal", "Best on your deal", "Your choices"):
        assert words in text
    assert f"data-value='{r.score:.1f}'" in text and f"data-value='{r.expert_score:.1f}'" in text
    rows = panel.decisions.children
    assert len(rows) == len(r.decisions) == 3     # a player of the top-left cell gives points away
    first = rows[0].children[0].value
    assert f"Decision {r.decisions[0].number}" in first and "row " in first and "col " in first
    # each decision's small sheet draws when a browser shows it: the sheet, then both moves marked
    small = panel.sheets[0]
    rec.clear()
    small.canvas.simulate_client_ready()
    drawn = sum(sum(rec.commands(layer.canvas, None).values()) for layer in small.canvas.layers.values())
    assert drawn > 50
    ink = rec.commands(small.canvas["ink"].canvas, None)
    assert ink["strokeRect"] >= 2 and ink["setLineDash"] >= 2     # yours solid, the expert's dashed


def test_a_new_game_clears_the_panel() -> None:
    table = Avenue(seed=6, bots=(), variant="short")
    panel = panel_for(table)
    play_to_end(table)
    assert panel.figures.value and panel.decisions.children
    done = table.state
    table._on_new()
    assert panel.figures.value == "" and panel.decisions.children == () and panel.sheets == []
    assert "When your game ends" in panel.note.value and panel.note.layout.display is None
    # loading a finished game's record (Load) fills it in again
    table._load(dumps(done.to_record()).encode())
    assert panel.report is not None and panel.report.score == done.total(0) and "Your score" in panel.figures.value


def test_a_loaded_finished_game_gets_its_panel_at_once_in_every_game() -> None:
    km = play_as_table("kingdom-maps", 3, "random", [])
    panel = panel_for(Kingdom(record=km.to_record(), bots=()))
    assert panel.report is not None and panel.report.score == km.scores()[0]
    assert "Your score" in panel.figures.value and len(panel.decisions.children) == 3
    kh = play_as_table("key-harvest", 3, "random", ["greedy"])
    panel = panel_for(Harvest(record=kh.to_record(), bots=("greedy",)))
    assert panel.report is not None and panel.report.expert_score is not None
    assert "The expert on your deal" in panel.figures.value


def test_hint_draws_the_expert_move_and_plays_nothing(rec: Any) -> None:
    table = Avenue(seed=7, bots=("greedy",))
    table.simulate_client_ready()
    before = table.state.fingerprint()
    assert not table.hints.button.disabled
    rec.clear()
    table.hints.button.click()
    assert table.state.fingerprint() == before            # nothing applied
    move = table.hints.shown
    expected = StandInExpert().act(table.state, 0)
    assert move == expected
    assert table.status_text.startswith("Hint: the expert would")
    if isinstance(move, Draw):
        assert f"row {move.row + 1}, col {move.col + 1}" in table.status_text
        ink = rec.commands(table.sheet.canvas["ink"].canvas, None)
        assert ink["strokeRect"] == 1 and ink["setLineDash"] == 2    # a dashed frame on your sheet
    else:
        assert isinstance(move, Peek) and "Peek" in table.status_text
    # the next move takes the suggestion away (the ink is drawn again in full)
    rec.clear()
    table._on_peek() if table.state.can_peek(0) else table.click_cell(*_first_free(table))
    assert table.hints.shown is None
    assert rec.commands(table.sheet.canvas["ink"].canvas, None)["clearRect"] >= 1


def _first_free(table: AvenueTable) -> tuple[int, int]:
    d = next(a for a in table.state.legal_actions(0) if isinstance(a, Draw))
    return d.row, d.col


def test_a_game_with_a_hint_says_so_in_its_result_code_and_the_leaderboard() -> None:
    table = Avenue(seed=8, bots=("greedy",), variant="short")
    table.hints.button.click()
    play_to_end(table)
    shown = table.result_code.value
    assert ".H1G." in shown and "hints used" in shown
    code = result_code(table.state, ["greedy"], hints=True)
    got = read_result_code(code)
    assert got.hints and got.score == table.state.total(0)
    # the H cannot be turned back into an R: the check characters cover it
    with pytest.raises(Exception, match="check characters"):
        read_result_code(code.replace(".H1G.", ".R1G."))
    # an old code (R1) still reads, as a game without hints
    plain = play_as_table("avenue", 8, "greedy", ["greedy"])
    old = result_code(plain, ["greedy"])
    assert ".R1G." in old and not read_result_code(old).hints
    g = gather(f"Anna: {code}\nBen: {old}")
    assert len(g.results) == 2
    board = leaderboard_html(g)
    assert board.count("used hints") == 1 and "<th>hints</th>" in board
    anna = next(r for r in board.split("<tr")[1:] if "Anna" in r)
    assert "data-hints='used'" in anna
    # a class with no hints shows no hints column at all
    assert "hints" not in leaderboard_html(gather(f"Ben: {old}"))


def test_class_play_turns_hints_off() -> None:
    room = Classroom(game="avenue", code="AV-0000-001A", bots=["greedy"])
    link = class_link(room.spec, room.deal)
    assert link is not None and "hints=off" in link
    query = link.split("?", 1)[1]
    assert dashboard_options(query).hints is False and dashboard_options("code=AV-0000-001A").hints is True
    table = Avenue.from_query(query)
    assert table.hints.button.layout.display == "none"
    assert Avenue.from_query("code=AV-0000-001A").hints.button.layout.display is None


def test_hints_in_the_other_tables_name_the_move() -> None:
    km = Kingdom(seed=4, bots=())
    km.hints.button.click()
    assert km.status_text.startswith("Hint: the expert would") and km.hints.used
    kh = Harvest(seed=4, bots=("greedy",))
    before = kh.state.fingerprint()
    kh.hints.button.click()
    assert kh.status_text.startswith("Hint: the expert would") and kh.state.fingerprint() == before


def test_without_an_expert_the_hint_button_is_off() -> None:
    class NoExpert(AvenueTable):
        BOTS: ClassVar[dict[str, Any]] = {k: v for k, v in AVENUE_BOTS.items() if k != "expert"}

    plain = NoExpert(seed=2, bots=())
    assert plain.hints.button.disabled and "No expert" in plain.hints.button.tooltip
    with_one = AvenueTable(seed=2, bots=())
    assert not with_one.hints.button.disabled
