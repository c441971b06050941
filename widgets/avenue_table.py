"""The playable Avenue table: your sheet, the cards, the buttons, bots on the same deck, the log.

The table only asks the engine (``legal_actions``, ``apply``, ``undo``, ``preview``,
``breakdown``...) and draws the answer; it never decides a rule. Every handler is guarded: a
problem becomes a plain message in the status line, never a traceback, and the game is kept.
"""

from __future__ import annotations

import base64
import functools
import html
import os
import traceback
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import ipywidgets as W
from sheetkit.widgets import avenue_text as words
from sheetkit.widgets import theme
from sheetkit.widgets.avenue_panels import CardsView, OpponentsView
from sheetkit.widgets.avenue_sheet import AvenueSheet
from sheetkit.widgets.canvas import batch
from sheetkit.widgets.query import MAX_BOTS, dashboard_options, share_query

from sheetkit.analysis.avenue_review import BOT_LABELS
from sheetkit.core.chance import derive_seed
from sheetkit.core.errors import IllegalAction, RecordError, SheetkitError
from sheetkit.core.records import dumps, parse_json, replay
from sheetkit.games.avenue import BOTS, AvenueState, Draw, Pass, Peek, new_game

ME = 0  # the person at this screen is always player 0; everyone else is a bot

# Friendlier words for the engine's refusals (keyed by IllegalAction.code); the engine's own
# message is shown for anything else.
FRIENDLY = {
    "occupied": "That cell already has a road — pick an empty one.",
    "acted": "You have already played this card — press Next card, or Undo first.",
    "not-your-turn": "The next road is not flipped yet — press Next card.",
    "over": "The game is over — play the same deal again or start a new game.",
    "peeked": "You have already peeked this round.",
    "no-farms": "There is no farm left to peek at.",
    "no-undo": "Nothing to undo: you can take back your move only until the next card is flipped.",
}

F = TypeVar("F", bound=Callable[..., Any])

# Table-only page CSS, on top of theme.CSS.
_TABLE_CSS = """<style>
/* ipywidgets' FileUpload always writes its file count into its label ("Load (0)"), and its browser
   half never takes a reset of that count from Python ("Load (1)" forever after one load): show
   the word only (the text node stays, at size 0, for screen readers). */
.sk-table .sk-load { font-size: 0; }
.sk-table .sk-load i.fa { font-size: var(--jp-widgets-font-size, 13px); }
.sk-table .sk-load::after { content: " Load"; font-size: var(--jp-widgets-font-size, 13px); }
.sk-table .sk-end .sk-share { flex: 1 1 auto; min-width: 0; }
/* ipycanvas focuses a canvas on mouse down (for key events, which the table does not use): no
   focus frame around the sheet after every click. */
.sk-table canvas:focus { outline: none; }
</style>"""


