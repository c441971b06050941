"""Key Harvest bot strength: the expert against greedy bots on paired deals, with its thinking time.

    nice -n 10 .venv/bin/python benchmarks/strength_key_harvest.py                # 400 games, 2 and 4 players
    .venv/bin/python benchmarks/strength_key_harvest.py --quick                   # 12 games each, a smoke run
    .venv/bin/python benchmarks/strength_key_harvest.py -n 100 --players 4 --workers 2 --hindsight 10
    .venv/bin/python benchmarks/strength_key_harvest.py --rows kh.jsonl -n 400 --workers 2   # keep each game
    .venv/bin/python benchmarks/strength_key_harvest.py --report kh.jsonl                     # figures so far

For each player count, game ``g`` deals seed ``derive_seed(seed, "deal", players, g)`` and seats the
expert at ``g % players`` (seats rotate) against greedy bots. The same deal is played again with a
greedy bot in the expert's seat (the same opponents): the paired baseline. Printed per player count:

- the expert's win share (a shared first place counts 1/k) with a 95% Wilson interval, beside the
  greedy bot's in the same seats on the same deals (the fair share, 1/players, in expectation);
- the mean score and the mean margin (own score minus the best other score) of both, and the paired
  difference expert − greedy with a 95% interval;
- the expert's process time per decision (``time.process_time``, so the machine's load does not
  count): median and 95th percentile over every decision, and over the decisions it searched
  (more than one legal move);
- with ``--hindsight K``: the hindsight bound (docs/key_harvest.md, "The hindsight bound") on the
  first K deals, beside the expert's and the greedy bot's scores on those deals, and its time per game.

Targets (issue 16, part 1): expert wins ≥ 45% of 4-player and ≥ 65% of 2-player games, 400 each;
median ≤ 0.3 s and p95 ≤ 1 s per decision.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from sheetkit.core.chance import derive_seed
from sheetkit.games.key_harvest import new_game
from sheetkit.games.key_harvest.bots import GreedyBot
from sheetkit.games.key_harvest.expert import ExpertBot
from sheetkit.games.key_harvest.hindsight import hindsight


def _play(players: int, deal: int, seat: int, expert: ExpertBot | None, seed: int, g: int) -> dict[str, Any]:
    s = new_game(players, seed=deal)
    bots: list[Any] = [GreedyBot(seed=derive_seed(seed, "bot", g, q)) for q in range(players)]
    if expert is not None:
        bots[seat] = expert
    times: list[float] = []
    searched: list[float] = []
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_chance()
            continue
        p = s.current_players()[0]
        if p == seat and expert is not None:
            many = len(s.legal_actions(p)) > 1
            t = time.process_time()
            a = expert.act(s, p)
            dt = time.process_time() - t
            times.append(dt)
            if many:
                searched.append(dt)
        else:
            a = bots[p].act(s, p)
        s.apply(p, a)  # checked: the benchmark also proves every move legal
    scores = s.scores()
    places = s.placings()
    firsts = places.count(1)
    return {"score": scores[seat], "win": (1 / firsts) if places[seat] == 1 else 0.0,
            "margin": scores[seat] - max(x for q, x in enumerate(scores) if q != seat),
            "times": times, "searched": searched}


def one_deal(job: tuple[int, int, int, float, bool]) -> dict[str, Any]:
    """The expert's game and the greedy baseline on deal ``g`` (and the hindsight bound when asked)."""
    players, g, seed, budget, with_hindsight = job
    deal = derive_seed(seed, "deal", players, g)
    seat = g % players
    expert = ExpertBot(seed=derive_seed(seed, "expert", g), budget=budget)
    out = {"g": g, "players": players, "expert": _play(players, deal, seat, expert, seed, g),
           "greedy": _play(players, deal, seat, None, seed, g)}
    if with_hindsight:
        opponents: list[Any] = [GreedyBot(seed=derive_seed(seed, "bot", g, q)) for q in range(players)]
        opponents[seat] = None
        t = time.process_time()
        r = hindsight(new_game(players, seed=deal), seat, opponents)
        out["hindsight"] = {"score": r.score, "seconds": time.process_time() - t}
    return out


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson interval of a share k/n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, mid - half), min(1.0, mid + half))


