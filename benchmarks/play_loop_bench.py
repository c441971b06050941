"""What the one play loop costs: ``play_out`` (built on ``sheetkit.core.play.advance``) against a bare loop.

Usage: python benchmarks/play_loop_bench.py [--games 30] [--repeat 25]
The baseline is the loop ``play_out`` had before it was built on ``advance`` (written out below), run in the
same process, interleaved with it, on the same seeds; the random bots make the loop's own cost the largest
share a real game can show (a greedy or Monte Carlo bot thinks far longer per move). Process time (the
machine is shared): the minimum and the median of ``--repeat`` rounds, and their ratios.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

from sheetkit.core.play import play_out
from sheetkit.core.registry import get_game


def bare_loop(state: Any, bots: Any, fast: bool = False) -> Any:
    """The loop as every caller wrote it before: table steps, then each player to move asks its bot."""
    apply = state.apply_fast if fast else state.apply
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
            continue
        for p in state.current_players():
            apply(p, bots[p].act(state, p))
    state.audit()
    return state


def one_round(loop: Any, game: str, players: int, games: int) -> float:
    """Process seconds for ``games`` seeded games of random bots with ``loop``."""
    spec = get_game(game)
    t0 = time.process_time()
    for g in range(games):
        state = spec.new_state(spec.default_params(), players, seed=g)
        loop(state, [spec.bots["random"](seed=g * 10 + p) for p in range(players)], fast=True)
    return time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--repeat", type=int, default=25)
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}; random bots, fast path, {args.games} games × {args.repeat} rounds")
    for game, players in (("avenue", 2), ("kingdom-maps", 1), ("key-harvest", 3)):
        bare: list[float] = []
        loop: list[float] = []
        for _ in range(args.repeat):
            bare.append(one_round(bare_loop, game, players, args.games))
            loop.append(one_round(play_out, game, players, args.games))
        bare.sort()
        loop.sort()
        mid = args.repeat // 2
        print(f"{game:13s} {players} player(s): bare loop min {bare[0] * 1000:7.1f} ms, play_out min "
              f"{loop[0] * 1000:7.1f} ms (×{loop[0] / bare[0]:.3f}); medians ×{loop[mid] / bare[mid]:.3f}")


if __name__ == "__main__":
    main()
