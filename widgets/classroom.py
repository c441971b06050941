"""The teacher's class-play dashboard: choose a deal, hand out the link, paste the result codes, discuss.

Students play the class's deal at their own table (Binder or Voila); each finished table shows a
result code beside Save (``sheetkit.analysis.results``). The teacher pastes many codes (or drops
many record files): each is replayed — the score is recomputed from the moves — and the dashboard
shows the leaderboard, the class's scores beside the bots' on the same deal, and per card (per roll)
where the class chose compared with the best bot. Nothing here decides a rule: it asks the engine.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from typing import Any
from urllib.parse import parse_qs

import ipywidgets as W
from sheetkit.widgets import theme
from sheetkit.widgets.landing import GAMES
from sheetkit.widgets.query import MAX_BOTS, dashboard_options, query_string, share_query
from sheetkit.widgets.table_base import button, html_widget, row

from sheetkit.analysis.class_review import STEP_NAME, BotGame, best_bot, bot_games, choice_rows, todays_deal
from sheetkit.analysis.results import (
    COPY,
    NO_CODE,
    REFUSED,
    ClassDeal,
    Gathered,
    Unpackable,
    gather,
    leaderboard,
    result_code,
    results_csv,
    shorten,
)
from sheetkit.core.chance import fresh_seed
from sheetkit.core.codes import make_code, parse_code
from sheetkit.core.errors import RecordError
from sheetkit.core.registry import GameSpec, all_games

TODAY, FRESH, TYPED = "today's deal", "a fresh deal", "this code:"
SKIPPED_SHOWN = 100   # skipped entries listed on screen; the rest are counted there, and all are in the CSV
SKIPPED_CHARS = 60    # a skipped entry's text on screen (the CSV has it whole)
# The dashboards' own default opponents (the tables' DEFAULT_BOTS): a student who types the class's
# code into a table opened without the link plays these, so the class starts with the same.
DEFAULT_OPPONENTS = {"avenue": ("greedy",), "kingdom-maps": (), "key-harvest": ("greedy", "greedy")}

CSS = f"""<style>
.sk-class {{ font-family: {theme.FONT_INK}; color: {theme.INK}; gap: 8px; max-width: 1000px; }}
.sk-class h3 {{ font-family: {theme.FONT_PRINT}; margin: 10px 0 2px 0; }}
.sk-class .sk-row {{ gap: 6px; align-items: center; flex-wrap: wrap; row-gap: 4px; }}
.sk-class .sk-small {{ font-size: 13px; color: {theme.PRINT}; }}
.sk-class .sk-class-invite {{ background: {theme.PAPER}; border: 1px solid #DDD6C4; border-radius: 4px;
  padding: 8px 12px; font-size: 15px; line-height: 1.5; }}
.sk-class .sk-class-invite .sk-class-code {{ font-family: 'DejaVu Sans Mono', monospace; font-size: 22px;
  font-weight: bold; letter-spacing: 1px; user-select: all; }}
.sk-class .sk-class-invite .widget-html-content, .sk-class .sk-class-summary .widget-html-content,
.sk-class .sk-leaderboard .widget-html-content, .sk-class .sk-skipped .widget-html-content,
.sk-class .sk-class-choices .widget-html-content, .sk-class .sk-class-csv .widget-html-content {{ line-height: 1.45; }}
.sk-class .sk-class-paste textarea {{ font-family: 'DejaVu Sans Mono', monospace; font-size: 13px; }}
.sk-class .sk-class-summary {{ font-size: 15px; }}
.sk-class .sk-class-summary .sk-error {{ color: {theme.OKABE_ITO['vermillion']}; font-weight: bold; }}
.sk-class table {{ border-collapse: collapse; font-size: 13px; margin: 4px 0; }}
.sk-class th, .sk-class td {{ border: 1px solid {theme.GRID}; padding: 2px 8px; text-align: left; }}
.sk-class th {{ background: {theme.PAPER_SHADE}; font-weight: normal; color: {theme.PRINT}; }}
.sk-class td.sk-score {{ font-weight: bold; text-align: right; }}
.sk-class td.sk-name, .sk-class th {{ white-space: nowrap; }}
.sk-class td.sk-rcode {{ font-family: 'DejaVu Sans Mono', monospace; font-size: 11px; color: {theme.PRINT};
  max-width: 260px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }}
