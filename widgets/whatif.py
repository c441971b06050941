"""The scoring what-if explorer: change a rule with a slider, play the old and the new rules on the same
deals, watch both score distributions and the paired difference (with its 95 % CI) fill in.

Everything about the rules comes from ``sheetkit.analysis`` — the knobs (``analysis.knobs``), the games and
the statistics (``analysis.whatif``, ``analysis.montecarlo``); every word about a game — its first question,
how to read the answer, the questions to try — comes from the game's own ``WhatIfSpec`` through
``analysis.whatif.guide``. This module only lays out controls and draws.
Runs go on a background thread in batches, so the page stays live and Stop answers within a batch.
"""

from __future__ import annotations

import contextlib
import html
import io
import math
import os
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import ipywidgets as W
from sheetkit.widgets import theme

from sheetkit.analysis.knobs import Knob, describe_changes, example, knob_values, knobs, params_from_knobs
from sheetkit.analysis.montecarlo import Results, _cores, resolve_variant
from sheetkit.analysis.whatif import (
    NEW,
    OLD,
    Guide,
    SkillRun,
    WhatIfRun,
    guide,
    seconds_per_game,
    skill_table,
    whatif_table,
)
from sheetkit.core.errors import SheetkitError
from sheetkit.core.registry import all_games, get_game

OLD_COLOUR = theme.OKABE_ITO["sky"]
NEW_COLOUR = theme.OKABE_ITO["vermillion"]
DIFF_COLOUR = theme.OKABE_ITO["blue"]
GAME_SIZES = (20, 50, 100, 200, 500, 1000, 2000, 5000, 10000)
SKILL_SIZES = (4, 10, 20, 50, 100, 200, 500)
# A deployment names its dask scheduler here (e.g. tcp://scheduler:8786) so every page offers it.
DASK_ENV = "SHEETKIT_DASK"
PLOT_EVERY = 1.0  # least seconds between redraws of the figure while a run is going

CSS = f"""<style>
.sk-whatif {{ font-family: {theme.FONT_INK}; color: {theme.INK}; gap: 6px; max-width: 1180px; }}
.sk-whatif h3 {{ font-family: {theme.FONT_PRINT}; margin: 4px 0; }}
.sk-whatif .sk-credit {{ font-size: 13px; color: {theme.PRINT}; }}
.sk-whatif .sk-panel {{ background: {theme.PAPER}; border: 1px solid #DDD6C4; border-radius: 4px; padding: 6px 10px;
  gap: 4px; }}
.sk-whatif .sk-changes {{ font-size: 14px; min-height: 22px; }}
.sk-whatif .sk-changes .sk-error, .sk-whatif .sk-wstatus .sk-error {{ color: {theme.OKABE_ITO['vermillion']};
  font-weight: bold; }}
.sk-whatif .sk-wstatus {{ font-size: 15px; padding: 4px 10px; background: #EEF3F9;
  border-left: 4px solid {theme.OKABE_ITO['blue']}; border-radius: 3px; min-height: 24px; }}
.sk-whatif table.sk-wtable {{ border-collapse: collapse; font-size: 14px; margin: 4px 0; }}
.sk-whatif table.sk-wtable th, .sk-whatif table.sk-wtable td {{ border-bottom: 1px solid {theme.GRID};
  padding: 3px 12px; text-align: left; white-space: nowrap; }}
.sk-whatif table.sk-wtable th {{ color: {theme.PRINT}; font-weight: normal; }}
.sk-whatif table.sk-wtable tr.sk-diff td {{ font-weight: bold; }}
.sk-whatif .widget-html-content {{ line-height: 1.4; }}
.sk-whatif .sk-runrow {{ flex-wrap: wrap; align-items: center; row-gap: 4px; }}
.sk-whatif .sk-panel.widget-hbox, .sk-whatif .sk-panel > .widget-hbox {{ flex-wrap: wrap; row-gap: 4px; }}
.sk-whatif .sk-panel .widget-inline-hbox, .sk-whatif .sk-panel > .widget-hbox > .widget-vbox {{ max-width: 100%; }}
.sk-whatif .sk-runrow .widget-html-content {{ white-space: nowrap; }}
.sk-whatif .widget-html, .sk-whatif .widget-html-content {{ min-width: 0; max-width: 100%; }}
.sk-whatif .sk-results .widget-html-content, .sk-whatif .sk-skill-results .widget-html-content {{
  overflow-x: auto; }}
.sk-whatif .sk-question {{ font-size: 15px; }}
.sk-whatif .sk-question-row {{ align-items: center; gap: 8px; flex-wrap: wrap; }}
.sk-whatif .sk-guide {{ font-size: 15px; max-width: 60em; }}
.sk-whatif .sk-guide h3 {{ margin: 12px 0 4px 0; }}
.sk-whatif .sk-guide li {{ margin: 4px 0; }}
.sk-whatif .sk-guide summary {{ cursor: pointer; color: {theme.OKABE_ITO['blue']}; }}
.sk-whatif .sk-guide .widget-html-content, .sk-whatif .sk-question .widget-html-content {{ line-height: 1.5; }}
</style>"""


