"""Bot strength, decision time and the skill share of every game, on paired seeded deals, resumable.

Usage:
  python benchmarks/bot_strength.py --game avenue|kingdom-maps|key-harvest|all [--deals N] [--seed S]
      [--results FILE] [--hindsight H] [--players 4,2] [--workers W] [--budget B] [--quick]
      [--report] [--save] [--table] [--greedy-speed]

Deal k of a run is dealt from ``game_seed(seed, k)``; every player meets the same deals, so differences are
paired and the deal's luck cancels. Each finished deal is appended to a JSON-lines results file (default
``benchmarks/results/<game>-seed<S>.jsonl``) as soon as it ends, so a long run can be stopped and started
again with the same command: it skips the deals already in the file. ``--report`` prints the figures of
what the file holds without playing (label: "N of the M deals asked for").

Solo games (Avenue, Kingdom Maps): the random, greedy (Avenue also Monte Carlo) and expert bots play deal
k in seat 0, each seeded ``derive_seed(s, "bot", 0)``. Printed: each bot's mean with a 95% interval, the
paired differences with 95% intervals and the issue's target (Avenue: expert − montecarlo ≥ +3 on 1,000
deals; Kingdom Maps: expert − greedy ≥ +10 on 500).

Key Harvest, for each table size (``--players``, default 4, 3 and 2; 400, 48 and 400 games): on deal k
the measured seat is k mod players (seats rotated) against greedy bots seeded from the deal; the expert
plays it, and on the same deal against the same opponents a greedy bot (the paired baseline) and the
random bot (the skill share's beginner). Printed: the expert's share of wins (a shared first counts 1/k)
with a 95% Wilson interval beside the greedy bot's in the same seats; targets ≥ 45% (4 players) and ≥
65% (2 players) on 400 games each.

Every decision of the expert is timed in process time (``time.process_time``: the machine is shared, wall
time would measure the neighbours): median and 95th percentile over the run (targets 0.3 s and 1 s).

``--hindsight H`` also runs the game's hindsight search (told the whole deal) on the first H deals, given
the expert's game on the deal as its baseline (so it never ends below the expert); then the skill
share (``sheetkit.analysis.skill``) is printed from those deals: beginner (random), expert and hindsight
means on the same deals, learning = expert − beginner, luck = hindsight − expert,
the share with its paired bootstrap interval. ``--save`` writes those rows to docs/data/skill_share.json
and the table in docs/analysis.md (``--table`` prints that table from the saved file). The tiny Avenue
(2 × 3 sheet, 4 cards) is solved exactly beside it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import resource
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from sheetkit.analysis.luck_lesson import load_saved, markdown_table
from sheetkit.analysis.montecarlo import mean_ci
from sheetkit.analysis.simulate import game_seed
from sheetkit.analysis.skill import SkillShare, lineup
from sheetkit.analysis.skill_exact import exact_skill
from sheetkit.core.chance import derive_seed
from sheetkit.core.play import play_out
from sheetkit.core.registry import get_game

GAMES = ("avenue", "kingdom-maps", "key-harvest")
ROOT = Path(__file__).resolve().parent.parent
SAVE_TO = ROOT / "docs" / "data" / "skill_share.json"
RESULTS = ROOT / "benchmarks" / "results"

# The issue's targets (issue 16, part 1).
SOLO = {
    "avenue": {"bots": ("random", "greedy", "montecarlo", "expert"), "pair": ("expert", "montecarlo"),
               "margin": 3.0, "deals": 1000, "timed": ("montecarlo", "expert")},
    "kingdom-maps": {"bots": ("random", "greedy", "expert"), "pair": ("expert", "greedy"), "margin": 10.0,
                     "deals": 500, "timed": ("expert",)},
}
# The 3-player table has no strength target in the issue: it is measured for its skill-share row.
TABLES = {"key-harvest": {"targets": {4: 0.45, 2: 0.65}, "deals": {4: 400, 3: 48, 2: 400}}}
MEDIAN_LIMIT, P95_LIMIT = 0.3, 1.0


class Timed:
    """A bot that keeps the process time of each of its decisions."""

    def __init__(self, bot: Any) -> None:
        self.bot, self.name, self.times = bot, getattr(bot, "name", "bot"), []

    def act(self, state: Any, player: int) -> Any:
        t0 = time.process_time()
        move = self.bot.act(state, player)
        self.times.append(round(time.process_time() - t0, 4))
        return move


# ----- one deal ------------------------------------------------------------------------------------------
def _bot(spec: Any, name: str, seed: int, budget: float) -> Any:
    return spec.bots[name](seed=seed, budget=budget) if name == "expert" and budget != 1.0 else \
        spec.bots[name](seed=seed)


def _fresh(spec: Any, players: int, s: int) -> Any:
    # The same table the skill share deals (sheetkit.analysis.skill.deal_scores), so its rows can reuse these games.
    return spec.new_state(spec.default_params(), [f"greedy {p + 1}" for p in range(players)], seed=s)


def _opponents(spec: Any, players: int, s: int, seat: int) -> list[Any]:
    return [None if p == seat else spec.bots["greedy"](seed=derive_seed(s, "bot", p)) for p in range(players)]


def solo_deal(game: str, seed: int, k: int, budget: float) -> dict[str, Any]:
    """Deal k: every bot of the game in seat 0; scores, and the process time of each timed bot's decisions."""
    spec, cfg = get_game(game), SOLO[game]
    s = game_seed(seed, k)
    out: dict[str, Any] = {"scores": {}, "times": {}}
    for name in cfg["bots"]:
        bot = Timed(_bot(spec, name, derive_seed(s, "bot", 0), budget))
        state = play_out(_fresh(spec, 1, s), [bot], fast=True)
        out["scores"][name] = int(state.scores()[0])
        if name in cfg["timed"]:
            out["times"][name] = bot.times
    return out


