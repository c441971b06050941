"""The playable Key Harvest table: your country board, the town and the stores, your screen, bots, the log.

The table only asks the engine (``legal_actions``, ``legal_spaces``, ``check``, ``apply``, ``undo``,
``breakdown``...) and draws the answer; it never decides a rule. Every handler is guarded: a
problem becomes a plain message in the status line, never a traceback.

A turn at this table: the action buttons say what is still allowed (one or two different actions,
never Buy after Bid); click your unharvested tiles to harvest a group, pick a worker and click a
tinted space, click a store tile to buy it, or click a registry tile and build a bid from the
counters behind your screen; End turn lets the bots play (one log line each). Decisions an effect
asks for (a crop, a tile, a space) appear as buttons and as tinted targets. With two or more people
at one screen (``humans=["Ann", "Bob"]``) the screen — the counters — is hidden between turns
until the next player says they are ready.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Hashable, Sequence
from typing import Any
from urllib.parse import parse_qs

import ipywidgets as W
from sheetkit.widgets import theme
from sheetkit.widgets.canvas import batch
from sheetkit.widgets.key_harvest import art
from sheetkit.widgets.key_harvest import text as words
from sheetkit.widgets.key_harvest.board import CountryBoard, OpponentBoards
from sheetkit.widgets.key_harvest.town import TownBoard
from sheetkit.widgets.query import query_string
from sheetkit.widgets.shapes import ring
from sheetkit.widgets.table_base import (
    ME,
    TABLE_CSS,
    GameTable,
    button,
    guarded,
    html_widget,
    row,
)

from sheetkit.core.errors import IllegalAction, RecordError
from sheetkit.core.play import Step, bot_kind, bot_label
from sheetkit.games.key_harvest import BOTS, CODES, CROPS, Bid, Buy, Choose, EndTurn, Harvest, KeyHarvestState, new_game
from sheetkit.games.key_harvest.moves import PlaceWorker, RemoveWorker
from sheetkit.games.key_harvest.workers import WORKERS

NO_BID = (0, 0, 0, 0, 0)

FRIENDLY = {
    "over": "The game is over — play the same deal again or start a new game.",
}

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


class KeyHarvestTable(GameTable):
    """A playable Key Harvest table: you against ``bots`` (1–3), or 2–4 people at one screen (``humans``).

    ``code`` replays a shared deal (``KH-XXXX-XXXX``); ``seed`` picks one; neither: a fresh deal.
    ``humans`` names the people taking turns at this screen (the first one sits in seat 0);
    ``record`` (a record dict or JSON text) continues or reviews a saved game. ``auto=False``
    shows the bots' moves one at a time (press Next step).
    """

    GAME = "key-harvest"
    TITLE = "Key Harvest"
    CODE_EXAMPLE = "KH-0000-0001"
    BOTS = BOTS
    FRIENDLY = FRIENDLY
    DEFAULT_BOTS = ("greedy", "greedy")
    SHARE_WHAT = "this deal"
    SHARE_GETS = "the same starting tiles, counters and bag order"
    # () is people only (pass-and-play); one person alone gets a greedy bot (Key Harvest needs 2–4 players).
    OPPONENTS = (("people only", ()), ("vs greedy bot", ("greedy",)), ("vs 2 bots", ("greedy", "greedy")),
                 ("vs 3 bots", ("greedy", "random", "greedy")))

    @classmethod
    def from_query(cls, query: str | None = None, default_bots: Sequence[str] | None = None,
                   **kwargs: Any) -> GameTable:
        """The dashboard's table: ``?code=…&bots=…`` as every table, and ``people=Ann,Bob`` for pass-and-play."""
        q = (query_string() if query is None else query).lstrip("?")
        try:
            raw = parse_qs(q, max_num_fields=20).get("people", [""])[-1]
        except ValueError:
            raw = ""
        names = [n.strip()[:20] for n in raw.split(",") if n.strip()][:4]
        if len(names) >= 2 and "humans" not in kwargs:
            kwargs["humans"] = names
        return super().from_query(query, default_bots, **kwargs)

    def __init__(self, code: str | None = None, bots: Sequence[str] | str = ("greedy", "greedy"), *,
                 seed: int | None = None, players: int | None = None, variant: str = "standard",
                 name: str = "You", humans: Sequence[str] = (), record: dict[str, Any] | str | None = None,
                 notes: Sequence[str] = (), auto: bool = True) -> None:
        people = [h for h in humans if h]
        if people:
            name = people[0]
        self._people = people[1:4]           # the other people at this screen (seats 1..)
        self.viewer = ME                     # whose board and screen the table shows
        self._handoff: int | None = None     # a person who must say "ready" before their screen shows
        self._mode: str | None = None        # harvest / worker / buy / bid (what a click means)
        self._worker: str | None = None
        self._bid_tile: str | None = None
        self._bid: list[int] = list(NO_BID)
        self._serial = 0
        self._legal_memo: dict[int, list[Any]] | None = None
        self._told_turn: Any = None          # the game and turn the listeners last heard of ("turn")
        self._screen_open: int | None = None  # whose screen a person opened with "I am ready" (pass-and-play)
        self._auto_default = auto
        self._follower = words.LogFollower()
        super().__init__(code, bots, seed=seed, variant=variant, name=name, record=record, notes=notes,
                         seats=players)

    # ----- what the base asks -----------------------------------------------------------------
    def _new_game(self, players: list[str], *, code: str | None = None, seed: int | None = None,
                  variant: str | None = None) -> KeyHarvestState:
        players = list(players)
        if self._people and players[0] == self.name and players[1:1 + len(self._people)] != self._people:
            players = [players[0], *self._people, *players[1:]]
        if len(players) < 2:          # Key Harvest needs 2–4 players: a lone player gets a greedy bot
            players.append(bot_label("greedy"))
        if len(players) > 4:
            raise RecordError("Key Harvest takes 2 to 4 players")
        try:
            if code:
                return new_game(players, code=code)
            return new_game(players, seed=seed, variant=variant or "standard")
        except ValueError as e:   # the engine's player-count check
            raise RecordError(str(e)) from None

    def _human_seat(self, state: Any, p: int) -> bool:
        """A seat whose name is not a bot's is a person at this screen (pass-and-play)."""
        return bot_kind(state.players[p], self.BOTS) is None

    def humans(self) -> list[int]:
        """The seats played by people at this screen."""
        return [p for p in range(self.state.num_players) if p == ME or self._human_seat(self.state, p)]

    def _reset_choices(self) -> None:
        self._mode = self._worker = self._bid_tile = None
        self._bid = list(NO_BID)
        self.viewer = ME
        self._handoff = None
        self._screen_open = None      # with several people at the screen, even the first one says "I am ready"

    def _moves_on(self, state: KeyHarvestState) -> bool:  # type: ignore[override]
        cur = state.current_players()
        return state.is_chance_node() or bool(cur and cur[0] not in self.humans())

    def _progress(self) -> str:
        return f"turn{self.state.turn}"

    def _views(self) -> list[Any]:
        return [self.board, self.town, self.opponents]

    def _build(self) -> None:
        st = self.state
        self.board = CountryBoard()
        self.sheet = self.board              # the base's name for the player's sheet
        self.board.canvas.on_ready(self._redraw_board)
        self.board.canvas.on_click(self._on_board_click)
        self.town = self._make_town(st)
        self.opponents = self._make_opponents(st)

        self.status = html_widget("sk-status")
        self.info = html_widget("sk-info")
        self.summary = html_widget("sk-summary")
        self.action_buttons: dict[str, W.Button] = {}
        for kind in words.ACTION_KINDS:
            b = button(words.ACTION_LABELS[kind], f"sk-act-{kind}", "", words.ACTION_HELP[kind])
            b.layout = W.Layout(width="auto")
            b.on_click(functools.partial(self._on_action, kind))
            self.action_buttons[kind] = b
        self.end_turn_button = button("End turn", "sk-end-turn", "check", "End your turn: the registry refills "
                                      "and the next player goes", "primary")
        self.end_turn_button.on_click(self._on_end_turn)
        self.undo_button = button("Undo", "sk-undo", "undo", "Take back your last move of this turn")
        self.undo_button.on_click(self._on_undo)
        for b in (self.end_turn_button, self.undo_button):
            b.layout = W.Layout(width="auto")
        self.actions = row(*self.action_buttons.values(), self.end_turn_button, self.undo_button, self.hints.button)
        self.actions.add_class("sk-actions")
        self.why = html_widget("sk-why")

        self.worker_box = W.VBox([], layout=W.Layout(display="none"))
        self.worker_box.add_class("sk-workers")
        self.worker_buttons: dict[str, W.Button] = {}
        self._worker_says: dict[str, W.HTML] = {}
        self.worker_note = html_widget("sk-worker-note")
        self.choice_box = W.HBox([], layout=W.Layout(display="none", flex_flow="row wrap"))
        self.choice_box.add_class("sk-choices")
        self._choice_values: tuple[str, ...] = ()

        self.crop_buttons: list[W.Button] = []
        for c, crop in enumerate(CROPS):
            b = button(crop, f"sk-add-{crop}", "", f"Add one {crop} counter to your bid")
            b.style.button_color = art.tint(art.CROP_COLOUR[c], 0.45)
            b.layout = W.Layout(width="auto")
            b.on_click(functools.partial(self._on_add_counter, c))
            self.crop_buttons.append(b)
        self.screen_words = html_widget("sk-screen-words")
        self.bid_line = html_widget("sk-bidline")
        self.confirm_bid = button("Confirm bid", "sk-confirm-bid", "gavel", "Put the tile in your store with "
                                  "this bid", "success")
        self.clear_bid = button("Clear", "sk-clear-bid", "times", "Take the counters back behind your screen")
        self.confirm_bid.on_click(self._on_confirm_bid)
        self.clear_bid.on_click(self._on_clear_bid)
        for b in (self.confirm_bid, self.clear_bid):
            b.layout = W.Layout(width="auto")
        self.screen = W.VBox([self.screen_words, row(*self.crop_buttons),
                              row(self.bid_line, self.confirm_bid, self.clear_bid)])
        self.screen.add_class("sk-screen")
        self.ready_words = html_widget("sk-handoff-words")
        self.ready_button = button("I am ready", "sk-ready", "eye", "Show your screen (the others look away)",
                                   "warning")
        self.ready_button.layout = W.Layout(width="auto")
        self.ready_button.on_click(self._on_ready)
        self.handoff = W.VBox([self.ready_words, self.ready_button], layout=W.Layout(display="none"))
        self.handoff.add_class("sk-handoff")

        self.next_button = button("Next step", "sk-next", "step-forward", "Show the next bot move")
        self.next_button.layout = W.Layout(width="auto")
        self.next_button.on_click(self._on_next)
        self.auto = W.Checkbox(value=self._auto_default, description="Auto: bots play at once", indent=False,
                               layout=W.Layout(width="auto"))
        self.auto.add_class("sk-auto")
        self.auto.observe(self._on_auto, names="value")

        self.end_summary = html_widget("sk-end-summary")
        self.breakdown = html_widget("sk-breakdown")
        self.again_button = button("Play this deal again", "sk-again", "repeat", "Same deal, same bots", "success")
        self.again_button.layout = W.Layout(width="auto")
        self.again_button.on_click(self._on_again)
        self.share = html_widget("sk-share")
        self.end_box = W.VBox([self.end_summary, self.breakdown, W.HBox([self.again_button]), self.share],
                              layout=W.Layout(display="none"))
        self.end_box.add_class("sk-end")

        self.game_rows = self._game_rows("KH-XXXX-XXXX", "Play the deal of a game code",
                                         "A fresh deal, against the bots chosen beside")
        self.game_rows.add_class("sk-kh-game")
        self.log = html_widget("sk-log")
        self.hooks = html_widget("sk-hooks")
        self.hooks.layout.display = "none"

        self.controls = W.VBox([self.actions, self.why, self.worker_box, self.choice_box, self.handoff, self.screen,
                                row(self.next_button, self.auto)])
        self.controls.add_class("sk-kh-controls")
        self.side = W.VBox([self.status, self.info, self.summary, self.controls, self.end_box, self.game_rows])
        self.side.add_class("sk-kh-side")
        # the board and the town in one column: KH_CSS's grid places them (board left, town under it or,
        # on a wide screen, in a third column); on a narrow screen the panel (the next action) comes first
        self.left = W.VBox([self.board.widget, self.town.widget, self.opponents.widget, self.log])
        self.left.add_class("sk-kh-left")
        self.main = W.HBox([self.side, self.left])
        self.main.add_class("sk-main")
        self.widget = W.VBox([W.HTML(theme.CSS + TABLE_CSS + KH_CSS), self.main, self.hooks])
        self.widget.add_class("sk-table")
        self.widget.add_class("sk-kh")

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

    # ----- what tests and the notebook use ---------------------------------------------------
    def space_point(self, code: str) -> tuple[float, float]:
        """Where to click space ``code`` on your board, in the board canvas's own pixels."""
        return self.board.click_geometry.centre(code)

    def click_space(self, code: str) -> None:
        """Click a space of your board as a browser would."""
        self.board.canvas.simulate_click(*self.board.geo.centre(code))

    def town_point(self, *hit: str) -> tuple[float, float]:
        """Where to click a registry tile (``"registry", code``), a store tile (``"store", owner, code``) or a
        townsfolk (``"townsfolk", id``), in the town canvas's own pixels."""
        x, y = self.town.point_of(self.state, hit)
        return x * self.town.canvas.scale, y * self.town.canvas.scale

    def click_town(self, *hit: str) -> None:
        """Click a thing on the town board as a browser would."""
        self.town.canvas.simulate_click(*self.town.point_of(self.state, hit))

    def hook_data(self) -> dict[str, Any]:
        """What the hidden ``.sk-hooks`` element tells browser tests (whose move, what is legal, where to click)."""
        st = self.state
        p = self.viewer
        mine = p in st.current_players() and self._handoff is None and not st.is_terminal()
        legal = self._legal(p) if mine else []
        pend = st.pending
        town = {}
        for code in st.registry:
            town[f"registry:{code}"] = self.town_point("registry", code)
        for o in range(st.num_players):
            for code, *_ in st.stores[o]:
                town[f"store:{o}:{code}"] = self.town_point("store", str(o), code)
        return {
            "serial": self._serial, "viewer": p, "mine": mine, "over": st.is_terminal(), "turn": st.turn,
            "handoff": self._handoff, "pending": pend.kind if pend is not None and mine else None,
            "choices": sorted({a.value for a in legal if isinstance(a, Choose)}),
            "harvest": sorted({a.code for a in legal if isinstance(a, Harvest)}),
            "buy": sorted({a.code for a in legal if isinstance(a, Buy)}),
            "bid": sorted({a.code for a in legal if isinstance(a, Bid)}),
            "place": sorted({f"{a.worker}@{a.code}" for a in legal if isinstance(a, PlaceWorker)}),
            "done": st.turn_actions, "counters": list(st.counters[p]) if mine else None,
            "board": {c: self.space_point(c) for c in CODES},
            "town": town, "code": st.game_code(),
        }

    # ----- guards -----------------------------------------------------------------------------
    def _my_move(self) -> int:
        """The seat acting at this screen now, or a plain refusal."""
        st = self.state
        if st.is_terminal():
            raise IllegalAction("the game is over", "over")
        if self._handoff is not None:
            raise IllegalAction(f"first pass the screen: {st.players[self._handoff]} clicks “I am ready”",
                                "handoff")
        cur = st.current_players()
        if self.viewer not in cur:
            who = st.players[cur[0]] if cur else "the table"
            raise IllegalAction(f"wait: {who} is to act" + ("" if self.auto.value else " — press Next step"),
                                "not-your-turn")
        return self.viewer

    # ----- handlers ---------------------------------------------------------------------------
    @guarded
    def _on_action(self, kind: str, _: Any = None) -> None:
        p = self._my_move()
        if self.state.pending is not None:
            raise IllegalAction(f"first answer: {self.state.pending.prompt}", "pending")
        if self._mode == kind:       # a second press puts the action away again
            self._mode = self._worker = self._bid_tile = None
            self._bid = list(NO_BID)
            self._redraw_quietly()
            return
        why = words.may_reason(self.state, p, kind)
        if why is not None:
            self._fail(f"{words.ACTION_LABELS[kind]} is not possible now: {why}")
            return
        self._mode, self._worker = kind, None
        if kind != "bid":
            self._bid_tile, self._bid = None, list(NO_BID)
        self._redraw_quietly()

    @guarded
    def _on_worker(self, wid: str, _: Any = None) -> None:
        self._my_move()
        if self._mode == "worker" and self._worker == wid:     # a second press puts the worker back (pick another)
            self._worker = None
            self._redraw_quietly()
            return
        self._mode, self._worker = "worker", wid
        if not self.state.legal_spaces(self.viewer, wid):
            w = WORKERS[wid]
            self._error = f"The {w.name} ({w.value}) fits no space now: {words.unfit_words(w)}."
            self._render([])
            return
        self._redraw_quietly()
        # the next step is a tinted space of your board: the keyboard goes on there, and on a phone (where the
        # board lies below the workers' list) the board scrolls into view
        self.page.reveal(".sk-board")
        if self.board.canvas.ready:
            self.board.canvas.focus()

    @guarded
    def _on_choice(self, value: str, _: Any = None) -> None:
        p = self._my_move()
        options = [a for a in self.state.legal_actions(p) if isinstance(a, Choose) and a.value == value]
        if not options:
            raise IllegalAction(f"{value!r} is not one of the choices now", "bad-choice")
        self._apply(p, options[0])

    @guarded
    def _on_board_click(self, x: float, y: float) -> None:
        self._focus = self.board
        code = self.board.code_at(x, y)
        if code is None:
            self._fail("Click a space of your board.")
            return
        self._board_code(code)

    def _board_code(self, code: str) -> None:
        st = self.state
        p = self._my_move()
        if st.pending is not None:
            choice = [a for a in st.legal_actions(p) if isinstance(a, Choose) and a.value == code]
            if not choice:
                raise IllegalAction(f"{code} is not one of the choices: {st.pending.prompt}", "bad-choice")
            self._apply(p, choice[0])
            return
        tiles, workers = st.boards[p], st.workers_on[p]
        if self._mode == "worker" and self._worker is not None:
            self._apply(p, PlaceWorker(self._worker, code))
        elif code in workers:
            w = WORKERS[workers[code]]
            if self._mode == "worker":
                self._apply(p, RemoveWorker(code))
            else:
                self._fail(f"That is your {w.name} ({w.value}). To take it off, press Worker, then click it.")
        elif tiles.get(code) == "up":
            self._apply(p, Harvest(code))
        elif tiles.get(code) == "harvested":
            self._fail(f"{code} is harvested already: a Waterer, the Mayor or an event turns it back up.")
        elif self._mode == "worker":
            self._fail("Choose a worker first (the buttons under the actions).")
        else:
            self._fail(f"{code} is an empty space: its tile is in the bag, the registry or a store — or play a "
                       "worker here (press Worker).")

    @guarded
    def _on_town_click(self, x: float, y: float) -> None:
        self._focus = self.town
        hit = self.town.hit(self.state, x, y)
        if hit is None:
            self._fail("Click a registry tile to bid, a store tile to buy, or a townsfolk to play it.")
            return
        self._town_hit(hit)

    def _town_hit(self, hit: tuple[str, ...]) -> None:
        st = self.state
        p = self._my_move()
        kind = hit[0]
        code = hit[-1]
        if st.pending is not None:
            if st.pending.kind == "sale" and kind == "registry":
                self._mode, self._bid_tile, self._bid = "sale", code, list(NO_BID)
                self._redraw_quietly()
                self._show_composer()
                return
            choice = [a for a in st.legal_actions(p) if isinstance(a, Choose) and a.value == code]
            if not choice:
                raise IllegalAction(f"that is not one of the choices: {st.pending.prompt}", "bad-choice")
            self._apply(p, choice[0])
            return
        if kind == "registry":
            why = words.may_reason(st, p, "bid")
            if why is not None:
                self._fail(f"You cannot bid for {code} now: {why}.")
                return
            self._mode, self._bid_tile = "bid", code
            self._bid = list(NO_BID)
            self._show_my_move()      # the town's rings move first, before the bid composer's text
            self._redraw_quietly()
            self._show_composer()
        elif kind == "store":
            self._apply(p, Buy(code))
        else:
            self._on_worker(code)

    def _show_composer(self) -> None:
        """After a registry tile is chosen, the next step is your counters: the first one you can add takes the
        focus, which scrolls it into view (on a phone the town lies below your board, far under the counters)."""
        first = next((b for b in self.crop_buttons if not b.disabled), None)
        if first is not None:
            first.focus()

    @guarded
    def _on_add_counter(self, crop: int, _: Any = None) -> None:
        p = self._my_move()
        if self._bid_tile is None:
            self._fail("First click a registry tile to bid for (the counters are your bid's payment).")
            return
        have = self.state.counters[p][crop]
        if self._bid[crop] >= have:
            self._fail(f"You have only {have} {CROPS[crop]} behind your screen.")
            return
        self._bid[crop] += 1
        self._redraw_quietly()

    @guarded
    def _on_clear_bid(self, _: Any = None) -> None:
        self._bid = list(NO_BID)
        self._redraw_quietly()

    @guarded
    def _on_confirm_bid(self, _: Any = None) -> None:
        p = self._my_move()
        if self._bid_tile is None:
            self._fail("First click a registry tile to bid for.")
            return
        if sum(self._bid) == 0:
            self._fail(f"Your bid for {self._bid_tile} is empty: click at least one of your counters.")
            return
        bid = (self._bid[0], self._bid[1], self._bid[2], self._bid[3], self._bid[4])
        if self._mode == "sale":
            self._apply(p, Choose(self._bid_tile, bid))
        else:
            self._apply(p, Bid(self._bid_tile, bid))

    @guarded
    def _on_end_turn(self, _: Any = None) -> None:
        p = self._my_move()
        self._apply(p, EndTurn())

    @guarded
    def _on_undo(self, _: Any = None) -> None:
        p = self.viewer
        self.state.undo(p)
        self._mode = self._worker = self._bid_tile = None
        self._bid = list(NO_BID)
        self._error = None
        self._render(["move"])

    @guarded
    def _on_ready(self, _: Any = None) -> None:
        if self._handoff is None:
            return
        self.viewer, self._handoff = self._handoff, None
        self._screen_open = self.viewer
        self._mode = self._worker = self._bid_tile = None
        self._bid = list(NO_BID)
        self._error = None
        self._render([], full=True)

    @guarded
    def _on_next(self, _: Any = None) -> None:
        events = self._advance(moves=1)
        self._error = None
        self._render(events)

    @guarded
    def _on_auto(self, change: dict[str, Any]) -> None:
        if change.get("new"):
            events = self._advance()
            self._render(events)
        else:
            self._render([])

    @guarded
    def _on_again(self, _: Any = None) -> None:
        st = self.state
        self._adopt(KeyHarvestState(st.params, list(st.players), seed=st.seed))

    def _turn_key(self) -> Hashable:
        # End turn stays enabled (a turn may be passed at once), so the focus follows the turn instead
        st = self.state
        return id(st), st.turn, st.active, self._handoff, self.viewer

    def _next_focus(self) -> Any:
        # a decision answered by buttons only (a crop to take, counters to give): its first button
        target = super()._next_focus()
        if target is None and self.state.pending is not None and self.choice_box.children:
            return self.choice_box.children[0]
        return target

    def _next_click_view(self) -> Any:
        st, p = self.state, self.viewer
        if self._handoff is not None or st.is_terminal() or p not in st.current_players():
            return None
        if st.pending is not None:      # a decision answered by a click: on your board, or in the town
            values = {a.value for a in self._legal(p) if isinstance(a, Choose)}
            if self._targets()[0]:
                return self.board
            in_town = set(st.registry) | {c for s in st.stores for c, *_ in s}
            return self.town if st.pending.kind == "sale" or values & in_town else None
        return self.board if any(isinstance(a, Harvest) for a in self._legal(p)) else None

    # ----- game flow --------------------------------------------------------------------------
    def _apply(self, p: int, action: Any) -> None:
        """Apply your move (the engine refuses an illegal one in words), then let the table move on."""
        self.state.apply(p, action)
        if isinstance(action, (Bid, Choose, EndTurn, PlaceWorker, RemoveWorker, Buy, Harvest)):
            self._mode = self._worker = self._bid_tile = None
            self._bid = list(NO_BID)
        self._show_my_move()          # the board (or the town) you clicked shows your move before the bots move
        events = ["move", *self._advance()]
        self._error = None
        self._render(events)

    def _advance(self, moves: int | None = None, flip: bool = True) -> list[str]:
        """Let the table and the bots move on until a person must act (``moves``: at most that many bot moves; none
        while the bots' moves are shown one at a time, with ``auto`` off)."""
        auto = self.auto.value if hasattr(self, "auto") else self._auto_default
        st = self.state
        events = super()._advance(0 if moves is None and not auto else moves, flip)
        cur = st.current_players()
        humans = self.humans()
        if not st.is_terminal() and cur and cur[0] in humans:
            p = cur[0]
            # pass-and-play: the screen shows a person's counters only after they said they are at it
            if p != self.viewer or (len(humans) > 1 and self._screen_open != p):
                self._handoff = p
        return events

    def _step_events(self, step: Step) -> list[str]:
        return [] if step.chance else ["move"]

    def _redraw_quietly(self) -> None:
        self._error = None
        self._render([])

    # ----- drawing ----------------------------------------------------------------------------
    def _render(self, events: Sequence[str] = (), full: bool = False, message: str | None = None) -> None:
        self._legal_memo = {}     # the state holds still while a render reads it
        try:
            super()._render(self._told(events), full, message)
        finally:
            self._legal_memo = None

    def _told(self, events: Sequence[str]) -> list[str]:
        """The events for the listeners (live panels): each once, and "turn" whenever the turn is another than
        they last heard of — a turn also passes inside a move (an End turn with nothing to refill), not only
        at a table step, and a panel following turns must not go on showing an old one."""
        out = list(dict.fromkeys(events))
        now = (id(self.state), self.state.turn)
        if now != self._told_turn:
            self._told_turn = now
            if "new" not in out and "turn" not in out:
                out.append("turn")
        return out

    def _legal(self, p: int) -> list[Any]:
        """``state.legal_actions(p)``, asked once per render (the board, the town, the buttons and the hooks
        all need it)."""
        memo = self._legal_memo
        if memo is None:
            return self.state.legal_actions(p)
        if p not in memo:
            memo[p] = self.state.legal_actions(p)
        return memo[p]

    @guarded
    def _redraw_board(self) -> None:
        with batch():
            self.board.draw_static()
            self.board.forget()
            self._sync_board()

    @guarded
    def _redraw_town(self) -> None:
        with batch():
            self.town.draw_static()
            self.town.forget()
            self._sync_town()

    @guarded
    def _redraw_opponents(self) -> None:
        with batch():
            self.opponents.draw_static()
            self.opponents.forget()
            self._sync_opponents()

    def _targets(self) -> tuple[list[str], list[str]]:
        """(legal spaces to tint, the group to tint orange) on your board for what you are doing."""
        st = self.state
        p = self.viewer
        if self._handoff is not None or st.is_terminal() or p not in st.current_players():
            return [], []
        pend = st.pending
        if pend is not None:
            codes = [a.value for a in self._legal(p) if isinstance(a, Choose)]
            return [c for c in codes if c in st.boards[p] or (pend.kind == "replace" and c in CODES)], []
        if self._mode == "worker" and self._worker:
            return st.legal_spaces(p, self._worker), []
        if self._mode == "worker":
            return list(st.workers_on[p]), []
        if self._mode == "harvest":
            return [], [c for g in st.harvestable_groups(p) for c in g]
        return [], []

    def _sync_board(self) -> None:
        st = self.state
        legal, group = self._targets()
        name = st.players[self.viewer]
        title = "YOUR COUNTRY BOARD" if name == "You" else f"{name.upper()}'S COUNTRY BOARD"
        note = ""
        if self._mode == "worker" and self._worker:
            w = WORKERS[self._worker]
            note = f"{w.name} ({w.value}): {len(legal)} spaces"
        elif self._mode == "harvest":
            note = "harvest: click a group"
        elif not self._handoff:
            note = f"score now {st.total(self.viewer)}"   # your own counters are known to you
        self.board.sync(st, self.viewer, title, legal, group, note)

    def _sync_town(self) -> None:
        st = self.state
        p = self.viewer
        mine = self._handoff is None and p in st.current_players() and not st.is_terminal()
        legal = self._legal(p) if mine else []
        biddable = {a.code for a in legal if isinstance(a, Bid)}
        buyable = {a.code for a in legal if isinstance(a, Buy)}
        if st.pending is not None and mine:
            values = {a.value for a in legal if isinstance(a, Choose)}
            biddable = {c for c in st.registry if c in values}
            buyable = {c for s in st.stores for c, *_ in s if c in values}
        # while the screen is passed on, no store is "yours": the next person is not at it yet
        self.town.sync(st, p if self._handoff is None else None, self._bid_tile, biddable, buyable)

    def _sync_opponents(self) -> None:
        st = self.state
        others = self._shown_others(st)
        lines = [words.score_lines(st, q) for q in others]
        self.opponents.sync(st, others, st.active if not st.is_terminal() else None, lines)

    def _canvas_steps(self, full: bool) -> list[tuple[Any, Any]]:
        views = ((self.board, self._sync_board), (self.town, self._sync_town),
                 (self.opponents, self._sync_opponents))
        return [(view, self._redrawn(view, sync, full)) for view, sync in views if view.canvas.ready]

    def _draw_hint(self, move: Any) -> tuple[str, Any]:
        """The expert's move: a space ringed in blue on your board (harvest, a worker), else its words."""
        code = move.code if isinstance(move, Harvest | PlaceWorker | RemoveWorker) else None
        if code is not None and self.viewer == ME:
            if self.board.canvas.ready:
                cx, cy = self.board.geo.centre(code)
                with batch():
                    ring(self.board.canvas["highlight"].ctx, cx, cy, self.board.geo.size * 0.8,
                         theme.OKABE_ITO["blue"], dashed=True)
            return f"the expert would {move} (ringed in blue on your board)", self.board
        return f"the expert would {move}", None

    def _small_sheet(self, state: KeyHarvestState, played: Any, best: Any) -> Any:  # type: ignore[override]
        """Your board before the move, small: the space of your move ringed in vermillion, the expert's in blue."""
        spaces = [(m, c) for m, c in ((played, theme.OKABE_ITO["vermillion"]), (best, theme.OKABE_ITO["blue"]))
                  if isinstance(m, Harvest | PlaceWorker | RemoveWorker)]
        if not spaces:
            return None
        small = CountryBoard(size=14.0)
        small.widget.remove_class("sk-sheet")
        small.widget.add_class("sk-luck-sheet")

        def draw() -> None:
            with batch():
                small.draw_static()
                small.forget()
                small.sync(state, ME, "Your board")
                for move, colour in spaces:
                    cx, cy = small.geo.centre(move.code)
                    ring(small.canvas["highlight"].ctx, cx, cy, small.geo.size * 0.85, colour, 3.0,
                         dashed=move is best)

        small.canvas.on_ready(draw)
        return small

    def _render_text(self, message: str | None = None) -> None:
        st = self.state
        self._serial += 1
        p = self.viewer
        over = st.is_terminal()
        handoff = st.players[self._handoff] if self._handoff is not None else None
        legal = self._legal(p) if p in st.current_players() else []
        line = words.status_line(st, p, mode=self._mode, worker=self._worker, bid_tile=self._bid_tile,
                                 bid=self._bid, handoff=handoff, auto=self.auto.value, legal=legal)
        self.status.value = self._status_html(line, message)
        self.info.value = words.turn_info(st, p)
        mine_now = handoff is None and p in st.current_players() and not over and not st.turn_actions
        summary = words.since_last_turn(st, p) if mine_now else ""
        self.summary.value = html.escape(summary)
        self.summary.layout.display = "flex" if summary else "none"
        mine = handoff is None and p in st.current_players() and not over
        pend = st.pending if mine else None
        # the action buttons: what this turn still allows, with the engine's reason when not
        reasons = []
        for kind, b in self.action_buttons.items():
            why = words.may_reason(st, p, kind, legal) if mine else "it is not your turn"
            done = kind in st.turn_actions
            b.disabled = why is not None or pend is not None
            b.tooltip = words.ACTION_HELP[kind] if why is None else f"Not now: {why}"
            b.description = words.ACTION_LABELS[kind] + (" ✓" if done else "")
            _toggle(b, "sk-on", self._mode == kind and mine)
            _toggle(b, "sk-done", done)
            if why is not None and mine and pend is None:
                reasons.append(f"<b>{words.ACTION_LABELS[kind]}</b>: {html.escape(why)}")
        self.why.value = " · ".join(reasons) if reasons else ""
        self.end_turn_button.disabled = not mine or pend is not None
        self.undo_button.disabled = not (mine and st.can_undo(p))
        self._render_workers(st, p, mine and pend is None and self._mode == "worker")
        self._render_choices(st, p, pend)
        self._render_screen(st, p, mine, handoff)
        self.handoff.layout.display = "flex" if handoff else "none"
        self.actions.layout.display = "none" if handoff else "flex"    # only "I am ready" while passing
        if handoff:
            self.ready_words.value = (f"<b>Pass the screen to {html.escape(handoff)}.</b> Everyone else looks away: "
                                      f"{html.escape(handoff)}'s counters show after the click.")
            self.ready_button.description = f"I am {handoff} — show my screen"
        cur = st.current_players()
        waiting_bot = bool(cur) and cur[0] not in self.humans() and not over
        self.next_button.disabled = not waiting_bot
        self.code.value = self._code_html()
        self.log.value = words.log_html(self._follower.lines_for(st), now=words.turn_heading(st))
        self.controls.layout.display = "none" if over else "flex"
        self._render_end(over, lambda: words.end_summary(st, p), lambda: words.breakdown_html(st, p))
        self._publish_hooks("sk-kh-state")

    def _render_workers(self, st: KeyHarvestState, p: int, show: bool) -> None:
        """The worker picker: one row per worker you hold or could take from town — its button, and what it does
        in words on the page (a touch screen shows no tooltip); one that fits no space now is greyed, saying why."""
        ids = tuple(st.workers_available(p)) if show else ()
        if tuple(self.worker_buttons) != ids:
            for r in self.worker_box.children:
                if r is not self.worker_note:
                    for w in r.children:
                        w.close()
                    r.close()
            self.worker_buttons = {}
            self._worker_says = {}
            rows = []
            for wid in ids:
                w = WORKERS[wid]
                b = button(f"{w.value} {w.name}", f"sk-worker-{wid}", "", f"{w.name} ({w.value}"
                           f"{', townsfolk' if w.townsfolk else ''}): {w.action}")
                b.on_click(functools.partial(self._on_worker, wid))
                self.worker_buttons[wid] = b
                self._worker_says[wid] = html_widget("sk-worker-says")
                rows.append(row(b, self._worker_says[wid]))
                rows[-1].add_class("sk-worker-row")
            self.worker_box.children = (*rows, self.worker_note)
        # on a phone (KH_CSS) a picked worker folds the list to its own row: the board, where its spaces are, comes up
        _toggle(self.worker_box, "sk-picked", self._worker is not None)
        for wid, b in self.worker_buttons.items():
            w = WORKERS[wid]
            spaces = len(st.legal_spaces(p, wid))
            _toggle(b, "sk-on", wid == self._worker)
            _toggle(b, "sk-unfit", not spaces)
            b.button_style = "info" if w.townsfolk and spaces else ""
            b.disabled = not spaces
            self._worker_says[wid].value = html.escape(words.worker_words(w, spaces))
        unfit = any(b.disabled for b in self.worker_buttons.values())
        self.worker_note.value = html.escape(words.UNFIT_NOTE) if unfit else ""
        self.worker_note.layout.display = None if unfit else "none"
        self.worker_box.layout.display = "flex" if ids else "none"

    def _render_choices(self, st: KeyHarvestState, p: int, pend: Any) -> None:
        values: tuple[str, ...] = ()
        if pend is not None and pend.kind != "sale":
            values = tuple(dict.fromkeys(a.value for a in self._legal(p) if isinstance(a, Choose)))
        elif pend is not None:
            values = ("decline",)
        if values != self._choice_values:
            self._choice_values = values
            for b in self.choice_box.children:
                b.close()
            kids = []
            for v in values:
                label = "Decline" if v == "decline" else v
                b = button(label, f"sk-choice-{v}", "", f"Choose {v}")
                if v in CROPS:
                    b.style.button_color = art.tint(art.CROP_COLOUR[CROPS.index(v)], 0.45)
                b.layout = W.Layout(width="auto")
                b.on_click(functools.partial(self._on_choice, v))
                kids.append(b)
            self.choice_box.children = tuple(kids)
        self.choice_box.layout.display = "flex" if values else "none"

    def _render_screen(self, st: KeyHarvestState, p: int, mine: bool, handoff: str | None) -> None:
        hidden = handoff is not None or (not mine and p != ME and len(self.humans()) > 1)
        bidding = mine and self._bid_tile is not None and self._mode in ("bid", "sale")
        may_bid = mine and not bidding and words.may_reason(st, p, "bid", self._legal(p)) is None
        if hidden:
            self.screen_words.value = "<i>Screen closed: the counters stay hidden until the next player is ready.</i>"
        else:
            self.screen_words.value = html.escape(words.screen_html(st, p, self._bid)) + (
                " — click a registry tile to bid" if may_bid else "") + (
                f"<br><span class='sk-small'>General {html.escape(words.stock_words(st))}</span>")
        mine_counts = st.counters[p]
        for c, b in enumerate(self.crop_buttons):
            b.layout.display = "none" if hidden else None
            left = mine_counts[c] - self._bid[c]
            b.description = f"{CROPS[c]} {left}" if not bidding else f"+ {CROPS[c]} ({left})"
            b.disabled = not bidding or left <= 0
        if bidding:
            what = "pay for" if self._mode == "sale" else "bid for"
            self.bid_line.value = (f"<b>{what} {html.escape(self._bid_tile or '')}:</b> "
                                   f"{html.escape(words.pay_words(self._bid)) if sum(self._bid) else 'nothing yet'}")
        else:
            self.bid_line.value = ""
        # shown as buttons are (display: flex would make a button's icon a block above its words)
        self.confirm_bid.layout.display = self.clear_bid.layout.display = None if bidding else "none"
        self.confirm_bid.disabled = sum(self._bid) == 0
        self.confirm_bid.description = "Confirm payment" if self._mode == "sale" else "Confirm bid"


def _toggle(b: W.DOMWidget, cls: str, on: bool) -> None:
    if on and cls not in b._dom_classes:
        b.add_class(cls)
    elif not on and cls in b._dom_classes:
        b.remove_class(cls)
