"""Pictures and tables for the lesson ``notebooks/lessons/avenue_cards.ipynb`` (numbers: ``analysis.lessons``).

Every function returns a ``Panel`` (tables and figures in one output) or a live widget; exact answers are
filled sky-blue bars, the engine's seeded deals are vermillion markers — two cues, not just two colours.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from sheetkit.widgets.lessons.common import (
    EXACT,
    SIMULATED,
    Markup,
    Panel,
    axes_on,
    figure,
    frac,
    live_figure,
    pct,
    table,
)

from sheetkit.analysis import lessons
from sheetkit.analysis.exact import avenue_round_length, draws_until_kth, joint_round_lengths
from sheetkit.games.avenue import PRESETS

STANDARD = PRESETS["standard"]
DEALS = 3000  # seeded engine games behind every "simulated" column (about 2.5 s, once per kernel)
OK = Markup("<span title='equal, as fractions'>✓ equal</span>")


def _deals() -> lessons.AvenueDeals:
    return lessons.engine_avenue_deals(DEALS, 0)


def round_one(show: int = 13) -> Panel:
    """Round 1's length: counted card by card, the closed form, and the engine's deals."""
    counted = draws_until_kth(4, 22, 42)
    closed = lessons.negative_hypergeometric(4, 22, 42)
    sim = _deals().lengths[:, 0]
    n = len(sim)
    fig, ax = figure(7.5, 2.8)
    ks = list(counted)
    ax.bar(ks, [float(counted[k]) for k in ks], color=EXACT, width=0.8, label="exact (counted)")
    freq = [float((sim == k).mean()) for k in ks]
    ax.plot(ks, freq, "D", color=SIMULATED, markersize=5, label=f"engine, {n:,} seeded deals")
    ax.axvline(float(counted.mean()), color="black", linestyle="--", linewidth=1, label="mean 172/23 ≈ 7.48")
    ax.set_xlim(3, 19)
    ax.set_xlabel("road cards in round 1 (it ends on the 4th yellow)", fontsize=9)
    ax.set_ylabel("probability", fontsize=9)
    ax.legend(fontsize=8, frameon=False)
    rows = []
    for k in ks[:show]:
        se = math.sqrt(float(counted[k]) * (1 - float(counted[k])) / n)
        rows.append((k, frac(counted[k]), frac(closed[k]), OK if counted[k] == closed[k] else "differs",
                     pct(counted[k]), f"{pct((sim == k).mean())} ± {pct(2 * se)}"))
    rest = Fraction(sum(counted[k] for k in ks[show:]))
    rows.append((f"{ks[show]}+", frac(rest), "", "", pct(rest), pct((sim >= ks[show]).mean())))
    tab = table(["cards", "counted (exact)", "closed form", "", "as %", "engine (± 2 SE)"], rows,
                caption=f"Mean: exact {frac(counted.mean())} ≈ {float(counted.mean()):.3f}; closed form "
                        f"k(N+1)/(K+1) = 4·43/23 = {frac(Fraction(4 * 43, 23))}; the engine's {n:,} deals: "
                        f"{sim.mean():.3f}.")
    return Panel(fig, tab, data={"counted": counted, "closed": closed, "simulated": sim})


def small_deck(k: int = 2, wanted: int = 5, deck: int = 10) -> Panel:
    """On a deck small enough to list every arrangement: enumeration = counting = closed form."""
    listed = lessons.enumerate_round_length(k, wanted, deck)
    counted = draws_until_kth(k, wanted, deck)
    closed = lessons.negative_hypergeometric(k, wanted, deck)
    rows = [(n, frac(listed[n]), frac(counted[n]), frac(closed[n])) for n in listed]
    same = listed == counted == closed
    return Panel(table(["cards", f"listed ({math.comb(deck, wanted)} arrangements)", "counted", "closed form"], rows,
                       caption=f"{deck} cards, {wanted} of them yellow, the round ends on yellow number {k}. "
                               f"All three agree exactly: <b>{same}</b>."),
                 data={"listed": listed, "counted": counted, "closed": closed, "same": same})


def round_two() -> Panel:
    """Round 2 after a short or a long round 1 (exact), with the engine's deals grouped by round 1's length."""
    given = lessons.round_two_given_one(STANDARD)
    lengths = _deals().lengths
    r1, r2 = lengths[:, 0], lengths[:, 1]
    fig, axes = figure(10.5, 3.0, cols=2)
    ax1, ax2 = axes[0]
    ls = [L for L in given if L <= 18]
    ax1.plot(ls, [float(given[L].mean()) for L in ls], "-", color=EXACT, linewidth=2.5,
             label="exact: E[round 2 | round 1]")
    pts = [(L, r2[r1 == L].mean(), r2[r1 == L].std(ddof=1) / math.sqrt((r1 == L).sum()))
           for L in ls if (r1 == L).sum() >= 30]
    ax1.errorbar([p[0] for p in pts], [p[1] for p in pts], yerr=[2 * p[2] for p in pts], fmt="D", color=SIMULATED,
                 markersize=4, capsize=2, label="engine deals (± 2 SE)")
    ax1.axhline(float(avenue_round_length(STANDARD, 2).mean()), color="black",
                linestyle="--", linewidth=1, label="not knowing round 1: 172/23")
    ax1.set_xlabel("cards round 1 took", fontsize=9)
    ax1.set_ylabel("mean cards in round 2", fontsize=9)
    ax1.legend(fontsize=8, frameon=False)
    one, two = avenue_round_length(STANDARD, 1), avenue_round_length(STANDARD, 2)
    ks = list(two)
    ax2.bar(ks, [float(two[k]) for k in ks], color=EXACT, width=0.8, label="round 2, exact")
    ax2.plot(ks, [float(one[k]) for k in ks], "_", color="black", markersize=12, mew=2, label="round 1, exact")
    ax2.plot(ks, [float((r2 == k).mean()) for k in ks], "D", color=SIMULATED, markersize=4, label="round 2, engine")
    ax2.set_xlim(3, 20)
    ax2.set_xlabel("cards in round 2, round 1 unknown", fontsize=9)
    ax2.legend(fontsize=8, frameon=False)
    joint = joint_round_lengths(22, 20, 4, 2)
    m1, m2 = joint.map(lambda t: t[0]).mean(), joint.map(lambda t: t[1]).mean()
    cov = joint.map(lambda t: (t[0] - m1) * (t[1] - m2)).mean()
    corr = float(cov) / (one.stdev() * two.stdev())
    rows = []
    for L in (4, 6, 7, 10, 14, 18):
        sel = r1 == L
        sim = f"{r2[sel].mean():.2f} ({sel.sum()} deals)" if sel.sum() else "–"
        grey = L - 4
        rows.append((L, grey, 20 - grey, frac(given[L].mean()), f"{float(given[L].mean()):.2f}", sim))
    tab = table(["round 1 took", "greys used", "greys left", "E[round 2] exact", "≈", "engine"], rows,
                caption=f"Covariance of the two lengths: {frac(cov)} (correlation {corr:.2f}). Yet round 2 on its "
                        f"own has exactly round 1's distribution: {two == one}.")
    return Panel(fig, tab, data={"given": given, "cov": cov, "same_marginal": two == one})


def round_two_explorer() -> Any:
    """Live: move the slider to say how long round 1 was; round 2's exact distribution redraws."""
    import ipywidgets as W

    given = lessons.round_two_given_one(STANDARD)
    plain = avenue_round_length(STANDARD, 2)
    slider = W.IntSlider(value=7, min=4, max=24, description="round 1 took", continuous_update=False,
                         style={"description_width": "100px"})

    lengths = _deals().lengths

    def draw(L: int, fig: Any) -> None:
        ax = axes_on(fig)
        d = given[L]
        ks = sorted(set(d) | set(plain))
        ax.bar(ks, [float(d.get(k, 0)) for k in ks], color=EXACT, width=0.8, label=f"after a {L}-card round 1")
        same = lengths[lengths[:, 0] == L, 1]
        if len(same) >= 20:   # too few deals with so long a round 1 say nothing
            ax.plot(ks, [float((same == k).mean()) for k in ks], "D", color=SIMULATED, markersize=4,
                    label=f"engine: the {len(same):,} deals whose round 1 took {L}")
        ax.plot(ks, [float(plain.get(k, 0)) for k in ks], "_", color="black", markersize=11, mew=2,
                label="not knowing round 1")
        ax.set_xlim(3, 30)
        ax.set_xlabel("cards in round 2", fontsize=9)
        ax.legend(fontsize=8, frameon=False)

    def note(L: int) -> str:
        d = given[L]
        same = lengths[lengths[:, 0] == L, 1]
        seen = (f" Engine deals with a {L}-card round 1: {len(same):,}, their round 2 averaged {same.mean():.2f}."
                if len(same) >= 20 else f" (Only {len(same)} of {DEALS:,} engine deals had so long a round 1.)")
        return (f"Round 1 used {L - 4} of the 20 grey cards. Round 2 now lasts {frac(d.mean())} ≈ "
                f"{float(d.mean()):.2f} cards on average (not knowing round 1: 172/23 ≈ 7.48); "
                f"P(over within 6 cards) = {pct(d.cdf(6))}." + seen)

    return live_figure(slider, draw, note, size=(6.5, 2.6))


