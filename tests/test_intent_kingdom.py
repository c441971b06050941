"""What a click or a button means at the Kingdom Maps table, without a browser or a widget
(widgets/kingdom_maps/intent.py): terrain and die in either order make the announcement, a hex is drawn or
refused in the engine's words (without coordinates the map does not print), and a refusal changes nothing."""

from __future__ import annotations

import re

import pytest
from intent_util import refusal
from sheetkit.widgets.kingdom_maps import intent
from sheetkit.widgets.kingdom_maps.intent import Announcement
from sheetkit.widgets.kingdom_maps.panels import dice_roles

from sheetkit.core.errors import IllegalAction
from sheetkit.core.play import step_table
from sheetkit.games.kingdom_maps import Announce, Bank, Deal, KingdomParams, KingdomState, Pick, Place
from sheetkit.games.kingdom_maps.terrains import FOREST

CRIT = ("A1", "A2", "B1", "B5")


def dealt(players: list[str], dice: list[int]) -> KingdomState:
    state = KingdomState(KingdomParams(), players, deal=Deal(CRIT, tuple(dice)))
    step_table(state)
    return state



def test_terrain_then_die_or_die_then_terrain_make_the_same_announcement():
    st = dealt(["You", "Bob"], [1, 3, 4])
    a = Announcement()
    assert intent.press_terrain(st, 0, a, FOREST) is None and a.started()
    assert intent.take_die(st, 0, a, 2, dice_roles(st, 0)) == Announce(FOREST, 4)
    assert not a.started()                  # made: the choices are put away
    b = Announcement()
    assert intent.take_die(st, 0, b, 2, dice_roles(st, 0)) is None
    assert intent.press_terrain(st, 0, b, FOREST) == Announce(FOREST, 4)


def test_a_terrain_out_of_turn_or_after_the_announcement_is_refused_in_the_engines_words():
    st = dealt(["Ann", "You"], [1, 3, 4])
    assert str(refusal(intent.press_terrain, st, 1, Announcement(), FOREST)) == "wait for Ann to announce the terrain"
    st.apply(0, Announce(FOREST, 4))
    e = refusal(intent.press_terrain, st, 1, Announcement(), FOREST)
    assert str(e) == "the terrain is already announced this turn"


def test_a_hex_before_announcing_is_refused_in_the_engines_words():
    st = dealt(["You", "Bob"], [1, 3, 4])
    before = st.fingerprint()
    e = refusal(intent.hex_click, st, 0, st.board.coords[0])
    assert (e.code, str(e)) == ("announce-first", "first announce a terrain and take a die")
    assert st.fingerprint() == before


def test_a_drawn_hex_is_refused_without_coordinates_and_a_legal_one_is_drawn():
    st = dealt(["You", "Bob"], [1, 3, 4])
    st.apply(0, Announce(FOREST, 4))
    first = st.legal_hexes(0)[0]
    assert intent.hex_click(st, 0, first) == Place(*first)
    st.apply(0, Place(*first))
    e = refusal(intent.hex_click, st, 0, first)
    assert e.code == "drawn" and "already drawn" in str(e)
    assert not re.search(r"\(-?\d+, -?\d+\)", str(e)), "the map prints no coordinates"
    with pytest.raises(IllegalAction, match=re.escape(f"hex {first} is already drawn".replace("'", ""))):
        st.check(0, Place(*first))          # the engine's own message names it, for records


def test_a_die_taken_by_the_active_player_is_refused_and_a_free_one_is_picked():
    st = dealt(["Ann", "You"], [1, 3, 4])
    st.apply(0, Announce(FOREST, 4))
    roles = dice_roles(st, 1)
    taken = next(k for k, (_, role, _) in enumerate(roles) if role == "taken")
    free = next(k for k, (_, role, _) in enumerate(roles) if not role)
    assert "already taken (Ann took)" in str(refusal(intent.take_die, st, 1, Announcement(), taken, roles))
    assert intent.take_die(st, 1, Announcement(), free, roles) == Pick(st.dice[free])
    assert refusal(intent.take_die, st, 1, Announcement(), 7, roles).code == "no-die"


def test_confirm_waits_for_your_whole_drawing_and_a_lit_criterion_banks():
    st = dealt(["You", "Bob"], [1, 3, 4])
    assert not intent.may_confirm(st, 0)
    st.apply(0, Announce(FOREST, 4))
    while 0 in st.current_players():
        bank = next((a for a in st.legal_actions(0) if isinstance(a, Bank)), None)
        if bank is not None:
            assert intent.beside_map_click(st, 0, ("crit", bank.criterion)) == bank
        assert intent.beside_map_click(st, 0, None) is None
        st.apply(0, next(a for a in st.legal_actions(0) if not type(a).__name__ == "Power"))
    assert intent.may_confirm(st, 0)
    e = refusal(intent.take_die, st, 0, Announcement(), 0, dice_roles(st, 0))
    assert "finished this drawing" in str(e)
