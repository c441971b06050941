"""Avenue's printed icons and ink, drawn with canvas primitives (no image files, no copied art).

Every function draws on an ipycanvas ``Canvas`` in CSS pixels and sets every style it uses
(a newly connected browser starts from the canvas defaults).
"""

from __future__ import annotations

import math

from ipycanvas import Canvas
from sheetkit.widgets import theme
from sheetkit.widgets.shapes import outlined_polygon, rounded_box

from sheetkit.core.grid import BOTTOM, LEFT, RIGHT, TOP
from sheetkit.games.avenue.cards import ROAD_EDGES, RoadCard

# Where a road meets each edge, as a fraction of the cell.
_END = {TOP: (0.5, 0.0), RIGHT: (1.0, 0.5), BOTTOM: (0.5, 1.0), LEFT: (0.0, 0.5)}
# Grape spots, one per quadrant (roads run through edge midpoints and the centre, never here).
_GRAPE_SPOTS = ((0.25, 0.25), (0.75, 0.75), (0.75, 0.25), (0.25, 0.75))


def _jitter(x: float, y: float, k: int) -> float:
    """A small deterministic wobble (−1…1) so ink looks drawn, the same on every redraw."""
    return math.sin(x * 12.9898 + y * 78.233 + k * 37.719) * 0.5 + math.sin(x * 3.1 - y * 1.7 + k) * 0.5


def road(ctx: Canvas, x: float, y: float, s: float, number: int, colour: str = theme.INK,
         width: float | None = None, wobble: bool = True) -> None:
    """Road ``number`` (1–6) in the cell at (x, y) of side ``s``: a thick rounded stroke via the centre."""
    a, b = (e for e in (TOP, RIGHT, BOTTOM, LEFT) if ROAD_EDGES[number] & e)
    ax, ay = x + _END[a][0] * s, y + _END[a][1] * s
    bx, by = x + _END[b][0] * s, y + _END[b][1] * s
    cx, cy = x + s / 2, y + s / 2
    ctx.stroke_style = colour
    ctx.line_width = width if width is not None else max(2.0, s * 0.13)
    ctx.line_cap = "butt"      # ends stop exactly at the edge, so neighbouring cells join cleanly
    ctx.line_join = "round"
    ctx.begin_path()
    ctx.move_to(ax, ay)
    w = s * 0.025 * _jitter(x, y, number) if wobble else 0.0
    if (a, b) in ((TOP, BOTTOM), (RIGHT, LEFT)):
        # A straight road: bow it a hair, like a line drawn by hand.
        dx, dy = (w, 0.0) if a == TOP else (0.0, w)
        ctx.quadratic_curve_to(cx + dx, cy + dy, bx, by)
    else:
        ctx.arc_to(cx + w, cy - w, bx, by, s * 0.3)
        ctx.line_to(bx, by)
    ctx.stroke()


def grapes(ctx: Canvas, x: float, y: float, s: float, purple: int, green: int) -> None:
    """Printed grapes: purple ones filled, green ones ringed (two cues), one per quadrant."""
    r = s * 0.105
    kinds = ["p"] * purple + ["g"] * green
    for (fx, fy), kind in zip(_GRAPE_SPOTS, kinds, strict=False):
        gx, gy = x + fx * s, y + fy * s
        ctx.fill_style = theme.PAPER   # a paper halo: the grape sits on top of any road
        ctx.fill_circle(gx, gy, r + 1.8)
        if kind == "p":
            ctx.fill_style = theme.GRAPE_PURPLE
            ctx.fill_circle(gx, gy, r)
            ctx.stroke_style = theme.GRAPE_PURPLE_EDGE
            ctx.line_width = 1.0
            ctx.stroke_circle(gx, gy, r)
            ctx.fill_style = "rgba(255, 255, 255, 0.55)"
            ctx.fill_circle(gx - r * 0.35, gy - r * 0.35, r * 0.28)
        else:
            ctx.stroke_style = theme.GRAPE_GREEN
            ctx.line_width = max(1.5, r * 0.42)
            ctx.stroke_circle(gx, gy, r - ctx.line_width / 2 + 0.5)


def farm(ctx: Canvas, x: float, y: float, s: float, letter: str, colour: str = theme.PRINT) -> None:
    """A printed farm: a small barn with its letter."""
    cx = x + s / 2
    w, body, roof = s * 0.56, s * 0.36, s * 0.2
    top = y + s / 2 - (body + roof) / 2 + s * 0.02
    pts = [(cx, top), (cx + w / 2, top + roof), (cx + w / 2, top + roof + body),
           (cx - w / 2, top + roof + body), (cx - w / 2, top + roof)]
    outlined_polygon(ctx, pts, theme.PAPER, colour, 1.6)
    ctx.fill_style = colour
    ctx.font = theme.font(round(s * 0.32), theme.FONT_PRINT, "bold")
    ctx.text_align = "center"
    ctx.text_baseline = "middle"
    ctx.fill_text(letter, cx, top + roof + body * 0.52)


