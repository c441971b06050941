"""Does banking one criterion on every ? hex dominate Kingdom Maps? Bots that do it, against the greedy bot.

    .venv/bin/python benchmarks/kingdom_banking.py -n 100
    .venv/bin/python benchmarks/kingdom_banking.py -n 100 --players 2

On each deal (the same dice for every strategy) and for each criterion X of the four in play:

- ``greedy``: the greedy bot as shipped (plays for all four criteria; banks its best one each time);
- ``bank-X``: the greedy bot's play, but every ? hex banks X;
- ``focus-X``: plays as if X were the only criterion, and banks X on every ? hex — the
  "build long rows and bank Long rows again and again" plan of issue #10.

It prints each strategy's mean total, what its ? box held, the paired difference to greedy (95 % CI)
and, for the focus bots, the best X per criterion code. Seat 0 plays the strategy; other seats are greedy.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from typing import Any

from sheetkit.analysis.montecarlo import mean_ci
from sheetkit.analysis.simulate import game_seed
from sheetkit.core.chance import derive_seed
from sheetkit.core.play import play_out
from sheetkit.games.kingdom_maps import BOTS, PRESETS, Bank, KingdomState


class BankOneBot:
    """The greedy bot's moves, but every ? hex banks ``criterion`` (when it is in play)."""

    def __init__(self, criterion: str, seed: int | None = 0, focus: bool = False) -> None:
        self.criterion = criterion
        self.focus = focus
        self.inner = BOTS["greedy"](seed=seed)
        self.name = f"{'focus' if focus else 'bank'}-{criterion}"

    def act(self, state: KingdomState, player: int) -> Any:
        acts = state.legal_actions(player)
        if any(isinstance(a, Bank) for a in acts) and Bank(self.criterion) in acts:
            return Bank(self.criterion)
        if not self.focus:
            return self.inner.act(state, player)
        # Play as if the criterion were the only one: the bot's view of the game, never the game itself.
        view = state.clone()
        view.criteria = (self.criterion,)
        return self.inner.act(view, player)


def play(seed: int, players: int, variant: str, bot0: Any) -> KingdomState:
    """One deal with ``bot0`` in seat 0 and greedy bots elsewhere."""
    state = KingdomState(PRESETS[variant], players, seed=seed)
    bots = [bot0] + [BOTS["greedy"](seed=derive_seed(seed, "bot", p)) for p in range(1, players)]
    play_out(state, bots, fast=True)
    return state


def run(n: int, players: int, seed: int, variant: str) -> dict[str, Any]:
    """Every strategy on ``n`` deals; per strategy the totals, banked points and paired differences."""
    totals: dict[str, list[int]] = defaultdict(list)
    banked: dict[str, list[int]] = defaultdict(list)
    diffs: dict[str, list[int]] = defaultdict(list)
    same_bank = 0
    greedy_banks = 0
    by_code: dict[str, list[int]] = defaultdict(list)     # focus-X minus greedy, by the criterion X
    best_focus: list[int] = []
    t0 = time.perf_counter()
    for k in range(n):
        s = game_seed(seed, k)
        g = play(s, players, variant, BOTS["greedy"](seed=derive_seed(s, "bot", 0)))
        base = g.total(0)
        totals["greedy"].append(base)
        banked["greedy"].append(sum(v for _, v in g.sheets[0].banked))
        codes = [c for c, _ in g.sheets[0].banked]
        greedy_banks += 1 if codes else 0
        same_bank += 1 if len(codes) > 1 and len(set(codes)) == 1 else 0
        focus_here = []
        for x in g.criteria:
            for focus in (False, True):
                key = "focus-X" if focus else "bank-X"
                st = play(s, players, variant, BankOneBot(x, derive_seed(s, "bot", 0), focus))
                t = st.total(0)
                totals[key].append(t)
                banked[key].append(sum(v for _, v in st.sheets[0].banked))
                diffs[key].append(t - base)
                if focus:
                    by_code[x].append(t - base)
                    focus_here.append(t)
        best_focus.append(max(focus_here) - base)
    seconds = time.perf_counter() - t0

    def summary(xs: list[int]) -> dict[str, Any]:
        ci = mean_ci(xs) if len(xs) > 1 else None
        return {"n": len(xs), "mean": round(statistics.fmean(xs), 1), "low": round(ci.low, 1) if ci else float("nan"),
                "high": round(ci.high, 1) if ci else float("nan")}

    out: dict[str, Any] = {"deals": n, "players": players, "variant": variant, "seed": seed,
                           "seconds": round(seconds, 1), "strategies": {}}
    for key in totals:
        row = {"games": len(totals[key]), "total": round(statistics.fmean(totals[key]), 1),
               "banked": round(statistics.fmean(banked[key]), 1),
               "banked_share": round(sum(banked[key]) / max(1, sum(totals[key])), 3),
               "max_total": max(totals[key])}
        if key in diffs:
            row["minus_greedy"] = summary(diffs[key])
        out["strategies"][key] = row
    out["greedy_banks_one_criterion_every_time"] = round(same_bank / max(1, greedy_banks), 3)
    out["best_focus_minus_greedy"] = summary(best_focus)
    out["focus_minus_greedy_by_criterion"] = {c: summary(v) for c, v in sorted(by_code.items())}
    return out


def markdown(res: dict[str, Any]) -> str:
    """The strategies as a Markdown table."""
    lines = ["| strategy | games | mean total | ? box | ? share | best game | new − greedy (95 % CI) |",
             "|---|---|---|---|---|---|---|"]
    for key, row in res["strategies"].items():
        d = row.get("minus_greedy")
        ci = f"{d['mean']:+.1f} ({d['low']:+.1f} to {d['high']:+.1f})" if d else "–"
        lines.append(f"| {key} | {row['games']} | {row['total']} | {row['banked']} | {100 * row['banked_share']:.0f}% "
                     f"| {row['max_total']} | {ci} |")
    b = res["best_focus_minus_greedy"]
    lines.append(f"\nbest focus criterion per deal (chosen after the fact) − greedy: {b['mean']:+.1f} "
                 f"({b['low']:+.1f} to {b['high']:+.1f})")
    lines.append(f"greedy banks one criterion on every ? hex in "
                 f"{100 * res['greedy_banks_one_criterion_every_time']:.0f}% of its games")
    lines.append("\n| focus on | deals | focus − greedy (95 % CI) |\n|---|---|---|")
    for c, d in res["focus_minus_greedy_by_criterion"].items():
        lines.append(f"| {c} | {d['n']} | {d['mean']:+.1f} ({d['low']:+.1f} to {d['high']:+.1f}) |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=100, help="deals")
    ap.add_argument("--players", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--variant", default="standard", choices=sorted(PRESETS))
    args = ap.parse_args(argv)
    res = run(args.n, args.players, args.seed, args.variant)
    print(json.dumps(res, indent=1))
    print(markdown(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