def table_deal(game: str, seed: int, k: int, players: int, budget: float) -> dict[str, Any]:
    """Deal k at a table of ``players``: the expert, greedy and random bots in seat k mod players against greedy."""
    spec = get_game(game)
    s = game_seed(seed, k)
    seat = k % players
    out: dict[str, Any] = {"seat": seat}
    for name in ("expert", "greedy", "random"):
        bots = _opponents(spec, players, s, seat)
        me = Timed(_bot(spec, name, derive_seed(s, "bot", seat), budget))
        bots[seat] = me
        state = play_out(_fresh(spec, players, s), bots, fast=True)
        scores, places = state.scores(), state.placings()
        firsts = sum(1 for p in places if p == 1)
        out[name] = {"score": int(scores[seat]), "win": round(1 / firsts, 4) if places[seat] == 1 else 0.0,
                     "margin": int(scores[seat] - max(x for q, x in enumerate(scores) if q != seat))}
        if name == "expert":
            out["times"] = me.times
    return out


class Recorder:
    """A bot that keeps its moves (the expert's game, the hindsight search's baseline)."""

    def __init__(self, bot: Any) -> None:
        self.bot, self.name, self.moves = bot, getattr(bot, "name", "bot"), []

    def act(self, state: Any, player: int) -> Any:
        move = self.bot.act(state, player)
        self.moves.append(move)
        return move


def hindsight_deal(game: str, seed: int, k: int, players: int, budget: float, expert_budget: float) -> dict[str, Any]:
    """The hindsight search on deal k, in the measured seat against the same opponents; its process time.

    The expert's game on the deal (the same game as the deal's record) is played first and given to the search
    as its baseline, so the search starts from it and never ends below it; its time is not counted.
    """
    spec = get_game(game)
    s = game_seed(seed, k)
    seat = k % players
    bots = _opponents(spec, players, s, seat)
    expert = bots[seat] = Recorder(_bot(spec, "expert", derive_seed(s, "bot", seat), expert_budget))
    played = play_out(_fresh(spec, players, s), bots, fast=True)
    t0 = time.process_time()
    found = spec.hindsight(_fresh(spec, players, s), seat, _opponents(spec, players, s, seat), budget,
                           baseline=expert.moves)
    return {"score": int(found.score), "exact": bool(found.exact), "cpu": round(time.process_time() - t0, 3),
            "seeded": True, "expert": int(played.scores()[seat])}


