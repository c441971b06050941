"""Kingdom Maps rules, one test (or a few) per section of docs/kingdom_maps.md, cited in each docstring."""

from __future__ import annotations

import json

import pytest

from sheetkit.core.errors import IllegalAction
from sheetkit.core.play import play_out, step_table
from sheetkit.games.kingdom_maps import (
    CRITERIA,
    PRESETS,
    Announce,
    Bank,
    Deal,
    KingdomParams,
    KingdomState,
    Pass,
    Pick,
    Place,
    Power,
    RandomBot,
    load_map,
)
from sheetkit.games.kingdom_maps.dice import DiceSource
from sheetkit.games.kingdom_maps.terrains import FIELD, FOREST, LAKE, MEADOW, MOUNTAIN, VILLAGE

BOARD = load_map("default")
CRIT = ("A1", "A2", "B1", "B5")


def dealt(players: int | list[str], dice: list[int], params: KingdomParams | None = None,
          criteria: tuple[str, ...] = CRIT) -> KingdomState:
    """A game with fixed criteria and dice, moved on to the first roll."""
    state = KingdomState(params or KingdomParams(), players, deal=Deal(criteria, tuple(dice)))
    step_table(state)
    return state


def draw_rest(state: KingdomState, player: int) -> None:
    """Finish ``player``'s drawing with the first legal choices (pick, hexes, bank)."""
    while player in state.current_players():
        acts = [a for a in state.legal_actions(player) if not isinstance(a, Power)]
        state.apply(player, acts[0])


def finish_turn(state: KingdomState) -> None:
    """Everyone finishes the current drawing; the table moves on."""
    for p in list(state.current_players()):
        draw_rest(state, p)
    step_table(state)


# ----- Components, the map, setup -------------------------------------------------------------
def test_components_six_terrains_three_dice() -> None:
    """docs/kingdom_maps.md §Components: 6 terrains numbered 1–6, each with a symbol and a colour; 3 dice."""
    from sheetkit.games.kingdom_maps import TERRAINS

    assert [t.number for t in TERRAINS] == [1, 2, 3, 4, 5, 6]
    assert len({t.symbol for t in TERRAINS}) == 6 and len({t.colour for t in TERRAINS}) == 6
    state = dealt(2, [1, 3, 4])
    assert state.dice == [1, 3, 4]


def test_the_map_is_a_61_hex_hexagon_with_six_powers_and_four_question_hexes() -> None:
    """docs/kingdom_maps.md §The map: radius-4 hexagon, about 6 +1/-1 and 4 ? hexes, spread out."""
    assert BOARD.size == 61 and len(BOARD.powers) == 6 and len(BOARD.questions) == 4
    specials = sorted(BOARD.powers | BOARD.questions)
    dists = [BOARD.grid.distance(BOARD.coords[a], BOARD.coords[b]) for a in specials for b in specials if a < b]
    assert min(dists) >= 2  # no two special hexes touch


@pytest.mark.parametrize(("players", "uses"), [(1, 3), (2, 3), (3, 2), (4, 1)])
def test_terrain_uses_per_player_count(players: int, uses: int) -> None:
    """docs/kingdom_maps.md §Setup: 3/2/1 uses of each terrain with 2/3/4 players, 3 solo."""
    state = KingdomState(KingdomParams(), players, seed=1)
    assert all(s.uses[1:] == [uses] * 6 for s in state.sheets)
    assert KingdomState(PRESETS["long"], 4, seed=1).sheets[0].uses[1:] == [3] * 6


def test_criteria_roll_two_per_group_and_reroll_repeats() -> None:
    """docs/kingdom_maps.md §Setup: 2 dice for A, 2 for B; a repeated number in a group is rerolled."""
    assert DiceSource((2, 2, 4, 1, 5)).roll_criteria() == ("A2", "A4", "B1", "B5")
    assert DiceSource((6, 6, 6, 1, 3, 3, 3, 2)).roll_criteria() == ("A6", "A1", "B3", "B2")
    for seed in range(200):
        state = KingdomState(KingdomParams(), 1, seed=seed)
        entry = state.apply_chance()
        crit = entry["criteria"]
        assert entry["chance"] == "criteria" and len(set(crit)) == 4
        assert [c[0] for c in crit] == ["A", "A", "B", "B"] and crit == sorted(crit)


