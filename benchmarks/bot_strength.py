"""Bot strength, decision time and the skill share, for every game, on paired seeded deals.

Usage:
  python benchmarks/bot_strength.py [--game avenue|kingdom-maps|key-harvest|all] [-n N] [--seed S]
      [--workers W] [--dask ADDRESS] [--quick] [--skill-n N] [--no-skill] [--save] [--table]

For each game it prints:
- each bot's mean score with its 95% interval, every bot on the same deals (solo games), and the paired
  difference the issue's target names (Avenue: expert − montecarlo ≥ 3 on 1,000 deals; Kingdom Maps:
  expert − greedy ≥ 10 on 500) — or, for Key Harvest, the expert's share of wins in 4-player games
  against three greedy bots (target ≥ 45%) and 2-player games against greedy (≥ 65%), 400 games each,
  the expert's seat rotated;
- the expert's time per decision, median and 95th percentile in process time (CPU seconds of this
  process: the machine is shared, so wall time would measure the neighbours), on a few games played here;
- the skill-share table (``sheetkit.analysis.skill``): beginner, expert and hindsight means, learning and
  luck effects, the share with its paired bootstrap interval; and the tiny Avenue solved exactly beside it.

A game whose ``expert`` bot or hindsight search is not in this checkout yet is measured with labelled
stand-ins (see ``sheetkit/analysis/skill.py``); its target lines say "no expert yet".
``--save`` writes docs/data/skill_share.json, which docs/analysis.md and the luck-and-skill lesson read; the
games measured replace their entries there, the others stay (each entry keeps the command that made it).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import shlex
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from sheetkit.analysis.luck_lesson import load_saved, markdown_table
from sheetkit.analysis.measures import win_share
from sheetkit.analysis.montecarlo import mean_ci, play_games
from sheetkit.analysis.simulate import game_seed
from sheetkit.analysis.skill import dask_client, skill_share
from sheetkit.analysis.skill_exact import exact_skill
from sheetkit.core.chance import derive_seed
from sheetkit.core.registry import get_game

GAMES = ("avenue", "kingdom-maps", "key-harvest")
SAVE_TO = Path(__file__).resolve().parent.parent / "docs" / "data" / "skill_share.json"

# The targets (issue 16, part 1).
SOLO = {
    "avenue": {"bots": ("random", "greedy", "montecarlo", "expert"), "pair": ("expert", "montecarlo"),
               "margin": 3.0, "n": 1000},
    "kingdom-maps": {"bots": ("random", "greedy", "expert"), "pair": ("expert", "greedy"), "margin": 10.0, "n": 500},
}
TABLES = {"key-harvest": {"tables": ((4, 0.45), (2, 0.65)), "n": 400}}
SKILL_PLAYERS = {"key-harvest": (2, 3, 4)}
MEDIAN_LIMIT, P95_LIMIT = 0.3, 1.0


class Timed:
    """A bot that notes the process time of each of its decisions."""

    def __init__(self, bot: Any, times: list[float]) -> None:
        self.bot, self.times, self.name = bot, times, getattr(bot, "name", "bot")

    def act(self, state: Any, player: int) -> Any:
        t0 = time.process_time()
        move = self.bot.act(state, player)
        self.times.append(time.process_time() - t0)
        return move


def decision_times(game: str, bot: str, games: int, players: int, seed: int,
                   options: dict[str, Any]) -> list[float]:
    """Process seconds of each decision of ``bot`` in seat 0 (greedy elsewhere), over ``games`` deals here."""
    from sheetkit.core.play import play_out

    spec = get_game(game)
    times: list[float] = []
    for k in range(games):
        s = game_seed(seed, k)
        state = spec.new_state(spec.default_params(), [f"p{p}" for p in range(players)], seed=s)
        me = Timed(spec.bots[bot](seed=derive_seed(s, "bot", 0), **options), times)
        others = [spec.bots["greedy"](seed=derive_seed(s, "bot", p)) for p in range(1, players)]
        play_out(state, [me, *others], fast=True)
    return times


def _ci_text(iv: Any) -> str:
    return f"{iv.estimate:8.2f}   [{iv.low:7.2f}, {iv.high:7.2f}]"


def _met(ok: bool) -> str:
    return "MET" if ok else "NOT MET"


def wilson(p: float, n: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a share ``p`` of ``n`` games (stays inside 0..1, unlike mean ± z·se)."""
    z = statistics.NormalDist().inv_cdf(0.5 + level / 2)
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def solo_strength(game: str, n: int, seed: int, executor: Any, workers: int | None,
                  options: dict[str, Any]) -> dict[str, Any]:
    """Every bot on the same n deals; the target's paired difference."""
    spec = get_game(game)
    cfg = SOLO[game]
    bots = [b for b in cfg["bots"] if b in spec.bots]
    missing = [b for b in cfg["bots"] if b not in spec.bots]
    print(f"\n== {spec.title}: bot strength, {n} paired solo deals, seed {seed}")
    if missing:
        print(f"   (not in this checkout yet: {', '.join(missing)})")
    print(f"   {'bot':<12} {'mean':>8}   95% CI")
    values: dict[str, np.ndarray] = {}
    out: dict[str, Any] = {"deals": n, "seed": seed, "bots": {}, "missing": missing}
    for b in bots:
        t0 = time.perf_counter()
        bot = (b, options) if (b == "expert" and options) else b
        res = play_games(game, n, seed=seed, bots=bot, executor=executor, workers=workers, progress=True)
        values[b] = res.values(None, 0)
        iv = mean_ci(values[b])
        out["bots"][b] = {"mean": round(iv.estimate, 3), "low": round(iv.low, 3), "high": round(iv.high, 3),
                          "seconds": round(time.perf_counter() - t0, 1), "cpu_seconds": round(res.cpu_seconds, 1)}
        print(f"   {b:<12} {_ci_text(iv)}   ({time.perf_counter() - t0:.0f} s)", flush=True)
    hi, lo = cfg["pair"]
    if hi in values and lo in values:
        d = mean_ci(values[hi] - values[lo])
        ok = d.estimate >= cfg["margin"] and d.low > 0
        print(f"   {hi} − {lo}, deal by deal: {d.estimate:+.2f} (95% CI {d.low:+.2f} to {d.high:+.2f}); "
              f"target ≥ +{cfg['margin']:g} with the CI above 0 on {cfg['n']:,} deals: {_met(ok)}"
              + ("" if n >= cfg["n"] else f" (measured on {n} deals only)"))
        out["target"] = {"pair": [hi, lo], "diff": round(d.estimate, 3), "low": round(d.low, 3),
                         "high": round(d.high, 3), "margin": cfg["margin"], "met": ok, "full_size": n >= cfg["n"]}
    else:
        print(f"   {hi} − {lo}: no {hi} yet — target not measured")
    return out


