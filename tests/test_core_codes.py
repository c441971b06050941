"""Game codes: seed + variant ↔ "AV-XXXX-XXXX[-PRESET]", forgiving to read, strict about nonsense."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sheetkit.core.chance import MAX_SEED
from sheetkit.core.codes import GameCode, make_code, parse_code
from sheetkit.core.errors import RecordError
from sheetkit.games.avenue import PRESETS, new_game
from sheetkit.games.kingdom_maps import new_game as new_kingdom_game

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def deal_of(code: str) -> tuple[list[str], list[str]]:
    """The farm and road cards of a code's deal, top first."""
    g = new_game(1, code=code)
    return g.farm_deck.order(), [c.code for c in g.road_deck.order()]


@given(st.integers(0, MAX_SEED), st.sampled_from(sorted(PRESETS)))
def test_seed_and_variant_round_trip_through_the_code(seed: int, preset: str) -> None:
    code = make_code("AV", seed, preset)
    head = code.split("-")
    assert head[0] == "AV" and len(head[1]) == len(head[2]) == 4
    assert set(head[1] + head[2]) <= set(CROCKFORD)
    assert (len(head) == 3) == (preset == "standard")
    assert parse_code(code) == GameCode("AV", seed, preset)
    assert str(parse_code(code)) == code


@given(st.integers(0, MAX_SEED), st.sampled_from(sorted(PRESETS)))
def test_a_games_code_gives_back_its_seed_and_variant(seed: int, preset: str) -> None:
    g = new_game(1, seed=seed, variant=preset)
    code = g.game_code()
    assert code is not None
    again = new_game(1, code=code)
    assert again.seed == seed and again.params == PRESETS[preset] and again.game_code() == code


def test_known_codes_encode_as_documented() -> None:
    """README: AV-0000-001A is a deal anyone can type (seed 42 in Crockford base 32)."""
    assert make_code("AV", 42) == "AV-0000-001A"
    assert make_code("AV", 0) == "AV-0000-0000"
    assert make_code("AV", MAX_SEED) == "AV-ZZZZ-ZZZZ"
    assert make_code("av", 1, "norise") == "AV-0000-0001-NORISE"


@pytest.mark.parametrize("typed", [
    "AV-0000-001A", "av-0000-001a", " AV - 0000 - 001A ", "av 0000 001a", "AV0000001A", "av0000001a",
    "AV-0000001A", "AV0000-001A", "AV-OOOO-OOIA", "av-oooo-ooLa", "AV--0000--001A-",
])
def test_typed_codes_are_read_forgivingly(typed: str) -> None:
    """Case, spaces, missing dashes and the look-alikes O→0, I/L→1 (Crockford) are forgiven."""
    assert parse_code(typed) == GameCode("AV", 42, "standard")


@pytest.mark.parametrize("typed", ["AV-0000-001A-NORISE", "av-0000-001a-norise", "av0000001anorise",
                                   "AV-0000001A-norise"])
def test_the_variant_part_is_read_forgivingly(typed: str) -> None:
    assert parse_code(typed) == GameCode("AV", 42, "norise")
    assert new_game(1, code=typed).params == PRESETS["norise"]


@pytest.mark.parametrize(("typed", "reason"), [
    ("", "looks like AV-0K3M-Q9ZT"),
    ("hello", "two groups of 4"),
    ("AV-0000-001", "two groups of 4"),
    ("AV-0000-0001A", "two groups of 4"),
    ("AV-00000-001A", "two groups of 4"),
    ("AV-0000-001!", "'!' is not a code character"),
    ("AV-0000-00*A", "'*' is not a code character"),
    ("1234567890", "looks like AV-0K3M-Q9ZT"),
    ("AV-0000-001A-norise-extra", "looks like AV-0K3M-Q9ZT"),
    ("-", "looks like AV-0K3M-Q9ZT"),
    ("AV-0000-001A-n0-r!se", "looks like AV-0K3M-Q9ZT"),
    ("AV-0000-001A-no_rise", "looks like AV-0K3M-Q9ZT"),
])
def test_bad_codes_raise_a_plain_record_error(typed: str, reason: str) -> None:
    with pytest.raises(RecordError, match="is not a game code") as e:
        parse_code(typed)
    assert reason in str(e.value)


