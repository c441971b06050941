"""The "luck or choices?" panel: how long it takes, and the average deals it compares yours with.

Usage:
  python benchmarks/luck_panel.py time [-n 3] [--games avenue,kingdom-maps,key-harvest]
      process time of the whole analysis (sheetkit.analysis.luck.analyse at the panel's budgets) on n finished
      games per game, a greedy bot standing in for the person; prints median and max against the goals
      (10 s Avenue and Kingdom Maps, 30 s Key Harvest).
  python benchmarks/luck_panel.py baselines [-n 20] [--games ...] [--write]
      the average hindsight best over n deals per game, variant and opponents (the panel's budget), and
      with --write stores them in sheetkit/analysis/data/luck_baselines.json, with how they were made.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from sheetkit.analysis.luck import BASELINES, BUDGETS, LuckBudget, analyse, table_bots
from sheetkit.analysis.results import play_as_table
from sheetkit.analysis.simulate import game_seed
from sheetkit.core.play import bot_names
from sheetkit.core.registry import get_game

GOALS = {"avenue": 10.0, "kingdom-maps": 10.0, "key-harvest": 30.0}
# The line-ups the tables open with (an Avenue opponent never changes your score, so one entry serves them all).
LINEUPS = {"avenue": [None], "kingdom-maps": [[]], "key-harvest": [["greedy", "greedy"], ["greedy"]]}
DATA = Path(__file__).resolve().parents[1] / "sheetkit" / "analysis" / "data" / BASELINES


def time_panel(games: list[str], n: int, seed: int) -> None:
    print("| game | games | median s | max s | goal s |")
    print("|---|---|---|---|---|")
    for game in games:
        bots = (LINEUPS[game][0] or ["greedy"]) if game != "kingdom-maps" else []
        took = []
        for k in range(n):
            state = play_as_table(game, game_seed(seed, k), "greedy", bots)
            t0 = time.process_time()
            r = analyse(state, 0, bots)
            took.append(time.process_time() - t0)
            parts = ", ".join(f"{p} {s:.1f}" for p, s in r.seconds.items())
            print(f"<!-- {game} deal {k}: {took[-1]:.1f} s ({parts}); {r.considered} decisions -->")
        print(f"| {game} | {n} | {statistics.median(took):.1f} | {max(took):.1f} | {GOALS[game]:.0f} |")


def baselines(games: list[str], n: int, seed: int, write: bool, lineups: int) -> None:
    found = []
    for game in games:
        spec = get_game(game)
        if spec.hindsight is None:
            print(f"{game}: no hindsight search yet")
            continue
        budget = BUDGETS.get(game, LuckBudget()).hindsight
        for lineup in LINEUPS[game][:lineups]:
            kinds = lineup or []
            scores = []
            t0 = time.process_time()
            for k in range(n):
                s = game_seed(seed, k)
                state = spec.new_state(spec.default_params(), ["You", *bot_names(kinds)], seed=s)
                seated = table_bots(spec, state, dict(enumerate(kinds, start=1)))
                scores.append(spec.hindsight(state, 0, [seated.get(p) for p in range(state.num_players)],
                                             budget=budget).score)
            mean, sd = statistics.mean(scores), statistics.stdev(scores) if n > 1 else 0.0
            secs = time.process_time() - t0
            print(f"{game} {lineup}: mean {mean:.2f}, sd {sd:.2f} over {n} deals ({secs / n:.1f} s each)")
            found.append({"game": game, "variant": "standard", "bots": lineup, "mean": round(mean, 2),
                          "sd": round(sd, 2), "deals": n,
                          "how": f"the hindsight search at budget {budget} on {n} deals (seeds game_seed({seed}, k)), "
                                 f"made by benchmarks/luck_panel.py baselines -n {n} --seed {seed}"})
    if write:
        old = json.loads(DATA.read_text()) if DATA.exists() else {"baselines": []}
        new = {(f["game"], f["variant"], json.dumps(f["bots"])) for f in found}
        keep = [b for b in old["baselines"] if (b["game"], b["variant"], json.dumps(b.get("bots"))) not in new]
        DATA.write_text(json.dumps({"baselines": keep + found}, indent=1) + "\n")
        print(f"written: {DATA}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["time", "baselines"])
    ap.add_argument("-n", type=int, default=3)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--games", default="avenue,kingdom-maps,key-harvest")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--lineups", type=int, default=9, help="the first N line-ups of each game only")
    a = ap.parse_args()
    games = [g.strip() for g in a.games.split(",") if g.strip()]
    if a.what == "time":
        time_panel(games, a.n, a.seed)
    else:
        baselines(games, a.n, a.seed, a.write, a.lineups)


if __name__ == "__main__":
    main()
