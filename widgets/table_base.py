"""What every game table shares: seats and bots, New / Again / Play code / Save / Load, guarded handlers.

A table subclass builds its own views and buttons and says how its game moves on; this base keeps
the rest identical across games: a problem becomes a plain message in the status line (never a
traceback, and the game is kept), a game-replacing button asks twice while a game is in progress,
records load through the engine's checked replay, and analysis listeners never break the table.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import html
import json
import os
import traceback
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

import ipywidgets as W
from sheetkit.widgets.canvas import batch, step_aside
from sheetkit.widgets.hints import HintControl
from sheetkit.widgets.off_click import Job, Thought, off_click_path
from sheetkit.widgets.page_link import PageLink
from sheetkit.widgets.query import MAX_BOTS, dashboard_options, share_query
from sheetkit.widgets.resume import ResumeKeeper

from sheetkit.analysis.results import result_code
from sheetkit.core.errors import IllegalAction, RecordError, SheetkitError
from sheetkit.core.play import Step, advance, bot_kind, bot_label, bot_names, seat_bots
from sheetkit.core.protocol import GameState
from sheetkit.core.records import dumps, parse_json, replay

ME = 0  # the person at this screen is always player 0; everyone else is a bot
# The log box shows ~5 lines and scrolls; every change re-sends the whole HTML, so the table keeps the
# latest lines only (the record and `python -m sheetkit replay` keep the whole game).
LOG_LINES = 30

F = TypeVar("F", bound=Callable[..., Any])

# Page CSS every table adds on top of theme.CSS.
TABLE_CSS = """<style>
/* ipycanvas focuses a canvas on mousedown and only then measures where it is: when the canvas runs
   past the edge of the screen, the browser scrolls it into view in between, and the click lands that
   many pixels off (a 1024x768 projector clicking the town board hit the wrong tile). A scroll margin
   far larger than any canvas makes "into view" a no-op, so nothing moves under the pointer. */
.sk-table canvas { scroll-margin: -100000px; }
/* ipywidgets' FileUpload always writes its file count into its label ("Load (0)"), and its browser
   half never takes a reset of that count from Python ("Load (1)" forever after one load): show
   the word only (the text node stays, at size 0, for screen readers). */
.sk-table .sk-load { font-size: 0; }
.sk-table .sk-load i.fa { font-size: var(--jp-widgets-font-size, 13px); }
.sk-table .sk-load::after { content: " Load"; font-size: var(--jp-widgets-font-size, 13px); }
.sk-table .sk-end .sk-share { flex: 1 1 auto; min-width: 0; }
/* ipycanvas focuses a canvas on mouse down (for key events, which the tables do not use): no
   focus frame around the sheet after every click. */
.sk-table canvas:focus { outline: none; }
/* A button pressed with the mouse keeps the focus, and ipywidgets draws a ring and a shadow round a
   focused button until the next click elsewhere, whose focus change then repaints the page: 2-3 ms of
   the browser's time on every click on a sheet after a button (measured in Chromium). Rings show for
   keyboard focus only (:focus-visible), as browsers do for their own buttons. */
.sk-table .jupyter-button:focus:not(:focus-visible):not(:hover) { outline: none; box-shadow: none; }
/* Screens (docs/architecture.md): side by side when the width allows, stacked on a phone. A canvas
   keeps its drawn size and aspect ratio but is never shown wider than its box; ipycanvas reports
   clicks in canvas pixels of the shown size (it divides by getBoundingClientRect), so a scaled sheet
   still maps clicks to the right cell. */
.sk-table { container: sktable / inline-size; }
/* Touch: ipycanvas cancels every touch on a canvas, so a swipe that starts on one cannot scroll the page. No
   canvas is wider than the table less 32 px (100cqw: the table's width), which leaves a strip of at least
   47 px (with the page's 15) right of every sheet, board and map, where a thumb scrolls the page. */
.sk-table canvas { max-width: min(100%, 100cqw - 32px); min-width: 0 !important; height: auto !important;
  min-height: 0 !important; }
