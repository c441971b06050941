"""Kingdom Maps balance figures: each criterion's score under a bot, special-hex use, solo titles.

    .venv/bin/python benchmarks/kingdom_stats.py -n 600 --players 1 --bot greedy
    .venv/bin/python benchmarks/kingdom_stats.py -n 300 --players 2 --markdown

Every game rolls its 4 criteria as the rules say, so each criterion is measured in the games
where it is in play (about a third of them) — with the bot playing for it and for the other three.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from typing import Any

import numpy as np

from sheetkit.analysis.simulate import game_seed
from sheetkit.core.chance import derive_seed
from sheetkit.core.play import play_out
from sheetkit.games.kingdom_maps import BOTS, CRITERIA, PRESETS, SOLO_TITLES, KingdomState


def run(n: int, players: int, bot: str, seed: int, variant: str) -> dict[str, Any]:
    """Play ``n`` seeded games and collect per-criterion scores, totals and special-hex figures."""
    per: dict[str, list[int]] = defaultdict(list)
    totals: list[int] = []
    banked: list[int] = []
    banks: list[int] = []
    empty: list[int] = []
    turns: list[int] = []
    powers_gained: list[int] = []
    powers_spent: list[int] = []
    drawn_special: dict[str, int] = defaultdict(int)
    ends: dict[str, int] = defaultdict(int)
    t0 = time.perf_counter()
    for k in range(n):
        s = game_seed(seed, k)
        state = KingdomState(PRESETS[variant], players, seed=s)
        bots = [BOTS[bot](seed=derive_seed(s, "bot", p)) for p in range(players)]
        play_out(state, bots, fast=True)
        board = state.board
        turns.append(state.turn)
        ends["could not draw" if "could not draw" in (state.end_reason or "") else state.end_reason or "?"] += 1
        for p, sheet in enumerate(state.sheets):
            for c, v in state.criterion_scores(p).items():
                per[c].append(v)
            totals.append(state.total(p))
            banked.append(sum(v for _, v in sheet.banked))
            banks += [v for _, v in sheet.banked]
            empty.append(board.size - sheet.drawn)
            powers_gained.append(sheet.powers)
            powers_spent.append(sheet.spent)
            for i in board.powers | board.questions:
                if sheet.cells[i]:
                    drawn_special[str(board.coords[i])] += 1
    seconds = time.perf_counter() - t0
    table = {}
    for c in CRITERIA:
        xs = per.get(c, [])
        table[c] = {"name": CRITERIA[c].name, "n": len(xs),
                    "mean": round(statistics.fmean(xs), 2) if xs else None,
                    "stdev": round(statistics.stdev(xs), 2) if len(xs) > 1 else None,
                    "p10": int(np.percentile(xs, 10)) if xs else None,
                    "p90": int(np.percentile(xs, 90)) if xs else None}
    means = [row["mean"] for row in table.values() if row["mean"] is not None]
    q = np.percentile(totals, [10, 25, 50, 75, 90]).tolist()
    return {
        "games": n, "players": players, "bot": bot, "seed": seed, "variant": variant,
        "seconds": round(seconds, 1), "games_per_s": round(n / seconds, 1),
        "criteria": table, "ratio_max_min": round(max(means) / min(means), 2) if means else None,
        "total": {"mean": round(statistics.fmean(totals), 1), "stdev": round(statistics.stdev(totals), 1),
                  "p10": q[0], "p25": q[1], "p50": q[2], "p75": q[3], "p90": q[4]},
        "banked_mean": round(statistics.fmean(banked), 1),
        "points_per_question": round(statistics.fmean(banks), 1) if banks else None,
        "questions_per_player": round(len(banks) / len(totals), 2),
        "empty_mean": round(statistics.fmean(empty), 1),
        "turns_mean": round(statistics.fmean(turns), 1),
        "powers_gained_mean": round(statistics.fmean(powers_gained), 2),
        "powers_spent_mean": round(statistics.fmean(powers_spent), 2),
        "special_drawn_share": {h: round(v / len(totals), 2) for h, v in sorted(drawn_special.items())},
        "end_reasons": dict(ends),
        "titles": [{"title": title, "from": lowest, "reached": round(sum(t >= lowest for t in totals) / len(totals), 3)}
                   for lowest, title in SOLO_TITLES],
    }


def markdown(res: dict[str, Any]) -> str:
    """The criteria table as Markdown."""
    lines = ["| criterion | name | games | mean | stdev | 10% | 90% |", "|---|---|---|---|---|---|---|"]
    for c, row in res["criteria"].items():
        lines.append(f"| {c} | {row['name']} | {row['n']} | {row['mean']} | {row['stdev']} | {row['p10']} | "
                     f"{row['p90']} |")
    lines.append(f"\nlargest mean / smallest mean = {res['ratio_max_min']}")
    t = res["total"]
    lines.append(f"total: mean {t['mean']}, stdev {t['stdev']}; percentiles 10/25/50/75/90: "
                 f"{t['p10']:.0f} / {t['p25']:.0f} / {t['p50']:.0f} / {t['p75']:.0f} / {t['p90']:.0f}")
    lines.append(f"? hexes: {res['questions_per_player']} banked per player, {res['points_per_question']} points each "
                 f"({res['banked_mean']} of the mean total); +1/-1: {res['powers_gained_mean']} gained, "
                 f"{res['powers_spent_mean']} spent; {res['empty_mean']} hexes left empty; {res['turns_mean']} turns")
    if res["players"] == 1:
        lines.append("\n| solo title | total | bot games reaching it |\n|---|---|---|")
        lines += [f"| {t['title']} | {t['from']}+ | {100 * t['reached']:.0f}% |" for t in res["titles"]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=600)
    ap.add_argument("--players", type=int, default=1)
    ap.add_argument("--bot", default="greedy", choices=sorted(BOTS))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--variant", default="standard", choices=sorted(PRESETS))
    ap.add_argument("--markdown", action="store_true", help="print the criteria table as Markdown too")
    args = ap.parse_args(argv)
    res = run(args.n, args.players, args.bot, args.seed, args.variant)
    print(json.dumps(res, indent=1))
    if args.markdown:
        print(markdown(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
