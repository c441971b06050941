"""Key Harvest's country boards as canvases: yours (large, clickable) and the other players' (small).

Three layers on the large board, bottom to top: ``paper`` (the 56 printed spaces with their codes
and crops; drawn once per client), ``tiles`` (field tiles, either side up, and workers; a move
redraws only the spaces it changed), and
``highlight`` (soft tints: where the chosen worker may go, the group a harvest would flip). The
spaces sit where the engine's ``POSITION`` puts them: the centre of a space at half-hex column x,
row r is at (x · w/2, r · 3h/4) for pointy-top hexes w = √3·size wide and h = 2·size tall.

The layers are stacked canvases (``SheetCanvas(stacked=True)``): on a phone the page CSS shrinks them
to the screen's width, and ipycanvas reports clicks in the canvas's own pixels whatever size it is
shown at, so clicks still land on the right space.

A harvested tile is its up side with the crop's harvested cover copied over it from a small canvas
of its own (``HarvestCovers``, never shown, drawn for each new browser with the printed board): a
harvest sends one copy and the code, not the ~100 commands of the cover's hatching, edge and symbol.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

import ipywidgets as W
from ipycanvas import Canvas
from sheetkit.widgets import theme
from sheetkit.widgets.canvas import Layer, SheetCanvas
from sheetkit.widgets.geometry import Point
from sheetkit.widgets.key_harvest import art

from sheetkit.games.key_harvest.board import CODES, CROP_OF, POSITION
from sheetkit.games.key_harvest.crops import CROPS
from sheetkit.games.key_harvest.workers import WORKERS

LAYERS = ("paper", "tiles", "highlight")
HALF = math.sqrt(3.0) / 2
MAX_X = max(x for _, x in POSITION.values())
ROWS = 1 + max(r for r, _ in POSITION.values())


@dataclass(frozen=True)
class BoardGeometry:
    """Where each space's centre is for hexes of radius ``size``, the board's top-left at (left, top)."""

    size: float
    left: float = 0.0
    top: float = 0.0

    def centre(self, code: str) -> Point:
        """Centre of space ``code``."""
        row, x = POSITION[code]
        return (self.left + (x + MAX_X + 1) * HALF * self.size, self.top + self.size + row * 1.5 * self.size)

    @property
    def width(self) -> float:
        """Width of the board's hexes."""
        return (2 * MAX_X + 2) * HALF * self.size

    @property
    def height(self) -> float:
        """Height of the board's hexes."""
        return (2 + 1.5 * (ROWS - 1)) * self.size

    def code_at(self, px: float, py: float) -> str | None:
        """The space under (px, py) — the nearest centre, if the point is inside its hex — or None."""
        best, dist = None, float("inf")
        for code in CODES:
            cx, cy = self.centre(code)
            d = math.hypot(px - cx, py - cy)
            if d < dist:
                best, dist = code, d
        # hexes are the Voronoi cells of their centres: the nearest centre is the hex under the point
        return best if dist <= self.size else None

    def scaled(self, k: float) -> BoardGeometry:
        """The same board in units ``k`` times smaller (CSS px → canvas px when k = 2)."""
        return BoardGeometry(self.size * k, self.left * k, self.top * k)


def player_view(state: Any, p: int) -> tuple[dict[str, str], dict[str, str]]:
    """(tiles code → 'up'/'harvested', workers code → worker id) of player ``p``, read from the state."""
    return dict(state.boards[p]), dict(state.workers_on[p])


