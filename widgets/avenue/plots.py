"""Pictures and short tables for the Avenue notebook's analysis cells (data from ``avenue_review``).

Each function takes the table's game and returns parts for ``sheetkit.widgets.live``: HTML
strings and matplotlib figures. Colour is never the only cue: the bar that happened is also
hatched, and your bar is labelled.
"""

from __future__ import annotations

import html
from typing import Any

from sheetkit.widgets import theme
from sheetkit.widgets.avenue.text import cell_words

from sheetkit.analysis import avenue_review as review
from sheetkit.games.avenue.state import AvenueState

HAPPENED = theme.OKABE_ITO["vermillion"]
OTHER = theme.OKABE_ITO["sky"]


def _pct(p: Any) -> str:
    return f"{float(p) * 100:.1f}%"


def _figure(w: float, h: float) -> Any:
    import matplotlib

    matplotlib.use("Agg", force=False)  # figures become PNGs; no GUI backend needed
    from matplotlib.figure import Figure

    fig = Figure(figsize=(w, h))
    return fig


def round_ends(state: AvenueState) -> list[Any]:
    """How likely each finished round was to end on each card, exact, with what happened marked."""
    rounds = [rd for rd in review.round_ends(state) if rd.finished]
    if not rounds:
        return ["<i>The chart appears when round 1 ends: how likely it was to end on each card.</i>"]
    n = len(rounds)
    fig = _figure(1.9 * max(n, 3), 2.3)
    axes = fig.subplots(1, n, sharey=True, squeeze=False)[0]
    for ax, rd in zip(axes, rounds, strict=True):
        ks = list(rd.dist)
        ps = [float(rd.dist[k]) for k in ks]
        colours = [HAPPENED if k == rd.length else OTHER for k in ks]
        bars = ax.bar(ks, ps, color=colours, width=0.85)
        for k, bar in zip(ks, bars, strict=True):
            if k == rd.length:
                bar.set_hatch("///")
                bar.set_edgecolor("black")
        ax.axvline(float(rd.mean), color="black", linestyle="--", linewidth=0.8)
        ax.set_title(f"Round {rd.round}: {rd.length} cards\nP = {_pct(rd.p_length)}", fontsize=9)
        ax.set_xlabel("cards in the round", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.spines[["top", "right"]].set_visible(False)
    axes[0].set_ylabel("probability", fontsize=8)
    fig.tight_layout()
    lines = [f"Round {rd.round} ended on card <b>{rd.length}</b>: a {_pct(rd.p_length)} chance; it was over "
             f"within {rd.length} cards {_pct(rd.p_at_most)} of the time (mean {float(rd.mean):.2f})."
             for rd in rounds]
    note = ("<div class='sk-small'>Exact: counted from the cards left in the deck, given how long the earlier "
            "rounds were (the deck is never reshuffled). Hatched bar: what happened; dashed line: the mean.</div>")
    return [fig, "<div>" + "<br>".join(lines) + "</div>" + note]


def same_deck(state: AvenueState, bots: tuple[str, ...] = review.SAME_DECK_BOTS) -> list[Any]:
    """Your final score beside each bot playing the same deck alone."""
    if not state.is_terminal():
        return ["<i>Finish the game to see how the bots do on the very same cards.</i>"]
    rows = review.same_deck_scores(state, bots)
    fig = _figure(6.0, 0.45 * len(rows) + 0.8)
    ax = fig.subplots()
    labels = [r["who"] for r in rows][::-1]
    totals = [r["total"] for r in rows][::-1]
    colours = [HAPPENED if r["kind"] == "you" else OTHER for r in rows][::-1]
    bars = ax.barh(labels, totals, color=colours)
    for r, bar in zip(rows[::-1], bars, strict=True):
        if r["kind"] == "you":
            bar.set_hatch("///")
            bar.set_edgecolor("black")
        neg = r["total"] < 0
        ax.text(bar.get_width(), bar.get_y() + bar.get_height() / 2, f"{r['total']} " if neg else f" {r['total']}",
                va="center", ha="right" if neg else "left", fontsize=9)
    ax.axvline(0, color="black", linewidth=0.8)
    lo = min(0, *totals)
    ax.set_xlim(lo - 8 if lo < 0 else 0, max(0, *totals) + 8)
    ax.set_xlabel("final score on this deck", fontsize=9)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    body = "".join(
        f"<tr><td>{html.escape(r['who'])}</td><td>{' '.join(map(str, r['boxes']))}</td>"
        f"<td>{r['castles']['purple']} + {r['castles']['green']}</td><td><b>{r['total']}</b></td></tr>"
        for r in rows)
    table = ("<table class='sk-review'><tr><th>who</th><th>farm boxes</th><th>castles</th><th>total</th></tr>"
             f"{body}</table>")
    return [fig, table]


def hindsight(state: AvenueState, show: int = 6) -> list[Any]:
    """Where the greedy bot would have drawn each of your cards (on your sheet as it was then)."""
    rows = review.greedy_hindsight(state)
    if not rows:
        return ["<i>As you play, each of your moves is compared with the greedy bot's choice.</i>"]
    agree = sum(r["agree"] for r in rows)
    fig = _figure(7.5, 1.9)
    ax = fig.subplots()
    xs = [r["card"] for r in rows]
    gaps = [r["gap"] for r in rows]
    colours = [OTHER if r["agree"] else HAPPENED for r in rows]
    bars = ax.bar(xs, gaps, color=colours)
    for r, bar in zip(rows, bars, strict=True):
        if not r["agree"]:
            bar.set_hatch("///")
            bar.set_edgecolor("black")
    ax.set_xlabel("card", fontsize=8)
    ax.set_ylabel("greedy's\npreference", fontsize=8)
    ax.tick_params(labelsize=7)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    worst = sorted((r for r in rows if not r["agree"]), key=lambda r: -r["gap"])[:show]

    def move(m: Any) -> str:
        return cell_words(*m) if isinstance(m, tuple) else str(m)

    items = "".join(f"<li>Card {r['card']} (road {r['road']}): you {move(r['yours'])}, greedy {move(r['greedy'])}"
                    f" <span class='sk-small'>(greedy's score for its choice: +{r['gap']:g})</span></li>"
                    for r in worst)
    text = (f"<div>You and the greedy bot agreed on <b>{agree}</b> of {len(rows)} cards. "
            "Hatched bars: cards where you chose differently, by how much greedy preferred its own cell "
            "(its one-card-ahead view — not always right!).</div>")
    return [text, fig, f"<ul>{items}</ul>" if items else ""]
