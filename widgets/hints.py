"""The Hint button every table has: the expert bot's move for you now, drawn on your sheet as a suggestion.

Nothing is played: the table draws the move (each table knows how: ``_draw_hint``) and says it in the
status line; the drawing goes at the next change of the game. A game in which a hint was shown says so in
its result code (``H1`` for ``R1``), so the teacher's leaderboard marks it; class play's links take the
button off (``?hints=off``). The expert thinks off the click path: on a worker thread, on a copy of the
game, when a browser pressed the button (a script or a test gets the hint at once).
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from typing import Any

import ipywidgets as W
from sheetkit.widgets.live import _deferring_loop
from sheetkit.widgets.off_click import WorkerThread
from sheetkit.widgets.shared import shared

from sheetkit.core.chance import derive_seed

_WORKER = WorkerThread("sk-hint")
THINKING = "The expert is thinking about your move…"



class HintControl:
    """A table's Hint button and what it shows; the table gives the expert's words and drawing."""

    def __init__(self, table: Any) -> None:
        self.table = table
        self.button = W.Button(description="Hint", icon="lightbulb-o", tooltip="Show the expert bot's move for "
                               "you now, on your sheet (it is not played; the result code will say hints were used)",
                               layout=W.Layout(width="auto", flex="0 0 auto"), style=shared(W.ButtonStyle),
                               _dom_classes=("sk-hint",))
        self.button.on_click(self._on_press)
        self.allowed = True
        self.used = False          # a hint was shown in this game
        self.shown: Any = None     # the move drawn now, until the game changes
        self._drawn_on: Any = None  # the view the suggestion is drawn on
        self._asked: Any = None    # the game a hint is being worked out for

    # ----- what the table calls ----------------------------------------------------------------
    def set_allowed(self, allowed: bool) -> None:
        """Show or take off the button (class play takes it off)."""
        self.allowed = allowed
        self.button.layout.display = None if allowed else "none"

    def reset(self) -> None:
        """A new game: no hint used yet, none shown."""
        self.used = False
        self.shown = self._asked = None

    def drop(self) -> None:
        """The game changed: the suggestion goes (its view redraws its moves in full at this render)."""
        if self._drawn_on is not None:
            self._drawn_on.forget()
            self._drawn_on = None
        self.shown = None

    def refresh(self) -> None:
        """Enable the button only when you have a move to make and the game has an expert."""
        st = self.table.state
        can = (self.expert() is not None and not st.is_terminal() and not st.is_chance_node()
               and 0 in st.current_players() and len(self._legal(st)) > 1)
        self.button.disabled = not can or self._asked is not None
        self.button.tooltip = ("Show the expert bot's move for you now, on your sheet (not played; the result code "
                               "will say hints were used)" if self.expert() is not None
                               else "No expert bot for this game yet")

    def _legal(self, st: Any) -> list[Any]:
        """Your legal moves, through the table's once-per-render answer when it keeps one (Key Harvest)."""
        legal = getattr(self.table, "_legal", None)
        return legal(0) if legal is not None else st.legal_actions(0)

    def expert(self) -> Callable[..., Any] | None:
        """The game's expert bot class, if it has one."""
        return self.table.BOTS.get("expert")

    # ----- the press -----------------------------------------------------------------------------
    def _on_press(self, _: Any = None) -> None:
        self.ask()

    def ask(self) -> None:
        """Work out the expert's move for you now and show it (at once, or from a worker thread)."""
        table = self.table
        factory = self.expert()
        st = table.state
        if factory is None or st.is_terminal() or st.is_chance_node() or 0 not in st.current_players():
            return
        key = (id(st), len(st.log))
        self._asked = key
        self.used = True
        game = st.clone()
        seed = derive_seed(getattr(st, "seed", None) or 0, "hint", len(st.log))
        loop = _deferring_loop(True, auto=True)

        def think() -> Any:
            return factory(seed=seed).act(game, 0)

        if loop is None:
            self._show(key, think())
            return
        table._render_text(THINKING)
        self.button.disabled = True

        def work() -> None:
            try:
                move = think()
            except Exception:  # the table says so in words; the game is untouched
                table.last_error = traceback.format_exc()
                move = None
            loop.call_soon_threadsafe(self._show, key, move)

        _WORKER.submit(work)

    def _show(self, key: Any, move: Any) -> None:
        """Draw ``move`` as the suggestion, if the game is still where it was asked."""
        table = self.table
        self._asked = None
        st = table.state
        if key != (id(st), len(st.log)):
            self.refresh()
            return
        if move is None:
            table._fail("The expert could not work out a hint here.")
            return
        self.shown = move
        try:
            words, view = table._draw_hint(move)
        except Exception:
            table.last_error = traceback.format_exc()
            words, view = f"the expert would {move}", None
        self._drawn_on = view
        table._error = None
        with table._one_update_per_widget():
            table._render_text(f"Hint: {words}.")
            self.refresh()