class HarvestCovers:
    """Each crop's harvested cover (``art.harvest_cover``) on a small canvas of its own, copied onto a tile.

    The canvases are never shown: ipycanvas draws on a canvas's model in the browser, shown or not, and
    ``draw_image`` copies it. A cover is stamped on whole device pixels, 1:1, so the copy is exact.
    """

    def __init__(self, size: float, scale: float) -> None:
        self.size, self.scale = size, scale
        self.half = float(math.ceil(size))       # a cover spans its centre ± half, in CSS px
        side = round(2 * self.half * scale)
        shared = W.Layout()    # never shown: one Layout for the four (each model is one more for the page to load)
        self.layers = [Layer(Canvas(width=side, height=side, layout=shared), scale) for _ in CROPS]

    def draw(self) -> None:
        """Draw the covers (for a new browser: before any tile uses them, in the same batch)."""
        for crop, layer in enumerate(self.layers):
            layer.clear()
            art.harvest_cover(layer.ctx, self.half, self.half, self.size, None, crop)

    def stamp(self, ctx: Any, cx: float, cy: float, crop: int) -> None:
        """Copy ``crop``'s cover onto the tile centred at (cx, cy) (CSS px)."""
        k = self.scale
        x, y = round((cx - self.half) * k) / k, round((cy - self.half) * k) / k
        ctx.draw_image(self.layers[crop].canvas, x, y, 2 * self.half, 2 * self.half)

    def close(self) -> None:
        """Close the cover canvases."""
        for layer in self.layers:
            layer.canvas.close()


