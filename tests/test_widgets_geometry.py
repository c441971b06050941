"""Pixel ↔ cell maths for square and hex sheets: every cell's centre maps back to it, at any scale."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sheetkit.widgets.geometry import (
    HexGeometry,
    SquareGeometry,
    cell_at,
    cell_center,
    clip_segment,
    hex_at,
    hex_center,
    to_canvas,
)

from sheetkit.core.grid import HEX_DIRECTIONS, HexGrid

SHEET = SquareGeometry(rows=7, cols=6, cell=54, x0=28, y0=48)


def test_every_square_cell_centre_maps_back_to_the_cell():
    for r in range(SHEET.rows):
        for c in range(SHEET.cols):
            assert SHEET.cell_at(*SHEET.cell_center(r, c)) == (r, c)


def test_square_cell_edges_belong_to_the_cell_below_and_right():
    x, y, w, h = SHEET.cell_rect(2, 3)
    assert SHEET.cell_at(x, y) == (2, 3)
    assert SHEET.cell_at(x + w - 0.01, y + h - 0.01) == (2, 3)
    assert SHEET.cell_at(x + w, y) == (2, 4)


@pytest.mark.parametrize("point", [(27.9, 100), (100, 47.9), (28 + 6 * 54, 100), (100, 48 + 7 * 54), (-5, -5)])
def test_points_off_the_square_grid_are_no_cell(point):
    assert SHEET.cell_at(*point) is None


@given(st.integers(0, 6), st.integers(0, 5), st.floats(0.01, 0.99), st.floats(0.01, 0.99),
       st.sampled_from([0.5, 0.75, 1.0, 1.5, 2.0, 3.0]))
def test_a_click_anywhere_in_a_cell_of_a_scaled_canvas_finds_that_cell(r, c, fx, fy, shown):
    """The canvas is drawn 2× (HiDPI) and shown at ``shown`` × its CSS size: clicks still land right."""
    scale = 2
    css = SHEET
    canvas_w, canvas_h = 512 * scale, 500 * scale
    rendered_w, rendered_h = 512 * shown, 500 * shown
    x, y, w, h = css.cell_rect(r, c)
    click = ((x + fx * w) * shown, (y + fy * h) * shown)           # where the mouse is, in rendered px
    cx, cy = to_canvas(*click, rendered=(rendered_w, rendered_h), canvas=(canvas_w, canvas_h))
    assert css.scaled(scale).cell_at(cx, cy) == (r, c)
    assert css.cell_at(cx / scale, cy / scale) == (r, c)


def test_scaled_geometry_is_the_same_grid_in_canvas_pixels():
    big = SHEET.scaled(2)
    assert (big.cell, big.x0, big.y0) == (108, 56, 96)
    assert big.cell_center(3, 4) == tuple(2 * v for v in SHEET.cell_center(3, 4))


def test_to_canvas_rejects_a_zero_size_canvas():
    with pytest.raises(ValueError):
        to_canvas(1, 1, rendered=(0, 10), canvas=(10, 10))


def test_unbounded_square_helpers_round_trip_including_negative_cells():
    for r in range(-3, 4):
        for c in range(-3, 4):
            assert cell_at(*cell_center(r, c, 40, (10, 20)), 40, (10, 20)) == (r, c)


# ----- hex -------------------------------------------------------------------------------------

def test_every_hex_centre_maps_back_to_the_hex():
    grid = HexGrid.hexagon(4)
    geo = HexGeometry.for_map(grid.hexes, size=30, margin=5)
    for q, r in grid.cells():
        assert geo.cell_at(*geo.cell_center(q, r)) == (q, r)


def test_hex_neighbours_sit_one_hex_width_apart_in_the_core_grids_directions():
    geo = HexGeometry(size=20)
    x0, y0 = geo.cell_center(0, 0)
    east = geo.cell_center(*HEX_DIRECTIONS[0])
    assert east[0] - x0 == pytest.approx(20 * math.sqrt(3)) and east[1] == pytest.approx(y0)
    south_east = geo.cell_center(0, 1)   # r grows to the south-east (pointy-top)
    assert south_east[0] > x0 and south_east[1] > y0
    for d in HEX_DIRECTIONS:
        x, y = geo.cell_center(*d)
        assert math.hypot(x - x0, y - y0) == pytest.approx(20 * math.sqrt(3))


@given(st.integers(-4, 4), st.integers(-4, 4), st.floats(0, 2 * math.pi), st.floats(0, 0.84),
       st.sampled_from([0.5, 1.0, 2.0, 2.5]))
def test_a_click_inside_a_hex_finds_that_hex_at_any_scale(q, r, angle, frac, shown):
    """Points within the inscribed circle (radius √3/2 · size) belong to the hex, scaled or not."""
    scale = 2
    geo = HexGeometry(size=24, x0=300, y0=260)
    cx, cy = geo.cell_center(q, r)
    rad = frac * 24 * math.sqrt(3) / 2
    px, py = cx + rad * math.cos(angle), cy + rad * math.sin(angle)
    rendered = (600 * shown, 520 * shown)
    canvas = (600 * scale, 520 * scale)
    x, y = to_canvas(px * shown, py * shown, rendered=rendered, canvas=canvas)
    assert geo.scaled(scale).cell_at(x, y) == (q, r)


def test_hex_corners_are_one_size_from_the_centre_and_map_back_nearby():
    geo = HexGeometry(size=18, x0=50, y0=50)
    cx, cy = geo.cell_center(1, -1)
    corners = geo.corners(1, -1)
    assert len(corners) == 6
    for x, y in corners:
        assert math.hypot(x - cx, y - cy) == pytest.approx(18)
        # just inside the corner, towards the centre, is still this hex
        assert geo.cell_at(x + (cx - x) * 0.05, y + (cy - y) * 0.05) == (1, -1)


def test_hexes_off_the_map_are_no_cell():
    geo = HexGeometry.for_map(HexGrid.hexagon(1).hexes, size=20)
    far = geo.cell_center(3, 0)
    assert geo.cell_at(*far) is None
    w, h = geo.extent()
    assert w > 0 and h > 0


def test_unbounded_hex_helpers_round_trip():
    for q in range(-3, 4):
        for r in range(-3, 4):
            assert hex_at(*hex_center(q, r, 15, (7, 9)), 15, (7, 9)) == (q, r)



HEX = [(10 * math.cos(math.radians(-90 + 60 * k)), 10 * math.sin(math.radians(-90 + 60 * k))) for k in range(6)]


def depth(p: tuple[float, float], poly: list[tuple[float, float]]) -> float:
    """How far inside the convex polygon ``p`` lies (negative: outside): the least distance to an edge's line."""
    n = len(poly)
    area2 = sum(poly[i][0] * poly[(i + 1) % n][1] - poly[(i + 1) % n][0] * poly[i][1] for i in range(n))
    out = math.inf
    for i in range(n):
        (ax, ay), (bx, by) = poly[i], poly[(i + 1) % n]
        cross = (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax)
        out = min(out, math.copysign(1, area2) * cross / math.dist((ax, ay), (bx, by)))
    return out


