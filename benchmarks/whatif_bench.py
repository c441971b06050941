"""What-if speed: a 1,000-deal comparison (greedy bot, standard vs a variant, common random numbers).

Usage: python benchmarks/whatif_bench.py [--game avenue] [-n 1000] [--variant norise] [--seed 0] [--repeat 1]
                                         [--no-dask] [--no-dashboard] [--no-exact] [--json FILE]

``--game kingdom-maps`` times the Kingdom Maps what-if instead (default variant ``nopowers``; goal ≤ 10 s
on 2 processes, issue #8); the exact tables and lesson runs are the same for every game.

Times the same comparison (n deals × 2 variants = 2n games) in this process (1 worker), on a 2-process pool,
on a 2-process dask LocalCluster and through the dashboard's background runner (``WhatIfRun`` on its
forkserver pool); checks every table is identical; prints the speed-up of each against the 1-worker run
of the same round, the paired and unpaired CIs, and whether the goal (≤ 5 s) was met. Then times every
exact table the docs and the lessons use (each must take well under a second) and the lessons' seeded
engine runs. The machine's load is printed before and after: figures taken while other work runs are noisy.
Figures go in docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from sheetkit.analysis import exact, lessons
from sheetkit.analysis.montecarlo import Comparison, Results, compare_variants
from sheetkit.games.avenue import PRESETS

GOAL_SECONDS = {"avenue": 5.0, "kingdom-maps": 10.0}
DEFAULT_VARIANT = {"avenue": "norise", "kingdom-maps": "nopowers"}
EXACT_LIMIT = 0.25  # seconds per exact table ("well under a second")


def load() -> str:
    """The 1, 5 and 15 minute load averages and the cores this process may use."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {len(os.sched_getaffinity(0))} cores"


def timed(label: str, run: Callable[[], Comparison | Results]) -> tuple[float, Results]:
    """Run once, print and return the wall time and the results."""
    t0 = time.perf_counter()
    got = run()
    secs = time.perf_counter() - t0
    res = got.results if isinstance(got, Comparison) else got
    print(f"| {label} | {secs:.2f} s | {res.cpu_seconds:.2f} s |", flush=True)
    return secs, res


def whatif(n: int, variant: str, seed: int, use_dask: bool, dashboard: bool,
           game: str = "avenue") -> tuple[int, dict[str, Any]]:
    """One round of the timed comparison on each runner; returns (exit code, figures)."""
    kw: dict[str, Any] = dict(seed=seed, bots="greedy", progress=False)
    print("| runner | wall | cpu in workers |\n|---|---|---|")
    runs: dict[str, tuple[float, Results]] = {}
    runs["1 worker"] = timed("1 worker (this process)", lambda: compare_variants(game, "standard", variant, n,
                                                                                   workers=1, **kw))
    runs["2 processes"] = timed("2 process workers", lambda: compare_variants(game, "standard", variant, n,
                                                                               workers=2, **kw))
    if use_dask:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            print("(dask.distributed is not installed: pip install 'sheetkit-games[scale]')")
        else:
            import logging

            t0 = time.perf_counter()
            with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                              silence_logs=logging.ERROR) as cl, Client(cl) as client:
                up = time.perf_counter() - t0
                runs["dask 2 processes"] = timed("dask LocalCluster, 2 processes", lambda: compare_variants(
                    game, "standard", variant, n, executor=client, **kw))
                print(f"|   (cluster start-up, not counted) | {up:.2f} s | |")
    if dashboard:
        from sheetkit.analysis.whatif import WhatIfRun, process_pool, shutdown_pools

        t0 = time.perf_counter()
        list(process_pool(2).map(abs, [1, 2]))   # start the forkserver pool (once per session in a dashboard)
        up = time.perf_counter() - t0
        runs["dashboard 2 processes"] = timed("what-if dashboard runner (WhatIfRun, 2 processes, batches)",
                                              lambda: WhatIfRun(game, "standard", variant, n, seed=seed,
                                                                workers=2).run())
        print(f"|   (pool start-up, not counted) | {up:.2f} s | |")
        shutdown_pools()
    print()
    base = runs["1 worker"][1].scores
    same = all(np.array_equal(r.scores, base) for _, r in runs.values())
    print(f"identical tables on every runner: {same}")
    t1 = runs["1 worker"][0]
    figures: dict[str, Any] = {"n": n, "variant": variant, "identical": same, "runners": {}}
    for name, (t, _) in runs.items():
        print(f"  {name:>22}: {t:5.2f} s   speed-up ×{t1 / t:.2f} vs 1 worker   {n / t:,.0f} deals/s "
              f"({2 * n / t:,.0f} games/s)")
        figures["runners"][name] = {"seconds": round(t, 3), "speedup": round(t1 / t, 3)}
    best = min(t for t, _ in runs.values())
    two = runs["2 processes"][0]
    goal = GOAL_SECONDS.get(game, 5.0)
    print(f"goal ≤ {goal:.0f} s: {'met' if best <= goal else 'NOT met'} (best {best:.2f} s; "
          f"2 processes {two:.2f} s)\n")
    cmp = Comparison(runs["1 worker"][1], "standard", variant)
    s = cmp.summary()
    print(f"standard mean {s['mean_a']:.2f}, {variant} mean {s['mean_b']:.2f}")
    print(f"paired difference   {cmp.difference}")
    print(f"unpaired (as if independent games) ± {cmp.unpaired.half_width:.3f};"
          f" correlation {s['correlation']:.2f};"
          f" pairing is worth ×{(cmp.unpaired.half_width / max(cmp.difference.half_width, 1e-12)) ** 2:.1f}"
          " games\n")
    figures["summary"] = s
    return (0 if same else 1), figures


