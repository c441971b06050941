"""Every rule of docs/avenue.md, one or more tests each; each docstring cites the section it checks."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import numpy as np
import pytest
from avenue_oracle import ENDS, STEP, oracle_network

from sheetkit.core.errors import IllegalAction, RecordError
from sheetkit.core.play import play_out
from sheetkit.core.records import replay
from sheetkit.games.avenue import (
    PRESETS,
    ROAD_EDGES,
    AvenueParams,
    AvenueState,
    Draw,
    GreedyBot,
    Pass,
    Peek,
    RoadCard,
    load_layout,
    new_game,
    parse_deal,
)
from sheetkit.games.avenue.cards import DEFAULT_DECK, build_deck
from sheetkit.games.avenue.sheet import Sheet, geometry

LAYOUT = load_layout("default")
ROWS, COLS = 7, 6



# ----- helpers ---------------------------------------------------------------------------------
def dealt(top: list[str], farms: str = "ABCDEF", players: int | list[str] = 1,
          params: AvenueParams | None = None) -> AvenueState:
    """A game whose road deck starts with ``top`` (the rest of the deck follows in a fixed order)."""
    params = params or AvenueParams()
    rest = [c.code for c in build_deck(params.deck)]
    for code in top:
        rest.remove(code)
    deal = parse_deal({"farms": list(farms), "roads": top + rest}, params)
    return AvenueState(params, players, deal=deal)


def to_act(state: AvenueState) -> AvenueState:
    """Run the table's steps until players must act (or the game is over)."""
    while state.is_chance_node() and not state.is_terminal():
        state.apply_chance()
    return state


def snapshot(state: AvenueState) -> tuple[str, str]:
    """Everything that must not change when an action is refused."""
    return state.fingerprint(), json.dumps(state.to_record(), sort_keys=True)


def refused(state: AvenueState, player: int, action: Any, code: str) -> str:
    """Apply an illegal action: it must raise with ``code`` and leave the state byte-identical."""
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        state.apply(player, action)
    assert err.value.code == code
    assert snapshot(state) == before
    return str(err.value)


def sheet_with(roads: dict[tuple[int, int], int]) -> Sheet:
    """A default-layout sheet with the given roads drawn."""
    sheet = Sheet(geometry(LAYOUT))
    for (r, c), n in roads.items():
        sheet.place(r * COLS + c, n)
    return sheet


def oracle_grapes(cells: set[tuple[int, int]]) -> tuple[int, int]:
    """(purple, green) grapes printed in ``cells``."""
    return (sum(LAYOUT.grapes.get(c, (0, 0))[0] for c in cells), sum(LAYOUT.grapes.get(c, (0, 0))[1] for c in cells))


def random_sheet(rng: np.random.Generator, n: int) -> dict[tuple[int, int], int]:
    """``n`` random roads on distinct random cells."""
    cells = rng.choice(ROWS * COLS, size=n, replace=False)
    return {divmod(int(i), COLS): int(rng.integers(1, 7)) for i in cells}


def solo(farms: str, rounds: list[list[tuple[str, Any]]], params: AvenueParams | None = None) -> AvenueState:
    """Play a scripted solo game: per round, (card, cell or "peek"); checks each flip matches the script."""
    params = params or AvenueParams(rounds=len(rounds))
    state = dealt([code for rnd in rounds for code, _ in rnd], farms, 1, params)
    for k, rnd in enumerate(rounds):
        assert state.apply_chance()["card"] == farms[k]
        for code, move in rnd:
            assert state.apply_chance() == {"chance": "road", "card": code}
            state.apply(0, Peek() if move == "peek" else Draw(*move))
    assert state.apply_chance() == {"chance": "end"}
    return state


def first_draw(state: AvenueState, player: int) -> Any:
    """A simple policy: the first empty cell in reading order (never peeks)."""
    return next(a for a in state.legal_actions(player) if isinstance(a, Draw))


# ===== credits (docs/avenue.md, opening lines) ========================================================
def test_credits_name_the_designers_and_publisher() -> None:
    """docs/avenue.md §Avenue in sheetkit — credit Svensson and Østby (Aporta Games) in the game, the notebook and the
    README."""
    from pathlib import Path

    from sheetkit.games.avenue import SPEC
    root = Path(__file__).resolve().parents[1]
    for text in (SPEC.credits, (root / "README.md").read_text("utf-8"),
                 (root / "notebooks/avenue.ipynb").read_text("utf-8")):
        assert "Eilif Svensson" in text and "Kristian Amundsen Østby" in text and "Aporta Games" in text


# ===== Components ==============================================================================
@pytest.mark.parametrize("number,yellow,grey", [(1, 4, 3), (2, 4, 3), (3, 4, 3), (4, 4, 3), (5, 3, 4), (6, 3, 4)])
def test_components_deck_composition_per_number(number: int, yellow: int, grey: int) -> None:
    """docs/avenue.md §Components — the road card table: yellow and grey cards of each road number."""
    deck = Counter(build_deck(DEFAULT_DECK))
    assert deck[RoadCard(number, True)] == yellow
    assert deck[RoadCard(number, False)] == grey


def test_components_deck_has_42_cards_22_yellow_20_grey() -> None:
    """docs/avenue.md §Components — 42 road cards: 22 yellow + 20 grey; a shuffled game deck holds exactly those."""
    deck = build_deck(DEFAULT_DECK)
    assert len(deck) == 42
    assert sum(c.yellow for c in deck) == 22 and sum(not c.yellow for c in deck) == 20
    state = new_game(1, seed=7)
    assert sorted(state.road_deck.order()) == sorted(deck)


@pytest.mark.parametrize("number", range(1, 7))
def test_components_road_shapes(number: int) -> None:
    """docs/avenue.md §Components, §Networks — each road number joins exactly the two edges the table names."""
    from sheetkit.core.grid import BOTTOM, LEFT, RIGHT, TOP
    bits = {"T": TOP, "R": RIGHT, "B": BOTTOM, "L": LEFT}
    assert ROAD_EDGES[number] == bits[ENDS[number][0]] | bits[ENDS[number][1]]
    assert bin(ROAD_EDGES[number]).count("1") == 2  # a road has two ends


