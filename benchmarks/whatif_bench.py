"""What-if speed: a 1,000-deal Avenue comparison (greedy bot, standard vs a variant, common random numbers).

Usage: python benchmarks/whatif_bench.py [-n 1000] [--variant norise] [--seed 0] [--no-dask] [--no-exact]

Times the same comparison in this process (1 worker), on a 2-process pool and on a 2-process dask
LocalCluster; checks the three tables are identical; prints the paired and unpaired CIs, the
speed-ups, and whether the goal (≤ 5 s) was met. Then times every exact table used in the docs and
lessons and asserts each takes well under a second. Figures go in docs/analysis.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from sheetkit.analysis import exact
from sheetkit.analysis.montecarlo import Comparison, compare_variants
from sheetkit.games.avenue import PRESETS

GOAL_SECONDS = 5.0
EXACT_LIMIT = 0.25  # seconds per exact table ("well under a second")


def timed(label: str, run: Callable[[], Comparison]) -> tuple[float, Comparison]:
    """Run once, print and return the wall time."""
    t0 = time.perf_counter()
    cmp = run()
    secs = time.perf_counter() - t0
    print(f"| {label} | {secs:.2f} s | {cmp.results.cpu_seconds:.2f} s |", flush=True)
    return secs, cmp


def whatif(n: int, variant: str, seed: int, use_dask: bool) -> int:
    """The timed comparison on each executor; returns a non-zero exit code if tables differ."""
    kw: dict[str, Any] = dict(seed=seed, bots="greedy", progress=False)
    print(f"Avenue, greedy bot, {n} deals × 2 variants (standard vs {variant}), seed {seed}\n")
    print("| runner | wall | cpu in workers |\n|---|---|---|")
    t1, serial = timed("1 worker (this process)", lambda: compare_variants("avenue", "standard", variant, n,
                                                                              workers=1, **kw))
    t2, pool = timed("2 process workers", lambda: compare_variants("avenue", "standard", variant, n,
                                                                    workers=2, **kw))
    runs = {"1 worker": (t1, serial), "2 processes": (t2, pool)}
    if use_dask:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            print("(dask.distributed is not installed: pip install 'sheetkit-games[scale]')")
        else:
            t0 = time.perf_counter()
            with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl, \
                    Client(cl) as client:
                up = time.perf_counter() - t0
                td, dk = timed("dask LocalCluster, 2 processes", lambda: compare_variants(
                    "avenue", "standard", variant, n, executor=client, **kw))
                print(f"|   (cluster start-up, not counted) | {up:.2f} s | |")
            runs["dask 2 processes"] = (td, dk)
    print()
    same = all(np.array_equal(c.results.scores, serial.results.scores) for _, c in runs.values())
    print(f"identical tables on every runner: {same}")
    for name, (t, _) in runs.items():
        print(f"  {name:>18}: {t:5.2f} s   speed-up ×{t1 / t:.2f}   {n / t:,.0f} deals/s "
              f"({2 * n / t:,.0f} games/s)")
    best = min(t for t, _ in runs.values())
    print(f"goal ≤ {GOAL_SECONDS:.0f} s: {'met' if best <= GOAL_SECONDS else 'NOT met'} (best {best:.2f} s)\n")
    s = serial.summary()
    print(f"standard mean {s['mean_a']:.2f}, {variant} mean {s['mean_b']:.2f}")
    print(f"paired difference   {serial.difference}")
    print(f"unpaired (as if independent games) ± {serial.unpaired.half_width:.3f};"
          f" correlation {s['correlation']:.2f};"
          f" pairing is worth ×{(serial.unpaired.half_width / max(serial.difference.half_width, 1e-12)) ** 2:.1f}"
          " games\n")
    return 0 if same else 1


def exact_tables() -> int:
    """Time every exact table of the docs; each must take well under a second."""
    std = PRESETS["standard"]
    tables: dict[str, Callable[[], Any]] = {
        "cards until the 4th yellow (42 cards, 22 yellow)": lambda: exact.draws_until_kth(4, 22, 42),
        "round 5 length, not knowing rounds 1–4": lambda: exact.avenue_round_length(std, 5),
        "round 2 length given round 1 took 12 cards": lambda: exact.avenue_round_length(std, 2, given=[12]),
        "joint lengths of rounds 1–3": lambda: exact.joint_round_lengths(22, 20, 4, 3),
        "cards used by 5 rounds": lambda: exact.cards_used(22, 20, 4, 5),
        "road 5 among the next 6 cards (hypergeometric)": lambda: exact.hypergeometric(6, 7, 42),
        "highest / middle / lowest of 3d6": lambda: [exact.order_statistic(3, k) for k in (1, 2, 3)],
        "3d6 as the table shows them (sorted)": lambda: exact.sorted_dice(3),
        "2 criteria, repeats rerolled (both rules)": lambda: [exact.distinct_dice(2, 6, r)
                                                               for r in ("repeats", "all")],
        "3 different numbers, repeats rerolled": lambda: exact.distinct_dice(3, 6),
    }
    print("| exact table | time |\n|---|---|")
    worst = 0.0
    for label, make in tables.items():
        for f in (exact.draws_until_kth, exact.hypergeometric, exact.order_statistic, exact.sorted_dice,
                  exact.dice, exact.distinct_dice, exact.die):
            f.cache_clear()  # time the work, not the cache
        t0 = time.perf_counter()
        make()
        secs = time.perf_counter() - t0
        worst = max(worst, secs)
        print(f"| {label} | {secs * 1000:.1f} ms |")
    assert worst < EXACT_LIMIT, f"an exact table took {worst:.2f} s (limit {EXACT_LIMIT} s)"
    print(f"\nevery exact table under {EXACT_LIMIT * 1000:.0f} ms (worst {worst * 1000:.1f} ms)")
    return 0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-n", type=int, default=1000, help="deals (each played under both variants)")
    p.add_argument("--variant", default="norise", help=f"preset to compare with standard ({', '.join(PRESETS)})")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--no-dask", action="store_true", help="skip the dask LocalCluster run")
    p.add_argument("--no-exact", action="store_true", help="skip timing the exact tables")
    a = p.parse_args()
    code = whatif(a.n, a.variant, a.seed, not a.no_dask)
    if not a.no_exact:
        code |= exact_tables()
    return code


if __name__ == "__main__":
    sys.exit(main())
