"""Key Harvest engine speed: N four-player games with greedy bots (fast path), and with random bots.

    .venv/bin/python benchmarks/key_harvest_bench.py [N]     # default 1000

Prints games/s and seconds for each bot and the greedy/random time ratio (same seeds, same run).
The target: 1,000 four-player greedy games in at most 20 s on a 2-core machine.
"""

from __future__ import annotations

import sys
import time

from sheetkit.core.chance import derive_seed
from sheetkit.core.play import play_out
from sheetkit.games.key_harvest import BOTS, new_game


def run(bot: str, n: int, players: int = 4) -> tuple[float, int]:
    t0 = time.perf_counter()
    steps = 0
    for g in range(n):
        s = new_game(players, seed=g)
        play_out(s, [BOTS[bot](seed=derive_seed(g, "bot", p)) for p in range(players)], fast=True)
        steps += s.turn
    return time.perf_counter() - t0, steps


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    out = {}
    for bot in ("random", "greedy"):
        sec, turns = run(bot, n)
        out[bot] = sec
        print(f"{bot:7s}: {n} four-player games in {sec:6.2f} s  ({n / sec:7.1f} games/s, "
              f"{1000 * sec / n:5.2f} ms/game, {turns / n:.1f} turns/game)")
    print(f"greedy / random time: {out['greedy'] / out['random']:.2f}×")
    print("target (1,000 greedy games ≤ 20 s):", "met" if out["greedy"] * 1000 / n <= 20 else "NOT met")


if __name__ == "__main__":
    main()