def test_components_sheet_is_7_by_6_one_cell_per_road_card() -> None:
    """docs/avenue.md §Components — a 7 × 6 sheet (42 cells), the number of road cards: every cell starts drawable."""
    state = to_act(new_game(1, seed=1))
    assert (state.params.layout.rows, state.params.layout.cols) == (7, 6)
    draws = [a for a in state.legal_actions(0) if isinstance(a, Draw)]
    assert sorted((a.row, a.col) for a in draws) == [(r, c) for r in range(7) for c in range(6)]
    assert len(draws) == len(build_deck(DEFAULT_DECK)) == 42


@pytest.mark.parametrize("seed", [3, 11, 2024])
def test_components_six_farms_five_scored_sixth_unseen(seed: int) -> None:
    """docs/avenue.md §Components — 6 farm cards A–F; 5 are scored; the 6th stays in the deck and nobody sees it."""
    state = to_act(new_game(2, seed=seed))
    assert sorted(state.farm_deck.order()) == list("ABCDEF")
    sixth = state.farm_deck.order()[5]
    views: list[str] = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
            continue
        views += [json.dumps(state.view(p)) for p in range(2)]
        for p in state.current_players():
            state.apply(p, first_draw(state, p))  # nobody peeks
    views += [json.dumps(state.view(p)) for p in range(2)]
    assert len(state.round_farms) == 5 and len(set(state.round_farms)) == 5
    assert all(len(state.boxes[p]) == 5 for p in range(2))
    assert state.farm_deck.remaining() == 1 and sixth not in state.round_farms
    assert not any(f'"{sixth}"' in v for v in views)


# ===== The sheet (layout details: tests/test_avenue_layout.py) =================
def test_printed_contents_one_thing_per_cell() -> None:
    """docs/avenue.md §The sheet — every cell holds a farm, a castle, a grape cell or nothing."""
    kinds = Counter(LAYOUT.printed((r, c)) for r in range(ROWS) for c in range(COLS))
    assert kinds["farm"] == 6 and kinds["castle"] == 2
    assert kinds["farm"] + kinds["castle"] + kinds["grapes"] + kinds["empty"] == 42
    cells = list(LAYOUT.farms.values()) + list(LAYOUT.castles.values()) + list(LAYOUT.grapes)
    assert len(cells) == len(set(cells))  # no cell holds two things
    assert all(1 <= p + g <= 4 for p, g in LAYOUT.grapes.values())


# ===== A round, drawing, peeking =================================================================================
def test_round_starts_with_a_farm_flip_everyone_writes_its_letter() -> None:
    """docs/avenue.md §A round — the top farm card is flipped; every player's next score box gets its letter."""
    state = dealt(["1Y", "2Y", "3Y", "4Y"], farms="DABCEF", players=3, params=AvenueParams(rounds=1))
    assert state.apply_chance() == {"chance": "farm", "card": "D"}
    assert state.round == 1 and state.farm == "D" and state.card is None
    to_act(state)
    while not state.is_terminal():
        for p in state.current_players():
            state.apply(p, first_draw(state, p))
        to_act(state)
    assert [[b["farm"] for b in state.breakdown(p)["farms"]] for p in range(3)] == [["D"], ["D"], ["D"]]


def test_round_every_player_acts_once_on_each_card() -> None:
    """docs/avenue.md §A round — for each card every player, at the same time, draws or peeks, once."""
    state = to_act(dealt(["5G"], players=3))
    assert state.current_players() == [0, 1, 2]
    state.apply(1, Draw(0, 0))
    assert state.current_players() == [0, 2] and not state.is_chance_node()
    msg = refused(state, 1, Draw(0, 1), "acted")
    assert msg == "you have already acted on this card — undo first to change it"
    with pytest.raises(IllegalAction, match="players still have to act"):
        state.apply_chance()  # the table waits for everyone
    state.apply(0, Peek())
    state.apply(2, Draw(6, 5))
    assert state.current_players() == [] and state.is_chance_node()
    msg = refused(state, 0, Draw(1, 1), "not-your-turn")
    assert msg == "wait for the next card to be flipped"


@pytest.mark.parametrize("code", ["1Y", "2G", "3Y", "4G", "5Y", "6G"])
def test_round_draw_exactly_as_shown_never_rotated(code: str) -> None:
    """docs/avenue.md §Drawing a road — the road is drawn exactly as shown: the cell gets the card's own road number."""
    state = to_act(dealt([code]))
    card = RoadCard.parse(code)
    # a move names only the cell: there is no way to ask for a rotation
    assert all(isinstance(a, Draw | Peek) for a in state.legal_actions(0))
    assert set(Draw.__dataclass_fields__) == {"row", "col"}
    state.apply(0, Draw(2, 2))
    assert state.sheets[0].grid()[2][2] == card.number
    assert state.view(0)["sheets"][0][2][2] == card.number


def test_round_straight_road_cannot_be_turned_to_fit() -> None:
    """docs/avenue.md §Drawing a road — never rotated: a left–right road under a top–bottom one does not join it."""
    state = to_act(dealt(["6Y", "5Y"]))
    state.apply(0, Draw(0, 1))          # road 6 above A's row, over (1,1)
    to_act(state)
    state.apply(0, Draw(1, 1))          # road 5 in A: its ends are left and right, not top
    assert state.sheets[0].farm_grapes("A") == 0   # (0,1)'s grape is not on A's network
    assert state.sheets[0].network_cells(COLS + 1) == [(1, 1)]


def test_round_draw_only_in_an_empty_cell() -> None:
    """docs/avenue.md §Drawing a road — draw in an EMPTY cell: a taken cell is refused in plain words, nothing
    changes."""
    state = to_act(dealt(["1Y", "2Y"], players=2))
    state.apply(0, Draw(3, 4))
    state.apply(1, Draw(0, 0))
    to_act(state)
    msg = refused(state, 0, Draw(3, 4), "occupied")
    assert msg == "the cell at row 4, col 5 already has a road"   # counted as the sheet prints them
    assert Draw(3, 4) not in state.legal_actions(0)
    assert Draw(3, 4) in state.legal_actions(1)   # each player has their own sheet
    state.apply(1, Draw(3, 4))


