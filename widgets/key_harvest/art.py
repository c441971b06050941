"""Key Harvest's printed spaces, field tiles, crop counters and workers, drawn with canvas primitives.

Every crop is a colour AND a symbol (grapes, hop cone, apple, carrot, ear of wheat), so a board
reads in greyscale too. A harvested tile is pale and hatched with its icon faded; a worker is a
square tile showing its number (farmhands dark, townsfolk blue with a roof). Every function draws
on an ipycanvas ``Canvas`` in CSS pixels and sets every style it uses.
"""

from __future__ import annotations

import functools

from ipycanvas import Canvas
from sheetkit.widgets import theme
from sheetkit.widgets.geometry import Point, clip_segment, hex_points
from sheetkit.widgets.shapes import icon_pen, rounded_box
from sheetkit.widgets.theme import tint

from sheetkit.games.key_harvest.crops import CROPS

# Crop colours (Okabe–Ito based) and a darker ink for each crop's icon.
CROP_COLOUR = ("#A8508C", "#8C6A3F", "#E69F00", "#009E73", "#F0E442")
CROP_INK = ("#5E1F4C", "#4A3519", "#7A4F00", "#0B4F3B", "#6E6410")
CROP_SYMBOL = ("grapes", "hop cone", "apple", "carrot", "ear of wheat")
FARMHAND = "#3B3F55"
TOWNSFOLK = theme.OKABE_ITO["blue"]
LEGAL_FILL = "rgba(86, 180, 233, 0.30)"     # sky: where the chosen thing may go
LEGAL_RING = "rgba(0, 114, 178, 0.85)"      # and a dashed ring: a second cue besides the tint
GROUP_FILL = "rgba(230, 159, 0, 0.30)"      # orange: the group a harvest would flip
CHOSEN_RING = theme.OKABE_ITO["vermillion"]  # the registry tile you are bidding for
# Paper at 0.66 over an up tile's fill (its colour 0.35 towards paper) leaves it 0.78 towards paper: pale.
HARVEST_COVER = "rgba({}, {}, {}, 0.66)".format(*(int(theme.PAPER[i:i + 2], 16) for i in (1, 3, 5)))


def printed_space(ctx: Canvas, cx: float, cy: float, size: float, code: str, crop: int) -> None:
    """An empty space of the country board: its outline, its code and a faint print of its crop."""
    ctx.fill_style = theme.PAPER_SHADE
    ctx.fill_polygon(hex_points(cx, cy, size - 0.6))
    ctx.fill_style = theme.PAPER
    ctx.fill_polygon(hex_points(cx, cy, size - 2.0))
    ctx.stroke_style = theme.GRID
    ctx.line_width = 1
    ctx.stroke_polygon(hex_points(cx, cy, size))
    crop_icon(ctx, cx, cy + size * 0.18, size * 0.34, crop, colour=tint(CROP_INK[crop], 0.55),
              fill=tint(CROP_COLOUR[crop], 0.7))
    code_label(ctx, cx, cy - size * 0.5, size, code, theme.FAINT)


def code_label(ctx: Canvas, cx: float, cy: float, size: float, code: str, colour: str) -> None:
    """A space's code, small, centred at (cx, cy)."""
    ctx.fill_style = colour
    ctx.text_align = "center"
    ctx.text_baseline = "middle"
    ctx.font = theme.font(max(7, round(size * 0.36)), theme.FONT_INK, "bold")
    ctx.fill_text(code, cx, cy)


def field_tile(ctx: Canvas, cx: float, cy: float, size: float, code: str, crop: int, harvested: bool,
               show_code: bool = True) -> None:
    """A field tile on a space: crop colour and icon; the harvested side is the same tile under a pale, hatched
    cover (``harvest_cover``)."""
    pts = hex_points(cx, cy, size - 1.2)
    ctx.fill_style = tint(CROP_COLOUR[crop], 0.35)
    ctx.fill_polygon(pts)
    ctx.stroke_style = CROP_INK[crop]
    ctx.line_width = 1.6
    ctx.stroke_polygon(pts)
    crop_icon(ctx, cx, cy + size * 0.18, size * 0.38, crop)
    if harvested:
        harvest_cover(ctx, cx, cy, size, code if show_code else None, crop)
    elif show_code:
        code_label(ctx, cx, cy - size * 0.5, size, code, theme.INK)


