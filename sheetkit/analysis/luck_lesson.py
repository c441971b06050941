"""The numbers of the luck-and-skill lesson: the benchmark's saved table, the formula step by step, and a
class's scores placed on the beginner–expert–hindsight line of their deal.

Pictures are in ``sheetkit.widgets.lessons.luck``; the skill share itself in ``sheetkit.analysis.skill``.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from sheetkit.analysis.class_review import bot_games
from sheetkit.analysis.results import ClassDeal, Gathered, Result, gather
from sheetkit.analysis.skill import ROLES, SkillShare, relative_skill
from sheetkit.core.chance import derive_seed
from sheetkit.core.codes import parse_code
from sheetkit.core.play import advance, bot_names, run, seat_bots
from sheetkit.core.registry import get_game

__all__ = ["SAVED", "ClassLine", "Step", "class_line", "codes_from_csv", "formula_steps", "load_saved",
           "markdown_table", "saved_rows", "saved_scores"]

# Written by `python benchmarks/bot_strength.py --save` (docs/analysis.md, "How much is luck?").
SAVED = Path(__file__).resolve().parents[2] / "docs" / "data" / "skill_share.json"


def load_saved(path: str | Path | None = None) -> dict[str, Any]:
    """The benchmark's saved skill-share table (raises FileNotFoundError with the command that makes it)."""
    p = Path(path) if path is not None else SAVED
    if not p.exists():
        raise FileNotFoundError(f"{p} is missing: make it with python benchmarks/bot_strength.py --save")
    return json.loads(p.read_text(encoding="utf-8"))


def saved_rows(saved: dict[str, Any]) -> list[dict[str, Any]]:
    """Every skill-share row of the saved table, game by game."""
    return [row for entry in saved.get("games", {}).values() for row in entry.get("skill", [])]


def saved_scores(saved: dict[str, Any], game: str,
                 players: int | None = None) -> tuple[dict[str, Any], list[list[int]]]:
    """One saved row and its per-deal (beginner, expert, hindsight) scores."""
    name = get_game(game).name
    for row in saved.get("games", {}).get(name, {}).get("skill", []):
        if players is None or row["players"] == players:
            return row, row.get("scores", [])
    raise KeyError(f"no saved skill share for {name}" + (f" with {players} players" if players else ""))


