"""The playable Avenue table: your sheet, the cards, the buttons, bots on the same deck, the log.

The table only asks the engine (``legal_actions``, ``apply``, ``undo``, ``preview``,
``breakdown``...) and draws the answer; it never decides a rule. What every table shares (seats,
bots, New / Again / Play code / Save / Load, guarded handlers) lives in ``table_base``.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import ipywidgets as W
from sheetkit.widgets import theme
from sheetkit.widgets.avenue import intent
from sheetkit.widgets.avenue import text as words
from sheetkit.widgets.avenue.panels import CardsView, OpponentsView
from sheetkit.widgets.avenue.sheet import AvenueSheet
from sheetkit.widgets.canvas import batch
from sheetkit.widgets.table_base import LOG_LINES, ME, GameTable, button, guarded, html_widget, row

from sheetkit.core.play import Step
from sheetkit.games.avenue import BOTS, AvenueState, Draw, Peek, new_game


class AvenueTable(GameTable):
    """A playable Avenue table: you against ``bots`` on the same deck. Display it in a notebook cell.

    ``code`` replays a shared deal (``AV-XXXX-XXXX``); ``seed`` picks a deal; neither: a fresh deal.
    ``record`` (a record dict or JSON text) continues or reviews a saved game.
    """

    GAME = "avenue"
    TITLE = "Avenue"
    CODE_EXAMPLE = "AV-0000-001A"
    BOTS = BOTS
    NEW_GAME = staticmethod(new_game)
    DEFAULT_BOTS = ("greedy",)
    SHARE_WHAT = "this deal"
    SHARE_GETS = "the same cards in the same order"
    _rounds_scored = 0       # your rounds scored when the table last moved on ("round" events)
    OPPONENTS = (("solo", ()), ("vs greedy bot", ("greedy",)),    # and one "vs … bot" for every other kind
                 ("vs 2 bots", ("greedy", "random")),
                 ("vs 3 bots", ("random", "greedy", "montecarlo")))

    def __init__(self, code: str | None = None, bots: Sequence[str] | str = ("greedy",), *,
                 seed: int | None = None, variant: str = "standard", name: str = "You", auto_next: bool = False,
                 record: dict[str, Any] | str | None = None, notes: Sequence[str] = ()) -> None:
        self._auto_next_at_start = auto_next
        super().__init__(code, bots, seed=seed, variant=variant, name=name, record=record, notes=notes)

    def _build(self) -> None:
        st = self.state
        self.sheet = AvenueSheet(st.params.layout, rounds=st.params.rounds)
        self.sheet.canvas.on_ready(self._redraw_sheet)
        self.sheet.canvas.on_click(self._on_click)
        self.cards = CardsView()
        self.cards.canvas.on_ready(self._redraw_cards)
        self.opponents = self._make_opponents(st)

        self.status = html_widget("sk-status")
        self.info = html_widget("sk-info")
        self.peek_info = html_widget("sk-peekinfo")
        self.peek_button = button("Peek", "sk-peek", "eye", "Look at the next farm card instead of drawing "
                                  "(once per round)")
        self.undo_button = button("Undo", "sk-undo", "undo", "Take back your move on this card")
        self.next_button = button("Next card", "sk-next", "forward", "Flip the next road card", "primary")
        self.auto_next = W.Checkbox(value=self._auto_next_at_start, description="flip the next card right after "
                                    "my move", indent=False, layout=W.Layout(width="auto"))
        self.auto_next.add_class("sk-auto")
        self.peek_button.on_click(self._on_peek)
        self.undo_button.on_click(self._on_undo)
        self.next_button.on_click(self._on_next)

        self._end_parts("Play this deal again", "Same cards, same bots, a clean sheet")
        # The button beside the share text (not above it) keeps the finished table within 800 px.
        again_row = row(self.again_button, self.share)
        again_row.layout.align_items = "flex-start"
        self.end_box = W.VBox([self.end_summary, self.breakdown, again_row],
                              layout=W.Layout(display="none"))
        self.end_box.add_class("sk-end")

        self.game_rows = self._game_rows("AV-XXXX-XXXX", "Play the deal of a game code",
                                         "A fresh random deal, against the bots chosen beside")
        self.log = html_widget("sk-log")

        for b in (self.peek_button, self.undo_button, self.next_button, self.again_button):
            b.layout = W.Layout(width="auto", flex="0 0 auto")   # never squeezed to "Play this de…"
        buttons = row(self.peek_button, self.undo_button, self.next_button, self.hints.button)
        self.play_column = W.VBox([self.cards.widget, buttons, self.auto_next, self.peek_info])
        self.play_column.add_class("sk-playcol")
        self.middle = W.HBox([self.play_column, self.end_box, self.opponents.widget])
        self.middle.add_class("sk-middle")
        self.side = W.VBox([self.status, self.info, self.middle, self.game_rows])
        self.side.add_class("sk-side")
        # The log under the sheet (not under the whole table): a finished game, whose panel is taller
        # than the sheet, still fits 1280×800. On a phone TABLE_CSS moves the log after the panel.
        self.left = W.VBox([self.sheet.widget, self.log])
        self.left.add_class("sk-left")
        self._page("", [self.left, self.side], [])

    def _make_opponents(self, st: AvenueState) -> OpponentsView:
        return self._watch_opponents(OpponentsView(st.params.layout, self._others(st)))

    def _views(self) -> list[Any]:
        return [self.sheet, self.cards, self.opponents]

    def _renew_views(self, old: AvenueState, state: AvenueState) -> None:  # type: ignore[override]
        if state.params.layout != old.params.layout or state.params.rounds != old.params.rounds:
            gone = self.sheet
            self.sheet = AvenueSheet(state.params.layout, rounds=state.params.rounds)
            self.sheet.canvas.on_ready(self._redraw_sheet)
            self.sheet.canvas.on_click(self._on_click)
            self.left.children = (self.sheet.widget, self.log)
            gone.canvas.close()
        if (state.num_players != old.num_players or state.params.layout != old.params.layout
                or self.opponents.players != self._others(state)):
            gone_opp = self.opponents
            self.opponents = self._make_opponents(state)
            self.middle.children = (self.play_column, self.end_box, self.opponents.widget)
            gone_opp.canvas.close()

    def _progress(self) -> str:
        return f"round{self.state.round}"

    # ----- what tests and the notebook use ---------------------------------------------------
    def cell_click_point(self, row: int, col: int) -> tuple[float, float]:
        """Where to click cell (row, col), in the sheet canvas's own pixels (its centre)."""
        return self.sheet.click_geometry.cell_center(row, col)

    def click_cell(self, row: int, col: int) -> None:
        """Click a cell as a browser would (through the canvas's mouse event)."""
        x, y = self.sheet.geometry.cell_center(row, col)
        self.sheet.canvas.simulate_click(x, y)

    # ----- handlers -------------------------------------------------------------------------
    @guarded
    def _on_click(self, x: float, y: float) -> None:
        self._focus = self.sheet
        cell = self.sheet.geometry.cell_at(x, y)
        self.state.apply(ME, intent.cell_click(self.state, ME, cell))
        # your road first, then the rest of your sheet, before the bots draw theirs (a Monte Carlo bot thinks)
        assert cell is not None
        self._show_my_move(lambda: self.sheet.sync_cell(self.state, ME, *cell))
        self._after_my_move()

    @guarded
    def _on_peek(self, _: Any = None) -> None:
        self.state.apply(ME, intent.peek(self.state, ME))
        self._after_my_move()

    @guarded
    def _on_undo(self, _: Any = None) -> None:
        self.state.undo(ME)
        self._error = None
        self._render(["move"])

    @guarded
    def _on_next(self, _: Any = None) -> None:
        intent.next_card(self.state)
        events = self._advance()
        self._error = None
        self._render(events)

    def _draw_hint(self, move: Any) -> tuple[str, Any]:
        """The expert's move on your sheet: the road drawn faintly in its cell, framed in blue."""
        st = self.state
        if isinstance(move, Draw) and st.card is not None:
            if self.sheet.canvas.ready:
                with batch():
                    self.sheet.mark_cell(move.row, move.col, st.card.number, theme.OKABE_ITO["blue"], dashed=True)
            return (f"the expert would draw {words.road_words(st.card.number)} at "
                    f"{words.cell_words(move.row, move.col)} (framed in blue on your sheet)"), self.sheet
        if isinstance(move, Peek):
            return "the expert would peek at the next farm (press Peek)", None
        return f"the expert would {move}", None

    def _move_words(self, state: AvenueState, move: Any) -> str:  # type: ignore[override]
        if isinstance(move, Draw) and state.card is not None:
            return f"{words.road_words(state.card.number)} at {words.cell_words(move.row, move.col)}"
        return "peek at the next farm" if isinstance(move, Peek) else str(move)

    def _small_sheet(self, state: AvenueState, played: Any, best: Any) -> Any:  # type: ignore[override]
        """Your sheet before the move, small: your road in vermillion, the expert's dashed in blue."""
        small = AvenueSheet(state.params.layout, rounds=state.params.rounds, cell=32.0)   # the road table fits

        def mark(move: Any, colour: str, dashed: bool) -> None:
            if isinstance(move, Draw) and state.card is not None:
                small.mark_cell(move.row, move.col, state.card.number, colour, dashed)

        return self._luck_sheet(small, lambda: small.sync(state, ME, interactive=False), mark, played, best)

    def _next_click_view(self) -> Any:
        return self.sheet if intent.draws_now(self.state, ME) else None

    # ----- game flow ------------------------------------------------------------------------
    def _after_my_move(self) -> None:
        """The bots draw on the same card; with the auto-flip on, the table goes on to your next card."""
        events = ["move", *self._advance(flip=self.auto_next.value)]
        self._error = None
        self._render(events)

    def _advance(self, moves: int | None = None, flip: bool = True) -> list[str]:
        """Move the table on until you must act (or the game ends); which rounds ended on the way."""
        self._rounds_scored = len(self.state.boxes[ME])
        return super()._advance(moves, flip)

    def _step_events(self, step: Step) -> list[str]:
        scored = len(self.state.boxes[ME])
        if step.chance and scored > self._rounds_scored:
            self._rounds_scored = scored
            return ["round"]
        return []

    def _person_move(self, state: AvenueState, p: int) -> Any:  # type: ignore[override]
        """Nothing to choose: the engine allows you only a pass."""
        return intent.forced_move(state, p)

    # ----- drawing --------------------------------------------------------------------------
    @guarded
    def _redraw_sheet(self) -> None:
        self._redraw_in_full(self.sheet, lambda: self.sheet.sync(self.state, ME, interactive=True))

    @guarded
    def _redraw_cards(self) -> None:
        self._redraw_in_full(self.cards, lambda: self.cards.sync(self.state, ME), printed=False)

    def _canvas_steps(self, full: bool) -> list[tuple[Any, Any]]:
        st = self.state
        steps: list[tuple[Any, Any]] = []
        if self.sheet.canvas.ready:
            steps.append((self.sheet, lambda: self.sheet.sync(st, ME, interactive=True)))
        if self.cards.canvas.ready:
            steps.append((self.cards, lambda: self.cards.sync(st, ME)))
        if self.opponents.canvas.ready and st.num_players > 1:
            steps.append((self.opponents, self._redrawn(self.opponents, lambda: self.opponents.sync(st), full)))
        return steps

    def _render_text(self, message: str | None = None) -> None:
        st = self.state
        self.status.value = self._status_html(words.status_line(st, ME), message)
        self.info.value = words.round_info(st, ME)
        self.peek_info.value = html.escape(words.peek_info(st, ME))
        legal = st.legal_actions(ME)
        self.peek_button.disabled = Peek() not in legal
        self.undo_button.disabled = not st.can_undo(ME)
        self.next_button.disabled = not (st.is_chance_node() and not st.is_terminal())
        self.code.value = self._code_html()
        self.log.value = words.log_html(st, ME, limit=LOG_LINES)
        over = st.is_terminal()
        self.play_column.layout.display = "none" if over else "flex"
        # At the end the breakdown needs the panel's full width; the small sheets go under it.
        self.middle.layout.flex_flow = "column" if over else "row"
        self._render_end(over, lambda: words.end_summary(st, ME), lambda: words.breakdown_html(st, ME))
