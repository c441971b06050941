"""Three full scripted Avenue games on fixed deals, every score worked out by hand from layouts/default.json."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from sheetkit.core.records import replay
from sheetkit.games.avenue import PRESETS, AvenueParams, AvenueState, Draw, Peek, parse_deal
from sheetkit.games.avenue.cards import DEFAULT_DECK, build_deck

# ---------------------------------------------------------------------------------------------
# The default sheet, read by hand from sheetkit/games/avenue/layouts/default.json
# (row 0 at the top, column 0 on the left; p = a purple grape, g = a green grape):
#
#          c0     c1     c2     c3     c4     c5
#   r0     #p     p      gg     .      pg     gg        #p purple castle, #g green castle
#   r1     gg     A      p      ppg    B      .
#   r2     p      gpp    .      g      pp     gg
#   r3     .      pgg    C      D      ppg    g
#   r4     pp     g      .      g      gpp    .
#   r5     g      E      pg     p      F      pp
#   r6     .      ppp    gg     .      g      #g
#
# Grapes per cell (purple + green) used below:
#   (0,1) 1p   (0,2) 2g   (0,4) 1p1g (0,5) 2g   (1,0) 2g   (1,2) 1p   (1,3) 2p1g
#   (2,0) 1p   (2,1) 2p1g (2,3) 1g   (2,4) 2p   (2,5) 2g   (3,1) 1p2g (3,4) 2p1g (3,5) 1g
#   (4,0) 2p   (4,1) 1g   (4,3) 1g   (4,4) 2p1g (5,0) 1g   (5,2) 1p1g (5,3) 1p   (5,5) 2p
#   (6,1) 3p   (6,2) 2g   (6,4) 1g
# Farms: A (1,1), B (1,4), C (3,2), D (3,3), E (5,1), F (5,4). Castles: purple (0,0), green (6,5).
#
# Road numbers (docs/avenue.md §Components), never rotated:
#   1 = top+left   2 = top+right   3 = right+bottom   4 = bottom+left   5 = left+right   6 = top+bottom
# Two neighbouring cells are linked when both roads have an end on their shared edge.
# ---------------------------------------------------------------------------------------------

Move = tuple[int, int] | str          # a cell to draw in, or "peek"
Round = tuple[str, list[tuple[str, list[Move]]]]   # (farm flipped, [(road card, one move per player)])


def fixed_deal(farms: str, rounds: list[Round]) -> dict[str, Any]:
    """The deal as a record holds it: the scripted cards on top, the unused cards after them."""
    played = [code for _, cards in rounds for code, _ in cards]
    rest = [c.code for c in build_deck(DEFAULT_DECK)]
    for code in played:
        rest.remove(code)  # raises if the script uses a card the deck does not have
    return {"farms": list(farms), "roads": played + rest}


def play(state: AvenueState, rounds: list[Round],
         checks: dict[tuple[int, int], Callable[[AvenueState], None]] | None = None) -> None:
    """Play the script with checked moves; ``checks[(round, card)]`` runs after everyone acted on that card."""
    checks = checks or {}
    for k, (farm, cards) in enumerate(rounds):
        assert state.apply_chance() == {"chance": "farm", "card": farm}
        for j, (code, moves) in enumerate(cards):
            assert state.apply_chance() == {"chance": "road", "card": code}
            # the round ends exactly on its 4th yellow card
            assert state.round_ends_after_this_card() == (j == len(cards) - 1)
            assert len(moves) == state.num_players
            for p, move in enumerate(moves):
                state.apply(p, Peek() if move == "peek" else Draw(*move))
            if (k + 1, j + 1) in checks:
                checks[(k + 1, j + 1)](state)
    assert state.apply_chance() == {"chance": "end"}
    assert state.is_terminal()


def box(rnd: int, farm: str, grapes: int, target: int, written: int) -> dict[str, Any]:
    """One row of the score column as breakdown() reports it."""
    return {"round": rnd, "farm": farm, "grapes": grapes, "target": target, "box": written}


def expected(player: str, boxes: list[dict[str, Any]], purple: int, green: int, penalty: int,
             placing: int) -> dict[str, Any]:
    """A full breakdown from hand-written boxes; sums are done here so the comments stay readable."""
    zeros = sum(1 for b in boxes if b["box"] == 0)
    farm_total = sum(b["box"] for b in boxes)
    return {"player": player, "farms": boxes, "castles": {"purple": purple, "green": green},
            "farm_total": farm_total, "zeros": zeros, "penalty": -penalty * zeros,
            "total": farm_total + purple + green - penalty * zeros, "placing": placing, "final": True}


def assert_replays(state: AvenueState) -> None:
    """The record (JSON text) replays to the identical state."""
    doc = json.loads(json.dumps(state.to_record()))
    assert "deal" in doc and "seed" not in doc
    assert replay(doc).fingerprint() == state.fingerprint()


# =============================================================================================
# Game 1 — three players on the same cards; three-way tie on 21, broken by the highest box.
# Farm deck A D B E C F: five rounds score A, D, B, E, C; F stays in the deck unseen.
# Players: 0 Ann, 1 Ben, 2 Cat. Every round ends on its 4th yellow card (greys are extra cards).
# =============================================================================================
GAME1: list[Round] = [
    # ---- Round 1, farm A (1,1); everyone's first box needs 1 or more.
    # Ann: A=5 (left+right): left (1,0) 3 (right+bottom) ✓, right (1,2) 4 (bottom+left) ✓.
    #      (1,0) bottom → (2,0) empty, (1,2) bottom → (2,2) empty.  A = (1,0) 2 + (1,2) 1 = 3 > 0 → 3.
    # Ben: A=6 (top+bottom): top (0,1) 4 (bottom+left) ✓, bottom (2,1) 1 (top+left) ✓;
    #      (0,1) left → castle (0,0) empty, (2,1) left → (2,0) empty.  A = (0,1) 1 + (2,1) 3 = 4 → 4.
    # Cat: A=5: left (1,0) 3 ✓, right (1,2) 1 (top+left) ✓; (2,2) 6 meets (1,2) which has no bottom end.
    #      A = 2 + 1 = 3 → 3.
    ("A", [
        ("5Y", [(1, 1), (0, 3), (1, 1)]),
        ("6Y", [(3, 0), (1, 1), (2, 2)]),
        ("1G", ["peek", (2, 1), (1, 2)]),     # Ann peeks (sees D)
        ("3Y", [(1, 0), (2, 2), (1, 0)]),
        ("4Y", [(1, 2), (0, 1), "peek"]),     # Cat peeks on the last card of the round
    ]),
    # ---- Round 2, farm D (3,3). Targets: Ann 3, Ben 4, Cat 3.
    # Ann: D=2 (top+right): top (2,3) 6 ✓, right (3,4) 1 (top+left) ✓; (2,3) top → (1,3) empty,
    #      (3,4) top → (2,4) empty.  D = (2,3) 1 + (3,4) 3 = 4 > 3 → 4.
    # Ben: D=3 (right+bottom): right (3,4) 5 ✓ → (3,5) 1 ✓; bottom (4,3) 6 ✓ → (5,3) empty.
    #      (4,5) 2 meets (3,5) which has no bottom end.  D = (3,4) 3 + (3,5) 1 + (4,3) 1 = 5 > 4 → 5.
    # Cat: D=5: left C 2 (top+right) ✓ → C top (2,2) 6 ✓ → (1,2) has no bottom; right (3,4) 1 ✓ →
    #      (3,4) top (2,4) 6 ✓ → B empty.  D = C 0 + (2,2) 0 + (3,4) 3 + (2,4) 2 = 5 > 3 → 5.
    ("D", [
        ("6Y", [(2, 3), (4, 3), (2, 4)]),
        ("5G", [(4, 2), (3, 4), (3, 3)]),
        ("2Y", [(3, 3), (4, 5), (3, 2)]),
        ("1Y", [(3, 4), (3, 5), (3, 4)]),
        ("3Y", [(6, 3), (3, 3), (4, 5)]),
    ]),
    # ---- Round 3, farm B (1,4). Targets: Ann 4, Ben 5, Cat 5.
    # Ann: B=1 (top+left): top (0,4) 6 ✓; left (1,3) 3 (right+bottom) ✓ → (1,3) bottom meets (2,3) 6 ✓,
    #      which is on Ann's D network. Grapes count again for B:
    #      B = (0,4) 2 + (1,3) 3 + (2,3) 1 + (3,4) 3 = 9 > 4 → 9.
    # Ben: B=6: top (0,4) 4 (bottom+left) ✓ → left (0,3) 5 ✓ → (0,2) empty; bottom (2,4) 2 (top+right) ✓
    #      → right (2,5) 1 (top+left) ✓ → (1,5) empty. (3,5)'s top end meets (2,5), which has no bottom.
    #      B = (0,4) 2 + (0,3) 0 + (2,4) 2 + (2,5) 2 = 6 > 5 → 6.
    # Cat: B=4 (bottom+left): bottom (2,4) 6 ✓ (Cat's D network), left (1,3) 3 ✓ → (2,3) empty.
    #      B = (1,3) 3 + (2,4) 2 + (3,4) 3 = 8 > 5 → 8.
    ("B", [
        ("1Y", [(1, 4), (2, 5), "peek"]),     # Cat peeks (sees E)
        ("6G", [(0, 4), (1, 4), (3, 0)]),
        ("4Y", [(4, 5), (0, 4), (1, 4)]),
        ("3Y", [(1, 3), (6, 3), (1, 3)]),
        ("2Y", ["peek", (2, 4), (6, 0)]),     # Ann peeks (sees E)
    ]),
    # ---- Round 4, farm E (5,1). Targets: Ann 9, Ben 6, Cat 8.
    # Ann: E=4 (bottom+left): bottom (6,1) 1 ✓ (its left end meets (6,0), empty); left (5,0) 2 (top+right) ✓
    #      → up (4,0) 6 → (3,0) 6 (drawn in round 1) → (2,0) 6 → (1,0) 3, on Ann's A network.
    #      E = (6,1) 3 + (5,0) 1 + (4,0) 2 + (3,0) 0 + (2,0) 1 + (1,0) 2 + (1,2) 1 = 10 > 9 → 10.
    # Ben: builds towards C (he peeked C) and lets E go: E=4 meets (5,0) and (6,1), both empty.
    #      E's network is E alone: 0 grapes → 0.
    # Cat: the same chain as Ann: E=4, (6,1) 1 → left (6,0) 2 ✓ (its top meets (5,0)=2, no bottom end);
    #      (5,0) 2 → (4,0) 6 → (3,0) 6 → (2,0) 6 → (1,0) 3 → A → (1,2).
    #      E = (6,1) 3 + (5,0) 1 + (4,0) 2 + (2,0) 1 + (1,0) 2 + (1,2) 1 = 10 > 8 → 10.
    ("E", [
        ("6Y", [(2, 0), (3, 0), (4, 0)]),
        ("2Y", [(5, 0), (4, 0), (5, 0)]),
        ("4G", [(5, 1), (5, 1), (5, 1)]),
        ("6G", [(4, 0), (6, 0), (2, 0)]),
        ("1Y", [(6, 1), (4, 1), (6, 1)]),
        ("5Y", [(0, 3), "peek", "peek"]),     # Ben and Cat peek (see C)
    ]),
    # ---- Round 5, farm C (3,2). Targets: Ann 10, Ben 0 (after a 0 he needs only 1), Cat 10.
    # Ann: C=1 (top+left): top (2,2) 6 ✓ → (1,2) 4 has a bottom end ✓ → Ann's E network; left (3,1) empty.
    #      C = 10 (the E network's grapes again): 10 is not more than 10 → 0.
    # Ben: C=4 (bottom+left): left (3,1) 3 ✓ → bottom (4,1) 1 ✓ → left (4,0) 2 ✓ → top (3,0) 6 ✓ →
    #      (2,0) 3 ✓ → right (2,1) 1 ✓ → A 6 → (0,1) 4. C's bottom meets (4,2), empty.
    #      C = (3,1) 3 + (4,1) 1 + (4,0) 2 + (2,0) 1 + (2,1) 3 + (0,1) 1 = 11 ≥ 1 → 11.
    # Cat: C (road 2 since round 2) is on Cat's B/D network; (2,3) 6 joins it under (1,3):
    #      C = (1,3) 3 + (2,4) 2 + (3,4) 3 + (2,3) 1 = 9, not more than 10 → 0.
    ("C", [
        ("3G", [(0, 5), (2, 0), (0, 3)]),
        ("6G", [(2, 2), (5, 5), (2, 3)]),
        ("3Y", [(1, 5), (3, 1), (6, 3)]),
        ("4Y", [(5, 5), (3, 2), (4, 2)]),
        ("5Y", ["peek", "peek", (5, 3)]),     # peeking in round 5 is legal (F is still in the deck)
        ("1Y", [(3, 2), (1, 0), (1, 5)]),
    ]),
]


def test_game1_three_players_tie_broken_by_highest_box() -> None:
    """docs/avenue.md §Winner and ties, §Playing together: three players, one deck, a 3-way tie.

    Nobody draws in a castle cell, so both castles score 0 for everyone.
      Ann  3 + 4 + 9 + 10 + 0 = 26, one 0 box → −5 → 21; highest box 10
      Ben  4 + 5 + 6 +  0 + 11 = 26, one 0 box → −5 → 21; highest box 11
      Cat  3 + 5 + 8 + 10 + 0 = 26, one 0 box → −5 → 21; highest box 10
    All three tie on 21. Ben's single highest box (11) beats 10: Ben wins. Ann and Cat are
    still tied (10 each): they share second place.
    """
    deal = parse_deal(fixed_deal("ADBECF", GAME1), AvenueParams())
    state = AvenueState(AvenueParams(), ["Ann", "Ben", "Cat"], deal=deal)

    def peeks_round1(s: AvenueState) -> None:
        # after the 3rd card of round 1: Ann peeked D, the others did not and see nothing
        assert [s.view(p)["peeked_farm"] for p in range(3)] == ["D", None, None]

    play(state, GAME1, {(1, 3): peeks_round1})

    assert state.breakdown(0) == expected("Ann", [
        box(1, "A", 3, 0, 3), box(2, "D", 4, 3, 4), box(3, "B", 9, 4, 9), box(4, "E", 10, 9, 10),
        box(5, "C", 10, 10, 0)], purple=0, green=0, penalty=5, placing=2)
    assert state.breakdown(1) == expected("Ben", [
        box(1, "A", 4, 0, 4), box(2, "D", 5, 4, 5), box(3, "B", 6, 5, 6), box(4, "E", 0, 6, 0),
        box(5, "C", 11, 0, 11)], purple=0, green=0, penalty=5, placing=1)
    assert state.breakdown(2) == expected("Cat", [
        box(1, "A", 3, 0, 3), box(2, "D", 5, 3, 5), box(3, "B", 8, 5, 8), box(4, "E", 10, 8, 10),
        box(5, "C", 9, 10, 0)], purple=0, green=0, penalty=5, placing=2)
    assert state.scores() == [21, 21, 21]
    assert state.placings() == [2, 1, 2]
    # five farms were scored; F, the sixth, is still face down and was never shown
    assert state.round_farms == ["A", "D", "B", "E", "C"]
    assert state.farm_deck.remaining() == 1
    assert_replays(state)


# =============================================================================================
# Game 2 — solo, the rising rule failing in every way, played under three rule variants.
# Farm deck F E A B D C. Player 0: Dee.
# =============================================================================================
GAME2: list[Round] = [
    # ---- Round 1, farm F (5,4): F=5 (left+right) meets (5,3) and (5,5), both empty.
    #      F's network is F alone: 0 grapes. The first farm needs 1 or more → 0.
    ("F", [
        ("5Y", [(5, 4)]),
        ("6G", [(4, 1)]),        # (4,1) 6: its bottom end waits over E
        ("1Y", ["peek"]),        # sees E
        ("2Y", [(6, 3)]),
        ("4Y", [(4, 5)]),
    ]),
    # ---- Round 2, farm E (5,1): E=6 (top+bottom): top (4,1) 6 ✓ → (3,1) empty; bottom (6,1) empty.
    #      E = (4,1) 1. After a 0 the next box needs only 1 → 1.
    ("E", [
        ("6Y", [(5, 1)]),
        ("3G", [(0, 5)]),
        ("2Y", [(6, 0)]),
        ("5Y", [(2, 2)]),
        ("3Y", ["peek"]),        # sees A
    ]),
    # ---- Round 3, farm A (1,1): A=1 (top+left): top (0,1) 4 (bottom+left) ✓ → its left end meets the
    #      purple castle, which has no road; A's left (1,0) empty.  A = (0,1) 1. 1 is not more than 1
    #      (a tie fails) → 0.
    ("A", [
        ("1Y", [(1, 1)]),
        ("4G", [(0, 1)]),
        ("4Y", [(3, 0)]),
        ("2Y", [(6, 2)]),
        ("6Y", [(1, 5)]),        # (1,5) 6 joins (0,5) 3 above it: no farm on that network
    ]),
    # ---- Round 4, farm B (1,4): B=5 (left+right): left (1,3) 2 (top+right) ✓ → (0,3) empty;
    #      right (1,5) 6 has no left end.  B = (1,3) 3. After a 0 → 3.
    ("B", [
        ("5G", [(1, 4)]),
        ("2G", [(1, 3)]),
        ("3Y", ["peek"]),        # sees D
        ("5Y", [(6, 4)]),        # joins (6,3) 2; its right end meets the empty green castle
        ("1Y", [(0, 2)]),        # its left end meets (0,1) 4, which has no right end
        ("4Y", [(2, 5)]),
    ]),
    # ---- Round 5, farm D (3,3): D=6: top (2,3) 6 ✓ → (1,3) 2 has no bottom end; bottom (4,3) 6 ✓ →
    #      (5,3) empty.  D = (2,3) 1 + (4,3) 1 = 2, less than 3 → 0.
    ("D", [
        ("6Y", [(3, 3)]),
        ("6G", [(2, 3)]),
        ("6G", [(4, 3)]),
        ("2Y", ["peek"]),        # round 5: peeking is still legal (C is in the deck)
        ("3Y", [(5, 0)]),
        ("1Y", [(3, 5)]),
    ]),
]


def _game2(params: AvenueParams) -> AvenueState:
    state = AvenueState(params, ["Dee"], deal=parse_deal(fixed_deal("FEABDC", GAME2), params))

    def tie_preview(s: AvenueState) -> None:
        # round 3 after A and (0,1) are drawn: the preview already says the tie fails
        if s.params.rising:
            assert s.preview(0)["farm"] == {"farm": "A", "grapes": 1, "target": 1, "box": 0, "beats": False}

    play(state, GAME2, {(3, 2): tie_preview})
    return state


def test_game2_rising_rule_failures_and_penalties() -> None:
    """docs/avenue.md §Scoring farms, §Final score — rising rule (first farm needs ≥1, a tie fails, after a 0 only ≥1,
    smaller fails), −5 each.

      round farm grapes must beat written
        1    F     0         0       0   first farm with no grapes
        2    E     1         0       1   after a 0, 1 is enough
        3    A     1         1       0   a tie fails
        4    B     3         0       3   after a 0
        5    D     2         3       0   smaller fails
    Castles: no road in either castle cell → 0 and 0.
    Total: 0 + 1 + 0 + 3 + 0 = 4, three 0 boxes → −15 → −11.
    """
    state = _game2(AvenueParams())
    assert state.breakdown(0) == expected("Dee", [
        box(1, "F", 0, 0, 0), box(2, "E", 1, 0, 1), box(3, "A", 1, 1, 0), box(4, "B", 3, 0, 3),
        box(5, "D", 2, 3, 0)], purple=0, green=0, penalty=5, placing=1)
    assert state.total(0) == -11
    assert_replays(state)


def test_game2_without_the_rising_rule() -> None:
    """docs/avenue.md §Variants (preset "norise"): every farm with grapes is written.

    Same cards and moves: boxes 0, 1, 1, 3, 2 (every target is 0) = 7; one 0 box → −5 → 2.
    """
    state = _game2(PRESETS["norise"])
    assert state.breakdown(0) == expected("Dee", [
        box(1, "F", 0, 0, 0), box(2, "E", 1, 0, 1), box(3, "A", 1, 0, 1), box(4, "B", 3, 0, 3),
        box(5, "D", 2, 0, 2)], purple=0, green=0, penalty=5, placing=1)
    assert state.total(0) == 2
    assert_replays(state)


def test_game2_with_a_gentler_penalty() -> None:
    """docs/avenue.md §Variants — the penalty as a parameter (preset "gentle", 2 per 0 box): 4 − 3 × 2 = −2."""
    state = _game2(PRESETS["gentle"])
    assert [b["box"] for b in state.breakdown(0)["farms"]] == [0, 1, 0, 3, 0]
    assert state.breakdown(0)["penalty"] == -6
    assert state.total(0) == -2


# =============================================================================================
# Game 3 — solo, two loops and both castles. Farm deck A D F B C E. Player 0: Eve.
# =============================================================================================
GAME3: list[Round] = [
    # ---- Round 1, farm A (1,1): a loop of four cells through the purple castle:
    #      castle (0,0) 3 (right+bottom) → right (0,1) 4 (bottom+left) → down A 1 (top+left) →
    #      left (1,0) 2 (top+right) → up the castle. Every end is used: a closed loop.
    #      A = (0,1) 1 + (1,0) 2 = 3 > 0 → 3.
    ("A", [
        ("3Y", [(0, 0)]),
        ("4Y", [(0, 1)]),
        ("2Y", [(1, 0)]),
        ("1Y", [(1, 1)]),
    ]),
    # ---- Round 2, farm D (3,3): a second loop, (2,3) 3 → (2,4) 4 → (3,4) 1 → D 2 → (2,3).
    #      (2,3) has no top end, so (1,3) stays out.  D = (2,3) 1 + (2,4) 2 + (3,4) 3 = 6 > 3 → 6.
    #      (5,3) 5 and (4,2) 6 are drawn ahead for later rounds; they touch no road yet.
    ("D", [
        ("5G", [(5, 3)]),
        ("3Y", [(2, 3)]),
        ("4Y", [(2, 4)]),
        ("6G", [(4, 2)]),
        ("1Y", [(3, 4)]),
        ("2Y", [(3, 3)]),
    ]),
    # ---- Round 3, farm F (5,4): a path through the green castle:
    #      (5,3) 5 ← F 1 (top+left) → up (4,4) 3 → right (4,5) 4 → down (5,5) 6 → down castle (6,5) 1 →
    #      left (6,4) 5 → (6,3) empty. (5,3)'s left end meets (5,2), empty.
    #      F = (5,3) 1 + (4,4) 3 + (4,5) 0 + (5,5) 2 + (6,4) 1 = 7 > 6 → 7.
    ("F", [
        ("1Y", [(5, 4)]),
        ("3Y", [(4, 4)]),
        ("4G", [(4, 5)]),
        ("6Y", [(5, 5)]),
        ("1G", [(6, 5)]),
        ("5Y", [(6, 4)]),
    ]),
    # ---- Round 4, farm B (1,4): B 1 (top+left): top (0,4) 3 → right (0,5) 1; left (1,3) 5 → (1,2) 2 →
    #      up (0,2) 4, whose left end meets (0,1) 4 (no right end): the A loop stays closed.
    #      B = (0,4) 2 + (0,5) 2 + (1,3) 3 + (1,2) 1 + (0,2) 2 = 10 > 7 → 10.
    ("B", [
        ("3G", [(0, 4)]),
        ("1Y", [(1, 4)]),
        ("5G", [(1, 3)]),
        ("2Y", [(1, 2)]),
        ("1G", [(0, 5)]),
        ("4Y", [(0, 2)]),
        ("6Y", ["peek"]),        # sees C
    ]),
    # ---- Round 5, farm C (3,2): C 4 (bottom+left): left (3,1) 5 → (3,0) empty; bottom (4,2) 6 (round 2) →
    #      (5,2) 2 (top+right) → right (5,3) 5 → the F network of round 3, grapes counted again.
    #      C = (3,1) 3 + (4,2) 0 + (5,2) 2 + F network 7 = 12 > 10 → 12.
    ("C", [
        ("4Y", [(3, 2)]),
        ("2G", [(5, 2)]),
        ("5Y", [(3, 1)]),
        ("3Y", ["peek"]),        # round 5, sees E
        ("6Y", [(6, 0)]),
    ]),
]


def test_game3_loops_and_castles() -> None:
    """docs/avenue.md §Networks (loops), §Castles (castles count their own colour; grapes are never used up).

    Boxes 3, 6, 7, 10, 12 = 38, no 0 box.
    Purple castle: its network is the A loop — (0,1) 1 purple; (1,0)'s 2 green grapes do not count → 1.
    Green castle: its network is C's at the end — green grapes (3,1) 2 + (5,2) 1 + (4,4) 1 + (6,4) 1 = 5;
    the purple ones of (3,1), (5,2), (5,3), (4,4), (5,5) do not count → 5.
    Total 38 + 1 + 5 = 44.
    """
    deal = parse_deal(fixed_deal("ADFBCE", GAME3), AvenueParams())
    state = AvenueState(AvenueParams(), ["Eve"], deal=deal)

    def a_loop(s: AvenueState) -> None:
        sheet = s.sheets[0]
        assert sheet.network_cells(0) == [(0, 0), (0, 1), (1, 0), (1, 1)]  # castle (0,0) is cell 0
        assert s.castle_scores(0) == {"purple": 1, "green": 0}

    def after_f(s: AvenueState) -> None:
        # green castle mid-game: (4,4) 1 green + (6,4) 1 green = 2; the 5 purple grapes on it do not count
        assert s.castle_scores(0) == {"purple": 1, "green": 2}
        assert s.preview(0)["farm"] == {"farm": "F", "grapes": 7, "target": 6, "box": 7, "beats": True}

    play(state, GAME3, {(1, 4): a_loop, (3, 6): after_f})

    sheet = state.sheets[0]
    d_loop = sheet.network_cells(3 * 6 + 3)
    assert d_loop == [(2, 3), (2, 4), (3, 3), (3, 4)]
    assert state.breakdown(0) == expected("Eve", [
        box(1, "A", 3, 0, 3), box(2, "D", 6, 3, 6), box(3, "F", 7, 6, 7), box(4, "B", 10, 7, 10),
        box(5, "C", 12, 10, 12)], purple=1, green=5, penalty=5, placing=1)
    assert state.total(0) == 44
    assert_replays(state)


@pytest.mark.parametrize("script,farms", [(GAME1, "ADBECF"), (GAME2, "FEABDC"), (GAME3, "ADFBCE")])
def test_scripts_use_real_rounds(script: list[Round], farms: str) -> None:
    """docs/avenue.md §End of a round — each scripted round holds exactly 4 yellow cards, its last card yellow."""
    for _, cards in script:
        yellows = [code for code, _ in cards if code.endswith("Y")]
        assert len(yellows) == 4 and cards[-1][0].endswith("Y")
    assert sorted(farms) == list("ABCDEF")