def table_strength(game: str, n: int, seed: int, executor: Any, workers: int | None,
                   options: dict[str, Any]) -> dict[str, Any]:
    """The expert's share of wins against greedy bots, its seat rotated; n games per table size."""
    spec = get_game(game)
    out: dict[str, Any] = {"games": n, "seed": seed, "tables": {}}
    print(f"\n== {spec.title}: expert against greedy bots, {n} games per table, seats rotated, seed {seed}")
    if "expert" not in spec.bots:
        print("   no expert yet — target not measured")
        out["missing"] = ["expert"]
        return out
    for players, target in TABLES[game]["tables"]:
        wins: list[float] = []
        for r in range(players):
            k = n // players + (1 if r < n % players else 0)
            bots: list[Any] = ["greedy"] * players
            bots[r] = ("expert", options) if options else "expert"
            res = play_games(game, k, seed=derive_seed(seed, "seat", players, r), bots=bots, executor=executor,
                             workers=workers, measure=win_share, progress=True)
            wins += [res.extras[g][0][r]["win"] for g in range(res.games)] if res.extras else []
        share = statistics.fmean(wins)
        lo, hi = wilson(share, len(wins))
        ok = share >= target
        print(f"   {players} players: expert wins {share:.1%} (95% Wilson CI {lo:.1%} to {hi:.1%}; a fair "
              f"share is {1 / players:.0%}); target ≥ {target:.0%} on {TABLES[game]['n']} games: {_met(ok)}"
              + ("" if n >= TABLES[game]["n"] else f" (measured on {n} games only)"), flush=True)
        out["tables"][str(players)] = {"win_share": round(share, 4), "low": round(lo, 4),
                                       "high": round(hi, 4), "games": len(wins), "target": target, "met": ok,
                                       "full_size": n >= TABLES[game]["n"]}
    return out