def test_a_long_pasted_text_is_not_echoed_in_full() -> None:
    with pytest.raises(RecordError) as e:
        parse_code("x" * 100_000)
    assert len(str(e.value)) < 200


@given(st.text(max_size=40))
def test_any_text_either_parses_or_raises_record_error(text: str) -> None:
    try:
        gc = parse_code(text)
    except RecordError as e:
        assert "is not a game code" in str(e)
    else:
        assert 0 <= gc.seed <= MAX_SEED and gc.prefix.isalpha()


def test_codes_of_another_game_or_an_unknown_variant_are_refused_by_new_game() -> None:
    with pytest.raises(RecordError, match="another game"):
        new_game(1, code="KM-0000-001A")
    with pytest.raises(RecordError, match="unknown variant 'wild'"):
        new_game(1, code="AV-0000-001A-WILD")
    with pytest.raises(RecordError, match="another game"):
        new_kingdom_game(1, code="AV-0000-001A")


def test_make_code_refuses_seeds_outside_the_code_range() -> None:
    with pytest.raises(ValueError):
        make_code("AV", -1)
    with pytest.raises(ValueError):
        make_code("AV", MAX_SEED + 1)


def test_the_same_code_deals_the_same_cards_however_it_is_typed() -> None:
    """docs/avenue.md §Playing together: same code → same cards in the same order."""
    first = deal_of("AV-0000-001A")
    assert deal_of("av0000001a") == first
    assert deal_of("AV-OOOO-OOIA") == first
    assert sorted(first[0]) == list("ABCDEF") and len(first[1]) == 42
    assert deal_of("AV-0000-001B") != first


def test_the_same_code_gives_the_same_whole_game_in_two_tables() -> None:
    """Two separate notebooks typing one code flip the same cards step by step."""
    a, b = new_game(["A"], code="AV-1234-5678"), new_game(["B"], code="av 1234 5678")
    for _ in range(6):
        while a.is_chance_node():
            assert a.apply_chance() == b.apply_chance()
        a.apply(0, a.legal_actions(0)[0])
        b.apply(0, b.legal_actions(0)[0])
    assert a.fingerprint() == b.fingerprint()


def test_kingdom_codes_round_trip_too() -> None:
    g = new_kingdom_game(2, code="km-0000-001a-long")
    assert g.game_code() == "KM-0000-001A-LONG"
    assert new_kingdom_game(2, code=g.game_code()).fingerprint() == g.fingerprint()


@pytest.mark.parametrize("typed", ["", "hello", "AV-0000-001!", "AV-0000-001A-no_rise", "AV-0000-001A-a-b"])
def test_every_refusal_shows_what_a_code_of_the_expected_game_looks_like(typed: str) -> None:
    with pytest.raises(RecordError) as e:
        parse_code(typed, "KM")
    assert "a game code looks like KM-0K3M-Q9ZT" in str(e.value)
    assert "variant name" not in str(e.value), "the player is told what to type, not what went wrong inside"
    with pytest.raises(RecordError, match="a game code looks like KM-0K3M-Q9ZT"):
        new_kingdom_game(1, code=typed)
    with pytest.raises(RecordError, match="a game code looks like AV-0K3M-Q9ZT"):
        new_game(1, code=typed)


@pytest.mark.parametrize("game", ["avenue", "kingdom-maps", "key-harvest"])
def test_every_game_refuses_garbage_with_an_example_of_its_own_code(game):
    """A mistyped code in any game's new_game says what that game's codes look like (not another game's)."""
    from importlib import import_module

    from sheetkit.core.registry import get_game

    spec = get_game(game)
    module = import_module(spec.new_state.__module__.rsplit(".", 1)[0])  # the game's package exports new_game
    with pytest.raises(RecordError) as e:
        module.new_game(code="zz garbage")
    assert f"{spec.code_prefix}-0K3M-Q9ZT" in str(e.value)
    other = "AV-0000-001A" if spec.code_prefix != "AV" else "KM-0000-0005"
    with pytest.raises(RecordError, match=f"{spec.title} codes start {spec.code_prefix}"):
        module.new_game(code=other)
