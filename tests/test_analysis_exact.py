"""Exact probability: every table against its closed form, brute-force enumeration and a seeded simulation."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetkit.analysis.exact import (
    Dist,
    P,
    absorb,
    at_least_one,
    avenue_round_length,
    cards_used,
    convolve,
    dice,
    dice_sum,
    die,
    distinct_dice,
    distinct_dice_step,
    draws_until_kth,
    highest,
    hypergeometric,
    joint,
    joint_round_lengths,
    lowest,
    next_card,
    order_statistic,
    round_length,
    settle,
    sorted_dice,
    such_that,
    uniform,
)
from sheetkit.core.play import step_table
from sheetkit.games.avenue import PRESETS, AvenueState, Peek


def within(observed: float, expected: float, sd: float, n: int, k: float = 5.0) -> bool:
    """A seeded estimate of ``expected`` from n samples with standard deviation ``sd``, within k SE."""
    return abs(observed - expected) <= k * sd / math.sqrt(n)


# ---------------------------------------------------------------- the distribution type
def test_a_die_in_fractions():
    d = die()
    assert d[3] == Fraction(1, 6) and sum(d.values()) == 1
    assert d.mean() == Fraction(7, 2) and d.variance() == Fraction(35, 12)
    assert d.cdf(2) == Fraction(1, 3) and d.at_least(5) == Fraction(1, 3)
    assert d.quantile(Fraction(1, 2)) == 3 and d.support() == [1, 2, 3, 4, 5, 6]
    assert P(lambda x: x % 2 == 0, d) == Fraction(1, 2) == d.prob({2, 4, 6, 99})
    assert such_that(lambda x: x > 4, d) == uniform([5, 6])
    assert [r["cdf"] for r in d.table()][-1] == 1


def test_weights_and_equally_likely_outcomes_normalise():
    assert Dist({"H": 3, "T": 1})["H"] == Fraction(3, 4)
    assert Dist("HHT") == Dist({"H": 2, "T": 1})
    assert Dist({"a": 0, "b": 2}).support() == ["b"]
    with pytest.raises(ValueError):
        Dist({"a": -1, "b": 2})
    with pytest.raises(ValueError):
        Dist({})
    with pytest.raises(ValueError):
        die().given(lambda x: x > 6)


def test_two_dice_sum_matches_the_triangle_and_enumeration():
    two = dice_sum(2)
    assert two == dice(2).map(sum) == convolve(die(), die())
    for s in range(2, 13):
        assert two[s] == Fraction(6 - abs(s - 7), 36)
    assert joint(die(), die()) == dice(2)
    assert two.mode() == 7


# ---------------------------------------------------------------- decks: the next card, hypergeometric
def test_next_card_is_wanted_over_remaining():
    # 30 road cards left, 5 of them the road 5 you need
    assert next_card(5, 30) == Fraction(1, 6)
    assert at_least_one(1, 5, 30) == Fraction(1, 6)
    assert at_least_one(3, 5, 30) == 1 - hypergeometric(3, 5, 30)[0]
    with pytest.raises(ValueError):
        next_card(3, 0)
    with pytest.raises(ValueError):
        next_card(7, 5)


def test_hypergeometric_against_enumeration_of_a_small_deck():
    deck = "YYYGGGG"  # 3 wanted in 7
    for draws in range(len(deck) + 1):
        counts = Counter(hand.count("Y") for hand in itertools.combinations(deck, draws))
        assert hypergeometric(draws, 3, 7) == Dist(counts)


def test_hypergeometric_against_a_seeded_simulation():
    rng = np.random.default_rng(11)
    deck = np.array([1] * 22 + [0] * 20)
    n = 20_000
    got = rng.permuted(np.tile(deck, (n, 1)), axis=1)[:, :5].sum(axis=1)
    d = hypergeometric(5, 22, 42)
    assert within(got.mean(), float(d.mean()), d.stdev(), n)
    assert within((got == 3).mean(), float(d[3]), math.sqrt(float(d[3] * (1 - d[3]))), n)


# ---------------------------------------------------------------- decks: draw until the k-th yellow
def negative_hypergeometric(t: int, k: int, wanted: int, deck: int) -> Fraction:
    """Closed form: the k-th wanted card is card t."""
    return Fraction(math.comb(t - 1, k - 1) * math.comb(deck - t, wanted - k), math.comb(deck, wanted))


def test_avenue_round_one_matches_the_negative_hypergeometric_closed_form():
    d = draws_until_kth(4, 22, 42)
    assert d.support() == list(range(4, 25))  # at least the 4 yellows, at most all 20 greys too
    for t in d:
        assert d[t] == negative_hypergeometric(t, 4, 22, 42)
    assert d.mean() == Fraction(4 * 43, 23)  # k (N + 1) / (K + 1)
    assert d == avenue_round_length(PRESETS["standard"], 1)


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_draws_until_kth_against_enumeration(k):
    deck, wanted = 8, 4
    counts: Counter[int] = Counter()
    for pos in itertools.combinations(range(1, deck + 1), wanted):  # positions of the wanted cards
        counts[pos[k - 1]] += 1
    assert draws_until_kth(k, wanted, deck) == Dist(counts)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 14).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, n))).flatmap(
    lambda nk: st.tuples(st.just(nk[0]), st.just(nk[1]), st.integers(1, nk[1]))))
def test_any_small_deck_matches_the_closed_forms(deck_wanted_k):
    deck, wanted, k = deck_wanted_k
    d = draws_until_kth(k, wanted, deck)
    assert all(d[t] == negative_hypergeometric(t, k, wanted, deck) for t in d) and sum(d.values()) == 1
    assert d.mean() == Fraction(k * (deck + 1), wanted + 1)
    for draws in (0, deck // 2, deck):
        assert hypergeometric(draws, wanted, deck).mean() == Fraction(draws * wanted, deck)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 8), st.integers(0, 8), st.integers(1, 3))
def test_unconditioned_rounds_are_alike_while_yellows_last(yellow, grey, per_round):
    rounds = yellow // per_round
    for r in range(2, rounds + 1):
        assert round_length(yellow, grey, per_round, r) == round_length(yellow, grey, per_round, 1)


def test_a_deck_short_of_yellows_is_flipped_to_the_end():
    assert draws_until_kth(5, 3, 9) == Dist({9: 1})


def test_draws_until_fourth_yellow_against_a_seeded_simulation():
    rng = np.random.default_rng(5)
    n = 20_000
    yellow = rng.permuted(np.tile(np.array([1] * 22 + [0] * 20), (n, 1)), axis=1)
    t = (yellow.cumsum(axis=1) >= 4).argmax(axis=1) + 1
    d = draws_until_kth(4, 22, 42)
    assert within(t.mean(), float(d.mean()), d.stdev(), n)
    for x in (4, 6, 10):
        p = float(d[x])
        assert within((t == x).mean(), p, math.sqrt(p * (1 - p)), n)


def rule_lengths(order: str, per_round: int, rounds: int) -> tuple[int, ...]:
    """Round lengths straight from Avenue's rule: a round ends at its per_round-th yellow or an empty deck."""
    out, pos = [], 0
    for _ in range(rounds):
        start, seen = pos, 0
        while pos < len(order) and seen < per_round:
            seen += order[pos] == "Y"
            pos += 1
        out.append(pos - start)
    return tuple(out)