def test_clip_segment_cuts_a_line_to_a_square_in_either_winding():
    square = [(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)]
    for poly in (square, square[::-1]):
        assert clip_segment((-2.0, 2.0), (6.0, 2.0), poly) == ((0.0, 2.0), (4.0, 2.0))
        assert clip_segment((1.0, 1.0), (3.0, 3.0), poly) == ((1.0, 1.0), (3.0, 3.0)), "inside: unchanged"
        assert clip_segment((5.0, 0.0), (9.0, 4.0), poly) is None, "outside: nothing"
        assert clip_segment((-1.0, 5.0), (5.0, 5.0), poly) is None, "parallel to an edge, outside it"


@given(st.floats(-20, 20), st.floats(-20, 20), st.floats(-20, 20), st.floats(-20, 20), st.floats(0, 1))
def test_clip_segment_keeps_exactly_the_part_inside_a_hex(ax, ay, bx, by, t):
    """The hatching of a harvested Key Harvest tile is cut to its hex this way, not by a canvas clip."""
    part = clip_segment((ax, ay), (bx, by), HEX)
    p = (ax + t * (bx - ax), ay + t * (by - ay))        # a point of the segment
    if part is not None:
        assert depth(part[0], HEX) > -1e-6 and depth(part[1], HEX) > -1e-6, "both ends lie in the hex"
    if depth(p, HEX) > 1e-6:
        assert part is not None, "a segment with a point inside keeps a part"
        along = [(q[0] - ax) * (bx - ax) + (q[1] - ay) * (by - ay) for q in (part[0], p, part[1])]
        assert along[0] - 1e-6 <= along[1] <= along[2] + 1e-6, "every point inside the hex is in the kept part"