.sk-class td.sk-rcode-end {{ font-family: 'DejaVu Sans Mono', monospace; font-size: 12px; }}
.sk-class .sk-tablewrap {{ max-width: 100%; overflow-x: auto; }}
.sk-class .widget-html, .sk-class .widget-html-content {{ min-width: 0; max-width: 100%; }}
.sk-class .sk-skipped li {{ font-size: 13px; overflow-wrap: anywhere; }}
.sk-class .sk-class-privacy {{ font-size: 14px; align-items: baseline; }}
.sk-class .sk-class-privacy .widget-html-content {{ line-height: 1.4; }}
.sk-class .sk-skipped .sk-why {{ color: {theme.OKABE_ITO['vermillion']}; }}
.sk-class img.sk-class-plot {{ max-width: 100%; height: auto; }}
.sk-class a {{ color: {theme.OKABE_ITO['blue']}; text-decoration: underline; }}
.sk-class .sk-like {{ font-weight: bold; }}
.sk-class td.sk-hinted {{ color: {theme.OKABE_ITO['vermillion']}; white-space: nowrap; }}
</style>"""


def notebook_of(spec: GameSpec) -> str | None:
    """The game's dashboard notebook beside this one (from the landing page's list), if it has one."""
    return next((g.notebook for g in GAMES if g.title == spec.title), None)


def class_link(spec: GameSpec, deal: ClassDeal) -> str | None:
    """The students' link, relative to this notebook: 'avenue.ipynb?code=AV-…&bots=greedy'."""
    nb = notebook_of(spec)
    # Class play is played without the tables' Hint button (a code typed in elsewhere says if hints were used).
    return f"{nb}?{share_query(deal.deal, deal.bots, hints=False)}" if nb else None


def _opponent_options(spec: GameSpec) -> list[tuple[str, tuple[str, ...]]]:
    options: list[tuple[str, tuple[str, ...]]] = [("solo", ())]
    options += [(f"vs {k} bot", (k,)) for k in sorted(spec.bots)]
    return options