def arrangements(yellow: int, grey: int) -> list[str]:
    n = yellow + grey
    return ["".join("Y" if i in pos else "G" for i in range(n)) for pos in map(set, itertools.combinations(range(n),
                                                                                                     yellow))]


@pytest.mark.parametrize(("yellow", "grey", "per_round", "rounds"), [(6, 4, 2, 3), (5, 3, 2, 3), (4, 5, 3, 2)])
def test_round_lengths_of_a_shared_deck_against_enumeration(yellow, grey, per_round, rounds):
    decks = arrangements(yellow, grey)
    tally = Counter(rule_lengths(o, per_round, rounds) for o in decks)
    assert joint_round_lengths(yellow, grey, per_round, rounds) == Dist(tally)
    for r in range(1, rounds + 1):
        assert round_length(yellow, grey, per_round, r) == Dist(Counter(t[r - 1] for t in tally.elements()))
    # conditioned on the first round: the deck is partly used
    for first in {t[0] for t in tally}:
        sub = Counter(t[1] for t in tally.elements() if t[0] == first)
        assert round_length(yellow, grey, per_round, 2, given=[first]) == Dist(sub)
    assert cards_used(yellow, grey, per_round, rounds) == Dist(Counter(sum(t) for t in tally.elements()))


def test_round_two_depends_on_round_one():
    standard = PRESETS["standard"]
    after_short = avenue_round_length(standard, 2, given=[4])
    after_long = avenue_round_length(standard, 2, given=[14])
    assert after_short == draws_until_kth(4, 18, 38)  # 4 yellows used, 38 cards left, 18 yellow
    assert after_long == draws_until_kth(4, 18, 28)
    assert after_short.mean() > draws_until_kth(4, 22, 42).mean() > after_long.mean()
    # ...yet, not knowing round 1, every round is as long as the first (exchangeable gaps)
    for r in range(2, 6):
        assert avenue_round_length(standard, r) == avenue_round_length(standard, 1)
    # five rounds use exactly the cards up to the 20th yellow
    assert cards_used(22, 20, 4, 5) == draws_until_kth(20, 22, 42)
    with pytest.raises(ValueError):
        avenue_round_length(standard, 2, given=[30])  # 4 yellows + 26 greys: there are only 20


