"""Pictures and tables for the lesson ``notebooks/lessons/luck_and_skill.ipynb`` (numbers: ``analysis.skill``,
``analysis.skill_exact``, ``analysis.luck_lesson``).

Three players on the same deals — a beginner (the random bot), the expert bot and hindsight (the whole deal
known in advance) — their score distributions, the skill share built up step by step, the tiny Avenue solved
exactly, every game's table, and a class's scores on its deal's beginner–expert–hindsight line.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
from sheetkit.widgets import theme
from sheetkit.widgets.lessons.common import EXACT, SIMULATED, Markup, Panel, figure, frac, table

from sheetkit.analysis import luck_lesson as ll
from sheetkit.analysis.skill import ROLES, skill_share
from sheetkit.analysis.skill_exact import TINY_LAYOUT, exact_skill, tiny_params
from sheetkit.core.registry import get_game

# One colour and one line style per player (never colour alone).
STYLE = {
    "beginner": (theme.OKABE_ITO["orange"], "///", "dotted"),
    "expert": (theme.OKABE_ITO["blue"], "", "solid"),
    "hindsight": (theme.OKABE_ITO["green"], "..", "dashed"),
}
NAMES = {"beginner": "beginner (random bot)", "expert": "expert bot", "hindsight": "hindsight (deal known)"}
TINY_NAMES = {"beginner": "beginner (random)", "expert": "expert (perfect play, deal unknown)",
              "hindsight": "hindsight (deal known)"}


def _labels(row: dict[str, Any]) -> dict[str, str]:
    return row.get("lineup", {}).get("labels", {})


def _standin_note(row: dict[str, Any]) -> str:
    lu = row.get("lineup", {})
    parts = [f"the {role} is a stand-in: {html.escape(lu['labels'][role])}" for role in ("expert", "hindsight")
             if lu.get(f"{role}_standin")]
    return ("<b>Stand-in figures:</b> " + "; ".join(parts) + ".") if parts else ""


def _histograms(scores: np.ndarray, title: str) -> Any:
    fig, ax = figure(7.5, 2.9)
    lo, hi = int(scores.min()), int(scores.max())
    step = max(1, int(np.ceil((hi - lo + 1) / 30)))
    bins = np.arange(lo - 0.5, hi + step + 0.5, step)
    for k, role in enumerate(ROLES):
        colour, hatch, line = STYLE[role]
        x = scores[:, k]
        ax.hist(x, bins=bins, histtype="stepfilled", alpha=0.25, color=colour, hatch=hatch)
        ax.hist(x, bins=bins, histtype="step", color=colour, linewidth=1.6, linestyle=line,
                label=f"{NAMES[role]}: mean {x.mean():.1f}")
        ax.axvline(x.mean(), color=colour, linestyle=line, linewidth=1.4)
    ax.set_xlabel("final score (the same deals for all three)", fontsize=9)
    ax.set_ylabel("deals", fontsize=9)
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8, frameon=False)
    return fig


def _means_table(scores: np.ndarray) -> str:
    n = len(scores)
    rows = []
    for k, role in enumerate(ROLES):
        x = scores[:, k]
        rows.append((NAMES[role], frac(Fraction(int(x.sum()), n)), f"{x.mean():.2f}", f"{x.std(ddof=1):.2f}"
                     if n > 1 else "–", int(x.min()), int(x.max())))
    return table(["player", "mean (exact)", "≈", "sd", "lowest", "highest"], rows, left=1)


def three_players(game: str = "avenue", players: int | None = None) -> Panel:
    """The benchmark's saved run: three players' scores on the same deals, their distributions and means."""
    saved = ll.load_saved()
    row, scores = ll.saved_scores(saved, game, players)
    x = np.array(scores, dtype=np.int64)
    title = f"{get_game(game).title}: {len(x)} deals (benchmark of {saved.get('date', '?')})"
    note = (f"<div class='sk-note'>Made by <code>{html.escape(saved.get('command', ''))}</code>. "
            f"{_standin_note(row)}</div>")
    return Panel(_histograms(x, title), _means_table(x), note, data={"row": row, "scores": x})


def play_three(game: str = "avenue", n: int = 4, seed: int = 0, players: int | None = None,
               budget: float = 1.0, progress: bool = True) -> Panel:
    """Play ``n`` fresh deals here with all three players (a progress bar shows on long runs)."""
    s = skill_share(game, n=n, seed=seed, players=players, budget=budget, expert_budget=budget, progress=progress,
                    workers=1)
    note = f"<div class='sk-note'>{_standin_note(s.row()) if s.deals > 1 else ''}</div>"
    return Panel(_histograms(s.scores, f"{get_game(game).title}: {s.deals} deals played just now, seed {seed}"),
                 _means_table(s.scores), note, data={"skill": s})


def formula(game: str = "avenue", players: int | None = None, scores: Sequence[Sequence[int]] | None = None) -> Panel:
    """The skill share built up from the saved deals: sums, means, the two effects, the share — all exact."""
    if scores is None:
        _, scores = ll.saved_scores(ll.load_saved(), game, players)
    steps = ll.formula_steps(scores)
    rows = [(s.name, s.how, "–" if s.value is None else frac(s.value),
             "–" if s.value is None else f"{float(s.value):.3f}") for s in steps]
    return Panel(table(["step", "how", "exact", "≈"], rows, left=2), data={"steps": steps})


def interval(game: str = "avenue", players: int | None = None) -> Panel:
    """The saved share's 95% paired bootstrap interval, with the learning and luck effects'."""
    row, _ = ll.saved_scores(ll.load_saved(), game, players)
    rows = []
    for key, name in (("learning", "learning effect"), ("luck", "luck effect"), ("share", "skill share")):
        lo, hi = row.get(f"{key}_low"), row.get(f"{key}_high")
        rows.append((name, f"{row[key]:.3f}" if row[key] is not None else "–",
                     f"{lo:.3f} to {hi:.3f}" if lo is not None and hi is not None else "–"))
    return Panel(table(["", "estimate", "95% interval (paired bootstrap)"], rows, left=1,
                       caption=f"{row['deals']} deals, resampled whole 2,000 times (seeded): each resample keeps a "
                               "deal's three scores together."), data={"row": row})


# ----- the tiny deck ---------------------------------------------------------------------------------------
def tiny_sheet() -> Panel:
    """The tiny Avenue's sheet and deck, in words."""
    rows = [[tok for tok in line.split()] for line in TINY_LAYOUT["map"]]
    names = {"#p": "purple castle", "#g": "green castle", "pp": "2 purple grapes", "gg": "2 green grapes",
             "A": "farm A", "B": "farm B"}
    grid = table(["", "column 1", "column 2", "column 3"],
                 [(f"row {r + 1}", *(names.get(t, t) for t in line)) for r, line in enumerate(rows)], left=4)
    p = tiny_params()
    deck = ", ".join(f"{'yellow' if c.yellow else 'grey'} {c.number}" for c in
                     sorted(__import__("sheetkit.games.avenue.cards", fromlist=["build_deck"]).build_deck(p.deck)))
    words = (f"<div class='sk-note'>Road deck: {deck} (road 1 joins top and left, road 3 right and bottom, "
             f"road 5 left and right). {p.rounds} rounds, a round ends on its first yellow card; a farm box of 0 "
             f"costs {p.penalty} points.</div>")
    return Panel(grid, words)