def marked(text: str) -> str:
    """A game's plain words as HTML: escaped, with **bold**, *italic* and `code` turned into their styles."""
    out = html.escape(text, quote=False)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", out)
    return re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<i>\1</i>", out)


def question_html(g: Guide, state: str = "ask", games: int | None = None) -> str:
    """The first question: to ask ("ask"), being asked ("asking"), or answered by the table below ("answered")."""
    q = f"<i>{marked(g.question)}</i>"
    if state == "answered":
        return f"<b>Answered below:</b> {q} ({games or g.deals:,} deals, played in this kernel)"
    if state == "asking":
        return f"<b>Asking:</b> {q} ({g.deals:,} deals, played in this kernel)…"
    return f"<b>A first question:</b> {q} ({g.deals:,} deals) — press <b>Ask it</b>, or move the knobs yourself."


def guide_html(g: Guide) -> str:
    """'Reading the answer' and 'Try it' for one game, from its own words."""
    reading = "".join(f"<li>{marked(r)}</li>" for r in g.reading)
    tries = "".join(f"<li>{marked(t.question)}<details><summary>Answer</summary>{marked(t.answer)}</details></li>"
                    for t in g.tries)
    return (f"<h3>Reading the answer</h3><ul>{reading}</ul><h3>Try it</h3><ol>{tries}</ol>"
            f"<p>The first question from a terminal: <code>{html.escape(g.command)}</code></p>")


class _Default:
    """A choice knob's "the game decides" value (None in the params) as a dropdown holds it: ipywidgets
    takes a None value for "nothing selected" and shows a blank box."""

    def __repr__(self) -> str:
        return "default"


DEFAULT = _Default()


def _to_widget(value: Any) -> Any:
    return DEFAULT if value is None else value


def _from_widget(value: Any) -> Any:
    return None if value is DEFAULT else value


def _fmt(x: float | None, digits: int = 2) -> str:
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def table_html(summary: dict[str, Any], old_name: str, new_name: str) -> str:
    """The results table: each rule set's mean and CI, the paired difference, the unpaired CI, the correlation."""
    lvl = f"{summary['level']:.0%}"
    rows = []
    for row, name in zip(summary["rows"], (old_name, new_name), strict=True):
        ci = f"{_fmt(row['low'])} to {_fmt(row['high'])}" if row["low"] is not None else "–"
        rows.append(f"<tr data-rules='{html.escape(row['rules'])}'><td>{html.escape(name)}</td><td>{row['games']}</td>"
                    f"<td>{_fmt(row['mean'])}</td><td>{_fmt(row['sd'])}</td><td>{ci}</td></tr>")
    if "diff" in summary:
        d = summary
        rows.append(f"<tr class='sk-diff' data-rules='difference'><td>new − old, deal by deal (paired)</td>"
                    f"<td>{d['games']}</td><td>{d['diff']:+.2f}</td><td></td>"
                    f"<td>{_fmt(d['diff_low'])} to {_fmt(d['diff_high'])}</td></tr>")
        rows.append(f"<tr data-rules='unpaired'><td>the same, as if independent games</td><td>{d['games']}</td>"
                    f"<td>{d['diff']:+.2f}</td><td></td><td>{_fmt(d['unpaired_low'])} to "
                    f"{_fmt(d['unpaired_high'])}</td></tr>")
    head = (f"<tr><th>rules</th><th>games</th><th>mean score</th><th>sd</th><th>{lvl} CI of the mean</th></tr>")
    note = ""
    if "diff" in summary:
        verdict = ("the difference shows: its CI excludes 0" if summary["shows"] else
                   "no difference shows yet: the CI includes 0")
        corr = summary["correlation"]
        gain = ""
        pw = (summary["diff_high"] - summary["diff_low"]) / 2
        uw = (summary["unpaired_high"] - summary["unpaired_low"]) / 2
        if pw > 0:
            gain = f" — pairing the deals is worth ×{(uw / pw) ** 2:.1f} as many independent games"
        note = (f"<div class='sk-credit'>{verdict}. Old and new scores on the same deal correlate at "
                f"{_fmt(corr)}{gain}.</div>")
    return f"<table class='sk-wtable'>{head}{''.join(rows)}</table>{note}"


