"""The group rule (docs/kingdom_maps.md §Drawing) and its fast check, against brute force on small maps."""

from __future__ import annotations

import itertools
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetkit.core.errors import IllegalAction
from sheetkit.core.grid import HexGrid
from sheetkit.games.kingdom_maps import (
    Announce,
    Board,
    Deal,
    KingdomParams,
    KingdomState,
    Place,
    can_draw,
    empty_patches,
    load_map,
    next_hexes,
    start_hexes,
)
from sheetkit.games.kingdom_maps.placement import BIG, largest_room, patches_after

SMALL = Board(HexGrid.hexagon(2).hexes, name="radius-2")
ODD = Board([(0, 0), (1, 0), (2, 0), (3, 0), (3, 1), (2, 2), (1, 2), (0, 2), (0, 1)], name="ring")


def connected(board: Board, hexes: set[int]) -> bool:
    """Brute-force connectivity of a set of hex numbers."""
    if not hexes:
        return True
    start = next(iter(hexes))
    seen, stack = {start}, [start]
    while stack:
        a = stack.pop()
        for b in board.nbrs[a]:
            if b in hexes and b not in seen:
                seen.add(b)
                stack.append(b)
    return seen == hexes


def valid_groups(board: Board, cells: list[int], n: int) -> list[set[int]]:
    """Every group of n hexes the rule allows: empty, connected, touching the old drawing (any on a blank map)."""
    blank = [i for i in range(board.size) if not cells[i]]
    blank_map = not any(cells)
    out = []
    for combo in itertools.combinations(blank, n):
        g = set(combo)
        if not connected(board, g):
            continue
        if blank_map or any(cells[b] for i in g for b in board.nbrs[i]):
            out.append(g)
    return out


fills = st.lists(st.booleans(), min_size=SMALL.size, max_size=SMALL.size)


@settings(max_examples=80, deadline=None)
@given(fills, st.integers(1, 5))
def test_fast_check_matches_brute_force_on_a_small_map(fill: list[bool], n: int) -> None:
    """docs/kingdom_maps.md §Drawing: 'can this player still draw n?' and the legal first hexes equal brute force."""
    cells = [2 if f else 0 for f in fill]
    groups = valid_groups(SMALL, cells, n)
    assert can_draw(SMALL, cells, n) == bool(groups)
    touching = {i for i in range(SMALL.size) if not any(cells) or any(cells[b] for b in SMALL.nbrs[i])}
    brute_starts = {i for g in groups for i in g if i in touching}
    assert set(start_hexes(SMALL, cells, n)) == brute_starts
    assert largest_room(SMALL, cells) >= n or not groups


@settings(max_examples=60, deadline=None)
@given(fills, st.integers(2, 5), st.randoms(use_true_random=False))
def test_every_next_hex_can_be_completed_and_no_other_can(fill: list[bool], n: int, rnd) -> None:
    """docs/kingdom_maps.md §Drawing: once begun, a group never gets stuck — the hexes offered are exactly
    those from which the whole amount can still be drawn."""
    cells = [3 if f else 0 for f in fill]
    groups = valid_groups(SMALL, cells, n)
    starts = start_hexes(SMALL, cells, n)
    if not starts:
        assert not groups
        return
    work, grp = list(cells), [rnd.choice(starts)]
    work[grp[0]] = 5
    while len(grp) < n:
        offered = set(next_hexes(SMALL, work, grp))
        brute = {h for g in groups if set(grp) <= g for h in g - set(grp)
                 if any(b in grp for b in SMALL.nbrs[h])}
        assert offered == brute and offered
        h = rnd.choice(sorted(offered))
        work[h] = 5
        grp.append(h)
    assert set(grp) in groups


def test_a_map_that_is_not_a_hexagon_works_too() -> None:
    """docs/kingdom_maps.md §The map: the fast check holds on any connected map (here a ring with a hole)."""
    for mask in range(1 << ODD.size):
        cells = [(mask >> i & 1) * 4 for i in range(ODD.size)]
        for n in range(1, 7):
            assert can_draw(ODD, cells, n) == bool(valid_groups(ODD, cells, n))


def test_empty_patches_measure_the_room_left() -> None:
    """Patch sizes: a full map has none; a blank map is one patch of every hex."""
    board = load_map()
    assert set(empty_patches(board, board.blank())) == {61}
    assert empty_patches(board, [1] * 61) == [0] * 61
    cells = [1] * 61
    cells[0] = cells[1] = 0  # two touching empty hexes on the top row
    assert empty_patches(board, cells)[:2] == [2, 2] and can_draw(board, cells, 2) and not can_draw(board, cells, 3)


