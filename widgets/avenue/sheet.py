"""The Avenue sheet as a printed score pad: grid, farms, castles, grapes, score column, road table.

Four layers, bottom to top: ``paper`` (grid and printed boxes, drawn once per client),
``highlight`` (what changes only when a card flips: the farm rings, the round's score row, the
road in the road table), ``ink`` (what a move changes: the cell tints -- legal cells, the farm's
network --, roads, the last-move corners and the score column's numbers), ``print`` (icons on a
paper halo, drawn once per client, so a road passes under a farm or a grape instead of hiding it).

After a move only what changed is drawn, and a click on the sheet touches the ink layer only:
the browser copies every canvas a message touches, full size, to the screen (a MultiCanvas even
re-composites all four layers), which is most of a click's cost there (docs/performance.md). The
layers are therefore separate stacked canvases; ``SHEETKIT_SHEET_CANVAS=multi`` in the kernel's
environment makes the sheet one ipycanvas MultiCanvas instead, which is how
benchmarks/browser_bench.py measures the difference. Tints added to a cell that has a road go
underneath it (``destination-over``), so no road is drawn twice.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from sheetkit.widgets import theme
from sheetkit.widgets.avenue import art
from sheetkit.widgets.canvas import SheetCanvas
from sheetkit.widgets.geometry import Rect, SquareGeometry
from sheetkit.widgets.shapes import blank_paper, printed_title

from sheetkit.games.avenue.layout import Layout
from sheetkit.games.avenue.moves import Draw
from sheetkit.games.avenue.state import AvenueState

LAYERS = ("paper", "highlight", "ink", "print")


@dataclass(frozen=True)
class SheetLayout:
    """Where everything sits on the sheet canvas, in CSS px."""

    rows: int
    cols: int
    cell: float = 54.0
    left: float = 28.0          # room for the printed row numbers
    top: float = 48.0           # title strip and column numbers
    gap: float = 14.0
    score_width: float = 122.0
    ref_cell: float = 38.0

    @property
    def grid(self) -> SquareGeometry:
        """The cell grid (CSS px)."""
        return SquareGeometry(self.rows, self.cols, self.cell, self.left, self.top)

    @property
    def score_rect(self) -> Rect:
        """The score column beside the grid."""
        g = self.grid
        return self.left + g.width + self.gap, self.top, self.score_width, g.height

    @property
    def ref_top(self) -> float:
        """Top of the printed road table under the grid."""
        return self.top + self.grid.height + 12

    def ref_rect(self, number: int) -> Rect:
        """The box of road ``number`` (1–6) in the printed road table."""
        x = self.left + 64 + (number - 1) * (self.ref_cell + 8)
        return x, self.ref_top + 4, self.ref_cell, self.ref_cell

    @property
    def width(self) -> float:
        """Canvas width (CSS px)."""
        x, _, w, _ = self.score_rect
        return x + w + 12

    @property
    def height(self) -> float:
        """Canvas height (CSS px)."""
        return self.ref_top + self.ref_cell + 16

    def score_rows(self, rounds: int) -> list[tuple[str, Rect]]:
        """(kind, rect) of each score box: 'farm' × rounds, 'purple', 'green', 'zeros', 'total'."""
        x, y, w, h = self.score_rect
        kinds = ["farm"] * rounds + ["purple", "green", "zeros", "total"]
        weights = [1.15] * rounds + [1.0, 1.0, 0.75, 1.0]
        unit = h / sum(weights)
        out, yy = [], y
        for kind, wt in zip(kinds, weights, strict=True):
            out.append((kind, (x, yy, w, unit * wt)))
            yy += unit * wt
        return out


class AvenueSheet:
    """One player's Avenue sheet, drawn from the engine state; ``sync`` draws only what changed."""

    def __init__(self, layout: Layout, rounds: int = 5, title: str = "", cell: float = 54.0,
                 scale: float = theme.SCALE) -> None:
        self.layout = layout
        self.rounds = rounds
        self.title = title
        self.box = SheetLayout(layout.rows, layout.cols, cell)
        stacked = os.environ.get("SHEETKIT_SHEET_CANVAS", "stacked") != "multi"
        self.canvas = SheetCanvas(self.box.width, self.box.height, LAYERS, scale, css_class="sk-sheet",
                                  stacked=stacked)
        self.widget = self.canvas.widget
        self._cells: list[CellLook] | None = None  # what the ink layer shows in each cell now
        self._score: Any = None
        self._marks: Any = None                     # what the highlight layer shows now

    @property
    def geometry(self) -> SquareGeometry:
        """Cells in CSS px (what ``on_click`` callbacks receive)."""
        return self.box.grid

    @property
    def click_geometry(self) -> SquareGeometry:
        """Cells in canvas px (what a browser test clicks: canvas width / CSS width = ``scale``)."""
        return self.box.grid.scaled(self.canvas.scale)

    # ----- full redraw ----------------------------------------------------------------------
    def draw_static(self) -> None:
        """The printed sheet: paper, grid, numbers, score boxes, road table, and the icons."""
        self._draw_paper()
        self._draw_print()

    def forget(self) -> None:
        """Next ``sync`` redraws every dynamic layer in full."""
        self._cells = self._score = self._marks = None

    # ----- incremental redraw ---------------------------------------------------------------
    def sync(self, state: AvenueState, player: int, interactive: bool = True) -> None:
        """Bring ink, highlights and score column in line with ``state`` (call inside ``batch``)."""
        self._sync_cells(_cell_looks(state, player, interactive))
        score = _score_spec(state, player)
        if score != self._score:
            self._draw_score(score)
            self._score = score
        marks = _marks_spec(state, player)
        if marks != self._marks:
            self._draw_marks(marks)
            self._marks = marks

    def _sync_cells(self, looks: list[CellLook]) -> None:
        """Draw each cell whose look changed, with as little as possible (a road is never drawn twice)."""
        ink = self.canvas["ink"]
        g = self.geometry
        if self._cells is None:
            ink.clear_rect(g.x0 - 1, g.y0 - 1, g.width + 2, g.height + 2)
            old = [EMPTY] * len(looks)
        else:
            old = self._cells
        full, under, corners = [], [], []
        for i, (a, b) in enumerate(zip(old, looks, strict=True)):
            if a == b:
                continue
            added, lost_last = b.tints - a.tints, a.last and not b.last
            if a.road != b.road or (a.tints - b.tints) or (b.last and not a.last) or (added and lost_last):
                full.append(i)                      # a new or removed road, a tint taken away: redraw
            elif added:
                under.append((i, added))
            else:
                corners.append(i)
        for i in corners:                           # the last-move marks go; the tints under them stay
            x, y, s, _ = g.cell_rect(*divmod(i, g.cols))
            for rx, ry in ((x, y), (x + s - CORNER, y), (x, y + s - CORNER), (x + s - CORNER, y + s - CORNER)):
                ink.clear_rect(rx, ry, CORNER, CORNER)
                self._tints(ink, i, looks[i].tints, (rx, ry, CORNER, CORNER))
        if under:
            ctx = ink.ctx
            ctx.global_composite_operation = "destination-over"
            for i, tints in under:
                self._tints(ink, i, tints)
            ctx.global_composite_operation = "source-over"
        for i in full:
            self._redraw_cell(ink, i, old[i] if self._cells is not None else None, looks[i])
        self._cells = list(looks)

    def sync_cell(self, state: AvenueState, player: int, row: int, col: int, interactive: bool = True) -> None:
        """Draw cell (row, col) as ``state`` has it, and nothing else (the clicked cell, sent ahead of ``sync``)."""
        if self._cells is None:
            return                                  # a full redraw is due: ``sync`` draws everything
        i = row * self.geometry.cols + col
        look = _cell_looks(state, player, interactive)[i]
        if look != self._cells[i]:
            self._redraw_cell(self.canvas["ink"], i, self._cells[i], look)
            self._cells[i] = look

    def _redraw_cell(self, ink: Any, i: int, old: CellLook | None, look: CellLook) -> None:
        """Cell i from scratch: cleared (unless the layer was just cleared), tints, road, last-move marks."""
        x, y, s, _ = self.geometry.cell_rect(*divmod(i, self.geometry.cols))
        if old is not None:
            if old.road or old.last:
                ink.clear_rect(x, y, s, s)
            else:                                   # only tints, 1 px inside: a neighbour's road end stays
                ink.clear_rect(x + 1, y + 1, s - 2, s - 2)
        self._tints(ink, i, look.tints)
        if look.road:
            art.road(ink.ctx, x, y, s, look.road)
        if look.last:
            self._last_marks(ink, i)

    def _tints(self, ink: Any, i: int, tints: frozenset[str], clip: Rect | None = None) -> None:
        """Fill cell i's tints (network, then legal), only inside ``clip`` if given."""
        x, y, s, _ = self.geometry.cell_rect(*divmod(i, self.geometry.cols))
        for name in ("network", "legal"):
            if name not in tints:
                continue
            inset, colour = TINTS[name]
            rect: Rect | None = (x + inset, y + inset, s - 2 * inset, s - 2 * inset)
            if clip is not None and rect is not None:
                rect = _intersect(rect, clip)
            if rect is not None:
                ink.ctx.fill_style = colour
                ink.ctx.fill_rect(*rect)
            if name == "legal":
                self._legal_edge(ink, (x + inset, y + inset, s - 2 * inset, s - 2 * inset), clip)

    def _legal_edge(self, ink: Any, rect: Rect, clip: Rect | None) -> None:
        """A legal cell's outline: a second cue beside the soft tint, visible in greyscale."""
        ctx = ink.ctx
        x, y, w, h = rect
        e = LEGAL_EDGE_WIDTH
        if clip is None:
            ctx.stroke_style = theme.LEGAL_EDGE
            ctx.line_width = e
            ctx.stroke_rect(x + e / 2, y + e / 2, w - e, h - e)
            return
        ctx.fill_style = theme.LEGAL_EDGE          # only the parts of the four sides inside the clip
        for side in ((x, y, w, e), (x, y + h - e, w, e), (x, y, e, h), (x + w - e, y, e, h)):
            part = _intersect(side, clip)
            if part is not None:
                ctx.fill_rect(*part)

    def _last_marks(self, ink: Any, i: int) -> None:
        """Your move on the face-up card (undo-able): four corner brackets, clear of roads and grapes."""
        x, y, s, _ = self.geometry.cell_rect(*divmod(i, self.geometry.cols))
        ctx = ink.ctx
        ctx.stroke_style = theme.LAST_MOVE
        ctx.line_width = 2.5
        ctx.line_cap = "square"
        a, d = 2.5, CORNER - 4.5             # inset of the corner point, length of each arm
        # One path of plain commands: stroke_lines would send each bracket as a binary buffer of its own.
        ctx.begin_path()
        for cx, cy, dx, dy in ((x + a, y + a, 1, 1), (x + s - a, y + a, -1, 1), (x + a, y + s - a, 1, -1),
                               (x + s - a, y + s - a, -1, -1)):
            ctx.move_to(cx + dx * d, cy)
            ctx.line_to(cx, cy)
            ctx.line_to(cx, cy + dy * d)
        ctx.stroke()

    def mark_cell(self, row: int, col: int, road: int | None, colour: str, dashed: bool = False) -> None:
        """A suggestion or a past move on top of the ink: ``road`` drawn in ``colour`` in the cell, framed.

        The frame is drawn on the ink layer and the cell counted as changed, so the next ``sync`` (after
        ``forget``, which the table calls when the game moves on) takes it away.
        """
        ink = self.canvas["ink"]
        ctx = ink.ctx
        x, y, s, _ = self.geometry.cell_rect(row, col)
        if road:
            ctx.global_alpha = 0.6
            art.road(ctx, x, y, s, road, colour=colour)
            ctx.global_alpha = 1.0
        w = max(2.0, s * 0.07)
        ctx.stroke_style = colour
        ctx.line_width = w
        if dashed:
            ctx.set_line_dash([max(3.0, s * 0.12), max(2.0, s * 0.08)])
        ctx.stroke_rect(x + w, y + w, s - 2 * w, s - 2 * w)
        if dashed:
            ctx.set_line_dash([])
        if self._cells is not None:
            self._cells[row * self.geometry.cols + col] = MARKED

    # ----- the printed layers ---------------------------------------------------------------
    def _draw_paper(self) -> None:
        paper = self.canvas["paper"]
        ctx = paper.ctx
        b, g = self.box, self.geometry
        blank_paper(ctx, b.width, b.height)
        printed_title(ctx, "AVENUE", self.title or self.layout.title.split("(")[0].strip(), b.left, 24, b.left + 92)
        # row and column numbers, as printed on the pad (the log names cells this way)
        ctx.font = theme.font(11, theme.FONT_PRINT)
        ctx.text_align = "center"
        ctx.text_baseline = "middle"
        for c in range(g.cols):
            ctx.fill_text(str(c + 1), g.cell_center(0, c)[0], g.y0 - 9)
        for r in range(g.rows):
            ctx.fill_text(str(r + 1), g.x0 - 12, g.cell_center(r, 0)[1])
        # grid
        ctx.stroke_style = theme.GRID
        ctx.line_width = 1
        for r in range(1, g.rows):
            ctx.stroke_line(g.x0, g.y0 + r * g.cell, g.x0 + g.width, g.y0 + r * g.cell)
        for c in range(1, g.cols):
            ctx.stroke_line(g.x0 + c * g.cell, g.y0, g.x0 + c * g.cell, g.y0 + g.height)
        ctx.stroke_style = theme.GRID_STRONG
        ctx.line_width = 1.6
        ctx.stroke_rect(g.x0, g.y0, g.width, g.height)
        self._draw_score_frame(ctx)
        self._draw_ref_table(ctx)

    def _draw_score_frame(self, ctx: Any) -> None:
        b = self.box
        x, y, w, h = b.score_rect
        ctx.fill_style = theme.PAPER_SHADE
        ctx.fill_rect(x, y, w, h)
        ctx.fill_style = theme.PRINT
        ctx.font = theme.font(11, theme.FONT_PRINT, "bold")
        ctx.text_align = "center"
        ctx.text_baseline = "middle"
        ctx.fill_text("SCORE", x + w / 2, y - 9)
        ctx.stroke_style = theme.GRID
        ctx.line_width = 1
        split = x + 38
        for k, (kind, (rx, ry, rw, rh)) in enumerate(b.score_rows(self.rounds)):
            if k:
                ctx.stroke_line(rx, ry, rx + rw, ry)
            ctx.fill_style = theme.PRINT
            ctx.text_align = "left"
            ctx.text_baseline = "top"
            if kind == "farm":
                ctx.font = theme.font(10, theme.FONT_PRINT)
                ctx.fill_text(str(k + 1), rx + 4, ry + 4)
            elif kind == "zeros":
                ctx.font = theme.font(10, theme.FONT_PRINT, "italic")
                ctx.text_baseline = "middle"
                ctx.fill_text("zeros", rx + 4, ry + rh / 2)
            elif kind == "total":
                ctx.font = theme.font(10, theme.FONT_PRINT, "bold")
                ctx.text_baseline = "middle"
                ctx.fill_text("TOTAL", rx + 3, ry + rh / 2)
        ctx.stroke_line(split, y, split, y + h)
        ctx.stroke_style = theme.GRID_STRONG
        ctx.line_width = 1.6
        ctx.stroke_rect(x, y, w, h)
        total_y = b.score_rows(self.rounds)[-1][1][1]
        ctx.stroke_line(x, total_y, x + w, total_y)

    def _draw_ref_table(self, ctx: Any) -> None:
        b = self.box
        ctx.fill_style = theme.PRINT
        ctx.font = theme.font(11, theme.FONT_PRINT, "bold")
        ctx.text_align = "left"
        ctx.text_baseline = "middle"
        _, y0, _, s0 = b.ref_rect(1)
        ctx.fill_text("ROADS", b.left, y0 + s0 / 2)
        for n in range(1, 7):
            x, y, s, _ = b.ref_rect(n)
            ctx.stroke_style = theme.GRID
            ctx.line_width = 1
            ctx.stroke_rect(x, y, s, s)
            self._draw_ref_road(ctx, n)

    def _draw_ref_road(self, ctx: Any, n: int) -> None:
        """Road n and its number in the printed road table."""
        x, y, s, _ = self.box.ref_rect(n)
        art.road(ctx, x, y, s, n, colour=theme.PRINT, width=3, wobble=False)
        ctx.fill_style = theme.PRINT
        ctx.font = theme.font(10, theme.FONT_PRINT, "bold")
        ctx.text_align = "left"
        ctx.text_baseline = "top"
        ctx.fill_text(str(n), x + 2, y + 1)

    def _draw_print(self) -> None:
        ctx = self.canvas["print"].ctx
        g, lay = self.geometry, self.layout
        for (r, c), letter in lay.farm_at.items():
            x, y, s, _ = g.cell_rect(r, c)
            art.farm(ctx, x, y, s, letter)
        for (r, c), colour in lay.castle_at.items():
            x, y, s, _ = g.cell_rect(r, c)
            art.castle(ctx, x, y, s, colour)
        for (r, c), (p, gr) in lay.grapes.items():
            x, y, s, _ = g.cell_rect(r, c)
            art.grapes(ctx, x, y, s, p, gr)
        for kind, (rx, ry, _, rh) in self.box.score_rows(self.rounds):
            if kind in ("purple", "green"):
                s = min(rh, 38)
                art.castle(ctx, rx + 1, ry + (rh - s) / 2, s, kind)

    # ----- dynamic layers -------------------------------------------------------------------
    def _draw_score(self, spec: tuple[Any, ...]) -> None:
        farms, boxes, preview, castles, zeros, penalty, total, final = spec
        ink = self.canvas["ink"]
        x, y, w, h = self.box.score_rect
        ink.clear_rect(x + 1, y + 1, w - 2, h - 2)
        ctx = ink.ctx
        split = x + 38
        rows = self.box.score_rows(self.rounds)
        ctx.text_align = "center"
        ctx.text_baseline = "middle"
        for k, (kind, (rx, ry, rw, rh)) in enumerate(rows):
            cy = ry + rh / 2
            mid = (split + rx + rw) / 2
            if kind == "farm":
                if k < len(farms):
                    ctx.fill_style = theme.INK
                    ctx.font = theme.font(20, theme.FONT_INK, "bold")
                    ctx.fill_text(farms[k], (rx + split) / 2, cy + 3)
                if k < len(boxes):
                    ctx.fill_style = theme.INK if boxes[k] else theme.OKABE_ITO["vermillion"]
                    ctx.font = theme.font(22, theme.FONT_INK, "bold")
                    ctx.fill_text(str(boxes[k]), mid, cy)
                elif preview is not None and k == len(boxes):
                    got, target, box = preview
                    ctx.fill_style = theme.FAINT
                    ctx.font = theme.font(19, theme.FONT_INK, "italic")
                    ctx.fill_text(f"{box}?", mid, cy - 5)
                    ctx.font = theme.font(10, theme.FONT_INK)
                    note = f"{got} grapes" + (f", beat {target}" if target else "")
                    ctx.fill_text(note, mid, cy + 13)
            elif kind in ("purple", "green"):
                ctx.fill_style = theme.INK if final else theme.FAINT
                ctx.font = theme.font(20, theme.FONT_INK, "bold" if final else "italic")
                ctx.fill_text(f"{castles[kind]}" + ("" if final else "?"), mid, cy)
            elif kind == "zeros":
                if zeros:
                    ctx.fill_style = theme.OKABE_ITO["vermillion"]
                    ctx.font = theme.font(15, theme.FONT_INK, "bold")
                    ctx.fill_text(f"−{penalty * zeros}", mid, cy)
            else:
                ctx.fill_style = theme.INK if final else theme.FAINT
                ctx.font = theme.font(22, theme.FONT_INK, "bold" if final else "italic")
                ctx.fill_text(_signed(total) + ("" if final else "?"), mid, cy)

    def _draw_marks(self, spec: tuple[Any, ...]) -> None:
        now_farm, peeked_farm, road, row = spec
        hl = self.canvas["highlight"]
        hl.clear()
        ctx = hl.ctx
        g = self.geometry
        if row is not None:
            rows = self.box.score_rows(self.rounds)
            if row < len(rows):
                rx, ry, rw, rh = rows[row][1]
                ctx.fill_style = "rgba(240, 228, 66, 0.35)"
                ctx.fill_rect(rx + 1, ry + 1, rw - 2, rh - 2)
        for cell, colour, dashed in ((now_farm, theme.NOW_RING, False), (peeked_farm, theme.PEEK_RING, True)):
            if cell is None:
                continue
            cx, cy = g.cell_center(*cell)
            ctx.stroke_style = colour
            ctx.line_width = 3
            if dashed:
                ctx.set_line_dash([6, 4])
            ctx.stroke_circle(cx, cy, g.cell * 0.44)
            if dashed:
                ctx.set_line_dash([])
        if road:
            number, yellow = road
            x, y, s, _ = self.box.ref_rect(number)
            # The face-up card's own colour: a grey card must not look like a yellow one (it does not
            # bring the round's end closer).
            ctx.fill_style = ROAD_YELLOW if yellow else ROAD_GREY
            ctx.fill_rect(x - 3, y - 3, s + 6, s + 6)
            self._draw_ref_road(ctx, number)    # printed again on top: the highlight must not fade it


