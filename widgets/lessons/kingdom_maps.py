"""Pictures and tables for the lesson ``notebooks/lessons/kingdom_dice.ipynb`` (numbers: ``analysis.lessons``).

Exact answers are filled sky-blue bars, the real engine's seeded rolls vermillion diamonds.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
from sheetkit.widgets.lessons.common import (
    EXACT,
    SIMULATED,
    Markup,
    Panel,
    axes_on,
    exact_beside_engine,
    figure,
    frac,
    live_figure,
    pct,
    table,
)

from sheetkit.analysis import lessons
from sheetkit.analysis.exact import absorb, distinct_dice, distinct_dice_step, order_statistic, sorted_dice

ROLLS = 6000  # seeded games whose first roll (and criteria) the engine makes (about 0.4 s, once per kernel)
NAMES = ("lowest", "middle", "highest")
OK = Markup("<span title='equal, as fractions'>✓</span>")


def _rolls() -> tuple[Any, Any]:
    return lessons.engine_kingdom_rolls(ROLLS, 0)


def three_dice() -> Panel:
    """Lowest, middle and highest of 3d6: listed (216 rolls), the binomial formula, and the engine's rolls."""
    rolls, _ = _rolls()
    ordered = sorted_dice(3)
    listed = [ordered.map(lambda r, k=k: r[k]) for k in range(3)]
    closed = [order_statistic(3, k + 1) for k in range(3)]
    sim = [rolls.min(axis=1), sorted_col(rolls, 1), rolls.max(axis=1)]
    fig, axes = figure(10.5, 2.6, cols=3, sharey=True)
    for k, ax in enumerate(axes[0]):
        xs = range(1, 7)
        exact_beside_engine(ax, xs, [float(listed[k][x]) for x in xs], [float((sim[k] == x).mean()) for x in xs],
                            f"{len(rolls):,} rolls")
        ax.set_title(f"{NAMES[k]} die: mean {frac(listed[k].mean())} ≈ {float(listed[k].mean()):.2f}", fontsize=9)
        ax.set_xlabel("pips", fontsize=9)
    axes[0][0].set_ylabel("probability", fontsize=9)
    axes[0][0].legend(fontsize=8, frameon=False, loc="upper right")
    rows = []
    for x in range(1, 7):
        row: list[Any] = [x]
        for k in range(3):
            row += [frac(listed[k][x]), OK if listed[k][x] == closed[k][x] else "≠", pct((sim[k] == x).mean())]
        rows.append(row)
    rows.append(["mean"] + [v for k in range(3) for v in (frac(listed[k].mean()), OK if listed[k].mean() ==
                                                           closed[k].mean() else "≠", f"{sim[k].mean():.2f}")])
    head = ["pips"] + [h for k in range(3) for h in (f"{NAMES[k]}: listed", "formula", "engine")]
    tab = table(head, rows, caption="Listed: all 216 ordered rolls, each 1/216, sorted. Formula: P(k-th lowest ≤ x) "
                                    "= Σⱼ₌ₖ³ C(3, j) Fʲ (1−F)³⁻ʲ with F = x/6 (at least k dice show x or less). "
                                    f"Engine: the first roll of {len(rolls):,} seeded games.")
    return Panel(fig, tab, data={"listed": listed, "closed": closed, "simulated": sim})


def sorted_col(rolls: Any, k: int) -> Any:
    """The k-th lowest die of each roll (0-based)."""
    import numpy as np

    return np.sort(rolls, axis=1)[:, k]


