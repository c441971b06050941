"""Layout facts the screen tests (tests/browser/test_fit_screens.py) rely on, checked without a browser."""

from __future__ import annotations

import math

from sheetkit.widgets import AvenueTable, KingdomTable
from sheetkit.widgets.kingdom_maps.panels import BLOCK_H, BLOCK_W, MAP_TOP

SQRT3 = math.sqrt(3.0)


def test_each_bots_map_has_legible_hexes_inside_its_own_block() -> None:
    t = KingdomTable(code="KM-0000-0005", bots="greedy,random,greedy")
    view = t.opponents
    assert view.canvas.width == 3 * BLOCK_W and view.canvas.height == BLOCK_H
    for k in range(3):
        g = view.geometry(k)
        assert g.size >= 10, "a bot's hexes are at least 10 CSS px in radius (17 px across)"
        for q, r in t.state.board.coords:
            x, y = g.cell_center(q, r)
            # the whole hex lies in the bot's block, under its name line and above its uses line
            assert k * BLOCK_W <= x - g.size * SQRT3 / 2 and x + g.size * SQRT3 / 2 <= (k + 1) * BLOCK_W
            assert MAP_TOP <= y - g.size and y + g.size <= BLOCK_H - 14


def test_the_log_sits_in_the_sheets_column_and_stays_there_for_a_new_sheet() -> None:
    t = AvenueTable(code="AV-0000-001A", bots="greedy")
    assert t.left.children == (t.sheet.widget, t.log) and t.main.children == (t.left, t.side)
    t.code_input.value = "AV-0000-001A-SHORT"     # fewer rounds: a new sheet replaces the old one
    t.play_code_button.click()
    assert t.left.children == (t.sheet.widget, t.log)


def test_the_kingdom_log_sits_beside_the_bots_maps_under_the_map() -> None:
    t = KingdomTable(code="KM-0000-0005", bots="greedy")
    assert t.bottom.children == (t.opponents.widget, t.log)
    assert t.left.children == (t.sheet.widget, t.bottom)
    t.code_input.value = "KM-0000-0005"
    t.opponents_pick.value = ("greedy", "random")
    t.new_button.click()
    assert len(t.opponents.players) == 2 and t.bottom.children == (t.opponents.widget, t.log)