def _guarded(fn: F) -> F:
    """Run a UI handler; turn any failure into a status-line message (and keep the game)."""

    @functools.wraps(fn)
    def run(self: AvenueTable, *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(self, *args, **kwargs)
        except IllegalAction as e:
            self._fail(FRIENDLY.get(e.code, str(e)))
        except SheetkitError as e:
            self._fail(str(e))
        except Exception as e:  # a widget callback must never show a traceback
            self.last_error = traceback.format_exc()
            self._forget_drawing()
            self._fail(f"Something went wrong ({type(e).__name__}: {str(e)[:120]}). Your game is kept — "
                       "you can Save it.")
        return None

    return run  # type: ignore[return-value]


def _bot_names(kinds: Sequence[str]) -> list[str]:
    """'Greedy bot', 'Greedy bot 2'... one name per bot."""
    names: list[str] = []
    for kind in kinds:
        base = BOT_LABELS.get(kind, f"{kind.title()} bot")
        name, k = base, 2
        while name in names:
            name, k = f"{base} {k}", k + 1
        names.append(name)
    return names


def _bot_kind(name: str) -> str | None:
    """The bot kind behind a player name written by this table ('Greedy bot 2' → 'greedy')."""
    for kind, label in BOT_LABELS.items():
        if name == label or (name.startswith(label + " ") and name[len(label) + 1:].isdigit()):
            return kind
    return None


class AvenueTable:
    """A playable Avenue table: you against ``bots`` on the same deck. Display it in a notebook cell.

    ``code`` replays a shared deal (``AV-XXXX-XXXX``); ``seed`` picks a deal; neither: a fresh deal.
    ``record`` (a record dict or JSON text) continues or reviews a saved game.
    """

    def __init__(self, code: str | None = None, bots: Sequence[str] = ("greedy",), *, seed: int | None = None,
                 variant: str = "standard", name: str = "You", auto_next: bool = False,
                 record: dict[str, Any] | str | None = None, notes: Sequence[str] = ()) -> None:
        self.name = name
        self.variant = variant
        self.last_error: str | None = None
        self._error: str | None = None
        self._pending: str | None = None     # a game-replacing action waiting for a second press
        self._listeners: list[Callable[[str], None]] = []
        self.bots: dict[int, Any] = {}
        self.bot_kinds: list[str] = []
        problems = list(notes)
        kinds = [b for b in bots if b in BOTS][:MAX_BOTS]
        if len(kinds) < len(list(bots)):
            problems.append(f"only the bots {', '.join(BOTS)} can play (at most {MAX_BOTS})")
        self.state = self._first_state(code, kinds, seed, variant, record, problems)
        self._build(auto_next)
        self._adopt(self.state, advance=record is None)
        if problems:
            self._fail(" ".join(p[0].upper() + p[1:] + ("" if p.endswith(".") else ".") for p in problems))

    # ----- construction ---------------------------------------------------------------------
    def _first_state(self, code: str | None, kinds: list[str], seed: int | None, variant: str,
                     record: dict[str, Any] | str | None, problems: list[str]) -> AvenueState:
        players = [self.name, *_bot_names(kinds)]
        if record is not None:
            try:
                return self._replay(record)
            except SheetkitError as e:
                problems.append(f"the record could not be loaded ({e}); here is a fresh deal instead")
        if code:
            try:
                return new_game(players, code=code)
            except SheetkitError as e:
                problems.append(f"{e} — here is a fresh deal instead")
        try:
            return new_game(players, seed=seed, variant=variant)
        except SheetkitError as e:
            problems.append(str(e))
            return new_game(players, seed=seed)

    @classmethod
    def from_query(cls, query: str | None = None, default_bots: Sequence[str] = ("greedy",),
                   **kwargs: Any) -> AvenueTable:
        """The dashboard's table: ``?code=…&bots=…`` from Voila's QUERY_STRING (a fresh deal without a code)."""
        opts = dashboard_options(query, known_bots=tuple(BOTS))
        bots = default_bots if opts.bots is None else opts.bots
        return cls(code=opts.code, bots=bots, notes=opts.problems, **kwargs)

    def _build(self, auto_next: bool) -> None:
        st = self.state
        self.sheet = AvenueSheet(st.params.layout, rounds=st.params.rounds)
        self.sheet.canvas.on_ready(self._redraw_sheet)
        self.sheet.canvas.on_click(self._on_click)
        self.cards = CardsView()
        self.cards.canvas.on_ready(self._redraw_cards)
        self.opponents = self._make_opponents(st)

        self.status = _html("sk-status")
        self.info = _html("sk-info")
        self.peek_info = _html("sk-peekinfo")
        self.peek_button = _button("Peek", "sk-peek", "eye", "Look at the next farm card instead of drawing "
                                   "(once per round)")
        self.undo_button = _button("Undo", "sk-undo", "undo", "Take back your move on this card")
        self.next_button = _button("Next card", "sk-next", "forward", "Flip the next road card", "primary")
        self.auto_next = W.Checkbox(value=auto_next, description="flip the next card right after my move",
                                    indent=False, layout=W.Layout(width="auto"))
        self.auto_next.add_class("sk-auto")
        self.peek_button.on_click(self._on_peek)
        self.undo_button.on_click(self._on_undo)
        self.next_button.on_click(self._on_next)

        self.end_summary = _html("sk-end-summary")
        self.breakdown = _html("sk-breakdown")
        self.again_button = _button("Play this deal again", "sk-again", "repeat", "Same cards, same bots, "
                                    "a clean sheet", "success")
        self.again_button.on_click(self._on_again)
        self.share = _html("sk-share")
        # The button beside the share text (not above it) keeps the finished table within 800 px.
        again_row = _row(self.again_button, self.share)
        again_row.layout.align_items = "flex-start"
        self.end_box = W.VBox([self.end_summary, self.breakdown, again_row],
                              layout=W.Layout(display="none"))
        self.end_box.add_class("sk-end")

        self.code = _html("sk-code")
        self.code_input = W.Text(placeholder="AV-XXXX-XXXX", layout=W.Layout(width="150px"))
        self.code_input.add_class("sk-code-input")
        self.play_code_button = _button("Play code", "sk-play-code", "play", "Play the deal of a game code")
        self.play_code_button.on_click(self._on_play_code)
        self.new_button = _button("New game", "sk-new", "plus", "A fresh random deal, same bots")
        self.new_button.on_click(self._on_new)
        self.save_button = _button("Save", "sk-save", "download", "Make a download link of this game's record")
        self.save_button.on_click(self._on_save)
        self.download = _html("sk-download-box")
        self.upload = W.FileUpload(accept=".json,application/json", multiple=False, description="Load",
                                   tooltip="Load a saved game record (.json)", layout=W.Layout(width="90px"))
        self.upload.add_class("sk-load")
        self.upload.observe(self._on_upload, names="value")
        self.log = _html("sk-log")

        for b in (self.peek_button, self.undo_button, self.next_button, self.play_code_button, self.new_button,
                  self.save_button, self.again_button):
            b.layout = W.Layout(width="auto", flex="0 0 auto")   # never squeezed to "Play this de…"
        buttons = _row(self.peek_button, self.undo_button, self.next_button)
        self.game_rows = W.VBox([
            _row(_label("Game code"), self.code, self.code_input, self.play_code_button),
            _row(self.new_button, self.save_button, self.upload, self.download),
        ])
        self.play_column = W.VBox([self.cards.widget, buttons, self.auto_next, self.peek_info])
        self.play_column.add_class("sk-playcol")
        self.middle = W.HBox([self.play_column, self.end_box, self.opponents.widget])
        self.middle.add_class("sk-middle")
        self.side = W.VBox([self.status, self.info, self.middle, self.game_rows])
        self.side.add_class("sk-side")
        self.main = W.HBox([self.sheet.widget, self.side])
        self.main.add_class("sk-main")
        self.widget = W.VBox([W.HTML(theme.CSS + _TABLE_CSS), self.main, self.log])
        self.widget.add_class("sk-table")

    def _make_opponents(self, st: AvenueState) -> OpponentsView:
        view = OpponentsView(st.params.layout, [p for p in range(st.num_players) if p != ME])
        view.canvas.on_ready(self._redraw_opponents)
        if st.num_players == 1:
            view.widget.layout.display = "none"
        return view

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    # ----- what tests and the notebook use ---------------------------------------------------
    @property
    def scale(self) -> float:
        """Canvas pixels per CSS pixel of the sheet."""
        return self.sheet.canvas.scale

    def cell_click_point(self, row: int, col: int) -> tuple[float, float]:
        """Where to click cell (row, col), in the sheet canvas's own pixels (its centre)."""
        return self.sheet.click_geometry.cell_center(row, col)

    def click_cell(self, row: int, col: int) -> None:
        """Click a cell as a browser would (through the canvas's mouse event)."""
        x, y = self.sheet.geometry.cell_center(row, col)
        self.sheet.canvas.simulate_click(x, y)

    def simulate_client_ready(self) -> None:
        """Behave as if a browser had just shown the table (each canvas redraws in full)."""
        for view in (self.sheet, self.cards, self.opponents):
            view.canvas.simulate_client_ready()

    def on_change(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(event)`` after 'move', 'round' (a round was scored), 'over' and 'new'."""
        self._listeners.append(callback)

    def record(self) -> dict[str, Any]:
        """The game's record (JSON-able): replays to the identical game."""
        return self.state.to_record()

    @property
    def status_text(self) -> str:
        """The status line as plain text."""
        return html.unescape(_strip_tags(self.status.value))

    # ----- handlers -------------------------------------------------------------------------
    @_guarded
    def _on_click(self, x: float, y: float) -> None:
        cell = self.sheet.geometry.cell_at(x, y)
        if cell is None:
            self._fail("Click inside the grid to draw there.")
            return
        if self.state.is_terminal():
            raise IllegalAction("the game is over", "over")
        self.state.apply(ME, Draw(*cell))
        self._after_my_move()

    @_guarded
    def _on_peek(self, _: Any = None) -> None:
        self.state.apply(ME, Peek())
        self._after_my_move()

    @_guarded
    def _on_undo(self, _: Any = None) -> None:
        self.state.undo(ME)
        self._error = None
        self._render(["move"])

    @_guarded
    def _on_next(self, _: Any = None) -> None:
        st = self.state
        if st.is_terminal():
            raise IllegalAction("the game is over", "over")
        if not st.is_chance_node():
            card = st.card
            raise IllegalAction(f"First draw road {card.number if card else ''} in an empty cell, or Peek — "
                                "then press Next card.", "first-act")
        events = self._advance()
        self._error = None
        self._render(events)

    @_guarded
    def _on_new(self, _: Any = None) -> None:
        if self._confirmed("new", "A new game", "New game"):
            self._adopt(new_game(list(self.state.players), variant=self.variant))

    @_guarded
    def _on_again(self, _: Any = None) -> None:
        st = self.state
        self._adopt(AvenueState(st.params, list(st.players), seed=st.seed, deal=st.deal))

    @_guarded
    def _on_play_code(self, _: Any = None) -> None:
        code = self.code_input.value.strip()
        if not code:
            self._fail("Type a game code first (it looks like AV-0000-001A).")
            return
        game = new_game(list(self.state.players), code=code)     # a bad code is refused before asking
        if self._confirmed("code", f"Playing {game.game_code()}", "Play code"):
            self._adopt(game)

    @_guarded
    def _on_save(self, _: Any = None) -> None:
        self.download.value = self._download_link()

    @_guarded
    def _on_upload(self, change: dict[str, Any]) -> None:
        files = change.get("new") or ()
        if not files:
            return
        f = files[0]
        content = f["content"] if isinstance(f, dict) else f.content
        data = bytes(content)
        try:
            self._load(data)
        finally:
            self.upload.unobserve(self._on_upload, names="value")
            self.upload.value = ()
            self.upload.observe(self._on_upload, names="value")

    def _confirmed(self, action: str, what: str, button: str) -> bool:
        """True when replacing the game loses nothing, or this is the second press in a row."""
        st = self.state
        in_progress = not st.is_terminal() and any("player" in e for e in st.log)
        if not in_progress or self._pending == action:
            self._pending = None
            return True
        self._pending = action
        self._fail(f"{what} ends the game in progress — press {button} again to confirm (or Save it first).")
        return False

    # ----- game flow ------------------------------------------------------------------------
    def _after_my_move(self) -> None:
        st = self.state
        for p in st.current_players():
            if p != ME and p in self.bots:
                st.apply(p, self.bots[p].act(st, p))
        events = ["move"]
        if self.auto_next.value and st.is_chance_node() and not st.is_terminal():
            events += self._advance()
        self._error = None
        self._render(events)

    def _advance(self) -> list[str]:
        """Move the table on until you must act (or the game ends); which rounds ended on the way."""
        st = self.state
        events: list[str] = []
        while not st.is_terminal():
            if st.is_chance_node():
                scored = len(st.boxes[ME])
                st.apply_chance()
                if len(st.boxes[ME]) > scored:
                    events.append("round")
                continue
            if st.legal_actions(ME) == [Pass()]:     # nothing to choose: the engine allows only a pass
                st.apply(ME, Pass())
                for p in st.current_players():
                    if p in self.bots:
                        st.apply(p, self.bots[p].act(st, p))
                continue
            if ME in st.current_players():
                break
            for p in st.current_players():          # players other than you with no bot (loaded records)
                st.apply(p, self.bots[p].act(st, p) if p in self.bots else st.legal_actions(p)[0])
        if st.is_terminal():
            events.append("over")
        return events

    def _replay(self, record: dict[str, Any] | str | bytes) -> AvenueState:
        doc = parse_json(record) if isinstance(record, str | bytes) else record
        if isinstance(doc, dict) and doc.get("game") not in (None, "avenue"):
            raise RecordError(f"that record is a game of {str(doc.get('game'))[:30]!r}; this table plays Avenue")
        state = replay(doc)
        if not isinstance(state, AvenueState):
            raise RecordError("that record is not an Avenue game")
        return state

    def _load(self, data: bytes) -> None:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError("that file is not a sheetkit record (not a text file)") from None
        self._adopt(self._replay(text), advance=False)
        self._error = None
        self._render(["new"], message="Record loaded.")

    def _adopt(self, state: AvenueState, advance: bool = True) -> None:
        """Make ``state`` the table's game: bots for the other seats, views for its layout, first card flipped."""
        old = self.state
        self.state = state
        self.bots = {}
        self.bot_kinds = []
        unknown = []
        for p in range(state.num_players):
            if p == ME:
                continue
            kind = _bot_kind(state.players[p])
            if kind is None:
                unknown.append(state.players[p])
                kind = "greedy"
            self.bot_kinds.append(kind)
            self.bots[p] = BOTS[kind](seed=derive_seed(state.seed or 0, "table-bot", p))
        if state.params.layout != old.params.layout or state.params.rounds != old.params.rounds:
            gone = self.sheet
            self.sheet = AvenueSheet(state.params.layout, rounds=state.params.rounds)
            self.sheet.canvas.on_ready(self._redraw_sheet)
            self.sheet.canvas.on_click(self._on_click)
            self.main.children = (self.sheet.widget, self.side)
            gone.canvas.close()
        if (state.num_players != old.num_players or state.params.layout != old.params.layout
                or self.opponents.players != [p for p in range(state.num_players) if p != ME]):
            gone_opp = self.opponents
            self.opponents = self._make_opponents(state)
            self.middle.children = (self.play_column, self.end_box, self.opponents.widget)
            gone_opp.canvas.close()
        self.download.value = ""
        self._error = None
        events = ["new"]
        if advance:
            events += self._advance()
        self._render(events, full=True)
        if unknown:
            self._fail(f"{', '.join(unknown)} will be played by the greedy bot from here on.")

    # ----- drawing --------------------------------------------------------------------------
    @_guarded
    def _redraw_sheet(self) -> None:
        with batch():
            self.sheet.draw_static()
            self.sheet.forget()
            self.sheet.sync(self.state, ME, interactive=True)

    @_guarded
    def _redraw_cards(self) -> None:
        with batch():
            self.cards.forget()
            self.cards.sync(self.state, ME)

    @_guarded
    def _redraw_opponents(self) -> None:
        with batch():
            self.opponents.draw_static()
            self.opponents.forget()
            self.opponents.sync(self.state)

    def _render(self, events: Sequence[str] = (), full: bool = False, message: str | None = None) -> None:
        """Bring every view in line with the state: one canvas message, then the text widgets."""
        st = self.state
        self._pending = None
        with batch():
            if full:
                self.sheet.forget()
                self.cards.forget()
                self.opponents.forget()
            if self.sheet.canvas.ready:
                self.sheet.sync(st, ME, interactive=True)
            if self.cards.canvas.ready:
                self.cards.sync(st, ME)
            if self.opponents.canvas.ready and st.num_players > 1:
                if full:
                    self.opponents.draw_static()
                self.opponents.sync(st)
        self._render_text(message)
        for event in events:
            for cb in list(self._listeners):
                try:
                    cb(event)
                except Exception:  # an analysis panel must not break the table
                    self.last_error = traceback.format_exc()

    def _render_text(self, message: str | None = None) -> None:
        st = self.state
        line = html.escape(words.status_line(st, ME))
        note = ""
        if self._error:
            err = self._error if self._error.endswith((".", "!", "?")) else self._error + "."
            note = f"<span class='sk-error'>{html.escape(err)}</span> "
        elif message:
            note = f"<b>{html.escape(message)}</b> "
        self.status.value = f"<div>{note}{line}</div>"
        self.info.value = words.round_info(st, ME)
        self.peek_info.value = html.escape(words.peek_info(st, ME))
        legal = st.legal_actions(ME)
        self.peek_button.disabled = Peek() not in legal
        self.undo_button.disabled = not st.can_undo(ME)
        self.next_button.disabled = not (st.is_chance_node() and not st.is_terminal())
        code = st.game_code()
        self.code.value = html.escape(code) if code else "<i>a fixed deal (no code)</i>"
        self.log.value = words.log_html(st, ME)
        over = st.is_terminal()
        self.end_box.layout.display = "flex" if over else "none"
        self.play_column.layout.display = "none" if over else "flex"
        # At the end the breakdown needs the panel's full width; the small sheets go under it.
        self.middle.layout.flex_flow = "column" if over else "row"
        if over:
            self.end_summary.value = words.end_summary(st, ME)
            self.breakdown.value = words.breakdown_html(st, ME)
            self.share.value = self._share_html()
            if not self.download.value:
                self.download.value = self._download_link()
        else:
            self.breakdown.value = ""

    def _forget_drawing(self) -> None:
        """After a failure mid-draw, redraw the dynamic layers in full next time."""
        for view in (getattr(self, "sheet", None), getattr(self, "cards", None), getattr(self, "opponents", None)):
            if view is not None:
                view.forget()

    def _fail(self, message: str) -> None:
        """Show a problem in the status line; the state is unchanged."""
        self._error = message
        try:
            self._render_text()
        except Exception:  # last resort: the message alone
            self.status.value = f"<span class='sk-error'>{html.escape(message)}</span>"

    # ----- sharing --------------------------------------------------------------------------
    def _download_link(self) -> str:
        st = self.state
        text = dumps(st.to_record())
        data = base64.b64encode(text.encode("utf-8")).decode("ascii")
        stem = st.game_code() or "deal"
        when = "final" if st.is_terminal() else f"round{st.round}"
        filename = f"avenue-{stem}-{when}.json"
        return (f"<a class='sk-download' download='{html.escape(filename)}' "
                f"href='data:application/json;base64,{data}'>⬇ {html.escape(filename)}</a>")

    def _share_html(self) -> str:
        code = self.state.game_code()
        if not code:
            return "<span class='sk-small'>This deal has no code; Save the record to share it.</span>"
        query = share_query(code, self.bot_kinds)
        link = ""
        if os.environ.get("SERVER_SOFTWARE", "").startswith("voila"):
            link = f" — or send <a href='?{html.escape(query)}' target='_blank'>this link</a>"
        return (f"<div>Share this deal: game code <b class='sk-code-share'>{html.escape(code)}</b>{link}. "
                f"Friends who play it get the same cards in the same order.</div>"
                f"<div class='sk-small'>The analysis below the table has filled in for this game.</div>")


def _html(css_class: str, value: str = "") -> W.HTML:
    w = W.HTML(value)
    w.add_class(css_class)
    return w


def _label(text: str) -> W.HTML:
    return _html("sk-small", html.escape(text))


def _button(text: str, css_class: str, icon: str, tooltip: str, style: str = "") -> W.Button:
    b = W.Button(description=text, icon=icon, tooltip=tooltip, button_style=style)
    b.add_class(css_class)
    return b


def _row(*children: W.Widget) -> W.HBox:
    box = W.HBox(list(children))
    box.add_class("sk-row")
    return box


def _strip_tags(text: str) -> str:
    out, inside = [], False
    for ch in text:
        if ch == "<":
            inside = True
        elif ch == ">":
            inside = False
        elif not inside:
            out.append(ch)
    return "".join(out)
