"""After every game: luck or choices? The panel under a table that says what the score owes to each.

At the game's end it works out (``sheetkit.analysis.luck``) the expert's score on the very same deal, the
hindsight best on this deal beside the average deal's, and the three decisions that cost most; it shows a
progress bar meanwhile. The work runs on a worker thread when a browser's click ended the game, so the
page stays live (a new game stops it); a script or a test gets the answer at once. Each table draws a
decision's sheet at a small size (``_small_sheet``) and words its moves (``_move_words``).
"""

from __future__ import annotations

import html
import sys
import threading
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as W
from sheetkit.widgets import theme
from sheetkit.widgets.lazy import built, cached_property, in_order
from sheetkit.widgets.live import SWITCH_INTERVAL, _deferring_loop, close_widget
from sheetkit.widgets.off_click import WorkerThread
from sheetkit.widgets.shared import HTMLStyle, shared

if TYPE_CHECKING:   # the analysis itself is imported at a game's end: the page loads without it
    from sheetkit.analysis.luck import Decision, LuckBudget, LuckReport

_WORKER = WorkerThread("sk-luck")

CSS = f"""<style>
.sk-luck {{ font-family: {theme.FONT_INK}; color: {theme.INK}; max-width: 760px; gap: 6px; }}
.sk-luck h3 {{ font-family: {theme.FONT_PRINT}; margin: 6px 0 2px 0; }}
.sk-luck .widget-html-content {{ line-height: 1.45; white-space: normal; }}
.sk-luck .sk-luck-bars {{ display: grid; grid-template-columns: minmax(0, 13em) minmax(0, 1fr) 3.5em;
  gap: 4px 8px; align-items: center; font-size: 14px; max-width: 640px; }}
.sk-luck .sk-bar {{ height: 16px; border-radius: 3px; min-width: 2px; }}
.sk-luck .sk-bar-track {{ background: {theme.PAPER_SHADE}; border-radius: 3px; }}
.sk-luck .sk-luck-num {{ text-align: right; font-weight: bold; }}
.sk-luck .sk-luck-say {{ font-size: 15px; margin-top: 8px; }}
.sk-luck .sk-luck-say b {{ white-space: nowrap; }}
.sk-luck .sk-luck-decision {{ flex-wrap: wrap; gap: 10px; align-items: flex-start; border-top: 1px solid {theme.GRID};
  padding-top: 6px; }}
/* A small sheet keeps its aspect ratio but is never wider than the panel less a 32 px strip where a thumb scrolls
   the page (a canvas cancels touches): its widget's min-width/height in px must give way, as in the table. */
.sk-luck {{ container: skluck / inline-size; }}
.sk-luck .sk-luck-decision > * {{ min-width: 0; max-width: 100%; }}
.sk-luck .sk-luck-decision canvas {{ max-width: min(100%, 100cqw - 32px); min-width: 0 !important;
  height: auto !important; min-height: 0 !important; }}
.sk-luck .sk-stack {{ max-width: min(100%, 100cqw - 32px); min-width: 0 !important; height: auto !important;
  min-height: 0 !important; grid-template-columns: minmax(0, 1fr) !important; grid-template-rows: auto !important; }}
.sk-luck .sk-stack > canvas {{ width: 100% !important; }}
/* beside a small sheet when both fit, else above it (Kingdom Maps' wide sheet on a tablet) */
.sk-luck .sk-luck-words {{ flex: 1 1 260px; min-width: 0; font-size: 14px; }}
.sk-luck .sk-played {{ color: {theme.OKABE_ITO['vermillion']}; font-weight: bold; }}
.sk-luck .sk-best {{ color: {theme.OKABE_ITO['blue']}; font-weight: bold; }}
.sk-luck .sk-small {{ font-size: 13px; color: {theme.PRINT}; }}
</style>"""

# The panel's parts in their order (those not built yet are left out)
PARTS = ("title", "note", "working", "figures", "decisions")

COLOURS = {"you": theme.OKABE_ITO["vermillion"], "expert": theme.OKABE_ITO["blue"],
           "best": theme.OKABE_ITO["green"], "average": theme.FAINT}


