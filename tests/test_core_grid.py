"""Square and hex (axial) grids: neighbours, shared edges and connected components."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sheetkit.core.grid import (
    BOTTOM,
    EDGE_STEP,
    HEX_DIRECTIONS,
    LEFT,
    OPPOSITE,
    RIGHT,
    TOP,
    Cell,
    HexGrid,
    SquareGrid,
    components,
)

# ----- square grids --------------------------------------------------------------------------


def test_square_cells_read_row_by_row_and_flat_indices_round_trip() -> None:
    g = SquareGrid(2, 3)
    assert list(g.cells()) == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
    assert len(g) == 6
    assert [g.index(c) for c in g.cells()] == list(range(6))
    assert all(g.cell(g.index(c)) == c for c in g.cells())


def test_square_membership_rejects_off_grid_and_non_cells() -> None:
    g = SquareGrid(7, 6)
    assert (0, 0) in g and (6, 5) in g
    for off in [(-1, 0), (0, -1), (7, 0), (0, 6), (7, 6)]:
        assert off not in g
    for junk in ["a", (1,), (1, 2, 3), (1.0, 2), ("1", "2"), None, [1, 2]]:
        assert junk not in g


def test_square_neighbours_of_corner_edge_and_middle_cells() -> None:
    """docs/avenue.md §Networks: orthogonal neighbours only; nothing past the sheet's edge."""
    g = SquareGrid(7, 6)
    assert sorted(g.neighbours((0, 0))) == [(0, 1), (1, 0)]
    assert sorted(g.neighbours((6, 5))) == [(5, 5), (6, 4)]
    assert sorted(g.neighbours((0, 3))) == [(0, 2), (0, 4), (1, 3)]
    assert sorted(g.neighbours((3, 2))) == [(2, 2), (3, 1), (3, 3), (4, 2)]
    assert g.neighbours((0, 0)) == [(0, 1), (1, 0)]  # fixed order: top, right, bottom, left
    assert SquareGrid(1, 1).neighbours((0, 0)) == []


def test_square_neighbour_across_each_edge() -> None:
    g = SquareGrid(3, 3)
    assert g.neighbour((1, 1), TOP) == (0, 1)
    assert g.neighbour((1, 1), RIGHT) == (1, 2)
    assert g.neighbour((1, 1), BOTTOM) == (2, 1)
    assert g.neighbour((1, 1), LEFT) == (1, 0)
    assert g.neighbour((0, 0), TOP) is None and g.neighbour((0, 0), LEFT) is None
    assert g.neighbour((2, 2), RIGHT) is None and g.neighbour((2, 2), BOTTOM) is None


def test_square_shared_edges_name_the_touching_side() -> None:
    g = SquareGrid(3, 3)
    assert g.shared_edge((1, 1), (0, 1)) == TOP
    assert g.shared_edge((1, 1), (1, 2)) == RIGHT
    assert g.shared_edge((1, 1), (2, 1)) == BOTTOM
    assert g.shared_edge((1, 1), (1, 0)) == LEFT
    assert g.shared_edge((1, 1), (2, 2)) is None  # diagonal: corners touch, edges do not
    assert g.shared_edge((1, 1), (1, 1)) is None
    assert g.shared_edge((0, 0), (0, 2)) is None


def test_square_corners() -> None:
    g = SquareGrid(7, 6)
    assert {c for c in g.cells() if g.is_corner(c)} == {(0, 0), (0, 5), (6, 0), (6, 5)}


def test_edge_tables_are_consistent() -> None:
    for e, (dr, dc) in EDGE_STEP.items():
        assert OPPOSITE[OPPOSITE[e]] == e
        assert EDGE_STEP[OPPOSITE[e]] == (-dr, -dc)
    assert len({TOP, RIGHT, BOTTOM, LEFT}) == 4 and TOP | RIGHT | BOTTOM | LEFT == 15


# ----- hex grids -----------------------------------------------------------------------------


