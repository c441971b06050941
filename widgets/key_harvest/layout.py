"""The Key Harvest table's layout: its page CSS and the widgets it builds (board, town, buttons, screen, log).

Building only: what the buttons do is the table's (``table.py``, through ``intent.py``), what
they show is the drawing's (``drawing.py``).
"""

from __future__ import annotations

import functools

import ipywidgets as W
from sheetkit.widgets import theme
from sheetkit.widgets.key_harvest import art
from sheetkit.widgets.key_harvest import text as words
from sheetkit.widgets.key_harvest.board import CountryBoard, OpponentBoards
from sheetkit.widgets.key_harvest.town import TownBoard
from sheetkit.widgets.lazy import cached_property, in_order
from sheetkit.widgets.shared import shared
from sheetkit.widgets.table_layout import button, html_widget, row

from sheetkit.games.key_harvest import CROPS, KeyHarvestState

KH_CSS = f"""
<style>
.sk-kh .sk-kh-left {{ gap: 6px; width: 430px; max-width: 100%; }}
.sk-kh .sk-kh-side {{ gap: 5px; width: 500px; max-width: 100%; }}
.sk-kh .sk-actions button {{ font-weight: bold; }}
.sk-kh .sk-actions button.sk-on {{ outline: 3px solid {theme.OKABE_ITO['blue']}; }}
.sk-kh .sk-actions button.sk-done {{ text-decoration: line-through; }}
.sk-kh .sk-summary {{ font-size: 13px; color: {theme.INK}; background: #FFF6D8; border-radius: 3px; padding: 2px 8px;
  line-height: 1.35; }}
.sk-kh .sk-summary .widget-html-content {{ line-height: 1.35; }}
.sk-kh .sk-why {{ font-size: 12px; color: {theme.PRINT}; line-height: 1.3; }}
.sk-kh .sk-workers button, .sk-kh .sk-choices button {{ font-size: 13px; }}
.sk-kh .sk-workers button.sk-on {{ outline: 3px solid {theme.OKABE_ITO['blue']}; font-weight: bold; }}
/* the worker picker: each worker's button with what it does beside it (a touch screen shows no tooltip); one
   that fits no space now is a dashed outline, its words grey */
.sk-kh .sk-workers {{ gap: 3px; }}
.sk-kh .sk-worker-row {{ flex-wrap: nowrap; gap: 8px; }}
.sk-kh .sk-worker-row > button {{ flex: 0 0 7.6em; width: 7.6em; padding: 0 6px; text-align: left; }}
.sk-kh .sk-worker-says {{ flex: 1 1 auto; min-width: 0; font-size: 12px; color: {theme.INK}; }}
.sk-kh .sk-worker-note {{ font-size: 12px; color: {theme.PRINT}; }}
.sk-kh .sk-worker-says .widget-html-content, .sk-kh .sk-worker-note .widget-html-content {{ line-height: 1.3; }}
.sk-kh .sk-workers button.sk-unfit {{ background: transparent; border: 1px dashed #B8B09C; color: {theme.PRINT};
  box-shadow: none; }}
.sk-kh .sk-worker-row:has(button.sk-unfit) .sk-worker-says {{ color: {theme.FAINT}; }}
.sk-kh .sk-screen {{ background: #F6EFE0; border: 1px dashed #B8A77E; border-radius: 4px; padding: 3px 6px; gap: 4px; }}
.sk-kh .sk-screen button {{ color: {theme.INK}; border: 1px solid #B8B09C; font-size: 13px; padding: 0 8px; }}
.sk-kh .sk-screen .sk-bidline {{ font-size: 13px; }}
.sk-kh .sk-handoff {{ background: #FFF6D8; border: 2px solid {theme.OKABE_ITO['orange']}; border-radius: 4px;
  padding: 6px 10px; gap: 6px; }}
.sk-kh .sk-log {{ height: 160px; }}
/* A projector (1024x768) or a laptop: a grid. Your board with the town under it (both 430 px wide),
   the status, buttons and your screen beside them, the others and the log under those: the next
   action — status, buttons, counters, registry and every store — is on the first screen. The
   column boxes dissolve (display: contents) so the grid places each canvas itself. */
@container sktable (min-width: 900px) {{
  .sk-kh .sk-main {{ display: grid !important; column-gap: 14px; row-gap: 6px; align-items: start;
    grid-template-columns: 430px minmax(0, 1fr); grid-template-rows: auto auto auto 1fr;
    grid-template-areas: "board side" "town side" "town opp" "town log"; }}
  .sk-kh .sk-kh-left {{ display: contents !important; }}
  .sk-kh .sk-kh-side {{ grid-area: side; width: auto; }}
  .sk-kh .sk-main .sk-board {{ grid-area: board; }} .sk-kh .sk-main .sk-town {{ grid-area: town; }}
  .sk-kh .sk-main .sk-opponents {{ grid-area: opp; }} .sk-kh .sk-main .sk-log {{ grid-area: log; }}
}}
/* a wide screen (1280x800): the town takes a third column with the log under it, the others go under
   the board */
@container sktable (min-width: 1200px) {{
  .sk-kh .sk-main {{ grid-template-columns: 430px minmax(0, 1fr) 400px; grid-template-rows: auto auto 1fr;
    grid-template-areas: "board side town" "opp side log" ". side ."; }}
}}
/* ipywidgets gives HTML a widget row's line height (28 px): the screen's two lines and the reasons read as text */
.sk-kh .sk-why .widget-html-content, .sk-kh .sk-screen-words .widget-html-content {{ line-height: 1.35; }}
/* a phone or a tablet: one column in the order of play — what to do, the buttons and your screen,
   your board, the town, the others, the log (the two columns' boxes dissolve into one column) */
@container sktable (max-width: 899px) {{
  .sk-kh .sk-main {{ flex-flow: column nowrap !important; gap: 8px; }}
  .sk-kh .sk-kh-side, .sk-kh .sk-kh-left {{ display: contents !important; }}
  .sk-kh .sk-status {{ order: 1; }} .sk-kh .sk-info {{ order: 2; }} .sk-kh .sk-summary {{ order: 2; }}
  .sk-kh .sk-kh-controls {{ order: 3; }}
  /* the end box is a flex item of the column now: as wide as the screen, the breakdown table scrolls inside it */
  .sk-kh .sk-end {{ order: 4; max-width: 100%; box-sizing: border-box; }}
  .sk-kh .sk-board {{ order: 5; }} .sk-kh .sk-town {{ order: 6; }}
  .sk-kh .sk-opponents {{ order: 7; }} .sk-kh .sk-log {{ order: 8; }} .sk-kh .sk-kh-game {{ order: 9; }}
  /* a worker picked: its row only (press it again for the others), so that your board comes up under it */
  .sk-kh .sk-workers.sk-picked > :not(:has(button.sk-on)) {{ display: none !important; }}
}}
.sk-kh .sk-log .sk-log-event {{ color: {theme.OKABE_ITO['blue']}; }}
.sk-kh .sk-log .sk-log-turn {{ color: {theme.PRINT}; font-style: italic; }}
/* newest first: each turn's heading above its lines, the turn being played on top */
.sk-kh .sk-log .sk-log-endturn, .sk-kh .sk-log .sk-log-now {{ font-weight: bold; color: {theme.PRINT};
  border-top: 1px solid {theme.GRID}; margin-top: 3px; padding-top: 2px; }}
.sk-kh .sk-end {{ min-width: 0; }}
/* the breakdown: a column per player. Should it still be wider than its box (four long names on a phone), it
   scrolls sideways under its sticky row labels, and a shadow at the right edge says there is more (the paper
   gradient, attached to the content, covers the shadow once the end is reached) */
.sk-kh .sk-breakdown table {{ font-size: 12px; }}
.sk-kh .sk-breakdown th, .sk-kh .sk-breakdown td {{ padding: 2px 6px; }}
.sk-kh .sk-breakdown tbody th {{ text-align: left; position: sticky; left: 0; white-space: normal; min-width: 5.5em; }}
.sk-kh .sk-breakdown thead th.sk-name {{ background: transparent; color: {theme.INK}; font-weight: bold;
  white-space: normal; }}
.sk-kh .sk-breakdown .sk-me {{ background: rgba(255, 214, 102, 0.35); }}
.sk-kh .sk-breakdown {{ background-color: {theme.PAPER};
  background-image: linear-gradient(to left, {theme.PAPER} 40%, rgba(251, 248, 239, 0)),
    radial-gradient(farthest-side at 100% 50%, rgba(60, 50, 30, 0.4), rgba(60, 50, 30, 0));
  background-position: right center, right center; background-size: 30px 100%, 14px 100%;
  background-repeat: no-repeat; background-attachment: local, scroll; }}
.sk-kh .sk-kh-side .sk-row > button, .sk-kh .sk-kh-side .sk-row > .widget-upload {{ flex: 0 0 auto; }}
</style>
"""