def run_job(job: tuple[str, str, int, int, int, float, float]) -> dict[str, Any]:
    """One unit of work (runs in a worker): a deal's bot games or its hindsight search."""
    game, kind, seed, k, players, budget, expert_budget = job
    if kind == "hindsight":
        rec = hindsight_deal(game, seed, k, players, budget, expert_budget)
    elif game in SOLO:
        rec = solo_deal(game, seed, k, budget)
    else:
        rec = table_deal(game, seed, k, players, budget)
    return {"game": game, "kind": kind, "seed": seed, "k": k, "players": players, "budget": budget, **rec}


# ----- the results file ------------------------------------------------------------------------------------
def _key(r: dict[str, Any]) -> tuple[str, str, int, int, int, float]:
    # A hindsight search run before the searches took the expert's game as their baseline is kept apart.
    kind = "hindsight-alone" if r["kind"] == "hindsight" and not r.get("seeded") else r["kind"]
    return (r["game"], kind, r["seed"], r["k"], r["players"], float(r["budget"]))


def load_results(path: Path) -> dict[tuple[str, str, int, int, int, float], dict[str, Any]]:
    """Every record of a results file by its key (a later copy of a record wins; a torn last line is skipped)."""
    got: dict[tuple[str, str, int, int, int, float], dict[str, Any]] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                continue
            got[_key(r)] = r
    return got


def run_jobs(jobs: list[tuple[str, str, int, int, int, float, float]], path: Path, workers: int) -> None:
    """Run the jobs, appending each record to ``path`` as it finishes (in order, so a stopped run keeps a prefix)."""
    if not jobs:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    with path.open("a", encoding="utf-8") as fh:
        results: Iterator[dict[str, Any]]
        if workers > 1:
            pool = ProcessPoolExecutor(workers)
            results = pool.map(run_job, jobs)
        else:
            pool, results = None, map(run_job, jobs)
        try:
            for i, rec in enumerate(results, 1):
                fh.write(json.dumps(rec) + "\n")
                fh.flush()
                if i % 5 == 0 or i == len(jobs):
                    print(f"  … {i}/{len(jobs)} jobs done ({time.perf_counter() - t0:.0f} s)", file=sys.stderr,
                          flush=True)
        finally:
            if pool is not None:
                pool.shutdown(cancel_futures=True)


# ----- figures -----------------------------------------------------------------------------------------
def _met(ok: bool) -> str:
    return "MET" if ok else "NOT MET"


def _verdict(ok: bool, n: int, wanted: int, unit: str = "deals", settled: bool = False) -> str:
    """MET / NOT MET at full size; a partial run only says whether the figure holds on what is done."""
    if n >= wanted:
        return _met(ok)
    return (f"{'holds' if ok else 'does not hold'} on the {n:,} {unit} done — not measured at full size (partial)"
            + ("; the whole 95% interval is past the target already" if settled else ""))


def _of(n: int, wanted: int, unit: str = "deals") -> str:
    return f"{n:,} {unit}" if n >= wanted else f"{n:,} of the {wanted:,} {unit} asked for (partial)"