def skill_html(summary: dict[str, Any], old_name: str, new_name: str) -> str:
    """The skill-share table: per rule set the three players' means, both effects, the share and its CI;
    then the paired difference of the shares; stand-ins named under it."""
    lvl = f"{summary['level']:.0%}"
    head = ("<tr><th>rules</th><th>beginner</th><th>expert</th><th>hindsight</th><th>learning</th><th>luck</th>"
            f"<th>skill share</th><th>{lvl} CI</th></tr>")
    rows = []
    for row, name in zip(summary["rows"], (old_name, new_name), strict=True):
        ci = f"{_fmt(row['low'])} to {_fmt(row['high'])}" if row["low"] is not None else "–"
        share = "–" if row["share"] is None else f"{row['share']:.3f}"
        rows.append(f"<tr data-rules='{html.escape(row['rules'])}'><td>{html.escape(name)}</td>"
                    f"<td>{row['beginner']:.2f}</td><td>{row['expert']:.2f}</td><td>{row['hindsight']:.2f}</td>"
                    f"<td>{row['learning']:.2f}</td><td>{row['luck']:.2f}</td><td>{share}</td><td>{ci}</td></tr>")
    if "diff" in summary and not math.isnan(summary["diff"]):
        rows.append(f"<tr class='sk-diff' data-rules='difference'><td>new − old, same deals (paired)</td>"
                    f"<td></td><td></td><td></td><td></td><td></td><td>{summary['diff']:+.3f}</td>"
                    f"<td>{_fmt(summary['diff_low'], 3)} to {_fmt(summary['diff_high'], 3)}</td></tr>")
    lu = summary["lineup"]
    notes = [f"{summary['deals']:,} deals; beginner = {html.escape(lu['labels']['beginner'])}, expert = "
             f"{html.escape(lu['labels']['expert'])}, hindsight = {html.escape(lu['labels']['hindsight'])}."]
    if summary.get("stand_in"):
        notes.append("<b>Stand-in figures</b>: a role above is played by a stand-in until the game has its own.")
    if "shows" in summary:
        notes.append("The new rules change the skill share: its CI excludes 0." if summary["shows"] else
                     "No change of the skill share shows yet: its CI includes 0.")
    return f"<table class='sk-wtable sk-skill-table'>{head}{''.join(rows)}</table><div class='sk-credit'>" \
           f"{' '.join(notes)}</div>"


def whatif_figure(res: Results, old_name: str = "old rules", new_name: str = "new rules",
                  seat: int | None = None, level: float = 0.95) -> Any:
    """Score distributions of old and new side by side (same bins), and the histogram of paired differences
    with its mean and CI. Old is filled sky blue, new a hatched vermillion outline: never colour alone."""
    import numpy as np
    from matplotlib.figure import Figure

    fig = Figure(figsize=(10.5, 3.2))
    ax1, ax2 = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.25, 1]})
    a, b = res.values(OLD, seat), res.values(NEW, seat)
    lo, hi = float(min(a.min(), b.min())), float(max(a.max(), b.max()))
    step = max(1.0, math.ceil((hi - lo + 1) / 40))
    bins = np.arange(math.floor(lo) - 0.5, math.ceil(hi) + step + 0.5, step)
    ax1.hist(a, bins=bins, color=OLD_COLOUR, alpha=0.75, label=f"old: {old_name}")
    ax1.hist(b, bins=bins, histtype="step", color=NEW_COLOUR, linewidth=1.8, hatch="///", label=f"new: {new_name}")
    ax1.axvline(a.mean(), color="black", linestyle="--", linewidth=1)
    ax1.axvline(b.mean(), color=NEW_COLOUR, linestyle=":", linewidth=1.6)
    ax1.set_xlabel("final score" + ("" if seat is None else f" (player {seat})"), fontsize=9)
    ax1.set_ylabel("games", fontsize=9)
    ax1.legend(fontsize=8, frameon=False, loc="lower left", bbox_to_anchor=(0, 1.0), ncol=2,
               title=f"scores over the same {res.games} deals (lines: the means)", title_fontsize=9)
    d = b - a
    dlo, dhi = float(d.min()), float(d.max())
    dstep = max(1.0, math.ceil((dhi - dlo + 1) / 40))
    dbins = np.arange(math.floor(dlo) - 0.5, math.ceil(dhi) + dstep + 0.5, dstep)
    ax2.hist(d, bins=dbins, color=DIFF_COLOUR, alpha=0.8)
    ax2.axvline(0, color="black", linewidth=0.8)
    if len(d) > 1:
        from sheetkit.analysis.montecarlo import mean_ci

        ci = mean_ci(d, level)
        ax2.axvspan(ci.low, ci.high, color=theme.OKABE_ITO["orange"], alpha=0.35, hatch="..")
        ax2.axvline(ci.estimate, color="black", linestyle="--", linewidth=1.2)
        ax2.set_title(f"new − old: mean {ci.estimate:+.2f} (dashed), {level:.0%} CI {ci.low:+.2f} to "
                      f"{ci.high:+.2f} (band)", fontsize=9)
    ax2.set_xlabel("new − old on the same deal (0: the solid line)", fontsize=9)
    for ax in (ax1, ax2):
        ax.tick_params(labelsize=8)
        ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return fig