def test_criteria_fixed_by_a_variant_or_a_deal() -> None:
    """docs/kingdom_maps.md §Setup, §Variants: a variant (preset) or a record's deal may fix the criteria."""
    state = KingdomState(PRESETS["family"], 2, seed=3)
    assert state.apply_chance() == {"chance": "criteria", "criteria": ["A2", "A3", "B1", "B2"]}
    assert dealt(1, [1, 2, 3, 4, 5], criteria=("B6", "A5")).criteria == ("B6", "A5")
    grand = KingdomState(PRESETS["grand"], 1, seed=3)
    step_table(grand)
    assert set(grand.criteria) == set(CRITERIA)


# ----- a turn --------------------------------------------------------------------------
def test_the_active_player_announces_a_terrain_and_takes_a_die() -> None:
    """docs/kingdom_maps.md §Announcing: the active player announces a terrain (crossing out a use) and takes a die."""
    state = dealt(["Ann", "Bob"], [1, 3, 4])
    assert state.current_players() == [0] and state.phase == "announce"
    assert len(state.legal_actions(0)) == 6 * 3 and state.legal_actions(1) == []
    with pytest.raises(IllegalAction, match="no die shows 5"):
        state.apply(0, Announce(FOREST, 5))
    with pytest.raises(IllegalAction, match="first announce a terrain"):
        state.apply(0, Pick(4))
    with pytest.raises(IllegalAction, match="wait for Ann to announce"):
        state.apply(1, Announce(FOREST, 4))
    state.apply(0, Announce(FOREST, 4))
    assert state.sheets[0].uses[FOREST] == 2 and state.sheets[1].uses[FOREST] == 3
    assert state.terrain == FOREST and state.amount(0) == 4
    with pytest.raises(IllegalAction, match="already announced"):
        state.apply(1, Announce(LAKE, 3))


def test_a_terrain_with_no_uses_left_cannot_be_announced() -> None:
    """docs/kingdom_maps.md §Announcing: a terrain with no uses left cannot be announced by that player."""
    state = dealt(["Ann", "Bob"], [1, 1, 1] * 4, params=KingdomParams(uses=1))
    state.apply(0, Announce(VILLAGE, 1))
    finish_turn(state)
    state.apply(1, Announce(MEADOW, 1))  # Bob may announce what Ann used; Ann may draw it as passive
    finish_turn(state)
    assert Announce(VILLAGE, 1) not in state.legal_actions(0)
    with pytest.raises(IllegalAction, match="you have no Village uses left"):
        state.apply(0, Announce(VILLAGE, 1))
    assert Announce(MEADOW, 1) in state.legal_actions(0)


def test_passive_players_pick_one_of_the_two_remaining_dice() -> None:
    """docs/kingdom_maps.md §Picking a die: each passive player picks one of the other 2 dice; several may pick the
    same."""
    state = dealt(["Ann", "Bob", "Cy"], [1, 3, 4])
    state.apply(0, Announce(LAKE, 4))
    assert state.legal_actions(1) == [Pick(1), Pick(3)] == state.legal_actions(2)
    with pytest.raises(IllegalAction, match="you can pick 1 or 3 — Ann took the 4"):
        state.apply(1, Pick(4))
    with pytest.raises(IllegalAction, match="first pick a die: 1 or 3"):
        state.apply(1, Place(0, 0))
    state.apply(1, Pick(3))
    state.apply(2, Pick(3))
    assert state.amount(1) == state.amount(2) == 3 and state.dice == [1, 3, 4]
    with pytest.raises(IllegalAction, match="already taken the 3"):
        state.apply(1, Pick(1))
    double = dealt(["Ann", "Bob"], [4, 4, 2])
    double.apply(0, Announce(LAKE, 4))
    assert double.legal_actions(1) == [Pick(2), Pick(4)]


def test_everyone_draws_the_announced_terrain_in_their_own_amount() -> None:
    """docs/kingdom_maps.md §Drawing: everyone draws that many hexes of the announced terrain, one per hex."""
    state = dealt(["Ann", "Bob"], [1, 3, 4, 2, 2, 2])
    state.apply(0, Announce(FIELD, 4))
    state.apply(1, Pick(1))
    draw_rest(state, 0)
    draw_rest(state, 1)
    assert [sorted(set(s.cells) - {0}) for s in state.sheets] == [[FIELD], [FIELD]]
    assert [s.drawn for s in state.sheets] == [4, 1]
    assert state.is_chance_node()


