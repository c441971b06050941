"""The skill share: the formula against hand-counted fractions, the bootstrap, determinism, the tiny deck."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from sheetkit.analysis.skill import (
    SkillComparison,
    SkillShare,
    bootstrap_share,
    compare_skill,
    deal_scores,
    lineup,
    relative_skill,
    skill_share,
)
from sheetkit.analysis.skill_exact import all_deals, exact_skill, hindsight_best, tiny_params
from sheetkit.core.play import play_out
from sheetkit.games.avenue.bots import GreedyBot
from sheetkit.games.avenue.state import AvenueState


def _share(scores: list[list[int]]) -> SkillShare:
    arr = np.array(scores, dtype=np.int64)
    return SkillShare("avenue", "standard", None, 1, 0, lineup("avenue", expert="greedy"), arr,
                      np.zeros(len(arr), dtype=bool), len(arr))


def test_the_formula_is_learning_over_learning_plus_luck() -> None:
    # beginner 10, expert 25, hindsight 30: learning 15, luck 5, share 15/20.
    assert relative_skill(10, 25, 30) == Fraction(3, 4)
    assert relative_skill(Fraction(1, 3), Fraction(2, 3), Fraction(4, 3)) == Fraction(1, 3)
    # Hindsight no better than the beginner: no share can be said.
    assert relative_skill(5, 5, 5) is None


def test_point_estimates_are_exact_fractions_of_the_deals() -> None:
    # Three deals (beginner, expert, hindsight): means 3, 14/3, 23/3 — learning 5/3, luck 3, share 5/14.
    s = _share([[1, 4, 6], [2, 5, 9], [6, 5, 8]])
    assert s.mean("beginner") == 3 and s.mean("expert") == Fraction(14, 3) and s.mean("hindsight") == Fraction(23, 3)
    assert s.learning == Fraction(5, 3) and s.luck == 3
    assert s.share == Fraction(5, 14)
    row = s.row()
    assert row["share_exact"] == "5/14" and row["share"] == round(5 / 14, 4)


def test_bootstrap_interval_holds_the_estimate_and_is_reproducible() -> None:
    rng = np.random.default_rng(1)
    b = rng.normal(0, 5, 300)
    scores = np.stack([b, b + 20 + rng.normal(0, 3, 300), b + 30 + rng.normal(0, 3, 300)], axis=1).round()
    one, two = bootstrap_share(scores, seed=4), bootstrap_share(scores, seed=4)
    assert one == two
    assert one.share.low < one.share.estimate < one.share.high
    assert one.learning.contains(float(scores[:, 1].mean() - scores[:, 0].mean()))
    assert bootstrap_share(scores, seed=5) != one          # another seed, other resamples


def test_bootstrap_interval_covers_the_true_share_about_95_times_in_100() -> None:
    # Deals where the true means are beginner 0, expert 6, hindsight 10: true share 0.6.
    rng = np.random.default_rng(7)
    hits = 0
    for rep in range(120):
        luck_of_deal = rng.normal(0, 4, 80)
        scores = np.stack([luck_of_deal + rng.normal(0, 2, 80), luck_of_deal + 6 + rng.normal(0, 2, 80),
                           luck_of_deal + 10 + rng.normal(0, 2, 80)], axis=1)
        iv = bootstrap_share(scores, resamples=600, seed=rep).share
        hits += iv.contains(0.6)
    assert 0.88 <= hits / 120 <= 1.0


def test_the_same_seed_gives_the_same_table_in_this_process_and_in_a_pool() -> None:
    quick = {"expert": "greedy", "hindsight": False, "progress": False}
    a = skill_share("kingdom-maps", n=4, seed=3, **quick)
    b = skill_share("kingdom-maps", n=4, seed=3, workers=2, chunk_size=1, **quick)
    assert np.array_equal(a.scores, b.scores) and a.share == b.share
    assert not np.array_equal(a.scores, skill_share("kingdom-maps", n=4, seed=4, **quick).scores)


@pytest.mark.parametrize("game", ["avenue", "kingdom-maps"])
def test_the_real_expert_and_hindsight_play_their_roles(game: str) -> None:
    s = skill_share(game, n=2, seed=1, budget=0.1, expert_budget=0.1, progress=False)
    assert not s.lineup.standin, "the game's own expert bot and hindsight search"
    assert s.lineup.label("hindsight") == "hindsight search (told the whole deal)"
    assert (s.values("hindsight") >= s.values("expert")).all()
    assert (s.values("expert") > s.values("beginner")).all()


def test_stand_ins_are_named_as_such() -> None:
    who = lineup("avenue", expert="greedy", hindsight=False)
    assert who.standin and "stand-in for the expert" in who.label("expert")
    assert "stand-in for hindsight" in who.label("hindsight")


def test_key_harvest_rotates_the_measured_seat_against_the_same_opponents() -> None:
    from sheetkit.analysis.montecarlo import play_one
    from sheetkit.games.key_harvest.params import PRESETS

    who = lineup("key-harvest", expert="greedy", hindsight=False, standin_runs=2)
    # Deal 1 of a 2-player batch measures seat 1: its expert game is that bot in seat 1 beside a greedy bot.
    _, e, h, _ = deal_scores("key-harvest", PRESETS["standard"], 2, who, 0, 1)
    scores, _ = play_one("key-harvest", PRESETS["standard"], ["greedy", who.expert], 0, 1)
    assert e == scores[1]
    assert h >= e


def test_comparison_is_the_difference_of_the_two_shares() -> None:
    c = compare_skill("kingdom-maps", "standard", "standard", n=4, progress=False, standin_runs=2, expert="greedy",
                      hindsight=False)
    assert isinstance(c, SkillComparison)
    assert np.array_equal(c.old.scores, c.new.scores)
    d = c.difference()
    assert d.estimate == 0 and d.low == 0 and d.high == 0


# ----- the tiny deck, solved completely ------------------------------------------------------------------
@pytest.fixture(scope="module")
def tiny() -> object:
    return exact_skill()


def _random_mean_brute_force(params: object) -> Fraction:
    """Every deal, every sequence of uniformly random choices: the random bot's exact mean, by enumeration."""
    total = Fraction(0)
    deals = all_deals(params)  # type: ignore[arg-type]

    def walk(s: AvenueState) -> Fraction:
        while s.is_chance_node() and not s.is_terminal():
            s.apply_chance()
        if s.is_terminal():
            return Fraction(s.total(0))
        acts = s.legal_actions(0)
        out = Fraction(0)
        for a in acts:
            t = s.clone()
            t.apply_fast(0, a)
            out += walk(t)
        return out / len(acts)

    for d in deals:
        total += walk(AvenueState(params, ["x"], deal=d))  # type: ignore[arg-type]
    return total / len(deals)