def castle(ctx: Canvas, x: float, y: float, s: float, colour: str) -> None:
    """A printed castle: purple has a filled body and a pennant, green a ringed body and a swallowtail flag."""
    purple = colour == "purple"
    hue = theme.GRAPE_PURPLE if purple else theme.GRAPE_GREEN
    cx = x + s / 2
    bw, bh = s * 0.42, s * 0.32
    bx, by = cx - bw / 2, y + s * 0.5
    merlon = bw / 5
    body = [(bx, by + bh), (bx, by - merlon)]
    for k in range(5):   # crenellations: up, across, down...
        mx = bx + k * merlon
        top = by - merlon if k % 2 == 0 else by
        body += [(mx, top), (mx + merlon, top)]
    body += [(bx + bw, by - merlon), (bx + bw, by + bh)]
    ctx.fill_style = "#E9CFE0" if purple else theme.PAPER
    ctx.fill_polygon(body)
    ctx.stroke_style = hue
    ctx.line_width = 2.2 if not purple else 1.6
    ctx.line_join = "miter"
    ctx.stroke_polygon(body)
    # door
    ctx.fill_style = hue
    ctx.begin_path()
    dw = bw * 0.28
    ctx.move_to(cx - dw / 2, by + bh)
    ctx.line_to(cx - dw / 2, by + bh * 0.55)
    ctx.arc(cx, by + bh * 0.55, dw / 2, math.pi, 0)
    ctx.line_to(cx + dw / 2, by + bh)
    ctx.close_path()
    ctx.fill()
    # flag pole and flag
    pole_top = y + s * 0.1
    ctx.stroke_style = theme.PRINT
    ctx.line_width = 1.4
    ctx.stroke_line(cx, by - merlon, cx, pole_top)
    fw, fh = s * 0.24, s * 0.16
    if purple:
        flag = [(cx, pole_top), (cx + fw, pole_top + fh / 2), (cx, pole_top + fh)]   # pennant
        ctx.fill_style = hue
        ctx.fill_polygon(flag)
    else:
        flag = [(cx, pole_top), (cx + fw, pole_top), (cx + fw * 0.72, pole_top + fh / 2),
                (cx + fw, pole_top + fh), (cx, pole_top + fh)]                         # swallowtail
        outlined_polygon(ctx, flag, theme.PAPER, hue, 2.0, join="miter")


def road_card(ctx: Canvas, x: float, y: float, w: float, h: float, card: RoadCard | None,
              count: str = "") -> None:
    """The flipped road card: colour AND its name in words, the number, and the road drawn."""
    _card_shape(ctx, x, y, w, h, theme.CARD_YELLOW if card and card.yellow else theme.CARD_GREY if card else "#E6E1D3")
    ctx.text_baseline = "alphabetic"
    if card is None:
        ctx.fill_style = theme.PRINT
        ctx.font = theme.font(13, theme.FONT_PRINT, "italic")
        ctx.text_align = "center"
        ctx.fill_text("no card", x + w / 2, y + h / 2)
        return
    ctx.fill_style = theme.INK
    ctx.font = theme.font(26, theme.FONT_PRINT, "bold")
    ctx.text_align = "left"
    ctx.fill_text(str(card.number), x + 9, y + 29)
    ctx.font = theme.font(12, theme.FONT_INK, "bold")
    ctx.text_align = "right"
    ctx.fill_text("★ YELLOW" if card.yellow else "GREY", x + w - 9, y + 22)
    sq = w * 0.62
    sx, sy = x + (w - sq) / 2, y + 40
    ctx.fill_style = theme.PAPER
    ctx.fill_rect(sx, sy, sq, sq)
    ctx.stroke_style = theme.GRID_STRONG
    ctx.line_width = 1
    ctx.stroke_rect(sx, sy, sq, sq)
    road(ctx, sx, sy, sq, card.number, wobble=False)
    if count:
        ctx.fill_style = theme.INK
        ctx.font = theme.font(12, theme.FONT_INK)
        ctx.text_align = "center"
        ctx.fill_text(count, x + w / 2, y + h - 10)


def farm_card(ctx: Canvas, x: float, y: float, w: float, h: float, letter: str | None, title: str,
              note: str = "", ring: str = theme.NOW_RING, dashed: bool = False) -> None:
    """A farm card: the letter on a barn, what the card is ('scored now', 'next (peeked)') and a note."""
    _card_shape(ctx, x, y, w, h, theme.PAPER, edge=ring, dashed=dashed)
    ctx.fill_style = theme.PRINT
    ctx.font = theme.font(12, theme.FONT_INK, "bold")
    ctx.text_align = "center"
    ctx.text_baseline = "alphabetic"
    ctx.fill_text(title, x + w / 2, y + 20)
    if letter:
        farm(ctx, x + (w - w * 0.8) / 2, y + 26, w * 0.8, letter, colour=theme.INK)
    if note:
        ctx.fill_style = theme.INK
        ctx.font = theme.font(12, theme.FONT_INK)
        ctx.fill_text(note, x + w / 2, y + h - 10)


def _card_shape(ctx: Canvas, x: float, y: float, w: float, h: float, fill: str,
                edge: str = theme.CARD_EDGE, dashed: bool = False) -> None:
    rounded_box(ctx, x, y, w, h, 8.0, fill, edge, dashed, dash=(5, 4))