def test_the_fast_check_is_fast() -> None:
    """docs/kingdom_maps.md §Drawing: the every-turn question 'can I still draw n?' costs well under a millisecond."""
    board = load_map()
    cells = board.blank()
    for i in range(0, 61, 3):
        cells[i] = 2
    t0 = time.perf_counter()
    for _ in range(2000):
        can_draw(board, cells, 6)
    assert (time.perf_counter() - t0) / 2000 < 0.001


# ----- the engine's checked Place ------------------------------------------------------
def small_state(old: list[int], amount: int) -> KingdomState:
    """A solo game on the radius-2 map with ``old`` already drawn and a drawing of ``amount`` under way."""
    params = KingdomParams(inline_map=SMALL)
    state = KingdomState(params, 1, deal=Deal(("B5",), (amount,) * 5))
    state.apply_chance()
    state.apply_chance()
    state.sheets[0].cells = list(old)
    state.apply(0, Announce(2, amount))
    return state


@settings(max_examples=120, deadline=None)
@given(fills, st.integers(1, 5), st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), max_size=25))
def test_every_accepted_group_is_legal_and_every_rejection_breaks_a_rule(fill, n, tries) -> None:
    """docs/kingdom_maps.md §Drawing: accepted hexes always build one connected group touching the old map;
    a rejected hex is off the map, drawn, cut off from the group or the old map, or leaves too little room —
    and a rejection leaves the game exactly as it was."""
    old = [1 if f else 0 for f in fill]
    state = small_state(old, n)
    blank_map = not any(old)
    groups = valid_groups(SMALL, old, n)
    for q, r in tries:
        sheet = state.sheets[0]
        if len(sheet.placed) == n:
            break
        before = state.fingerprint()
        try:
            state.apply(0, Place(q, r))
        except IllegalAction as e:
            assert state.fingerprint() == before
            i = SMALL.index.get((q, r))
            grp = set(sheet.placed)
            if e.code == "off-map":
                assert i is None
            elif e.code == "drawn":
                assert sheet.cells[i]
            elif e.code == "not-touching-group":
                assert grp and not any(b in grp for b in SMALL.nbrs[i])
            elif e.code == "not-touching-map":
                assert not grp and not blank_map and not any(old[b] for b in SMALL.nbrs[i])
            elif e.code == "no-room":
                assert not grp and not any(i in g for g in groups)
            else:
                pytest.fail(f"unexpected rejection {e.code}: {e}")
            if e.code == "no-room":
                assert not any(grp | {i} <= g for g in groups), "a hex with a legal completion was refused"
            continue
        grp = set(state.sheets[0].placed)
        assert connected(SMALL, grp) and any(grp <= g for g in groups)
    placed = set(state.sheets[0].placed)
    if len(placed) == n:
        assert placed in groups
        assert blank_map or any(old[b] for i in placed for b in SMALL.nbrs[i])


def test_the_groups_own_messages() -> None:
    """docs/kingdom_maps.md §Drawing: rejections explain themselves in plain words."""
    old = SMALL.blank()
    old[SMALL.index[(0, 0)]] = 1
    state = small_state(old, 3)
    with pytest.raises(IllegalAction, match=r"hex \(0, 0\) is already drawn"):
        state.apply(0, Place(0, 0))
    with pytest.raises(IllegalAction, match=r"hex \(5, 5\) is not on the map"):
        state.apply(0, Place(5, 5))
    with pytest.raises(IllegalAction, match="must touch a hex already drawn on your map"):
        state.apply(0, Place(2, 0))
    state.apply(0, Place(1, 0))
    with pytest.raises(IllegalAction, match="that hex doesn't touch the group you are drawing"):
        state.apply(0, Place(-1, 0))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 14))
def test_patches_after_a_drawing_are_the_flood_fills_below_big(seed: int, drawings: int) -> None:
    """The bot's patches after each drawing (docs/kingdom_maps.md §Drawing: a group needs a patch of its size),
    kept from drawing to drawing, are exactly the flood fill's where it is below ``BIG``, and ``BIG`` or more
    where it is not — on the default map and on a ring whose patches split."""
    rng = random.Random(seed)
    for board in (load_map("default"), ODD):
        cells = [0] * board.size
        patches = empty_patches(board, cells)
        for _ in range(drawings):
            empty = [i for i in range(board.size) if not cells[i]]
            if not empty:
                break
            group = [rng.choice(empty)]  # a connected group of 1–6 hexes
            for _ in range(rng.randint(0, 5)):
                near = sorted({b for g in group for b in board.nbrs[g] if not cells[b] and b not in group})
                if not near:
                    break
                group.append(rng.choice(near))
            for h in group:
                cells[h] = rng.randint(1, 6)
            patches = patches_after(board, cells, patches, group)
            full = empty_patches(board, cells)
            assert [p if p < BIG else BIG for p in full] == [p if p < BIG else BIG for p in patches], (cells, group)