@dataclass(frozen=True)
class CellLook:
    """What the ink layer shows in one cell."""

    road: int = 0
    tints: frozenset[str] = frozenset()      # "legal", "network"
    last: bool = False                       # your undo-able move on the face-up card


EMPTY = CellLook()
MARKED = CellLook(road=-1)                 # a cell with a mark on it: the next sync redraws it from scratch
ROAD_YELLOW = "rgba(240, 228, 66, 0.55)"   # the face-up road in the road table: a yellow card
ROAD_GREY = "rgba(150, 150, 150, 0.40)"    # ... a grey card
TINTS = {"network": (1.0, theme.NETWORK), "legal": (3.0, theme.LEGAL)}   # inset (CSS px), colour
LEGAL_EDGE_WIDTH = 1.5   # CSS px: the legal cells' outline, inside their tint
CORNER = 14.0            # side of the corner squares holding the last-move brackets (no road comes near)


def _intersect(a: Rect, b: Rect) -> Rect | None:
    x0, y0 = max(a[0], b[0]), max(a[1], b[1])
    x1, y1 = min(a[0] + a[2], b[0] + b[2]), min(a[1] + a[3], b[1] + b[3])
    return (x0, y0, x1 - x0, y1 - y0) if x1 > x0 and y1 > y0 else None