# The boxes' parts in their order (those not built yet are left out)
CONTROLS = ("actions", "why", "worker_box", "choice_box", "handoff", "screen", "play_row")
SIDE = ("status", "info", "summary", "controls", "end_box", "game_rows")
SCREEN = ("screen_words", "crop_row", "bid_row")
BID_ROW = ("bid_line", "confirm_bid", "clear_bid")


class KeyHarvestLayout:
    """Builds the Key Harvest table's widgets (a mixin of ``KeyHarvestTable``)."""

    def _build(self) -> None:
        """Create the widgets (``self.widget``) and the canvas views."""
        st = self.state
        self.board = CountryBoard()
        self.sheet = self.board              # the base's name for the player's sheet
        self.board.canvas.on_ready(self._redraw_board)
        self.board.canvas.on_click(self._on_board_click)
        self.town = self._make_town(st)
        self.opponents = self._make_opponents(st)

        # widgets whose layout never changes share one (each Layout is a model for the page to load; shared.py)
        fixed = shared(W.Layout)
        self.status = html_widget("sk-status", layout=fixed)
        self.info = html_widget("sk-info", layout=fixed)
        self.action_buttons: dict[str, W.Button] = {}
        always = shared(W.Layout, width="auto")
        for kind in words.ACTION_KINDS:
            b = button(words.ACTION_LABELS[kind], f"sk-act-{kind}", "", words.ACTION_HELP[kind], layout=always)
            b.on_click(functools.partial(self._on_action, kind))
            self.action_buttons[kind] = b
        self.end_turn_button = button("End turn", "sk-end-turn", "check", "End your turn: the registry refills "
                                      "and the next player goes", "primary", layout=always)
        self.end_turn_button.on_click(self._on_end_turn)
        self.undo_button = button("Undo", "sk-undo", "undo", "Take back your last move of this turn", layout=always)
        self.undo_button.on_click(self._on_undo)
        self.actions = row(*self.action_buttons.values(), self.end_turn_button, self.undo_button, self.hints.button,
                           css_class="sk-actions")
        self.why = html_widget("sk-why", layout=fixed)
        # the worker picker, the decision's buttons, the pass-the-screen box, Confirm / Clear of a bid and the end
        # panel are built when first shown (the properties below): hidden at the start, they only slowed the page
        self.worker_buttons: dict[str, W.Button] = {}
        self._worker_says: dict[str, W.HTML] = {}
        self._choice_values: tuple[str, ...] = ()

        self.crop_buttons: list[W.Button] = []
        counters = W.Layout(width="auto")      # the five hide together while the screen is closed
        for c, crop in enumerate(CROPS):
            b = button(crop, f"sk-add-{crop}", "", f"Add one {crop} counter to your bid", layout=counters,
                       colour=art.tint(art.CROP_COLOUR[c], 0.45))
            b.on_click(functools.partial(self._on_add_counter, c))
            self.crop_buttons.append(b)
        self.screen_words = html_widget("sk-screen-words", layout=fixed)
        self.crop_row = row(*self.crop_buttons, layout=fixed)
        self.screen = W.VBox(in_order(self, SCREEN), _dom_classes=("sk-screen",), layout=fixed)

        self.next_button = button("Next step", "sk-next", "step-forward", "Show the next bot move", layout=always)
        self.next_button.on_click(self._on_next)
        self.auto = W.Checkbox(value=self._auto_default, description="Auto: bots play at once", indent=False,
                               layout=always, _dom_classes=("sk-auto",))
        self.auto.observe(self._on_auto, names="value")
        self.play_row = row(self.next_button, self.auto, layout=fixed)

        self.game_rows = self._game_rows("KH-XXXX-XXXX", "Play the deal of a game code",
                                         "A fresh deal, against the bots chosen beside", "sk-kh-game")
        self.log = html_widget("sk-log", layout=fixed)
        self.hooks = html_widget("sk-hooks", layout=shared(W.Layout, display="none"))

        self.controls = W.VBox(in_order(self, CONTROLS), _dom_classes=("sk-kh-controls",))
        self.side = W.VBox(in_order(self, SIDE), _dom_classes=("sk-kh-side",), layout=fixed)
        # the board and the town in one column: KH_CSS's grid places them (board left, town under it or,
        # on a wide screen, in a third column); on a narrow screen the panel (the next action) comes first
        self.left = W.VBox([self.board.widget, self.town.widget, self.opponents.widget, self.log],
                           _dom_classes=("sk-kh-left",), layout=fixed)
        self._page(KH_CSS, [self.side, self.left], [self.hooks], "sk-kh")

    # ----- the parts built when first shown -------------------------------------------------------
    @cached_property
    def summary(self) -> W.HTML:
        """What happened since your last turn (none at your first)."""
        summary = html_widget("sk-summary")
        self.side.children = in_order(self, SIDE, summary=summary)
        return summary

    @cached_property
    def worker_box(self) -> W.VBox:
        """The worker picker (its rows come and go with the workers you may place)."""
        self.worker_note = html_widget("sk-worker-note")
        box = W.VBox([self.worker_note], layout=W.Layout(display="none"))
        box.add_class("sk-workers")
        self.controls.children = in_order(self, CONTROLS, worker_box=box)
        return box

    @cached_property
    def choice_box(self) -> W.HBox:
        """The buttons of a decision an effect asks for (a crop, a tile, Decline)."""
        box = W.HBox([], layout=W.Layout(display="none", flex_flow="row wrap"))
        box.add_class("sk-choices")
        self.controls.children = in_order(self, CONTROLS, choice_box=box)
        return box

    @cached_property
    def handoff(self) -> W.VBox:
        """Pass-and-play: "I am ready" between two people's turns, the screen closed meanwhile."""
        self.ready_words = html_widget("sk-handoff-words")
        self.ready_button = button("I am ready", "sk-ready", "eye", "Show your screen (the others look away)",
                                   "warning", width="auto")
        self.ready_button.on_click(self._on_ready)
        box = W.VBox([self.ready_words, self.ready_button], layout=W.Layout(display="none"))
        box.add_class("sk-handoff")
        self.controls.children = in_order(self, CONTROLS, handoff=box)
        return box

    @cached_property
    def bid_line(self) -> W.HTML:
        """The bid being built, in words (its row takes Confirm and Clear too)."""
        line = html_widget("sk-bidline")
        self.bid_row = row(line)
        self.screen.children = in_order(self, SCREEN)
        return line

    @cached_property
    def confirm_bid(self) -> W.Button:
        """Confirm the bid (or the payment) being built behind your screen."""
        _ = self.bid_line
        b = button("Confirm bid", "sk-confirm-bid", "gavel", "Put the tile in your store with this bid", "success",
                   width="auto", display="none")
        b.on_click(self._on_confirm_bid)
        self.bid_row.children = in_order(self, BID_ROW, confirm_bid=b)
        return b

    @cached_property
    def clear_bid(self) -> W.Button:
        """Take the bid's counters back."""
        _ = self.bid_line
        b = button("Clear", "sk-clear-bid", "times", "Take the counters back behind your screen", width="auto",
                   display="none")
        b.on_click(self._on_clear_bid)
        self.bid_row.children = in_order(self, BID_ROW, clear_bid=b)
        return b

    @cached_property
    def end_box(self) -> W.VBox:
        """The end panel: the placing, the breakdown, Play again and the share line."""
        self._end_parts("Play this deal again", "Same deal, same bots")
        self.again_button.layout.width = "auto"
        box = W.VBox([self.end_summary, self.breakdown, W.HBox([self.again_button]), self.share],
                     layout=W.Layout(display="none"))
        box.add_class("sk-end")
        self.side.children = in_order(self, SIDE, end_box=box)
        return box

    def _make_town(self, st: KeyHarvestState) -> TownBoard:
        town = TownBoard(st.num_players)
        town.canvas.on_ready(self._redraw_town)
        town.canvas.on_click(self._on_town_click)
        return town

    def _make_opponents(self, st: KeyHarvestState) -> OpponentBoards:
        view = OpponentBoards(self._shown_others(st))
        view.canvas.on_ready(self._redraw_opponents)
        return view

    def _shown_others(self, st: KeyHarvestState) -> list[int]:
        return [p for p in range(st.num_players) if p != self.viewer]

    def _renew_views(self, old: KeyHarvestState, state: KeyHarvestState) -> None:  # type: ignore[override]
        if state.num_players != old.num_players:
            gone_town, gone_opp = self.town, self.opponents
            self.town = self._make_town(state)
            self.opponents = self._make_opponents(state)
            self.left.children = (self.board.widget, self.town.widget, self.opponents.widget, self.log)
            gone_town.canvas.close()
            gone_opp.canvas.close()

