"""Seeded chance: generators, decks, dice and derived seeds are deterministic and never use global state."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sheetkit.core.chance import MAX_SEED, Deck, Dice, derive_seed, fresh_seed, make_rng
from sheetkit.core.play import play_out
from sheetkit.core.registry import GameSpec, all_games
from sheetkit.games.avenue import BOTS, Deal, RoadCard, new_game
from sheetkit.games.avenue.cards import DEFAULT_DECK, build_deck

CARDS = list(range(42))


def deck_order(seed: int) -> list[int]:
    return Deck.shuffled(CARDS, make_rng(seed)).order()


# ----- generators and shuffles ---------------------------------------------------------------


def test_same_seed_same_stream_different_seed_different_stream() -> None:
    a, b, c = make_rng(7), make_rng(7), make_rng(8)
    xa, xb, xc = a.integers(0, 1 << 30, 20), b.integers(0, 1 << 30, 20), c.integers(0, 1 << 30, 20)
    assert list(xa) == list(xb)
    assert list(xa) != list(xc)


@given(st.integers(0, MAX_SEED))
def test_a_seeded_shuffle_is_a_permutation_and_repeats_exactly(seed: int) -> None:
    order = deck_order(seed)
    assert sorted(order) == CARDS
    assert deck_order(seed) == order


def test_different_seeds_give_different_deck_orders() -> None:
    orders = {tuple(deck_order(s)) for s in range(200)}
    assert len(orders) == 200  # 42! orders: two equal shuffles among 200 would mean the seed is ignored


def test_a_seeded_shuffle_is_the_same_in_another_process() -> None:
    """Determinism across processes (and hash seeds): a shared seed means the same deal everywhere."""
    code = ("import json; from sheetkit.core.chance import Deck, make_rng, derive_seed; "
            "print(json.dumps([Deck.shuffled(list(range(42)), make_rng(12345)).order(), "
            "derive_seed(12345, 'bot', 3), derive_seed(99, 7)]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True,
                         env={"PYTHONHASHSEED": "4242", "PATH": ""},
                         cwd=Path(__file__).resolve().parents[1])
    assert json.loads(out.stdout) == [deck_order(12345), derive_seed(12345, "bot", 3), derive_seed(99, 7)]


def test_the_shuffle_does_not_depend_on_the_cards_themselves() -> None:
    """Shuffling permutes positions: two decks of the same size cut from one seed line up card for card."""
    letters = [f"c{i}" for i in CARDS]
    assert Deck.shuffled(letters, make_rng(3)).order() == [f"c{i}" for i in deck_order(3)]


# ----- the deck ------------------------------------------------------------------------------


def test_deck_flip_peek_remaining_and_flipped() -> None:
    d = Deck(["a", "b", "c"])
    assert d.remaining() == 3 and d.peek() == "a" and d.flipped() == []
    assert d.peek() == "a"  # peeking does not take the card
    assert d.flip() == "a" and d.flip() == "b"
    assert d.remaining() == 1 and d.flipped() == ["a", "b"] and d.peek() == "c"
    assert d.flip() == "c"
    assert d.remaining() == 0 and d.peek() is None
    with pytest.raises(IndexError, match="empty"):
        d.flip()
    assert d.order() == ["a", "b", "c"]  # the whole order is kept for records


def test_a_fixed_order_from_a_record_is_flipped_exactly_in_that_order() -> None:
    order = ["3Y", "1G", "6Y", "6Y", "2G"]
    d = Deck(order)
    assert [d.flip() for _ in order] == order
    order.append("5Y")  # the deck holds its own copy
    assert d.remaining() == 0


def test_deck_order_is_a_copy_and_copies_are_independent() -> None:
    d = Deck([1, 2, 3, 4])
    d.flip()
    d.order().clear()
    assert d.remaining() == 3
    e = d.copy()
    assert e.flip() == 2 and e.remaining() == 2
    assert d.remaining() == 3 and d.peek() == 2


def test_replace_rest_keeps_the_flipped_cards_and_swaps_only_the_face_down_part() -> None:
    """Bots sample what they cannot see: the face-down part is replaced, history is kept."""
    d = Deck([1, 2, 3, 4, 5])
    d.flip()
    d.flip()
    d.replace_rest([9, 8])
    assert d.flipped() == [1, 2] and d.remaining() == 2
    assert d.order() == [1, 2, 9, 8]
    assert d.flip() == 9 and d.flip() == 8
    c = Deck([1, 2])
    c.replace_rest([])
    assert c.remaining() == 0


# ----- dice ----------------------------------------------------------------------------------


def test_dice_are_in_range_and_seeded() -> None:
    rolls = Dice(make_rng(5)).roll(600)
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
    assert Dice(make_rng(5)).roll(600) == rolls
    assert Dice(make_rng(6)).roll(600) != rolls
    assert all(isinstance(x, int) for x in rolls)
    d8 = Dice(make_rng(1), sides=8).roll(400)
    assert min(d8) == 1 and max(d8) == 8
    assert Dice(make_rng(1)).roll(0) == []


def test_rolling_in_pieces_continues_the_same_stream() -> None:
    one = Dice(make_rng(11))
    pieces = one.roll(3) + one.roll(2) + one.roll(5)
    assert pieces == Dice(make_rng(11)).roll(10)


# ----- derived and fresh seeds ---------------------------------------------------------------


@given(st.integers(0, MAX_SEED), st.lists(st.one_of(st.integers(0, 10**6), st.text(max_size=8)), max_size=3))
def test_derive_seed_is_stable_and_in_the_code_range(seed: int, labels: list[int | str]) -> None:
    s = derive_seed(seed, *labels)
    assert 0 <= s <= MAX_SEED
    assert derive_seed(seed, *labels) == s


def test_derived_seeds_differ_by_label_position_and_parent() -> None:
    seeds = {derive_seed(s, "bot", p) for s in range(20) for p in range(4)}
    assert len(seeds) == 80
    assert derive_seed(1, "bot", 2) != derive_seed(1, 2, "bot")
    assert derive_seed(1, "bot") != derive_seed(1, "review")
    assert derive_seed(1, "bot") != derive_seed(1)
    assert len({derive_seed(7, k) for k in range(1000)}) == 1000


def test_long_labels_that_share_their_first_bytes_still_differ() -> None:
    """Regression: labels used to be cut to 8 bytes, so 'montecarlo-a' and 'montecarlo-b' shared a stream."""
    assert derive_seed(1, "montecarlo-a") != derive_seed(1, "montecarlo-b")
    assert derive_seed(1, "table-bot") != derive_seed(1, "table-bo")
    assert len({derive_seed(3, f"a-long-label-{k}") for k in range(100)}) == 100


def test_short_labels_keep_their_published_streams() -> None:
    """Simulations quoted in the docs depend on these streams: a text of up to 8 bytes is one little-endian word."""
    for seed, label, k in [(0, "bot", 0), (2024, "bot", 3), (7, "review", 1)]:
        word = int.from_bytes(label.encode().ljust(8, b"\0"), "little")
        want = int(np.random.SeedSequence([seed, word, k]).generate_state(1, np.uint64)[0]) & MAX_SEED
        assert derive_seed(seed, label, k) == want


def test_fresh_seeds_are_in_the_code_range_and_do_not_repeat() -> None:
    seeds = [fresh_seed() for _ in range(50)]
    assert all(0 <= s <= MAX_SEED for s in seeds)
    assert len(set(seeds)) == 50


# ----- whole games (PettingZoo-style seed test) ------------------------------------------------


def avenue_game(seed: int, bot: str = "greedy") -> tuple[list[dict], list[int]]:
    g = new_game(["A", "B"], seed=seed)
    play_out(g, [BOTS[bot](seed=derive_seed(seed, "bot", p)) for p in range(2)])
    return g.log, g.scores()


def test_same_seed_same_game_different_seed_different_game() -> None:
    """The same seed (and bot seeds) replays the whole game card for card; another seed does not."""
    assert avenue_game(3) == avenue_game(3)
    assert avenue_game(3, "random") == avenue_game(3, "random")
    assert avenue_game(3)[0] != avenue_game(4)[0]
    a, b = new_game(1, seed=3), new_game(1, seed=3)
    assert a.farm_deck.order() == b.farm_deck.order() and a.road_deck.order() == b.road_deck.order()
    c = new_game(1, seed=4)
    assert (c.farm_deck.order(), c.road_deck.order()) != (a.farm_deck.order(), a.road_deck.order())


def test_an_avenue_deal_uses_the_published_cards() -> None:
    """docs/avenue.md §Components: 6 farm cards A–F and 42 road cards, 22 yellow and 20 grey."""
    g = new_game(1, seed=9)
    assert sorted(g.farm_deck.order()) == list("ABCDEF")
    roads = g.road_deck.order()
    assert len(roads) == 42 and sum(c.yellow for c in roads) == 22
    assert sorted(roads) == sorted(build_deck(DEFAULT_DECK))
    for n, (yellow, grey) in enumerate(DEFAULT_DECK, start=1):
        assert roads.count(RoadCard(n, True)) == yellow and roads.count(RoadCard(n, False)) == grey


def test_a_fixed_deal_is_flipped_in_its_given_order() -> None:
    roads = tuple(sorted(build_deck(DEFAULT_DECK), key=lambda c: (not c.yellow, -c.number)))
    g = new_game(1, seed=0)
    fixed = type(g)(g.params, ["Ann"], deal=Deal(tuple("FEDCBA"), roads))
    assert fixed.apply_chance() == {"chance": "farm", "card": "F"}
    assert fixed.apply_chance() == {"chance": "road", "card": roads[0].code}


@pytest.mark.parametrize("spec", all_games(), ids=lambda s: s.name)
def test_seeding_global_random_state_changes_nothing_and_games_leave_it_alone(spec: GameSpec) -> None:
    """No global randomness anywhere: numpy's and Python's global generators are neither read nor moved."""

    def play(seed: int) -> tuple[str, list[int]]:
        state = spec.new_state(spec.default_params(), 2, seed=seed)
        bots = [spec.bots["random"](seed=derive_seed(seed, "bot", p)) for p in range(2)]
        play_out(state, bots)
        return state.fingerprint(), state.scores()

    np.random.seed(1)
    random.seed(1)
    first = play(21)
    np.random.seed(2)
    random.seed(2)
    np_before, py_before = np.random.get_state(), random.getstate()
    second = play(21)
    np_after, py_after = np.random.get_state(), random.getstate()
    assert first == second
    assert py_before == py_after
    assert np_before[0] == np_after[0] and np.array_equal(np_before[1], np_after[1]) and np_before[2] == np_after[2]
