"""Kingdom Maps' printed marks and ink, drawn with canvas primitives (no image files, no copied art).

Every terrain is a colour AND an icon (peak, tree, wheat, wave, grass, house), so a map reads in
greyscale too. Every function draws on an ipycanvas ``Canvas`` in CSS pixels and sets every style
it uses (a newly connected browser starts from the canvas defaults).
"""

from __future__ import annotations

from collections.abc import Sequence

from ipycanvas import Canvas
from sheetkit.widgets import theme
from sheetkit.widgets.geometry import Point, hex_points
from sheetkit.widgets.shapes import icon_pen, rounded_box
from sheetkit.widgets.theme import tint

from sheetkit.games.kingdom_maps.terrains import TERRAINS

# Icon strokes: a darker shade of each terrain, so the icon reads on its own fill.
ICON_INK = {1: "#3E3830", 2: "#1F4A1D", 3: "#7A5A0C", 4: "#123F6B", 5: "#3B6324", 6: "#5C1512"}
PRINTED_POWER = theme.OKABE_ITO["blue"]
PRINTED_QUESTION = theme.OKABE_ITO["vermillion"]


def terrain_hex(ctx: Canvas, cx: float, cy: float, size: float, terrain: int, icon_scale: float = 1.0) -> None:
    """A drawn hex: the terrain's colour filling the hex (inside the printed outline) and its icon."""
    t = TERRAINS[terrain - 1]
    ctx.fill_style = tint(t.colour, 0.18)
    ctx.fill_polygon(hex_points(cx, cy, size - 1.4))
    icon(ctx, cx, cy, size * 0.62 * icon_scale, terrain)


def mini_hex(ctx: Canvas, cx: float, cy: float, size: float, terrain: int) -> None:
    """A drawn hex on a small map: colour plus a tiny shape cue (mountains and villages marked)."""
    t = TERRAINS[terrain - 1]
    ctx.fill_style = t.colour
    ctx.fill_polygon(hex_points(cx, cy, size - 0.5))
    ink = ICON_INK[terrain]
    ctx.fill_style = ink
    ctx.stroke_style = ink
    ctx.line_width = 1
    s = size * 0.5
    if t.shape == "peak":
        ctx.fill_polygon([(cx - s, cy + s * 0.6), (cx, cy - s * 0.7), (cx + s, cy + s * 0.6)])
    elif t.shape == "tree":
        ctx.fill_circle(cx, cy, s * 0.55)
    elif t.shape == "wheat":
        ctx.stroke_line(cx - s * 0.5, cy - s * 0.6, cx - s * 0.5, cy + s * 0.6)
        ctx.stroke_line(cx + s * 0.5, cy - s * 0.6, cx + s * 0.5, cy + s * 0.6)
    elif t.shape == "wave":
        ctx.stroke_line(cx - s * 0.7, cy, cx + s * 0.7, cy)
    elif t.shape == "grass":
        ctx.stroke_line(cx - s * 0.3, cy + s * 0.4, cx - s * 0.3, cy - s * 0.4)
    else:
        ctx.fill_rect(cx - s * 0.5, cy - s * 0.3, s, s * 0.8)


def icon(ctx: Canvas, cx: float, cy: float, s: float, terrain: int, colour: str | None = None) -> None:
    """The terrain's icon, about ``2 s`` across, centred at (cx, cy)."""
    shape = TERRAINS[terrain - 1].shape
    ink = colour or ICON_INK[terrain]
    icon_pen(ctx, ink, ink, max(1.2, s * 0.13))
    {"peak": _peak, "tree": _tree, "wheat": _wheat, "wave": _wave, "grass": _grass, "house": _house}[shape](
        ctx, cx, cy, s, ink)


def _peak(ctx: Canvas, cx: float, cy: float, s: float, ink: str) -> None:
    big = [(cx - s * 0.95, cy + s * 0.6), (cx - s * 0.15, cy - s * 0.7), (cx + s * 0.6, cy + s * 0.6)]
    small = [(cx + s * 0.05, cy + s * 0.6), (cx + s * 0.5, cy - s * 0.15), (cx + s * 0.95, cy + s * 0.6)]
    ctx.fill_style = "#B9B1A4"
    ctx.fill_polygon(small)
    ctx.stroke_polygon(small)
    ctx.fill_style = "#A0978A"
    ctx.fill_polygon(big)
    ctx.stroke_polygon(big)
    snow = [(cx - s * 0.15, cy - s * 0.7), (cx - s * 0.42, cy - s * 0.26), (cx - s * 0.25, cy - s * 0.32),
            (cx - s * 0.15, cy - s * 0.2), (cx + s * 0.02, cy - s * 0.33), (cx + s * 0.13, cy - s * 0.3)]
    ctx.fill_style = theme.PAPER
    ctx.fill_polygon(snow)


def _tree(ctx: Canvas, cx: float, cy: float, s: float, ink: str) -> None:
    ctx.stroke_line(cx, cy + s * 0.35, cx, cy + s * 0.8)
    ctx.fill_style = "#6FA66B"
    for top, half, base in ((-0.85, 0.42, -0.2), (-0.5, 0.6, 0.15), (-0.15, 0.75, 0.45)):
        tri = [(cx, cy + s * top), (cx + s * half, cy + s * base), (cx - s * half, cy + s * base)]
        ctx.fill_polygon(tri)
        ctx.stroke_polygon(tri)