def harvest_cover(ctx: Canvas, cx: float, cy: float, size: float, code: str | None, crop: int) -> None:
    """The harvested side, drawn over the tile's up side: paper at two thirds (the colour fades), diagonal
    hatching and a dashed edge (two cues besides the colour), the crop's symbol faded and the code on top.

    Over the up side rather than instead of it, a harvest draws this alone: nothing erased, no icon again.
    """
    ctx.fill_style = HARVEST_COVER
    ctx.fill_polygon(hex_points(cx, cy, size - 0.2))          # over the up side's edge too
    _hatch(ctx, cx, cy, size - 1.2, tint(CROP_INK[crop], 0.45))
    ctx.stroke_style = tint(CROP_INK[crop], 0.35)
    ctx.line_width = 1.2
    ctx.set_line_dash([3, 2])
    ctx.stroke_polygon(hex_points(cx, cy, size - 1.2))
    ctx.set_line_dash([])
    # the crop's symbol again on top, faded, over its own faint copy: it still names the crop in greyscale
    crop_icon(ctx, cx, cy + size * 0.18, size * 0.38, crop, colour=tint(CROP_INK[crop], 0.4),
              fill=tint(CROP_COLOUR[crop], 0.55))
    if code is not None:
        code_label(ctx, cx, cy - size * 0.5, size, code, theme.PRINT)


def _hatch(ctx: Canvas, cx: float, cy: float, size: float, colour: str) -> None:
    """Diagonal lines inside the hex: the harvested side's second cue.

    The lines are cut to the hex here, not by a canvas clip, and stroked as one path: in Chromium's software
    canvas a clip costs more than the lines themselves.
    """
    ctx.stroke_style = colour
    ctx.line_width = 1
    ctx.begin_path()
    for (ax, ay), (bx, by) in _hatch_lines(size):
        ctx.move_to(cx + ax, cy + ay)
        ctx.line_to(cx + bx, cy + by)
    ctx.stroke()


@functools.lru_cache(maxsize=16)
def _hatch_lines(size: float) -> tuple[tuple[Point, Point], ...]:
    """The hatch's segments for a hex of radius ``size`` centred at the origin (the same for every tile)."""
    hexagon = hex_points(0.0, 0.0, size - 0.5)    # half a line width in: a line's square end stays inside
    step = max(4.0, size / 4)
    out = []
    k = -2 * size
    while k < 2 * size:
        part = clip_segment((k - size, size), (k + size, -size), hexagon)
        if part is not None:
            out.append(part)
        k += step
    return tuple(out)


def crop_icon(ctx: Canvas, cx: float, cy: float, s: float, crop: int, colour: str | None = None,
              fill: str | None = None) -> None:
    """The crop's symbol, about ``2 s`` across, centred at (cx, cy): grapes, hop cone, apple, carrot, wheat."""
    ink = colour or CROP_INK[crop]
    body = fill or CROP_COLOUR[crop]
    icon_pen(ctx, ink, body, max(1.0, s * 0.14))
    [_grapes, _hops, _apple, _carrot, _wheat][crop](ctx, cx, cy, s, ink, body)


def _grapes(ctx: Canvas, cx: float, cy: float, s: float, ink: str, body: str) -> None:
    r = s * 0.26
    for dx, dy in ((-0.5, -0.35), (0.0, -0.35), (0.5, -0.35), (-0.25, 0.1), (0.25, 0.1), (0.0, 0.55)):
        ctx.fill_style = body
        ctx.fill_circle(cx + dx * s, cy + dy * s, r)
        ctx.stroke_circle(cx + dx * s, cy + dy * s, r)
    ctx.stroke_line(cx, cy - s * 0.62, cx + s * 0.2, cy - s * 0.95)


def _hops(ctx: Canvas, cx: float, cy: float, s: float, ink: str, body: str) -> None:
    cone = [(cx, cy - s * 0.9), (cx + s * 0.55, cy - s * 0.1), (cx, cy + s * 0.9), (cx - s * 0.55, cy - s * 0.1)]
    ctx.fill_polygon(cone)
    ctx.stroke_polygon(cone)
    for f in (-0.35, 0.1, 0.5):   # overlapping bracts: chevrons across the cone
        y = cy + s * f
        w = s * 0.5 * (1 - abs(f) * 0.6)
        ctx.stroke_line(cx - w, y - s * 0.15, cx, y + s * 0.05)
        ctx.stroke_line(cx, y + s * 0.05, cx + w, y - s * 0.15)