def test_round_draw_off_the_sheet_refused() -> None:
    """docs/avenue.md §Components, §Drawing a road — cells exist only on the 7 × 6 sheet."""
    state = to_act(dealt(["1Y"]))
    assert refused(state, 0, Draw(7, 0), "off-sheet") == "cell (7, 0) is off the sheet (rows 0–6, columns 0–5)"
    refused(state, 0, Draw(0, -1), "off-sheet")
    msg = refused(state, 0, Draw("a", 2), "bad-cell")  # type: ignore[arg-type]
    assert "whole-number row and column" in msg


def test_round_dead_ends_and_the_sheet_edge_are_legal() -> None:
    """docs/avenue.md §Drawing a road — dead ends and roads running into the sheet's edge are legal; nothing must
    connect."""
    state = to_act(dealt(["1Y", "2Y", "5Y", "6Y"], players=1))
    # road 1 (top+left) in the top-left corner: both ends run off the sheet
    state.apply(0, Draw(0, 0))
    to_act(state)
    # road 2 (top+right) in the top-right corner: both ends run off the sheet
    state.apply(0, Draw(0, 5))
    to_act(state)
    # road 5 far from anything: two dead ends
    state.apply(0, Draw(4, 2))
    to_act(state)
    state.apply(0, Draw(6, 3))
    sheet = state.sheets[0]
    assert [sheet.network_cells(i) for i in (0, 5, 4 * COLS + 2, 6 * COLS + 3)] == [[(0, 0)], [(0, 5)], [(4, 2)],
                                                                                    [(6, 3)]]


def test_round_peek_shows_the_top_farm_and_puts_it_back() -> None:
    """docs/avenue.md §Peeking — look at the top farm card (it goes back on top) and draw nothing."""
    state = to_act(dealt(["1Y", "2Y", "3Y", "4Y"], farms="ACBDEF", params=AvenueParams(rounds=2)))
    before = list(state.sheets[0].roads)
    assert Peek() in state.legal_actions(0)
    state.apply(0, Peek())
    assert state.view(0)["peeked_farm"] == "C" and state.seen_farm[0] == "C"
    assert state.sheets[0].roads == before               # nothing drawn for this card
    assert state.farm_deck.remaining() == 5              # the card went back
    assert state.log[-1] == {"player": 0, "action": {"type": "peek"}}
    for _ in range(3):
        to_act(state)
        state.apply(0, first_draw(state, 0))
    assert state.apply_chance() == {"chance": "farm", "card": "C"}   # the peeked card is next
    assert state.view(0)["peeked_farm"] is None          # and the peek is spent once it is flipped


def test_round_peek_at_most_once_per_round() -> None:
    """docs/avenue.md §Peeking — at most one peek per round per player; a new round allows a new peek."""
    state = to_act(dealt(["5G", "1Y", "2Y", "3Y", "4Y", "6G"], params=AvenueParams(rounds=2)))
    state.apply(0, Peek())
    to_act(state)
    assert Peek() not in state.legal_actions(0) and not state.can_peek(0)
    assert refused(state, 0, Peek(), "peeked") == "you have already peeked this round"
    for _ in range(4):
        state.apply(0, first_draw(state, 0))
        to_act(state)
    assert state.round == 2                              # the 4th yellow ended round 1
    assert Peek() in state.legal_actions(0)
    state.apply(0, Peek())


def test_round_peek_is_legal_in_round_5() -> None:
    """docs/avenue.md §Peeking — peeking is allowed while the farm deck is not empty, even (pointlessly) in round 5."""
    state = to_act(new_game(1, seed=5))
    while state.round < 5:
        state.apply(0, first_draw(state, 0))
        to_act(state)
    assert state.farm_deck.remaining() == 1 and state.can_peek(0)
    sixth = state.farm_deck.order()[5]
    state.apply(0, Peek())
    assert state.view(0)["peeked_farm"] == sixth


def test_round_no_peek_once_the_farm_deck_is_empty() -> None:
    """docs/avenue.md §Peeking — with 6 rounds (a variant) the farm deck is empty in round 6: no peek there."""
    state = to_act(new_game(1, seed=5, params=AvenueParams(rounds=6)))
    while state.round < 6:
        state.apply(0, first_draw(state, 0))
        to_act(state)
    assert state.farm_deck.remaining() == 0
    assert Peek() not in state.legal_actions(0)
    assert refused(state, 0, Peek(), "no-farms") == "the farm deck is empty — there is nothing to peek at"


def test_round_peek_is_secret() -> None:
    """docs/avenue.md §Peeking — a peek is secret: only the peeker's view shows the farm; others' views do not
    change."""
    state = to_act(dealt(["1Y", "2G"], farms="ABCDEF", players=3))
    others_before = [state.view(p) for p in (1, 2)]
    for p in range(3):  # nobody's view shows the next farm before anyone peeks
        assert '"B"' not in json.dumps(state.view(p))
    state.apply(0, Peek())
    assert state.view(0)["peeked_farm"] == "B"
    assert [state.view(p) for p in (1, 2)] == others_before
    assert all('"B"' not in json.dumps(state.view(p)) for p in (1, 2))
    state.apply(1, Draw(0, 0))
    state.apply(2, Draw(0, 0))
    to_act(state)   # next card: the peek is still known only to player 0
    assert [state.view(p)["peeked_farm"] for p in range(3)] == ["B", None, None]