def _signed(n: int) -> str:
    """A number as printed: a true minus sign (−25), like the zeros box above the total."""
    return f"−{-n}" if n < 0 else str(n)


def _score_spec(state: AvenueState, p: int) -> tuple[Any, ...]:
    """Everything the score column shows, as a comparable value."""
    pv = state.preview(p)
    f = pv["farm"]
    preview = None if f is None else (f["grapes"], f["target"], f["box"])
    boxes = state.boxes[p]
    zeros = sum(1 for b in boxes if b == 0)
    return (tuple(state.round_farms), tuple(boxes), preview, pv["castles"], zeros, state.params.penalty,
            state.total(p), state.is_terminal())


def _cell_looks(state: AvenueState, p: int, interactive: bool) -> list[CellLook]:
    """Every cell's look on the ink layer."""
    geo = state.geo
    roads = state.sheets[p].roads
    legal: set[int] = set()
    if interactive:
        legal = {a.row * geo.cols + a.col for a in state.legal_actions(p) if isinstance(a, Draw)}
    network: set[int] = set()
    farm = state.farm if not state.is_terminal() else None
    if farm is not None and farm in geo.farm_cell:
        network = {r * geo.cols + c for r, c in state.sheets[p].network_cells(geo.farm_cell[farm])}
    act = state.acted[p] if not state.is_terminal() else None
    last = act.row * geo.cols + act.col if isinstance(act, Draw) and state.can_undo(p) else None
    looks = []
    for i, road in enumerate(roads):
        tints = frozenset(n for n, on in (("legal", i in legal), ("network", i in network)) if on)
        looks.append(EMPTY if not (road or tints or i == last) else CellLook(road, tints, i == last))
    return looks


def _marks_spec(state: AvenueState, p: int) -> tuple[Any, ...]:
    """Everything the highlight layer shows, as a comparable value (it changes when a card flips)."""
    geo = state.geo
    farm = state.farm if not state.is_terminal() else None
    now_farm = divmod(geo.farm_cell[farm], geo.cols) if farm is not None and farm in geo.farm_cell else None
    seen = state.seen_farm[p]
    peeked = divmod(geo.farm_cell[seen], geo.cols) if seen is not None and seen in geo.farm_cell else None
    card = state.card
    road = (card.number, card.yellow) if card is not None and not state.is_terminal() else None
    row = None if state.is_terminal() or state.round == 0 else len(state.boxes[p])
    return now_farm, peeked, road, row
