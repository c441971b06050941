"""The Kingdom Maps sheet as a printed pad: the hex map, the terrain uses, and the score zone.

Three layers, bottom to top: ``paper`` (the printed sheet: hex outlines, +1/-1 and ? marks,
frames; drawn once per client), ``highlight`` (soft tints: hexes legal now, the group drawn this
turn, the terrain in use), ``ink`` (drawn hexes, crossed-out uses, the score zone's numbers).
After a move only what changed is drawn; everything comes from the engine's state.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from sheetkit.widgets import theme
from sheetkit.widgets.canvas import SheetCanvas
from sheetkit.widgets.geometry import SQRT3, Cell, HexGeometry, Rect
from sheetkit.widgets.kingdom_maps import art
from sheetkit.widgets.shapes import blank_paper, printed_title

from sheetkit.games.kingdom_maps.board import Board
from sheetkit.games.kingdom_maps.criteria import CRITERIA
from sheetkit.games.kingdom_maps.moves import Bank
from sheetkit.games.kingdom_maps.state import KingdomState
from sheetkit.games.kingdom_maps.terrains import TERRAINS

LAYERS = ("paper", "highlight", "ink")
LEGAL_FILL = "rgba(86, 180, 233, 0.22)"      # sky: hexes you may draw on now
LEGAL_RING = "rgba(0, 114, 178, 0.55)"       # and a dotted ring: a second cue besides the tint
GROUP_RING = theme.OKABE_ITO["blue"]         # the hexes drawn in this drawing (undo-able)
NOW_BOX = "rgba(240, 228, 66, 0.45)"         # the terrain in use, the criteria you may bank


@dataclass(frozen=True)
class MapLayout:
    """Where everything sits on the sheet canvas, in CSS px, for one board."""

    hexes: frozenset[Cell]
    size: float = 29.0           # hex radius (centre to corner)
    left: float = 14.0
    top: float = 44.0
    gap: float = 16.0
    score_width: float = 186.0
    legend_height: float = 62.0

    @property
    def geometry(self) -> HexGeometry:
        """The hex map (CSS px)."""
        g = HexGeometry.for_map(self.hexes, self.size)
        return replace(g, x0=g.x0 + self.left, y0=g.y0 + self.top)

    @property
    def map_rect(self) -> Rect:
        """The map's bounding box."""
        w, h = self.geometry.extent()
        return self.left, self.top, w - self.left, h - self.top

    @property
    def score_rect(self) -> Rect:
        """The score zone beside the map."""
        x, y, w, h = self.map_rect
        return x + w + self.gap, y, self.score_width, h

    @property
    def legend_rect(self) -> Rect:
        """The terrain strip under the map: icon, number, name and uses of each terrain."""
        _, y, _, h = self.map_rect
        return self.left, y + h + 12, self.width - 2 * self.left, self.legend_height

    def legend_box(self, terrain: int) -> Rect:
        """The box of ``terrain`` (1–6) in the terrain strip."""
        x, y, w, h = self.legend_rect
        bw = w / len(TERRAINS)
        return x + (terrain - 1) * bw, y, bw, h

    @property
    def width(self) -> float:
        """Canvas width (CSS px, whole pixels so the 2× canvas is exactly twice its CSS size)."""
        x, _, w, _ = self.score_rect
        return float(math.ceil(x + w + 12))

    @property
    def height(self) -> float:
        """Canvas height (CSS px, whole pixels)."""
        _, y, _, h = self.map_rect
        return float(math.ceil(y + h + 12 + self.legend_height + 10))

    def score_rows(self, criteria: int, questions: int, powers: int) -> list[tuple[str, Rect]]:
        """(kind, rect) of each part of the score zone: 'head', 'crit' × n, 'question', 'power', 'total'."""
        x, y, w, h = self.score_rect
        parts: list[tuple[str, float]] = [("head", 24.0)]
        fixed = 24.0 + 44.0
        if questions:
            qh = 22.0 + 22.0 * math.ceil(questions / 2)
            fixed += qh
        if powers:
            fixed += 46.0
        crit_h = (h - fixed) / max(criteria, 1)
        parts += [("crit", crit_h)] * criteria
        if questions:
            parts.append(("question", qh))
        if powers:
            parts.append(("power", 46.0))
        parts.append(("total", 44.0))
        out, yy = [], y
        for kind, ph in parts:
            out.append((kind, (x, yy, w, ph)))
            yy += ph
        return out


