"""Pictures and tables for the lesson ``notebooks/lessons/key_harvest_bids.ipynb`` (numbers:
``analysis.key_harvest_lessons``).

Exact answers are filled sky-blue bars, the real engine's seeded games vermillion diamonds; rates from games carry
± 2 standard errors. Every conclusion in words is written from the same numbers the tables show.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from sheetkit.widgets import theme
from sheetkit.widgets.lessons.common import (
    SIMULATED,
    Panel,
    axes_on,
    exact_beside_engine,
    figure,
    frac,
    pct,
    table,
)

from sheetkit.analysis import key_harvest_lessons as kl
from sheetkit.games.key_harvest.crops import CROPS

GAMES = 100        # greedy-bot games per table size behind the bid tables (300 in all, about 4 s once per kernel)
SIZE_GAMES = 40    # games per table size for each bid size of the controlled experiment (about 1.5 s per size)
OPENINGS = 3000    # seeded setups behind the opening-registry check (about 0.6 s)
PLAYERS = (2, 3, 4)
KS = (1, 2, 3, 4, 5)
SEAT_COLOURS = {2: theme.OKABE_ITO["sky"], 3: theme.OKABE_ITO["orange"], 4: theme.OKABE_ITO["purple"]}


def _study(games: int | None = None) -> kl.BidStudy:
    return kl.bid_study(games or GAMES, PLAYERS, 0)


def _pm(p: float, se: float) -> str:
    return f"{pct(p)} ± {pct(2 * se)}"


# ------------------------------------------------------------------------------------ the bag, exactly
def registry_crops(players: int = 3) -> Panel:
    """How many tiles of each crop the opening registry shows: hypergeometric (exact) beside the engine's setups."""
    rolls = kl.engine_openings(OPENINGS, players, 0)
    n = len(rolls)
    fig, axes = figure(10.5, 2.3, cols=5, sharey=True)
    rows = []
    worst = 0.0
    for c, ax in enumerate(axes[0]):
        d = kl.opening_crop(c, players)
        seen = [r[c] for r in rolls]
        xs = list(range(0, 6))
        exact_beside_engine(ax, xs, [float(d.get(x, 0)) for x in xs], [seen.count(x) / n for x in xs],
                            f"{n:,} setups", markersize=4)
        ax.set_title(f"{CROPS[c]}: mean {frac(d.mean())}", fontsize=9)
        ax.set_xlabel(f"{CROPS[c]} tiles on show", fontsize=8)
        some = 1 - d[0]
        p_seen, se = kl.rate_se(sum(x > 0 for x in seen), n)
        gap = abs(p_seen - float(some)) / math.sqrt(float(some * (1 - some)) / n)
        worst = max(worst, gap)
        rows.append((CROPS[c], kl.crop_tiles()[c], frac(d.mean()), f"{float(d.mean()):.3f}", f"{sum(seen) / n:.3f}",
                     pct(some), _pm(p_seen, se), f"{gap:.1f}"))
    axes[0][0].set_ylabel("probability", fontsize=9)
    axes[0][0].set_ylim(0, 0.58)  # headroom for the legend above the bars
    axes[0][-1].legend(fontsize=7, frameon=False, loc="upper right")
    tab = table(["crop", "tiles in the game", "E[on show]", "≈", "engine", "P(at least one)", "engine (± 2 SE)",
                 "gap in SE"], rows, left=1,
                caption=f"{players} players: after the {players} starting pairs ({2 * players} tiles) leave the bag, "
                        f"the registry is 6 of the T = {56 - 2 * players} tiles left, all choices equally likely "
                        "(an event drawn at setup goes back), so the count of one crop is hypergeometric — "
                        "averaged exactly over every choice of starting pairs. Engine: the setup of "
                        f"{n:,} seeded games. Largest gap: {worst:.1f} standard errors.")
    return Panel(fig, tab, data={"players": players, "exact": [kl.opening_crop(c, players) for c in range(5)],
                                 "openings": rolls, "worst_se": worst})