def _apple(ctx: Canvas, cx: float, cy: float, s: float, ink: str, body: str) -> None:
    ctx.fill_circle(cx, cy + s * 0.15, s * 0.7)
    ctx.stroke_circle(cx, cy + s * 0.15, s * 0.7)
    ctx.stroke_line(cx, cy - s * 0.5, cx + s * 0.12, cy - s * 0.9)
    leaf = [(cx + s * 0.1, cy - s * 0.7), (cx + s * 0.55, cy - s * 0.95), (cx + s * 0.45, cy - s * 0.6)]
    ctx.fill_style = ink
    ctx.fill_polygon(leaf)


def _carrot(ctx: Canvas, cx: float, cy: float, s: float, ink: str, body: str) -> None:
    root = [(cx - s * 0.45, cy - s * 0.45), (cx + s * 0.45, cy - s * 0.45), (cx, cy + s * 0.95)]
    ctx.fill_polygon(root)
    ctx.stroke_polygon(root)
    ctx.stroke_line(cx - s * 0.2, cy - s * 0.05, cx + s * 0.05, cy - s * 0.05)
    for dx in (-0.3, 0.0, 0.3):   # the green top: three strokes
        ctx.stroke_line(cx, cy - s * 0.45, cx + dx * s, cy - s * 0.95)


def _wheat(ctx: Canvas, cx: float, cy: float, s: float, ink: str, body: str) -> None:
    ctx.stroke_line(cx, cy + s * 0.95, cx, cy - s * 0.9)
    for k in range(3):
        y = cy - s * (0.55 - 0.35 * k)
        for side in (-1, 1):
            grain = [(cx, y + s * 0.2), (cx + side * s * 0.45, y - s * 0.05), (cx + side * s * 0.2, y - s * 0.3)]
            ctx.fill_style = body
            ctx.fill_polygon(grain)
            ctx.stroke_polygon(grain)


def worker_tile(ctx: Canvas, cx: float, cy: float, size: float, value: int, townsfolk: bool, letter: str = "",
                faded: bool = False) -> None:
    """A worker tile: a rounded square with its number (a townsfolk has a roof notch and a blue edge)."""
    half = size * 0.5
    fill = TOWNSFOLK if townsfolk else FARMHAND
    if faded:
        fill = tint(fill, 0.65)
    rounded_box(ctx, cx - half, cy - half, size, size, size * 0.18, fill, theme.PAPER)
    if townsfolk:
        ctx.fill_style = theme.PAPER
        ctx.fill_polygon([(cx - half * 0.55, cy - half * 0.55), (cx, cy - half * 0.95),
                          (cx + half * 0.55, cy - half * 0.55)])
    ctx.fill_style = theme.PAPER
    ctx.text_align = "center"
    ctx.text_baseline = "middle"
    ctx.font = theme.font(round(size * 0.55), theme.FONT_INK, "bold")
    ctx.fill_text(str(value), cx, cy + size * 0.06)
    if letter:
        ctx.font = theme.font(max(7, round(size * 0.26)), theme.FONT_INK, "bold")
        ctx.fill_text(letter, cx, cy + half * 0.72)


def counter_chip(ctx: Canvas, x: float, y: float, h: float, crop: int, n: int) -> float:
    """``n`` counters of a crop as one chip: the icon in its colour and '×n'; returns the width used."""
    crop_icon(ctx, x + h * 0.5, y + h * 0.5, h * 0.42, crop)
    ctx.fill_style = theme.INK
    ctx.text_align = "left"
    ctx.text_baseline = "middle"
    ctx.font = theme.font(round(h * 0.8), theme.FONT_INK, "bold")
    ctx.fill_text(f"×{n}", x + h + 1, y + h * 0.55)
    return h + 6 + 7 * len(str(n)) + 4


def crop_name(crop: int) -> str:
    """The crop's name (for labels beside icons)."""
    return CROPS[crop]