@pytest.mark.parametrize(("radius", "size"), [(0, 1), (1, 7), (2, 19), (3, 37), (4, 61)])
def test_hexagon_maps_have_the_centred_hexagonal_number_of_hexes(radius: int, size: int) -> None:
    g = HexGrid.hexagon(radius)
    assert len(g) == size == 3 * radius * (radius + 1) + 1
    assert all(HexGrid.distance((0, 0), h) <= radius for h in g.cells())


def test_hex_neighbours_of_centre_and_rim() -> None:
    g = HexGrid.hexagon(1)
    assert sorted(g.neighbours((0, 0))) == sorted(HEX_DIRECTIONS)
    # a rim hex of the radius-1 hexagon touches the centre and its two rim neighbours
    assert sorted(g.neighbours((1, 0))) == [(0, 0), (0, 1), (1, -1)]
    assert not g.is_edge((0, 0)) and all(g.is_edge(h) for h in g.cells() if h != (0, 0))
    assert HexGrid.hexagon(0).neighbours((0, 0)) == []


def test_hex_shared_edges_are_direction_indices_and_opposite_sides_pair_up() -> None:
    g = HexGrid.hexagon(2)
    for i, (dq, dr) in enumerate(HEX_DIRECTIONS):
        assert g.shared_edge((0, 0), (dq, dr)) == i
        assert g.shared_edge((dq, dr), (0, 0)) == (i + 3) % 6
    assert g.shared_edge((0, 0), (1, 1)) is None  # not adjacent in axial coordinates
    assert g.shared_edge((0, 0), (2, 0)) is None
    assert g.shared_edge((0, 0), (0, 0)) is None


def test_hex_distance() -> None:
    assert HexGrid.distance((0, 0), (0, 0)) == 0
    assert all(HexGrid.distance((0, 0), d) == 1 for d in HEX_DIRECTIONS)
    assert HexGrid.distance((0, 0), (2, -1)) == 2
    assert HexGrid.distance((-2, 0), (2, 0)) == 4
    assert HexGrid.distance((1, 1), (0, 0)) == 2  # (1, 1) is two steps away, not diagonal-adjacent


def test_hex_cells_iterate_in_a_fixed_order() -> None:
    g = HexGrid(frozenset({(1, 0), (0, 1), (-1, 1), (0, 0)}))
    assert g.cells() == [(0, 0), (1, 0), (-1, 1), (0, 1)]
    assert (0, 0) in g and (5, 5) not in g and "x" not in g


# ----- components ----------------------------------------------------------------------------


def always(_a: Cell, _b: Cell) -> bool:
    return True


def test_square_components_by_hand() -> None:
    """Two blobs and a lone cell on a 3 × 4 grid; diagonal contact does not join."""
    g = SquareGrid(3, 4)
    cells = {(0, 0), (0, 1), (1, 1), (2, 3), (1, 3), (2, 0)}
    comps = components(cells, always, g.neighbours)
    assert sorted(sorted(c) for c in comps) == [[(0, 0), (0, 1), (1, 1)], [(1, 3), (2, 3)], [(2, 0)]]
    assert sorted(map(sorted, components([(0, 0), (1, 1)], always, g.neighbours))) == [[(0, 0)], [(1, 1)]]
    assert components([], always, g.neighbours) == []


def test_components_follow_the_link_rule_not_just_adjacency() -> None:
    """Like roads: neighbours join only when ``linked`` says their shared edge is open both ways."""
    g = SquareGrid(1, 4)
    # a row of four cells; the wall between (0, 1) and (0, 2) is closed
    linked = lambda a, b: {a, b} != {(0, 1), (0, 2)}  # noqa: E731
    comps = sorted(sorted(c) for c in components(g.cells(), linked, g.neighbours))
    assert comps == [[(0, 0), (0, 1)], [(0, 2), (0, 3)]]