def next_draws(draws: tuple[int, ...] = (1, 2, 4, 6)) -> Panel:
    """The chance the next d draws from the bag bring a tile of each crop — exact per game, beside the games."""
    openings = _study().openings
    rows = []
    checks = []
    for c in range(len(CROPS)):
        row: list[Any] = [CROPS[c]]
        for d in draws:
            r = kl.next_draws_check(openings, c, d)
            checks.append(r)
            row += [pct(r["exact"]), _pm(r["seen"], r["se"])]
        rows.append(row)
    head = ["crop"] + [h for d in draws for h in (f"next {d}: exact", "games (± 2 SE)")]
    worst = max(abs(r["seen"] - float(r["exact"])) / r["se"] for r in checks if r["se"] > 0)
    tab = table(head, rows, left=1,
                caption="After setup you see the registry and every board; the rest of the bag — R items, field "
                        "tiles and events — is shuffled. If m of them are tiles of your crop, the chance the next d "
                        "draws bring at least one is 1 − C(R−m, d)/C(R, d) (the same count as a card game). R and m "
                        f"differ from game to game: the exact column averages each game's own fraction over "
                        f"{len(openings):,} seeded games (2–4 players); the games column is how often it happened "
                        f"in them. Largest gap: {worst:.1f} standard errors.")
    return Panel(tab, data={"checks": checks, "worst_se": worst})


# ------------------------------------------------------------------------------------ bids, simulated
def match_rates(games: int | None = None) -> Panel:
    """How often a bid of k counters is bought by another player, and how often its owner claims it."""
    study = _study(games)
    rows = kl.match_rows(study.fates, ks=(1, 2, 3))
    fig, axes = figure(10.5, 2.8, cols=2)
    for j, (key, title) in enumerate((("matched", "bought by another player"), ("claimed", "claimed by its owner"))):
        ax = axes[0][j]
        labels = [r["label"] for r in rows if r["players"] == PLAYERS[0]]
        for i, n in enumerate(PLAYERS):
            sel = [r for r in rows if r["players"] == n]
            xs = [x + (i - 1) * 0.26 for x in range(len(sel))]
            ax.bar(xs, [r[f"{key}_rate"] for r in sel], width=0.24, color=SEAT_COLOURS[n], label=f"{n} players",
                   yerr=[2 * r[f"{key}_se"] for r in sel], capsize=2, error_kw={"linewidth": 0.8})
        ax.set_xticks(range(len(labels)), labels)
        ax.set_xlabel("counters in the bid", fontsize=9)
        ax.set_title(f"share of bids {title}", fontsize=9)
        ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    axes[0][0].legend(fontsize=8, frameon=False)
    body = [(r["players"], r["label"], r["bids"], *(r[o] for o in kl.OUTCOMES), _pm(r["matched_rate"], r["matched_se"]),
             _pm(r["claimed_rate"], r["claimed_se"])) for r in rows]
    tab = table(["players", "bid", "bids", "matched", "claimed", "notary", "lawyer", "deadline", "left",
                 "matched (± 2 SE)", "claimed (± 2 SE)"], body,
                caption=f"Every bid of {games or GAMES} seeded games per table size, all seats the greedy bot. "
                        "Each bid ends one way: " + "; ".join(f"<b>{o}</b> — {w}" for o, w in kl.OUTCOME_WORDS.items())
                        + ". The six counts add up to the bids.")
    return Panel(fig, tab, data={"rows": rows, "games": games or GAMES})


def matched_value(games: int | None = None) -> Panel:
    """When a bid is matched: the counters its owner gained against the tile it lost, in points."""
    study = _study(games)
    rows = []
    out = {}
    for n in (*PLAYERS, None):
        w = kl.matched_worth(study.of(n), study.counters_per_point)
        out[n] = w
        if not w["n"]:
            rows.append((f"{n} players" if n else "all", 0, "–", "–", "–", "–", "–", "–"))
            continue
        rows.append((f"{n} players" if n else "all", w["n"], f"{w['counters'][0]:.2f}",
                     f"+{w['gained'][0]:.2f}", f"−{w['lost'][0]:.2f}", f"{w['net'][0]:+.2f} ± {2 * w['net'][1]:.2f}",
                     pct(w["owner_ahead"], 0), f"{w['buyer_net'][0]:+.2f} ± {2 * w['buyer_net'][1]:.2f}"))
    tab = table(["table", "matched bids", "counters", "owner: counters (pts)", "owner: tile lost (pts)",
                 "owner net (± 2 SE)", "owner ahead", "buyer net (± 2 SE)"], rows, left=1,
                caption=f"In points at the moment of the sale. The owner keeps the bid and is paid as much again: "
                        f"k counters more than before bidding, worth k/{study.counters_per_point} points (1 point per "
                        f"{study.counters_per_point} counters owned). It loses a tile worth what the tile would have "
                        "added to its two largest groups then (less a worker it would have displaced). The buyer "
                        "gets that tile's worth to it and pays k counters.")
    return Panel(tab, data=out)