def test_round_ends_after_the_4th_yellow_once_everyone_acted() -> None:
    """docs/avenue.md §A round, §End of a round — grey cards never end a round; the 4th yellow does, once every player
    has acted."""
    top = ["5G", "1Y", "6G", "2Y", "3G", "4G", "3Y", "2G", "4Y", "1G"]
    state = dealt(top, players=2, params=AvenueParams(rounds=2))
    state.apply_chance()  # farm A
    seen = []
    for code in top[:9]:
        assert state.apply_chance() == {"chance": "road", "card": code}
        seen.append((state.yellows, state.round_ends_after_this_card()))
        if code == "4Y":
            state.apply(0, Draw(6, 0))
            # one player acted, the other not yet: no scoring, the table still waits
            assert state.current_players() == [1] and not state.is_chance_node() and state.boxes == [[], []]
            state.apply(1, Draw(6, 0))
        else:
            for p in range(2):
                state.apply(p, first_draw(state, p))
    assert seen == [(0, False), (1, False), (1, False), (2, False), (2, False), (2, False), (3, False),
                    (3, False), (4, True)]
    # the next table step scores farm A and starts round 2 with a fresh yellow count
    assert state.apply_chance() == {"chance": "farm", "card": "B"}
    assert [len(b) for b in state.boxes] == [1, 1] and state.yellows == 0
    assert state.apply_chance() == {"chance": "road", "card": "1G"}


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_round_road_deck_is_never_reshuffled(seed: int) -> None:
    """docs/avenue.md §End of a round — used cards are discarded, never reshuffled: 5 rounds use 20 yellows and ≤ 20
    greys."""
    state = new_game(1, seed=seed)
    order = state.road_deck.order()
    flipped = []
    while not state.is_terminal():
        if state.is_chance_node():
            entry = state.apply_chance()
            if entry.get("chance") == "road":
                flipped.append(RoadCard.parse(entry["card"]))
            continue
        state.apply(0, first_draw(state, 0))
    assert flipped == order[:len(flipped)]            # one pass through the deck, each card once
    assert sum(c.yellow for c in flipped) == 20
    assert sum(not c.yellow for c in flipped) <= 20
    assert state.road_deck.remaining() == 42 - len(flipped) >= 2


def test_round_deck_running_out_ends_the_game_without_reshuffle() -> None:
    """docs/avenue.md §End of a round — a variant that needs more yellows than the deck has just runs the deck out."""
    params = AvenueParams(rounds=6)              # 6 × 4 = 24 yellows wanted, the deck has 22
    state = new_game(1, seed=9, params=params)
    flips = 0
    while not state.is_terminal():
        if state.is_chance_node():
            flips += state.apply_chance().get("chance") == "road"
            continue
        state.apply(0, first_draw(state, 0))
    assert flips == 42 and state.road_deck.remaining() == 0
    assert len(state.boxes[0]) == 6


# ===== Networks ==============================================================================
@pytest.mark.parametrize("a", range(1, 7))
@pytest.mark.parametrize("b", range(1, 7))
def test_connection_neighbours_link_only_when_both_ends_meet(a: int, b: int) -> None:
    """docs/avenue.md §Networks — two neighbouring cells are linked when BOTH roads have an end on the shared edge."""
    side = sheet_with({(2, 2): a, (2, 3): b})          # b to the right of a
    assert (len(side.network_cells(2 * COLS + 2)) == 2) == ("R" in ENDS[a] and "L" in ENDS[b])
    stacked = sheet_with({(2, 2): a, (3, 2): b})       # b below a
    assert (len(stacked.network_cells(2 * COLS + 2)) == 2) == ("B" in ENDS[a] and "T" in ENDS[b])


def test_connection_diagonal_cells_never_link() -> None:
    """docs/avenue.md §Networks — only ORTHOGONALLY adjacent cells link."""
    sheet = sheet_with({(2, 2): 3, (3, 3): 1})   # right+bottom, and top+left diagonally below-right
    assert sheet.network_cells(2 * COLS + 2) == [(2, 2)]


@pytest.mark.parametrize("seed", range(8))
def test_connection_networks_match_the_rule_text(seed: int) -> None:
    """docs/avenue.md §Networks, §Scoring farms — networks and their grapes equal a from-the-text computation."""
    rng = np.random.default_rng(seed)
    roads = random_sheet(rng, int(rng.integers(5, 42)))
    sheet = sheet_with(roads)
    for r in range(ROWS):
        for c in range(COLS):
            net = oracle_network(roads, (r, c))
            assert set(sheet.network_cells(r * COLS + c)) == net
            assert sheet.network_grapes(r * COLS + c) == sum(oracle_grapes(net))
    for farm, cell in LAYOUT.farms.items():
        assert sheet.farm_grapes(farm) == sum(oracle_grapes(oracle_network(roads, cell)))
    purple_net = oracle_network(roads, LAYOUT.castles["purple"])
    green_net = oracle_network(roads, LAYOUT.castles["green"])
    assert sheet.castle_score("purple") == oracle_grapes(purple_net)[0]
    assert sheet.castle_score("green") == oracle_grapes(green_net)[1]


@pytest.mark.parametrize("seed", range(8))
def test_connection_networks_are_paths_or_loops(seed: int) -> None:
    """docs/avenue.md §Networks — a network is always a path or a loop: every cell has at most 2 links."""
    rng = np.random.default_rng(100 + seed)
    roads = random_sheet(rng, 42)        # a full sheet
    sheet = sheet_with(roads)
    done: set[tuple[int, int]] = set()
    for cell in roads:
        if cell in done:
            continue
        net = set(sheet.network_cells(cell[0] * COLS + cell[1]))
        done |= net
        links = 0
        for r, c in net:
            deg = sum(1 for e in ENDS[roads[(r, c)]]
                      if (r + STEP[e][0], c + STEP[e][1]) in net and STEP[e][2] in ENDS[roads[(r + STEP[e][0],
                                                                                             c + STEP[e][1])]])
            assert deg <= 2
            links += deg
        links //= 2
        assert links in (len(net) - 1, len(net))   # a path (n−1 links) or a single loop (n links)


def test_connection_loop_counts_each_cell_once() -> None:
    """docs/avenue.md §Networks — a closed loop is one network; its grapes count once each."""
    # (2,0) 3, (2,1) 4, (3,0) 2, (3,1) 1: a 2 × 2 loop; grapes (2,0) 1 + (2,1) 3 + (3,0) 0 + (3,1) 3 = 7
    sheet = sheet_with({(2, 0): 3, (2, 1): 4, (3, 0): 2, (3, 1): 1})
    assert sheet.network_cells(2 * COLS) == [(2, 0), (2, 1), (3, 0), (3, 1)]
    assert sheet.network_grapes(2 * COLS) == 7