def speed(game: str, games: int, seed: int, options: dict[str, Any]) -> dict[str, Any] | None:
    """The expert's per-decision process time on a few games played in this process."""
    spec = get_game(game)
    if "expert" not in spec.bots:
        print("   decision time: no expert yet")
        return None
    players = 4 if game in TABLES else 1
    times = decision_times(game, "expert", games, players, seed, options)
    med = statistics.median(times)
    p95 = float(np.quantile(times, 0.95))
    ok = med <= MEDIAN_LIMIT and p95 <= P95_LIMIT
    print(f"   expert decision time (process time, {len(times)} decisions in {games} game(s)"
          f"{', 4 players' if players > 1 else ''}): median {med:.3f} s, p95 {p95:.3f} s; "
          f"target median ≤ {MEDIAN_LIMIT} s, p95 ≤ {P95_LIMIT} s: {_met(ok)}", flush=True)
    return {"decisions": len(times), "games": games, "median": round(med, 4), "p95": round(p95, 4), "met": ok}


def skill_rows(game: str, n: int, seed: int, executor: Any, workers: int | None,
               budget: float) -> list[dict[str, Any]]:
    """The skill-share table of one game (Key Harvest: one row per table size)."""
    spec = get_game(game)
    rows = []
    print(f"\n   skill share of {spec.title}, {n} deals (beginner = random bot; same deals for all three):")
    print(f"   {'players':>7} {'beginner':>9} {'expert':>8} {'hindsight':>9} {'learning':>9} {'luck':>7} "
          f"{'share':>6}  95% CI")
    for players in SKILL_PLAYERS.get(game, (1,)):
        s = skill_share(game, n=n, seed=seed, players=players, executor=executor, workers=workers, budget=budget,
                        expert_budget=budget, progress=True)
        row = s.row()
        row["budget"] = budget
        row["scores"] = s.scores.tolist()   # per deal (beginner, expert, hindsight): the lesson draws them
        rows.append(row)
        lo, hi = row.get("share_low"), row.get("share_high")
        ci = f"[{lo:.3f}, {hi:.3f}]" if lo is not None and hi is not None else "–"
        share = "–" if row["share"] is None else f"{row['share']:.3f}"
        print(f"   {players:>7} {row['beginner_mean']:>9.2f} {row['expert_mean']:>8.2f} {row['hindsight_mean']:>9.2f} "
              f"{row['learning']:>9.2f} {row['luck']:>7.2f} {share:>6}  {ci}", flush=True)
        for role in ("expert", "hindsight"):
            if row["lineup"][f"{role}_standin"]:
                print(f"           {role}: {row['lineup']['labels'][role]}")
    return rows


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="all", choices=("all", *GAMES))
    p.add_argument("-n", type=int, default=None, help="deals (solo) or games per table (default: the issue's)")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--workers", type=int, default=None, help="local processes (default: all cores)")
    p.add_argument("--dask", default="", metavar="ADDRESS", help="run on a dask.distributed scheduler")
    p.add_argument("--quick", action="store_true", help="a few deals of everything (a smoke run)")
    p.add_argument("--skill-n", type=int, default=None, help="deals of the skill share (default 100; quick 4)")
    p.add_argument("--timing-games", type=int, default=None, help="games timed in this process (default 5)")
    p.add_argument("--budget", type=float, default=None, help="the expert's budget (its constructor's budget=)")
    p.add_argument("--skill-budget", type=float, default=None,
                   help="the expert's and the hindsight search's budget in the skill share (default 1; quick 0.25)")
    p.add_argument("--no-strength", action="store_true", help="only the skill share")
    p.add_argument("--no-skill", action="store_true", help="only strength and speed")
    p.add_argument("--save", action="store_true", help=f"write {SAVE_TO.relative_to(SAVE_TO.parents[2])}")
    p.add_argument("--table", action="store_true", help="print the docs' markdown table from the saved file; no runs")
    a = p.parse_args(argv)
    if a.table:
        print(markdown_table(load_saved(SAVE_TO)))
        return 0
    games = GAMES if a.game == "all" else (get_game(a.game).name,)
    options = {"budget": a.budget} if a.budget is not None else {}
    skill_n = a.skill_n if a.skill_n is not None else (4 if a.quick else 100)
    timing = a.timing_games if a.timing_games is not None else (1 if a.quick else 5)
    report: dict[str, Any] = {
        "command": "python benchmarks/bot_strength.py " + " ".join(shlex.quote(x) for x in (argv or sys.argv[1:])),
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"), "seed": a.seed, "games": {},
    }
    t_all = time.perf_counter()
    with dask_client(a.dask or None) as client:
        for game in games:
            entry: dict[str, Any] = {}
            if not a.no_strength:
                if game in SOLO:
                    n = a.n or (20 if a.quick else SOLO[game]["n"])
                    entry["strength"] = solo_strength(game, n, a.seed, client, a.workers, options)
                else:
                    n = a.n or (8 if a.quick else TABLES[game]["n"])
                    entry["strength"] = table_strength(game, n, a.seed, client, a.workers, options)
                entry["speed"] = speed(game, timing, a.seed, options)
            if not a.no_skill:
                entry["skill"] = skill_rows(game, skill_n, a.seed, client, a.workers,
                                           a.skill_budget if a.skill_budget is not None else (0.25 if a.quick else 1.0))
            report["games"][game] = entry
    if not a.no_skill and "avenue" in games:
        ex = exact_skill()
        report["tiny_avenue_exact"] = ex.row()
        print(f"\n   tiny Avenue solved exactly ({ex.deals} deals, every line of play): beginner {ex.beginner} "
              f"= {float(ex.beginner):.3f}, expert {ex.expert} = {float(ex.expert):.3f}, hindsight {ex.hindsight} "
              f"= {float(ex.hindsight):.3f}; skill share {ex.share} = {float(ex.share or 0):.4f}")
    report["seconds"] = round(time.perf_counter() - t_all, 1)
    print(f"\n{report['seconds']:.0f} s in all.")
    if a.save:
        # Games measured now replace their entries; the others' stay (each entry keeps its own command).
        for entry in report["games"].values():
            entry.update(command=report["command"], date=report["date"])
        if SAVE_TO.exists():
            old = json.loads(SAVE_TO.read_text(encoding="utf-8"))
            report["games"] = {**old.get("games", {}), **report["games"]}
            if "tiny_avenue_exact" not in report and "tiny_avenue_exact" in old:
                report["tiny_avenue_exact"] = old["tiny_avenue_exact"]
        report["games"] = {g: report["games"][g] for g in GAMES if g in report["games"]}
        SAVE_TO.parent.mkdir(parents=True, exist_ok=True)
        SAVE_TO.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        docs = SAVE_TO.parents[1] / "analysis.md"
        text = docs.read_text(encoding="utf-8")
        head, tail = "<!-- skill-table: written by benchmarks/bot_strength.py --save -->\n", "\n<!-- /skill-table -->"
        if head in text and tail in text:
            before, rest = text.split(head, 1)
            docs.write_text(before + head + markdown_table(report) + tail + rest.split(tail, 1)[1], encoding="utf-8")
        print(f"saved {SAVE_TO} and its table in {docs}:")
        print(markdown_table(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
