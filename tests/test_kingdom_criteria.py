"""Kingdom Maps criteria (docs/kingdom_maps.md §The 12 criteria): one hand-worked map per criterion.

Maps are text pictures of the default 61-hex map, one line per row from the top; '.' is an
empty hex, digits are terrains: 1 Mountain, 2 Forest, 3 Field, 4 Lake, 5 Meadow, 6 Village.
In the picture, a hex touches the hexes beside it in its row and the two nearest in the rows
above and below (the indentation shows which).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetkit.games.kingdom_maps import CRITERIA, GROUP_A, GROUP_B, load_map

BOARD = load_map("default")

EMPTY = """
    . . . . .
   . . . . . .
  . . . . . . .
 . . . . . . . .
. . . . . . . . .
 . . . . . . . .
  . . . . . . .
   . . . . . .
    . . . . .
"""

# (criterion, map, expected score, how it was worked out by hand)
HAND_WORKED = [
    ("A1", """
    1 1 1 . .
   . . . . . .
  . . 1 1 . . .
 . . . . . . . .
. 1 . . . . . . 1
 . 1 1 . . . . .
  . . 1 . . . .
   . . . . . .
    . . . . .
""", 12, "a range of 3 on top and a range of 4 on the left (6 each); a pair and a lone mountain score nothing"),
    ("A2", """
    2 2 . . .
   2 . . . . 2
  2 2 . . . 2 2
 . . . . . . . .
. . . . 2 . . . .
 . . . . 2 . . .
  . . . . . . .
   . . . . . .
    . . . . .
""", 8, "forests of 5, 3 and 2 hexes: the 5 and the 3 count (5 + 3); the pair is too small"),
    ("A3", """
    3 4 3 . .
   . 3 . . . .
  . . . . . . .
 . . . . . . . .
. . . 3 3 4 . . .
 . . . . . . . .
  . . . . . . .
   . . . 3 . .
    . . . 4 3
""", 12, "six fields touch a lake (three round the top lake, one in the middle row, two at the bottom); "
         "the field left of the middle pair touches none: 6 × 2"),
    ("A4", """
    1 4 4 2 .
   . 6 . . . .
  . . . . . . .
 . . . . . . . .
. . . 3 4 3 . . .
 . . . . . . . .
  . . . . . . .
   . . . . . .
    . . . . .
""", 8, "the two-hex lake on top touches a mountain, a forest and a village (3 × 2); "
        "the middle lake touches only fields (1 × 2)"),
    ("A5", """
    . . . 5 5
   . . . . 5 .
  . . . . . . .
 . . . . . . . .
5 5 5 5 . . . . .
 . . . . . . . .
  . 5 . . . . .
   5 5 . . . .
    5 . . . .
""", 14, "the line of 4 has two middle meadows with exactly 2 meadow neighbours (4); all three of the "
         "triangle do (6); in the diamond, top and bottom do, the two middle ones touch 3 (4)"),
    ("A6", """
    . 1 6 4 .
   . . . 6 . .
  . . . . . . .
 . . . . . . . .
. . . 3 6 3 . . .
 . . . . . . . .
  . . . . . . .
   . . 4 . . .
    . 2 6 5 .
""", 4, "top village: mountain + lake (2); the village below it: only a lake; the middle one: only fields; "
        "bottom village: forest, lake, meadow (2)"),
    ("B1", """
    1 1 2 3 3
   4 6 . . . .
  . . . . . . .
 . . . . . . . .
. . . . . . . . .
 . . . . . . . .
  . . . . . . .
   . . . . . .
    1 . 2 . .
""", 6, "round the border: mountain→forest, forest→field on top, and mountain→lake round the top-left "
        "corner: 3 changes × 2; the village is not on the edge; an empty hex breaks the walk"),
    ("B2", """
    1 1 1 1 1
   . . . . . .
  . . . . . . .
 . . . . . . . .
2 2 2 2 . 1 1 1 1
 3 3 3 4 3 3 3 .
  . . . . . . .
   . . . . . .
    5 5 . 5 5
""", 8, "the top row (5 mountains) and the middle row (two runs of 4: counted once) score 4 each; "
        "runs of 3 and a split 2 + 2 do not"),
    ("B3", """
    1 2 3 4 .
   1 2 3 3 2 1
  . . . . . . .
 . . . . . . . .
