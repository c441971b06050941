"""Engine speed: games/s per bot, and the fast (unchecked, unlogged) path against the checked path.

Usage: python benchmarks/engine_bench.py [-n 1000]
Every ratio is measured against a baseline in the same run, so the figures travel between machines.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

from sheetkit.analysis.simulate import game_seed
from sheetkit.core.chance import derive_seed
from sheetkit.core.play import play_out
from sheetkit.games.avenue import BOTS, AvenueState


def run(bot: str, n: int, fast: bool, players: int = 1, **opts: int) -> float:
    """Seconds to play n solo games with ``bot``."""
    t0 = time.perf_counter()
    for k in range(n):
        s = game_seed(1, k)
        st = AvenueState(players=players, seed=s)
        play_out(st, [BOTS[bot](seed=derive_seed(s, "bot", p), **opts) for p in range(players)], fast=fast)
    return time.perf_counter() - t0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("-n", type=int, default=1000)
    a = p.parse_args()
    n = a.n
    print(f"python {sys.version.split()[0]}, {n} solo games per row unless noted\n")
    print("| what | games | seconds | games/s | ratio |")
    print("|---|---|---|---|---|")
    base = run("random", n, fast=True)
    print(f"| random bot, fast path (baseline) | {n} | {base:.2f} | {n / base:,.0f} | 1.00 |")
    checked_r = run("random", n, fast=False)
    print(f"| random bot, checked path | {n} | {checked_r:.2f} | {n / checked_r:,.0f} | {checked_r / base:.2f} |")
    g_fast = run("greedy", n, fast=True)
    print(f"| greedy bot, fast path | {n} | {g_fast:.2f} | {n / g_fast:,.0f} | {g_fast / base:.2f} |")
    g_checked = run("greedy", n, fast=False)
    print(f"| greedy bot, checked path | {n} | {g_checked:.2f} | {n / g_checked:,.0f} | {g_checked / base:.2f} |")
    g4 = run("greedy", n // 4, fast=True, players=4)
    print(f"| greedy bot, 4 players, fast path | {n // 4} | {g4:.2f} | {n / 4 / g4:,.0f} | - |")
    m = max(5, n // 100)
    mc = run("montecarlo", m, fast=True)
    print(f"| montecarlo bot (4 candidates × 6 rollouts) | {m} | {mc:.2f} | {m / mc:,.2f} | {mc / m / (base / n):,.0f} |")
    print(f"\nfast path speed-up over the checked path: random {checked_r / base:.2f}×, greedy {g_checked / g_fast:.2f}×")
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "sheetkit", "simulate", "--game", "avenue", "--bot", "greedy",
                    "-n", "1000", "--json"], check=True, stdout=subprocess.DEVNULL)
    print(f"`python -m sheetkit simulate --game avenue --bot greedy -n 1000` wall time: "
          f"{time.perf_counter() - t0:.2f} s (goal ≤ 5 s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