def _wheat(ctx: Canvas, cx: float, cy: float, s: float, ink: str) -> None:
    for dx in (-0.5, 0.0, 0.5):
        x = cx + s * dx
        ctx.stroke_line(x, cy + s * 0.8, x, cy - s * 0.2)
        for k in range(3):
            y = cy - s * (0.75 - 0.25 * k)
            ctx.stroke_line(x, y + s * 0.12, x - s * 0.16, y)
            ctx.stroke_line(x, y + s * 0.12, x + s * 0.16, y)


def _wave(ctx: Canvas, cx: float, cy: float, s: float, ink: str) -> None:
    for dy in (-0.35, 0.2):
        y = cy + s * dy
        ctx.begin_path()
        ctx.move_to(cx - s * 0.85, y)
        ctx.quadratic_curve_to(cx - s * 0.42, y - s * 0.35, cx, y)
        ctx.quadratic_curve_to(cx + s * 0.42, y + s * 0.35, cx + s * 0.85, y)
        ctx.stroke()


def _grass(ctx: Canvas, cx: float, cy: float, s: float, ink: str) -> None:
    for dx in (-0.55, 0.0, 0.55):
        x, y = cx + s * dx, cy + s * (0.55 if dx else 0.35)
        ctx.begin_path()
        ctx.move_to(x - s * 0.25, y - s * 0.45)
        ctx.quadratic_curve_to(x - s * 0.05, y - s * 0.2, x, y)
        ctx.quadratic_curve_to(x + s * 0.02, y - s * 0.4, x + s * 0.05, y - s * 0.65)
        ctx.move_to(x, y)
        ctx.quadratic_curve_to(x + s * 0.1, y - s * 0.2, x + s * 0.3, y - s * 0.4)
        ctx.stroke()


def _house(ctx: Canvas, cx: float, cy: float, s: float, ink: str) -> None:
    body = [(cx - s * 0.55, cy - s * 0.05), (cx + s * 0.55, cy - s * 0.05), (cx + s * 0.55, cy + s * 0.7),
            (cx - s * 0.55, cy + s * 0.7)]
    ctx.fill_style = "#F1E3D3"
    ctx.fill_polygon(body)
    ctx.stroke_polygon(body)
    roof = [(cx - s * 0.75, cy), (cx, cy - s * 0.7), (cx + s * 0.75, cy)]
    ctx.fill_style = "#A3403C"
    ctx.fill_polygon(roof)
    ctx.stroke_polygon(roof)
    ctx.fill_style = ink
    ctx.fill_rect(cx - s * 0.14, cy + s * 0.3, s * 0.28, s * 0.4)


def printed_mark(ctx: Canvas, cx: float, cy: float, size: float, kind: str, small: bool = False) -> None:
    """A printed +1/-1 or ? on the map: large on an empty hex, a small badge on a drawn one."""
    if kind == "plain":
        return
    colour = PRINTED_POWER if kind == "power" else PRINTED_QUESTION
    text = "±1" if kind == "power" else "?"
    ctx.text_align = "center"
    ctx.text_baseline = "middle"
    if small:
        bx, by, r = cx + size * 0.5, cy - size * 0.42, size * 0.3
        ctx.fill_style = theme.PAPER
        ctx.fill_circle(bx, by, r)
        ctx.stroke_style = colour
        ctx.line_width = 1.4
        ctx.stroke_circle(bx, by, r)
        ctx.fill_style = colour
        ctx.font = theme.font(round(size * (0.3 if kind == "power" else 0.42)), theme.FONT_INK, "bold")
        ctx.fill_text(text, bx, by + 0.5)
        return
    ctx.stroke_style = colour
    ctx.line_width = 1.6
    if kind == "power":
        ctx.set_line_dash([3, 2])
    ctx.stroke_circle(cx, cy, size * 0.58)
    ctx.set_line_dash([])
    ctx.fill_style = colour
    ctx.font = theme.font(round(size * (0.5 if kind == "power" else 0.72)), theme.FONT_PRINT, "bold")
    ctx.fill_text(text, cx, cy + 1)


def die_face(ctx: Canvas, x: float, y: float, s: float, value: int, fill: str = "#FFFFFF",
             edge: str = theme.INK, pips: str = theme.INK, dashed: bool = False) -> None:
    """A die of side ``s`` at (x, y) showing ``value`` pips (1–6)."""
    rounded_box(ctx, x, y, s, s, s * 0.16, fill, edge, dashed, dash=(5, 3))
    ctx.fill_style = pips
    for fx, fy in pip_spots(value):
        ctx.fill_circle(x + fx * s, y + fy * s, s * 0.085)


def pip_spots(value: int) -> Sequence[Point]:
    """Where the pips of ``value`` sit on a unit die face."""
    a, m, b = 0.27, 0.5, 0.73
    return {
        1: [(m, m)],
        2: [(a, a), (b, b)],
        3: [(a, a), (m, m), (b, b)],
        4: [(a, a), (b, a), (a, b), (b, b)],
        5: [(a, a), (b, a), (m, m), (a, b), (b, b)],
        6: [(a, a), (b, a), (a, m), (b, m), (a, b), (b, b)],
    }.get(value, [])