def test_connection_farm_needs_a_road_in_its_own_cell() -> None:
    """docs/avenue.md §Networks — a road ending at a farm's edge is not enough: the farm's cell needs a road."""
    # (1,0) road 5 ends on A's left edge, (1,2) road 5 on its right edge; A (1,1) itself stays empty
    sheet = sheet_with({(1, 0): 5, (1, 2): 5})
    assert sheet.farm_grapes("A") == 0
    # a scored round agrees: A scores 0 although roads touch it
    state = solo("ABCDEF", [[("5Y", (1, 0)), ("5G", (1, 2)), ("1Y", (6, 0)), ("2Y", (6, 3)), ("3Y", (4, 5))]])
    assert state.breakdown(0)["farms"][0] == {"round": 1, "farm": "A", "grapes": 0, "target": 0, "box": 0}
    # drawing in A itself joins both: (1,0) 2 green + (1,2) 1 purple = 3
    sheet.place(COLS + 1, 5)
    assert sheet.farm_grapes("A") == 3


def test_connection_grape_cell_and_castle_need_their_own_road() -> None:
    """docs/avenue.md §Networks — grape cells and castles join a network only with a road in their own cell."""
    # A 6 (top+bottom) with (0,1) empty above: (0,1)'s purple grape is not on A's network
    sheet = sheet_with({(1, 1): 6})
    assert sheet.farm_grapes("A") == 0
    # (0,1) 4 (bottom+left) points into the purple castle, which has no road: the castle scores 0
    sheet = sheet_with({(0, 1): 4, (1, 1): 6})
    assert sheet.farm_grapes("A") == 1 and sheet.castle_score("purple") == 0
    sheet.place(0, 5)    # a road in the castle's own cell (left+right) joins (0,1): 1 purple
    assert sheet.castle_score("purple") == 1


# ===== Scoring =================================================================================
def test_scoring_farm_counts_both_colours_on_the_whole_network() -> None:
    """docs/avenue.md §Scoring farms — a farm scores all grapes, purple and green, of every cell on its network."""
    # D (3,3) 5 → left C 5 → left (3,1) 5 (1p 2g) → (3,0) empty; D right (3,4) 1 (2p 1g) → up (2,4) 6 (2p)
    # → up B 6 → up (0,4) 6 (1p 1g). D = 3 + 3 + 2 + 0 + 2 = 10 (6 purple, 4 green)
    sheet = sheet_with({(3, 3): 5, (3, 2): 5, (3, 1): 5, (3, 4): 1, (2, 4): 6, (1, 4): 6, (0, 4): 6})
    assert sheet.farm_grapes("D") == 10


def test_scoring_grapes_count_for_several_farms_and_castles() -> None:
    """docs/avenue.md §Scoring farms, §Castles — grapes are never used up: the same grapes count for every farm and
    castle on them."""
    # green castle (6,5) 1 (top+left): up (5,5) 6 (2p) → up (4,5) 4 (bottom+left) → left (4,4) 5 (2p 1g)
    # → left (4,3) 5 (1g); and left (6,4) 2 (top+right, 1g) → up F 6 (F's top meets (4,4) 5: no bottom end).
    # Network: castle, (5,5), (4,5), (4,4), (4,3), (6,4), F → grapes 2 + 0 + 3 + 1 + 1 = 7, green 1 + 1 + 1 = 3.
    roads = {(6, 5): 1, (5, 5): 6, (4, 5): 4, (4, 4): 5, (4, 3): 5, (6, 4): 2, (5, 4): 6}
    sheet = sheet_with(roads)
    assert sheet.farm_grapes("F") == 7
    assert sheet.castle_score("green") == 3
    # (4,3) 5's left end meets (4,2): a road 2 (top+right) there reaches up into C's cell with road 6
    sheet.place(4 * COLS + 2, 2)
    sheet.place(3 * COLS + 2, 6)
    assert sheet.farm_grapes("C") == 7 and sheet.farm_grapes("F") == 7  # both count the same 7 grapes
    # in play: F scored in round 1 and the same network scores again for C in round 2
    cards = [("1Y", (6, 5)), ("6Y", (5, 5)), ("4Y", (4, 5)), ("5Y", (4, 4)),
             ("5G", (4, 3)), ("2Y", (6, 4)), ("6G", (5, 4)), ("2G", (4, 2)), ("6Y", (3, 2)), ("3Y", "peek"),
             ("1Y", (0, 3))]
    state = solo("FCABDE", [cards[:4], cards[4:]])
    # round 1 (F): only castle, (5,5), (4,5), (4,4) exist; F has no road yet → 0.
    # round 2 (C): the full network → 7, after a 0 → 7. Green castle at the end: 3.
    assert [b["box"] for b in state.breakdown(0)["farms"]] == [0, 7]
    assert state.breakdown(0)["castles"] == {"purple": 0, "green": 3}


# The rising rule, in short solo games (AvenueParams(rounds=n)); each round ends on its 4th yellow card.
#   A = 1: A 6 (top+bottom) + (0,1) 6 (1 purple); (2,1) under A stays empty.
#   D = 1: D 6 + (2,3) 6 (1 green); (1,3) 5 (if drawn) has no bottom end. D = 2 adds (4,3) 6 (1 green).
#   B = 3: B 5 (left+right) + (1,3) 5 (2p 1g); (1,2) and (1,5) stay empty.
#   A = 2: A 5 + (1,0) 5 (2 green); (1,2) stays empty.
#   E = 1: E 5 + (5,0) 5 (1 green); (5,2) stays empty.
ROUND_A1 = [("6Y", (1, 1)), ("6G", (0, 1)), ("1Y", "peek"), ("2Y", (6, 0)), ("3Y", (6, 3))]
ROUND_B3 = [("5Y", (1, 4)), ("5G", (1, 3)), ("1Y", "peek"), ("2Y", (6, 0)), ("3Y", (6, 3))]
ROUND_A2 = [("5G", (1, 1)), ("5G", (1, 0)), ("6Y", (0, 3)), ("4Y", (4, 5)), ("1Y", (0, 5)), ("2Y", (6, 4))]
ROUND_E1 = [("5Y", (5, 1)), ("5G", (5, 0)), ("3Y", (2, 2)), ("4Y", "peek"), ("2Y", (4, 2))]


