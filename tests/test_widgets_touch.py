"""Taps play every table: a one-finger tap on a canvas is one click, a swipe or a pinch is none, and a
mouse press echoing a tap is dropped (issue #15 part 1; docs/architecture.md, "Touch").

ipycanvas cancels the browser's touch events, so a phone makes no mouse click: the tables must read
``touch_start`` / ``touch_move`` / ``touch_end`` themselves. The events here are what ipycanvas 0.14
sends (``event.touches``: the fingers still down, so a one-finger tap ends with none).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sheetkit.widgets import AvenueTable, KeyHarvestTable, KingdomTable
from sheetkit.widgets.touch import ECHO_SECONDS, TAP_SLOP, Taps

from sheetkit.games.avenue import Draw
from sheetkit.games.kingdom_maps import GreedyBot as KingdomGreedy


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def taps() -> tuple[Taps, list[tuple[float, float]], Clock]:
    clicks: list[tuple[float, float]] = []
    clock = Clock()
    return Taps(lambda x, y: clicks.append((x, y)), clock=clock), clicks, clock


# ----- the recogniser -------------------------------------------------------------------------------

def test_a_tap_is_one_click_where_the_finger_went_down_even_if_it_drifted_a_little(taps):
    t, clicks, _ = taps
    t.touch_start([(50, 60)])
    t.touch_move([(54, 63)])                    # a finger never lands perfectly still
    t.touch_end([])
    assert clicks == [(50, 60)]
    t.touch_end([])                             # a stray second end is no second tap
    assert clicks == [(50, 60)]


def test_a_swipe_a_pinch_and_a_cancelled_touch_are_no_tap(taps):
    t, clicks, _ = taps
    t.touch_start([(50, 60)])
    t.touch_move([(50, 60 - TAP_SLOP - 1)])      # scrolling, or changing one's mind
    t.touch_move([(50, 60)])                     # ... and coming back does not make it a tap again
    t.touch_end([])
    t.touch_start([(50, 60)])
    t.touch_start([(50, 60), (120, 90)])         # a second finger: a pinch
    t.touch_end([(120, 90)])
    t.touch_end([])
    t.touch_start([(50, 60)])
    t.touch_cancel([])                           # the browser took the gesture over
    t.touch_end([])
    assert clicks == []


def test_a_mouse_press_echoing_a_tap_is_dropped_and_any_other_mouse_press_is_a_click(taps):
    t, clicks, clock = taps
    t.touch_start([(50, 60)])
    t.touch_end([])
    clock.t += 0.05
    t.mouse_down(51, 61)                         # the same tap again, as a device's mouse events
    assert clicks == [(50, 60)]
    t.mouse_down(51, 61)                         # a second press is the user's own click
    t.touch_start([(50, 60)])
    t.touch_end([])
    t.mouse_down(200, 60)                        # elsewhere: a click of its own
    t.touch_start([(50, 60)])
    t.touch_end([])
    clock.t += ECHO_SECONDS + 0.5
    t.mouse_down(50, 60)                         # long after: a click of its own
    assert clicks == [(50, 60), (51, 61), (50, 60), (200, 60), (50, 60), (50, 60)]


# ----- every canvas that takes clicks takes taps ----------------------------------------------------

Made = tuple[Any, Any, Callable[[], int], tuple[float, float]]   # table, canvas, moves made so far, a spot to tap


def avenue_sheet() -> Made:
    t = AvenueTable(code="AV-0000-001A", bots=("greedy",))
    t.simulate_client_ready()
    d = next(a for a in t.state.legal_actions(0) if isinstance(a, Draw))
    roads = t.state.sheets[0].roads
    return t, t.sheet.canvas, lambda: sum(1 for r in roads if r), t.sheet.geometry.cell_center(d.row, d.col)


def kingdom_map() -> Made:
    t = KingdomTable(code="KM-0000-0005", bots=())
    t.simulate_client_ready()
    a = KingdomGreedy(seed=1).act(t.state, 0)
    t.terrain_buttons[a.terrain].click()
    t.die_buttons[t.state.dice.index(a.die)].click()
    n = len(t.state.log)
    q, r = t.state.legal_hexes(0)[0]
    return t, t.sheet.canvas, lambda: len(t.state.log) - n, t.sheet.geometry.cell_center(q, r)


def kingdom_dice() -> Made:
    from sheetkit.widgets.kingdom_maps.panels import die_rect

    t = KingdomTable(code="KM-0000-0005", bots=())
    t.simulate_client_ready()
    t.terrain_buttons[1].click()                 # the terrain first: taking a die then announces
    n = len(t.state.log)
    x, y, w, h = die_rect(0)
    return t, t.dice.canvas, lambda: len(t.state.log) - n, (x + w / 2, y + h / 2)


def key_harvest_board() -> Made:
    t = KeyHarvestTable(code="KH-0000-0001")
    t.simulate_client_ready()
    code = next(c for c, side in t.state.boards[0].items() if side == "up")
    return t, t.board.canvas, lambda: len(t.state.turn_actions), t.board.geo.centre(code)


def key_harvest_registry() -> Made:
    t = KeyHarvestTable(code="KH-0000-0001")
    t.simulate_client_ready()
    code = t.state.registry[0]
    return t, t.town.canvas, lambda: int(t.composer.tile == code), t.town.point_of(t.state, ("registry", code))


CANVASES = {"avenue-sheet": avenue_sheet, "kingdom-map": kingdom_map, "kingdom-dice": kingdom_dice,
            "key-harvest-board": key_harvest_board, "key-harvest-registry": key_harvest_registry}


def refused(t: Any) -> bool:
    return "sk-error" in t.status.value


@pytest.mark.parametrize("make", CANVASES.values(), ids=CANVASES.keys())
def test_a_tap_makes_one_move_a_swipe_none_and_touch_then_mouse_one(make):
    t, canvas, moves, (x, y) = make()
    assert moves() == 0
    canvas.simulate_touch("touch_start", (x, y))
    canvas.simulate_touch("touch_move", (x, y + 3 * TAP_SLOP))   # a swipe that starts on the spot
    canvas.simulate_touch("touch_end")
    assert moves() == 0 and not refused(t), "a swipe made a move (or was answered)"
    canvas.simulate_tap(x, y)
    assert moves() == 1 and not refused(t), "a tap made no move"
    canvas.simulate_click(x + 1, y + 1)          # a device that also makes a mouse press from the tap
    assert moves() == 1 and not refused(t), "the tap's mouse echo made a second move (or a refusal)"

    t, canvas, moves, (x, y) = make()             # a fresh table: a mouse click alone still plays
    canvas.simulate_click(x, y)
    assert moves() == 1 and not refused(t)