def mean_ci(xs: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval (normal approximation)."""
    m = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
    return m, half


def pct(xs: list[float], q: float) -> float:
    """The q-quantile of xs (nearest rank)."""
    ys = sorted(xs)
    return ys[min(len(ys) - 1, max(0, math.ceil(q * len(ys)) - 1))] if ys else float("nan")


def report(players: int, rows: list[dict[str, Any]], budget: float) -> None:
    """Print one player count's figures."""
    n = len(rows)
    ex = [r["expert"] for r in rows]
    gr = [r["greedy"] for r in rows]
    wins = sum(e["win"] for e in ex)
    gwins = sum(g["win"] for g in gr)
    lo, hi = wilson(wins, n)
    glo, ghi = wilson(gwins, n)
    diff = mean_ci([e["score"] - g["score"] for e, g in zip(ex, gr, strict=True)])
    times = [t for e in ex for t in e["times"]]
    searched = [t for e in ex for t in e["searched"]]
    print(f"\n{players} players, {n} games (seats rotated), expert budget {budget}:")
    print(f"  expert win share  {wins / n:6.1%}  (95% {lo:.1%}–{hi:.1%});  fair share {1 / players:.1%}")
    print(f"  greedy win share  {gwins / n:6.1%}  (95% {glo:.1%}–{ghi:.1%})  in the same seats, same deals")
    for name, side in (("expert", ex), ("greedy", gr)):
        m, h = mean_ci([x["score"] for x in side])
        mm, mh = mean_ci([x["margin"] for x in side])
        print(f"  {name} score      {m:6.2f} ± {h:.2f};  margin over the best other {mm:+6.2f} ± {mh:.2f}")
    print(f"  paired expert − greedy score: {diff[0]:+.2f} ± {diff[1]:.2f} points")
    print(f"  expert process time per decision: median {statistics.median(times):.3f} s, p95 {pct(times, .95):.3f} s"
          f" ({len(times) / n:.1f} decisions/game); searched decisions: median {statistics.median(searched):.3f} s,"
          f" p95 {pct(searched, .95):.3f} s, max {max(searched):.3f} s")
    hs = [r for r in rows if "hindsight" in r]
    if hs:
        hm = statistics.fmean(r["hindsight"]["score"] for r in hs)
        em = statistics.fmean(r["expert"]["score"] for r in hs)
        gm = statistics.fmean(r["greedy"]["score"] for r in hs)
        below = sum(r["hindsight"]["score"] < r["expert"]["score"] for r in hs)
        secs = [r["hindsight"]["seconds"] for r in hs]
        print(f"  hindsight bound on the first {len(hs)} deals: mean {hm:.2f} (expert {em:.2f}, greedy {gm:.2f});"
              f" below the expert on {below}; process time per game median {statistics.median(secs):.1f} s,"
              f" max {max(secs):.1f} s")


def report_all(rows: list[dict[str, Any]], budget: float) -> None:
    """Print the figures of every player count in ``rows``."""
    for players in sorted({r["players"] for r in rows}, reverse=True):
        mine = sorted((r for r in rows if r["players"] == players), key=lambda r: r["g"])
        report(players, mine, budget)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=400, help="games per player count (default 400)")
    ap.add_argument("--seed", type=int, default=1, help="the run's seed (deals and bots derive from it)")
    ap.add_argument("--quick", action="store_true", help="12 games per player count: a smoke run")
    ap.add_argument("--players", default="4,2", help="player counts, e.g. 4,2")
    ap.add_argument("--budget", type=float, default=1.0, help="the expert's budget (1.0: as registered)")
    ap.add_argument("--workers", type=int, default=1, help="processes (the machine has 2 cores)")
    ap.add_argument("--hindsight", type=int, default=0, metavar="K", help="also run the hindsight bound on K deals")
    ap.add_argument("--rows", metavar="FILE", help="append each finished game to this JSON-lines file")
    ap.add_argument("--report", metavar="FILE", help="print the figures of the games in FILE, play none")
    args = ap.parse_args(argv)
    if args.report:
        with open(args.report, encoding="utf-8") as f:
            rows = [json.loads(line) for line in f if line.strip()]
        print(f"Key Harvest strength from {args.report}: the games finished so far")
        report_all(rows, args.budget)
        return
    n = 12 if args.quick else args.n
    counts = [int(x) for x in args.players.split(",")]
    print(f"Key Harvest strength: expert vs greedy, seed {args.seed}, {n} games per player count")
    # The player counts take turns, so a run stopped early has about as many games of each.
    jobs = [(players, g, args.seed, args.budget, g < args.hindsight) for g in range(n) for players in counts]
    rows: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    out = open(args.rows, "a", encoding="utf-8") if args.rows else None
    try:
        with ProcessPoolExecutor(max(1, args.workers)) as pool:
            for i, row in enumerate(pool.map(one_deal, jobs), 1):
                rows.append(row)
                if out is not None:
                    out.write(json.dumps(row) + "\n")
                    out.flush()
                if i % 10 == 0 or i == len(jobs):
                    done = {p: sum(r["players"] == p for r in rows) for p in counts}
                    print(f"  … {i}/{len(jobs)} games {done} ({time.perf_counter() - t0:.0f} s)",
                          file=sys.stderr, flush=True)
    finally:
        if out is not None:
            out.close()
    report_all(rows, args.budget)


if __name__ == "__main__":
    main()
