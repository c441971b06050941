"""Two scripted Kingdom Maps games with fixed dice and final scores worked out by hand.

Both use a fixed deal, criteria and dice given by the record
(docs/kingdom_maps.md §Records with a fixed deal (lessons, tests)); every move goes through the checked
``apply``, and the records replay to the same state.
"""

from __future__ import annotations

import json

import pytest

from sheetkit.core.errors import IllegalAction
from sheetkit.core.grid import HexGrid
from sheetkit.core.records import replay
from sheetkit.games.kingdom_maps import (
    Announce,
    Bank,
    Board,
    Deal,
    KingdomParams,
    KingdomState,
    Pass,
    Pick,
    Place,
    Power,
    load_map,
)
from sheetkit.games.kingdom_maps.terrains import FIELD, FOREST, LAKE, MOUNTAIN

DEFAULT = load_map("default")


def test_scripted_solo_game() -> None:
    """docs/kingdom_maps.md §Solo play, §Powers, §Game end: two solo turns, then the deal's dice run out.

    Turn 1 — roll 3 5 2: announce Mountains, take the 3; draw 3 mountains along the top row.
             roll 4 1: the 1 is the amount, so the 4 names the terrain — 1 lake, beside the mountains.
    Turn 2 — roll 6 2 2: announce Forests, take a 2; draw (3, -3) — a +1/-1 hex, one power — and (4, -3).
             roll 3 4: take the 3 for the amount (terrain 4, Lakes), spend the power: -1 → 2 lakes.
    The deal had 10 dice, a third turn needs 5 more: the game ends.

    Final map: mountains (0,-4) (1,-4) (2,-4); lakes (3,-4) (2,-3) (1,-3) — one lake; forests (3,-3) (4,-3).
      A1 one range of 3 mountains ............................................. 6
      A4 the lake touches mountains and forests: 2 terrains × 2 .................... 4
      B1 round the border, only mountain (2,-4) → lake (3,-4) changes: 1 × 2 ...... 2
      B5 three groups (mountains, lake, forests) × 2 .............................. 6
      total 18 (no ? hex drawn)
    """
    state = KingdomState(KingdomParams(), ["Solo"], deal=Deal(("A1", "A4", "B1", "B5"), (3, 5, 2, 4, 1, 6, 2, 2, 3, 4)))
    assert state.apply_chance() == {"chance": "criteria", "criteria": ["A1", "A4", "B1", "B5"]}
    assert state.apply_chance() == {"chance": "roll", "dice": [3, 5, 2]}
    state.apply(0, Announce(MOUNTAIN, 3))
    assert state.sheets[0].uses[MOUNTAIN] == 2
    for q in (0, 1, 2):
        state.apply(0, Place(q, -4))
    assert state.is_chance_node()
    assert state.apply_chance() == {"chance": "roll", "dice": [4, 1]}
    assert state.legal_actions(0) == [Pick(1), Pick(4)]
    state.apply(0, Pick(1))
    assert state.terrain == LAKE and state.sheets[0].uses[LAKE] == 3  # the second drawing crosses out nothing
    state.apply(0, Place(3, -4))
    assert state.apply_chance() == {"chance": "roll", "dice": [6, 2, 2]}
    assert state.turn == 2
    state.apply(0, Announce(FOREST, 2))
    state.apply(0, Place(3, -3))
    assert state.sheets[0].powers == 1
    state.apply(0, Place(4, -3))
    assert state.apply_chance() == {"chance": "roll", "dice": [3, 4]}
    state.apply(0, Pick(3))
    assert state.terrain == LAKE
    state.apply(0, Power(-1))
    assert state.amount(0) == 2 and state.terrain == LAKE  # the power changed the amount, not the terrain die
    state.apply(0, Place(2, -3))
    state.apply(0, Place(1, -3))
    assert state.apply_chance() == {"chance": "end"}
    assert state.is_terminal() and state.end_reason == "the deal's dice ran out"
    assert state.criterion_scores(0) == {"A1": 6, "A4": 4, "B1": 2, "B5": 6}
    assert state.scores() == [18]
    b = state.breakdown(0)
    assert b["total"] == 18 and b["questions"] == [] and b["placing"] == 1 and b["drawn"] == 8
    assert state.legal_actions(0) == [] and state.current_players() == []
    again = replay(json.loads(json.dumps(state.to_record())))
    assert again.fingerprint() == state.fingerprint()


def tiny_params() -> KingdomParams:
    """A 7-hex map: the centre (0, 0) is a ? hex, (1, 0) a +1/-1 hex."""
    return KingdomParams(inline_map=Board(HexGrid.hexagon(1).hexes, powers=[(1, 0)], questions=[(0, 0)], name="tiny"))