def figure_png(fig: Any) -> bytes:
    """A figure as PNG bytes, at twice its size (crisp on HiDPI screens)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=192, facecolor="white")
    return buf.getvalue()


class WhatIf(W.VBox):
    """The explorer. ``WhatIf(game="avenue")``; the notebook shows it; tests drive its widgets."""

    def __init__(self, game: str = "avenue", bot: str = "greedy", n: int | None = None, seed: int = 0,
                 workers: int | None = None, players: int | None = None, live: bool = True,
                 dask: str | None = None) -> None:
        super().__init__()
        self.add_class("sk-whatif")
        games = [s for s in all_games() if knobs(s.name)]
        self.game_box = W.Dropdown(options=[(s.title, s.name) for s in games], value=get_game(game).name,
                                   description="game")
        self.bot_box = W.Dropdown(description="bot")
        self._players = players   # None: the game's own (its WhatIfSpec)
        self.players_box = W.BoundedIntText(value=players or 1, min=1, max=4, description="players",
                                            layout=W.Layout(width="150px"))
        self.games_box = W.SelectionSlider(options=GAME_SIZES, value=1000, description="deals",
                                           continuous_update=False)
        self.seed_box = W.IntText(value=seed, description="seed", layout=W.Layout(width="170px"))
        slots = max(1, _cores())
        options = [("1 (this kernel)", 1)] + [(f"{k} processes", k) for k in range(2, slots + 1)]
        self.workers_box = W.Dropdown(options=options, value=min(workers or min(2, slots), slots),
                                      description="workers", layout=W.Layout(width="220px"))
        self.base_box = W.Dropdown(description="old rules")
        self.reset_button = W.Button(description="new = old", tooltip="set every knob back to the old rules")
        self.knob_box = W.VBox()
        self.knob_widgets: dict[str, W.ValueWidget] = {}
        self.changes = W.HTML()
        self.changes.add_class("sk-changes")
        self.run_button = W.Button(description="Run", button_style="primary", icon="play")
        self.run_button.add_class("sk-run")
        self.stop_button = W.Button(description="Stop", icon="stop", disabled=True)
        self.stop_button.add_class("sk-stop")
        self.live_box = W.Checkbox(value=live, description="run again whenever a rule changes", indent=False,
                                   layout=W.Layout(width="auto"))
        self.live_box.add_class("sk-live")
        self.progress = W.IntProgress(value=0, min=0, max=1, description="", layout=W.Layout(width="360px"))
        self.progress.add_class("sk-progress")
        self.progress_text = W.HTML()
        self.status = W.HTML()
        self.status.add_class("sk-wstatus")
        self.table = W.HTML()
        self.table.add_class("sk-results")
        self.plot = W.Image(format="png", layout=W.Layout(width="1008px", margin="2px 0px"))  # no side margins: fits
        self.plot.add_class("sk-plot")
        self.credit = W.HTML()
        self.credit.add_class("sk-credit")
        self.question = W.HTML()
        self.question.add_class("sk-question")
        self.ask_button = W.Button(description="Ask it", icon="question", layout=W.Layout(width="auto", flex="none"),
                                   tooltip="Set the new rules to this question and run it")
        self.ask_button.add_class("sk-ask")
        self.guide = W.HTML()
        self.guide.add_class("sk-guide")
        # How much is luck: the skill share of the old and the new rules (sheetkit.analysis.skill).
        self.skill_button = W.Button(description="Skill share", icon="balance-scale",
                                     tooltip="How much is luck? Beginner, expert and hindsight on the same deals, "
                                             "under the old and the new rules")
        self.skill_button.add_class("sk-skill")
        self.skill_deals_box = W.Dropdown(options=SKILL_SIZES, value=10, description="deals",
                                          layout=W.Layout(width="160px"))
        self.cluster_box = W.Text(value=dask if dask is not None else os.environ.get(DASK_ENV, ""),
                                  placeholder="tcp://scheduler:8786 (optional)", description="dask cluster",
                                  layout=W.Layout(width="330px"))
        self.cluster_box.add_class("sk-cluster")
        self.skill_progress = W.IntProgress(value=0, min=0, max=1, layout=W.Layout(width="200px"))
        self.skill_status = W.HTML()
        self.skill_status.add_class("sk-wstatus")
        self.skill_out = W.HTML()
        self.skill_out.add_class("sk-skill-results")
        self.skill_run: SkillRun | None = None
        self.skill_budget = 1.0   # the expert's and the hindsight search's budget (scripts and tests lower it)
        self.skill_summary: dict[str, Any] | None = None
        self._asking = False      # the run about to start is the game's first question
        self._answering = False   # the run in play (or last finished) is the first question's

        self.run: WhatIfRun | None = None
        self.results: Results | None = None
        self.summary: dict[str, Any] | None = None
        self.new_params: Any = None
        self._old_name = self._new_name = ""
        self._last_plot = 0.0
        self._plot_cost = 0.0
        self._lock = threading.Lock()
        self._building = False
        self._scripting = False   # set_knobs moves several knobs: no rerun for each one
        self._rerun = False       # a run was stopped because a rule changed: start the new one when it ends

        self.game_box.observe(lambda _: self._guard(self._on_game), "value")
        self.base_box.observe(lambda _: self._guard(self._on_base), "value")
        self.reset_button.on_click(lambda _: self._guard(self._on_base))
        self.run_button.on_click(lambda _: self._guard(self.start))
        self.stop_button.on_click(lambda _: self._guard(self.stop))
        self.ask_button.on_click(lambda _: self._guard(lambda: self.example(wait=False)))
        self.skill_button.on_click(lambda _: self._guard(self.start_skill))
        for w in (self.bot_box, self.players_box, self.games_box):
            w.observe(lambda _: self._guard(self._estimate), "value")

        rules = W.HBox([W.VBox([W.HTML("<b>Old rules</b> (the reference)"), self.base_box, self.reset_button],
                               layout=W.Layout(width="330px")),
                        W.VBox([W.HTML("<b>New rules</b> — change them here"), self.knob_box, self.changes])])
        rules.add_class("sk-panel")
        setup = W.VBox([W.HBox([self.game_box, self.bot_box, self.players_box]),
                        W.HBox([self.games_box, self.seed_box, self.workers_box])])
        setup.add_class("sk-panel")
        ask = W.HBox([self.question, self.ask_button])
        ask.add_class("sk-question-row")
        runrow = W.HBox([self.run_button, self.stop_button, self.progress, self.progress_text, self.live_box])
        runrow.add_class("sk-runrow")
        skillrow = W.HBox([self.skill_button, self.skill_deals_box, self.cluster_box, self.skill_progress])
        skillrow.add_class("sk-runrow")
        skill = W.VBox([W.HTML("<b>How much is luck?</b> The skill share — (expert − beginner) / (hindsight − "
                               "beginner), the random bot, the expert bot and the hindsight search on the same "
                               "deals — under the old and the new rules. Does the change make the game more of "
                               "a lottery?"), skillrow, self.skill_status, self.skill_out])
        skill.add_class("sk-panel")
        self.children = (W.HTML(CSS), self.credit, setup, rules, ask, runrow,
                         self.status, self.table, self.plot, skill, self.guide)
        self._on_game(bot=bot, n=n)

    # ------------------------------------------------------------------------------ helpers
    def _guard(self, fn: Any) -> None:
        try:
            fn()
        except SheetkitError as e:
            self._say(str(e), error=True)
        except Exception as e:  # a dashboard shows the problem, never a traceback
            self._say(f"{type(e).__name__}: {e}", error=True)

    def _say(self, text: str, error: bool = False) -> None:
        body = html.escape(text)
        self.status.value = f"<span class='sk-error'>{body}</span>" if error else body

    @property
    def spec(self) -> Any:
        """The chosen game's registry entry."""
        return get_game(self.game_box.value)

    def _control(self, k: Knob, value: Any) -> W.ValueWidget:
        style = {"description_width": "170px"}
        if k.kind == "int":
            w: W.ValueWidget = W.IntSlider(value=value, min=k.low, max=k.high, description=k.label, style=style,
                                           continuous_update=False, layout=W.Layout(width="430px"))
        elif k.kind == "bool":
            w = W.ToggleButtons(options=[("on", True), ("off", False)], value=bool(value), description=k.label,
                                style={**style, "button_width": "60px"})
        else:
            options = [(label, _to_widget(v)) for label, v in k.choices]
            if all(v != value for _, v in k.choices):   # a variant's own setting (a custom criteria list…)
                options.append((f"as in the old rules: {value}", _to_widget(value)))
            w = W.Dropdown(options=options, value=_to_widget(value), description=k.label, style=style,
                           layout=W.Layout(width="430px"))
        w.tooltip = k.help
        w.add_class(f"sk-knob-{k.key}")
        w.observe(lambda _: self._guard(self._on_knob), "value")
        return w

    # ------------------------------------------------------------------------------ events
    @contextlib.contextmanager
    def _quietly(self) -> Iterator[None]:
        """Set many controls at once: their change events do nothing meanwhile (the caller acts once after)."""
        self._building = True
        try:
            yield
        finally:
            self._building = False

    def _on_game(self, bot: str | None = None, n: int | None = None) -> None:
        if self.run is not None and self.run.running:
            self.run.stop()
        if self.skill_run is not None and self.skill_run.running:
            self.skill_run.stop()
        self.skill_out.value = self.skill_status.value = ""
        spec = self.spec
        with self._quietly():
            names = list(spec.bots)
            self.bot_box.options = names
            self.bot_box.value = bot if bot in names else ("greedy" if "greedy" in names else names[0])
            self.players_box.max = min(spec.max_players, 4)
            self.players_box.min = spec.min_players
            wanted = self._players or spec.whatif.players
            self.players_box.value = max(spec.min_players, min(wanted, self.players_box.max))
            self.base_box.options = list(spec.presets)
            self.base_box.value = "standard" if "standard" in spec.presets else next(iter(spec.presets))
            size = n if n is not None else spec.whatif.deals
            self.games_box.value = min(GAME_SIZES, key=lambda s: abs(s - size))
            self.credit.value = html.escape(f"{spec.credits} The bots and the rule variants here are sheetkit's "
                                            "own, not the designers'.")
            self._guide = guide(spec.name)
            self._asking = self._answering = False
            self.question.value = question_html(self._guide)
            self.guide.value = guide_html(self._guide)
        self._on_base()

    def _on_base(self) -> None:
        if self._building:
            return
        spec = self.spec
        values = knob_values(spec.name, self.base_box.value)
        with self._quietly():
            self.knob_widgets = {k.key: self._control(k, values[k.key]) for k in knobs(spec.name)}
            self.knob_box.children = tuple(self.knob_widgets.values())
        self._on_knob()

    def _on_knob(self) -> None:
        if self._building:
            return
        spec = self.spec
        values = self._read_knobs()
        try:
            self.new_params = params_from_knobs(spec.name, self.base_box.value, values)
        except SheetkitError as e:
            self.new_params = None
            self.changes.value = f"<span class='sk-error'>These rules cannot be played: {html.escape(str(e))}</span>"
            self.run_button.disabled = True
            return
        self.run_button.disabled = self.run is not None and self.run.running
        changed = describe_changes(spec.name, self.base_box.value, self.new_params)
        label, _ = resolve_variant(spec.name, self.new_params)
        preset = f" (the “{label}” preset)" if label != "custom" and label != self.base_box.value else ""
        self.changes.value = ("new rules: " + html.escape(" · ".join(changed)) + preset if changed else
                              "<i>new rules = old rules — move a knob to change one</i>")
        if self.live_box.value and not self._scripting and (self.run is not None or changed):
            self._run_again()
            return
        self._estimate()

    def _read_knobs(self) -> dict[str, Any]:
        """The knobs' values as the game's params hold them."""
        return {k: _from_widget(w.value) for k, w in self.knob_widgets.items()}

    def _run_again(self) -> None:
        """A rule changed with live runs on: stop the run in play (if any) and play the new rules."""
        if self.run is not None and self.run.running:
            self._rerun = True
            self.stop()
            return
        self.start()

    def _bots(self) -> list[str]:
        return [self.bot_box.value] * int(self.players_box.value)

    def _estimate(self) -> None:
        if self._building or (self.run is not None and self.run.running):
            return
        n = int(self.games_box.value)
        secs = 2 * n * seconds_per_game(self.spec.name, self._bots()) / max(1, int(self.workers_box.value))
        self._say(f"Press Run: {n:,} deals × 2 rule sets, about {secs:.0f} s "
                  f"(on {self.workers_box.value} worker{'s' if self.workers_box.value > 1 else ''}).")

    @classmethod
    def from_query(cls, query: str | None = None, **kwargs: Any) -> WhatIf:
        """The explorer for a dashboard link: ``whatif.ipynb?game=kingdom-maps&bot=random&deals=200&seed=3``
        (Voila's QUERY_STRING; unknown or bad parts are ignored and said in the status line)."""
        from urllib.parse import parse_qs

        from sheetkit.widgets.query import query_string

        q = parse_qs((query_string() if query is None else query).lstrip("?"), max_num_fields=20)
        problems: list[str] = []
        opts: dict[str, Any] = dict(kwargs)
        if "game" in q:
            try:
                name = get_game(q["game"][-1]).name
                if not knobs(name):
                    raise KeyError(name)
                opts["game"] = name
            except KeyError:
                problems.append(f"unknown game {q['game'][-1][:30]!r} in the link")
        if "bot" in q:
            opts["bot"] = q["bot"][-1][:30]
        for key, arg in (("deals", "n"), ("seed", "seed")):
            if key in q:
                try:
                    opts[arg] = int(q[key][-1])
                except ValueError:
                    problems.append(f"{key} must be a whole number")
        out = cls(**opts)
        if "bot" in opts and out.bot_box.value != opts["bot"]:
            problems.append(f"unknown bot {opts['bot']!r} in the link")
        if problems:
            out._say("Ignored from the link: " + "; ".join(problems) + ".", error=True)
        return out

    def example(self, wait: bool = True) -> dict[str, Any] | None:
        """Ask the game's first question (its ``WhatIfSpec``) of the old rules, in this kernel: a page's quick start."""
        changes, n = example(self.spec.name)
        if self.run is not None and self.run.running:
            return None
        self._scripting = True    # every knob back to the old rules first: the question changes only its own
        try:
            self._on_base()
        finally:
            self._scripting = False
        self._asking = True
        return self.try_rules(n=n, workers=1, wait=wait, **changes)

    # ------------------------------------------------------------------------------ scripting
    def set_knobs(self, **values: Any) -> None:
        """Move knobs by name, as a person would (``set_knobs(penalty=3, rising=False)``)."""
        unknown = set(values) - set(self.knob_widgets)
        if unknown:
            raise KeyError(f"unknown knob {sorted(unknown)[0]!r}; knobs: {', '.join(self.knob_widgets)}")
        self._scripting = True
        try:
            for key, value in values.items():
                self.knob_widgets[key].value = _to_widget(value)
        finally:
            self._scripting = False

    def set_deals(self, n: int) -> None:
        """Play exactly ``n`` deals per rule set next (the slider gains that stop if it lacks it)."""
        if not 2 <= n <= GAME_SIZES[-1]:
            raise SheetkitError(f"deals must be between 2 and {GAME_SIZES[-1]:,}")
        if n not in self.games_box.options:
            self.games_box.options = sorted({*GAME_SIZES, n})
        self.games_box.value = n

    def try_rules(self, n: int | None = None, workers: int | None = None, wait: bool = True,
                  **values: Any) -> dict[str, Any] | None:
        """Set knobs, press Run and (by default) wait for the end; returns the summary table."""
        self.set_knobs(**values)
        if n is not None:
            self.set_deals(n)
        if workers is not None:
            self.workers_box.value = workers
        self.start()
        if wait:
            self.wait(None)
        return self.summary

    # ------------------------------------------------------------------------------ running
    def start(self) -> None:
        """Play the old and the new rules on the same deals (what the Run button does)."""
        if self.run is not None and self.run.running:
            return
        if self.new_params is None:
            self._say("Change the new rules first: they cannot be played as they are.", error=True)
            return
        spec = self.spec
        n = int(self.games_box.value)
        old = resolve_variant(spec.name, self.base_box.value)[1]
        changed = describe_changes(spec.name, old, self.new_params)
        if not changed:   # the same rules on the same deals: a difference of exactly 0, not worth a run
            self._say("New rules = old rules: nothing to compare. Move a knob under “New rules” first, "
                      "then press Run.", error=True)
            return
        self._answering, self._asking = self._asking, False
        self.question.value = question_html(self._guide, "asking" if self._answering else "ask")
        self._old_name = self.base_box.value
        self._new_name = "; ".join(changed)
        self.results, self.summary = None, None
        self.table.value, self.plot.value = "", b""
        self.progress.max, self.progress.value = n, 0
        self.progress_text.value = f"0 / {n:,} deals"
        self.run_button.disabled, self.stop_button.disabled = True, False
        self._say(f"Playing {n:,} deals under both rule sets…")
        self._last_plot = time.perf_counter()  # the first picture after PLOT_EVERY seconds: short runs draw once
        self.run = WhatIfRun(spec.name, old, self.new_params, n, seed=int(self.seed_box.value), bots=self._bots(),
                             workers=int(self.workers_box.value), on_update=self._update, on_done=self._done)
        self.run.start()

    def start_skill(self, n: int | None = None) -> None:
        """The skill share of the old and the new rules on the same deals (what the Skill share button does)."""
        if self.skill_run is not None and self.skill_run.running:
            self.skill_run.stop()
            self.skill_status.value = "Stopping the skill share after the deals in play…"
            return
        if self.new_params is None:
            self.skill_status.value = "<span class='sk-error'>These rules cannot be played: change them first.</span>"
            return
        spec = self.spec
        if n is not None:
            if n not in self.skill_deals_box.options:
                self.skill_deals_box.options = sorted({*SKILL_SIZES, n})
            self.skill_deals_box.value = n
        deals = int(self.skill_deals_box.value)
        old = resolve_variant(spec.name, self.base_box.value)[1]
        changed = describe_changes(spec.name, old, self.new_params)
        self._skill_names = (self.base_box.value, "; ".join(changed) if changed else "the same rules")
        cluster = self.cluster_box.value.strip() or None
        where = f"on the dask cluster {cluster}" if cluster else \
            f"on {self.workers_box.value} worker{'s' if self.workers_box.value > 1 else ''}"
        self.skill_summary = None
        self.skill_out.value = ""
        self.skill_progress.max, self.skill_progress.value = deals, 0
        self.skill_status.value = html.escape(f"Playing {deals:,} deals × 2 rule sets × 3 players {where}… "
                                              "(press Skill share again to stop)")
        self.skill_button.description = "Stop skill share"
        self.skill_run = SkillRun(spec.name, old, self.new_params, deals, seed=int(self.seed_box.value),
                                  players=int(self.players_box.value), workers=int(self.workers_box.value),
                                  dask=cluster, budget=self.skill_budget, on_update=self._skill_update,
                                  on_done=self._skill_done)
        self.skill_run.start()

    def wait_skill(self, timeout: float | None = 120) -> bool:
        """Block until the skill share run is over (for tests and scripts)."""
        return self.skill_run.wait(timeout) if self.skill_run is not None else True

    def _skill_update(self, got: Any) -> None:
        self.skill_progress.value = got.old.deals
        if self.skill_run is not None and self.skill_run.running:
            self.skill_status.value = html.escape(f"{got.old.deals:,} / {got.old.requested:,} deals played "
                                                  f"({got.old.seconds:.0f} s) — press Stop skill share to stop")
        if got.old.deals >= 2:
            self.skill_summary = skill_table(got)
            self.skill_out.value = skill_html(self.skill_summary, *self._skill_names)

    def _skill_done(self, got: Any, error: BaseException | None) -> None:
        self.skill_button.description = "Skill share"
        if error is not None:
            self.skill_status.value = f"<span class='sk-error'>The skill share failed: {html.escape(str(error))}</span>"
            return
        if got is None:
            return
        self._skill_update(got)
        if got.old.deals < 2:
            self.skill_status.value = "Stopped before 2 deals: nothing to show."
            return
        done = "Stopped after" if got.old.stopped else "Done:"
        self.skill_status.value = html.escape(f"{done} {got.old.deals:,} of {got.old.requested:,} deals "
                                              f"({got.old.seconds:.1f} s).")

    def stop(self) -> None:
        """Stop the run after the batch in play (what the Stop button does)."""
        if self.run is not None and self.run.running:
            self.run.stop()
            self.stop_button.disabled = True
            self._say("Stopping after the games in play…")

    def wait(self, timeout: float | None = 60) -> bool:
        """Block until the current run is over (for tests and scripts)."""
        return self.run.wait(timeout) if self.run is not None else True

    def _update(self, res: Results, final: bool = False) -> None:
        with self._lock:
            self.results = res
            self.progress.value = res.games
            self.progress_text.value = f"{res.games:,} / {res.requested:,} deals · {res.seconds:.1f} s"
            if res.games < 2:
                return
            self.summary = whatif_table(res)
            self.table.value = table_html(self.summary, self._old_name, self._new_name)
            now = time.perf_counter()
            # Drawing takes ~0.3 s of this kernel's time: redraw at most every PLOT_EVERY seconds and
            # never spend more than about a sixth of the run on pictures.
            if final or now - self._last_plot >= max(PLOT_EVERY, 6 * self._plot_cost):
                self.plot.value = figure_png(whatif_figure(res, self._old_name, self._new_name))
                self._last_plot = time.perf_counter()
                self._plot_cost = self._last_plot - now

    def _done(self, res: Results | None, error: BaseException | None) -> None:
        self.run_button.disabled = self.new_params is None
        self.stop_button.disabled = True
        if self._rerun:               # stopped because a rule changed: play the new rules now
            self._rerun = False
            if self.new_params is not None:
                self.run = None           # this run is over (its thread is only returning)
                self._guard(self.start)
                return
        if error is not None:
            self._say(f"The run failed: {error}", error=True)
            return
        if res is None:
            return
        self._update(res, final=True)
        if self._answering:
            self.question.value = question_html(self._guide, "answered", res.games)
        rate = res.games * 2 / max(res.seconds, 1e-9)
        if res.stopped:
            self._say(f"Stopped after {res.games:,} of {res.requested:,} deals ({res.seconds:.1f} s). "
                      "The table holds the deals finished so far.")
        else:
            self._say(f"Done: {res.games:,} deals under both rule sets in {res.seconds:.1f} s ({rate:,.0f} games/s).")
