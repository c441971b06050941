"""Key Harvest's town board as a canvas: the land registry, the townsfolk, the events, every store.

Bids lie open on the store tiles, as on the real table (and on Yucata): each store shows its tiles
with the counters bid on them. Three layers: ``paper`` (the printed frames; drawn once per client),
``ink`` (tiles, townsfolk, events, stores; redrawn when they change) and ``lit`` (the rings round
what you may bid for or buy, and the tile chosen for your bid: choosing a tile redraws only these).
``hit`` tells which thing a click is on.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from typing import Any

from sheetkit.widgets import theme
from sheetkit.widgets.canvas import SheetCanvas
from sheetkit.widgets.geometry import Rect
from sheetkit.widgets.key_harvest import art
from sheetkit.widgets.shapes import blank_paper

from sheetkit.games.key_harvest.board import CROP_OF
from sheetkit.games.key_harvest.events import EVENTS
from sheetkit.games.key_harvest.workers import TOWNSFOLK, WORKERS

# A compact town (430 px: the width of your board, under which it sits on a 1024x768 projector):
# the registry and the townsfolk (two rows of three) side by side, the events as a thin strip,
# the stores two per row. Its height with four stores keeps board + town inside 768 px.
WIDTH = 430.0
REG_R = 22.0            # registry hex radius
REG_Y = 48.0
REG_X0, REG_DX = 26.0, 44.0
TF_X0, TF_DX, TF_S = 298.0, 46.0, 24.0
TF_Y0, TF_DY = 36.0, 40.0
EV_Y, EV_H, EV_W, EV_DX = 114.0, 32.0, 41.0, 42.0
EV_FONT, EV_LINE = 8.5, 9.5     # an event's name: up to three lines, each no wider than the space (less 2 px)
# A word too wide for an event space breaks where a printer would hyphenate it (the others fit: measured in
# Chromium, tests/browser/test_key_harvest_fit.py)
EVENT_BREAKS = {"Farmhands'": ("Farm-", "hands'")}
STORE_Y, STORE_W, STORE_H, STORE_GAP = 166.0, 209.0, 74.0, 4.0
SLOT_W = 102.0
STORE_R = 17.0
CHIP_H, CHIP_DX, CHIP_DY = 13.0, 31.0, 15.0
Hit = tuple[str, ...]   # ("registry", code) | ("store", player, code) | ("townsfolk", id)


def event_lines(name: str) -> list[str]:
    """An event's name as printed in its space, one line per word ("Farmhands' holiday": Farm- / hands' / holiday)."""
    return [part for word in name.split(" ") for part in EVENT_BREAKS.get(word, (word,))]


def registry_centre(k: int) -> tuple[float, float]:
    """Centre of registry place ``k`` (0–5)."""
    return REG_X0 + k * REG_DX, REG_Y


