"""Rule cases no other test caught (issue #8): one test per rule, each failing on one mutation of the engine.

Each of these one-line changes to the rules left the whole unit suite green before this file. Every
test below was seen failing with its mutation applied to the engine (and passing without it):

Test → the mutation it kills (file, function: change):

- ``test_several_question_hexes_in_one_turn_each_bank`` → kingdom_maps/state.py ``_do`` (Place):
  ``s.questions += 1`` → ``s.questions = 1``; also ``_do`` (Bank): ``s.questions -= 1`` → ``s.questions = 0``.
- ``test_b3_mixed_rows_never_counts_empty_hexes_as_a_terrain`` → kingdom_maps/criteria.py ``mixed_rows``:
  ``len({cells[i] for i in row} - {BLANK})`` → ``len({cells[i] for i in row})``.
- ``test_b2_long_rows_runs_never_start_on_empty_hexes`` → kingdom_maps/criteria.py ``longest_run``: an empty
  hex starts a run that the next terrain continues: ``run + 1 if c != BLANK and c == prev else (1 if c != BLANK
  else 0)`` → ``run + 1 if c != BLANK and (c == prev or prev == BLANK) else 1`` (the empty-map and hand-worked
  B2 tests stay green under it).
- ``test_only_mountain_uses_left_still_starts_a_turn`` → kingdom_maps/state.py ``_can_start_turn``:
  ``any(self.sheets[player].uses[1:])`` → ``any(self.sheets[player].uses[2:])``.
- ``test_solo_pass_in_the_first_drawing_ends_the_game_after_the_second`` → kingdom_maps/state.py
  ``apply_chance`` (roll2): drop ``self.ending = self.ending or any(s.passed for s in self.sheets)``; also
  ``next_table_step``: test ``self.ending or any(s.passed ...)`` before solo's ``roll2`` (the second drawing lost).
- ``test_uses_run_out_is_checked_for_the_next_active_player`` → kingdom_maps/state.py ``next_table_step``:
  ``self._can_start_turn(self._next_active())`` → ``self._can_start_turn(self.active)``.
- ``test_avenue_no_pass_on_a_full_sheet_while_a_peek_is_possible`` → avenue/state.py ``check`` (Pass):
  ``if self.sheets[player].free or self.can_peek(player)`` → ``if self.sheets[player].free``.
- ``test_undo_after_another_players_undo_keeps_the_record_true`` → not a mutation: a real bug that
  tests/test_fuzz.py found (kingdom_maps/state.py ``undo`` searched the log only from the position saved at
  apply time, which another player's undo had shifted). It fails on the engine before the fix.
"""

from __future__ import annotations

import pytest