def test_scripted_two_player_game() -> None:
    """docs/kingdom_maps.md §A turn, §Question hexes, §No room to draw: two players on a 7-hex map until one runs out
    of room.

    Turn 1 (Ann active) — roll 3 2 5: Ann announces Lakes and takes the 3; Bob picks the 2.
        Ann: lakes (0,0) [?], (1,0) [+1/-1], (1,-1); she banks B5 at the end of the turn: 1 group → 2.
        Bob: lakes (-1,0), (-1,1).
    Turn 2 (Bob active) — roll 4 1 6: Bob announces Fields and takes the 4; Ann picks the 1.
        Ann: field (0,-1).  Bob: fields (0,0) [?], (0,-1), (1,-1), (1,0) [+1/-1]; he banks A3:
        fields (0,0) and (0,-1) touch a lake → 4.
    Turn 3 (Ann active) — roll 2 5 5: Ann announces Forests and takes the 2: forests (-1,0), (-1,1).
        Bob must pick a 5 but has one empty hex: even his power (5 → 4) cannot help, so he draws
        nothing — and the game ends after this turn.

    Ann: A2 her only forest has 2 hexes (3 needed) → 0; A3 field (0,-1) touches a lake → 2; B1 border
         changes forest→field, field→lake → 2 × 2 = 4; B5 groups of 2+: lake, forest (the lone field
         does not count) → 4; banked 2.  Total 12.
    Bob: A2 0; A3 4; B1 one change (lake (-1,0) → field (0,-1)) → 2; B5 lake, fields → 4; banked 4.  Total 14.
    """
    deal = Deal(("A2", "A3", "B1", "B5"), (3, 2, 5, 4, 1, 6, 2, 5, 5))
    state = KingdomState(tiny_params(), ["Ann", "Bob"], deal=deal)
    state.apply_chance()
    assert state.apply_chance() == {"chance": "roll", "dice": [3, 2, 5]}
    assert state.current_players() == [0]
    with pytest.raises(IllegalAction, match="wait for Ann to announce the terrain"):
        state.apply(1, Pick(2))
    state.apply(0, Announce(LAKE, 3))
    assert state.current_players() == [0, 1]
    with pytest.raises(IllegalAction, match="you can pick 2 or 5 — Ann took the 3"):
        state.apply(1, Pick(3))
    state.apply(1, Pick(2))
    for q, r in [(0, 0), (1, 0), (1, -1)]:
        state.apply(0, Place(q, r))
    assert state.sheets[0].powers == 1 and state.sheets[0].questions == 1
    assert state.legal_actions(0) == [Bank(c) for c in ("A2", "A3", "B1", "B5")]
    with pytest.raises(IllegalAction, match="criterion B3 is not in play"):
        state.apply(0, Bank("B3"))
    state.apply(0, Bank("B5"))
    assert state.sheets[0].banked == [("B5", 2)]
    state.apply(1, Place(-1, 0))
    state.apply(1, Place(-1, 1))
    assert state.apply_chance() == {"chance": "roll", "dice": [4, 1, 6]}
    assert state.active == 1 and state.current_players() == [1]
    state.apply(1, Announce(FIELD, 4))
    state.apply(0, Pick(1))
    state.apply(0, Place(0, -1))
    for q, r in [(0, 0), (0, -1), (1, -1), (1, 0)]:
        state.apply(1, Place(q, r))
    state.apply(1, Bank("A3"))
    assert state.sheets[1].banked == [("A3", 4)] and state.sheets[1].powers == 1
    assert state.apply_chance() == {"chance": "roll", "dice": [2, 5, 5]}
    assert state.active == 0
    state.apply(0, Announce(FOREST, 2))
    state.apply(1, Pick(5))
    assert state.legal_actions(1) == [Power(1), Power(-1), Pass()]
    state.apply(1, Power(-1))
    assert state.legal_actions(1) == [Pass()]  # his only power spent, and 4 still does not fit in one hex
    state.apply(1, Pass())
    assert not state.is_chance_node()  # Ann still draws
    state.apply(0, Place(-1, 0))
    state.apply(0, Place(-1, 1))
    assert state.next_table_step() == "end"
    assert state.apply_chance() == {"chance": "end"}
    assert state.end_reason == "Bob could not draw the amount"
    assert state.criterion_scores(0) == {"A2": 0, "A3": 2, "B1": 4, "B5": 4}
    assert state.criterion_scores(1) == {"A2": 0, "A3": 4, "B1": 2, "B5": 4}
    assert state.scores() == [12, 14]
    assert state.placings() == [2, 1]
    assert [b["question_total"] for b in (state.breakdown(0), state.breakdown(1))] == [2, 4]
    again = replay(json.loads(json.dumps(state.to_record())))
    assert again.fingerprint() == state.fingerprint() and again.scores() == [12, 14]