def markdown_table(saved: dict[str, Any]) -> str:
    """The docs' skill-share table (docs/analysis.md, "How much is luck?") from the saved benchmark."""
    lines = ["| game | rules | players | deals | beginner | expert | hindsight | learning | luck | skill share "
             "(95% CI) | measured with |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for row in saved_rows(saved):
        lo, hi = row.get("share_low"), row.get("share_high")
        share = "–" if row["share"] is None else f"{row['share']:.2f}"
        if lo is not None and hi is not None:
            share += f" ({lo:.2f}–{hi:.2f})"
        lu = row["lineup"]
        who = "expert bot + hindsight search"
        if lu["expert_standin"] or lu["hindsight_standin"]:
            who = "**stand-in**: " + "; ".join(lu["labels"][r] for r in ("expert", "hindsight")
                                               if lu[f"{r}_standin"])
        if row.get("budget", 1.0) != 1.0:
            who += f" (budget {row['budget']:g})"
        lines.append(f"| {get_game(row['game']).title} | {row['variant']} | {row['players']} | {row['deals']} | "
                     f"{row['beginner_mean']:.2f} | {row['expert_mean']:.2f} | {row['hindsight_mean']:.2f} | "
                     f"{row['learning']:.2f} | {row['luck']:.2f} | {share} | {who} |")
    tiny = saved.get("tiny_avenue_exact")
    if tiny:
        lines.append(f"| tiny Avenue (exact) | 2 × 3 sheet, 4 cards | 1 | all {tiny['deals']} | {tiny['beginner']} | "
                     f"{tiny['expert']} | {tiny['hindsight']} | {tiny['learning']} | {tiny['luck']} | "
                     f"{tiny['share']} ≈ {tiny['share_float']:.3f} | counted: random policy, expectimax, "
                     "hindsight per deal |")
    made = sorted({(e.get("command") or saved.get("command", ""), e.get("date") or saved.get("date", ""))
                   for e in saved.get("games", {}).values()})
    lines += ["", "Made by " + "; ".join(f"`{c}` ({d})" for c, d in made) + "."]
    return "\n".join(lines)


# ----- the formula, step by step ------------------------------------------------------------------------
@dataclass(frozen=True)
class Step:
    """One line of the worked formula: what it is, how it is computed, and its exact value."""

    name: str
    how: str
    value: Fraction | None


def formula_steps(scores: Sequence[Sequence[int]] | SkillShare) -> list[Step]:
    """The skill share built up from per-deal scores: three sums, three means, two effects, one share."""
    rows = scores.scores.tolist() if isinstance(scores, SkillShare) else [list(r) for r in scores]
    n = len(rows)
    if n == 0:
        raise ValueError("no deals")
    sums = [sum(int(r[k]) for r in rows) for k in range(3)]
    means = [Fraction(s, n) for s in sums]
    b, e, h = means
    share = relative_skill(b, e, h)
    steps = [Step(f"{role} mean", f"{sums[k]} points over {n} deals = {sums[k]}/{n}", means[k])
             for k, role in enumerate(ROLES)]
    steps += [
        Step("learning effect", "expert − beginner", e - b),
        Step("luck effect", "hindsight − expert", h - e),
        Step("skill share", "learning / (learning + luck) = (expert − beginner) / (hindsight − beginner)", share),
    ]
    return steps


# ----- the class on the line ---------------------------------------------------------------------------
def codes_from_csv(text: str) -> str:
    """The result codes of a class-play CSV (its "code" column), one per line as "name: code", for ``gather``.

    Scores in a CSV are never trusted: the codes are replayed and the scores recomputed.
    """
    reader = csv.DictReader(io.StringIO(text))
    if reader.fieldnames is None or "code" not in reader.fieldnames:
        raise ValueError("this CSV has no 'code' column: save it from the class-play dashboard (Download CSV)")
    lines = []
    for row in reader:
        code = (row.get("code") or "").strip()
        if not code or (row.get("score") or "") == "":
            continue   # a skipped entry of the class's CSV
        name = (row.get("name") or "").strip().lstrip("'")
        lines.append(f"{name}: {code}" if name else code)
    return "\n".join(lines)


@dataclass
class ClassLine:
    """A class's deal measured three ways, and each student's score placed between beginner and hindsight."""

    deal: ClassDeal
    beginner: Fraction        # the random bot's mean over several seeds on this deal
    expert: Fraction          # the expert's score(s) on this deal, mean
    hindsight: int            # the best found told the deal ("at least" unless exact)
    exact: bool
    students: list[tuple[str, int]]
    skipped: int = 0
    labels: dict[str, str] = field(default_factory=dict)

    def position(self, score: int | Fraction) -> Fraction | None:
        """Where a score sits on the line: 0 = the beginner, 1 = hindsight (may fall outside 0..1)."""
        width = Fraction(self.hindsight) - self.beginner
        return None if width <= 0 else (Fraction(score) - self.beginner) / width

    @property
    def expert_position(self) -> Fraction | None:
        """The expert's place on the line: the skill share of this one deal."""
        return self.position(self.expert)

    def rows(self) -> list[dict[str, Any]]:
        """One row per student, best first: name, score, place on the line."""
        out = []
        for name, score in sorted(self.students, key=lambda t: -t[1]):
            pos = self.position(score)
            out.append({"name": name, "score": score, "position": None if pos is None else float(pos)})
        return out


def _hindsight_on(deal: ClassDeal, expert_scores: list[int], runs: Sequence[int],
                  budget: float) -> tuple[int, bool, str]:
    spec = deal.spec
    gc = parse_code(deal.deal)
    if spec.hindsight is None:
        return max([*expert_scores, *runs]), False, "best of the bots' games on this deal (stand-in for hindsight)"
    params = spec.presets[gc.preset]()
    state = spec.new_state(params, ["You", *bot_names(deal.bots)], seed=gc.seed)
    table = seat_bots(spec.bots, deal.bots, gc.seed)
    opponents = [None, *(table[p] for p in range(1, len(deal.bots) + 1))]
    found = spec.hindsight(state, 0, opponents, budget)
    best = max(int(found.score), *expert_scores)
    return best, bool(found.exact) and int(found.score) >= best, "hindsight search (told the whole deal)"


def class_line(text: str = "", csv_text: str = "", files: Sequence[tuple[str, bytes]] = (),
               plays: int = 5, expert: str | None = None, budget: float = 1.0,
               expert_budget: float = 1.0) -> ClassLine:
    """Read a class's games (pasted result codes, a class-play CSV, record files) and measure their deal.

    The deal is the one most of the games were played on (others are counted as skipped). On it, seat 0
    is played by the random bot (``plays`` seeds), the expert and the hindsight search, against the
    class's own opponents seeded as every class table seeds them. Hindsight is at least every game played
    on the deal (each is a line a player told the deal could have played), so no student sits above 100%.
    """
    pasted = "\n".join(t for t in (text, codes_from_csv(csv_text) if csv_text else "") if t)
    got: Gathered = gather(pasted, files)
    if not got.results:
        why = "; ".join(s.reason for s in got.skipped[:3])
        raise ValueError("no game could be read" + (f": {why}" if why else " — paste result codes or a CSV"))
    deals: dict[tuple[str, tuple[str, ...]], list[Result]] = {}
    for r in got.results:
        deals.setdefault((r.deal, tuple(r.bots)), []).append(r)
    (deal_code, bots), games = max(deals.items(), key=lambda kv: len(kv[1]))
    deal = ClassDeal(deal_code, bots)
    spec = deal.spec
    if expert is None:
        expert = next(b for b in ("expert", "montecarlo", "greedy") if b in spec.bots)
    options = {"budget": expert_budget} if expert == "expert" and expert_budget != 1.0 else {}
    beginners = bot_games(deal, plays=plays, kinds=["random"])
    experts = _expert_games(deal, expert, options)
    runs = [g.score for g in beginners]
    h, exact, h_label = _hindsight_on(deal, experts, runs, budget)
    # Every game played on the deal is a line the told player could have played: the best is at least each.
    best_student = max(r.score for r in games)
    if best_student > h:
        h, exact = best_student, False
        h_label += ", raised to the best student's game"
    labels = {"beginner": f"random bot, mean of {len(beginners)} games",
              "expert": f"{expert} bot" + ("" if expert == "expert" else " (stand-in for the expert)"),
              "hindsight": h_label}
    return ClassLine(deal, Fraction(sum(runs), len(runs)), Fraction(sum(experts), len(experts)), h, exact,
                     [(r.name, r.score) for r in games], len(got.results) - len(games) + len(got.skipped), labels)


def _expert_games(deal: ClassDeal, kind: str, options: dict[str, Any]) -> list[int]:
    """The expert in seat 0 of the class's deal, once, moving first as a student at a class table does."""
    spec = deal.spec
    gc = parse_code(deal.deal)
    state = spec.new_state(spec.presets[gc.preset](), ["You", *bot_names(deal.bots)], seed=gc.seed)
    me = spec.bots[kind](seed=derive_seed(gc.seed, "class-expert"), **options)
    run(advance(state, seat_bots(spec.bots, deal.bots, gc.seed), people={0},
                person_move=lambda now, _: me.act(now, 0)))
    return [int(state.scores()[0])]