class Classroom(W.VBox):
    """The class-play dashboard (display it in a cell). ``query``: the page link's options (Voila)."""

    def __init__(self, game: str | None = None, code: str | None = None, bots: Sequence[str] | None = None,
                 plays: int = 5, notes: Sequence[str] = ()) -> None:
        super().__init__()
        self.add_class("sk-class")
        self.plays = plays
        self.games = [g for g in all_games() if g.bots]
        self.deal: ClassDeal | None = None
        self.gathered = Gathered()
        self._bot_cache: dict[ClassDeal, list[BotGame]] = {}
        self._packs: dict[str, bool] = {}
        self._problems = list(notes)

        self.game_pick = W.Dropdown(options=[(g.title, g.name) for g in self.games], description="Game",
                                    layout=W.Layout(width="230px"))
        self.game_pick.add_class("sk-class-game")
        self.deal_pick = W.Dropdown(options=[TODAY, FRESH, TYPED], value=TODAY, description="Deal",
                                    layout=W.Layout(width="220px"))
        self.deal_pick.add_class("sk-class-deal")
        self.code_input = W.Text(placeholder="AV-XXXX-XXXX", layout=W.Layout(width="160px"))
        self.code_input.add_class("sk-class-code-input")
        self.opponents_pick = W.Dropdown(description="Against", layout=W.Layout(width="230px"))
        self.opponents_pick.add_class("sk-class-opponents")
        self.start_button = button("Start the class", "sk-class-start", "graduation-cap",
                                   "Make the class's link and code for this deal", "primary")
        self.invite = html_widget("sk-class-invite")
        self.paste = W.Textarea(placeholder="Paste the students' result codes here — one per line, or a whole "
                                "chat; 'Name: code' names a line.\nAV-0000-001A.R1G.3KD9Q-…",
                                layout=W.Layout(width="100%", height="140px", margin="2px 0px"))
        self.paste.add_class("sk-class-paste")
        self.files = W.FileUpload(accept=".json,application/json", multiple=True, description="Record files",
                                  tooltip="Saved game records (.json), many at once", layout=W.Layout(width="150px"))
        self.files.add_class("sk-class-files")
        self.read_button = button("Read the results", "sk-class-read", "check", "Replay every code and file",
                                  "success")
        self.clear_button = button("Clear", "sk-class-clear", "eraser", "Forget the pasted codes and files")
        self.hide_names = W.Checkbox(value=False, description="Hide names (to project the results)", indent=False,
                                     layout=W.Layout(width="auto", flex="0 0 auto"))
        self.hide_names.add_class("sk-class-hide-names")
        note = html_widget("sk-class-privacy-note", "<span class='sk-small'>ranks and scores only, on the table, "
                           "the figures and the lists (students find their row by the end of their code). "
                           "<b>The CSV download keeps the names.</b></span>")
        note.layout = W.Layout(flex="1 1 320px")
        self.privacy = W.HBox([self.hide_names, note])
        self.privacy.add_class("sk-class-privacy")
        self.privacy.add_class("sk-row")
        self.paste_hidden = html_widget("sk-class-paste-hidden",
                                        "<span class='sk-small'>(The paste box is hidden while names are hidden: "
                                        "it holds them.)</span>")
        self.paste_hidden.layout.display = "none"
        self.summary = html_widget("sk-class-summary")
        self.board = html_widget("sk-leaderboard")
        self.skipped = html_widget("sk-skipped")
        self.plot = html_widget("sk-class-plot-box")
        self.choices = html_widget("sk-class-choices")
        self.csv = html_widget("sk-class-csv")
        for b in (self.start_button, self.read_button, self.clear_button):
            b.layout = W.Layout(width="auto", flex="0 0 auto")

        self.game_pick.observe(self._on_game, names="value")
        self.deal_pick.observe(self._on_deal_kind, names="value")
        self.start_button.on_click(self._on_start)
        self.read_button.on_click(self._on_read)
        self.clear_button.on_click(self._on_clear)
        self.hide_names.observe(self._on_hide_names, names="value")
        self.children = (
            W.HTML(CSS),
            W.HTML("<h3>1 · The class's deal</h3>"),
            row(self.game_pick, self.deal_pick, self.code_input),
            row(self.opponents_pick, self.start_button),
            self.invite,
            W.HTML("<h3>2 · The students' results</h3><div class='sk-small'>At the end of a game each table "
                   "shows a <b>result code</b> beside Save. Paste them all here (or add the saved record "
                   "files): every game is replayed and its score worked out again from its moves.</div>"),
            self.paste, self.paste_hidden,
            row(self.read_button, self.files, self.clear_button),
            self.privacy,
            self.summary, self.board, self.skipped, self.csv,
            W.HTML("<h3>3 · The class beside the bots</h3>"),
            self.plot, self.choices,
        )
        if game is not None:
            self.game_pick.value = game
        self._on_game()
        if code:
            self.deal_pick.value = TYPED
            self.code_input.value = code
        self._on_deal_kind()
        if bots is not None:
            wanted = tuple(bots)
            if wanted not in [v for _, v in self.opponents_pick.options]:
                self.opponents_pick.options = [*self.opponents_pick.options, (f"vs {', '.join(wanted)}", wanted)]
            self.opponents_pick.value = wanted
        self._start()

    @classmethod
    def from_query(cls, query: str | None = None, **kwargs: Any) -> Classroom:
        """The dashboard for a link: ``classroom.ipynb?game=avenue&code=AV-…&bots=none`` (Voila's QUERY_STRING)."""
        q = query_string() if query is None else query
        notes: list[str] = []
        game = None
        try:
            raw = (parse_qs(q.lstrip("?"), max_num_fields=20).get("game") or [""])[-1].strip().lower()
        except ValueError:
            raw = ""
        if raw:
            names = {g.name: g for g in all_games() if g.bots}
            if raw.replace("_", "-") in names:
                game = raw.replace("_", "-")
            else:
                notes.append(f"unknown game {raw[:30]!r} in the link")
        if game is None and "code=" in q:
            try:
                code = dashboard_options(q, known_bots=()).code or ""
                prefix = parse_code(code).prefix
                game = next((g.name for g in all_games() if g.code_prefix == prefix), None)
            except RecordError:
                pass
        known = tuple(sorted({b for g in all_games() for b in g.bots}))
        opts = dashboard_options(q, known_bots=known)
        notes += list(opts.problems)
        return cls(game=game, code=opts.code, bots=opts.bots, notes=notes, **kwargs)

    # ----- choosing the deal --------------------------------------------------------------------
    @property
    def spec(self) -> GameSpec:
        """The chosen game."""
        return next(g for g in self.games if g.name == self.game_pick.value)

    def _on_game(self, _: Any = None) -> None:
        spec = self.spec
        options = _opponent_options(spec)
        default = DEFAULT_OPPONENTS.get(spec.name, ())
        if default not in [v for _, v in options]:
            options.append((f"vs {', '.join(default)}", default))
        self.opponents_pick.options = options
        self.opponents_pick.value = default
        self.code_input.placeholder = f"{spec.code_prefix}-XXXX-XXXX"

    def _on_deal_kind(self, _: Any = None) -> None:
        self.code_input.layout.display = "flex" if self.deal_pick.value == TYPED else "none"

    def _on_start(self, _: Any = None) -> None:
        self._problems = []
        self._start()

    def _start(self) -> None:
        """Make the class's deal from the choices and show its link and code (problems in the invite)."""
        spec = self.spec
        problems = self._problems
        self._problems = []
        kind = self.deal_pick.value
        deal = None
        if kind == TYPED:
            try:
                gc = parse_code(self.code_input.value)
                if gc.prefix != spec.code_prefix:
                    raise RecordError(f"{self.code_input.value.strip()[:30]!r} is a code for another game "
                                      f"({spec.title} codes start {spec.code_prefix})")
                if gc.preset not in spec.presets:
                    raise RecordError(f"unknown variant {gc.preset!r}")
                deal = make_code(gc.prefix, gc.seed, gc.preset)
            except RecordError as e:
                problems.append(f"{e.reason} — here is today's deal instead")
        elif kind == FRESH:
            deal = make_code(spec.code_prefix, fresh_seed())
        bots = tuple(self.opponents_pick.value or ())[:MAX_BOTS]
        self.deal = ClassDeal(deal or todays_deal(spec), bots)
        self._show_invite(problems)
        if self.gathered.results or self.gathered.skipped:
            self._read()

    def _show_invite(self, problems: Sequence[str]) -> None:
        deal, spec = self.deal, self.spec
        assert deal is not None
        link = class_link(spec, deal)
        who = ", ".join(deal.bots) + (" bot" if len(deal.bots) == 1 else " bots") if deal.bots else "nobody (solo)"
        note = "".join(f"<div class='sk-small' style='color:{theme.OKABE_ITO['vermillion']}'>⚠ "
                       f"{html.escape(p[0].upper() + p[1:])}.</div>" for p in problems)
        link_html = (f"<a class='sk-class-link' href='{html.escape(link)}' target='_blank'>{html.escape(link)}</a>"
                     if link else "<i>(this game has no dashboard yet: students type the code at their table)</i>")
        send = ("the <b>result code</b> shown beside Save" if self._packable(deal) else
                "their saved record file (<b>Save</b>: this game's moves do not fit a short code)")
        self.invite.value = (
            f"{note}<div>Class code <span class='sk-class-code'>{html.escape(deal.deal)}</span> · "
            f"{html.escape(spec.title)}, against {html.escape(who)}</div>"
            f"<div>Students open {link_html} — or open the {html.escape(spec.title)} dashboard, type the code in "
            f"<b>Play code</b> with the same opponents. At the end they send you {send}.</div>")

    def _packable(self, deal: ClassDeal) -> bool:
        """Whether this game's moves fit a result code (tried once per game on a bot's game)."""
        name = deal.spec.name
        if name not in self._packs:
            quick = "random" if "random" in deal.spec.bots else sorted(deal.spec.bots)[0]   # never the slow expert
            games = bot_games(ClassDeal(deal.deal, deal.bots), plays=1, kinds=[quick])
            try:
                result_code(games[0].state, deal.bots)
                self._packs[name] = True
            except Unpackable:
                self._packs[name] = False
            except RecordError:
                self._packs[name] = True
        return self._packs[name]

    # ----- reading the results ------------------------------------------------------------------
    def _on_clear(self, _: Any = None) -> None:
        self.paste.value = ""
        self.files.value = ()
        self.gathered = Gathered()
        for w in (self.summary, self.board, self.skipped, self.plot, self.choices, self.csv):
            w.value = ""

    def _on_read(self, _: Any = None) -> None:
        self._read()

    def _on_hide_names(self, _: Any = None) -> None:
        hidden = self.hide_names.value
        self.paste.layout.display = "none" if hidden else None
        self.paste_hidden.layout.display = None if hidden else "none"
        if self.gathered.results or self.gathered.skipped:
            self._show_results()

    def _uploaded(self) -> list[tuple[str, bytes]]:
        out = []
        for f in self.files.value or ():
            name = f["name"] if isinstance(f, dict) else f.name
            content = f["content"] if isinstance(f, dict) else f.content
            out.append((str(name), bytes(content)))
        return out

    def _read(self) -> None:
        """Replay everything pasted and uploaded, and fill in the leaderboard and the comparison."""
        assert self.deal is not None
        try:
            self.gathered = gather(self.paste.value, self._uploaded(), expect=self.deal)
            self._show_results()
        except Exception as e:  # the dashboard must answer in words, never with a traceback
            self.summary.value = (f"<span class='sk-error'>Something went wrong ({html.escape(type(e).__name__)}: "
                                  f"{html.escape(str(e)[:160])}).</span>")

    def bot_games(self) -> list[BotGame]:
        """The bots' games on the class's deal (played once per deal, then kept)."""
        assert self.deal is not None
        if self.deal not in self._bot_cache:
            self._bot_cache[self.deal] = bot_games(self.deal, plays=self.plays)
        return self._bot_cache[self.deal]

    def _show_results(self) -> None:
        g = self.gathered
        n, k = len(g.results), len(g.skipped)
        anonymous = self.hide_names.value
        if not n and not g.count(COPY) and not g.count(REFUSED):
            self.summary.value = "<span class='sk-error'>No result code found — paste codes like " \
                                 f"{html.escape(self.deal.deal if self.deal else '')}.R1…</span>"
        else:
            self.summary.value = summary_html(g)
        self.board.value = leaderboard_html(g, anonymous)
        self.skipped.value = skipped_html(g, anonymous)
        self.csv.value = csv_link(g, self.deal.deal if self.deal else "class") if (n or k) else ""
        bots = self.bot_games()
        self.plot.value = scores_plot_html([r.score for r in g.results], bots) if n else ""
        step = STEP_NAME.get(self.spec.name, "move")
        self.choices.value = choices_html(choice_rows(g.results, best_bot(bots)), best_bot(bots), step) if n else ""

    # ----- what tests use -----------------------------------------------------------------------
    def read(self, text: str, files: Sequence[tuple[str, bytes]] = ()) -> Gathered:
        """Paste ``text`` (and add record files) and read them, as the button does."""
        self.paste.value = text
        self.gathered = gather(text, files, expect=self.deal)
        self._show_results()
        return self.gathered


