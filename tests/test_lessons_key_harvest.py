"""The Key Harvest lesson "What is a bid worth?": the bag's exact chances against the real engine (within 5 SE),
every bid followed to exactly one fate that the engine's own journal confirms, the match-rate table's arithmetic,
the controlled bid-size experiment, the lesson panels and the notebook's shape."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import nbformat
import pytest

from sheetkit.analysis import key_harvest_lessons as kl
from sheetkit.analysis.exact import at_least_one
from sheetkit.analysis.simulate import game_seed
from sheetkit.core.chance import derive_seed
from sheetkit.core.play import play_out
from sheetkit.games.key_harvest import CROPS, START_PAIRS, GreedyBot, KeyHarvestState

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "lessons" / "key_harvest_bids.ipynb"


@pytest.fixture(scope="module")
def study() -> kl.BidStudy:
    return kl.bid_study(40, (2, 3, 4), 5, progress=False)


# ------------------------------------------------------------------------------------- the bag, exactly
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_opening_registry_is_a_hypergeometric_average_over_the_starting_pairs(players):
    chosen = list(combinations(START_PAIRS, players))
    T = 56 - 2 * players
    for c in range(len(CROPS)):
        d = kl.opening_crop(c, players)
        assert sum(d.values()) == 1
        # E[X] = 6·E[t]/T, t = tiles of the crop left after the pairs: a different route to the same mean
        mean_t = sum(Fraction(kl.crop_tiles([x for pr in ch for x in pr])[c]) for ch in chosen) / len(chosen)
        assert d.mean() == 6 * mean_t / T


def test_wine_shows_261_200_tiles_on_average_with_three_players():
    assert kl.opening_crop(0, 3).mean() == Fraction(261, 200)
    assert kl.crop_tiles() == [12, 11, 11, 11, 11]


@pytest.mark.parametrize("players", [2, 4])
def test_the_engines_setups_agree_with_the_exact_registry_within_5_se(players):
    rolls = kl.engine_openings(1500, players, 2)
    n = len(rolls)
    assert all(sum(r) == 6 for r in rolls), "the registry opens with 6 field tiles"
    for c in range(len(CROPS)):
        d = kl.opening_crop(c, players)
        none = float(d[0])
        seen = sum(r[c] == 0 for r in rolls) / n
        assert abs(seen - none) <= 5 * math.sqrt(none * (1 - none) / n), (players, c)
        mean = sum(r[c] for r in rolls) / n
        assert abs(mean - float(d.mean())) <= 5 * d.stdev() / math.sqrt(n), (players, c)


def test_the_next_draws_exact_chance_agrees_with_the_games_within_5_se(study):
    for c in range(len(CROPS)):
        for d in (1, 3, 6):
            r = kl.next_draws_check(study.openings, c, d)
            assert 0 < r["exact"] < 1 and r["games"] == 120
            assert abs(r["seen"] - float(r["exact"])) <= 5 * r["se"], (c, d)
    # one game's own chance is the card-game count: a given one of R items lies in the next d with chance d/R
    assert at_least_one(3, 1, 40) == Fraction(3, 40)
    o = study.openings[0]
    assert o.bag == 56 - 2 * o.players - 6 + kl.events_in_bag(o.players)


# ------------------------------------------------------------------------------------- every bid's fate
def test_every_bid_has_exactly_one_fate_and_the_engines_journal_agrees(study):
    for players in (2, 3, 4):
        for g in range(6):
            s = game_seed(derive_seed(5, "players", players), g)
            state = KeyHarvestState(None, players, seed=s)
            play_out(state, [GreedyBot(seed=derive_seed(s, "bot", p)) for p in range(players)], fast=True)
            fates = [f for f in study.of(players) if f.game == g]
            bids = [j for j in state.journal if j["what"] == "bid"]
            assert sorted(f.code for f in fates) == sorted(j["code"] for j in bids), "one fate per bid"
            assert {f.code: f.k for f in fates} == {j["code"]: sum(j["counters"]) for j in bids}
            got = Counter(f.outcome for f in fates)
            buys = [j for j in state.journal if j["what"] == "buy"]
            assert got["matched"] == sum(j["from"] != j["player"] for j in buys)
            assert got["claimed"] == sum(j["from"] == j["player"] for j in buys)
            for kind in ("notary", "lawyer"):
                assert got[kind] == sum(j["what"] == "choose" and j["kind"] == kind and j["value"] != "decline"
                                        for j in state.journal)
            assert got["left"] == len([c for c in state.discards if c in {f.code for f in fates}])
            assert got["deadline"] == 0 or any(j.get("event") == "deadline" for j in state.journal)
            assert [tuple(sc) for sc in study.scores if len(sc) == players][g] == tuple(state.scores())


def test_the_fates_carry_the_worths_of_their_kind(study):
    for f in study.fates:
        assert f.placed <= f.resolved and f.k >= 1 and f.outcome in kl.OUTCOMES
        assert (f.owner_worth is not None) == (f.outcome in ("matched", "claimed"))
        assert (f.buyer_worth is not None) == (f.outcome == "matched")


def test_the_match_rate_table_adds_up(study):
    rows = kl.match_rows(study.fates, ks=(1, 2, 3))
    assert [(r["players"], r["k"]) for r in rows] == [(n, k) for n in (2, 3, 4) for k in (1, 2, 3)]
    assert sum(r["bids"] for r in rows) == len(study.fates), "bids of 3 or more share the last row"
    for r in rows:
        assert sum(r[o] for o in kl.OUTCOMES) == r["bids"]
        assert 0 <= r["matched_rate"] <= 1 and 0 <= r["claimed_rate"] <= 1
        if r["bids"]:
            assert r["matched_rate"] == r["matched"] / r["bids"]
            p = r["claimed_rate"]
            assert r["claimed_se"] == pytest.approx(math.sqrt(p * (1 - p) / r["bids"]))
    # the greedy bots claim most of their bids, and a 1-counter bid is bought more often than a 2-counter one
    assert all(r["claimed_rate"] > 0.5 for r in rows if r["bids"] >= 100)
    one = sum(r["matched"] for r in rows if r["k"] == 1) / sum(r["bids"] for r in rows if r["k"] == 1)
    two = sum(r["matched"] for r in rows if r["k"] == 2) / sum(r["bids"] for r in rows if r["k"] == 2)
    assert one > two


def test_what_a_matched_bid_gains_and_loses(study):
    w = kl.matched_worth(study.fates, 3)
    matched = [f for f in study.fates if f.outcome == "matched"]
    assert w["n"] == len(matched) > 0
    assert w["gained"][0] == pytest.approx(sum(f.k for f in matched) / 3 / len(matched))
    assert w["net"][0] == pytest.approx(w["gained"][0] - w["lost"][0])
    assert 0 <= w["owner_ahead"] <= 1
    assert kl.matched_worth([], 3) == {"n": 0}


def test_the_studies_are_seeded():
    a = kl._bid_fates(None, 3, (3,), 9, None)
    b = kl._bid_fates(None, 3, (3,), 9, None)
    assert a == b and a.fates
    assert kl._bid_fates(None, 3, (3,), 10, None).scores != a.scores


def test_the_k_bidder_bids_exactly_k_on_the_same_deals():
    runs = kl.bid_sizes((1, 3), 4, (2, 4), 0, progress=False)
    for k, st in runs.items():
        mine = st.of(owner=0)
        assert mine and all(f.k == k for f in mine), "seat 0's bids are all exactly k counters"
        assert st.fixed_k == k and len(st.scores) == 8
    # common random numbers: the same setups for every k
    assert [(o.pairs, o.registry) for o in runs[1].openings] == [(o.pairs, o.registry) for o in runs[3].openings]
    assert kl.fixed_bid_study(3, 4, (2, 4), 0) is runs[3], "each (k, games) is played once"
    _, se, n = kl.seat_gap(runs[1])
    assert n == 8 and se > 0


# ------------------------------------------------------------------------------------- the panels
@pytest.fixture
def lesson(monkeypatch):
    from sheetkit.widgets.lessons import key_harvest

    monkeypatch.setattr(key_harvest, "GAMES", 30)
    monkeypatch.setattr(key_harvest, "SIZE_GAMES", 6)
    monkeypatch.setattr(key_harvest, "OPENINGS", 600)
    return key_harvest


def test_the_lesson_panels(lesson):
    reg = lesson.registry_crops(3)
    html = reg._repr_html_()
    assert "data:image/png;base64," in html and "261/200" in html and "57/50" in html
    assert len(reg.data["openings"]) == 600 and reg.data["worst_se"] < 5
    assert lesson.next_draws().data["worst_se"] < 5
    rates = lesson.match_rates()
    assert rates.data["games"] == 30 and "bought by another player" in rates._repr_html_()
    assert sum(r["bids"] for r in rates.data["rows"]) == len(kl.bid_study(30, (2, 3, 4), 0).fates)
    assert "owner net" in lesson.matched_value()._repr_html_()
    sizes = lesson.bid_sizes()
    assert set(sizes.data["gaps"]) == {1, 2, 3, 4, 5} and sizes.data["games"] == 6
    words = lesson.conclusions()
    assert len(words.data["lines"]) >= 5 and "So what is a bid worth?" in words._repr_html_()
    assert lesson.exact_mean(3, 0) == Fraction(261, 200)


def test_the_bid_explorer_redraws_for_another_k_and_more_games(lesson):
    from ipympl.backend_nbagg import Canvas

    box = lesson.bid_explorer(games=4, more=6)
    (slider, size), words, canvas = box.children[0].children, box.children[1], box.children[2]
    assert isinstance(canvas, Canvas)
    fig = canvas.figure
    heights = [p.get_height() for ax in fig.axes for p in ax.patches]
    said = words.value
    assert said.startswith("Bidding exactly 2 counters") and "in 12 games" in said
    slider.value = 1
    assert [p.get_height() for ax in fig.axes for p in ax.patches] != heights and words.value != said
    assert len(fig.axes) == 2, "the figure is cleared before each redraw"
    size.value = 6
    assert "in 18 games" in words.value


# ------------------------------------------------------------------------------------- the notebook
def test_the_notebook_is_thin_credited_and_has_hidden_answers():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    first = nb.cells[0].source
    for credit in ("Richard Breese", "R&D Games", "2007", "Rio Grande Games"):
        assert credit in first
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(len(c.source.splitlines()) <= 6 for c in code), "cells stay thin: helpers live in the library"
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert text.count("<details>") >= 3 and text.count("</details>") == text.count("<details>")
    assert "../whatif.ipynb" in text
    checked = [c for c in code if "NBVAL_CHECK_OUTPUT" in c.source]
    assert checked and all(c.outputs for c in checked), "exact answers are stored and compared by nbval"
    assert all(not c.outputs for c in code if c not in checked), "no bulky stored outputs"
    assert "261/200" in "".join(o.get("text", "") for o in checked[0].outputs)
