"""The probability lessons: every exact answer against a formula or enumeration and against the real engine's
seeded games; the lesson helpers; and the notebooks' shape (thin cells, credits, hidden answers, fast tables)."""

from __future__ import annotations

import itertools
import math
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

import nbformat
import numpy as np
import pytest

from sheetkit.analysis import exact, lessons
from sheetkit.analysis.exact import avenue_round_length, draws_until_kth, order_statistic
from sheetkit.games.avenue import PRESETS, AvenueState, GreedyBot, Peek
from sheetkit.games.kingdom_maps.criteria import CRITERIA

LESSONS = Path(__file__).resolve().parents[1] / "notebooks" / "lessons"
STANDARD = PRESETS["standard"]


def within(observed: float, expected: float, sd: float, n: int, k: float = 5.0) -> bool:
    return abs(observed - expected) <= k * sd / math.sqrt(n) + 1e-12


@pytest.fixture(scope="module")
def deals() -> lessons.AvenueDeals:
    return lessons.engine_avenue_deals(1500, 3)


# ----------------------------------------------------------------------------------- Avenue
@pytest.mark.parametrize(("k", "wanted", "deck"), [(4, 22, 42), (3, 22, 42), (1, 5, 9), (2, 5, 10), (4, 8, 16)])
def test_counting_the_closed_form_and_listing_agree(k, wanted, deck):
    assert lessons.negative_hypergeometric(k, wanted, deck) == draws_until_kth(k, wanted, deck)
    if math.comb(deck, wanted) <= 250_000:
        assert lessons.enumerate_round_length(k, wanted, deck) == draws_until_kth(k, wanted, deck)


def test_listing_the_real_deck_is_refused():
    with pytest.raises(ValueError, match="too many"):
        lessons.enumerate_round_length(4, 22, 42)


def test_the_engine_deals_round_lengths_as_counted(deals):
    one = draws_until_kth(4, 22, 42)
    for r in range(5):              # every round, not knowing the others, has round 1's distribution
        x = deals.lengths[:, r]
        assert within(x.mean(), float(one.mean()), one.stdev(), deals.n)
        assert within((x == 6).mean(), float(one[6]), math.sqrt(float(one[6] * (1 - one[6]))), deals.n)
    used = exact.cards_used(22, 20, 4, 5)
    assert within(deals.lengths.sum(axis=1).mean(), float(used.mean()), used.stdev(), deals.n)
    assert all(sorted(f) == sorted(set(f)) and len(f) == 5 for f in deals.farms)


def test_round_two_depends_on_round_one_in_the_engine_too(deals):
    given = lessons.round_two_given_one(STANDARD)
    means = [given[L].mean() for L in sorted(given)]
    assert all(a > b for a, b in itertools.pairwise(means)), "a longer round 1, a shorter round 2"
    assert given[12] == draws_until_kth(4, 18, 30) and given[12].mean() == Fraction(124, 19)
    r1, r2 = deals.lengths[:, 0], deals.lengths[:, 1]
    for L in (5, 6, 7, 8):
        sel = r1 == L
        d = given[L]
        assert within(r2[sel].mean(), float(d.mean()), d.stdev(), int(sel.sum()))


@pytest.mark.parametrize("flipped", range(5))
def test_the_farm_you_need(flipped, deals):
    got = lessons.farm_chances(flipped)
    assert got["next"] == got["next_formula"] == Fraction(1, 6 - flipped)
    assert got["scored"] == got["scored_formula"] == Fraction(5 - flipped, 6 - flipped)
    hits = total = 0
    for order in deals.farms:
        for x in "ABCDEF":
            if x not in order[:flipped]:
                total += 1
                hits += order[flipped] == x
    p = float(got["next"])
    assert within(hits / total, p, math.sqrt(p * (1 - p)), len(deals.farms))


