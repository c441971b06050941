"""Key Harvest balance by simulation: game length, win share per seat, effect use, score spread.

    .venv/bin/python benchmarks/key_harvest_stats.py -n 400 --bot greedy
    .venv/bin/python benchmarks/key_harvest_stats.py -n 400 --players 4 --json

For each player count: turns per game, each seat's share of wins (ties shared) against the fair
share (no seat may exceed 1.3× it), scores (mean, spread, winner's margin), how often each worker
is played and each event drawn per game, and for each worker the win share of the players who
played it (a worker that decided games would stand far above the rest).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict
from typing import Any

from sheetkit.analysis.simulate import game_seed
from sheetkit.core.chance import derive_seed
from sheetkit.core.play import play_out
from sheetkit.games.key_harvest import BOTS, EVENTS, WORKERS, new_game


def run(n: int, players: int, bot: str, seed: int, variant: str) -> dict[str, Any]:
    wins = [0.0] * players
    turns, totals, margins, spreads = [], [], [], []
    played: dict[str, int] = defaultdict(int)
    by_worker_games: dict[str, int] = defaultdict(int)
    by_worker_wins: dict[str, float] = defaultdict(float)
    ends: dict[str, int] = defaultdict(int)
    t0 = time.perf_counter()
    for k in range(n):
        s = new_game(players, seed=game_seed(seed, k), variant=variant)
        play_out(s, [BOTS[bot](seed=derive_seed(game_seed(seed, k), "bot", p)) for p in range(players)], fast=True)
        pl = s.placings()
        firsts = [p for p in range(players) if pl[p] == 1]
        for p in firsts:
            wins[p] += 1 / len(firsts)
        sc = s.scores()
        turns.append(s.turn)
        totals += sc
        top = sorted(sc, reverse=True)
        margins.append(top[0] - top[1])
        spreads.append(top[0] - top[-1])
        for key, v in s.played.items():
            played[key] += v
        ends["last event" if "last turns" in (s.end_reason or "") else "bag empty" if "bag" in (s.end_reason or "")
             else "turn limit"] += 1
        users: dict[str, set[int]] = defaultdict(set)
        for e in s.journal:
            if e.get("what") == "worker":
                users[e["worker"]].add(e["player"])
        for wid, ps in users.items():
            for p in ps:
                by_worker_games[wid] += 1
                by_worker_wins[wid] += (1 / len(firsts)) if p in firsts else 0.0
    fair = 1 / players
    share = [w / n for w in wins]
    return {
        "players": players, "games": n, "bot": bot, "variant": variant, "seconds": round(time.perf_counter() - t0, 2),
        "turns": {"mean": round(statistics.mean(turns), 1), "min": min(turns), "max": max(turns),
                  "per_player": round(statistics.mean(turns) / players, 1)},
        "ends": dict(ends),
        "win_share": [round(x, 3) for x in share], "fair": round(fair, 3),
        "max_seat_ratio": round(max(share) / fair, 2),
        "score": {"mean": round(statistics.mean(totals), 1), "stdev": round(statistics.pstdev(totals), 1),
                  "min": min(totals), "max": max(totals), "winner_margin": round(statistics.mean(margins), 1),
                  "first_to_last": round(statistics.mean(spreads), 1)},
        "workers_per_game": {w: round(played.get(w, 0) / n, 2) for w in WORKERS},
        "events_per_game": {e: round(played.get(e, 0) / n, 2) for e in EVENTS},
        "win_share_when_played": {w: (round(by_worker_wins[w] / by_worker_games[w], 3) if by_worker_games[w] else None)
                                  for w in WORKERS},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=400)
    ap.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    ap.add_argument("--bot", default="greedy")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    ok = True
    for players in args.players:
        r = run(args.n, players, args.bot, args.seed, args.variant)
        ok &= r["max_seat_ratio"] <= 1.3
        if args.json:
            print(json.dumps(r))
            continue
        print(f"== {players} players, {r['games']} games, bot {r['bot']}, {r['variant']} ({r['seconds']} s)")
        t = r["turns"]
        print(f"turns: mean {t['mean']} ({t['per_player']} each), min {t['min']}, max {t['max']}; ends: {r['ends']}")
        print(f"win share by seat: {r['win_share']} (fair {r['fair']}; max/fair {r['max_seat_ratio']})")
        sc = r["score"]
        print(f"score: mean {sc['mean']} ± {sc['stdev']}, range {sc['min']}–{sc['max']}, winner's margin "
              f"{sc['winner_margin']}, first to last {sc['first_to_last']}")
        print("workers per game:", r["workers_per_game"])
        print("win share of players who played it:", r["win_share_when_played"])
        print("events per game:", r["events_per_game"])
    print("no seat above 1.3× its fair share:", "yes" if ok else "NO")


if __name__ == "__main__":
    main()