def bid_sizes(games: int | None = None) -> Panel:
    """The controlled experiment: one seat always bids exactly k counters against greedy bots, k = 1..5."""
    g = games or SIZE_GAMES
    runs = kl.bid_sizes(KS, g, PLAYERS, 0)
    fig, ax = figure(7.0, 2.6)
    rows = []
    gaps = {}
    for k, st in runs.items():
        mine = st.of(owner=0)
        m, m_se = kl.rate_se(sum(f.outcome == "matched" for f in mine), len(mine))
        c, _ = kl.rate_se(sum(f.outcome == "claimed" for f in mine), len(mine))
        gap = kl.seat_gap(st)
        gaps[k] = gap
        per_game = len(mine) / len(st.scores)
        rows.append((k, len(mine), f"{per_game:.1f}", _pm(m, m_se), pct(c), f"{gap[0]:+.1f} ± {2 * gap[1]:.1f}"))
    ax.errorbar(list(runs), [gaps[k][0] for k in runs], yerr=[2 * gaps[k][1] for k in runs], fmt="D-",
                color=SIMULATED, capsize=3, markersize=5, label="the k-bidder − the greedy bots' mean (± 2 SE)")
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(list(runs))
    ax.set_xlabel("counters in every bid of the k-bidder", fontsize=9)
    ax.set_ylabel("score difference", fontsize=9)
    ax.legend(fontsize=8, frameon=False)
    tab = table(["k", "its bids", "bids a game", "matched (± 2 SE)", "claimed", "score vs greedy (± 2 SE)"], rows,
                caption=f"Seat 0 is the greedy bot except that every bid it makes is exactly k counters; the other "
                        f"seats are greedy bots. {g} seeded games at each of 2, 3 and 4 players, the same deals for "
                        "every k; the score difference is seat 0's score minus the others' mean, per game.")
    return Panel(fig, tab, data={"runs": runs, "gaps": gaps, "games": g})


def bid_explorer(games: int | None = None, more: int = 200) -> Any:
    """Live: choose the bid size k (and, for sharper numbers, more games); the match rate and the k-bidder's
    score redraw in one ipympl figure, by player count. Each (k, games) is played once per kernel."""
    import ipywidgets as W
    from ipympl.backend_nbagg import new_figure_manager_given_figure
    from matplotlib.figure import Figure

    few = games or SIZE_GAMES
    slider = W.IntSlider(value=2, min=KS[0], max=KS[-1], description="bid size k", continuous_update=False,
                         style={"description_width": "90px"})
    size = W.ToggleButtons(options=[(f"{few} games", few), (f"{more} games", more)], value=few,
                           description="per table", style={"description_width": "70px", "button_width": "90px"},
                           tooltip=f"{more} games per table size take about {more * 3 // 100} s for each k")
    fig = Figure(figsize=(8.5, 2.6))
    canvas = new_figure_manager_given_figure(id(fig), fig).canvas
    canvas.header_visible = canvas.footer_visible = canvas.resizable = False
    canvas.toolbar_position = "right"
    words = W.HTML()

    def draw(k: int, g: int) -> None:
        st = kl.fixed_bid_study(k, g, PLAYERS, 0)
        ax1, ax2 = axes_on(fig, cols=2)[0]
        for i, n in enumerate(PLAYERS):
            mine = st.of(n, 0)
            p, se = kl.rate_se(sum(f.outcome == "matched" for f in mine), len(mine))
            ax1.bar(i, p, yerr=2 * se, color=SEAT_COLOURS[n], capsize=3, width=0.6)
            m, mse, _ = kl.seat_gap(st, n)
            ax2.bar(i, m, yerr=2 * mse, color=SEAT_COLOURS[n], capsize=3, width=0.6)
        for ax in (ax1, ax2):
            ax.set_xticks(range(len(PLAYERS)), [f"{n} players" for n in PLAYERS], fontsize=8)
        ax1.set_ylim(0, 0.08)
        ax1.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
        ax1.set_title(f"its {k}-counter bids bought by another player (± 2 SE)", fontsize=9)
        ax2.axhline(0, color="black", linewidth=0.8)
        ax2.set_ylim(-45, 15)
        ax2.set_title("its score − the greedy bots' mean (± 2 SE)", fontsize=9)
        mine = st.of(owner=0)
        p, se = kl.rate_se(sum(f.outcome == "matched" for f in mine), len(mine))
        gap, gse, n = kl.seat_gap(st)
        words.value = (f"Bidding exactly {k} counter{'s' if k > 1 else ''}: {len(mine):,} bids in {n} games, "
                       f"{pct(p)} ± {pct(2 * se)} of them bought by another player; the bidder scored "
                       f"{gap:+.1f} ± {2 * gse:.1f} points against the greedy bots' mean.")

    def update(_: Any = None) -> None:
        words.value = f"Playing {size.value} games at each table size…"
        draw(slider.value, size.value)
        fig.tight_layout()
        canvas.draw_idle()

    slider.observe(update, "value")
    size.observe(update, "value")
    update()
    box = W.VBox([W.HBox([slider, size]), words, canvas])
    box.add_class("sk-lesson-live")
    return box