def test_the_road_you_need_in_round_one(deals):
    corner, straight = lessons.road_in_round_one(1), lessons.road_in_round_one(5)
    assert corner == Fraction(959, 1265) and straight == Fraction(5537, 7475) and corner > straight
    for n in range(1, 7):
        p = float(lessons.road_in_round_one(n))
        assert within(deals.round1_roads[:, n - 1].mean(), p, math.sqrt(p * (1 - p)), deals.n)


def test_the_road_formula_against_brute_force_on_a_tiny_deck():
    """A 6-card deck: list all 720 orders and check P(a road 1 card in round 1) against the formula."""


    params = STANDARD.with_changes(deck=((1, 1), (1, 0), (0, 1), (1, 0), (0, 0), (0, 0)), yellows_per_round=2,
                                   rounds=1)
    cards = [(1, True), (1, False), (2, True), (3, False), (4, True)]
    hits = total = 0
    for order in itertools.permutations(cards):
        yellow = 0
        seen = set()
        for number, is_yellow in order:
            seen.add(number)
            yellow += is_yellow
            if yellow == 2:
                break
        hits += 1 in seen
        total += 1
    assert lessons.road_in_round_one(1, params) == Fraction(hits, total)


def test_the_peeking_bots_peek_as_their_names_say():
    state = AvenueState(STANDARD, 3, seed=11)
    bots = [lessons.NeverPeekBot(), GreedyBot(), lessons.PeekFirstBot()]
    peeks = Counter()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
            continue
        for p in state.current_players():
            a = bots[p].act(state, p)
            if isinstance(a, Peek):
                peeks[p] += 1
                if p == 2:
                    assert state.cards_this_round == 1
            state.apply(p, a)       # checked: every action is legal
    assert peeks[0] == 0 and peeks[2] == 4   # peeks first in rounds 1-4 (in round 5 one farm card is left)


def test_the_peek_experiment_is_paired_and_seeded():
    res = lessons.peek_experiment(20, 5)
    assert res.bots == ("never peeks", "greedy", "peeks first") and res.games == 20
    assert np.array_equal(res.scores, lessons.peek_experiment.__wrapped__(20, 5).scores)
    d = res.seat_diff_ci(2, 0)
    assert d.n == 20 and d.method == "paired normal"


# ------------------------------------------------------------------------------ Kingdom Maps
def test_the_engine_rolls_three_fair_dice():
    rolls, crit = lessons.engine_kingdom_rolls(3000, 2)
    s = np.sort(rolls, axis=1)
    for k in range(3):
        d = order_statistic(3, k + 1)
        assert within(s[:, k].mean(), float(d.mean()), d.stdev(), len(rolls))
    assert len(crit) == 3000 and all(len(c) == 4 and len(set(c)) == 4 for c in crit)


def test_every_pair_of_criteria_turns_up_a_fifteenth_of_the_time():
    _, crit = lessons.engine_kingdom_rolls(3000, 2)
    counts, n = lessons.criteria_pairs(crit)
    assert n == 6000 and len(counts) == 15
    p = 1 / 15
    for pair, c in counts.items():
        assert within(c / n, p, math.sqrt(p * (1 - p)), n), pair
    for code in CRITERIA:
        share = sum(code in c for c in crit) / len(crit)
        assert within(share, 1 / 3, math.sqrt(2 / 9), len(crit)), code


def test_the_die_left_for_you():
    assert lessons.die_left_for_you("highest") == order_statistic(3, 2)
    assert lessons.die_left_for_you("middle") == lessons.die_left_for_you("lowest") == order_statistic(3, 3)