def townsfolk_centre(k: int) -> tuple[float, float]:
    """Centre of townsfolk space ``k`` (0–5, in the order of ``TOWNSFOLK``; two rows of three)."""
    return TF_X0 + (k % 3) * TF_DX, TF_Y0 + (k // 3) * TF_DY


def event_rect(k: int) -> Rect:
    """Event space ``k`` (0–9)."""
    return 5 + k * EV_DX, EV_Y, EV_W, EV_H


def store_rect(k: int) -> Rect:
    """The store of the ``k``-th player (two per row)."""
    return 4 + (k % 2) * (STORE_W + 4), STORE_Y + (k // 2) * (STORE_H + STORE_GAP), STORE_W, STORE_H


def store_slot_centre(k: int, slot: int) -> tuple[float, float]:
    """Centre of the tile in slot ``slot`` of store ``k``."""
    x, y, _, _ = store_rect(k)
    return x + 6 + slot * SLOT_W + STORE_R, y + 42


def town_height(players: int) -> float:
    """Canvas height for this many players' stores."""
    return float(math.ceil(STORE_Y + ((players + 1) // 2) * (STORE_H + STORE_GAP)))


def registry_codes(state: Any) -> list[str | None]:
    """The registry's places, left to right (None where a place is empty)."""
    return list(state.registry)


class TownBoard:
    """The town board and the stores, drawn from the engine state."""

    def __init__(self, players: int, scale: float = theme.SCALE) -> None:
        self.players = players
        self.width = WIDTH
        self.height = town_height(players)
        self.canvas = SheetCanvas(self.width, self.height, ("paper", "ink", "lit"), scale, css_class="sk-town",
                                  stacked=True)
        self.widget = self.canvas.widget
        self._drawn: Any = None
        self._lit: Any = None

    def forget(self) -> None:
        """Draw in full next time."""
        self._drawn = self._lit = None

    def draw_static(self) -> None:
        """Paper and the printed labels and frames."""
        ctx = self.canvas["paper"].ctx
        blank_paper(ctx, self.width, self.height)
        ctx.font = theme.font(11, theme.FONT_PRINT, "bold")
        ctx.fill_text("LAND REGISTRY", 6, 16)
        ctx.fill_text("TOWNSFOLK", TF_X0 - TF_S / 2, 16)
        ctx.fill_text("EVENTS", 6, EV_Y - 5)
        ctx.fill_text("STORES", 6, STORE_Y - 5)
        ctx.font = theme.font(10, theme.FONT_PRINT, "italic")
        ctx.fill_text("click a tile to bid for it", 116, 16)
        ctx.fill_text("the game ends two turns each after the 10th", 64, EV_Y - 5)
        ctx.fill_text("bids lie open · click a tile to take it", 64, STORE_Y - 5)
        ctx.stroke_style = theme.GRID
        ctx.line_width = 1
        for k in range(6):
            ctx.stroke_polygon(art.hex_points(*registry_centre(k), REG_R))
            cx, cy = townsfolk_centre(k)
            ctx.stroke_rect(cx - TF_S / 2, cy - TF_S / 2, TF_S, TF_S)
        for k in range(10):
            x, y, w, h = event_rect(k)
            ctx.stroke_rect(x, y, w, h)
            ctx.fill_style = theme.FAINT
            ctx.text_align = "center"
            ctx.font = theme.font(10, theme.FONT_PRINT)
            ctx.fill_text(str(k + 1), x + w / 2, y + h / 2 + 4)
        for k in range(self.players):
            x, y, w, h = store_rect(k)
            ctx.fill_style = theme.PAPER_SHADE
            ctx.fill_rect(x, y, w, h)
            ctx.stroke_style = theme.GRID_STRONG
            ctx.stroke_rect(x, y, w, h)

    def sync(self, state: Any, viewer: int | None, chosen: str | None = None, biddable: Collection[str] = (),
             buyable: Collection[str] = (), names: Sequence[str] | None = None) -> None:
        """Draw the registry, townsfolk, events and stores; tint what you may take now (``viewer``: whose store is
        "yours", None while nobody's)."""
        stores = tuple(tuple((c, tuple(b)) for c, b, *_ in state.stores[p]) for p in range(state.num_players))
        # the rings apart from the ink: choosing a registry tile (a click) or a turn's new choices redraw
        # the few rings, not the ~470 commands of every tile, townsfolk, event and store
        lit = (tuple(registry_codes(state)), tuple(tuple(c for c, _ in s) for s in stores), chosen,
               tuple(sorted(biddable)), tuple(sorted(buyable)))
        if lit != self._lit:
            self._lit = lit
            self._draw_rings(state, chosen, biddable, buyable)
        key = (tuple(registry_codes(state)), tuple(state.townsfolk_in_town), tuple(state.events_placed), stores,
               tuple(names or ()), viewer, state.active)
        if key == self._drawn:
            return
        self._drawn = key
        layer = self.canvas["ink"]
        layer.clear()
        ctx = layer.ctx
        for k, code in enumerate(registry_codes(state)):
            if code is None:
                continue
            cx, cy = registry_centre(k)
            art.field_tile(ctx, cx, cy, REG_R, code, CROP_OF[code], False)
        home = {w.id: k for k, w in enumerate(TOWNSFOLK)}
        for wid in state.townsfolk_in_town:
            k = home.get(wid)
            if k is None:
                continue
            cx, cy = townsfolk_centre(k)
            w = WORKERS[wid]
            art.worker_tile(ctx, cx, cy, TF_S, w.value, True)
            ctx.fill_style = theme.PRINT
            ctx.font = theme.font(9, theme.FONT_INK)
            ctx.text_align = "center"
            ctx.text_baseline = "alphabetic"
            ctx.fill_text(w.name, cx, cy + TF_S / 2 + 10, TF_DX - 2)
        for k, eid in enumerate(list(state.events_placed)[:10]):
            x, y, w, h = event_rect(k)
            ctx.fill_style = "#FFF6D8"
            ctx.fill_rect(x + 1, y + 1, w - 2, h - 2)
            ctx.fill_style = theme.INK
            ctx.text_align = "center"
            ctx.text_baseline = "middle"
            ctx.font = theme.font(EV_FONT, theme.FONT_INK, "bold")
            lines = event_lines(EVENTS[eid].name if eid in EVENTS else str(eid))
            top = y + h / 2 - (len(lines) - 1) * EV_LINE / 2
            for i, line in enumerate(lines):
                ctx.fill_text(line, x + w / 2, top + i * EV_LINE, w - 2)
        for p in range(state.num_players):
            self._store(ctx, state, p, viewer, (names or state.players)[p])

    def _draw_rings(self, state: Any, chosen: str | None, biddable: Collection[str], buyable: Collection[str]) -> None:
        """The ``lit`` layer: a dashed ring round each tile you may bid for or buy, a solid one round your choice."""
        layer = self.canvas["lit"]
        layer.clear()
        ctx = layer.ctx
        for k, code in enumerate(registry_codes(state)):
            if code is not None and (code in biddable or code == chosen):
                self._ring(ctx, *registry_centre(k), REG_R, code == chosen)
        for p in range(state.num_players):
            for slot, (code, *_) in enumerate(list(state.stores[p])[:2]):
                if code in buyable:
                    self._ring(ctx, *store_slot_centre(p, slot), STORE_R, False)

    def _store(self, ctx: Any, state: Any, p: int, viewer: int | None, name: str) -> None:
        x, y, w, _ = store_rect(p)
        ctx.fill_style = theme.INK if p != state.active else theme.OKABE_ITO["vermillion"]
        ctx.text_align = "left"
        ctx.text_baseline = "alphabetic"
        ctx.font = theme.font(12, theme.FONT_INK, "bold")
        title = "Your store" if p == viewer and name == "You" else f"{name}'s store" + (" (yours)" if p == viewer
                                                                                       else "")
        ctx.fill_text(title, x + 6, y + 14, w - 12)
        for slot, (code, bid, *_) in enumerate(list(state.stores[p])[:2]):
            cx, cy = store_slot_centre(p, slot)
            art.field_tile(ctx, cx, cy, STORE_R, code, CROP_OF[code], False)
            # the bid's counters in two columns beside the tile (five crops: three rows), its sum under the tile
            bx, by = cx + STORE_R + 4, cy - 22
            chips = [(c, n) for c, n in enumerate(bid) if n]
            for i, (c, n) in enumerate(chips):
                art.counter_chip(ctx, bx + (i % 2) * CHIP_DX, by + (i // 2) * CHIP_DY, CHIP_H, c, n)
            ctx.fill_style = theme.PRINT
            ctx.font = theme.font(10, theme.FONT_INK)
            ctx.text_align = "center"
            ctx.text_baseline = "alphabetic"
            ctx.fill_text(f"bid {sum(bid)}", cx, cy + STORE_R + 12)
        if not state.stores[p]:
            ctx.fill_style = theme.FAINT
            ctx.font = theme.font(11, theme.FONT_INK, "italic")
            ctx.fill_text("empty", x + 8, y + 44)

    @staticmethod
    def _ring(ctx: Any, cx: float, cy: float, r: float, chosen: bool) -> None:
        ctx.stroke_style = art.CHOSEN_RING if chosen else art.LEGAL_RING
        ctx.line_width = 3 if chosen else 2
        if not chosen:
            ctx.set_line_dash([4, 3])
        ctx.stroke_polygon(art.hex_points(cx, cy, r + 2))
        ctx.set_line_dash([])

    def hit(self, state: Any, x: float, y: float) -> Hit | None:
        """What a click at CSS-px (x, y) is on: a registry tile, a store tile, a townsfolk — or None."""
        for k, code in enumerate(registry_codes(state)):
            cx, cy = registry_centre(k)
            if code is not None and math.hypot(x - cx, y - cy) <= REG_R:
                return ("registry", code)
        for p in range(state.num_players):
            for slot, (code, *_) in enumerate(list(state.stores[p])[:2]):
                cx, cy = store_slot_centre(p, slot)
                if math.hypot(x - cx, y - cy) <= STORE_R + 2:
                    return ("store", str(p), code)
        home = {w.id: k for k, w in enumerate(TOWNSFOLK)}
        for wid in state.townsfolk_in_town:
            cx, cy = townsfolk_centre(home.get(wid, 0))
            if abs(x - cx) <= TF_S / 2 and abs(y - cy) <= TF_S / 2:
                return ("townsfolk", wid)
        return None

    def point_of(self, state: Any, hit: Hit) -> tuple[float, float]:
        """Where to click ``hit`` (CSS px): the inverse of ``hit``, for tests and the browser driver."""
        if hit[0] == "registry":
            return registry_centre(registry_codes(state).index(hit[1]))
        if hit[0] == "store":
            p = int(hit[1])
            codes = [c for c, *_ in state.stores[p]]
            return store_slot_centre(p, codes.index(hit[2]))
        return townsfolk_centre([w.id for w in TOWNSFOLK].index(hit[1]))