_TINY: dict[str, Any] = {}


def _tiny() -> Any:
    if "exact" not in _TINY:
        _TINY["exact"] = exact_skill()
    return _TINY["exact"]


def tiny_solved() -> Any:
    """The tiny Avenue solved completely (``skill_exact.ExactSkill``; computed once per kernel)."""
    return _tiny()


def tiny_exact(n: int = 400, seed: int = 0, expert: str | None = "greedy") -> Panel:
    """The tiny Avenue solved completely, beside seeded bot games on it.

    ``expert`` names the bot that plays the simulated expert (greedy by default: quick; "expert" for the
    expert bot). The simulated hindsight is left out: on the tiny deck it is the exact one.
    """
    ex = _tiny()
    sim = skill_share("avenue", tiny_params(), n=n, seed=seed, expert=expert, standin_runs=1, hindsight=False,
                      progress=False, workers=1)
    rows = []
    for role, value in (("beginner", ex.beginner), ("expert", ex.expert), ("hindsight", ex.hindsight)):
        s = sim.values(role) if role != "hindsight" else None
        simulated = f"{s.mean():.3f} ± {1.96 * s.std(ddof=1) / np.sqrt(len(s)):.3f}" if s is not None else "–"
        who = {"beginner": "random bot", "expert": f"{expert} bot", "hindsight": ""}[role]
        rows.append((TINY_NAMES[role], frac(value), f"{float(value):.4f}", simulated, who))
    share = ex.share
    rows.append(("skill share", frac(share) if share is not None else "–",
                 f"{float(share):.4f}" if share is not None else "–", "", ""))
    tab = table(["", "exact", "≈", f"a bot on {n} seeded deals (± 95%)", "bot"], rows, left=1,
                caption=f"Exact: every one of the {ex.deals} equally likely deals; the expert is the best strategy "
                        "that sees only what a player sees (expectimax over the unseen cards); hindsight is the "
                        "best score on each deal with the deck order known. No bot can beat the exact expert "
                        "on average.")
    fig, ax = figure(7.0, 2.6)
    ks = list(ex.hindsight_scores)
    ax.bar(ks, [float(ex.hindsight_scores[k]) for k in ks], color=EXACT, width=0.8, label="hindsight best, exact")
    if sim.deals:
        rb = sim.values("beginner")
        vals, counts = np.unique(rb, return_counts=True)
        ax.plot(vals, counts / len(rb), "D", color=SIMULATED, markersize=5, label=f"random bot, {n} deals")
    for role, value in (("beginner", ex.beginner), ("expert", ex.expert), ("hindsight", ex.hindsight)):
        colour, _, line = STYLE[role]
        ax.axvline(float(value), color=colour, linestyle=line, linewidth=1.5, label=f"{role} mean {frac(value)}")
    ax.set_xlabel("final score on the tiny deck", fontsize=9)
    ax.set_ylabel("probability", fontsize=9)
    ax.legend(fontsize=7.5, frameon=False, ncol=2)
    return Panel(tab, fig, data={"exact": ex, "simulated": sim})