def test_the_engine_deals_round_lengths_as_computed():
    """Seeded Avenue games (peeking bot: the cards, not the drawing, matter) against the exact tables."""
    n = 400
    lengths = []
    for s in range(n):
        state = AvenueState(PRESETS["standard"], 1, seed=1000 + s)
        got = []
        while not state.is_terminal():
            step_table(state)
            if state.is_terminal():
                break
            if state.round_ends_after_this_card():
                got.append(state.cards_this_round)
            acts = state.legal_actions(0)
            state.apply_fast(0, Peek() if Peek() in acts else acts[0])
        lengths.append(got[:2])
    first = np.array([x[0] for x in lengths])
    d1 = avenue_round_length(PRESETS["standard"], 1)
    assert within(first.mean(), float(d1.mean()), d1.stdev(), n)
    second_after_long = np.array([x[1] for x in lengths if x[0] >= 9])
    mix = Dist({t: p for t, p in d1.items() if t >= 9})
    exact = sum((q * avenue_round_length(PRESETS["standard"], 2, given=[t]).mean() for t, q in mix.items()),
                Fraction(0))
    assert within(second_after_long.mean(), float(exact), 3.0, len(second_after_long))


# ---------------------------------------------------------------- dice: order statistics
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_order_statistics_against_enumeration(n):
    rolls = dice(n)
    for k in range(1, n + 1):
        assert order_statistic(n, k) == rolls.map(lambda r, k=k: sorted(r)[k - 1])


def test_highest_middle_lowest_of_3d6():
    hi, mid, lo = highest(3), order_statistic(3, 2), lowest(3)
    assert hi[6] == Fraction(91, 216) and lo[1] == Fraction(91, 216)
    assert mid == mid.map(lambda x: 7 - x) and mid.mean() == Fraction(7, 2)
    assert hi.mean() + mid.mean() + lo.mean() == 3 * die().mean()
    assert sorted_dice(3)[(1, 1, 1)] == Fraction(1, 216) and sorted_dice(3)[(1, 2, 3)] == Fraction(6, 216)
    rng = np.random.default_rng(3)
    n = 20_000
    s = np.sort(rng.integers(1, 7, size=(n, 3)), axis=1)
    for col, d in enumerate([lo, mid, hi]):
        assert within(s[:, col].mean(), float(d.mean()), d.stdev(), n)


# ---------------------------------------------------------------- dice: rerolled repeats
@pytest.mark.parametrize("reroll", ["repeats", "all"])
def test_every_pair_of_criteria_is_equally_likely(reroll):
    pairs = distinct_dice(2, 6, reroll)
    assert pairs == uniform(itertools.combinations(range(1, 7), 2))
    assert len(pairs) == 15 and set(pairs.values()) == {Fraction(1, 15)}
    # a given criterion (say A3) is in play one game in three
    assert pairs.prob(lambda p: 3 in p) == Fraction(1, 3)


@pytest.mark.parametrize("reroll", ["repeats", "all"])
def test_enumerating_the_rerolls_is_uniform_at_every_depth(reroll):
    """The proof by enumeration: after d rerolls, whatever is settled is spread evenly over the 15 pairs."""
    for d in range(5):
        kept, pending = settle(sorted_dice(2), distinct_dice_step(2, 6, reroll), d)
        assert pending == Fraction(1, 6) ** (d + 1)  # a repeat: 1 in 6 on the first roll and on each reroll
        assert len(kept) == 15 and set(kept.values()) == {(1 - pending) / 15}


def test_three_different_numbers_are_uniform_too():
    for reroll in ("repeats", "all"):
        assert distinct_dice(3, 6, reroll) == uniform(itertools.combinations(range(1, 7), 3))


def test_rerolled_pairs_against_a_seeded_simulation():
    rng = np.random.default_rng(2026)
    n = 30_000
    tally: Counter[tuple[int, int]] = Counter()
    for _ in range(n):
        a, b = rng.integers(1, 7, size=2)
        while a == b:  # the rule: reroll the repeat
            b = rng.integers(1, 7)
        tally[(min(a, b), max(a, b))] += 1
    p = 1 / 15
    for pair in itertools.combinations(range(1, 7), 2):
        assert within(tally[pair] / n, p, math.sqrt(p * (1 - p)), n)


def test_absorb_refuses_a_process_that_never_settles():
    with pytest.raises(ValueError):
        absorb(die(), lambda x: die())
    # a biased process settles where the algebra says: reroll 6s on a die → uniform on 1..5
    assert absorb(die(), lambda x: die() if x == 6 else None) == uniform(range(1, 6))