# What the hindsight search is told in advance, per game (the bar's label)
KNOWN = {"avenue": "cards known", "kingdom-maps": "dice known", "key-harvest": "bag order known"}


class LuckPanel:
    """The "luck or choices?" panel of one table (``widget`` to display); fills in when a game ends."""

    def __init__(self, table: Any, *, expert: Callable[..., Any] | None = None,
                 hindsight: Callable[..., Any] | None = None, budget: LuckBudget | None = None) -> None:
        self.table = table
        self.expert, self.hindsight, self.budget = expert, hindsight, budget
        # the page CSS with the title: one model less; HTMLs share a style, and a layout where it never changes
        self.title = W.HTML(CSS + "<h3>Luck or choices?</h3>", layout=shared(W.Layout), style=shared(HTMLStyle))
        self.note = W.HTML("<div class='sk-small'>When your game ends, this says how much of your score was the "
                           "deal and how much your choices — and which three decisions cost most.</div>",
                           _dom_classes=("sk-luck-note",), style=shared(HTMLStyle))
        # the progress bar, the figures and the decisions are built at the first game's end (the properties below)
        self.widget = W.VBox(in_order(self, PARTS), _dom_classes=("sk-luck",), layout=shared(W.Layout))
        self.report: LuckReport | None = None
        self.sheets: list[Any] = []          # the small sheets shown (each a view with ``widget`` and ``canvas``)
        self.last_error: str | None = None
        self._stop: threading.Event | None = None
        self._key: Any = None
        table.on_change(self._on_event)
        self._on_event("over" if table.state.is_terminal() else "new")

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    # ----- the parts built when first needed -----------------------------------------------------
    @cached_property
    def working(self) -> W.VBox:
        """The progress bar and its step's words, shown while the panel is worked out."""
        self.bar = W.FloatProgress(value=0.0, min=0.0, max=1.0, layout=W.Layout(width="min(320px, 90%)"))
        self.bar.add_class("sk-luck-progress")
        self.step = W.HTML("")
        self.step.add_class("sk-luck-step")
        box = W.VBox([self.bar, self.step], layout=W.Layout(display="none"))
        self.widget.children = in_order(self, PARTS, working=box)
        return box

    @cached_property
    def figures(self) -> W.HTML:
        """The scores as bars and what they say."""
        figures = W.HTML("")
        figures.add_class("sk-luck-figures")
        self.widget.children = in_order(self, PARTS, figures=figures)
        return figures

    @cached_property
    def decisions(self) -> W.VBox:
        """The costliest decisions, each with its small sheet."""
        box = W.VBox([])
        box.add_class("sk-luck-decisions")
        self.widget.children = in_order(self, PARTS, decisions=box)
        return box

    # ----- events --------------------------------------------------------------------------------
    def _on_event(self, event: str) -> None:
        st = self.table.state
        if event in ("new", "move", "round") and not st.is_terminal():
            self._clear()
            return
        if event not in ("over", "new") or not st.is_terminal():    # "new" and over: a finished record loaded
            return
        key = (id(st), len(st.log))
        if key == self._key:
            return
        self._clear()
        self._key = key
        self.start(st.clone(), list(getattr(self.table, "bot_kinds", [])))

    def _clear(self) -> None:
        """A game in progress: nothing shown, any work stopped."""
        if self._stop is not None:
            self._stop.set()
            self._stop = None
        if self._key is None and not (built(self, "figures") and self.figures.value):
            return
        self._key = None
        self.report = None
        if built(self, "working"):
            self.working.layout.display = "none"
        if built(self, "figures"):
            self.figures.value = ""
        if built(self, "decisions"):
            self._swap_decisions([])
        self.note.layout.display = None

    def start(self, state: Any, kinds: list[str]) -> None:
        """Work out the panel for the finished game ``state`` (on a worker when a browser ended it)."""
        stop = threading.Event()
        self._stop = stop
        self.note.layout.display = "none"
        self.working.layout.display = None
        self.bar.value = 0.0
        self.step.value = "<span class='sk-small'>Luck or choices? Working it out…</span>"
        loop = _deferring_loop(True, auto=True)
        from sheetkit.analysis.luck import Cancelled, analyse

        def run(progress: Callable[[float, str], None]) -> LuckReport | str | None:
            try:
                return analyse(state, 0, kinds, expert=self.expert, hindsight=self.hindsight, budget=self.budget,
                               progress=progress, cancel=stop.is_set)
            except Cancelled:
                return None
            except Exception as e:  # the panel says so in words; the table is untouched
                self.last_error = traceback.format_exc()
                return f"{type(e).__name__}: {str(e)[:120]}"

        if loop is None:
            self._show(run(self._progress), stop)
            return

        def progress(fraction: float, words: str) -> None:
            loop.call_soon_threadsafe(self._progress, fraction, words, stop)

        def work() -> None:
            interval = sys.getswitchinterval()
            sys.setswitchinterval(min(interval, SWITCH_INTERVAL))   # the click path gets the GIL back at once
            try:
                out = run(progress)
            finally:
                sys.setswitchinterval(interval)
            try:
                loop.call_soon_threadsafe(self._show, out, stop)
            except RuntimeError:   # the kernel's loop is closed: nobody to show it to
                pass

        _WORKER.submit(work)

    def _progress(self, fraction: float, words: str, stop: threading.Event | None = None) -> None:
        if stop is not None and stop is not self._stop:
            return
        self.bar.value = max(self.bar.value, min(1.0, fraction))
        self.step.value = f"<span class='sk-small'>{html.escape(words)}</span>"

    def _show(self, out: LuckReport | str | None, stop: threading.Event) -> None:
        if stop is not self._stop or out is None:
            return
        self._stop = None
        self.working.layout.display = "none"
        if isinstance(out, str):
            self.figures.value = f"<i>Luck or choices? could not be worked out ({html.escape(out)}).</i>"
            return
        self.report = out
        try:
            # the decisions first: the figures' words are what a reader (or a driver) waits for
            self._swap_decisions([self._decision_row(d) for d in out.decisions])
            self.figures.value = figures_html(out)
        except Exception as e:
            self.last_error = traceback.format_exc()
            self.figures.value = f"<i>Luck or choices? could not be drawn ({html.escape(type(e).__name__)}).</i>"

    # ----- the costliest decisions ---------------------------------------------------------------
    def _decision_row(self, d: Decision) -> W.Widget:
        table = self.table
        played = table._move_words(d.before, d.played)
        best = table._move_words(d.before, d.best)
        text = W.HTML(
            f"<div><b>Decision {d.number}</b> · cost about <b>{_points(d.cost)}</b></div>"
            f"<div>You: <span class='sk-played'>{html.escape(played)}</span> "
            f"(the expert's estimate of your final score after it: {d.value_played:.0f})</div>"
            f"<div>The expert: <span class='sk-best'>{html.escape(best)}</span> ({d.value_best:.0f})</div>")
        text.add_class("sk-luck-words")
        parts: list[W.Widget] = []
        try:
            view = table._small_sheet(d.before, d.played, d.best)
        except Exception:
            self.last_error = traceback.format_exc()
            view = None
        if view is not None:
            self.sheets.append(view)
            # true whether both moves are on the sheet or one is (a bid, a peek: words only)
            legend = W.HTML("<div class='sk-small'>On the sheet: your move <span class='sk-played'>solid</span>, "
                            "the expert's <span class='sk-best'>dashed</span></div>")
            parts.append(W.VBox([view.widget, legend]))
        box = W.HBox([text, *parts])          # the words first: on a phone they come above their sheet
        box.add_class("sk-luck-decision")
        return box

    def _swap_decisions(self, rows: list[W.Widget]) -> None:
        old, gone = list(self.decisions.children), [v for v in self.sheets if v.widget not in _all(rows)]
        self.decisions.children = tuple(rows)
        self.sheets = [v for v in self.sheets if v not in gone]
        for v in gone:
            v.canvas.close()
        # every widget of the old rows, not the rows alone: an open box would still name its closed children
        keep = {id(w) for w in _all(rows)}
        for w in _all(old):
            if id(w) not in keep:
                close_widget(w)