def farm_next() -> Panel:
    """The farm you need: the chance it is the next farm, and that it is scored at all (exact and engine)."""
    farms = _deals().farms
    rows = []
    for r in range(5):
        ex = lessons.farm_chances(r)
        hits = total = scored = 0
        for order in farms:
            for x in "ABCDEF":
                if x not in order[:r]:
                    total += 1
                    hits += order[r] == x
                    scored += x in order[r:5]
        rows.append((r, 6 - r, frac(ex["next"]), pct(hits / total), frac(ex["scored"]), pct(scored / total)))
    return Panel(table(["farms flipped", "farm cards left", "P(yours is next)", "engine", "P(yours is scored)",
                        "engine"], rows,
                       caption="Exact: every order of the farm cards left is equally likely (listed, up to 720 "
                               "orders). Formulas: 1/(cards left) and (rounds left)/(cards left) — one farm card "
                               f"is never flipped. Engine: {len(farms):,} seeded deals, every farm not yet flipped."),
                 data={"rows": rows})


def road_round_one() -> Panel:
    """The road you need: the chance a card of each road number turns up in round 1 (exact and engine)."""
    from sheetkit.games.avenue import ROAD_NAMES

    seen = _deals().round1_roads
    rows = []
    for n in range(1, 7):
        p = lessons.road_in_round_one(n, STANDARD)
        y, g = STANDARD.deck[n - 1]
        rows.append((f"{n}: {ROAD_NAMES[n]}", f"{y} + {g}", frac(p), pct(p), pct(seen[:, n - 1].mean())))
    return Panel(table(["road", "yellow + grey cards", "P(one turns up in round 1)", "≈", "engine"], rows, left=1,
                       caption="Given round 1 lasts L cards, they are 4 yellow and L − 4 grey, each a random set "
                               "of its colour: P(no road n) = C(22−yₙ, 4)/C(22, 4) · C(20−gₙ, L−4)/C(20, L−4), "
                               "averaged over L."),
                 data={"rows": rows})


