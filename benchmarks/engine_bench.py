"""Engine speed: games/s for every registered game and bot, and the fast (unchecked) path against the checked one.

Usage: python benchmarks/engine_bench.py [-n 1000] [--game kingdom-maps]
Ratios are against a baseline measured in the same run (the random bot on the fast path of the same
game), so the figures travel between machines. For Kingdom Maps it also plays the greedy bot as it was
before issue #8 (``tests/old_kingdom_greedy.py``, the tests' frozen baseline: every criterion rescored for
every candidate hex) on the same seeds, and prints new against old and new against random.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sheetkit.analysis.simulate import game_seed
from sheetkit.core.chance import derive_seed
from sheetkit.core.play import play_out
from sheetkit.core.registry import GameSpec, all_games


def run(spec: GameSpec, bot: str | Callable[..., Any], n: int, fast: bool, players: int = 1) -> float:
    """Seconds to play n seeded games of ``spec`` with ``bot`` (a name, or a bot class) in every seat."""
    make = spec.bots[bot] if isinstance(bot, str) else bot
    t0 = time.perf_counter()
    for k in range(n):
        s = game_seed(1, k)
        st = spec.new_state(spec.default_params(), players, seed=s)
        play_out(st, [make(seed=derive_seed(s, "bot", p)) for p in range(players)], fast=fast)
    return time.perf_counter() - t0


def paired(spec: GameSpec, old: Callable[..., Any], n: int, players: int = 1) -> tuple[float, float, float]:
    """CPU seconds of the old greedy bot, the new one and the random bot on the same n seeds, game by game in
    turn (so a busy machine slows all three alike)."""
    total = [0.0, 0.0, 0.0]
    fresh = getattr(sys.modules.get(spec.bots["greedy"].__module__), "_BLANK_PLANNERS", {})
    for k in range(n):
        s = game_seed(1, k)
        # Every game plans its blank maps afresh: the rows above played these very seeds, and a plan kept
        # from them would flatter the new bot (seats of one game still share theirs).
        fresh.clear()
        for j, make in enumerate((old, spec.bots["greedy"], spec.bots["random"])):
            st = spec.new_state(spec.default_params(), players, seed=s)
            bots = [make(seed=derive_seed(s, "bot", p)) for p in range(players)]
            t0 = time.process_time()
            play_out(st, bots, fast=True)
            total[j] += time.process_time() - t0
    return total[0], total[1], total[2]


def old_kingdom_greedy() -> Callable[..., Any]:
    """The Kingdom Maps greedy bot before issue #8 (the frozen baseline the tests keep in tests/)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from old_kingdom_greedy import GreedyBot

    return GreedyBot


def recorded_games(spec: GameSpec, n: int) -> list[tuple[int, list[tuple[int, object] | None]]]:
    """n greedy games as (seed, steps): None for a table step, else (player, parsed action)."""
    out = []
    for k in range(n):
        s = game_seed(2, k)
        st = spec.new_state(spec.default_params(), 1, seed=s)
        play_out(st, [spec.bots["greedy"](seed=s)])
        steps = [None if "chance" in e else (e["player"], spec.parse_action(e["action"], "action"))
                 for e in st.to_record()["log"]]
        out.append((s, steps))
    return out


def replay_time(spec: GameSpec, games: list, fast: bool) -> float:
    """Seconds to re-apply recorded games' moves: the engine alone, without any bot thinking."""
    t0 = time.perf_counter()
    for seed, steps in games:
        st = spec.new_state(spec.default_params(), 1, seed=seed)
        apply = st.apply_fast if fast else st.apply
        for step in steps:
            if step is None:
                st.apply_chance()
            else:
                apply(*step)
    return time.perf_counter() - t0