def test_the_die_left_for_you_is_reproduced_by_the_engines_rolls():
    """Issue 5: each number on screen is exact and reproduced by simulation (the lesson's left_for_you panel)."""
    from sheetkit.widgets.lessons import kingdom_maps as lesson_kingdom

    panel = lesson_kingdom.left_for_you()
    for taken, d in panel.data["exact"].items():
        sim = panel.data["simulated"][taken]
        mean = float(d.mean())
        sd = math.sqrt(sum(float(p) * (x - mean) ** 2 for x, p in d.items()))
        assert within(sim.mean(), mean, sd, len(sim)), taken
        p6 = float(d.get(6, 0))
        assert within((sim == 6).mean(), p6, math.sqrt(p6 * (1 - p6)), len(sim)), taken


def test_the_bots_turns_at_the_real_table():
    turns = lessons.engine_kingdom_turns(2, 1)
    assert turns
    for t in turns:
        rest = list(t["dice"])
        rest.remove(t["taken"])
        assert t["picked"] in rest and t["best_left"] == max(rest)
        assert t["rank"] in ("lowest", "middle", "highest")


@pytest.mark.parametrize("reroll", ["repeats", "all"])
def test_rerolls_listed_depth_by_depth(reroll):
    for row in lessons.reroll_depths(6, reroll):
        assert row["pairs"] == 15 and row["all_equal"]
        assert row["each"] == row["formula"]
        assert row["pending"] == Fraction(1, 6) ** (row["rerolls"] + 1)