.sk-table .sk-stack { max-width: min(100%, 100cqw - 32px); min-width: 0 !important; height: auto !important;
  min-height: 0 !important; grid-template-columns: minmax(0, 1fr) !important; grid-template-rows: auto !important; }
.sk-table .sk-stack > canvas { width: 100% !important; }
/* rows of buttons wrap instead of clipping (Load) or squeezing the game code onto three lines */
.sk-table .sk-row { flex-wrap: wrap; row-gap: 4px; }
.sk-table .sk-end .sk-row { flex-wrap: nowrap; }
.sk-table .sk-code { flex: 0 0 auto; white-space: nowrap; }
.sk-table .sk-code-input { flex: 0 1 150px; min-width: 110px; }
.sk-table .sk-breakdown { max-width: 100%; overflow-x: auto; }
/* A log in the sheet's column (.sk-left) takes the sheet's width, however long its lines. */
.sk-table .sk-left { gap: 8px; }
.sk-table .sk-left > .sk-log { contain: inline-size; }
/* a phone: the next action first (Avenue's Peek / Undo / Next card above the cards), the log last */
@container sktable (max-width: 560px) {
  .sk-table .sk-playcol > .sk-row { order: -1; }
  .sk-table .sk-main > .sk-left { display: contents; }
  .sk-table .sk-main > .sk-left > .sk-log { order: 1; flex: 1 1 100%; }
  /* the swipe strip (Touch, above) beside Avenue's bots' sheets too */
  .sk-table .sk-middle > .sk-opponents { margin-right: 32px; }
  /* ... which leaves the cards' column too narrow for the auto-flip's words on one line */
  .sk-table .sk-auto { height: auto; }
  .sk-table .sk-auto .widget-label-basic, .sk-table .sk-auto .widget-label-basic span { white-space: normal;
    line-height: 1.3; }
}
</style>"""


def guarded(fn: F) -> F:
    """Run a UI handler; turn any failure into a status-line message (and keep the game)."""

    @functools.wraps(fn)
    def run(self: GameTable, *args: Any, **kwargs: Any) -> Any:
        if self._thinking is not None and not self._allowed_while_thinking(fn.__name__):
            self._fail("Not yet: wait for the bot's move")     # the line after it says who is thinking
            return None
        try:
            pressed = next((a for a in args if isinstance(a, W.Button)), None)
            turn = self._turn_key() if pressed is not None else None
            fn(self, *args, **kwargs)
            # disabled or closed, the browser drops its focus to the page; a new turn starts elsewhere
            if pressed is not None and (pressed.disabled or pressed.comm is None or self._turn_key() != turn):
                self._hand_on_focus()
            return None
        except IllegalAction as e:
            self._fail(self.FRIENDLY.get(e.code, str(e)))
        except SheetkitError as e:
            self._fail(str(e))
        except Exception as e:  # a widget callback must never show a traceback
            self.last_error = traceback.format_exc()
            self._forget_drawing()
            self._fail(f"Something went wrong ({type(e).__name__}: {str(e)[:120]}). Your game is kept — "
                       "you can Save it.")
        finally:
            self._focus = None     # a click's canvas comes first in that click's drawing only
        return None

    return run  # type: ignore[return-value]


class GameTable:
    """The shared half of a playable table: you (player 0) against bots. Subclasses draw the game."""

    GAME: ClassVar[str]                      # registry name, also the saved file's prefix
    TITLE: ClassVar[str]                     # "Avenue"
    CODE_EXAMPLE: ClassVar[str]              # "AV-0000-001A"
    BOTS: ClassVar[Mapping[str, Any]]        # kind -> bot class (its player name: core.play.bot_label)
    FRIENDLY: ClassVar[Mapping[str, str]] = {}   # IllegalAction.code -> friendlier words
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
        """A new game of this table's kind (the game module's ``new_game``)."""
        raise NotImplementedError

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

    def _human_seat(self, state: GameState, p: int) -> bool:
        """True when seat ``p`` (not you) is another person at this screen (pass-and-play); else a bot plays it."""
        return False

    # ----- construction ---------------------------------------------------------------------
    def _first_state(self, code: str | None, kinds: list[str], seed: int | None, variant: str,
                     record: dict[str, Any] | str | None, problems: list[str]) -> tuple[GameState, bool]:
        """The game to start with, and whether it came from ``record``; problems become words."""
        players = [self.name, *bot_names(kinds)]
        if record is not None:
            try:
                return self._replay(record), True
            except SheetkitError as e:
                problems.append(f"the record could not be loaded ({e}); here is a fresh game instead")
        if code:
            try:
                return self._new_game(players, code=code), False
            except SheetkitError as e:
                problems.append(f"{e} — here is a fresh game instead")
        try:
            return self._new_game(players, seed=seed, variant=variant), False
        except SheetkitError as e:
            problems.append(str(e))
            return self._new_game(players, seed=seed), False

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

    # ----- handlers every table has ---------------------------------------------------------
    @guarded
    def _on_new(self, _: Any = None) -> None:
        if self._confirmed("new", "A new game", "New game"):
            kinds = list(self.opponents_pick.value)
            self._adopt(self._new_game([self.name, *bot_names(kinds)], variant=self.variant))

    @guarded
    def _on_again(self, _: Any = None) -> None:
        st = self.state
        self._adopt(type(st)(st.params, list(st.players), seed=st.seed, deal=st.deal))

    @guarded
    def _on_play_code(self, _: Any = None) -> None:
        code = self.code_input.value.strip()
        if not code:
            self._fail(f"Type a game code first (it looks like {self.CODE_EXAMPLE}).")
            return
        game = self._new_game(list(self.state.players), code=code)   # a bad code is refused before asking
        if self._confirmed("code", f"Playing {game.game_code()}", "Play code"):
            self._adopt(game)

    @guarded
    def _on_save(self, _: Any = None) -> None:
        self.download.value = self._download_link()

    @guarded
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

    # ----- games in and out -----------------------------------------------------------------
    def _replay(self, record: dict[str, Any] | str | bytes) -> GameState:
        doc = parse_json(record) if isinstance(record, str | bytes) else record
        if isinstance(doc, dict) and doc.get("game") not in (None, self.GAME):
            raise RecordError(f"that record is a game of {str(doc.get('game'))[:30]!r}; this table plays "
                              f"{self.TITLE}")
        state = replay(doc)
        if state.game_name != self.GAME:
            raise RecordError(f"that record is not a {self.TITLE} game")
        return state

    def _load(self, data: bytes) -> None:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError("that file is not a sheetkit record (not a text file)") from None
        state = self._replay(text)
        self._adopt(state, advance=self._moves_on(state))
        self._error = None
        self._render(["new"], message="Record loaded.")

    def _adopt(self, state: GameState, advance: bool = True) -> None:
        """Make ``state`` the table's game: bots for the other seats, views for its setup, moved on to you."""
        old = self.state
        self.state = state
        self._thinking = None          # a slow bot still thinking about the old game: its answer is dropped
        self.hints.reset()
        self._reset_choices()
        unknown = []
        kinds: dict[int, str] = {}
        for p in range(state.num_players):
            if p == ME or self._human_seat(state, p):
                continue
            kind = bot_kind(state.players[p], self.BOTS)
            if kind is None:
                unknown.append(state.players[p])
                kind = "greedy"
            kinds[p] = kind
        self.bot_kinds = list(kinds.values())
        self.bots = seat_bots(self.BOTS, kinds, state.seed)
        self._renew_views(old, state)
        self._show_opponents_choice()
        self.download.value = ""
        self._error = None
        events = ["new"]
        if advance:
            events += self._advance()
        self._render(events, full=True)
        if unknown:
            self._fail(f"{', '.join(unknown)} will be played by the greedy bot from here on.")

    def _show_opponents_choice(self) -> None:
        """Preselect the table's current bots for the next New game (adding them when no choice matches)."""
        now = tuple(self.bot_kinds)
        options = self.opponent_options()
        if now not in [kinds for _, kinds in options]:
            options.append((f"vs {', '.join(now)}", now))
        if list(self.opponents_pick.options) != options:
            self.opponents_pick.options = options
        self.opponents_pick.value = now

    @classmethod
    def opponent_options(cls) -> list[tuple[str, tuple[str, ...]]]:
        """The "New game against…" menu: the table's choices, with one "vs <kind> bot" for every kind in BOTS."""
        options = list(cls.OPPONENTS)
        singles = [i for i, (_, kinds) in enumerate(options) if len(kinds) == 1]
        at = (singles[-1] if singles else 0) + 1
        for kind in cls.BOTS:
            if (kind,) not in [kinds for _, kinds in options]:
                options.insert(at, (f"vs {bot_label(kind).lower()}", (kind,)))
                at += 1
        return options

    # ----- the bots move: fast ones at once, slow ones off the click path ----------------------
    def _advance(self, moves: int | None = None, flip: bool = True) -> list[str]:
        """Let the table and the bots move on until a person must act; the events on the way.

        A slow bot (``slow = True``) is not asked here: the loop stops at its seat and it thinks on a worker
        thread (``_think``) while the table stays live. ``moves`` caps the bots' moves, ``flip=False`` stops
        at the next table step (a person flips the card).
        """
        st = self.state
        people = self._person_seats()
        slow = {p for p, bot in self.bots.items() if getattr(bot, "slow", False)}
        events: list[str] = []
        made = 0
        for step in advance(st, self.bots, people=people | slow, moves=moves, flip=flip,
                            person_move=self._person_move):
            made += step.player is not None and step.player not in people
            events += self._step_events(step)
        left = None if moves is None else moves - made
        if st.is_terminal():
            events.append("over")
        elif left != 0 and not st.is_chance_node():
            current = st.current_players()
            seat = next((p for p in current if p in slow), None)
            if seat is not None and not people.intersection(current):
                self._think(seat, left, flip)
        return events

    def _think(self, seat: int, moves: int | None, flip: bool) -> None:
        """Let the slow bot at ``seat`` work out its move on a worker thread, on a copy of the game; the kernel's
        event loop applies it (``_finish_thinking``), or ``wait_for_bots`` where no loop runs (tests)."""
        bot, game = self.bots[seat], self.state
        thought = Thought(seat, game.players[seat], game, len(game.log), moves, flip)
        copy = game.clone()
        self._thinking = thought
        thought.job = off_click_path(lambda: bot.act(copy, seat), lambda _: self._finish_thinking(thought),
                                     f"sheetkit-{self.GAME}-bot-{seat}")

    def _finish_thinking(self, thought: Thought) -> None:
        """On the kernel's thread: apply a slow bot's move, if the table still waits for it, and move on."""
        if self._thinking is not thought:
            return                   # already applied (wait_for_bots), or the game was replaced meanwhile
        self._thinking = None
        if thought.game is not self.state or len(self.state.log) != thought.at:
            return
        self._apply_thought(thought)

    @guarded
    def _apply_thought(self, thought: Thought) -> None:
        if thought.job.error is not None:
            self.last_error = thought.job.error
            self._fail(f"{thought.name} could not decide (a bug in the bot). Your game is kept — you can Save it.")
            return
        st, seat, action = self.state, thought.seat, thought.job.result
        st.apply(seat, action)
        events = [*self._step_events(Step(seat, action)), "move"]
        events += self._advance(None if thought.moves is None else thought.moves - 1, thought.flip)
        self._error = None
        self._render(events)

    @classmethod
    def _allowed_while_thinking(cls, handler: str) -> bool:
        return handler in cls.WHILE_THINKING or handler.startswith("_redraw")

    @property
    def bot_thinking(self) -> str | None:
        """The name of the slow bot thinking now, or None."""
        return None if self._thinking is None else self._thinking.name

    def wait_for_bots(self, timeout: float = 60.0) -> None:
        """Wait until no slow bot thinks and no result code is being worked out, and show their answers (tests
        and scripts; a page needs no waiting)."""
        while self._thinking is not None or self._code_job is not None:
            thought = self._thinking
            job = thought.job if thought is not None else self._code_job
            assert job is not None
            if not job.done.wait(timeout):
                raise TimeoutError(f"{thought.name if thought else 'the result code'} is still being worked out "
                                   f"after {timeout:g} s")
            if thought is not None:
                self._finish_thinking(thought)
            else:
                self._finish_code(self._result_key, job)

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
        with batch():
            self.opponents.draw_static()
            self.opponents.forget()
            self.opponents.sync(self.state)

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

    @contextlib.contextmanager
    def _one_update_per_widget(self) -> Any:
        """Hold every widget of the table while the text is brought up to date: a button whose label, tip
        and state all change sends one update, not four (a widget that did not change sends nothing)."""
        widgets, todo = [], [self.widget]
        while todo:
            w = todo.pop()
            widgets.append(w)
            todo.extend(c for c in getattr(w, "children", ()) if isinstance(c, W.Widget))
        # Held widgets are let go last-in first-out: the status line, held first, is sent last, so whoever
        # waits for it (a player, a test, a driver) finds every other part of the table already up to date.
        status = getattr(self, "status", None)
        if status in widgets:
            widgets.remove(status)
            widgets.insert(0, status)
        with contextlib.ExitStack() as stack:
            for w in widgets:
                stack.enter_context(w.hold_sync())
            yield

    def _render_end(self, over: bool, summary: Callable[[], str], breakdown: Callable[[], str]) -> None:
        """The end panel: hidden while playing; at the end the placing, the breakdown, the share line, the record."""
        self.end_box.layout.display = "flex" if over else "none"
        if over:
            self.end_summary.value = summary()
            self.breakdown.value = breakdown()
            self.share.value = self._share_html()
            if not self.download.value:
                self.download.value = self._download_link()
        else:
            self.breakdown.value = ""

    def _publish_hooks(self, css_class: str) -> None:
        """What is legal now, as JSON in a hidden element (browser tests and drivers read it, players never)."""
        data = html.escape(json.dumps({**self.hook_data(), "thinking": self.bot_thinking}), quote=True)
        self.hooks.value = f"<div class='{css_class}' data-state=\"{data}\"></div>"

    # ----- sharing --------------------------------------------------------------------------
    def _download_link(self) -> str:
        st = self.state
        text = dumps(st.to_record())
        data = base64.b64encode(text.encode("utf-8")).decode("ascii")
        stem = st.game_code() or "deal"
        when = "final" if st.is_terminal() else self._progress()
        filename = f"{self.GAME}-{stem}-{when}.json"
        return (f"<a class='sk-download' download='{html.escape(filename)}' "
                f"href='data:application/json;base64,{data}'>⬇ {html.escape(filename)}</a>")

    def _share_html(self) -> str:
        code = self.state.game_code()
        if not code:
            return "<span class='sk-small'>This deal has no code; Save the record to share it.</span>"
        query = share_query(code, self.bot_kinds, hints=self.hints.allowed)
        link = ""
        if os.environ.get("SERVER_SOFTWARE", "").startswith("voila"):
            link = f" — or send <a href='?{html.escape(query)}' target='_blank'>this link</a>"
        return (f"<div>Share {self.SHARE_WHAT}: game code <b class='sk-code-share'>{html.escape(code)}</b>{link}. "
                f"Whoever plays it gets {self.SHARE_GETS}.</div>"
                f"<div class='sk-small'>The analysis below the table has filled in for this game.</div>")

    def _game_rows(self, placeholder: str, code_tip: str, new_tip: str) -> W.VBox:
        """The code box and the New / Save / Load row, the same on every table."""
        self.code = html_widget("sk-code")
        self.code_input = W.Text(placeholder=placeholder, layout=W.Layout(width="150px"))
        self.code_input.add_class("sk-code-input")
        self.play_code_button = button("Play code", "sk-play-code", "play", code_tip)
        self.play_code_button.on_click(self._on_play_code)
        self.new_button = button("New game", "sk-new", "plus", new_tip)
        self.new_button.on_click(self._on_new)
        self.opponents_pick = W.Dropdown(options=self.opponent_options(), value=(),
                                         tooltip="Who plays the next New game with you",
                                         layout=W.Layout(width="140px", flex="0 0 auto"))
        self.opponents_pick.add_class("sk-opponents-pick")
        self.save_button = button("Save", "sk-save", "download", "Make a download link of this game's record")
        self.save_button.on_click(self._on_save)
        self.download = html_widget("sk-download-box")
        self.result_code = html_widget("sk-result-code")
        self.result_code.layout.display = "none"
        self.upload = W.FileUpload(accept=".json,application/json", multiple=False, description="Load",
                                   tooltip="Load a saved game record (.json)", layout=W.Layout(width="90px"))
        self.upload.add_class("sk-load")
        self.upload.observe(self._on_upload, names="value")
        for b in (self.play_code_button, self.new_button, self.save_button):
            b.layout = W.Layout(width="auto", flex="0 0 auto")
        return W.VBox([
            row(label("Game code"), self.code, self.code_input, self.play_code_button),
            row(self.new_button, self.opponents_pick, self.save_button, self.upload, self.download,
                self.result_code),
        ])

    def _show_result_code(self) -> None:
        """At the game's end, the result code beside Save (for class play: sheetkit.analysis.results).

        Writing it replays the game with the bots; with a slow bot that takes as long as its game did, so it is
        worked out off the click path then."""
        st = self.state
        key = (id(st), len(st.log), self.hints.used) if st.is_terminal() else None
        if key == self._result_key:
            return
        self._result_key = key
        self._code_job = None
        self.result_code.layout.display = "none" if key is None else "flex"
        if key is None:
            self.result_code.value = ""
            return
        self.result_code.value = "<span class='sk-small'>Result code: working it out…</span>"
        kinds = list(self.bot_kinds)
        if not any(getattr(bot, "slow", False) for bot in self.bots.values()):
            self.result_code.value = self._result_code_html(st, kinds, self.hints.used)
            return
        copy = st.clone()
        hints = self.hints.used
        self._code_job = off_click_path(lambda: self._result_code_html(copy, kinds, hints),
                                        lambda job: self._finish_code(key, job), f"sheetkit-{self.GAME}-code")

    def _finish_code(self, key: Any, job: Job) -> None:
        """On the kernel's thread: show a result code worked out off the click path, if it is still this game's."""
        if self._code_job is not job or self._result_key != key:
            return
        self._code_job = None
        if job.error is not None:
            self.last_error = job.error
        self.result_code.value = job.result if job.error is None else \
            "<span class='sk-small'>No result code for this game — send the record file (Save).</span>"

    def _result_code_html(self, st: GameState, kinds: list[str], hints: bool = False) -> str:
        """The result code line for a finished game (or why there is none)."""
        try:
            return (f"Result code: <code class='sk-result-text' style='user-select: all'>"
                    f"{html.escape(result_code(st, kinds, hints=hints))}</code>"
                    + (" <span class='sk-small'>(hints used)</span>" if hints else ""))
        except SheetkitError as e:  # e.g. a record loaded mid-game: its bots had other seeds
            return f"<span class='sk-small'>No result code: {html.escape(str(e))}.</span>"
        except Exception:  # the game itself is fine: never let the code break the finished table
            self.last_error = traceback.format_exc()
            return "<span class='sk-small'>No result code for this game — send the record file (Save).</span>"


def html_widget(css_class: str, value: str = "") -> W.HTML:
    """An HTML widget with a hook class."""
    w = W.HTML(value)
    w.add_class(css_class)
    return w


def label(text: str) -> W.HTML:
    """Small grey words."""
    return html_widget("sk-small", html.escape(text))


def button(text: str, css_class: str, icon: str, tooltip: str, style: str = "") -> W.Button:
    """A button with a hook class."""
    b = W.Button(description=text, icon=icon, tooltip=tooltip, button_style=style)
    b.add_class(css_class)
    return b


def row(*children: W.Widget) -> W.HBox:
    """Widgets side by side."""
    box = W.HBox(list(children))
    box.add_class("sk-row")
    return box


def strip_tags(text: str) -> str:
    """HTML to its text (the status line is simple markup)."""
    out, inside = [], False
    for ch in text:
        if ch == "<":
            inside = True
        elif ch == ">":
            inside = False
        elif not inside:
            out.append(ch)
    return "".join(out)
