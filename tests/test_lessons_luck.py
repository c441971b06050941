"""The luck-and-skill lesson: the saved table and the docs agree, the formula worked step by step, and a class's
replayed scores placed on its deal's beginner–expert–hindsight line."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from sheetkit.analysis import luck_lesson as ll
from sheetkit.analysis.results import gather, results_csv

REPO = Path(__file__).resolve().parents[1]


def test_the_docs_table_is_the_saved_benchmark() -> None:
    saved = ll.load_saved()
    docs = (REPO / "docs" / "analysis.md").read_text(encoding="utf-8")
    assert ll.markdown_table(saved) in docs, "rerun: python benchmarks/bot_strength.py --table, paste into docs"
    assert saved["command"] in docs
    for row in ll.saved_rows(saved):
        assert len(row["scores"]) == row["deals"], "the lesson draws every saved deal"
        if row["lineup"]["expert_standin"] or row["lineup"]["hindsight_standin"]:
            assert row["stand_in"]


def test_the_formula_step_by_step() -> None:
    steps = ll.formula_steps([[1, 4, 6], [2, 5, 9], [6, 5, 8]])
    got = {s.name: s.value for s in steps}
    assert got["beginner mean"] == 3 and got["expert mean"] == Fraction(14, 3)
    assert got["learning effect"] == Fraction(5, 3) and got["luck effect"] == 3
    assert got["skill share"] == Fraction(5, 14)
    assert steps[0].how == "9 points over 3 deals = 9/3"


@pytest.fixture(scope="module")
def example_codes() -> str:
    from sheetkit.widgets.lessons.luck import example_codes

    return example_codes("avenue", students=5)


def test_a_class_sits_on_the_line_of_its_deal(example_codes: str) -> None:
    line = ll.class_line(example_codes, plays=3)
    assert len(line.students) == 5 and line.skipped == 0
    assert line.beginner <= line.expert <= line.hindsight
    for _, score in line.students:
        assert line.position(score) == (score - line.beginner) / (line.hindsight - line.beginner)
    assert line.position(line.beginner) == 0 and line.position(line.hindsight) == 1
    assert max(s for _, s in line.students) <= line.hindsight, "hindsight is at least every game on the deal"
    rows = line.rows()
    assert [r["score"] for r in rows] == sorted((s for _, s in line.students), reverse=True)


def test_a_class_csv_is_replayed_not_trusted(example_codes: str) -> None:
    got = gather(example_codes)
    text = results_csv(got.results)
    first = got.results[0]
    forged = text.replace(f",{first.name},{first.score},", f",{first.name},999,", 1)
    assert forged != text
    line = ll.class_line(csv_text=forged, plays=2)
    assert dict(line.students)[first.name] == first.score
    assert 999 not in dict(line.students).values()


def test_a_csv_without_codes_says_what_to_do() -> None:
    with pytest.raises(ValueError, match="no 'code' column"):
        ll.codes_from_csv("name,score\nAnn,12\n")
    with pytest.raises(ValueError, match="no game could be read"):
        ll.class_line("not a code at all")


def test_the_lesson_panels_draw_the_saved_deals_and_the_tiny_deck() -> None:
    from sheetkit.widgets.lessons import luck

    p = luck.three_players("avenue")
    saved_row, scores = ll.saved_scores(ll.load_saved(), "avenue")
    assert p.data["scores"].tolist() == scores
    assert "<img" in p._repr_html_() and "mean (exact)" in p._repr_html_()
    if saved_row["stand_in"]:
        assert "Stand-in figures" in p._repr_html_()
    assert "skill share" in luck.formula("avenue")._repr_html_()
    tiny = luck.tiny_exact(n=60)
    assert tiny.data["exact"].share == Fraction(22951, 25471)
    assert "22951/25471" in tiny._repr_html_()
    assert "tiny Avenue (exact)" in luck.all_games()._repr_html_()