def wilson(p: float, n: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a share ``p`` of ``n`` games (stays inside 0..1, unlike mean ± z·se)."""
    if n == 0:
        return 0.0, 1.0
    z = statistics.NormalDist().inv_cdf(0.5 + level / 2)
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def quantile(xs: list[float], q: float) -> float:
    """The q-quantile of xs (nearest rank)."""
    ys = sorted(xs)
    return ys[min(len(ys) - 1, max(0, math.ceil(q * len(ys)) - 1))] if ys else math.nan


def speed_line(name: str, times: list[float], games: int) -> dict[str, Any]:
    """Print and return the median / p95 / max process time per decision."""
    med, p95 = statistics.median(times), quantile(times, 0.95)
    ok = med <= MEDIAN_LIMIT and p95 <= P95_LIMIT
    print(f"   {name} decision time (process time, {len(times):,} decisions in {games:,} games): median {med:.3f} s,"
          f" p95 {p95:.3f} s, max {max(times):.3f} s; target median ≤ {MEDIAN_LIMIT} s, p95 ≤ {P95_LIMIT} s: "
          f"{_met(ok)}")
    return {"decisions": len(times), "games": games, "median": round(med, 4), "p95": round(p95, 4),
            "max": round(max(times), 4), "met": ok}


def solo_report(game: str, deals: list[dict[str, Any]], wanted: int, seed: int) -> dict[str, Any]:
    """The solo game's means, paired differences, target and decision time, from its deal records."""
    spec, cfg = get_game(game), SOLO[game]
    n = len(deals)
    print(f"\n== {spec.title}: bot strength on {_of(n, wanted)}, paired (seed {seed}, solo, standard rules)")
    out: dict[str, Any] = {"deals": n, "asked": wanted, "seed": seed, "bots": {}}
    if n < 2:
        print("   fewer than 2 deals done: nothing to report yet")
        return out
    values = {b: np.array([d["scores"][b] for d in deals], dtype=float) for b in cfg["bots"]}
    print(f"   {'bot':<12} {'mean':>8}   95% interval")
    for b, xs in values.items():
        iv = mean_ci(xs)
        out["bots"][b] = {"mean": round(iv.estimate, 3), "low": round(iv.low, 3), "high": round(iv.high, 3)}
        print(f"   {b:<12} {iv.estimate:8.2f}   {iv.low:7.2f} to {iv.high:7.2f}")
    hi, lo = cfg["pair"]
    pairs = [(hi, lo)] + [(hi, b) for b in cfg["bots"] if b not in (hi, lo)]
    for a, b in pairs:
        d = mean_ci(values[a] - values[b])
        more = int((values[a] > values[b]).sum())
        print(f"   {a} − {b}, deal by deal: {d.estimate:+.2f} (95% interval {d.low:+.2f} to {d.high:+.2f}); "
              f"{a} scores more on {more} of {n}")
        if (a, b) == (hi, lo):
            ok = d.estimate >= cfg["margin"] and d.low > 0
            print(f"   target {a} − {b} ≥ +{cfg['margin']:g} with the interval above 0 on {cfg['deals']:,} deals: "
                  f"{_verdict(ok, n, cfg['deals'], settled=d.low >= cfg['margin'])}")
            out["target"] = {"pair": [a, b], "diff": round(d.estimate, 3), "low": round(d.low, 3),
                             "high": round(d.high, 3), "margin": cfg["margin"], "met": ok,
                             "full_size": n >= cfg["deals"]}
    out["speed"] = {b: speed_line(b, [t for d in deals for t in d["times"][b]], n) for b in cfg["timed"]}
    return out


def table_report(game: str, players: int, deals: list[dict[str, Any]], wanted: int, seed: int) -> dict[str, Any]:
    """One table size's win shares, paired scores and decision time, from its deal records."""
    spec = get_game(game)
    n = len(deals)
    target = TABLES[game]["targets"].get(players)
    print(f"\n== {spec.title}, {players} players: the expert against {players - 1} greedy bot(s) on "
          f"{_of(n, wanted, 'games')}, seats rotated (seed {seed})")
    out: dict[str, Any] = {"players": players, "games": n, "asked": wanted, "seed": seed}
    if n < 2:
        print("   fewer than 2 games done: nothing to report yet")
        return out
    for name in ("expert", "greedy", "random"):
        wins = sum(d[name]["win"] for d in deals) / n
        lo, hi = wilson(wins, n)
        sc = mean_ci([d[name]["score"] for d in deals])
        mg = mean_ci([d[name]["margin"] for d in deals])
        print(f"   {name:<7} wins {wins:6.1%} (95% Wilson {lo:.1%} to {hi:.1%}); score {sc.estimate:6.2f} "
              f"({sc.low:.2f} to {sc.high:.2f}); margin over the best other {mg.estimate:+6.2f}")
        out[name] = {"win_share": round(wins, 4), "low": round(lo, 4), "high": round(hi, 4),
                     "score": round(sc.estimate, 3), "margin": round(mg.estimate, 3)}
    d = mean_ci([x["expert"]["score"] - x["greedy"]["score"] for x in deals])
    print(f"   paired expert − greedy score in the same seat: {d.estimate:+.2f} (95% interval {d.low:+.2f} to "
          f"{d.high:+.2f}); a fair share of wins is {1 / players:.0%}")
    out["paired_diff"] = {"diff": round(d.estimate, 3), "low": round(d.low, 3), "high": round(d.high, 3)}
    if target is not None:
        ok = out["expert"]["win_share"] >= target
        full = TABLES[game]["deals"][players]
        print(f"   target expert wins ≥ {target:.0%} on {full:,} games: "
              f"{_verdict(ok, n, full, 'games', settled=out['expert']['low'] >= target)}")
        out["target"] = {"share": target, "met": ok, "full_size": n >= full}
    out["speed"] = {"expert": speed_line("expert", [t for x in deals for t in x["times"]], n)}
    return out


def skill_row(game: str, players: int, deals: list[dict[str, Any]], hind: list[dict[str, Any]], seed: int,
              budget: float) -> dict[str, Any] | None:
    """The skill-share row of the deals that have a hindsight search (beginner = random bot)."""
    spec = get_game(game)
    by_k = {d["k"]: d for d in deals}
    rows = []
    raised = 0
    for h in sorted(hind, key=lambda r: r["k"]):
        d = by_k.get(h["k"])
        if d is None:
            continue
        b, e = (d["scores"]["random"], d["scores"]["expert"]) if game in SOLO else \
            (d["random"]["score"], d["expert"]["score"])
        if h.get("expert", e) != e:
            print(f"   warning: deal {h['k']}: the expert's game replayed for the search scored {h['expert']}, "
                  f"its record {e}")
        raised += h["score"] < e
        rows.append((b, e, max(h["score"], e), h["exact"] and h["score"] >= e, h["cpu"]))
    if len(rows) < 2:
        return None
    scores = np.array([r[:3] for r in rows], dtype=np.int64)
    exact = np.array([r[3] for r in rows], dtype=bool)
    who = lineup(game, budget=1.0, expert_budget=budget)
    share = SkillShare(spec.name, "standard", spec.default_params(), players, seed, who, scores, exact,
                       len(rows))
    row = share.row()
    row.update(budget=1.0, scores=scores.tolist(), hindsight_below_expert=raised,
               hindsight_cpu_median=round(statistics.median(r[4] for r in rows), 2),
               hindsight_cpu_max=round(max(r[4] for r in rows), 2))
    lo, hi = row.get("share_low"), row.get("share_high")
    print(f"\n   skill share of {spec.title}{f', {players} players' if players > 1 else ''}, on the {len(rows)} deals "
          f"with a hindsight search (same deals for all three):")
    print(f"   beginner {row['beginner_mean']:.2f}, expert {row['expert_mean']:.2f}, hindsight "
          f"{row['hindsight_mean']:.2f}; learning {row['learning']:.2f}, luck {row['luck']:.2f}; skill share "
          f"{row['share']} (95% bootstrap {lo} to {hi})")
    print(f"   hindsight process time per deal: median {row['hindsight_cpu_median']} s, max "
          f"{row['hindsight_cpu_max']} s; below the expert (raised to it) on {raised} deal(s); exact on "
          f"{int(exact.sum())}")
    return row


# ----- the CLI's greedy ÷ random cost (issue 17, item 7) -----------------------------------------------------
def _cli_cpu(game: str, bot: str, games: int) -> float:
    """CPU seconds (user + system) of one ``python -m sheetkit simulate`` run in a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "sheetkit", "simulate", "--game", game, "--bot", bot, "-n",
                    str(games), "--no-progress", "--workers", "1", "--seed", "0"], check=True,
                   stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def greedy_speed(game: str, n: int, rounds: int) -> None:
    """The CLI's simulate, random then greedy, each in a fresh process: CPU per game and the ratio.

    Per game = (CPU of an ``n``-game run − CPU of a 1-game run) / (n − 1): start-up and imports cancel out.
    """
    ratios = []
    times: dict[str, list[float]] = {"random": [], "greedy": []}
    for _ in range(rounds):
        per = {bot: (_cli_cpu(game, bot, n) - _cli_cpu(game, bot, 1)) / (n - 1) for bot in ("random", "greedy")}
        ratios.append(per["greedy"] / per["random"])
        for bot, cpu in per.items():
            times[bot].append(cpu)
        print(f"`python -m sheetkit simulate --game {game} --bot B -n {n} --workers 1`: random "
              f"{1000 * per['random']:.2f} ms, greedy {1000 * per['greedy']:.2f} ms per game (CPU) → greedy "
              f"{ratios[-1]:.2f}× random", flush=True)
    print(f"median ratio over {rounds} rounds: {statistics.median(ratios):.2f}× (goal ≤ 3×), "
          f"load {os.getloadavg()[0]:.1f}")
    # The random bot's game is a few ms, so one busy moment swings a round's ratio: the medians of each
    # bot's own times are a steadier second view of the same runs.
    med = {bot: statistics.median(v) for bot, v in times.items()}
    print(f"median per game: random {1000 * med['random']:.2f} ms, greedy {1000 * med['greedy']:.2f} ms → "
          f"{med['greedy'] / med['random']:.2f}×")


# ----- main ------------------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="all", choices=("all", *GAMES))
    p.add_argument("--deals", "-n", type=int, default=None,
                   help="deals (solo) or games per table size (default: the issue's, 1000 / 500 / 400)")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--results", default="", metavar="FILE",
                   help="JSON-lines results file (default benchmarks/results/<game>-seed<S>.jsonl); resumed")
    p.add_argument("--players", default="4,3,2", help="Key Harvest table sizes (default 4,3,2)")
    p.add_argument("--hindsight", type=int, default=0, metavar="H",
                   help="also run the hindsight search on the first H deals (the skill share)")
    p.add_argument("--no-bots", action="store_true", help="play no bot games (e.g. only add hindsight)")
    p.add_argument("--workers", type=int, default=1, help="processes (default 1; the machine has 2 cores)")
    p.add_argument("--budget", type=float, default=1.0, help="the expert's budget (its constructor's budget=)")
    p.add_argument("--quick", action="store_true", help="a smoke run: 6 deals, hindsight on 2")
    p.add_argument("--report", action="store_true", help="only print the figures of the results file; play none")
    p.add_argument("--save", action="store_true", help=f"write the skill rows to {SAVE_TO.relative_to(ROOT)}")
    p.add_argument("--table", action="store_true", help="print the docs' skill table from the saved file; no runs")
    p.add_argument("--greedy-speed", action="store_true",
                   help="only the CLI's greedy ÷ random CPU per game (default game: kingdom-maps)")
    p.add_argument("--rounds", type=int, default=3, help="--greedy-speed: rounds of 200 games each")
    a = p.parse_args(argv)
    if a.table:
        print(markdown_table(load_saved(SAVE_TO)))
        return 0
    if a.greedy_speed:
        greedy_speed("kingdom-maps" if a.game == "all" else get_game(a.game).name, 200, a.rounds)
        return 0
    games = GAMES if a.game == "all" else (get_game(a.game).name,)
    if a.results and len(games) > 1:
        p.error("--results names one game's file: give --game too")
    command = "python benchmarks/bot_strength.py " + " ".join(shlex.quote(x) for x in (argv or sys.argv[1:]))
    report: dict[str, Any] = {"command": command, "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
                              "games": {}}
    sizes = [int(x) for x in a.players.split(",")]

    def asked(game: str, players: int) -> int:
        """The deals a run plays of this game and table size: --deals, else the issue's count."""
        if a.quick:
            return 6
        return a.deals or (SOLO[game]["deals"] if game in SOLO else TABLES[game]["deals"][players])
    for game in games:
        path = Path(a.results) if a.results else RESULTS / f"{game}-seed{a.seed}.jsonl"
        hind = 2 if a.quick and not a.hindsight else a.hindsight
        tables = [1] if game in SOLO else sizes
        done = load_results(path)
        if not a.report:
            jobs = []
            # Interleave the table sizes, and the hindsight with the deals, so a stopped run is balanced.
            for k in range(max(asked(game, p) for p in tables)):
                for players in (p for p in tables if k < asked(game, p)):
                    if not a.no_bots and (game, "deal", a.seed, k, players, a.budget) not in done:
                        jobs.append((game, "deal", a.seed, k, players, a.budget, a.budget))
                    if k < hind and (game, "hindsight", a.seed, k, players, 1.0) not in done:
                        jobs.append((game, "hindsight", a.seed, k, players, 1.0, a.budget))
            print(f"{get_game(game).title}: {len(jobs)} jobs to run, results in {path}", file=sys.stderr)
            run_jobs(jobs, path, max(1, a.workers))
            done = load_results(path)
        entry: dict[str, Any] = {"results": str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path),
                                 "strength": {}, "skill": []}
        for players in tables:
            wanted = asked(game, players)
            deals = sorted((r for r in done.values() if r["kind"] == "deal" and r["game"] == game and
                            r["seed"] == a.seed and r["players"] == players and r["budget"] == a.budget
                            and r["k"] < wanted), key=lambda r: r["k"])
            hs = [r for r in done.values() if r["kind"] == "hindsight" and r.get("seeded") and r["game"] == game
                  and r["seed"] == a.seed and r["players"] == players and r["k"] < wanted]
            if game in SOLO:
                entry["strength"]["1"] = solo_report(game, deals, wanted, a.seed)
            else:
                entry["strength"][str(players)] = table_report(game, players, deals, wanted, a.seed)
            row = skill_row(game, players, deals, hs, a.seed, a.budget)
            if row is not None:
                entry["skill"].append(row)
        report["games"][game] = entry
    if "avenue" in games and a.save:
        ex = exact_skill()
        report["tiny_avenue_exact"] = ex.row()
        print(f"\n   tiny Avenue solved exactly ({ex.deals} deals, every line of play): beginner {ex.beginner} "
              f"= {float(ex.beginner):.3f}, expert {ex.expert} = {float(ex.expert):.3f}, hindsight {ex.hindsight} "
              f"= {float(ex.hindsight):.3f}; skill share {ex.share} = {float(ex.share or 0):.4f}")
    if a.save:
        save(report)
    return 0