# ------------------------------------------------------------------------------------ in plain words
def conclusions(games: int | None = None, with_sizes: bool = True) -> Panel:
    """What the tables say, in sentences a teacher can read out (written from the same numbers)."""
    study = _study(games)
    rows = kl.match_rows(study.fates, ks=(1, 2, 3))
    allk = kl.match_rows(study.fates, ks=(1,))  # every bid pooled per table size ("1+")
    w = kl.matched_worth(study.fates, study.counters_per_point)
    by_k = {k: [r for r in rows if r["k"] == k] for k in (1, 2, 3)}

    def pooled(sel: list[dict[str, Any]], key: str) -> float:
        bids = sum(r["bids"] for r in sel)
        return sum(r[key] for r in sel) / bids if bids else 0.0

    lo, hi = min(r["matched_rate"] for r in allk), max(r["matched_rate"] for r in allk)
    claimed = pooled(allk, "claimed")
    sizes = kl.bid_sizes(KS, SIZE_GAMES, PLAYERS, 0) if with_sizes else None
    lines = [
        f"Between greedy bots, a bid is <b>rarely bought by another player</b>: {pct(lo)} to {pct(hi)} of all bids, "
        f"depending on the number of players; about {pct(claimed, 0)} are claimed by their owner on a later turn.",
        f"<b>Small bids are the ones that get bought</b>: {pct(pooled(by_k[1], 'matched'))} of 1-counter bids, "
        f"{pct(pooled(by_k[2], 'matched'))} of 2-counter bids, {pct(pooled(by_k[3], 'matched'))} of bigger ones. "
        "A buyer pays the whole bid, so a big bid protects the tile.",
        ("<b>More players, more buyers</b>" if all(a["matched_rate"] <= b["matched_rate"] for a, b in
                                                   zip(by_k[1], by_k[1][1:], strict=False)) else "<b>By table size</b>")
        + ": 1-counter bids were bought "
        + ", ".join(f"{pct(r['matched_rate'])} of the time at {r['players']} players" for r in by_k[1]) + ".",
    ]
    if w["n"]:
        net, se = w["net"]
        verdict = ("<b>about even</b>" if abs(net) <= 2 * se else
                   "<b>ahead</b>" if net > 0 else "<b>behind</b>")
        lines.append(
            f"When a bid is bought, its owner gets about {w['gained'][0]:.2f} points of counters and loses a tile "
            f"that would have added {w['lost'][0]:.2f} points: on average it comes out {net:+.2f} ± {2 * se:.2f} "
            f"points — {verdict}. The buyer gains {w['buyer_net'][0]:+.2f}: bots buy only tiles that fit their land.")
    if sizes is not None:
        gap = {k: kl.seat_gap(st) for k, st in sizes.items()}
        per_game = {k: len(st.of(owner=0)) / len(st.scores) for k, st in sizes.items()}
        best = max(sizes, key=lambda k: gap[k][0])
        top = KS[-1]
        lead = "the cheapest bid does best" if best == KS[0] else f"bids of {best} counters do best"
        lines.append(
            f"<b>So what is a bid worth?</b> Against these bots {lead}: a player who always bids {best} "
            f"counter{'s' if best > 1 else ''} scored {gap[best][0]:+.1f} ± {2 * gap[best][1]:.1f} points against the "
            f"others' mean, one who always bids {top} scored {gap[top][0]:+.1f} ± {2 * gap[top][1]:.1f}. Every "
            f"counter on a bid you claim goes to the stock ({study.counters_per_point} counters are a point), and "
            f"big bids empty your screen: {per_game[best]:.1f} bids a game at {best}, {per_game[top]:.1f} at {top}. "
            "A small bid is seldom bought — and when it is, you are paid for it.")
    lines.append("These are bots, not people: people bid to block, bluff and read each other. The numbers say what "
                 "a bid is worth against players who buy only when a tile is worth more to them than its price.")
    html = "<ul class='sk-note'>" + "".join(f"<li>{s}</li>" for s in lines) + "</ul>"
    return Panel(html, data={"lines": lines, "rows": rows, "worth": w})


def exact_mean(players: int, crop: int) -> Fraction:
    """The exact mean number of ``crop`` tiles in the opening registry (a one-line check cell)."""
    return kl.opening_crop(crop, players).mean()