# ----- the parts, as HTML ---------------------------------------------------------------------------
def summary_html(g: Gathered) -> str:
    """'5 games read; 4 not counted (below, with the reason): 2 copies …, 1 line with no code, 1 refused.'"""
    n = len(g.results)
    text = f"<b>{n}</b> game{'s' if n != 1 else ''} read"
    hinted = sum(r.hints for r in g.results)
    if hinted:
        text += f" ({hinted} played with hints: marked in the leaderboard)"
    if g.skipped:
        parts = [_count(g.count(COPY), "copy of a game already read", "copies of a game already read"),
                 _count(g.count(NO_CODE), "line with no code", "lines with no code"),
                 _count(g.count(REFUSED), "code or file refused", "codes or files refused")]
        text += (f"; <span class='sk-error'>{len(g.skipped)} not counted</span> (below, with the reason): "
                 + ", ".join(p for p in parts if p))
    return text + "."


def _count(n: int, one: str, many: str) -> str:
    return "" if not n else f"1 {one}" if n == 1 else f"{n:,} {many}"


def leaderboard_html(g: Gathered, anonymous: bool = False) -> str:
    """The leaderboard table: rank, name, score, placing at the table, result code.

    ``anonymous`` (for projecting): no names; each row shows the end of its result code instead, by which
    a student finds their own row.
    """
    rows = leaderboard(g.results)
    if not rows:
        return ""
    solo = all(r["bots"] == "solo" for r in rows)
    hinted = any(r["hints"] for r in rows)     # the column shows only when someone used the table's hints
    head = ("<tr><th>#</th>" + ("" if anonymous else "<th>name</th>") + "<th>score</th>"
            + ("" if solo else "<th>place</th>") + ("<th>hints</th>" if hinted else "")
            + ("<th>result code ends</th>" if anonymous else "<th>result code</th>") + "</tr>")
    body = []
    for r in rows:
        place = "" if solo else f"<td>{_ordinal(r['placing'])}</td>"
        if hinted:
            place += ("<td class='sk-hinted' title='This game was played with the Hint button (its code starts H1)'>"
                      "used hints</td>" if r["hints"] else "<td></td>")
        name = "" if anonymous else f"<td class='sk-name'>{html.escape(r['name'])}</td>"
        if anonymous:
            code = f"<td class='sk-rcode-end'>{html.escape(_code_end(r['code']))}</td>"
        else:
            code = (f"<td class='sk-rcode' title='{html.escape(r['code'])}'>"
                    f"{html.escape(r['code']) if r['code'] else '<i>record file</i>'}</td>")
        mark = " data-hints='used'" if r["hints"] else ""
        body.append(f"<tr data-rank='{r['rank']}'{mark}><td>{r['rank']}</td>{name}"
                    f"<td class='sk-score'>{_signed(r['score'])}</td>{place}{code}</tr>")
    return f"<div class='sk-tablewrap'><table class='sk-board'>{head}{''.join(body)}</table></div>"


