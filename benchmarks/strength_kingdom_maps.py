"""Kingdom Maps bot strength on paired solo deals: random, greedy, expert (and hindsight), with 95% intervals.

    .venv/bin/python benchmarks/strength_kingdom_maps.py -n 500            # the issue's figure
    .venv/bin/python benchmarks/strength_kingdom_maps.py --quick           # 10 deals, a minute or two
    .venv/bin/python benchmarks/strength_kingdom_maps.py -n 50 --hindsight # also the hindsight bound
    .venv/bin/python benchmarks/strength_kingdom_maps.py --greedy-speed    # issue 17, item 7 (via the CLI)

Every bot plays the same deals (deal k's seed is ``game_seed(seed, k)``), so differences are paired. Times are
process time (CPU seconds of this process), per expert decision: the machine is shared, wall time is noise.
A summary is printed every 25 deals, so a long run stopped early still leaves its largest n.
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence

from sheetkit.analysis.simulate import game_seed
from sheetkit.core.chance import derive_seed
from sheetkit.core.play import play_out
from sheetkit.games.kingdom_maps import BOTS, KingdomState
from sheetkit.games.kingdom_maps.hindsight import hindsight


def interval(xs: Sequence[float]) -> tuple[float, float, float]:
    """Mean and its 95% interval (normal approximation; a t quantile below 30 samples)."""
    n = len(xs)
    m = statistics.fmean(xs)
    if n < 2:
        return m, m, m
    t = {2: 12.71, 3: 4.30, 4: 3.18, 5: 2.78, 6: 2.57, 7: 2.45, 8: 2.36, 9: 2.31, 10: 2.26}.get(n, 2.2 if n < 15 else
                                                                                              2.1 if n < 30 else 1.96)
    h = t * statistics.stdev(xs) / math.sqrt(n)
    return m, m - h, m + h


def timed_game(seed: int, budget: float, times: list[float], starts: list[float]) -> int:
    """One solo expert game; each decision's process time goes to ``times`` (announces and picks also to ``starts``)."""
    state = KingdomState(players=1, seed=seed)
    bot = BOTS["expert"](seed=derive_seed(seed, "expert"), budget=budget)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
            continue
        for p in state.current_players():
            searching = state.phase == "announce" or state.sheets[p].die is None  # where the expert searches
            t0 = time.process_time()
            move = bot.act(state, p)
            times.append(time.process_time() - t0)
            if searching:
                starts.append(times[-1])
            state.apply(p, move)
    return state.scores()[0]


def _spread(xs: list[float]) -> str:
    ts = sorted(xs)
    return f"median {ts[len(ts) // 2]:.3f} s, p95 {ts[min(len(ts) - 1, int(0.95 * len(ts)))]:.3f} s, max {ts[-1]:.3f} s"


def report(scores: dict[str, list[int]], times: list[float], game_times: list[float], starts: list[float]) -> None:
    n = len(scores["greedy"])
    print(f"\n{n} paired solo deals (standard rules), load {os.getloadavg()[0]:.1f}")
    print("| bot | mean | 95% interval | − greedy, paired (95% interval) |")
    print("|---|---|---|---|")
    for name, xs in scores.items():
        if not xs:
            continue
        m, lo, hi = interval(xs)
        if name == "greedy":
            diff = "–"
        else:
            d, dlo, dhi = interval([a - b for a, b in zip(xs, scores["greedy"], strict=True)])
            diff = f"{d:+.1f} ({dlo:+.1f} to {dhi:+.1f})"
        print(f"| {name} | {m:.1f} | {lo:.1f}–{hi:.1f} | {diff} |")
    if times:
        print(f"expert decisions: {len(times)}, {_spread(times)} (process time; goal median ≤ 0.3 s, p95 ≤ 1 s); "
              f"{statistics.fmean(game_times):.1f} s per game")
        print(f"of which announces and picks (where it searches): {len(starts)}, {_spread(starts)}")
    sys.stdout.flush()


def _cli_cpu(bot: str, games: int) -> float:
    """CPU seconds (user + system) of one ``python -m sheetkit simulate`` run in a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "sheetkit", "simulate", "--game", "kingdom-maps", "--bot", bot, "-n",
                    str(games), "--no-progress", "--workers", "1", "--seed", "0"], check=True,
                   stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def greedy_speed(n: int, rounds: int) -> None:
    """The CLI's simulate, random then greedy in turn, each in a fresh process: CPU per game and the ratio.

    Per game = (CPU of an ``n``-game run − CPU of a 1-game run) / (n − 1): start-up and imports cancel out,
    everything a game costs in a real run (the greedy bot compiling its gains for each new set of criteria,
    the CLI's tallies) stays in.
    """
    ratios = []
    for _ in range(rounds):
        per = {}
        for bot in ("random", "greedy"):
            per[bot] = (_cli_cpu(bot, n) - _cli_cpu(bot, 1)) / (n - 1)
        ratios.append(per["greedy"] / per["random"])
        print(f"`python -m sheetkit simulate --game kingdom-maps --bot B -n {n} --workers 1`: random "
              f"{1000 * per['random']:.2f} ms, greedy {1000 * per['greedy']:.2f} ms per game (CPU) → greedy "
              f"{ratios[-1]:.2f}× random", flush=True)
    print(f"median ratio over {rounds} rounds: {statistics.median(ratios):.2f}× (goal ≤ 3×), "
          f"load {os.getloadavg()[0]:.1f}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-n", type=int, default=500, help="deals (default 500)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quick", action="store_true", help="10 deals")
    p.add_argument("--budget", type=float, default=1.0, help="the expert's budget (default 1.0)")
    p.add_argument("--hindsight", action="store_true", help="also the hindsight search on every deal")
    p.add_argument("--no-expert", action="store_true", help="skip the expert (e.g. hindsight figures alone)")
    p.add_argument("--greedy-speed", action="store_true", help="only the greedy ÷ random time per game via the CLI")
    p.add_argument("--rounds", type=int, default=3, help="--greedy-speed: rounds of 200 games each")
    a = p.parse_args()
    if a.greedy_speed:
        greedy_speed(200, a.rounds)
        return 0
    n = 10 if a.quick else a.n
    scores: dict[str, list[int]] = {"random": [], "greedy": [], "expert": [], "hindsight": []}
    times: list[float] = []
    starts: list[float] = []
    game_times: list[float] = []
    hs_times: list[float] = []
    for k in range(n):
        seed = game_seed(a.seed, k)
        for name in ("random", "greedy"):
            bot = BOTS[name](seed=derive_seed(seed, name))
            scores[name].append(play_out(KingdomState(players=1, seed=seed), [bot], fast=True).scores()[0])
        if not a.no_expert:
            t0 = time.process_time()
            scores["expert"].append(timed_game(seed, a.budget, times, starts))
            game_times.append(time.process_time() - t0)
        if a.hindsight:
            t0 = time.process_time()
            scores["hindsight"].append(hindsight(KingdomState(players=1, seed=seed), 0).score)
            hs_times.append(time.process_time() - t0)
        print(f"deal {k + 1}/{n}: " + ", ".join(f"{name} {xs[-1]}" for name, xs in scores.items() if xs),
              file=sys.stderr, flush=True)
        if (k + 1) % 25 == 0 and k + 1 < n:
            report(scores, times, game_times, starts)
    report(scores, times, game_times, starts)
    if hs_times:
        print(f"hindsight: {statistics.fmean(hs_times):.2f} s per deal, max {max(hs_times):.2f} s (process time)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