def test_first_turn_anywhere_then_the_group_must_touch_the_old_map() -> None:
    """docs/kingdom_maps.md §Drawing: the first hex touches an earlier hex, except on a blank map."""
    state = dealt(["Ann", "Bob"], [2, 2, 2, 3, 3, 3])
    state.apply(0, Announce(MOUNTAIN, 2))
    assert len(state.legal_hexes(0)) == 61
    state.apply(0, Place(-4, 4))  # the bottom-left corner: fine on a blank map
    state.apply(0, Place(-3, 4))
    state.apply(1, Pick(2))
    draw_rest(state, 1)
    step_table(state)
    state.apply(1, Announce(FOREST, 3))
    state.apply(0, Pick(3))
    starts = set(state.legal_hexes(0))
    assert starts == {(-4, 3), (-3, 3), (-2, 3), (-2, 4)}
    with pytest.raises(IllegalAction, match="must touch a hex already drawn on your map"):
        state.apply(0, Place(0, 0))


def test_the_turns_hexes_form_one_group_and_the_whole_amount_is_drawn() -> None:
    """docs/kingdom_maps.md §Drawing: every further hex touches this turn's group; no splitting, no stopping short."""
    state = dealt(["Ann", "Bob"], [3, 3, 3])
    state.apply(0, Announce(LAKE, 3))
    state.apply(0, Place(1, 1))
    assert set(state.legal_hexes(0)) == {(2, 1), (2, 0), (1, 0), (0, 1), (0, 2), (1, 2)}
    with pytest.raises(IllegalAction, match="doesn't touch the group"):
        state.apply(0, Place(3, 1))
    state.apply(0, Place(1, 0))
    assert state.current_players() == [0, 1]  # not done with 2 of 3
    with pytest.raises(IllegalAction, match="draw your 1 remaining hex"):
        state.apply(0, Bank("A1"))
    with pytest.raises(IllegalAction, match="you have started drawing"):
        state.apply(0, Pass())
    state.apply(0, Place(2, -1))
    assert state.current_players() == [1] and state.legal_actions(0) == []
    with pytest.raises(IllegalAction, match="finished this drawing"):
        state.apply(0, Place(2, 0))


def test_the_active_role_passes_clockwise() -> None:
    """docs/kingdom_maps.md §A turn: the active role passes to the next player."""
    state = dealt(3, [1, 2, 3] * 5)
    actives = []
    for _ in range(5):
        actives.append(state.active)
        state.apply(state.active, Announce(MOUNTAIN, 1))
        finish_turn(state)
    assert actives == [0, 1, 2, 0, 1]


# ----- powers and ? hexes -----------------------------------------------------------------------------
def test_drawing_on_a_power_hex_gains_a_power_for_later() -> None:
    """docs/kingdom_maps.md §Powers: a +1/-1 hex gives one power; it is spent later, never in the same drawing."""
    state = dealt(["Ann", "Bob"], [2, 5, 5, 3, 3, 3])
    state.apply(0, Announce(FOREST, 2))
    state.apply(0, Place(3, 0))
    assert state.sheets[0].powers == 1 and state.sheets[0].available == 1
    assert not any(isinstance(a, Power) for a in state.legal_actions(0))
    state.apply(0, Place(2, 0))
    finish_turn(state)
    state.apply(1, Announce(FIELD, 3))
    assert Power(1) in state.legal_actions(0) or state.sheets[0].die is None
    state.apply(0, Pick(3))
    assert {Power(1), Power(-1)} <= set(state.legal_actions(0))  # a passive player may change their die
    state.apply(0, Power(1))
    assert state.amount(0) == 4 and state.sheets[0].available == 0 and state.sheets[0].spent == 1
    with pytest.raises(IllegalAction, match="no \\+1/-1 powers to spend"):
        state.apply(0, Power(1))


def test_several_powers_at_once_values_stay_between_1_and_6() -> None:
    """docs/kingdom_maps.md §Powers: spend any number at once; a changed die stays within 1–6."""
    state = dealt(["Ann", "Bob"], [5, 2, 1])
    state.sheets[0].powers = 3
    state.sheets[1].powers = 3
    state.apply(0, Announce(MEADOW, 5))
    state.apply(0, Power(1))
    assert state.amount(0) == 6
    with pytest.raises(IllegalAction, match="can't go above 6"):
        state.apply(0, Power(1))
    with pytest.raises(IllegalAction, match="the other way"):
        state.apply(0, Power(-1))
    state.apply(1, Pick(1))
    with pytest.raises(IllegalAction, match="can't go below 1"):
        state.apply(1, Power(-1))
    two = dealt(["Ann", "Bob"], [4, 2, 1])
    two.sheets[0].powers = 2
    two.apply(0, Announce(MEADOW, 4))
    two.apply(0, Power(-1))
    two.apply(0, Power(-1))
    assert two.amount(0) == 2 and two.sheets[0].spent == 2
    two.apply(0, Place(0, 0))
    with pytest.raises(IllegalAction, match="before you start drawing"):
        two.apply(0, Power(1))