STD = PRESETS["standard"]
EXACT_TABLES: dict[str, Callable[[], Any]] = {
    # docs/analysis.md
    "cards until the 4th yellow (42 cards, 22 yellow)": lambda: exact.draws_until_kth(4, 22, 42),
    "round 5 length, not knowing rounds 1–4": lambda: exact.avenue_round_length(STD, 5),
    "round 2 length given round 1 took 12 cards": lambda: exact.avenue_round_length(STD, 2, given=[12]),
    "joint lengths of rounds 1–3": lambda: exact.joint_round_lengths(22, 20, 4, 3),
    "cards used by 5 rounds": lambda: exact.cards_used(22, 20, 4, 5),
    "road 5 among the next 6 cards (hypergeometric)": lambda: exact.hypergeometric(6, 7, 42),
    "highest / middle / lowest of 3d6": lambda: [exact.order_statistic(3, k) for k in (1, 2, 3)],
    "3d6 as the table shows them (sorted)": lambda: exact.sorted_dice(3),
    "2 criteria, repeats rerolled (both rules)": lambda: [exact.distinct_dice(2, 6, r) for r in ("repeats", "all")],
    "3 different numbers, repeats rerolled": lambda: exact.distinct_dice(3, 6),
    # lessons/avenue_cards.ipynb
    "lesson: round 1 by the closed form": lambda: lessons.negative_hypergeometric(4, 22, 42),
    "lesson: a 10-card deck, all 252 arrangements listed": lambda: lessons.enumerate_round_length(2, 5, 10),
    "lesson: round 2 given each length of round 1 (21 tables)": lambda: lessons.round_two_given_one(STD),
    "lesson: joint lengths of rounds 1–2 (covariance)": lambda: exact.joint_round_lengths(22, 20, 4, 2),
    "lesson: the farm you need, 5 situations (up to 720 orders)": lambda: [lessons.farm_chances(r) for r in range(5)],
    "lesson: each road in round 1": lambda: [lessons.road_in_round_one(k) for k in range(1, 7)],
    # lessons/kingdom_dice.ipynb
    "lesson: the die left for you (3 cases, 216 rolls)": lambda: [lessons.die_left_for_you(t)
                                                                  for t in ("highest", "middle", "lowest")],
    "lesson: criteria rerolls listed to depth 4": lambda: lessons.reroll_depths(5),
    "lesson: the unfair bump rule": lessons.bump_rule,
    "lesson: order statistics of 1–8 dice (the slider)": lambda: [exact.order_statistic(n, k) for n in range(1, 9)
                                                                  for k in range(1, n + 1)],
}