class CountryBoard:
    """The player's country board, drawn from the engine state; clicks name a space."""

    def __init__(self, size: float = 26.0, scale: float = theme.SCALE) -> None:
        self.geo = BoardGeometry(size, 10.0, 30.0)
        self.width = float(math.ceil(self.geo.width + 20))
        self.height = float(math.ceil(self.geo.top + self.geo.height + 8))
        self.canvas = SheetCanvas(self.width, self.height, LAYERS, scale, css_class="sk-board", stacked=True)
        # made after the board: a browser makes the canvases in this order and each tells the kernel it is ready,
        # the board's (which draws it) first, not behind the four covers' (which draw nothing)
        self.covers = HarvestCovers(size, scale)
        self.widget = self.canvas.widget
        self.widget.add_class("sk-sheet")   # the player's sheet, as on every table (browser tests find it)
        self._drawn: Any = None
        self._lit: Any = None

    @property
    def click_geometry(self) -> BoardGeometry:
        """The board in canvas px (what a browser test clicks)."""
        return self.geo.scaled(self.canvas.scale)

    def code_at(self, x: float, y: float) -> str | None:
        """The space under CSS-px point (x, y), or None."""
        return self.geo.code_at(x, y)

    def forget(self) -> None:
        """Draw the dynamic layers in full next time."""
        self._drawn = self._lit = None

    def draw_static(self) -> None:
        """The printed board: paper, the 56 spaces with codes and crops (and the harvested covers)."""
        self.covers.draw()
        ctx = self.canvas["paper"].ctx
        ctx.fill_style = theme.PAPER
        ctx.fill_rect(0, 0, self.width, self.height)
        for code in CODES:
            cx, cy = self.geo.centre(code)
            art.printed_space(ctx, cx, cy, self.geo.size, code, CROP_OF[code])

    def sync(self, state: Any, player: int, title: str, legal: Collection[str] = (), group: Collection[str] = (),
             note: str = "") -> None:
        """Draw player ``player``'s tiles and workers, and the highlights (only what changed)."""
        tiles, workers = player_view(state, player)
        key = (tuple(sorted(tiles.items())), tuple(sorted(workers.items())), title)
        if key != self._drawn:
            old, self._drawn = self._drawn, key
            if old is not None and old[2] == title:
                # the same board a move later (a harvest flips one group): redraw only the spaces that
                # changed, not all 56 — a full redraw was most of a click's kernel time late in a game
                was_tiles, was_workers = dict(old[0]), dict(old[1])
                changed = {c for c in {*tiles, *was_tiles} if tiles.get(c) != was_tiles.get(c)}
                changed |= {c for c in {*workers, *was_workers} if workers.get(c) != was_workers.get(c)}
                # a harvest: the pale side goes over the tile already drawn (no erase, no icon again)
                covered = {c for c in changed if was_tiles.get(c) == "up" and tiles.get(c) == "harvested"
                           and c not in workers and c not in was_workers}
                self._draw_covers(covered)
                self._draw_tiles(tiles, workers, title, only=changed - covered)
            else:
                self._draw_tiles(tiles, workers, title)
        lit = (tuple(sorted(legal)), tuple(sorted(group)), note)
        if lit != self._lit:
            self._lit = lit
            self._draw_highlight(legal, group, note)

    def _draw_covers(self, codes: Collection[str]) -> None:
        """Turn these up tiles (drawn, no worker on them) to their harvested side."""
        ctx = self.canvas["tiles"].ctx
        for code in codes:
            self._cover(ctx, code)

    def _cover(self, ctx: Any, code: str) -> None:
        cx, cy = self.geo.centre(code)
        self.covers.stamp(ctx, cx, cy, CROP_OF[code])
        art.code_label(ctx, cx, cy - self.geo.size * 0.5, self.geo.size, code, theme.PRINT)

    def _draw_tiles(self, tiles: dict[str, str], workers: dict[str, str], title: str,
                    only: Collection[str] | None = None) -> None:
        """The tiles layer in full, or (``only``) just those spaces: each is erased, then drawn again."""
        layer = self.canvas["tiles"]
        s = self.geo.size
        if only is not None and not only:
            return
        if only is None:
            layer.clear()
            ctx = layer.ctx
            ctx.fill_style = theme.PRINT
            ctx.text_align = "left"
            ctx.text_baseline = "alphabetic"
            ctx.font = theme.font(15, theme.FONT_PRINT, "bold")
            ctx.fill_text(title, 12, 20, self.width - 24)
        else:
            ctx = layer.ctx
            for code in only:       # a tile or worker stays inside its space's hex: erase just that hex
                cx, cy = self.geo.centre(code)
                ctx.save()
                ctx.begin_path()
                pts = art.hex_points(cx, cy, s)
                ctx.move_to(*pts[0])
                for pt in pts[1:]:
                    ctx.line_to(*pt)
                ctx.close_path()
                ctx.clip()
                ctx.clear_rect(cx - s, cy - s, 2 * s, 2 * s)
                ctx.restore()
            tiles = {c: v for c, v in tiles.items() if c in only}
            workers = {c: v for c, v in workers.items() if c in only}
        for code, side in tiles.items():
            cx, cy = self.geo.centre(code)
            art.field_tile(ctx, cx, cy, s, code, CROP_OF[code], False, show_code=side == "up")
            if side != "up":
                self._cover(ctx, code)
        for code, wid in workers.items():
            cx, cy = self.geo.centre(code)
            w = WORKERS[wid]
            # the worker covers the printed crop, not the code: a clean space, its code where the board
            # prints it (in ink), the worker tile below it
            ctx.fill_style = theme.PAPER
            ctx.fill_polygon(art.hex_points(cx, cy, s - 2.0))
            art.code_label(ctx, cx, cy - s * 0.5, s, code, theme.INK)
            art.worker_tile(ctx, cx, cy + s * 0.22, s * 0.82, w.value, w.townsfolk)

    def _draw_highlight(self, legal: Collection[str], group: Collection[str], note: str) -> None:
        layer = self.canvas["highlight"]
        layer.clear()
        ctx = layer.ctx
        s = self.geo.size
        for code in group:
            cx, cy = self.geo.centre(code)
            ctx.fill_style = art.GROUP_FILL
            ctx.fill_polygon(art.hex_points(cx, cy, s - 1))
            ctx.stroke_style = theme.OKABE_ITO["orange"]
            ctx.line_width = 2.5
            ctx.stroke_polygon(art.hex_points(cx, cy, s - 2.5))
        for code in legal:
            cx, cy = self.geo.centre(code)
            ctx.fill_style = art.LEGAL_FILL
            ctx.fill_polygon(art.hex_points(cx, cy, s - 1))
            ctx.stroke_style = art.LEGAL_RING
            ctx.line_width = 2
            ctx.set_line_dash([4, 3])
            ctx.stroke_polygon(art.hex_points(cx, cy, s - 3))
            ctx.set_line_dash([])
        if note:
            ctx.fill_style = theme.OKABE_ITO["blue"]
            ctx.text_align = "right"
            ctx.text_baseline = "alphabetic"
            ctx.font = theme.font(12, theme.FONT_INK, "bold")
            ctx.fill_text(note, self.width - 10, 20, self.width * 0.55)


