"""Tables and a small plot for the Key Harvest notebook's live analysis cells.

The numbers come from ``sheetkit.analysis.key_harvest``; this module only lays them out. Colour
is never the only cue: each player's curve has its own marker, and "now" is a filled marker.
"""

from __future__ import annotations

import html
from typing import Any

from sheetkit.widgets import theme

from sheetkit.analysis.key_harvest import group_rows, split_curve, tile_table

MARKERS = ("o", "s", "^", "D")
COLOURS = (theme.OKABE_ITO["vermillion"], theme.OKABE_ITO["blue"], theme.OKABE_ITO["green"],
           theme.OKABE_ITO["purple"])
_CSS = ("<style>.sk-khan td, .sk-khan th { padding: 2px 8px; border-bottom: 1px solid #ddd; text-align: center; }"
        ".sk-khan td.sk-best { font-weight: bold; background: #FFF6D8; } .sk-khan { border-collapse: collapse; "
        "font-size: 13px; }</style>")


def tile_worth_html(state: Any) -> str:
    """Registry and store tiles × players: the points each tile would add to each player's score now."""
    rows = tile_table(state)
    if not rows:
        return "<i>No tile is on offer right now.</i>"
    names = "".join(f"<th>{html.escape(n)}</th>" for n in state.players)
    out = [f"{_CSS}<table class='sk-khan sk-tile-worth'><tr><th>tile</th><th>where</th><th>bid</th>{names}</tr>"]
    for r in rows:
        top = max(r.worth)
        cells = "".join(f"<td class='{'sk-best' if w == top and w > 0 else ''}'>{w:+d}</td>" for w in r.worth)
        price = "—" if r.price is None else str(r.price)
        out.append(f"<tr data-code='{r.code}'><td><b>{r.code}</b></td><td>{html.escape(r.where)}</td>"
                   f"<td>{price}</td>{cells}</tr>")
    out.append("</table><div class='sk-small'>Points a tile adds to the groups (1 per tile of the largest, 2 per "
               "tile of the second largest), less a worker it would displace. Bold: whom it helps most.</div>")
    return "".join(out)


def groups_html(state: Any) -> str:
    """Each player's largest and second groups, the tiles scoring nothing, and the best the same tiles could do."""
    out = [f"{_CSS}<table class='sk-khan sk-groups'><tr><th>player</th><th>tiles</th><th>largest</th>"
           "<th>second</th><th>scoring nothing</th><th>group points</th><th>best split</th></tr>"]
    for g in group_rows(state):
        out.append(f"<tr><td>{html.escape(g.player)}</td><td>{g.tiles}</td><td>{g.largest}</td><td>{g.second}</td>"
                   f"<td>{g.wasted}</td><td>{g.points}</td><td>{g.best}</td></tr>")
    out.append("</table>")
    return "".join(out)


def tradeoff_figure(state: Any) -> str:
    """Group points of each player's tiles split into two groups, against the size of the second one (SVG).

    Drawn as inline SVG, not with matplotlib: this panel is on the page from the start, and importing and
    running matplotlib there took about a third of the Key Harvest page's load (docs/performance.md).
    """
    prm = state.params
    rows = group_rows(state)
    curves = [split_curve(g.tiles, prm.largest_mult, prm.second_mult) for g in rows]
    x_max = max([1] + [b for c in curves for b, _ in c] + [g.second for g in rows])
    y_max = max([1] + [v for c in curves for _, v in c] + [g.points for g in rows])
    y_top = _nice_ceiling(y_max)
    left, right, top, bottom, width, height = 46, 410, 26, 206, 560, 250

    def at(x: float, y: float) -> str:
        return f"{left + (right - left) * x / x_max:.1f},{bottom - (bottom - top) * y / y_top:.1f}"

    out = [f"<svg class='sk-tradeoff' role='img' viewBox='0 0 {width} {height}' width='{width}' "
           f"style='max-width: 100%; height: auto; font-family: {html.escape(theme.FONT_INK)}' "
           "xmlns='http://www.w3.org/2000/svg'><title>Group points against the second group's size</title>",
           f"<text x='{width / 2}' y='14' font-size='11' text-anchor='middle' fill='{theme.INK}'>Two big groups beat "
           "one: open marker = same tiles split so, filled = now</text>",
           f"<path d='M{left},{top} V{bottom} H{right}' fill='none' stroke='{theme.PRINT}'/>"]
    for k in range(0, x_max + 1, max(1, x_max // 8)):
        out.append(f"<text x='{at(k, 0).split(',')[0]}' y='{bottom + 13}' font-size='10' text-anchor='middle' "
                   f"fill='{theme.PRINT}'>{k}</text>")
    for k in range(0, y_top + 1, max(1, y_top // 5)):
        out.append(f"<text x='{left - 5}' y='{float(at(0, k).split(',')[1]) + 3:.1f}' font-size='10' "
                   f"text-anchor='end' fill='{theme.PRINT}'>{k}</text>")
    out.append(f"<text x='{(left + right) / 2}' y='{height - 6}' font-size='11' text-anchor='middle' "
               f"fill='{theme.INK}'>tiles in the second largest group</text>"
               f"<text transform='translate(12 {(top + bottom) / 2}) rotate(-90)' font-size='11' "
               f"text-anchor='middle' fill='{theme.INK}'>group points</text>")
    for p, (g, curve) in enumerate(zip(rows, curves, strict=True)):
        colour, shape = COLOURS[p % 4], MARKERS[p % 4]
        out.append(f"<polyline points='{' '.join(at(b, v) for b, v in curve)}' fill='none' stroke='{colour}'/>")
        out += [_marker(shape, at(b, v), 3, colour, "white") for b, v in curve]
        out.append(_marker(shape, at(g.second, g.points), 6, colour, colour))
        y = top + 8 + 18 * p
        out.append(_marker(shape, f"{right + 22},{y}", 4, colour, "white") +
                   f"<text x='{right + 32}' y='{y + 4}' font-size='11' fill='{theme.INK}'>"
                   f"{html.escape(g.player)}: {g.tiles} tiles</text>")
    out.append("</svg>")
    return "".join(out)


def _nice_ceiling(y: int) -> int:
    """The axis's top: ``y`` rounded up to a multiple of 5 (of 1 below 5)."""
    return y if y < 5 else -(-y // 5) * 5


def _marker(shape: str, xy: str, r: float, stroke: str, fill: str) -> str:
    """A player's marker at "x,y": circle, square, triangle or diamond, ``r`` from its centre to its edge."""
    x, y = (float(v) for v in xy.split(","))
    style = f"fill='{fill}' stroke='{stroke}' stroke-width='1.2'"
    if shape == "o":
        return f"<circle cx='{x:.1f}' cy='{y:.1f}' r='{r}' {style}/>"
    if shape == "s":
        return f"<rect x='{x - r:.1f}' y='{y - r:.1f}' width='{2 * r}' height='{2 * r}' {style}/>"
    corners = [(x, y - r), (x + r, y + r * 0.8), (x - r, y + r * 0.8)] if shape == "^" else \
        [(x, y - r * 1.2), (x + r, y), (x, y + r * 1.2), (x - r, y)]
    return f"<polygon points='{' '.join(f'{a:.1f},{b:.1f}' for a, b in corners)}' {style}/>"