def _all(rows: list[W.Widget]) -> list[W.Widget]:
    out, todo = [], list(rows)
    while todo:
        w = todo.pop()
        out.append(w)
        todo.extend(getattr(w, "children", ()))
    return out


def _points(x: float) -> str:
    n = round(x)
    return f"{n} point{'s' if abs(n) != 1 else ''}"


def _signed(n: float) -> str:
    v = round(n)
    return f"+{v}" if v > 0 else f"−{-v}" if v < 0 else "0"


def figures_html(r: LuckReport) -> str:
    """The scores as bars (you, the expert on your deal, the hindsight best, the average deal) and what they say."""
    rows: list[tuple[str, float, str, str]] = [("Your score", r.score, COLOURS["you"], "you")]
    if r.expert_score is not None:
        rows.append(("The expert on your deal", r.expert_score, COLOURS["expert"], "expert"))
    best = r.best
    if best is not None:
        label = f"Best on your deal, {KNOWN.get(r.game, 'the whole deal known')}" + (
            "" if r.hindsight is not None and r.hindsight.exact and best == r.hindsight.score else " (at least)")
        rows.append((label, best, COLOURS["best"], "best"))
    if r.baseline is not None:
        rows.append(("Best on an average deal", r.baseline.mean, COLOURS["average"], "average"))
    low = min(0.0, *(v for _, v, _, _ in rows))
    high = max(1.0, *(v for _, v, _, _ in rows))
    bars = []
    zero = 100 * (0 - low) / (high - low)      # bars grow from 0, left for a negative score
    for name, value, colour, key in rows:
        end = 100 * (value - low) / (high - low)
        left, width = min(zero, end), abs(end - zero)
        bars.append(f"<div>{html.escape(name)}</div><div class='sk-bar-track'><div class='sk-bar sk-bar-{key}' "
                    f"style='margin-left:{left:.1f}%;width:{width:.1f}%;background:{colour}' title='{value:.1f}'>"
                    "</div></div>"
                    f"<div class='sk-luck-num' data-value='{value:.1f}'>{value:.0f}</div>")
    say = []
    if r.choices is not None:
        if r.choices > 0:
            say.append(f"<b>Your choices</b>: on your very deal the expert scored <b>{_points(r.choices)} more</b>.")
        elif r.choices < 0:
            say.append(f"<b>Your choices</b>: you scored <b>{_points(-r.choices)} more</b> than the expert on your "
                       "deal — well played.")
        else:
            say.append("<b>Your choices</b>: the expert scored exactly what you did on your deal.")
    if r.luck is not None and r.baseline is not None:
        kind = "a kind deal" if r.luck > 0 else "a hard deal" if r.luck < 0 else "an average deal"
        say.append(f"<b>The luck of this deal</b>: its best game is {_signed(r.luck)} against the average deal's "
                   f"({r.baseline.mean:.1f}) — {kind}.")
    elif best is not None:
        say.append(f"<b>The luck of this deal</b>: its best game scores at least {best}.")
    if r.decisions:
        say.append(f"The {'three decisions' if len(r.decisions) == 3 else 'decisions'} that cost most "
                   f"(of the {r.considered} where you had a choice), by the expert's estimate:")
    elif r.considered and r.expert_score is not None:
        say.append(f"None of your {r.considered} decisions gave away points by the expert's estimate.")
    notes = "".join(f"<div class='sk-small'>{html.escape(n)}</div>" for n in r.notes)
    base = (f"<div class='sk-small'>The average deal: {html.escape(r.baseline.how)}</div>"
            if r.baseline is not None else "")
    return (f"<div class='sk-luck-bars'>{''.join(bars)}</div>"
            f"<div class='sk-luck-say'>{''.join(f'<div>{s}</div>' for s in say)}</div>{base}{notes}")


def luck_panel(table: Any, **kwargs: Any) -> LuckPanel:
    """The "luck or choices?" panel for ``table`` (display it in the cell under the table)."""
    return LuckPanel(table, **kwargs)