# ----- every game ------------------------------------------------------------------------------------------
def all_games() -> Panel:
    """The saved skill-share table of every game (and the tiny deck's exact value)."""
    saved = ll.load_saved()
    rows = []
    for row in ll.saved_rows(saved):
        ci = (f"{row['share_low']:.2f} to {row['share_high']:.2f}"
              if row.get("share_low") is not None and row.get("share_high") is not None else "–")
        standin = "stand-in" if row.get("stand_in") else ""
        rows.append((get_game(row["game"]).title, row["variant"], row["players"], row["deals"],
                     f"{row['beginner_mean']:.1f}", f"{row['expert_mean']:.1f}", f"{row['hindsight_mean']:.1f}",
                     "–" if row["share"] is None else f"{row['share']:.2f}", ci, standin))
    tiny = saved.get("tiny_avenue_exact")
    if tiny:
        rows.append(("tiny Avenue (exact)", "tiny", 1, tiny["deals"], f"{tiny['beginner_mean']:.2f}",
                     f"{tiny['expert_mean']:.2f}", f"{tiny['hindsight_mean']:.2f}", f"{tiny['share_float']:.2f}",
                     "exact", ""))
    return Panel(table(["game", "rules", "players", "deals", "beginner", "expert", "hindsight", "skill share",
                        "95% interval", ""], rows, left=2,
                       caption=f"Made by <code>{html.escape(saved.get('command', ''))}</code> "
                               f"({html.escape(saved.get('date', ''))}). Key Harvest: one seat, rotated, against "
                               "greedy bots."), data={"saved": saved})