def peeking(n: int = 300) -> Panel:
    """Three peeking habits on the very same deals: their means, and each one's paired difference."""
    res = lessons.peek_experiment(n, 0)
    labels = lessons.PEEK_LABELS
    rows = []
    diffs = []
    for p, label in enumerate(labels):
        ci = res.ci(seat=p)
        d = res.seat_diff_ci(p, 0) if p else None
        diffs.append(d)
        rows.append((label, f"{ci.estimate:.2f}", f"{ci.low:.2f} to {ci.high:.2f}",
                     "" if d is None else f"{d.estimate:+.2f}",
                     "" if d is None else f"{d.low:+.2f} to {d.high:+.2f}"))
    fig, ax = figure(6.5, 1.9)
    ys = [1, 0]
    for y, d in zip(ys, diffs[1:], strict=True):
        ax.errorbar([d.estimate], [y], xerr=[[d.estimate - d.low], [d.high - d.estimate]], fmt="D",
                    color=SIMULATED, capsize=4, markersize=6)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(ys, [labels[1], labels[2]], fontsize=8)
    ax.set_ylim(-0.6, 1.6)
    ax.set_xlabel("points per game, against never peeking (95% CI, paired)", fontsize=9)
    tab = table(["habit", "mean score", "95% CI", "− never peeks", "95% CI (paired)"], rows, left=1,
                caption=f"The greedy bot's own habits, three seats at one table: {res.games} seeded deals, "
                        f"{res.seconds:.1f} s. Every seat sees the same cards, so the differences are paired.")
    return Panel(tab, fig, data={"results": res, "diffs": diffs})
