"""The playable Key Harvest table: your country board, the town and the stores, your screen, bots, the log.

The table only asks the engine (``legal_actions``, ``legal_spaces``, ``check``, ``apply``, ``undo``,
``breakdown``...) and draws the answer; it never decides a rule. What a click or a button means
now is ``intent.py`` (with the bid/worker composer), the widgets are built in ``layout.py`` and
drawn in ``drawing.py``; this class joins them to the game flow. Every handler is guarded: a
problem becomes the engine's words in the status line, never a traceback.

A turn at this table: the action buttons say what is still allowed (one or two different actions,
never Buy after Bid); click your unharvested tiles to harvest a group, pick a worker and click a
tinted space, click a store tile to buy it, or click a registry tile and build a bid from the
counters behind your screen; End turn lets the bots play (one log line each). Decisions an effect
asks for (a crop, a tile, a space) appear as buttons and as tinted targets. With two or more people
at one screen (``humans=["Ann", "Bob"]``) the screen — the counters — is hidden between turns
until the next player says they are ready.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any
from urllib.parse import parse_qs

from sheetkit.widgets.key_harvest import intent
from sheetkit.widgets.key_harvest import text as words
from sheetkit.widgets.key_harvest.drawing import KeyHarvestDrawing
from sheetkit.widgets.key_harvest.intent import Compose, Composer, Move
from sheetkit.widgets.key_harvest.layout import KH_CSS, KeyHarvestLayout
from sheetkit.widgets.lazy import built
from sheetkit.widgets.query import query_string
from sheetkit.widgets.table_base import ME, GameTable, guarded

from sheetkit.core.errors import RecordError
from sheetkit.core.play import Step, bot_kind, bot_label
from sheetkit.games.key_harvest import BOTS, CODES, Bid, Buy, Choose, EndTurn, Harvest, KeyHarvestState, new_game
from sheetkit.games.key_harvest.moves import PlaceWorker

__all__ = ["KH_CSS", "KeyHarvestTable"]


class KeyHarvestTable(KeyHarvestLayout, KeyHarvestDrawing, GameTable):
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
    NEW_GAME = staticmethod(new_game)
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
        self.composer = Composer()           # what a click means now, the worker picked, the bid being built
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
            return super()._new_game(players, code=code, seed=seed, variant=variant)  # type: ignore[return-value]
        except ValueError as e:   # the engine's player-count check
            raise RecordError(str(e)) from None

    def _human_seat(self, state: Any, p: int) -> bool:
        """A seat whose name is not a bot's is a person at this screen (pass-and-play)."""
        return bot_kind(state.players[p], self.BOTS) is None

    def humans(self) -> list[int]:
        """The seats played by people at this screen."""
        return [p for p in range(self.state.num_players) if p == ME or self._human_seat(self.state, p)]

    def _reset_choices(self) -> None:
        self.composer.clear()
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

    # ----- handlers: what each means comes from intent.py -------------------------------------
    def _my_move(self) -> int:
        """The seat acting at this screen now, or a plain refusal."""
        return intent.acting_seat(self.state, self.viewer, self._handoff, self.auto.value)

    def _do(self, p: int, outcome: Move | Compose) -> None:
        """Carry out what a click or a press meant: a move, or the composer changed (redraw, focus its next step)."""
        if isinstance(outcome, Move):
            self._apply(p, outcome.action)
            return
        if outcome.refusal is not None:
            self._error = outcome.refusal
            self._render([])
            return
        if outcome.town_first:
            self._show_my_move()      # the town's rings move first, before the bid composer's text
        self._redraw_quietly()
        if outcome.next == "counters":
            self._show_composer()
        elif outcome.next == "board":
            # the next step is a tinted space of your board: the keyboard goes on there, and on a phone (where the
            # board lies below the workers' list) the board scrolls into view
            self.page.reveal(".sk-board")
            if self.board.canvas.ready:
                self.board.canvas.focus()

    @guarded
    def _on_action(self, kind: str, _: Any = None) -> None:
        p = self._my_move()
        self._do(p, intent.press_action(self.state, p, self.composer, kind))

    @guarded
    def _on_worker(self, wid: str, _: Any = None) -> None:
        p = self._my_move()
        self._do(p, intent.press_worker(self.state, p, self.composer, wid))

    @guarded
    def _on_choice(self, value: str, _: Any = None) -> None:
        p = self._my_move()
        self._do(p, intent.choose(self.state, p, value))

    @guarded
    def _on_board_click(self, x: float, y: float) -> None:
        self._focus = self.board
        code = self.board.code_at(x, y)
        if code is None:
            self._fail("Click a space of your board.")
            return
        p = self._my_move()
        self._do(p, intent.board_click(self.state, p, self.composer, code))

    @guarded
    def _on_town_click(self, x: float, y: float) -> None:
        self._focus = self.town
        hit = self.town.hit(self.state, x, y)
        if hit is None:
            self._fail("Click a registry tile to bid, a store tile to buy, or a townsfolk to play it.")
            return
        p = self._my_move()
        self._do(p, intent.town_click(self.state, p, self.composer, hit))

    def _show_composer(self) -> None:
        """After a registry tile is chosen, the next step is your counters: the first one you can add takes the
        focus, which scrolls it into view (on a phone the town lies below your board, far under the counters)."""
        first = next((b for b in self.crop_buttons if not b.disabled), None)
        if first is not None:
            first.focus()

    @guarded
    def _on_add_counter(self, crop: int, _: Any = None) -> None:
        p = self._my_move()
        self._do(p, intent.add_counter(self.state, p, self.composer, crop))

    @guarded
    def _on_clear_bid(self, _: Any = None) -> None:
        self.composer.bid = list(intent.NO_BID)
        self._redraw_quietly()

    @guarded
    def _on_confirm_bid(self, _: Any = None) -> None:
        p = self._my_move()
        self._do(p, intent.confirm_bid(self.state, p, self.composer))

    @guarded
    def _on_end_turn(self, _: Any = None) -> None:
        p = self._my_move()
        self._apply(p, EndTurn())

    @guarded
    def _on_undo(self, _: Any = None) -> None:
        self.state.undo(self.viewer)
        self.composer.clear()
        self._error = None
        self._render(["move"])

    @guarded
    def _on_ready(self, _: Any = None) -> None:
        if self._handoff is None:
            return
        self.viewer, self._handoff = self._handoff, None
        self._screen_open = self.viewer
        self.composer.clear()
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
        if target is None and self.state.pending is not None and built(self, "choice_box") and self.choice_box.children:
            return self.choice_box.children[0]
        return target

    def _targets(self) -> tuple[list[str], list[str]]:
        """(legal spaces to tint, the group to tint orange) on your board for what you are doing."""
        return intent.targets(self.state, self.viewer, self.composer, lambda: self._legal(self.viewer), self._handoff)

    def _next_click_view(self) -> Any:
        where = intent.next_click(self.state, self.viewer, self.composer, lambda: self._legal(self.viewer),
                                  self._handoff)
        return {"board": self.board, "town": self.town}.get(where or "")

    # ----- game flow --------------------------------------------------------------------------
    def _apply(self, p: int, action: Any) -> None:
        """Apply your move (the engine refuses an illegal one in words), then let the table move on."""
        self.state.apply(p, action)
        intent.after_move(self.composer, action)
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