def _round_d(with_43: bool) -> list[tuple[str, Any]]:
    extra = [("6G", (4, 3))] if with_43 else []
    return [("6Y", (3, 3)), ("6G", (2, 3)), *extra, ("4Y", (0, 4)), ("5Y", (4, 5)), ("1Y", (0, 5))]


def test_scoring_first_farm_needs_at_least_one() -> None:
    """docs/avenue.md §Scoring farms — rising rule: the first farm needs 1 or more (a first farm with no grapes is a
    0)."""
    # F 5 alone, (5,3) and (5,5) empty: 0 grapes → 0
    with_road = solo("FABCDE", [[("5Y", (5, 4)), ("1Y", "peek"), ("2Y", (0, 3)), ("3Y", (6, 0))]])
    assert with_road.breakdown(0)["farms"][0] == {"round": 1, "farm": "F", "grapes": 0, "target": 0, "box": 0}
    # no road on F at all: 0
    no_road = solo("FABCDE", [[("5Y", (2, 2)), ("1Y", "peek"), ("2Y", (0, 3)), ("3Y", (6, 0))]])
    assert no_road.boxes == [[0]]
    # A = 1 as the first farm: 1 > 0 → 1
    assert solo("ADBCEF", [ROUND_A1]).boxes == [[1]]


def test_scoring_rising_rule_a_tie_fails() -> None:
    """docs/avenue.md §Scoring farms — rising rule: strictly greater than the box above; A = 1 then D = 1 → 1, 0."""
    state = solo("ADBCEF", [ROUND_A1, _round_d(with_43=False)])
    assert [(b["grapes"], b["target"], b["box"]) for b in state.breakdown(0)["farms"]] == [(1, 0, 1), (1, 1, 0)]


def test_scoring_rising_rule_greater_is_written() -> None:
    """docs/avenue.md §Scoring farms — rising rule: A = 1 then D = 2 (more than 1) → 1, 2."""
    state = solo("ADBCEF", [ROUND_A1, _round_d(with_43=True)])
    assert [(b["grapes"], b["target"], b["box"]) for b in state.breakdown(0)["farms"]] == [(1, 0, 1), (2, 1, 2)]


def test_scoring_rising_rule_smaller_fails_then_one_is_enough() -> None:
    """docs/avenue.md §Scoring farms — rising rule: B = 3, A = 2 fails (0), then after the 0 E = 1 is enough."""
    state = solo("BAEDCF", [ROUND_B3, ROUND_A2, ROUND_E1])
    assert [(b["grapes"], b["target"], b["box"]) for b in state.breakdown(0)["farms"]] == [
        (3, 0, 3), (2, 3, 0), (1, 0, 1)]
    # final score: 3 + 0 + 1 = 4, one 0 box → −5 → −1 (no castle roads)
    assert state.breakdown(0)["penalty"] == -5 and state.total(0) == -1


def test_scoring_castles_count_only_their_colour() -> None:
    """docs/avenue.md §Castles — end of game: each castle scores 1 per grape of ITS colour on its network."""
    # purple castle 3 (right+bottom) → (0,1) 4 (1 purple) and (1,0) 2 (2 green): purple castle = 1
    sheet = sheet_with({(0, 0): 3, (0, 1): 4, (1, 0): 2})
    assert sheet.castle_score("purple") == 1
    # green castle 1 (top+left) → (5,5) 6 (2 purple) only: green castle = 0
    sheet = sheet_with({(6, 5): 1, (5, 5): 6})
    assert sheet.castle_score("green") == 0
    sheet.place(6 * COLS + 4, 5)   # (6,4) 5: 1 green joins → 1
    assert sheet.castle_score("green") == 1


def test_scoring_castles_are_added_at_the_end() -> None:
    """docs/avenue.md §Final score — farm boxes + castle scores − 5 per 0 box."""
    # round 1, farm A: A 6 + (0,1) 6 → A = 1. The green castle 1 + (6,4) 5 (1 green) + (6,3) 5 + (6,2) 5
    # (2 green) → green castle 3. Final: 1 + 0 + 3 − 0 = 4.
    state = solo("ABCDEF", [[("6Y", (1, 1)), ("6G", (0, 1)), ("1G", (6, 5)), ("5G", (6, 4)), ("5G", (6, 3)),
                             ("5Y", (6, 2)), ("2Y", "peek"), ("3Y", (2, 4))]])
    b = state.breakdown(0)
    assert (b["farm_total"], b["castles"], b["zeros"], b["total"]) == (1, {"purple": 0, "green": 3}, 0, 4)


def test_scoring_minus_five_for_every_zero_box() -> None:
    """docs/avenue.md §Final score — −5 for every farm box with 0 (a whole game of zeros: 5 × −5)."""
    never = AvenueState(AvenueParams(), 1, seed=4)
    while not never.is_terminal():   # peek once a round, draw only outside the farm cells (36 cells suffice)
        if never.is_chance_node():
            never.apply_chance()
            continue
        never.apply(0, Peek() if never.can_peek(0) else _far_from_farms(never))
    assert never.boxes == [[0, 0, 0, 0, 0]] and never.total(0) == -25 + sum(never.castle_scores(0).values())


def _far_from_farms(state: AvenueState) -> Draw:
    farms = set(LAYOUT.farms.values())
    return next(a for a in state.legal_actions(0) if isinstance(a, Draw) and (a.row, a.col) not in farms)