def left_for_you() -> Panel:
    """The best die a passive player can still pick, by which die the active player took; and what the
    greedy bots really did at the engine's table."""
    dists = {t: lessons.die_left_for_you(t) for t in ("highest", "middle", "lowest")}
    rolls, _ = _rolls()
    # The engine's rolls, the same rule applied: without the highest the best left is the middle die.
    sim = {"highest": sorted_col(rolls, 1), "middle": rolls.max(axis=1), "lowest": rolls.max(axis=1)}
    fig, axes = figure(10.5, 2.4, cols=3, sharey=True)
    for ax, (taken, d) in zip(axes[0], dists.items(), strict=True):
        xs = range(1, 7)
        exact_beside_engine(ax, xs, [float(d.get(x, 0)) for x in xs], [float((sim[taken] == x).mean()) for x in xs],
                            f"{len(rolls):,} rolls")
        ax.set_title(f"active took the {taken}: best left ≈ {float(d.mean()):.2f}", fontsize=9)
        ax.set_xlabel("the best die left for you", fontsize=9)
    axes[0][0].set_ylabel("probability", fontsize=9)
    axes[0][0].legend(fontsize=8, frameon=False, loc="upper left")
    rows = [(f"the {t}", frac(d.mean()), f"{float(d.mean()):.2f}", f"{sim[t].mean():.2f}", frac(d.at_least(4)),
             pct(d.at_least(4)), pct((sim[t] >= 4).mean()), frac(d[6]) if 6 in d else "0", pct((sim[t] == 6).mean()))
            for t, d in dists.items()]
    tab = table(["active player took", "E[best die left]", "≈", "engine", "P(≥ 4)", "≈", "engine", "P(a 6)",
                 "engine"], rows, left=1,
                caption="Listed over the 216 rolls: remove the die taken, keep the higher of the other two. "
                        "If the active player takes the highest, the best left is the middle die. Engine: the "
                        f"first roll of {len(rolls):,} seeded games, the same rule applied.")
    turns = lessons.engine_kingdom_turns(12, 0)
    n = len(turns)
    took = {r: sum(t["rank"] == r for t in turns) for r in ("highest", "middle", "lowest")}
    best = sum(t["picked"] == t["best_left"] for t in turns)
    mean_left = sum(t["best_left"] for t in turns) / n
    engine = (f"<div class='sk-note'>At the real table (two greedy bots, 12 seeded games, {n} turns) the active bot "
              f"took the highest die {took['highest']} times, the middle {took['middle']}, the lowest "
              f"{took['lowest']}; the passive bot picked the best die left {best} times of {n} (it wants a "
              f"number that fits its map, not always the biggest). Mean best die left: {mean_left:.2f}.</div>")
    return Panel(fig, tab, engine, data={"exact": dists, "simulated": sim, "turns": turns})


def criteria_rerolls(depths: int = 5) -> Panel:
    """The criteria roll followed reroll by reroll: every pair keeps the same chance at every depth."""
    rows = []
    for r in lessons.reroll_depths(depths):
        rows.append((r["rerolls"], r["pairs"], frac(r["each"]) if r["each"] is not None else "unequal!",
                     OK if r["each"] == r["formula"] else "≠", frac(r["pending"]), f"{float(r['pending']):.5f}"))
    limit = distinct_dice(2, 6, "repeats")
    alt = distinct_dice(2, 6, "all")
    same = set(limit.values()) == {Fraction(1, 15)} == set(alt.values())
    tab = table(["at most this many rerolls", "pairs kept", "each pair", "(1 − (1/6)ᵈ⁺¹)/15", "still rerolling", "≈"],
                rows, caption=f"Listed by <code>settle</code>: every way two dice and their rerolls can go. In the "
                              f"limit (<code>absorb</code> solves the chain exactly) each of the 15 pairs has "
                              f"{frac(limit[(1, 2)])}; rerolling both dice instead gives the same: <b>{same}</b>.")
    return Panel(tab, data={"limit": limit, "both": alt, "same": same})


