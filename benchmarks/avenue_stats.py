"""Avenue bot strength and layout balance: each bot over N seeded solo games, per-farm means, par table.

Usage: python benchmarks/avenue_stats.py [-n 1000] [--bots random,greedy,montecarlo] [--out FILE.json]
Prints a markdown report; figures go in docs/avenue.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor

from sheetkit.analysis.simulate import game_seed
from sheetkit.core.chance import derive_seed
from sheetkit.core.play import play_out
from sheetkit.games.avenue import BOTS, AvenueState


def one_game(args: tuple[str, int, int]) -> dict:
    """Play one seeded solo game; return its total and each round's farm, grapes and box."""
    bot, seed, k = args
    s = game_seed(seed, k)
    state = AvenueState(players=[bot], seed=s)
    play_out(state, [BOTS[bot](seed=derive_seed(s, "bot", 0))], fast=True)
    return {"total": state.total(0), "farms": list(state.round_farms), "grapes": state.grapes[0],
            "boxes": state.boxes[0], "castles": state.castle_scores(0)}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("-n", type=int, default=1000)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--bots", default="random,greedy,montecarlo")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", default="")
    a = p.parse_args()
    report: dict = {"n": a.n, "seed": a.seed, "bots": {}}
    for bot in a.bots.split(","):
        t0 = time.perf_counter()
        with ProcessPoolExecutor(a.workers) as ex:
            games = list(ex.map(one_game, [(bot, a.seed, k) for k in range(a.n)], chunksize=max(1, a.n // 50)))
        secs = time.perf_counter() - t0
        totals = [g["total"] for g in games]
        per_farm: dict[str, list[int]] = defaultdict(list)
        per_farm_box: dict[str, list[int]] = defaultdict(list)
        for g in games:
            for f, gr, bx in zip(g["farms"], g["grapes"], g["boxes"], strict=True):
                per_farm[f].append(gr)
                per_farm_box[f].append(bx)
        qs = statistics.quantiles(totals, n=20)
        report["bots"][bot] = {
            "mean": round(statistics.fmean(totals), 2), "stdev": round(statistics.stdev(totals), 2),
            "min": min(totals), "max": max(totals), "seconds": round(secs, 1),
            "p25": qs[4], "median": statistics.median(totals), "p75": qs[14], "p90": qs[17],
            "castles": {c: round(statistics.fmean(g["castles"][c] for g in games), 2) for c in ("purple", "green")},
            "zero_boxes": round(statistics.fmean(sum(b == 0 for b in g["boxes"]) for g in games), 2),
            "farm_grapes": {f: round(statistics.fmean(v), 2) for f, v in sorted(per_farm.items())},
            "farm_written": {f: round(statistics.fmean(v), 2) for f, v in sorted(per_farm_box.items())},
        }
        r = report["bots"][bot]
        print(f"| {bot} | {a.n} | {r['mean']} | {r['stdev']} | {r['min']} | {r['max']} | {r['median']} | "
              f"{r['zero_boxes']} | {secs:.0f} s |", flush=True)
        print("  grapes reached per farm:", r["farm_grapes"], file=sys.stderr)
        print("  written per farm:", r["farm_written"], file=sys.stderr)
    if a.out:
        with open(a.out, "w") as fh:
            json.dump(report, fh, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