def exact_tables() -> tuple[int, dict[str, float]]:
    """Time every exact table of the docs and lessons (caches cleared); each must take well under a second."""
    print("| exact table | time |\n|---|---|")
    worst = 0.0
    out: dict[str, float] = {}
    for label, make in EXACT_TABLES.items():
        for f in (exact.draws_until_kth, exact.hypergeometric, exact.order_statistic, exact.sorted_dice,
                  exact.dice, exact.distinct_dice, exact.die):
            f.cache_clear()  # time the work, not the cache
        t0 = time.perf_counter()
        make()
        secs = time.perf_counter() - t0
        worst = max(worst, secs)
        out[label] = round(secs * 1000, 2)
        print(f"| {label} | {secs * 1000:.1f} ms |")
    ok = worst < EXACT_LIMIT
    print(f"\nevery exact table under {EXACT_LIMIT * 1000:.0f} ms: {ok} (worst {worst * 1000:.1f} ms)\n")
    return (0 if ok else 1), out


def lesson_runs() -> dict[str, float]:
    """The lessons' seeded engine runs (simulations, not exact tables: they take seconds, once per kernel)."""
    runs: dict[str, Callable[[], Any]] = {
        "Avenue: 3,000 deals through the engine (round lengths, farms, roads)":
            lambda: lessons.engine_avenue_deals.__wrapped__(3000, 0),
        "Avenue: peeking habits, 300 deals × 3 seats": lambda: lessons.peek_experiment.__wrapped__(300, 0),
        "Kingdom Maps: 6,000 engine rolls and criteria": lambda: lessons.engine_kingdom_rolls.__wrapped__(6000, 0),
        "Kingdom Maps: 12 two-player greedy games, turn by turn": lambda: lessons.engine_kingdom_turns.__wrapped__(12),
    }
    print("| lesson simulation | time |\n|---|---|")
    out = {}
    for label, make in runs.items():
        t0 = time.perf_counter()
        make()
        secs = time.perf_counter() - t0
        out[label] = round(secs, 3)
        print(f"| {label} | {secs:.2f} s |")
    print()
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-n", type=int, default=1000, help="deals (each played under both variants)")
    p.add_argument("--game", default="avenue", help="avenue or kingdom-maps")
    p.add_argument("--variant", default=None, help="preset to compare with standard (default: Avenue norise, "
                   f"Kingdom Maps nopowers; Avenue's: {', '.join(PRESETS)})")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--repeat", type=int, default=1, help="rounds of the what-if timing (each its own ratios)")
    p.add_argument("--no-dask", action="store_true", help="skip the dask LocalCluster run")
    p.add_argument("--no-dashboard", action="store_true", help="skip the dashboard runner (WhatIfRun)")
    p.add_argument("--no-exact", action="store_true", help="skip timing the exact tables and lesson runs")
    p.add_argument("--json", metavar="FILE", help="also write every figure to FILE")
    a = p.parse_args()
    a.variant = a.variant or DEFAULT_VARIANT.get(a.game, "standard")
    code = 0
    report: dict[str, Any] = {"load_before": load(), "rounds": []}
    print(f"{load()}\n")
    print(f"{a.game}, greedy bot, {a.n} deals × 2 variants (standard vs {a.variant}) = {2 * a.n} games, "
          f"seed {a.seed}\n")
    for r in range(a.repeat):
        if a.repeat > 1:
            print(f"### round {r + 1} of {a.repeat} ({load()})\n")
        c, figures = whatif(a.n, a.variant, a.seed, not a.no_dask, not a.no_dashboard, a.game)
        code |= c
        report["rounds"].append(figures)
    if not a.no_exact:
        c, report["exact_ms"] = exact_tables()
        code |= c
        report["lesson_seconds"] = lesson_runs()
    report["load_after"] = load()
    print(load())
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1, default=str)
    return code


if __name__ == "__main__":
    sys.exit(main())