def test_hex_components_by_hand() -> None:
    g = HexGrid.hexagon(2)
    cells = [(0, 0), (1, 0), (1, -1), (-2, 2), (-2, 1), (2, 0)]
    comps = sorted(sorted(c) for c in components(cells, always, g.neighbours))
    assert comps == [[(-2, 1), (-2, 2)], [(0, 0), (1, -1), (1, 0), (2, 0)]]


def test_components_only_use_the_given_cells() -> None:
    g = SquareGrid(3, 3)
    comps = components([(0, 0), (0, 2)], always, g.neighbours)
    assert sorted(map(sorted, comps)) == [[(0, 0)], [(0, 2)]]  # (0, 1) is not in the set: no bridge


# ----- properties ----------------------------------------------------------------------------

square_grids = st.builds(SquareGrid, st.integers(1, 8), st.integers(1, 8))
hex_grids = st.integers(0, 4).map(HexGrid.hexagon)


def subset_of(grid_cells: list[Cell]) -> st.SearchStrategy[list[Cell]]:
    return st.lists(st.sampled_from(grid_cells), unique=True)


@given(square_grids)
def test_square_neighbour_relation_is_symmetric_and_matches_shared_edges(g: SquareGrid) -> None:
    for a in g.cells():
        ns = g.neighbours(a)
        assert len(set(ns)) == len(ns) <= 4
        for b in ns:
            assert b in g and a in g.neighbours(b)
            e = g.shared_edge(a, b)
            assert e is not None and g.shared_edge(b, a) == OPPOSITE[e] and g.neighbour(a, e) == b


@given(hex_grids)
def test_hex_neighbour_relation_is_symmetric_and_matches_distance_one(g: HexGrid) -> None:
    for a in g.cells():
        ns = g.neighbours(a)
        assert len(set(ns)) == len(ns) <= 6
        assert set(ns) == {b for b in g.cells() if HexGrid.distance(a, b) == 1}
        for b in ns:
            assert a in g.neighbours(b)
            assert g.shared_edge(b, a) == (g.shared_edge(a, b) + 3) % 6  # type: ignore[operator]


@given(st.data(), st.one_of(square_grids, hex_grids))
def test_components_partition_the_cells_into_connected_maximal_pieces(data: st.DataObject,
                                                                      g: SquareGrid | HexGrid) -> None:
    cells = data.draw(subset_of(list(g.cells())))
    comps = components(cells, always, g.neighbours)
    # a partition: disjoint, non-empty, covering exactly the given cells
    assert all(comps)
    assert sum(len(c) for c in comps) == len(cells)
    assert set().union(set(), *comps) == set(cells)
    which = {c: i for i, comp in enumerate(comps) for c in comp}
    # maximal: neighbouring given cells always share a component
    for a in cells:
        for b in g.neighbours(a):
            if b in which:
                assert which[a] == which[b]
    # connected: a walk inside each component reaches all of it
    for comp in comps:
        start = next(iter(comp))
        seen, todo = {start}, [start]
        while todo:
            x = todo.pop()
            for y in g.neighbours(x):
                if y in comp and y not in seen:
                    seen.add(y)
                    todo.append(y)
        assert seen == comp


@given(st.data(), square_grids)
def test_components_with_a_symmetric_link_rule_never_cross_a_closed_wall(data: st.DataObject,
                                                                          g: SquareGrid) -> None:
    closed = data.draw(st.sets(st.tuples(st.sampled_from(list(g.cells())), st.sampled_from(list(g.cells())))))
    walls = {frozenset(p) for p in closed}

    def linked(a: Cell, b: Cell) -> bool:
        return frozenset((a, b)) not in walls

    comps = components(g.cells(), linked, g.neighbours)
    assert sum(len(c) for c in comps) == len(g)
    which = {c: i for i, comp in enumerate(comps) for c in comp}
    for a in g.cells():
        for b in g.neighbours(a):
            if linked(a, b):
                assert which[a] == which[b]
