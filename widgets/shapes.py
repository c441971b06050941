"""Drawing primitives the games' art shares (canvas commands only, no game knowledge)."""

from __future__ import annotations

from ipycanvas import Canvas
from sheetkit.widgets import theme


def rounded_box(ctx: Canvas, x: float, y: float, w: float, h: float, r: float, fill: str, edge: str,
                dashed: bool = False, dash: tuple[float, float] = (5, 4)) -> None:
    """A filled box with rounded corners and a 2 px edge (dashed for a face-down or a held card/die)."""
    ctx.begin_path()
    ctx.move_to(x + r, y)
    ctx.arc_to(x + w, y, x + w, y + h, r)
    ctx.arc_to(x + w, y + h, x, y + h, r)
    ctx.arc_to(x, y + h, x, y, r)
    ctx.arc_to(x, y, x + w, y, r)
    ctx.close_path()
    ctx.fill_style = fill
    ctx.fill()
    ctx.stroke_style = edge
    ctx.line_width = 2.0
    if dashed:
        ctx.set_line_dash(list(dash))
    ctx.stroke()
    if dashed:
        ctx.set_line_dash([])


def ring(ctx: Canvas, cx: float, cy: float, r: float, colour: str, width: float = 3.0, dashed: bool = False) -> None:
    """A circle's outline round (cx, cy): a suggested or a past move on a sheet (dashed: only a suggestion)."""
    ctx.stroke_style = colour
    ctx.line_width = width
    if dashed:
        ctx.set_line_dash([max(3.0, r * 0.3), max(2.0, r * 0.2)])
    ctx.begin_path()
    ctx.arc(cx, cy, r, 0, 6.283185307179586)
    ctx.stroke()
    if dashed:
        ctx.set_line_dash([])


def outlined_polygon(ctx: Canvas, points: list[tuple[float, float]], fill: str, edge: str, width: float,
                     join: str = "round") -> None:
    """A polygon filled with ``fill``, then outlined in ``edge`` (a printed barn, a flag on paper)."""
    ctx.fill_style = fill
    ctx.fill_polygon(points)
    ctx.stroke_style = edge
    ctx.line_width = width
    ctx.line_join = join
    ctx.stroke_polygon(points)


def icon_pen(ctx: Canvas, ink: str, fill: str, width: float) -> None:
    """Ready the pen for an icon: strokes in ``ink``, fills in ``fill``, round line ends and corners."""
    ctx.stroke_style = ink
    ctx.fill_style = fill
    ctx.line_cap = "round"
    ctx.line_join = "round"
    ctx.line_width = width


def blank_paper(ctx: Canvas, width: float, height: float) -> None:
    """A sheet's paper, with the pen left ready for printed words: print ink, left-aligned on the baseline."""
    ctx.fill_style = theme.PAPER
    ctx.fill_rect(0, 0, width, height)
    ctx.fill_style = theme.PRINT
    ctx.text_baseline = "alphabetic"
    ctx.text_align = "left"


def printed_title(ctx: Canvas, name: str, subtitle: str, x: float, y: float, subtitle_x: float) -> None:
    """A sheet's printed heading: the game's name in bold capitals, then the sheet's own title in italics."""
    ctx.font = theme.font(17, theme.FONT_PRINT, "bold")
    ctx.fill_text(name, x, y)
    ctx.font = theme.font(12, theme.FONT_PRINT, "italic")
    ctx.fill_text(subtitle, subtitle_x, y)