def save(report: dict[str, Any]) -> None:
    """Write the games' skill rows to docs/data/skill_share.json and its table into docs/analysis.md."""
    for entry in report["games"].values():
        entry.update(command=report["command"], date=report["date"])
    old = json.loads(SAVE_TO.read_text(encoding="utf-8")) if SAVE_TO.exists() else {}
    # Games measured now replace their entries; the others' stay (each entry keeps its own command).
    games = {**old.get("games", {}), **{g: e for g, e in report["games"].items() if e["skill"]}}
    out = {"command": report["command"], "date": report["date"],
           "games": {g: games[g] for g in GAMES if g in games}}
    tiny = report.get("tiny_avenue_exact") or old.get("tiny_avenue_exact")
    if tiny:
        out["tiny_avenue_exact"] = tiny
    SAVE_TO.parent.mkdir(parents=True, exist_ok=True)
    SAVE_TO.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    docs = ROOT / "docs" / "analysis.md"
    text = docs.read_text(encoding="utf-8")
    head, tail = "<!-- skill-table: written by benchmarks/bot_strength.py --save -->\n", "\n<!-- /skill-table -->"
    if head in text and tail in text:
        before, rest = text.split(head, 1)
        docs.write_text(before + head + markdown_table(out) + tail + rest.split(tail, 1)[1], encoding="utf-8")
    print(f"\nsaved {SAVE_TO.relative_to(ROOT)} and its table in docs/analysis.md:")
    print(markdown_table(out))


if __name__ == "__main__":
    raise SystemExit(main())