def test_powers_are_off_in_the_nopowers_variant() -> None:
    """docs/kingdom_maps.md §Powers, §Variants: with powers off the +1/-1 hexes are plain."""
    state = dealt(["Ann", "Bob"], [2, 2, 2, 3, 3, 3], params=PRESETS["nopowers"])
    state.apply(0, Announce(FOREST, 2))
    state.apply(0, Place(3, 0))
    assert state.sheets[0].powers == 0
    state.apply(1, Pick(2))
    state.sheets[1].powers = 1
    assert not any(isinstance(a, Power) for a in state.legal_actions(1))
    with pytest.raises(IllegalAction, match="not used in this variant"):
        state.apply(1, Power(1))


def test_a_question_hex_banks_a_chosen_criterion_at_the_end_of_the_turn() -> None:
    """docs/kingdom_maps.md §Question hexes: the player picks one criterion in play, scores it now, banks it."""
    state = dealt(["Ann", "Bob"], [3, 3, 3], criteria=("A1", "A2", "B1", "B5"))
    state.apply(0, Announce(MOUNTAIN, 3))
    for hx in [(0, 0), (1, 0), (2, 0)]:
        state.apply(0, Place(*hx))
    assert state.legal_actions(0) == [Bank("A1"), Bank("A2"), Bank("B1"), Bank("B5")]
    assert 0 in state.current_players()
    with pytest.raises(IllegalAction, match="choose a criterion"):
        state.apply(0, Place(3, 0))
    state.apply(0, Bank("A1"))
    assert state.sheets[0].banked == [("A1", 6)] and state.total(0) == 6 + 6 + 0 + 2
    off = dealt(["Ann", "Bob"], [3, 3, 3], params=KingdomParams(questions=False))
    off.apply(0, Announce(MOUNTAIN, 3))
    for hx in [(0, 0), (1, 0), (2, 0)]:
        off.apply(0, Place(*hx))
    assert off.legal_actions(0) == [] and off.sheets[0].questions == 0


def test_solo_banks_a_question_after_both_drawings() -> None:
    """docs/kingdom_maps.md §Question hexes, §Solo play: a ? is scored at the end of the turn, after the second
    drawing."""
    state = dealt(1, [2, 2, 2, 6, 2], criteria=("A1", "A2", "B1", "B5"))
    state.apply(0, Announce(MOUNTAIN, 2))
    state.apply(0, Place(0, 0))
    state.apply(0, Place(1, 0))
    assert state.sheets[0].questions == 1 and state.is_chance_node()  # not yet
    step_table(state)
    state.apply(0, Pick(2))  # amount 2, terrain 6
    state.apply(0, Place(-1, 0))
    state.apply(0, Place(-2, 0))
    assert state.legal_actions(0) == [Bank(c) for c in CRIT]
    state.apply(0, Bank("B5"))
    assert state.sheets[0].banked == [("B5", 4)]  # mountains + villages: 2 groups, after the second drawing


# ----- game end --------------------------------------------------------------------------
def test_a_player_who_cannot_draw_draws_nothing_and_the_game_ends_after_the_turn() -> None:
    """docs/kingdom_maps.md §No room to draw: no room → draw nothing; the others still draw; the game ends with the
    turn."""
    state = dealt(["Ann", "Bob"], [6, 1, 2, 2, 2, 2])
    state.sheets[1].cells = [1] * 61
    state.sheets[1].cells[BOARD.index[(0, 0)]] = 0  # Bob has one empty hex
    state.apply(0, Announce(FIELD, 6))
    state.apply(1, Pick(2))
    assert state.legal_actions(1) == [Pass()] and state.legal_hexes(1) == []
    assert "No room" in state.prompt(1)
    with pytest.raises(IllegalAction, match="you can still draw 6 hexes"):
        state.apply(0, Pass())
    state.apply(1, Pass())
    assert state.current_players() == [0]
    draw_rest(state, 0)
    assert state.apply_chance() == {"chance": "end"}
    assert state.is_terminal() and state.legal_actions(0) == state.legal_actions(1) == []
    assert state.sheets[0].drawn == 6 and state.end_reason == "Bob could not draw the amount"