class OpponentBoards:
    """The other players' boards, small, side by side, with their names and what is public."""

    MINI = 7.0

    def __init__(self, players: Sequence[int], scale: float = theme.SCALE) -> None:
        self.players = list(players)
        self.geo = BoardGeometry(self.MINI, 0, 0)
        self.cell_w = math.ceil(self.geo.width + 12)
        self.width = float(max(1, len(self.players)) * self.cell_w + 4)
        self.height = float(math.ceil(self.geo.height + 52))
        self.canvas = SheetCanvas(self.width, self.height, ("paper", "tiles"), scale, css_class="sk-opponents",
                                  stacked=True)
        self.widget = self.canvas.widget
        self._drawn: Any = None

    def forget(self) -> None:
        """Draw in full next time."""
        self._drawn = None

    def draw_static(self) -> None:
        """Paper and the printed outlines of each small board."""
        ctx = self.canvas["paper"].ctx
        ctx.fill_style = theme.PAPER
        ctx.fill_rect(0, 0, self.width, self.height)
        for k in range(len(self.players)):
            g = BoardGeometry(self.MINI, 6 + k * self.cell_w, 18)
            ctx.stroke_style = theme.GRID
            ctx.line_width = 0.6
            for code in CODES:
                ctx.stroke_polygon(art.hex_points(*g.centre(code), self.MINI))

    def sync(self, state: Any, players: Sequence[int], active: int | None,
             lines: Sequence[tuple[str, str]]) -> None:
        """Each shown player's tiles (colour, harvested pale), workers (dark dots), name and score line."""
        self.players = list(players)
        key = (tuple(self.players), tuple((tuple(sorted(state.boards[p].items())),
                                           tuple(sorted(state.workers_on[p].items()))) for p in self.players),
               active, tuple(lines))
        if key == self._drawn:
            return
        self._drawn = key
        layer = self.canvas["tiles"]
        layer.clear()
        ctx = layer.ctx
        for k, p in enumerate(self.players):
            x0 = 6 + k * self.cell_w
            g = BoardGeometry(self.MINI, x0, 18)
            ctx.text_align = "left"
            ctx.text_baseline = "alphabetic"
            ctx.font = theme.font(12, theme.FONT_INK, "bold")
            ctx.fill_style = theme.OKABE_ITO["vermillion"] if p == active else theme.INK
            name = state.players[p] + (" ◀" if p == active else "")
            ctx.fill_text(name, x0, 13, self.cell_w - 10)
            for code, side in state.boards[p].items():
                crop = CROP_OF[code]
                cx, cy = g.centre(code)
                ctx.fill_style = art.CROP_COLOUR[crop] if side == "up" else art.tint(art.CROP_COLOUR[crop], 0.72)
                ctx.fill_polygon(art.hex_points(cx, cy, self.MINI - 0.4))
            for code in state.workers_on[p]:
                cx, cy = g.centre(code)
                ctx.fill_style = theme.INK
                ctx.fill_rect(cx - 3, cy - 3, 6, 6)
            ctx.fill_style = theme.PRINT
            ctx.font = theme.font(10, theme.FONT_INK)
            if k < len(lines):
                ctx.fill_text(lines[k][0], x0, self.height - 18, self.cell_w - 8)
                ctx.fill_text(lines[k][1], x0, self.height - 5, self.cell_w - 8)