def _code_end(code: str) -> str:
    """The end of a result code (its last group and check): what tells one student's row from another's."""
    return "…" + code[-12:] if len(code) > 12 else code or "record file"


def skipped_html(g: Gathered, anonymous: bool = False) -> str:
    """Every entry not counted, with its line in the paste and its one-line reason.

    A long text is shortened here (the CSV has it whole); past ``SKIPPED_SHOWN`` entries the rest are
    counted. ``anonymous``: only how many, since names stand in the lines and the reasons.
    """
    if not g.skipped:
        return ""
    if anonymous:
        return (f"<div class='sk-small'>{len(g.skipped):,} entr{'y' if len(g.skipped) == 1 else 'ies'} not counted: "
                "the list is hidden with the names (the CSV has it).</div>")
    items = []
    for s in g.skipped[:SKIPPED_SHOWN]:
        where = f"line {s.line}" if s.line else ""
        who = " · ".join(html.escape(x) for x in (where, s.name) if x) or "no name"
        items.append(f"<li data-skipped='{html.escape(s.kind)}'><b>{who}</b> "
                     f"<code title='{len(s.text):,} characters'>{html.escape(shorten(s.text, SKIPPED_CHARS))}"
                     f"</code>: <span class='sk-why'>{html.escape(s.reason)}</span></li>")
    more = len(g.skipped) - SKIPPED_SHOWN
    if more > 0:
        items.append(f"<li data-skipped-more>… and {more:,} more not counted (each one, whole, is in the CSV)</li>")
    return f"<div class='sk-small'>Not counted:</div><ul>{''.join(items)}</ul>"


