"""What a click or a button means at the Avenue table, without a browser or a widget (widgets/avenue/intent.py):
a tap on a cell is the face-up road there, and every refusal is the engine's words with nothing changed."""

from __future__ import annotations

import pytest
from intent_util import refusal
from sheetkit.widgets.avenue import intent

from sheetkit.core.errors import IllegalAction
from sheetkit.core.play import step_table
from sheetkit.games.avenue import Draw, Pass, Peek, new_game


def flipped(players: int = 1, seed: int = 3):
    """A game moved on to its first face-up road."""
    st = new_game(players, seed=seed)
    while st.is_chance_node():
        step_table(st)
    return st



def test_a_tap_on_an_empty_cell_is_the_face_up_road_there():
    st = flipped()
    assert intent.cell_click(st, 0, (2, 3)) == Draw(2, 3)
    assert intent.draws_now(st, 0)


def test_a_tap_on_a_cell_with_a_road_is_refused_with_the_engines_words_and_changes_nothing():
    st = flipped()
    st.apply(0, Draw(2, 3))
    step_table(st)
    while st.is_chance_node():
        step_table(st)
    before = st.fingerprint()
    e = refusal(intent.cell_click, st, 0, (2, 3))
    assert e.code == "occupied"
    assert str(e) == "the cell at row 3, col 4 already has a road"     # counted as the sheet prints them
    with pytest.raises(IllegalAction) as engine:
        st.check(0, Draw(2, 3))
    assert str(engine.value) == str(e)
    assert st.fingerprint() == before


def test_a_tap_beside_the_grid_or_a_second_road_on_one_card_is_refused():
    st = flipped(players=2)
    assert refusal(intent.cell_click, st, 0, None).code == "off-grid"
    st.apply(0, Draw(0, 0))
    e = refusal(intent.cell_click, st, 0, (1, 1))        # the other player still draws on this card
    assert e.code == "acted" and "undo first" in str(e)
    assert not intent.draws_now(st, 0)
    st.apply(1, Draw(0, 0))
    assert str(refusal(intent.cell_click, st, 0, (1, 1))) == "wait for the next card to be flipped"


def test_next_card_before_everyone_acted_says_what_to_do_first_in_the_engines_words():
    st = flipped(players=2)
    e = refusal(intent.next_card, st)
    assert str(e).startswith(f"first draw road {st.card.number} in an empty cell, or peek")
    st.apply(0, Draw(0, 0))
    assert refusal(intent.next_card, st).code == "not-table"       # the other player has not acted yet
    st.apply(1, Draw(0, 0))
    intent.next_card(st)                                            # everyone acted: allowed


def test_peek_once_a_round():
    st = flipped()
    assert intent.peek(st, 0) == Peek()
    st.apply(0, Peek())
    step_table(st)
    while st.is_chance_node():
        step_table(st)
    e = refusal(intent.peek, st, 0)
    assert str(e) == "you have already peeked this round"


def test_a_person_is_moved_for_only_when_a_pass_is_all_the_engine_allows():
    st = flipped()
    assert intent.forced_move(st, 0) is None
    assert Pass() not in st.legal_actions(0)
