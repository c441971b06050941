"""Avenue bot strength on paired deals: random, greedy, montecarlo, expert and hindsight play the same cards.

Usage: python benchmarks/strength_avenue.py [-n 1000] [--seed 2026] [--quick] [--workers 2] [--hindsight H]
                                           [--out FILE.jsonl [--resume | --report]]

Every deal is played once by each bot (solo, standard rules) and searched once by hindsight (told the whole
deal). Prints each player's mean with a 95% interval, the paired differences (same deals, so the deal's luck
cancels) with 95% intervals, and each bot's process time per decision (median, p95, max). With ``--out``
each finished deal is appended to a JSON-lines file as it completes, so a long run can be stopped and
resumed (``--resume``) or summarised as far as it got (``--report``). Figures go in docs/avenue.md (Bots).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from sheetkit.analysis.simulate import game_seed
from sheetkit.core.chance import derive_seed
from sheetkit.core.play import play_out
from sheetkit.games.avenue import BOTS, AvenueState
from sheetkit.games.avenue.hindsight import hindsight

BOTS_RUN = ("random", "greedy", "montecarlo", "expert")
PAIRS = (("expert", "montecarlo"), ("expert", "greedy"), ("montecarlo", "greedy"), ("hindsight", "expert"),
         ("expert", "random"))


class Timed:
    """Wraps a bot and keeps the process time of each decision."""

    def __init__(self, bot: Any) -> None:
        self.bot, self.name, self.times = bot, bot.name, []

    def act(self, state: AvenueState, player: int) -> Any:
        t0 = time.process_time()
        action = self.bot.act(state, player)
        self.times.append(time.process_time() - t0)
        return action


def one_deal(args: tuple[int, int, str]) -> dict[str, Any]:
    """Deal ``k`` of the batch: every bot ("bots"), hindsight ("hindsight") or both; scores and process times."""
    seed, k, part = args
    s = game_seed(seed, k)
    out: dict[str, Any] = {"k": k, "deal_seed": s, "part": part, "scores": {}, "times": {}}
    if part in ("bots", "both"):
        for name in BOTS_RUN:
            state = AvenueState(players=[name], seed=s)
            bot = Timed(BOTS[name](seed=derive_seed(s, "bot", 0)))
            play_out(state, [bot], fast=True)
            out["scores"][name] = state.total(0)
            out["times"][name] = [round(t, 5) for t in bot.times]
    if part in ("hindsight", "both"):
        t0 = time.process_time()
        found = hindsight(AvenueState(players=["hindsight"], seed=s), 0)
        out["times"]["hindsight"] = [round(time.process_time() - t0, 4)]   # one search per deal
        out["scores"]["hindsight"] = found.score
        out["exact"] = found.exact
    return out


def _ci(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its normal 95% interval."""
    m = statistics.fmean(xs)
    return m, (1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan"))


def _q(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def report(deals: list[dict[str, Any]], seed: int, wanted: int) -> str:
    """The markdown tables: means, paired differences, speed."""
    deals = sorted(deals, key=lambda d: d["k"])
    n = len(deals)
    lines = [f"{n} deals (seed {seed}{'' if n == wanted else f', {n} of the {wanted} asked for'}), standard rules,"
             " solo; 95% intervals are mean ± 1.96·s/√n.", "",
             "| player | mean | 95% interval | stdev | min | median | max |", "|---|---|---|---|---|---|---|"]
    names = [*BOTS_RUN, "hindsight"]
    hind = [d for d in deals if "hindsight" in d["scores"]]
    if len(hind) < 2:
        names = list(BOTS_RUN)
    for name in names:
        xs = [d["scores"][name] for d in (hind if name == "hindsight" else deals)]
        m, h = _ci(xs)
        lines.append(f"| {name} | {m:.2f} | {m - h:.2f} to {m + h:.2f} | {statistics.stdev(xs) if n > 1 else 0:.2f} "
                     f"| {min(xs)} | {statistics.median(xs):g} | {max(xs)} |")
    lines += ["", "| paired difference | mean | 95% interval | deals where the first scores more |",
              "|---|---|---|---|"]
    for a, b in PAIRS:
        if a not in names:
            continue
        both = [d for d in deals if a in d["scores"] and b in d["scores"]]
        diff = [d["scores"][a] - d["scores"][b] for d in both]
        m, h = _ci(diff)
        wins = sum(x > 0 for x in diff)
        lines.append(f"| {a} − {b} | {m:+.2f} | {m - h:+.2f} to {m + h:+.2f} | {wins} / {len(both)} |")
    lines += ["", "| player | decisions | median s | p95 s | max s | mean s per game |", "|---|---|---|---|---|---|"]
    for name in names:
        games = hind if name == "hindsight" else deals
        ts = [t for d in games for t in d["times"][name]]
        unit = "search" if name == "hindsight" else "decision"
        lines.append(f"| {name} ({unit}) | {len(ts)} | {_q(ts, 0.5):.4f} | {_q(ts, 0.95):.4f} | {max(ts):.4f} | "
                     f"{sum(ts) / len(games):.3f} |")
    if "hindsight" in names:
        exact = sum(d["exact"] for d in hind)
        lines += ["", f"hindsight ran on {len(hind)} of the {n} deals (`--hindsight`); it was exhaustive (exact) on "
                  f"{exact} of them, elsewhere its score is a lower bound."]
    return "\n".join(lines)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-n", type=int, default=1000, help="deals (default 1000)")
    p.add_argument("--seed", type=int, default=2026, help="batch seed (deal k is game_seed(seed, k))")
    p.add_argument("--quick", action="store_true", help="a smoke run: 6 deals")
    p.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    p.add_argument("--hindsight", type=int, default=-1, metavar="H",
                   help="run hindsight on the first H deals only (default: all); it costs as much as the bots together")
    p.add_argument("--hindsight-only", action="store_true",
                   help="add hindsight to the first H deals (--hindsight H) of --out, without replaying the bots")
    p.add_argument("--out", default="", help="append each finished deal to this JSON-lines file")
    p.add_argument("--resume", action="store_true", help="skip deals already in --out")
    p.add_argument("--report", action="store_true", help="only summarise the deals already in --out")
    a = p.parse_args()
    n = 6 if a.quick else a.n
    done: dict[int, dict[str, Any]] = {}     # k -> the deal's bots (and hindsight)
    hind_done: dict[int, dict[str, Any]] = {}
    if a.out and (a.resume or a.report or a.hindsight_only) and Path(a.out).exists():
        for line in Path(a.out).read_text().splitlines():
            if line.strip():
                d = json.loads(line)
                if d.get("seed") == a.seed and d["k"] < n:
                    if d.get("part") == "hindsight":
                        hind_done[d["k"]] = d
                    else:
                        done[d["k"]] = d
    if not a.report:
        hind = n if a.hindsight < 0 else a.hindsight
        if a.hindsight_only:
            jobs = [(a.seed, k, "hindsight") for k in range(min(n, hind)) if k not in hind_done]
        else:
            jobs = [(a.seed, k, "both" if k < hind else "bots") for k in range(n) if k not in done]
        t0 = time.perf_counter()
        fh = open(a.out, "a") if a.out else None   # kept open while deals finish
        try:
            with ProcessPoolExecutor(max(1, a.workers)) as ex:
                futures = [ex.submit(one_deal, job) for job in jobs]
                for i, fut in enumerate(as_completed(futures), start=1):
                    d = fut.result()
                    d["seed"] = a.seed
                    (hind_done if d["part"] == "hindsight" else done)[d["k"]] = d
                    if fh:
                        fh.write(json.dumps(d) + "\n")
                        fh.flush()
                    if i % 10 == 0 or i == len(jobs):
                        print(f"  {i}/{len(jobs)} jobs, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
        finally:
            if fh:
                fh.close()
    for k, h in hind_done.items():   # hindsight added later to deals the bots played
        if k in done:
            done[k]["scores"]["hindsight"] = h["scores"]["hindsight"]
            done[k]["times"]["hindsight"] = h["times"]["hindsight"]
            done[k]["exact"] = h["exact"]
    if len(done) < 2:
        print("fewer than 2 deals finished: nothing to report", file=sys.stderr)
        return 1
    print(report(list(done.values()), a.seed, n))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