def _two_player_tie() -> AvenueState:
    # One round, farm A; both players see the same 8 cards.
    # P0: A 6 + (2,1) 6 (2p 1g) → A = 3; green castle 1 + (6,4) 5 (1 green) → 1.  Total 3 + 1 = 4.
    # P1: A 6 + (0,1) 6 (1p) → A = 1; green castle 1 + (6,4) 5 + (6,3) 5 + (6,2) 5 → 1 + 2 = 3.  Total 1 + 3 = 4.
    state = dealt(["6Y", "6G", "1G", "5G", "5G", "5Y", "2Y", "3Y"], players=["P0", "P1"],
                  params=AvenueParams(rounds=1))
    moves = [((1, 1), (1, 1)), ((2, 1), (0, 1)), ((6, 5), (6, 5)), ((6, 4), (6, 4)), ((0, 3), (6, 3)),
             ((4, 5), (6, 2)), ("peek", "peek"), ((2, 4), (2, 4))]
    state.apply_chance()
    for pair in moves:
        state.apply_chance()
        for p, m in enumerate(pair):
            state.apply(p, Peek() if m == "peek" else Draw(*m))
    assert state.apply_chance() == {"chance": "end"}
    return state


def test_scoring_tie_broken_by_highest_farm_box_not_castles() -> None:
    """docs/avenue.md §Winner and ties — a tie on total goes to the single highest score BOX (castles are not boxes)."""
    state = _two_player_tie()
    assert state.scores() == [4, 4]
    assert state.boxes == [[3], [1]] and state.castle_scores(1)["green"] == 3
    # P0's best box is 3, P1's is 1 (P1's castle 3 is not a score box): P0 wins
    assert state.placings() == [1, 2]
    assert [state.breakdown(p)["placing"] for p in range(2)] == [1, 2]


def test_scoring_still_tied_players_share_the_win() -> None:
    """docs/avenue.md §Winner and ties — same total and same highest box: the players share the win."""
    state = new_game(["P0", "P1", "P2"], seed=21)
    bot = GreedyBot()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
            continue
        a = bot.act(state, 0)
        for p in (0, 1):                    # P0 and P1 play the same moves
            state.apply(p, a)
        state.apply(2, first_draw(state, 2))
    assert state.total(0) == state.total(1) > state.total(2) and state.boxes[0] == state.boxes[1]
    assert state.placings() == [1, 1, 3]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_scoring_highest_total_wins(seed: int) -> None:
    """docs/avenue.md §Winner and ties — highest final score; placings follow the totals."""
    state = new_game(4, seed=seed)
    play_out(state, [GreedyBot(), _First(), GreedyBot(), _First()])
    totals = state.scores()
    for p, place in enumerate(state.placings()):
        assert place == 1 + sum(1 for q in range(4) if totals[q] > totals[p]) + sum(
            1 for q in range(4) if totals[q] == totals[p] and max(state.boxes[q]) > max(state.boxes[p]))


class _First:
    name = "first"

    def act(self, state: AvenueState, player: int) -> Any:
        return first_draw(state, player)


# ===== Playing together, solo, taking a move back ============================================
def test_players_any_number_on_the_same_cards() -> None:
    """docs/avenue.md §Playing together — any number of players act on the same cards: each sheet equals a solo
    game's."""
    n = 12
    many = new_game(n, seed=33)
    play_out(many, [GreedyBot() for _ in range(n)])
    alone = new_game(1, seed=33)
    play_out(alone, [GreedyBot()])
    # the greedy bot decides from its own sheet and the shared cards, so all 12 sheets match the solo game
    assert all(many.sheets[p].roads == alone.sheets[0].roads for p in range(n))
    assert many.scores() == [alone.total(0)] * n and many.placings() == [1] * n


def test_players_same_game_code_same_cards() -> None:
    """docs/avenue.md §Playing together — same game code → same cards in the same order (and the code names the
    variant)."""
    a = new_game(1, seed=123456)
    code = a.game_code()
    assert code is not None and code.startswith("AV-")
    b, c = new_game(3, code=code), new_game(1, code=code.lower())
    assert b.road_deck.order() == a.road_deck.order() == c.road_deck.order()
    assert b.farm_deck.order() == a.farm_deck.order()
    assert new_game(1, seed=123457).road_deck.order() != a.road_deck.order()
    short = new_game(1, seed=123456, variant="short")
    assert short.game_code() == code + "-SHORT"
    assert new_game(1, code=short.game_code()).params == PRESETS["short"]
    with pytest.raises(RecordError, match="another game"):
        new_game(1, code="KM" + code[2:])


def test_players_solo_title_table() -> None:
    """docs/avenue.md §Playing solo — sheetkit publishes a title table ("par") for solo scores."""
    from sheetkit.games.avenue.titles import TITLES, title_for, title_table
    lows = [low for low, _, _ in TITLES]
    assert lows == sorted(lows, reverse=True)
    assert [title_for(low) for low, _, _ in TITLES] == [t for _, t, _ in TITLES]
    assert len(title_table()) == len(TITLES) + 1


def test_players_undo_own_action_until_the_next_flip() -> None:
    """docs/avenue.md §Taking a move back — take back your own draw or peek until the next card is flipped."""
    state = to_act(dealt(["3Y", "4Y"], players=2))
    before = snapshot(state)
    state.apply(0, Draw(1, 1))
    assert state.can_undo(0) and not state.can_undo(1)   # P1 has nothing of their own to undo
    with pytest.raises(IllegalAction) as err:
        state.undo(1)
    assert err.value.code == "no-undo"
    state.undo(0)
    assert snapshot(state) == before                     # as if P0 had not acted
    state.apply(0, Peek())
    state.apply(1, Draw(2, 2))
    assert state.is_chance_node() and state.can_undo(0)  # everyone acted, card not yet replaced: still allowed
    state.undo(0)                                       # taking back a peek frees the peek again
    assert not state.peeked[0] and state.view(0)["peeked_farm"] is None and state.current_players() == [0]
    assert state.sheets[1].grid()[2][2] == 3             # P1's move is untouched
    state.apply(0, Draw(0, 0))
    assert replay(state.to_record()).fingerprint() == state.fingerprint()