def test_equal_totals_share_the_victory() -> None:
    """docs/kingdom_maps.md §Scoring and winner: highest total wins; a tie is a shared victory."""
    state = dealt(["Ann", "Bob", "Cy"], [3, 3, 1])
    state.apply(0, Announce(FOREST, 3))
    state.apply(1, Pick(3))
    state.apply(2, Pick(1))
    for p, hexes in [(0, [(2, -4), (3, -4), (4, -4)]), (1, [(-2, 4), (-1, 4), (0, 4)]), (2, [(-4, 0)])]:
        for hx in hexes:
            state.apply(p, Place(*hx))
    assert state.scores()[0] == state.scores()[1] > state.scores()[2]
    assert state.placings() == [1, 1, 3]


def test_the_game_ends_when_the_active_player_has_no_uses_left() -> None:
    """docs/kingdom_maps.md §Announcing, §Game end: a player with no terrain uses left cannot start a turn."""
    state = dealt(1, [1] * 100, params=KingdomParams(uses=1))
    for t in range(1, 7):
        state.apply(0, Announce(t, 1))
        draw_rest(state, 0)
        step_table(state)
        draw_rest(state, 0)
        step_table(state)
    assert state.is_terminal() and state.end_reason == "terrain uses ran out" and state.turn == 6


# ----- solo play ---------------------------------------------------------------------------
def test_solo_turn_has_two_drawings() -> None:
    """docs/kingdom_maps.md §Solo play: roll 3, choose terrain + die; roll the other 2: terrain die and amount die."""
    state = dealt(1, [5, 2, 6, 3, 3, 1, 1, 1, 1, 1])
    assert state.log[-1] == {"chance": "roll", "dice": [5, 2, 6]}
    state.apply(0, Announce(FOREST, 5))
    draw_rest(state, 0)
    assert state.next_table_step() == "roll2"
    assert state.apply_chance() == {"chance": "roll", "dice": [3, 3]}
    assert state.legal_actions(0) == [Pick(3)]  # equal dice: one choice
    with pytest.raises(IllegalAction, match="pick the die that gives the amount"):
        state.apply(0, Announce(FIELD, 3))
    state.apply(0, Pick(3))
    assert state.terrain == FIELD and state.sheets[0].uses[FIELD] == 3
    draw_rest(state, 0)
    assert state.apply_chance()["dice"] == [1, 1, 1] and state.turn == 2


def test_solo_powers_never_change_the_terrain_die() -> None:
    """docs/kingdom_maps.md §Solo play: +1/-1 may change the amount die, never the die that names the terrain."""
    state = dealt(1, [2, 2, 2, 3, 4])
    state.sheets[0].powers = 2
    state.apply(0, Announce(LAKE, 2))
    draw_rest(state, 0)
    step_table(state)
    state.apply(0, Pick(4))
    state.apply(0, Power(1))
    state.apply(0, Power(1))
    assert state.amount(0) == 6 and state.terrain == FIELD


# ----- the engine contract -----------------------------------------------------------------
UNIVERSE = ([Announce(t, v) for t in range(1, 8) for v in range(1, 7)] + [Pick(v) for v in range(0, 8)]
            + [Power(1), Power(-1), Pass()] + [Bank(c) for c in CRITERIA] + [Bank("C9")]
            + [Place(*h) for h in BOARD.coords] + [Place(5, 5), Place(-9, 0)])


@pytest.mark.parametrize("players", [1, 2, 3])
def test_legal_actions_agree_with_check_and_rejections_change_nothing(players: int) -> None:
    """docs/architecture.md, the game protocol: legal_actions is the single source of truth; an illegal move leaves the
    state as it was."""
    state = KingdomState(KingdomParams(), players, seed=11 + players)
    bots = [RandomBot(seed=p) for p in range(players)]
    steps = 0
    while not state.is_terminal() and steps < 400:
        if state.is_chance_node():
            state.apply_chance()
            continue
        for p in range(players):
            legal = set(map(repr, state.legal_actions(p)))
            fp = state.fingerprint()
            for a in UNIVERSE[:: 1 + steps % 7]:
                try:
                    state.check(p, a)
                    ok = True
                except IllegalAction as e:
                    ok = False
                    assert e.code and str(e) and "Traceback" not in str(e)
                assert ok == (repr(a) in legal), (p, a)
            assert state.fingerprint() == fp
        p = state.current_players()[0]
        state.apply(p, bots[p].act(state, p))
        steps += 1
    assert steps > 20