def csv_link(g: Gathered, stem: str) -> str:
    """A download link of the leaderboard as CSV (like the tables' Save link)."""
    data = base64.b64encode(results_csv(g.results, g.skipped).encode("utf-8")).decode("ascii")
    name = f"class-{stem}.csv"
    return (f"<a class='sk-download' download='{html.escape(name)}' href='data:text/csv;base64,{data}'>"
            f"⬇ {html.escape(name)}</a> <span class='sk-small'>(the leaderboard for a spreadsheet, with the "
            "names, and every entry not counted, whole)</span>")


def scores_plot_html(class_scores: Sequence[int], bots: Sequence[BotGame]) -> str:
    """The class's scores beside each bot's on the same deal: one row of dots each, the median marked."""
    import matplotlib

    matplotlib.use("Agg", force=False)  # a PNG in the page: no widget to lose when Voila reconnects
    from matplotlib.figure import Figure

    groups: list[tuple[str, list[int]]] = [(f"class ({len(class_scores)})", list(class_scores))]
    for kind in sorted({b.kind for b in bots}):
        scores = [b.score for b in bots if b.kind == kind]
        groups.append((f"{kind} bot" + (f" ({len(scores)} seeds)" if len(scores) > 1 else ""), scores))
    fig = Figure(figsize=(7.5, 0.55 * len(groups) + 1.0), dpi=100)
    ax = fig.subplots()
    markers = ["o", "s", "^", "D", "v"]
    colours = [theme.OKABE_ITO[c] for c in ("vermillion", "blue", "green", "orange", "purple")]
    for i, (_, scores) in enumerate(groups):
        y = len(groups) - 1 - i
        counts: dict[int, int] = {}
        for s in sorted(scores):
            k = counts.get(s, 0)
            counts[s] = k + 1
            # equal scores stack upwards a little, so every student is a dot
            ax.scatter([s], [y + 0.12 * k], marker=markers[i % 5], color=colours[i % 5], s=28, zorder=3)
        if scores:
            med = sorted(scores)[len(scores) // 2]
            ax.plot([med, med], [y - 0.3, y + 0.3], color=theme.INK, lw=2)
    ax.set_yticks(range(len(groups)), [name for name, _ in reversed(groups)])
    stack = max((max(sc.count(s) for s in sc) for _, sc in groups if sc), default=1)
    ax.set_ylim(-0.6, len(groups) - 0.4 + 0.12 * stack)
    ax.set_xlabel("final score (the bar: median)")
    ax.grid(axis="x", color="#ddd")
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    alt = "; ".join(f"{name}: {', '.join(map(str, sorted(s)))}" for name, s in groups)
    return f"<img class='sk-class-plot' alt='{html.escape(alt)}' src='data:image/png;base64,{data}'>"


def choices_html(rows: Sequence[dict[str, Any]], bot: BotGame | None, step: str = "card") -> str:
    """Per card (roll): what the best bot chose, the class's most common choices, and how many chose like it."""
    if not rows:
        return ""
    who = f"the best bot ({bot.kind}, {_signed(bot.score)})" if bot else "the bot"
    head = (f"<tr><th>{html.escape(step)}</th><th></th><th>{html.escape(who)}</th><th>the class chose</th>"
            "<th>like the bot</th></tr>")
    body = []
    for r in rows:
        chosen = ", ".join(
            (f"<span class='sk-like'>{html.escape(c)}</span>" if c == r["bot"] else html.escape(c)) + f" ×{n}"
            for c, n in r["class"])
        same = "" if r["same"] is None else f"{round(100 * r['same'])}% of {r['players']}"
        body.append(f"<tr data-step='{r['step']}'><td>{r['step']}</td><td>{html.escape(r['what'])}</td>"
                    f"<td>{html.escape(r['bot'])}</td><td>{chosen}</td><td>{same}</td></tr>")
    intro = (f"<div class='sk-small'>Per {html.escape(step)}: where the class chose, beside {html.escape(who)} on the "
             "same deal (bold: the bot's choice). A low share is a good question for the lesson: why "
             "did the bot go there?</div>")
    return f"{intro}<div class='sk-tablewrap'><table class='sk-choices'>{head}{''.join(body)}</table></div>"


def _signed(n: int) -> str:
    return f"−{-n}" if n < 0 else str(n)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def classroom(query: str | None = None, **kwargs: Any) -> Classroom:
    """The dashboard as the notebook shows it (reads the page link in Voila)."""
    return Classroom.from_query(query, **kwargs)
