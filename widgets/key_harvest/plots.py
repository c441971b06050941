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


def tradeoff_figure(state: Any) -> Any:
    """Group points of each player's tiles split into two groups, against the size of the second one."""
    from matplotlib.figure import Figure

    prm = state.params
    fig = Figure(figsize=(5.6, 2.5))
    ax = fig.subplots()
    for p, g in enumerate(group_rows(state)):
        curve = split_curve(g.tiles, prm.largest_mult, prm.second_mult)
        xs, ys = [b for b, _ in curve], [v for _, v in curve]
        m, c = MARKERS[p % 4], COLOURS[p % 4]
        ax.plot(xs, ys, marker=m, markersize=3, color=c, linewidth=1, markerfacecolor="white",
                label=f"{g.player}: {g.tiles} tiles")
        ax.plot([g.second], [g.points], marker=m, markersize=8, color=c, linestyle="none")
    ax.set_xlabel("tiles in the second largest group", fontsize=8)
    ax.set_ylabel("group points", fontsize=8)
    ax.set_title("Two big groups beat one: open marker = same tiles split so, filled = now", fontsize=8)
    ax.tick_params(labelsize=7)
    ax.spines[["top", "right"]].set_visible(False)
    ax.legend(fontsize=7, frameon=False)
    fig.tight_layout()
    return fig