def criteria_engine() -> Panel:
    """The criteria the real engine rolled in thousands of seeded games: each pair about 1/15 of the time."""
    _, crit = _rolls()
    counts, n = lessons.criteria_pairs(crit)
    pairs = sorted(distinct_dice(2))
    p = 1 / 15
    se = math.sqrt(p * (1 - p) / n)
    fig, ax = figure(8.5, 2.5)
    xs = range(len(pairs))
    ax.bar(xs, [1 / 15] * len(pairs), color=EXACT, width=0.8, label="exact: 1/15 each")
    ax.plot(xs, [counts[q] / n for q in pairs], "D", color=SIMULATED, markersize=5,
            label=f"engine: {n:,} pairs (groups A and B, {len(crit):,} games)")
    ax.set_xticks(list(xs), [f"{a}–{b}" for a, b in pairs], fontsize=8)
    ax.set_xlabel("the two numbers rolled (criteria 1–6 of a group)", fontsize=9)
    ax.set_ylim(0, 0.1)
    ax.legend(fontsize=8, frameon=False, loc="upper right")
    worst = max(abs(counts[q] / n - p) / se for q in pairs)
    each = {c: sum(1 for chosen in crit if c in chosen) / len(crit) for c in ("A1", "A6", "B3")}
    note = (f"<div class='sk-note'>Largest gap from 1/15: {worst:.1f} standard errors (chance alone gives up to about "
            f"3 among 15 pairs). Each criterion is in play with probability 5/15 = 1/3: the engine had A1 in "
            f"{pct(each['A1'])} of its games, A6 in {pct(each['A6'])}, B3 in {pct(each['B3'])}.</div>")
    return Panel(fig, note, data={"counts": counts, "n": n, "worst_se": worst})


def unfair_rule() -> Panel:
    """A rule that looks as harmless but is not fair: on a repeat, turn the second die up by one."""
    bump = lessons.bump_rule()
    sim = lessons.bump_rule_rolled(ROLLS, 0)
    rows = [(f"{a} and {b}", frac(bump[(a, b)]), pct(bump[(a, b)]), pct(sim[(a, b)]),
             "neighbours: favoured" if bump[(a, b)] > Fraction(1, 15) else "") for a, b in sorted(bump)]
    return Panel(table(["pair", "chance", "≈", f"{ROLLS:,} seeded rolls", ""], rows, left=1,
                       caption="Listed over the 36 rolls of two dice: the 6 repeats all land on neighbouring pairs "
                               "(1-2, 2-3, …, 6-1), which get 1/12 instead of 1/15. Rolled: the same rule on "
                               "seeded dice."),
                 data={"bump": bump, "simulated": sim})


def dice_explorer() -> Any:
    """Live: choose how many dice are rolled; the lowest, middle and highest redraw (exact)."""
    import ipywidgets as W

    slider = W.IntSlider(value=3, min=1, max=8, description="dice rolled", continuous_update=False,
                         style={"description_width": "90px"})

    def draw(n: int, fig: Any) -> None:
        ax = axes_on(fig)
        xs = list(range(1, 7))
        picks = [(1, "lowest", "o-"), (n, "highest", "D-")] + ([((n + 1) // 2, "middle", "s--")] if n > 2 else [])
        rolled = np.sort(lessons.dice_rolled(n, ROLLS, 0), axis=1)
        for k, name, style in picks:
            d = order_statistic(n, k)
            line = ax.plot(xs, [float(d[x]) for x in xs], style, label=f"{name}: mean {float(d.mean()):.2f}")
            # The same order statistic of seeded rolls: hollow markers on the exact curve.
            ax.plot(xs, [float((rolled[:, k - 1] == x).mean()) for x in xs], style[0], mfc="none",
                    color=line[0].get_color(), markersize=9)
        ax.set_xlabel("pips", fontsize=9)
        ax.set_ylabel("probability", fontsize=9)
        ax.legend(fontsize=8, frameon=False)

    def note(n: int) -> str:
        rolled = lessons.dice_rolled(n, ROLLS, 0)
        return (f"With {n} dice, the chance that the highest is a 6 is 1 − (5/6)^{n} = "
                f"{frac(1 - Fraction(5, 6) ** n)} ≈ {pct(1 - Fraction(5, 6) ** n)}; in {ROLLS:,} seeded rolls "
                f"{pct((rolled.max(axis=1) == 6).mean())} (hollow markers: the rolls, filled: exact).")

    return live_figure(slider, draw, note, size=(6.5, 2.5))


def absorb_check() -> bool:
    """``absorb`` on the criteria step equals ``distinct_dice`` (a one-line proof cell)."""
    return absorb(sorted_dice(2), distinct_dice_step()) == distinct_dice()
