"""How a game moves on at a table: guarded handlers, New / Again / Play code / Load, bots fast and slow.

Game flow only (no drawing): a problem in a handler becomes the engine's words in the status line
(never a traceback, and the game is kept), a game-replacing button asks twice while a game is in
progress, records load through the engine's checked replay, and a slow bot thinks off the click path.
"""

from __future__ import annotations

import functools
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import ipywidgets as W
from sheetkit.widgets.lazy import built
from sheetkit.widgets.off_click import Thought, off_click_path

from sheetkit.core.errors import RecordError, SheetkitError
from sheetkit.core.play import Step, advance, bot_kind, bot_label, bot_names, seat_bots
from sheetkit.core.protocol import GameState
from sheetkit.core.records import parse_json, replay

if TYPE_CHECKING:
    from sheetkit.widgets.table_base import GameTable

ME = 0  # the person at this screen is always player 0; everyone else is a bot

F = TypeVar("F", bound=Callable[..., Any])


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
        except SheetkitError as e:   # an IllegalAction too: the engine's own words, never the table's
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


class TableFlow:
    """New / Again / Play code / Save / Load and the bots' moves (a mixin of ``GameTable``)."""

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
        if built(self, "download"):
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
