"""What every game table shares: seats and bots, the canvases in one message, the status line, listeners.

A table subclass builds its own views and buttons and says how its game moves on; this base keeps
the rest identical across games. Its parts live beside it: ``table_flow`` (guarded handlers,
New / Again / Play code / Load, the bots' moves), ``table_share`` (record, share line, result
code) and ``table_layout`` (page CSS, widget builders, the game rows and end panel).
"""

from __future__ import annotations

import html
import traceback
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, ClassVar

import ipywidgets as W
from sheetkit.widgets import theme
from sheetkit.widgets.canvas import batch, step_aside
from sheetkit.widgets.hints import HintControl
from sheetkit.widgets.off_click import Job, Thought
from sheetkit.widgets.page_link import PageLink
from sheetkit.widgets.query import MAX_BOTS, dashboard_options
from sheetkit.widgets.resume import ResumeKeeper
from sheetkit.widgets.table_flow import ME, TableFlow, guarded
from sheetkit.widgets.table_layout import TABLE_CSS, TableLayout, button, html_widget, label, row, strip_tags
from sheetkit.widgets.table_share import TableShare

from sheetkit.core.play import Step
from sheetkit.core.protocol import GameState

__all__ = ["LOG_LINES", "ME", "TABLE_CSS", "GameTable", "button", "guarded", "html_widget", "label", "row",
           "strip_tags"]

# The log box shows ~5 lines and scrolls; every change re-sends the whole HTML, so the table keeps the
# latest lines only (the record and `python -m sheetkit replay` keep the whole game).
LOG_LINES = 30


