"""Pixel → hex and pixel → die for the Kingdom Maps table: pure functions, every hex and every scale."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sheetkit.widgets.geometry import to_canvas
from sheetkit.widgets.kingdom_maps.panels import MAX_DICE, die_at, die_rect
from sheetkit.widgets.kingdom_maps.sheet import MapLayout, hex_centre_canvas

from sheetkit.games.kingdom_maps import load_map

BOARD = load_map("default")
LAYOUT = MapLayout(frozenset(BOARD.coords))
GEO = LAYOUT.geometry
SCALE = 2


def test_every_hex_centre_maps_back_to_its_hex_in_css_and_canvas_pixels():
    big = GEO.scaled(SCALE)
    for q, r in BOARD.coords:
        assert GEO.cell_at(*GEO.cell_center(q, r)) == (q, r)
        assert big.cell_at(*big.cell_center(q, r)) == (q, r)
        assert big.cell_center(q, r) == pytest.approx(hex_centre_canvas(big, q, r))


@given(st.sampled_from(BOARD.coords), st.floats(0, 360), st.floats(0, 0.85),
       st.sampled_from([0.5, 0.8, 1.0, 1.25, 2.0]))
def test_a_click_inside_a_hex_of_a_scaled_canvas_finds_that_hex(h, angle, frac, shown):
    """Drawn 2× (HiDPI), shown at ``shown`` × its CSS size: a click inside the hex's inner circle lands on it."""
    inner = GEO.size * math.sqrt(3) / 2
    cx, cy = GEO.cell_center(*h)
    x = cx + frac * inner * math.cos(math.radians(angle))
    y = cy + frac * inner * math.sin(math.radians(angle))
    canvas = (LAYOUT.width * SCALE, LAYOUT.height * SCALE)
    rendered = (LAYOUT.width * shown, LAYOUT.height * shown)
    px, py = to_canvas(x * shown, y * shown, rendered=rendered, canvas=canvas)
    assert GEO.scaled(SCALE).cell_at(px, py) == h


@pytest.mark.parametrize("where", ["score", "legend", "corner", "title"])
def test_points_off_the_map_are_no_hex(where):
    x, y, w, h = {"score": LAYOUT.score_rect, "legend": LAYOUT.legend_rect,
                  "corner": (0, LAYOUT.height - 4, 4, 4), "title": (0, 0, 40, 20)}[where]
    assert GEO.cell_at(x + w / 2, y + h / 2) is None


def test_the_layout_keeps_map_score_zone_and_terrain_strip_apart():
    mx, my, mw, mh = LAYOUT.map_rect
    sx, _, sw, _ = LAYOUT.score_rect
    _, ly, _, lh = LAYOUT.legend_rect
    assert mx + mw < sx and my + mh < ly
    assert sx + sw <= LAYOUT.width and ly + lh <= LAYOUT.height
    for q, r in BOARD.coords:
        for x, y in GEO.corners(q, r):
            assert mx - 0.01 <= x <= mx + mw + 0.01 and my - 0.01 <= y <= my + mh + 0.01


def test_score_rows_fill_the_score_zone_for_4_and_12_criteria():
    for n in (4, 12):
        rows = LAYOUT.score_rows(n, 4, 6)
        kinds = [k for k, _ in rows]
        assert kinds.count("crit") == n and kinds[0] == "head" and kinds[-1] == "total"
        _, y, _, h = LAYOUT.score_rect
        assert rows[-1][1][1] + rows[-1][1][3] == pytest.approx(y + h)
    assert "power" not in [k for k, _ in LAYOUT.score_rows(4, 0, 0)]


def test_each_die_is_hit_at_its_centre_and_edges_and_gaps_are_not():
    for k in range(MAX_DICE):
        x, y, w, h = die_rect(k)
        assert die_at(x + w / 2, y + h / 2, MAX_DICE) == k
        assert die_at(x + 1, y + h - 1, MAX_DICE) == k
    x, y, w, h = die_rect(0)
    assert die_at(x + w + 15, y + h / 2, MAX_DICE) is None
    assert die_at(x + w / 2, y + h + 30, MAX_DICE) is None
    x, y, w, h = die_rect(2)
    assert die_at(x + w / 2, y + h / 2, 2) is None, "only the dice on the table count"