class KingdomSheet:
    """One player's Kingdom Maps sheet, drawn from the engine state; ``sync`` draws only what changed."""

    def __init__(self, board: Board, uses: int, criteria: int = 4, powers: bool = True, questions: bool = True,
                 size: float = 29.0, scale: float = theme.SCALE) -> None:
        self.board = board
        self.uses = uses
        self.criteria = criteria
        self.n_powers = len(board.powers) if powers else 0
        self.n_questions = len(board.questions) if questions else 0
        self.box = MapLayout(frozenset(board.coords), size)
        self._geo = self.box.geometry
        self.centres = [self._geo.cell_center(q, r) for q, r in board.coords]
        self.canvas = SheetCanvas(self.box.width, self.box.height, LAYERS, scale, css_class="sk-sheet")
        self.widget = self.canvas.widget
        self._cells: list[int] | None = None      # what the ink layer shows now
        self._uses: Any = None
        self._score: Any = None
        self._marks: Any = None

    @property
    def geometry(self) -> HexGeometry:
        """Hexes in CSS px (what ``on_click`` callbacks receive)."""
        return self._geo

    @property
    def click_geometry(self) -> HexGeometry:
        """Hexes in canvas px (what a browser test clicks: canvas width / CSS width = ``scale``)."""
        return self._geo.scaled(self.canvas.scale)

    def hex_at(self, x: float, y: float) -> Cell | None:
        """The map hex (q, r) under CSS-px point (x, y), or None off the map."""
        return self._geo.cell_at(x, y)

    def part_at(self, x: float, y: float, state: KingdomState) -> tuple[str, Any] | None:
        """What lies under a CSS-px point off the map: ('crit', code), ('score', row kind) or
        ('legend', terrain); None for bare paper."""
        def inside(r: Rect) -> bool:
            return r[0] <= x <= r[0] + r[2] and r[1] <= y <= r[1] + r[3]

        if inside(self.box.score_rect):
            k = 0
            for kind, rect in self.rows_for(state):
                if kind == "crit":
                    if inside(rect) and k < len(state.criteria):
                        return "crit", state.criteria[k]
                    k += 1
                elif inside(rect):
                    return "score", kind
            return "score", "head"
        for t in TERRAINS:
            if inside(self.box.legend_box(t.number)):
                return "legend", t.number
        return None

    def rows_for(self, state: KingdomState) -> list[tuple[str, Rect]]:
        """The score zone's parts for this game."""
        return self.box.score_rows(len(state.criteria) or self.criteria, self.n_questions, self.n_powers)

    # ----- full redraw ----------------------------------------------------------------------
    def draw_static(self, title: str = "") -> None:
        """The printed sheet: paper, title, hex outlines, printed marks, terrain strip, score frame."""
        ctx = self.canvas["paper"].ctx
        b, g = self.box, self._geo
        blank_paper(ctx, b.width, b.height)
        printed_title(ctx, "KINGDOM MAPS", title or self.board.title, b.left + 2, 26, b.left + 186)
        ctx.fill_style = theme.PAPER_SHADE
        for cx, cy in self.centres:
            ctx.fill_polygon(art.hex_points(cx, cy, g.size - 0.5))
        ctx.fill_style = theme.PAPER
        for cx, cy in self.centres:
            ctx.fill_polygon(art.hex_points(cx, cy, g.size - 2.2))
        ctx.stroke_style = theme.GRID
        ctx.line_width = 1
        for cx, cy in self.centres:
            ctx.stroke_polygon(art.hex_points(cx, cy, g.size))
        for i, (cx, cy) in enumerate(self.centres):
            art.printed_mark(ctx, cx, cy, g.size, self._printed(i))
        self._draw_legend_frame(ctx)

    def _printed(self, i: int) -> str:
        kind = self.board.printed(i)
        if (kind == "power" and not self.n_powers) or (kind == "question" and not self.n_questions):
            return "plain"
        return kind

    def _draw_legend_frame(self, ctx: Any) -> None:
        x, y, w, h = self.box.legend_rect
        ctx.stroke_style = theme.GRID_STRONG
        ctx.line_width = 1.4
        ctx.stroke_rect(x, y, w, h)
        for t in TERRAINS:
            bx, by, bw, bh = self.box.legend_box(t.number)
            if t.number > 1:
                ctx.stroke_style = theme.GRID
                ctx.line_width = 1
                ctx.stroke_line(bx, by, bx, by + bh)
            cx, cy = bx + 22, by + bh / 2 - 4
            ctx.fill_style = art.tint(t.colour, 0.18)
            ctx.fill_polygon(art.hex_points(cx, cy, 17))
            ctx.stroke_style = theme.GRID
            ctx.stroke_polygon(art.hex_points(cx, cy, 17))
            art.icon(ctx, cx, cy, 10.5, t.number)
            ctx.fill_style = theme.PRINT
            ctx.text_align = "left"
            ctx.text_baseline = "alphabetic"
            ctx.font = theme.font(12, theme.FONT_PRINT, "bold")
            ctx.fill_text(f"{t.number} {t.name}", bx + 42, by + 18, bw - 46)
            ctx.font = theme.font(10, theme.FONT_PRINT, "italic")
            ctx.fill_text("uses", bx + 42, by + 34)
            for k in range(self.use_boxes):
                ux, uy, us = self._use_box(t.number, k)
                ctx.stroke_style = theme.GRID_STRONG
                ctx.line_width = 1
                ctx.stroke_rect(ux, uy, us, us)
            ctx.font = theme.font(9, theme.FONT_PRINT)
            ctx.text_align = "center"
            ctx.fill_text(t.symbol, cx, by + bh - 5)

    @property
    def use_boxes(self) -> int:
        """Uses printed as boxes to cross out (more than 4 uses are counted in words only)."""
        return self.uses if self.uses <= 4 else 0

    def _use_box(self, terrain: int, k: int) -> tuple[float, float, float]:
        bx, by, _, _ = self.box.legend_box(terrain)
        us = 11.0
        return bx + 42 + k * (us + 4), by + 40, us

    def draw_score_frame(self, state: KingdomState) -> None:
        """The printed score zone (its rows depend on the number of criteria in play)."""
        ctx = self.canvas["paper"].ctx
        x, y, w, h = self.box.score_rect
        ctx.fill_style = theme.PAPER
        ctx.fill_rect(x - 1, y - 1, w + 2, h + 2)
        ctx.fill_style = theme.PAPER_SHADE
        ctx.fill_rect(x, y, w, h)
        ctx.stroke_style = theme.GRID
        ctx.line_width = 1
        for kind, (rx, ry, rw, rh) in self.rows_for(state):
            ctx.fill_style = theme.PRINT
            ctx.text_align = "left"
            ctx.text_baseline = "middle"
            if kind == "head":
                ctx.font = theme.font(11, theme.FONT_PRINT, "bold")
                ctx.fill_text("SCORE", rx + 8, ry + rh / 2)
                continue
            ctx.stroke_line(rx, ry, rx + rw, ry)
            if kind == "question":
                ctx.font = theme.font(10, theme.FONT_PRINT, "bold")
                ctx.text_baseline = "top"
                ctx.fill_text("? BOX — banked scores", rx + 8, ry + 5)
                for k in range(self.n_questions):
                    qx, qy, qw, qh = self._q_slot(ry, k)
                    ctx.stroke_rect(qx, qy, qw, qh)
            elif kind == "power":
                ctx.font = theme.font(10, theme.FONT_PRINT, "bold")
                ctx.text_baseline = "top"
                ctx.fill_text("±1 POWERS  / gained  ✕ spent", rx + 8, ry + 5)
                for k in range(self.n_powers):
                    px, py, ps = self._power_box(ry, k)
                    ctx.stroke_rect(px, py, ps, ps)
            elif kind == "total":
                ctx.stroke_style = theme.GRID_STRONG
                ctx.line_width = 1.6
                ctx.stroke_line(rx, ry, rx + rw, ry)
                ctx.stroke_style = theme.GRID
                ctx.line_width = 1
                ctx.font = theme.font(12, theme.FONT_PRINT, "bold")
                ctx.fill_text("TOTAL", rx + 8, ry + rh / 2)
        ctx.stroke_style = theme.GRID_STRONG
        ctx.line_width = 1.6
        ctx.stroke_rect(x, y, w, h)

    def _q_slot(self, ry: float, k: int) -> Rect:
        x, _, w, _ = self.box.score_rect
        col, row = k % 2, k // 2
        sw = (w - 24) / 2
        return x + 8 + col * (sw + 8), ry + 21 + row * 22, sw, 18

    def _power_box(self, ry: float, k: int) -> tuple[float, float, float]:
        x, _, _, _ = self.box.score_rect
        return x + 8 + k * 22, ry + 21, 16.0

    def forget(self) -> None:
        """Next ``sync`` redraws every dynamic layer in full."""
        self._cells = self._uses = self._score = self._marks = None

    # ----- incremental redraw ---------------------------------------------------------------
    def sync(self, state: KingdomState, player: int, interactive: bool = True) -> None:
        """Bring ink, highlights and score zone in line with ``state`` (call inside ``batch``)."""
        self._sync_cells(state.sheets[player].cells)
        uses = tuple(state.sheets[player].uses[1:])
        if uses != self._uses:
            self._draw_uses(uses)
            self._uses = uses
        score = score_spec(state, player)
        if score != self._score:
            if self._score is None or len(score[0]) != len(self._score[0]):
                self.draw_score_frame(state)
            self._draw_score(state, score)
            self._score = score
        marks = marks_spec(state, player, interactive)
        if marks != self._marks:
            self._draw_marks(state, marks)
            self._marks = marks

    def _sync_cells(self, cells: list[int]) -> None:
        ink = self.canvas["ink"]
        old = self._cells
        if old is None or any(a and a != b for a, b in zip(old, cells, strict=True)):
            x, y, w, h = self.box.map_rect
            ink.clear_rect(x - 2, y - 2, w + 4, h + 4)
            old = [0] * len(cells)
        ctx = None
        for i, (a, b) in enumerate(zip(old, cells, strict=True)):
            if a == b or not b:
                continue
            ctx = ctx or ink.ctx
            cx, cy = self.centres[i]
            art.terrain_hex(ctx, cx, cy, self._geo.size, b)
            kind = self._printed(i)
            if kind != "plain":
                art.printed_mark(ctx, cx, cy, self._geo.size, kind, small=True)
        self._cells = list(cells)

    def _draw_uses(self, uses: tuple[int, ...]) -> None:
        ink = self.canvas["ink"]
        ctx = ink.ctx
        for t in TERRAINS:
            bx, by, bw, _ = self.box.legend_box(t.number)
            ink.clear_rect(bx + 40, by + 38, bw - 42, 16)
            used = min(self.uses - uses[t.number - 1], self.use_boxes)
            ctx.stroke_style = theme.INK
            ctx.line_width = 1.8
            ctx.line_cap = "round"
            for k in range(max(0, used)):
                ux, uy, us = self._use_box(t.number, k)
                ctx.stroke_line(ux + 1, uy + 1, ux + us - 1, uy + us - 1)
                ctx.stroke_line(ux + us - 1, uy + 1, ux + 1, uy + us - 1)
            ctx.fill_style = theme.INK if uses[t.number - 1] else theme.OKABE_ITO["vermillion"]
            ctx.font = theme.font(11, theme.FONT_INK, "bold")
            ctx.text_align = "left"
            ctx.text_baseline = "top"
            ux, uy, us = self._use_box(t.number, self.use_boxes)
            ctx.fill_text(f"{uses[t.number - 1]} left", ux + 1, uy, bw - (ux - bx) - 2)

    def _draw_score(self, state: KingdomState, spec: tuple[Any, ...]) -> None:
        crit, banked, gained, spent, total, final = spec
        ink = self.canvas["ink"]
        x, y, w, h = self.box.score_rect
        ink.clear_rect(x + 1, y + 1, w - 2, h - 2)
        ctx = ink.ctx
        k = 0
        for kind, (rx, ry, rw, rh) in self.rows_for(state):
            cy = ry + rh / 2
            if kind == "head":
                ctx.fill_style = theme.INK if final else theme.FAINT
                ctx.font = theme.font(10, theme.FONT_INK, "bold" if final else "italic")
                ctx.text_align = "right"
                ctx.text_baseline = "middle"
                ctx.fill_text("final" if final else "so far", rx + rw - 10, cy)
            elif kind == "crit" and k < len(crit):
                code, name, score = crit[k]
                k += 1
                compact = rh < 34
                ctx.fill_style = theme.INK
                ctx.text_align = "left"
                ctx.text_baseline = "middle"
                ctx.font = theme.font(13 if not compact else 11, theme.FONT_PRINT, "bold")
                ctx.fill_text(code, rx + 8, cy if compact else cy - 8)
                ctx.fill_style = theme.PRINT
                ctx.font = theme.font(11 if not compact else 10, theme.FONT_PRINT)
                if compact:
                    ctx.fill_text(name, rx + 32, cy, rw - 84)
                else:
                    ctx.fill_text(name, rx + 8, cy + 9, rw - 60)
                ctx.text_align = "right"
                ctx.fill_style = theme.INK if final else theme.FAINT
                ctx.font = theme.font(20 if not compact else 14, theme.FONT_INK, "bold" if final else "italic")
                ctx.fill_text(str(score), rx + rw - 10, cy)
            elif kind == "question":
                ctx.text_baseline = "middle"
                ctx.font = theme.font(11, theme.FONT_INK, "bold")
                for j, (code, pts) in enumerate(banked[:self.n_questions]):
                    qx, qy, qw, qh = self._q_slot(ry, j)
                    ctx.fill_style = theme.INK
                    ctx.text_align = "left"
                    ctx.fill_text(code, qx + 5, qy + qh / 2)
                    ctx.text_align = "right"
                    ctx.fill_text(str(pts), qx + qw - 5, qy + qh / 2)
            elif kind == "power":
                ctx.stroke_style = theme.INK
                ctx.line_width = 1.8
                ctx.line_cap = "round"
                for j in range(min(gained, self.n_powers)):
                    px, py, ps = self._power_box(ry, j)
                    ctx.stroke_line(px + 2, py + ps - 2, px + ps - 2, py + 2)
                    if j < spent:
                        ctx.stroke_line(px + 2, py + 2, px + ps - 2, py + ps - 2)
                if gained > self.n_powers:
                    ctx.fill_style = theme.INK
                    ctx.font = theme.font(11, theme.FONT_INK, "bold")
                    ctx.text_align = "left"
                    ctx.text_baseline = "top"
                    ctx.fill_text(f"+{gained - self.n_powers}", rx + 8 + self.n_powers * 22, ry + 23)
            elif kind == "total":
                ctx.fill_style = theme.INK if final else theme.FAINT
                ctx.text_align = "right"
                ctx.text_baseline = "middle"
                ctx.font = theme.font(24, theme.FONT_INK, "bold" if final else "italic")
                ctx.fill_text(str(total), rx + rw - 10, cy)

    def _draw_marks(self, state: KingdomState, spec: tuple[Any, ...]) -> None:
        legal, group, terrain, bank = spec
        hl = self.canvas["highlight"]
        hl.clear()
        ctx = hl.ctx
        size = self._geo.size
        if terrain:
            bx, by, bw, bh = self.box.legend_box(terrain)
            ctx.fill_style = NOW_BOX
            ctx.fill_rect(bx + 1, by + 1, bw - 2, bh - 2)
        if bank:
            ctx.fill_style = NOW_BOX
            for kind, (rx, ry, rw, rh) in self.rows_for(state):
                if kind == "crit":
                    ctx.fill_rect(rx + 1, ry + 1, rw - 2, rh - 2)
        if legal:
            ctx.fill_style = LEGAL_FILL
            for i in legal:
                ctx.fill_polygon(art.hex_points(*self.centres[i], size - 1.5))
            ctx.stroke_style = LEGAL_RING
            ctx.line_width = 1.5
            ctx.set_line_dash([2, 3])
            for i in legal:
                ctx.stroke_polygon(art.hex_points(*self.centres[i], size - 5))
            ctx.set_line_dash([])
        if group:
            ctx.stroke_style = GROUP_RING
            ctx.line_width = 3
            ctx.line_join = "round"
            for i in group:
                ctx.stroke_polygon(art.hex_points(*self.centres[i], size - 2.5))