1 2 3 4 5 6 . . .
 . . . . . . . .
  . . . . . . .
   . . . . . .
    6 6 6 6 6
""", 10, "the top row (4 terrains) and the middle row (6) score 5 each; 3 terrains or 1 terrain do not"),
    ("B4", """
    . . . . .
   . . . . . .
  . . . . . . .
 . . . . . . . .
1 1 1 2 2 3 3 3 3
 4 4 5 5 5 5 5 6
  6 6 . . . . .
   . . . . . .
    . . . . .
""", 8, "3 mountains, 2 forests, 4 fields, 2 lakes, 5 meadows, 3 villages: the scarcest has 2 → 2 × 4"),
    ("B5", """
    1 1 2 2 .
   . . . . . .
  . . . . . . .
 . . . . . . . .
1 . 1 . . . . . .
 . . . . . . . .
  . . . . . . .
   . . . . . .
    3 3 3 3 3
""", 6, "groups of 2+: 2 mountains, 2 forests, 5 fields → 3 × 2; the two lone mountains do not count"),
    ("B6", """
    1 1 1 1 .
   . . . . . .
  . . . . . . .
 . . . . . . . .
2 2 2 2 2 . 3 3 3
 . . . . . . 3 3
  . . . . . . .
   . . . . . .
    . . . . .
""", 6, "5 forests in a row and 5 fields (3 + 2 below) are big regions (3 each); 4 mountains are not"),
]


@pytest.mark.parametrize(("code", "art", "expected", "why"), HAND_WORKED, ids=[h[0] for h in HAND_WORKED])
def test_each_criterion_on_its_hand_worked_map(code: str, art: str, expected: int, why: str) -> None:
    """docs/kingdom_maps.md §The 12 criteria: every criterion has its own hand-worked test map."""
    cells = BOARD.parse_art(art)
    assert CRITERIA[code].score(BOARD, cells) == expected, why


def test_every_criterion_has_a_hand_worked_map_and_a_one_sentence_rule() -> None:
    """docs/kingdom_maps.md §The 12 criteria: A1–A6 and B1–B6, each written as one short rule."""
    assert sorted(h[0] for h in HAND_WORKED) == sorted(CRITERIA) == sorted(GROUP_A + GROUP_B)
    for c in CRITERIA.values():
        assert c.rule.endswith(".") and c.rule.count(". ") == 0 and len(c.rule) <= 110, c.rule
        assert c.score.__doc__ and c.score.__doc__.startswith(c.code)
        assert (c.terrain is not None) == (c.group == "A")


def test_an_empty_map_scores_nothing_anywhere() -> None:
    """docs/kingdom_maps.md §The 12 criteria: criteria reward drawing, so a blank map scores 0 everywhere."""
    cells = BOARD.parse_art(EMPTY)
    assert {c: CRITERIA[c].score(BOARD, cells) for c in CRITERIA} == dict.fromkeys(CRITERIA, 0)


def test_the_scarcest_terrain_is_zero_while_a_terrain_is_missing() -> None:
    """docs/kingdom_maps.md §The 12 criteria (B4): a terrain never drawn is the scarcest, with 0 hexes."""
    cells = BOARD.parse_art(HAND_WORKED[9][1].replace("6", "5"))
    assert CRITERIA["B4"].score(BOARD, cells) == 0


def test_text_pictures_round_trip() -> None:
    """The map pictures used by tests and lessons read back exactly."""
    cells = BOARD.parse_art(HAND_WORKED[0][1])
    assert BOARD.parse_art(BOARD.render_art(cells)) == cells
    with pytest.raises(ValueError, match="row 1 has 4 hexes"):
        BOARD.parse_art(EMPTY.replace("    . . . . .", "    . . . .", 1))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=61, max_size=61))
def test_criteria_are_pure_and_within_their_bounds(cells: list[int]) -> None:
    """docs/kingdom_maps.md §The 12 criteria: each is a pure function of a map, between 0 and its stated maximum."""
    before = list(cells)
    for c in CRITERIA.values():
        got = c.score(BOARD, cells)
        assert isinstance(got, int) and 0 <= got <= c.max_score(BOARD)
        assert c.score(BOARD, cells) == got
        assert c.guide(BOARD, cells) >= got - 1e-9
    assert cells == before