class GameTable(TableFlow, TableShare, TableLayout):
    """The shared half of a playable table: you (player 0) against bots. Subclasses draw the game."""

    GAME: ClassVar[str]                      # registry name, also the saved file's prefix
    TITLE: ClassVar[str]                     # "Avenue"
    CODE_EXAMPLE: ClassVar[str]              # "AV-0000-001A"
    BOTS: ClassVar[Mapping[str, Any]]        # kind -> bot class (its player name: core.play.bot_label)
    NEW_GAME: ClassVar[Callable[..., GameState]]   # the game's new_game, as a staticmethod
    # The "New game against…" choices: (label, bot kinds), solo first; one "vs <kind> bot" for every kind in
    # BOTS joins them (opponent_options), so a newly registered bot is offered everywhere at once.
    OPPONENTS: ClassVar[tuple[tuple[str, tuple[str, ...]], ...]] = (("solo", ()),)
    SHARE_WHAT: ClassVar[str] = "this deal"
    SHARE_GETS: ClassVar[str] = "the same cards in the same order"
    _serial: int = 0    # renders so far, in the status line and the hidden state (tables that count them)
    _thinking: Thought | None = None   # a slow bot's move being worked out off the click path
    _code_job: Job | None = None       # the result code being worked out off the click path (slow bots)
    _result_key: Any = None            # the finished game whose result code is shown
    # Handlers that still run while a slow bot thinks: they replace the game (dropping the thought), save it,
    # or redraw a canvas a browser just showed (every ``_redraw…``). Every other click is refused politely.
    WHILE_THINKING: ClassVar[frozenset[str]] = frozenset({"_on_new", "_on_again", "_on_play_code", "_on_upload",
                                                          "_on_save"})

    # Set by the subclass's _build: the player's sheet view (with a SheetCanvas ``canvas``) and the widgets.
    sheet: Any
    status: W.HTML
    code: W.HTML
    code_input: W.Text
    download: W.HTML
    upload: W.FileUpload

    def __init__(self, code: str | None, bots: Sequence[str] | str, *, seed: int | None, variant: str,
                 name: str, record: dict[str, Any] | str | None, notes: Sequence[str],
                 seats: int | None = None) -> None:
        self.name = name
        self.variant = variant
        self.last_error: str | None = None
        self._error: str | None = None
        self._pending: str | None = None     # a game-replacing action waiting for a second press
        self._listeners: list[Callable[[str], None]] = []
        self._focus: Any = None              # the canvas view just clicked: the next render draws it first
        self.bots: dict[int, Any] = {}
        self.bot_kinds: list[str] = []
        problems = list(notes)
        # A single name ("greedy") is one bot, not five letters.
        wanted = [b for b in bots.split(",") if b] if isinstance(bots, str) else list(bots)
        if seats is not None:
            fitted = max(1, min(seats, MAX_BOTS + 1))
            if fitted != seats:
                problems.append(f"{self.TITLE} takes 1 to {MAX_BOTS + 1} players")
            wanted = (wanted + ["greedy"] * fitted)[:fitted - 1]
        kinds = [b for b in wanted if b in self.BOTS][:MAX_BOTS]
        if len(kinds) < len(wanted):
            problems.append(f"only the bots {', '.join(self.BOTS)} can play (at most {MAX_BOTS})")
        self.state, loaded = self._first_state(code, kinds, seed, variant, record, problems)
        self.hints = HintControl(self)      # its button goes where each table's _build puts it
        self._build()
        self.page = PageLink()     # scrolls the next step into view, keeps the page's link (widgets/page_link.py)
        self.resume = ResumeKeeper(self)    # the game in the page's link and under the table (widgets/resume.py)
        self.widget.children = (*self.widget.children, self.resume.line, self.page.widget)
        self._adopt(self.state, advance=not loaded or self._moves_on(self.state))
        if problems:
            self._fail(" ".join(p[0].upper() + p[1:] + ("" if p.endswith(".") else ".") for p in problems))

    # ----- what a subclass provides ---------------------------------------------------------
    def _new_game(self, players: list[str], *, code: str | None = None, seed: int | None = None,
                  variant: str | None = None) -> GameState:
        """A new game of this table's kind (the game module's ``new_game``, ``NEW_GAME``)."""
        if code:
            return self.NEW_GAME(players, code=code)
        return self.NEW_GAME(players, seed=seed, variant=variant or "standard")

    def _build(self) -> None:
        """Create the widgets (``self.widget``) and the canvas views."""
        raise NotImplementedError

    def _views(self) -> list[Any]:
        """The canvas views, each with ``canvas`` and ``forget()``."""
        raise NotImplementedError

    def _renew_views(self, old: GameState, state: GameState) -> None:
        """Replace the views that depend on the game's setup when a new game differs from the old one."""

    def _canvas_steps(self, full: bool) -> list[tuple[Any, Callable[[], None]]]:
        """(view, a call that brings it in line with the state) for each shown canvas, your own sheet first."""
        raise NotImplementedError

    @staticmethod
    def _redrawn(view: Any, sync: Callable[[], None], full: bool) -> Callable[[], None]:
        """A step for ``_canvas_steps``: ``sync``, after the view's printed layers when ``full``."""
        def step() -> None:
            if full:
                view.draw_static()
            sync()
        return step

    def _sync_canvases(self, full: bool) -> None:
        """Bring the canvases in line with the state, in one message; after a click on a canvas, that canvas in
        a message of its own that leaves at once, then the others in one more (a canvas that did not change
        sends nothing).

        The player looks where they clicked: that drawing does not wait for the bots' sheets or the town.
        """
        steps = self._canvas_steps(full)
        first = next((s for s in steps if s[0] is self._focus), None)
        self._focus = None
        if first is not None:
            with batch():
                first[1]()
        with batch():
            for step in steps:
                if step is not first:
                    step[1]()

    def _hand_on_focus(self) -> None:
        """A pressed button went disabled or away (the browser dropped its focus to the page), or its press began a
        new turn of yours: hand the focus to where the next move is made, if anywhere, so that keyboard users go on
        from there, and a click on a canvas does not pay for moving the focus first (ipycanvas focuses the canvas
        on mousedown, before it sends the click)."""
        target = self._next_focus()
        if target is not None:
            target.focus()

    def _next_focus(self) -> Any:
        """What takes the focus after such a press: the canvas your next move is a click on, or None."""
        view = self._next_click_view()
        return view.canvas if view is not None and view.canvas.ready else None

    def _next_click_view(self) -> Any:
        """The view (a canvas) your next move is a click on, or None."""
        return None

    def _turn_key(self) -> Hashable:
        """What changes when a new turn begins (a button press that changes it hands the focus on); None: no turns."""
        return None

    def _show_my_move(self, spot: Callable[[], None] | None = None) -> None:
        """After a click on a canvas: draw that canvas now, before the bots think (their moves, sheets and the
        text follow). ``spot`` draws the clicked spot alone: it goes ahead, in a message of its own, so what the
        player looks at does not wait for the rest of the canvas (a few commands instead of dozens)."""
        first = next((s for s in self._canvas_steps(False) if s[0] is self._focus), None)
        if first is None:
            return
        try:
            if spot is not None:
                with batch():
                    spot()
            with batch():
                first[1]()
            step_aside()       # let the server and the browser show the move before the bots and the text
        except Exception:  # the move is made: the bots still move, and the render after draws everything again
            self.last_error = traceback.format_exc()
            self._forget_drawing()

    def _render_text(self, message: str | None = None) -> None:
        """Bring the text widgets and buttons in line with the state."""
        raise NotImplementedError

    def _step_events(self, step: Step) -> list[str]:
        """The events (for ``on_change`` listeners) one step of the table or of a bot makes."""
        return []

    def _person_move(self, state: GameState, p: int) -> Any:
        """A move to make for person ``p`` without asking (their only move is a pass), or None: wait for them."""
        return None

    def _person_seats(self) -> set[int]:
        """The seats people play at this screen."""
        return {p for p in range(self.state.num_players) if p == ME or self._human_seat(self.state, p)}

    def _moves_on(self, state: GameState) -> bool:
        """True when a loaded game should move on by itself at once (not at your next button)."""
        return False

    def _progress(self) -> str:
        """Where the game stands, for a saved file's name ('round3', 'turn5')."""
        raise NotImplementedError

    def _reset_choices(self) -> None:
        """Forget half-made choices of the UI (a new game starts clean)."""

    def _draw_hint(self, move: Any) -> tuple[str, Any]:
        """Draw the expert's ``move`` as a suggestion; (its words, the view drawn on or None when only words)."""
        return str(move), None

    def _move_words(self, state: GameState, move: Any) -> str:
        """A move of yours in ``state`` in words, for the luck panel ('road 3 … at row 2, col 5')."""
        return str(move)

    def _small_sheet(self, state: GameState, played: Any, best: Any) -> Any:
        """Your sheet in ``state`` at a small size, ``played`` and ``best`` marked (a view with ``widget`` and
        ``canvas``), for the luck panel; None: words only."""
        return None

    @staticmethod
    def _luck_sheet(small: Any, sync: Callable[[], None], mark: Callable[[Any, str, bool], None],
                    played: Any, best: Any) -> Any:
        """A small sheet for the luck panel (``_small_sheet``): drawn by ``sync`` once a browser shows it, then
        ``mark(move, colour, dashed)`` for your move (vermillion) and the expert's (dashed blue)."""
        small.widget.remove_class("sk-sheet")
        small.widget.add_class("sk-luck-sheet")

        def draw() -> None:
            with batch():
                small.draw_static()
                small.forget()
                sync()
                mark(played, theme.OKABE_ITO["vermillion"], False)
                mark(best, theme.OKABE_ITO["blue"], True)

        small.canvas.on_ready(draw)
        return small

    def _human_seat(self, state: GameState, p: int) -> bool:
        """True when seat ``p`` (not you) is another person at this screen (pass-and-play); else a bot plays it."""
        return False

    @classmethod
    def from_query(cls, query: str | None = None, default_bots: Sequence[str] | None = None,
                   **kwargs: Any) -> GameTable:
        """The dashboard's table: ``?code=…&bots=…`` from Voila's QUERY_STRING (a fresh game without a code)."""
        opts = dashboard_options(query, known_bots=tuple(cls.BOTS))
        if default_bots is None:
            default_bots = cls.DEFAULT_BOTS
        bots = default_bots if opts.bots is None else opts.bots
        table = cls(code=opts.code, bots=bots, notes=opts.problems, **kwargs)
        table.resume.start(opts.query, opts.resume)    # ?resume=…: the game of a reloaded page, back where it was
        table.hints.set_allowed(opts.hints)
        return table

    DEFAULT_BOTS: ClassVar[Sequence[str]] = ()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    # ----- what tests and the notebook use ---------------------------------------------------
    @property
    def scale(self) -> float:
        """Canvas pixels per CSS pixel of the player's sheet (HiDPI)."""
        return float(self.sheet.canvas.scale)

    def simulate_client_ready(self) -> None:
        """Behave as if a browser had just shown the table (each canvas redraws in full)."""
        for view in self._views():
            view.canvas.simulate_client_ready()

    def on_change(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(event)`` after each change: 'move', 'new', 'over', and the game's own events."""
        self._listeners.append(callback)

    def record(self) -> dict[str, Any]:
        """The game's record (JSON-able): replays to the identical game."""
        return self.state.to_record()

    @property
    def status_text(self) -> str:
        """The status line as plain text."""
        return html.unescape(strip_tags(self.status.value))

    # ----- the bots' small sheets -----------------------------------------------------------
    @staticmethod
    def _others(state: GameState) -> list[int]:
        """The seats whose small sheets the table shows (everyone but you)."""
        return [p for p in range(state.num_players) if p != ME]

    def _watch_opponents(self, view: Any) -> Any:
        """Redraw a new opponents view for every browser; hide it in a solo game."""
        view.canvas.on_ready(self._redraw_opponents)
        if len(view.players) == 0:
            view.widget.layout.display = "none"
        return view

    @guarded
    def _redraw_opponents(self) -> None:
        self._redraw_in_full(self.opponents, lambda: self.opponents.sync(self.state))

    @staticmethod
    def _redraw_in_full(view: Any, sync: Callable[[], None], printed: bool = True) -> None:
        """A view a browser has just shown, drawn again from nothing in one message: its printed layers (unless
        ``printed`` is False: a view without any), then ``sync``."""
        with batch():
            if printed:
                view.draw_static()
            view.forget()
            sync()

    # ----- drawing --------------------------------------------------------------------------
    def _render(self, events: Sequence[str] = (), full: bool = False, message: str | None = None) -> None:
        """Bring every view in line with the state: one canvas message, then the text widgets."""
        self._pending = None
        self.hints.drop()
        if full:
            for view in self._views():
                view.forget()
        self._sync_canvases(full)
        with self._one_update_per_widget():
            self._render_text(message)
            self.hints.refresh()
        for event in events:
            for cb in list(self._listeners):
                try:
                    cb(event)
                except Exception:  # an analysis panel must not break the table
                    self.last_error = traceback.format_exc()
        # Last: it replays the game with the bots (about 0.5 s per Monte Carlo bot), once per game.
        self._show_result_code()

    def _forget_drawing(self) -> None:
        """After a failure mid-draw, redraw the dynamic layers in full next time."""
        if hasattr(self, "widget"):
            for view in self._views():
                view.forget()

    def _fail(self, message: str) -> None:
        """Show a problem in the status line; the state is unchanged."""
        self._error = message
        try:
            with self._one_update_per_widget():     # the status line last, as after a move
                self._render_text()
        except Exception:  # last resort: the message alone
            self.status.value = f"<span class='sk-error'>{html.escape(message)}</span>"

    def _status_html(self, line: str, message: str | None) -> str:
        """The status line: an error (or a message) first, then what to do now."""
        note = ""
        if self._error:
            err = self._error[0].upper() + self._error[1:]
            err = err if err.endswith((".", "!", "?")) else err + "."
            note = f"<span class='sk-error'>{html.escape(err)}</span> "
        elif message:
            note = f"<b>{html.escape(message)}</b> "
        if self._thinking is not None:
            line = f"{self._thinking.name} is thinking…"
        # The serial of the render this line belongs to: a driver that saw the hidden state move on waits
        # for the line of the same render (the two are separate widget messages).
        return f"<div data-serial='{self._serial}'>{note}{html.escape(line)}</div>"

    def _code_html(self) -> str:
        code = self.state.game_code()
        return html.escape(code) if code else "<i>a fixed deal (no code)</i>"