def test_players_undo_by_several_players_keeps_the_record_true() -> None:
    """docs/avenue.md §Taking a move back — several players taking moves back in any order leave a true record."""
    state = to_act(dealt(["3Y", "4Y"], players=3))
    state.apply(2, Draw(6, 5))
    state.apply(0, Draw(4, 5))
    state.apply(1, Draw(6, 5))
    state.undo(0)          # P0's entry sat before P1's in the log
    state.undo(1)
    state.apply(1, Draw(5, 4))
    state.apply(0, Draw(2, 1))
    moves = [(e["player"], e["action"]) for e in state.log if "player" in e]
    assert moves == [(2, Draw(6, 5).to_json()), (1, Draw(5, 4).to_json()), (0, Draw(2, 1).to_json())]
    assert replay(json.loads(json.dumps(state.to_record()))).fingerprint() == state.fingerprint()


def test_players_never_undo_across_a_flip() -> None:
    """docs/avenue.md §Taking a move back — never undo across a flip (the new card reveals information)."""
    state = to_act(dealt(["3Y", "4Y"], players=2))
    state.apply(0, Draw(1, 1))
    state.apply(1, Draw(1, 1))
    state.apply_chance()                                  # 4Y is flipped
    assert not state.can_undo(0) and not state.can_undo(1)
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        state.undo(0)
    assert str(err.value) == "nothing to undo: you can only take back your move on the face-up card"
    assert snapshot(state) == before and state.sheets[0].grid()[1][1] == 3


# ===== rule variants as parameters ==============================================================
def test_variants_presets_change_one_rule_each() -> None:
    """docs/avenue.md §Variants — each preset differs from the published rules in one knob."""
    std = PRESETS["standard"]
    assert (std.rounds, std.penalty, std.yellows_per_round, std.rising, std.deck) == (5, 5, 4, True, DEFAULT_DECK)
    changed = {name: {k for k in ("rounds", "penalty", "yellows_per_round", "rising", "deck")
                      if getattr(p, k) != getattr(std, k)} for name, p in PRESETS.items()}
    assert changed == {"standard": set(), "norise": {"rising"}, "short": {"rounds"}, "gentle": {"penalty"},
                       "quick": {"yellows_per_round"}}


def _play_first(state: AvenueState) -> AvenueState:
    play_out(state, [_First() for _ in range(state.num_players)])
    return state


def test_variants_rounds() -> None:
    """docs/avenue.md §Variants — rounds: the "short" preset scores 3 farms and ends; 3 farm cards stay in the deck."""
    state = _play_first(new_game(1, seed=8, variant="short"))
    assert len(state.boxes[0]) == 3 and state.farm_deck.remaining() == 3


def test_variants_yellows_per_round() -> None:
    """docs/avenue.md §Variants — yellows_per_round: in "quick" a round ends on its 3rd yellow card."""
    state = new_game(1, seed=8, variant="quick")
    yellows_at_end: list[int] = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
            continue
        if state.round_ends_after_this_card():
            yellows_at_end.append(state.yellows)
        state.apply(0, first_draw(state, 0))
    assert yellows_at_end == [3] * 5


def test_variants_penalty_and_rising() -> None:
    """docs/avenue.md §Variants — penalty and rising: the same moves score by each variant's rule."""
    std, gentle, norise = (_play_first(new_game(1, seed=12, variant=v)) for v in ("standard", "gentle", "norise"))
    assert std.sheets[0].roads == gentle.sheets[0].roads == norise.sheets[0].roads
    grapes = std.grapes[0]
    # norise writes every farm with at least 1 grape
    assert norise.boxes[0] == [g if g > 0 else 0 for g in grapes]
    assert gentle.boxes[0] == std.boxes[0]
    castles = sum(std.castle_scores(0).values())
    assert gentle.total(0) == sum(std.boxes[0]) + castles - 2 * std.boxes[0].count(0)
    assert std.total(0) == sum(std.boxes[0]) + castles - 5 * std.boxes[0].count(0)


def test_variants_deck_composition() -> None:
    """docs/avenue.md §Variants — deck composition: a deck of straight roads only deals only straight roads."""
    params = AvenueParams().with_changes(deck=((0, 0), (0, 0), (0, 0), (0, 0), (12, 10), (10, 10)))
    state = _play_first(new_game(1, seed=2, params=params))
    drawn = {n for n in state.sheets[0].roads if n}
    assert drawn <= {5, 6}
    assert replay(state.to_record()).fingerprint() == state.fingerprint()


def test_variants_are_validated_in_plain_words() -> None:
    """docs/avenue.md §Variants — impossible parameter combinations are refused with the field named."""
    with pytest.raises(RecordError, match="rounds: 7 is out of range"):
        AvenueParams().with_changes(rounds=7)                    # only 6 farms
    with pytest.raises(RecordError, match="the road deck has no cards"):
        AvenueParams().with_changes(deck=((0, 0),) * 6)
    with pytest.raises(RecordError, match="yellows_per_round"):
        AvenueParams().with_changes(yellows_per_round=23)        # the deck has 22 yellow cards
    assert AvenueParams.from_json(PRESETS["quick"].to_json()) == PRESETS["quick"]


# ===== plain-words refusals (architecture.md: "IllegalAction with a plain-words message") ==========
def test_refusals_name_the_problem() -> None:
    """docs/avenue.md §Drawing a road, §Peeking — every refused move says why, in words a player understands."""
    state = to_act(dealt(["1Y"], players=2))
    assert "there is no player 5" in refused(state, 5, Draw(0, 0), "no-player")
    assert "players 0 to 1" in refused(state, 5, Draw(0, 0), "no-player")
    solo_state = to_act(dealt(["1Y"]))
    assert refused(solo_state, 1, Peek(), "no-player") == "there is no player 1 in this game (it has only player 0)"
    assert refused(state, 0, Pass(), "pass") == "you can only pass when your sheet is full and you cannot peek"
    assert "is not an Avenue move" in refused(state, 0, "jump", "bad-action")
    done = _play_first(new_game(1, seed=1, variant="short"))
    assert refused(done, 0, Peek(), "over") == "the game is over"
    with pytest.raises(IllegalAction, match="the game is over"):
        done.apply_chance()