def test_illegal_player_and_foreign_moves() -> None:
    """docs/architecture.md, the game protocol: unknown players and objects are refused in plain words."""
    state = dealt(2, [1, 2, 3])
    with pytest.raises(IllegalAction, match="there is no player 5"):
        state.apply(5, Announce(1, 1))
    with pytest.raises(IllegalAction, match="is not a Kingdom Maps move"):
        state.apply(0, "draw")  # type: ignore[arg-type]
    assert state.legal_actions(7) == []


def test_undo_within_a_drawing() -> None:
    """docs/kingdom_maps.md §Taking a move back: own moves until the next roll; an announce only while nobody acted on
    it."""
    state = dealt(["Ann", "Bob"], [3, 3, 2, 1, 1, 1])
    assert not state.can_undo(0)
    fp0 = state.fingerprint()
    state.apply(0, Announce(FOREST, 3))
    state.undo(0)
    assert state.fingerprint() == fp0 and state.phase == "announce"
    state.apply(0, Announce(FOREST, 3))
    fp1 = state.fingerprint()
    state.apply(0, Place(0, 0))
    state.apply(0, Place(1, 0))
    state.undo(0)
    state.undo(0)
    assert state.fingerprint() == fp1
    state.apply(1, Pick(2))
    assert not state.can_undo(0)  # Bob acted on the announcement
    with pytest.raises(IllegalAction, match="already acted on your announcement"):
        state.undo(0)
    for hx in [(0, 0), (1, 0), (2, 0)]:
        state.apply(0, Place(*hx))
    state.apply(0, Bank("A1"))
    draw_rest(state, 1)
    assert state.is_chance_node()
    state.undo(1)  # Bob takes back his last hex: the table waits again
    assert state.current_players() == [1] and not state.is_chance_node()
    draw_rest(state, 1)
    state.apply_chance()
    assert not state.can_undo(0) and not state.can_undo(1)
    with pytest.raises(IllegalAction, match="nothing to undo"):
        state.undo(1)


def test_view_shows_the_table_but_never_the_dice_to_come() -> None:
    """docs/architecture.md, the game protocol (``view``): everything on the table is public (all sheets), the seed and
    future dice are not."""
    state = KingdomState(KingdomParams(), 2, seed=99)
    step_table(state)
    v = state.view(1)
    assert "seed" not in json.dumps(v) and "deal" not in v
    assert v["dice"] == state.dice and len(v["sheets"]) == 2 and v["legal_hexes"] == []
    assert v["prompt"].startswith("Wait for")
    assert [c["code"] for c in v["criteria"]] == list(state.criteria)


def test_clone_is_independent() -> None:
    """docs/architecture.md, the game protocol (``clone``): a deep copy — playing on it leaves the original untouched,
    and it plays out the same."""
    state = KingdomState(KingdomParams(), 2, seed=5)
    step_table(state)
    fp = state.fingerprint()
    copy = state.clone()
    play_out(copy, [RandomBot(1), RandomBot(2)])
    assert state.fingerprint() == fp
    again = state.clone()
    play_out(again, [RandomBot(1), RandomBot(2)])
    assert again.fingerprint() == copy.fingerprint()


@pytest.mark.parametrize("players", [1, 2, 4])
def test_every_move_can_be_undone_exactly_until_the_next_roll(players: int) -> None:
    """docs/kingdom_maps.md §Taking a move back: taking back a move restores the exact state (fingerprint and log) it
    was made from."""
    state = KingdomState(KingdomParams(), players, seed=40 + players)
    bots = [RandomBot(seed=p) for p in range(players)]
    undone = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
            assert not any(state.can_undo(p) for p in range(players))
            continue
        p = state.current_players()[-1]
        action = bots[p].act(state, p)
        before = state.fingerprint()
        state.apply(p, action)
        if state.can_undo(p):
            state.undo(p)
            assert state.fingerprint() == before
            state.apply(p, action)
            undone += 1
        json.dumps([state.view(q) for q in range(players)])
    assert undone > 30