def test_a_rule_that_is_not_fair():
    bump = lessons.bump_rule()
    assert len(bump) == 15
    neighbours = {(1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (1, 6)}
    assert all(bump[q] == (Fraction(1, 12) if q in neighbours else Fraction(1, 18)) for q in bump)


def test_the_lessons_simulations_reproduce_their_exact_answers():
    """Issue 5: every number on screen is exact and reproduced by simulation — the bump rule and the
    dice explorer's order statistics, on seeded rolls through the engine's Dice."""
    rolled = lessons.bump_rule_rolled(6000, 0)
    for pair, p in lessons.bump_rule().items():
        assert within(rolled[pair], float(p), math.sqrt(float(p) * (1 - float(p))), 6000), pair
    for n in (1, 3, 8):
        rolls = np.sort(lessons.dice_rolled(n, 6000, 0), axis=1)
        assert rolls.shape == (6000, n) and rolls.min() >= 1 and rolls.max() <= 6
        for k in (1, n):
            d = order_statistic(n, k)
            sd = math.sqrt(float(d.variance()))
            assert within(rolls[:, k - 1].mean(), float(d.mean()), sd, 6000), (n, k)


# ----------------------------------------------------------------------- exact tables: fast
EXACT_TABLES = {
    "round 1": lambda: draws_until_kth(4, 22, 42),
    "closed form": lambda: lessons.negative_hypergeometric(4, 22, 42),
    "listed small deck": lambda: lessons.enumerate_round_length(2, 5, 10),
    "round 2 given round 1, every length": lambda: lessons.round_two_given_one(STANDARD),
    "round 2 not knowing round 1": lambda: avenue_round_length(STANDARD, 2),
    "joint rounds 1-2": lambda: exact.joint_round_lengths(22, 20, 4, 2),
    "farm chances": lambda: [lessons.farm_chances(r) for r in range(5)],
    "road in round 1": lambda: [lessons.road_in_round_one(n) for n in range(1, 7)],
    "order statistics": lambda: [order_statistic(3, k) for k in (1, 2, 3)],
    "die left for you": lambda: [lessons.die_left_for_you(t) for t in ("highest", "middle", "lowest")],
    "rerolls by depth": lambda: lessons.reroll_depths(5),
    "criteria pairs (both rules)": lambda: [exact.distinct_dice(2, 6, r) for r in ("repeats", "all")],
    "bump rule": lessons.bump_rule,
}


@pytest.mark.parametrize("name", list(EXACT_TABLES))
def test_every_exact_table_of_the_lessons_is_fast(name):
    for f in (exact.draws_until_kth, exact.hypergeometric, exact.order_statistic, exact.sorted_dice, exact.dice,
              exact.distinct_dice, exact.die):
        f.cache_clear()
    t0 = time.perf_counter()
    EXACT_TABLES[name]()
    assert time.perf_counter() - t0 < 0.25


# -------------------------------------------------------------------------------- the helpers
def test_the_avenue_lesson_panels(monkeypatch):
    from sheetkit.widgets.lessons import avenue as lesson

    monkeypatch.setattr(lesson, "DEALS", 400)
    one = lesson.round_one()
    assert one.data["counted"] == one.data["closed"] and len(one.data["simulated"]) == 400
    html = one._repr_html_()
    assert "data:image/png;base64," in html and "172/23" in html and "209/3198" in html
    assert lesson.small_deck().data["same"]
    two = lesson.round_two()
    assert two.data["same_marginal"] and two.data["cov"] == Fraction(-1720, 1587)
    assert "3/5" not in lesson.farm_next()._repr_html_() and "1/6" in lesson.farm_next()._repr_html_()
    assert "959/1265" in lesson.road_round_one()._repr_html_()
    peek = lesson.peeking(n=20)
    assert len(peek.data["diffs"]) == 3 and "never peeks" in peek._repr_html_()


def picture(fig: object) -> list[object]:
    """What a figure's first axes show: bar heights and line data."""
    ax = fig.axes[0]  # type: ignore[attr-defined]
    return [p.get_height() for p in ax.patches] + [list(line.get_ydata()) for line in ax.lines]


def test_the_live_explorers_redraw():
    from ipympl.backend_nbagg import Canvas
    from sheetkit.widgets.lessons import avenue as lesson_avenue
    from sheetkit.widgets.lessons import kingdom_maps as lesson_kingdom

    for box in (lesson_avenue.round_two_explorer(), lesson_kingdom.dice_explorer()):
        slider, words, canvas = box.children
        assert isinstance(canvas, Canvas), "live pictures are ipympl figures"
        fig = canvas.figure
        before, said = picture(fig), words.value
        slider.value = slider.max
        assert picture(fig) != before and words.value != said, "moving the slider redraws the same figure"
        assert len(fig.axes) == 1, "the figure is cleared before each redraw"


def test_the_kingdom_lesson_panels(monkeypatch):
    from sheetkit.widgets.lessons import kingdom_maps as lesson

    monkeypatch.setattr(lesson, "ROLLS", 600)
    three = lesson.three_dice()
    assert three.data["listed"] == three.data["closed"]
    assert "119/24" in three._repr_html_()
    assert lesson.criteria_rerolls().data["same"]
    eng = lesson.criteria_engine()
    assert eng.data["n"] == 1200 and eng.data["worst_se"] < 5
    assert "1/12" in lesson.unfair_rule()._repr_html_()
    assert lesson.absorb_check()


# ------------------------------------------------------------------------------ the notebooks
@pytest.mark.parametrize(("name", "credits"), [
    ("avenue_cards.ipynb", ("Eilif Svensson", "Kristian Amundsen Østby", "Aporta Games", "2016")),
    ("kingdom_dice.ipynb", ("Martín Oddino", "RunDOS Studio", "2020")),
    ("luck_and_skill.ipynb", ("Eilif Svensson", "Martín Oddino", "Richard Breese")),
])
def test_the_lesson_notebooks_are_thin_credited_and_have_hidden_answers(name, credits):
    nb = nbformat.read(LESSONS / name, as_version=4)
    first = nb.cells[0].source
    assert all(c in first for c in credits)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(len(c.source.splitlines()) <= 6 for c in code), "cells stay thin: helpers live in the library"
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert text.count("<details>") >= 3 and text.count("</details>") == text.count("<details>")
    assert "../whatif.ipynb" in text
    checked = [c for c in code if "NBVAL_CHECK_OUTPUT" in c.source]
    assert checked and all(c.outputs for c in checked), "exact answers are stored and compared by nbval"
    assert all(not c.outputs for c in code if c not in checked), "no bulky stored outputs"