def score_spec(state: KingdomState, p: int) -> tuple[Any, ...]:
    """Everything the score zone shows, as a comparable value (the engine's live scores)."""
    s = state.sheets[p]
    scores = state.criterion_scores(p)
    crit = tuple((c, CRITERIA[c].name, scores[c]) for c in state.criteria)
    return (crit, tuple(s.banked), s.powers, s.spent, state.total(p), state.is_terminal())


def marks_spec(state: KingdomState, p: int, interactive: bool) -> tuple[Any, ...]:
    """Everything the highlight layer shows, as a comparable value."""
    legal = tuple(state.legal_hex_numbers(p)) if interactive else ()
    s = state.sheets[p]
    over = state.is_terminal()
    group = tuple(s.placed) if not over else ()
    terrain = state.terrain if state.terrain and not over and s.die is not None else None
    bank = interactive and any(isinstance(a, Bank) for a in state.legal_actions(p))
    return legal, group, terrain, bank


def hex_centre_canvas(geometry: HexGeometry, q: int, r: int) -> tuple[float, float]:
    """Centre of hex (q, r): x = x0 + size·√3·(q + r/2), y = y0 + size·1.5·r (the documented formula)."""
    return geometry.x0 + geometry.size * SQRT3 * (q + r / 2), geometry.y0 + geometry.size * 1.5 * r