def row(what: str, n: int, secs: float, base_per_game: float) -> str:
    """One markdown row: games/s and time per game relative to the baseline."""
    return f"| {what} | {n} | {secs:.2f} | {n / secs:,.1f} | {secs / n / base_per_game:.2f} |"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("-n", type=int, default=1000, help="games per row (slow bots play n/100)")
    p.add_argument("--game", action="append", help="only this game (repeatable); default every registered game")
    p.add_argument("--no-cli", action="store_true", help="skip timing the CLI's simulate")
    a = p.parse_args()
    n = a.n
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load {load:.2f}; solo games unless noted\n")
    speedups = []
    for spec in all_games():
        if a.game and spec.name not in a.game:
            continue
        print(f"### {spec.title}\n")
        print("| what | games | seconds | games/s | time per game vs baseline |")
        print("|---|---|---|---|---|")
        base = run(spec, "random", n, fast=True)
        print(row("random bot, fast path (baseline)", n, base, base / n))
        checked = run(spec, "random", n, fast=False)
        print(row("random bot, checked path", n, checked, base / n))
        g_fast = run(spec, "greedy", n, fast=True)
        print(row("greedy bot, fast path", n, g_fast, base / n))
        g_checked = run(spec, "greedy", n, fast=False)
        print(row("greedy bot, checked path", n, g_checked, base / n))
        g4 = run(spec, "greedy", n // 4, fast=True, players=min(4, spec.max_players))
        print(row(f"greedy bot, {min(4, spec.max_players)} players, fast path", n // 4, g4, base / n))
        if spec.name == "kingdom-maps":
            old = old_kingdom_greedy()
            m, m4 = max(20, n // 4), max(5, n // 16)  # the old bot is slow: fewer games, the same seeds
            (o1, n1, r1), (o4, n4, _) = paired(spec, old, m), paired(spec, old, m4, players=4)
            print(row("greedy bot before issue #8 (full rescoring), fast path", m, o1, base / n))
            print(row("greedy bot before issue #8, 4 players, fast path", m4, o4, base / n))
            print(f"| old, new and random bots game by game in turn (CPU seconds): old {o1:.2f}, new {n1:.2f}, "
                  f"random {r1:.2f} | {m} | | | new {o1 / n1:.1f}× faster, {n1 / r1:.1f}× random |")
            print(f"| the same, 4 players: old {o4:.2f}, new {n4:.2f} | {m4} | | | new {o4 / n4:.1f}× faster |")
            old_s, new_s, base_s = o1 / m, n1 / m, r1 / m
            old_4, new_4 = o4 / m4, n4 / m4
            speedups.append(f"kingdom-maps greedy: new {old_s / new_s:.1f}× faster than the old one solo "
                            f"({old_4 / new_4:.1f}× with 4 players); new greedy = {new_s / base_s:.1f}× "
                            f"the random bot's time per game (old: {old_s / base_s:.1f}×)")
        for bot in sorted(set(spec.bots) - {"random", "greedy"}):
            m = max(5, n // 100)
            secs = run(spec, bot, m, fast=True)
            print(row(f"{bot} bot", m, secs, base / n))
        games = recorded_games(spec, max(20, n // 10))
        r_checked, r_fast = replay_time(spec, games, False), replay_time(spec, games, True)
        print(f"| replaying {len(games)} recorded greedy games: checked `apply` | {len(games)} | {r_checked:.3f} "
              f"| {len(games) / r_checked:,.0f} | — |")
        print(f"| replaying the same moves: unchecked `apply_fast` | {len(games)} | {r_fast:.3f} "
              f"| {len(games) / r_fast:,.0f} | — |")
        speedups.append(f"{spec.name}: engine alone {r_checked / r_fast:.1f}×, random-bot games {checked / base:.2f}×, "
                        f"greedy-bot games {g_checked / g_fast:.2f}×")
        print()
    print("fast path speed-up over the checked path — " + "; ".join(speedups))
    print(f"load at the end: {os.getloadavg()[0]:.2f}")
    if a.no_cli:
        return 0
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "sheetkit", "simulate", "--game", "avenue", "--bot", "greedy",
                    "-n", "1000", "--json"], check=True, stdout=subprocess.DEVNULL)
    print(f"`python -m sheetkit simulate --game avenue --bot greedy -n 1000` wall time: "
          f"{time.perf_counter() - t0:.2f} s (goal ≤ 5 s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