# ----- the class on the line ---------------------------------------------------------------------------------
def example_codes(game: str = "avenue", students: int = 8, seed: int = 11) -> str:
    """Result codes of an example "class" — bots playing one deal — to try the line before a real class has played.

    Most "students" are the random bot (each with its own seed), one is greedy and, where the game has it,
    every third the Monte Carlo planner: different games on the same deal.
    """
    from sheetkit.analysis.results import play_as_table, result_code

    spec = get_game(game)
    bots = ("greedy",) if spec.name == "avenue" else ("greedy",) * max(0, spec.min_players - 1)
    lines = []
    for k in range(students):
        kind = "greedy" if k == 1 else "montecarlo" if k % 3 == 2 and "montecarlo" in spec.bots else "random"
        state = play_as_table(spec.name, seed, kind, bots, student_seed=k)
        lines.append(f"Student {chr(65 + k)}: {result_code(state, bots)}")
    return "\n".join(lines)


def class_on_line(codes: str = "", csv_text: str = "", plays: int = 5, budget: float = 1.0) -> Panel:
    """A class's games on the line of their deal: beginner (0%), expert, hindsight (100%)."""
    line = ll.class_line(codes, csv_text, plays=plays, budget=budget, expert_budget=budget)
    fig, ax = figure(7.5, 2.4)
    marks = (("beginner", float(line.beginner)), ("expert", float(line.expert)), ("hindsight", float(line.hindsight)))
    for role, x in marks:   # named in the legend: two marks close together never hide each other's label
        colour, _, style = STYLE[role]
        ax.axvline(x, color=colour, linestyle=style, linewidth=2, label=f"{role}: {x:.1f}")
    scores = np.array([s for _, s in line.students], dtype=float)
    rng = np.random.default_rng(0)   # a little vertical spread so equal scores stay visible
    ax.plot(scores, 0.5 + rng.uniform(-0.3, 0.3, len(scores)), "o", color=theme.INK, markersize=6,
            markerfacecolor="white", label="a student")
    ax.set_ylim(0, 1)
    ax.set_yticks([])
    ax.set_xlabel("final score on the class's deal", fontsize=9)
    ax.legend(fontsize=8, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    rows = []
    for r in line.rows():
        pos = "–" if r["position"] is None else f"{r['position']:.0%}"
        rows.append((r["name"], r["score"], pos))
    ep = line.expert_position
    words = (f"<div class='sk-note'>Deal <code>{html.escape(line.deal.deal)}</code>"
             f"{' against ' + ', '.join(line.deal.bots) if line.deal.bots else ' (solo)'}. Beginner: "
             f"{html.escape(line.labels['beginner'])}; expert: {html.escape(line.labels['expert'])}; hindsight: "
             f"{html.escape(line.labels['hindsight'])}{' (exact)' if line.exact else ' (at least)'}. "
             f"On this deal the expert sits at {'–' if ep is None else f'{float(ep):.0%}'} of the way from the "
             f"beginner to hindsight. {line.skipped} entr{'y' if line.skipped == 1 else 'ies'} not counted.</div>")
    tab = table(["student", "score", "on the line"], rows, left=1,
                caption="On the line: 0% = the beginner's mean, 100% = hindsight on this deal.")
    return Panel(fig, Markup(words), tab, data={"line": line})


def class_box(plays: int = 5, budget: float = 1.0) -> Any:
    """Paste result codes or drop the class-play CSV, press the button: the class on the line (a live widget)."""
    import ipywidgets as W

    paste = W.Textarea(placeholder="Paste the students' result codes here, one per line (name: code)",
                       layout=W.Layout(width="95%", max_width="640px", height="120px"))
    upload = W.FileUpload(accept=".csv", multiple=False, description="class CSV")
    go = W.Button(description="Place the class on the line", button_style="primary")
    out = W.HTML()

    def run(_: Any = None) -> None:
        csv_text = ""
        for f in upload.value:
            csv_text = bytes(f["content"]).decode("utf-8", errors="replace")
        try:
            out.value = class_on_line(paste.value, csv_text, plays, budget)._repr_html_()
        except (ValueError, KeyError) as e:
            out.value = f"<span style='color:{theme.OKABE_ITO['vermillion']}'>{html.escape(str(e))}</span>"

    go.on_click(run)
    return W.VBox([paste, W.HBox([upload, go]), out], layout=W.Layout(max_width="100%"))
