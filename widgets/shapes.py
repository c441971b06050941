"""Drawing primitives the games' art shares (canvas commands only, no game knowledge)."""

from __future__ import annotations

from ipycanvas import Canvas


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