from sheetkit.core.errors import IllegalAction
from sheetkit.core.play import step_table
from sheetkit.core.records import replay
from sheetkit.games.avenue import new_game as avenue_game
from sheetkit.games.avenue.moves import Draw, Peek
from sheetkit.games.avenue.moves import Pass as AvenuePass
from sheetkit.games.kingdom_maps import (
    CRITERIA,
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

BOARD = load_map("default")
CRIT = ("A1", "A2", "B1", "B5")


def dealt(players: int, dice: list[int], params: KingdomParams | None = None) -> KingdomState:
    """A Kingdom Maps game with fixed criteria and dice, moved on to the first roll."""
    state = KingdomState(params or KingdomParams(), players, deal=Deal(CRIT, tuple(dice)))
    step_table(state)
    return state


def draw_rest(state: KingdomState, player: int) -> None:
    """Finish ``player``'s drawing with the first legal choices (pick, hexes, bank; never a power)."""
    while player in state.current_players():
        acts = [a for a in state.legal_actions(player) if not isinstance(a, Power)]
        state.apply(player, acts[0])


def play_turn(state: KingdomState, terrain: int | None = None) -> None:
    """Roll; the active player announces ``terrain`` (else the highest with uses left); everyone draws."""
    if state.is_chance_node():
        state.apply_chance()
    announces = [a for a in state.legal_actions(state.active) if isinstance(a, Announce)]
    choice = [a for a in announces if terrain is None or a.terrain == terrain]
    state.apply(state.active, max(choice, key=lambda a: (a.terrain, a.die)) if terrain is None else choice[0])
    while not state.is_chance_node():
        for p in list(state.current_players()):
            draw_rest(state, p)
    if state.solo and state.next_table_step() == "roll2":
        state.apply_chance()
        draw_rest(state, 0)


# ----- Kingdom Maps ------------------------------------------------------------------------------
def test_several_question_hexes_in_one_turn_each_bank() -> None:
    """docs/kingdom_maps.md §Question hexes — every ? hex drawn banks a criterion of its own: two ? hexes drawn
    in one turn bank two criteria, one after the other (one ``Bank`` per ? hex)."""
    board = Board.from_json({"radius": 2, "questions": [[0, 0], [1, 0]]})
    state = dealt(2, [2, 2, 2] * 4, KingdomParams(inline_map=board))
    state.apply(0, Announce(1, 2))
    state.apply(1, Pick(2))
    for p in (0, 1):
        state.apply(p, Place(0, 0))
        state.apply(p, Place(1, 0))
        assert state.sheets[p].questions == 2
    for p in (0, 1):
        state.apply(p, Bank("A1"))
        assert p in state.current_players(), "one ? hex is still to bank"
        assert state.legal_actions(p) == [Bank(c) for c in CRIT]
        state.apply(p, Bank("B5"))
        assert p not in state.current_players()
        assert [c for c, _ in state.sheets[p].banked] == ["A1", "B5"]
        assert state.sheets[p].questions == 0
    assert state.is_chance_node()


def test_b3_mixed_rows_never_counts_empty_hexes_as_a_terrain() -> None:
    """docs/kingdom_maps.md §The 12 criteria — B3 (mixed rows: 4 different terrains in a row): an empty hex is
    no terrain, so 3 terrains and empty hexes are not 4."""
    three_and_empty = BOARD.parse_art("""
    1 2 3 . .
   . . . . . .
  . . . . . . .
 . . . . . . . .
4 5 6 . . . . . .
 . . . . . . . .
  . . . . . . .
   . . . . . .
    . . . . .
""")
    assert CRITERIA["B3"].score(BOARD, three_and_empty) == 0
    four = list(three_and_empty)
    four[BOARD.rows[0][3]] = 4
    assert CRITERIA["B3"].score(BOARD, four) == 5


def test_b2_long_rows_runs_never_start_on_empty_hexes() -> None:
    """docs/kingdom_maps.md §The 12 criteria — B2 (long rows: 4 hexes of one terrain side by side): only drawn
    hexes make a run — three after an empty hex, or three between empty hexes, are 3."""
    cells = BOARD.parse_art("""
    . 1 1 1 .
   . . 2 2 2 .
  . . . . 3 3 3
 . . . . . 4 4 4
. . . . . . 5 5 5
 . 6 . 6 6 6 . .
  . 1 . 1 . 1 .
   . . . . . .
    . . . . .
""")
    assert CRITERIA["B2"].score(BOARD, cells) == 0
    cells[BOARD.rows[0][4]] = 1  # . 1 1 1 1: now a run of 4
    assert CRITERIA["B2"].score(BOARD, cells) == 4


def test_only_mountain_uses_left_still_starts_a_turn() -> None:
    """docs/kingdom_maps.md §Announcing, §Game end: the game ends
    only when the next active player has no use of *any* terrain left — Mountains (terrain 1) count too."""
    state = dealt(1, [1] * 5 * 8, KingdomParams(uses=1))
    for terrain in (6, 5, 4, 3, 2):
        play_turn(state, terrain)
    assert state.sheets[0].uses[1:] == [1, 0, 0, 0, 0, 0]
    assert state.next_table_step() == "roll"
    state.apply_chance()
    assert state.legal_actions(0) == [Announce(1, 1)]
    play_turn(state, 1)
    assert state.next_table_step() == "end"
    state.apply_chance()
    assert state.end_reason == "terrain uses ran out" and state.turn == 6


def test_solo_pass_in_the_first_drawing_ends_the_game_after_the_second() -> None:
    """docs/kingdom_maps.md §No room to draw, §Solo play: a player who cannot draw draws nothing and the game
    ends when that turn is over — in solo the turn's second drawing (which fits) is still played, then it ends."""
    board = Board.from_json({"radius": 1})  # 7 hexes, nothing printed
    dice = [3, 2, 2, 2, 4] + [6, 6, 6, 1, 5] + [1] * 10  # more dice: the deal never ends the game here
    state = dealt(1, dice, KingdomParams(inline_map=board))
    state.apply(0, Announce(1, 3))  # 3 Mountains
    draw_rest(state, 0)
    state.apply_chance()
    state.apply(0, Pick(2))  # then 2 Lakes: 2 hexes left
    draw_rest(state, 0)
    state.apply_chance()
    assert sum(1 for c in state.sheets[0].cells if not c) == 2
    state.apply(0, Announce(2, 6))
    assert state.legal_actions(0) == [Pass()]
    state.apply(0, Pass())
    assert state.next_table_step() == "roll2", "the turn's second drawing still happens"
    state.apply_chance()
    assert state.pick_options(0) == [1, 5]
    state.apply(0, Pick(1))  # 1 Meadow: it fits
    assert state.legal_hexes(0)
    draw_rest(state, 0)
    assert state.next_table_step() == "end", "the pass in the first drawing ends the game with this turn"
    state.apply_chance()
    assert state.is_terminal() and "could not draw" in (state.end_reason or "")
    assert sum(1 for c in state.sheets[0].cells if not c) == 1


def test_uses_run_out_is_checked_for_the_next_active_player() -> None:
    """docs/kingdom_maps.md §A turn, §Game end: the active role
    passes on; the game ends when the player who would be active next has no use left — not the one who
    just played (2 players, 1 use each: player 0 runs out a turn before player 1)."""
    state = dealt(2, [1] * 3 * 14, KingdomParams(uses=1))
    for _ in range(11):
        play_turn(state)
    assert state.active == 0 and not any(state.sheets[0].uses[1:]) and sum(state.sheets[1].uses[1:]) == 1
    assert state.next_table_step() == "roll", "player 1 still has a use: their turn comes"
    state.apply_chance()
    assert state.active == 1
    play_turn(state)
    assert state.next_table_step() == "end"
    state.apply_chance()
    assert state.turn == 12 and state.end_reason == "terrain uses ran out"


# ----- Avenue ------------------------------------------------------------------------------------
def test_avenue_no_pass_on_a_full_sheet_while_a_peek_is_possible() -> None:
    """docs/avenue.md §Passing (docs/architecture.md: ``Pass()`` only when the sheet is full *and* peeking is
    not allowed): a full sheet may still peek, so ``check`` refuses a Pass until the peek is used."""
    state = avenue_game(1, seed=4)
    step_table(state)
    sheet = state.sheets[0]
    for i in range(len(sheet.roads)):  # a full sheet (the shipped sheet never fills in 5 rounds)
        sheet.place(i, 5)
    assert sheet.free == 0 and state.can_peek(0)
    assert state.legal_actions(0) == [Peek()]
    before = state.fingerprint()
    with pytest.raises(IllegalAction) as e:
        state.check(0, AvenuePass())
    assert e.value.code == "pass"
    with pytest.raises(IllegalAction):
        state.apply(0, AvenuePass())
    assert state.fingerprint() == before
    with pytest.raises(IllegalAction):
        state.check(0, Draw(0, 0))
    state.apply(0, Peek())  # the peek used, the next card leaves nothing but a Pass
    step_table(state)
    assert not state.can_peek(0) and state.legal_actions(0) == [AvenuePass()]
    state.check(0, AvenuePass())


def test_undo_after_another_players_undo_keeps_the_record_true() -> None:
    """docs/architecture.md (``undo(player)``: own action, until the next table step; the record replays to the
    identical state): when another player's undo has shortened the log, undoing removes *your* last entry —
    found by tests/test_fuzz.py (the record of such a game did not replay: a stale Place was left in the log)."""
    state = dealt(3, [3, 2, 2] * 6)
    state.apply(0, Announce(1, 3))
    state.apply(1, Pick(2))
    state.apply(2, Pick(2))
    state.apply(1, Place(0, 0))
    state.apply(2, Place(0, 0))
    state.apply(2, Place(1, 0))
    state.undo(1)  # the log loses player 1's entry, which came before player 2's two
    state.undo(2)
    assert [e["action"]["type"] for e in state.log if e.get("player") == 2] == ["pick", "place"]
    assert replay(state.to_record()).fingerprint() == state.fingerprint()


@pytest.mark.parametrize("action", [Place(True, 0), Place(0, {"q": 0}), Place(0.0, 0), Announce(1, True),  # type: ignore[arg-type]
                                    Pick("2"), Power(True), Bank(3)])  # type: ignore[arg-type]
def test_kingdom_malformed_moves_are_refused_in_words(action: object) -> None:
    """docs/architecture.md (an illegal action raises ``IllegalAction`` with a plain-words message and leaves the
    state untouched): a move with a field that is not a whole number — True for 1 included, which would write
    ``true`` into the record — is refused, never a crash (found by tests/test_fuzz.py)."""
    state = dealt(2, [2, 3, 4] * 4)
    if not isinstance(action, Announce):
        state.apply(0, Announce(1, 2))
        if not isinstance(action, Pick):
            state.apply(1, Pick(3))
    before = state.fingerprint()
    player = 0 if isinstance(action, (Announce, Place, Power, Bank)) else 1
    with pytest.raises(IllegalAction) as e:
        state.apply(player, action)
    assert e.value.code == "bad-action" and state.fingerprint() == before


def test_avenue_a_cell_is_never_true_or_false() -> None:
    """docs/architecture.md (refused actions say why and change nothing; records replay): ``Draw(0, True)`` equals
    ``Draw(0, 1)`` but would write ``true`` into the record, which no longer replays — refused (found by
    tests/test_fuzz.py)."""
    state = avenue_game(1, seed=4)
    step_table(state)
    before = state.fingerprint()
    for bad in (Draw(0, True), Draw(False, 2)):
        with pytest.raises(IllegalAction) as e:
            state.apply(0, bad)
        assert e.value.code == "bad-cell" and state.fingerprint() == before
    state.apply(0, Draw(0, 1))
    assert replay(state.to_record()).fingerprint() == state.fingerprint()