def _hindsight_brute_force(params: object, deal: object) -> int:
    def walk(s: AvenueState) -> int:
        while s.is_chance_node() and not s.is_terminal():
            s.apply_chance()
        if s.is_terminal():
            return s.total(0)
        best = None
        for a in s.legal_actions(0):
            t = s.clone()
            t.apply_fast(0, a)
            v = walk(t)
            best = v if best is None else max(best, v)
        return best  # type: ignore[return-value]

    return walk(AvenueState(params, ["x"], deal=deal))  # type: ignore[arg-type]


def test_tiny_deck_counts_every_deal_once() -> None:
    deals = all_deals(tiny_params())
    # 2 farm orders × 4! orders of four different road cards.
    assert len(deals) == 2 * 24 == len({(d.farms, d.roads) for d in deals})


def test_tiny_deck_beginner_is_the_random_bots_exact_mean(tiny: object) -> None:
    assert tiny.beginner == _random_mean_brute_force(tiny_params())  # type: ignore[attr-defined]


def test_tiny_deck_hindsight_is_the_true_optimum_of_each_deal() -> None:
    params = tiny_params()
    for d in itertools.islice(all_deals(params), 0, 48, 7):
        assert hindsight_best(params, d) == _hindsight_brute_force(params, d)


def test_tiny_deck_expert_lies_between_any_fair_bot_and_hindsight(tiny: object) -> None:
    params = tiny_params()
    greedy = []
    for d in all_deals(params):
        s = AvenueState(params, ["g"], deal=d)
        play_out(s, [GreedyBot()], fast=True)
        greedy.append(s.total(0))
    greedy_mean = Fraction(sum(greedy), len(greedy))
    assert tiny.beginner < greedy_mean <= tiny.expert <= tiny.hindsight  # type: ignore[attr-defined]
    assert tiny.share == (tiny.expert - tiny.beginner) / (tiny.hindsight - tiny.beginner)  # type: ignore[attr-defined]


def test_simulated_random_bot_agrees_with_the_exact_beginner(tiny: object) -> None:
    s = skill_share("avenue", tiny_params(), n=600, seed=2, expert="greedy", standin_runs=1, hindsight=False,
                    progress=False)
    iv = s.bootstrap().learning
    assert iv.low <= float(s.mean("expert") - tiny.beginner) <= iv.high  # type: ignore[attr-defined]
    from sheetkit.analysis.montecarlo import mean_ci

    assert mean_ci(s.values("beginner")).contains(float(tiny.beginner))  # type: ignore[attr-defined]
