"""The Key Harvest table's drawing: the board, the town and the others' boards, the buttons and words.

Reads the game and the composer (``intent.py``) and shows them; decides nothing.
"""

from __future__ import annotations

import functools
import html
from typing import Any

import ipywidgets as W
from sheetkit.widgets import theme
from sheetkit.widgets.canvas import batch
from sheetkit.widgets.key_harvest import art
from sheetkit.widgets.key_harvest import text as words
from sheetkit.widgets.key_harvest.board import CountryBoard
from sheetkit.widgets.lazy import built
from sheetkit.widgets.shapes import ring
from sheetkit.widgets.table_flow import ME, guarded
from sheetkit.widgets.table_layout import button, html_widget, row

from sheetkit.games.key_harvest import CROPS, Bid, Buy, Choose, Harvest, KeyHarvestState
from sheetkit.games.key_harvest.moves import PlaceWorker, RemoveWorker
from sheetkit.games.key_harvest.reasons import UNFIT_NOTE, why_not
from sheetkit.games.key_harvest.workers import WORKERS


class KeyHarvestDrawing:
    """Brings the Key Harvest table's canvases and widgets in line with the state (a mixin of ``KeyHarvestTable``)."""

    @guarded
    def _redraw_board(self) -> None:
        self._redraw_in_full(self.board, self._sync_board)

    @guarded
    def _redraw_town(self) -> None:
        self._redraw_in_full(self.town, self._sync_town)

    @guarded
    def _redraw_opponents(self) -> None:
        self._redraw_in_full(self.opponents, self._sync_opponents)

    def _sync_board(self) -> None:
        st = self.state
        legal, group = self._targets()
        name = st.players[self.viewer]
        title = "YOUR COUNTRY BOARD" if name == "You" else f"{name.upper()}'S COUNTRY BOARD"
        note = ""
        if self.composer.mode == "worker" and self.composer.worker:
            w = WORKERS[self.composer.worker]
            note = f"{w.name} ({w.value}): {len(legal)} spaces"
        elif self.composer.mode == "harvest":
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
        self.town.sync(st, p if self._handoff is None else None, self.composer.tile, biddable, buyable)

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
        if not any(isinstance(m, Harvest | PlaceWorker | RemoveWorker) for m in (played, best)):
            return None
        small = CountryBoard(size=14.0)

        def mark(move: Any, colour: str, dashed: bool) -> None:
            if isinstance(move, Harvest | PlaceWorker | RemoveWorker):
                cx, cy = small.geo.centre(move.code)
                ring(small.canvas["highlight"].ctx, cx, cy, small.geo.size * 0.85, colour, 3.0, dashed=dashed)

        return self._luck_sheet(small, lambda: small.sync(state, ME, "Your board"), mark, played, best)

    def _render_text(self, message: str | None = None) -> None:
        st = self.state
        self._serial += 1
        p = self.viewer
        over = st.is_terminal()
        handoff = st.players[self._handoff] if self._handoff is not None else None
        legal = self._legal(p) if p in st.current_players() else []
        c = self.composer
        line = words.status_line(st, p, mode=c.mode, worker=c.worker, bid_tile=c.tile, bid=c.bid, handoff=handoff,
                                 auto=self.auto.value, legal=legal)
        self.status.value = self._status_html(line, message)
        self.info.value = words.turn_info(st, p)
        mine_now = handoff is None and p in st.current_players() and not over and not st.turn_actions
        summary = words.since_last_turn(st, p) if mine_now else ""
        if summary or built(self, "summary"):
            self.summary.value = html.escape(summary)
            self.summary.layout.display = "flex" if summary else "none"
        mine = handoff is None and p in st.current_players() and not over
        pend = st.pending if mine else None
        # the action buttons: what this turn still allows, with the engine's reason when not
        reasons = []
        for kind, b in self.action_buttons.items():
            why = why_not(st, p, kind, legal) if mine else "it is not your turn"
            done = kind in st.turn_actions
            b.disabled = why is not None or pend is not None
            b.tooltip = words.ACTION_HELP[kind] if why is None else f"Not now: {why}"
            b.description = words.ACTION_LABELS[kind] + (" ✓" if done else "")
            _toggle(b, "sk-on", self.composer.mode == kind and mine)
            _toggle(b, "sk-done", done)
            if why is not None and mine and pend is None:
                reasons.append(f"<b>{words.ACTION_LABELS[kind]}</b>: {html.escape(why)}")
        self.why.value = " · ".join(reasons) if reasons else ""
        self.end_turn_button.disabled = not mine or pend is not None
        self.undo_button.disabled = not (mine and st.can_undo(p))
        self._render_workers(st, p, mine and pend is None and self.composer.mode == "worker")
        self._render_choices(st, p, pend)
        self._render_screen(st, p, mine, handoff)
        if handoff or built(self, "handoff"):
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
        if not ids and not built(self, "worker_box"):
            return
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
        _toggle(self.worker_box, "sk-picked", self.composer.worker is not None)
        for wid, b in self.worker_buttons.items():
            w = WORKERS[wid]
            spaces = len(st.legal_spaces(p, wid))
            _toggle(b, "sk-on", wid == self.composer.worker)
            _toggle(b, "sk-unfit", not spaces)
            b.button_style = "info" if w.townsfolk and spaces else ""
            b.disabled = not spaces
            self._worker_says[wid].value = html.escape(words.worker_words(w, spaces))
        unfit = any(b.disabled for b in self.worker_buttons.values())
        self.worker_note.value = html.escape(UNFIT_NOTE) if unfit else ""
        self.worker_note.layout.display = None if unfit else "none"
        self.worker_box.layout.display = "flex" if ids else "none"

    def _render_choices(self, st: KeyHarvestState, p: int, pend: Any) -> None:
        values: tuple[str, ...] = ()
        if pend is not None and pend.kind != "sale":
            values = tuple(dict.fromkeys(a.value for a in self._legal(p) if isinstance(a, Choose)))
        elif pend is not None:
            values = ("decline",)
        if not values and not built(self, "choice_box"):
            return
        if values != self._choice_values:
            self._choice_values = values
            for b in self.choice_box.children:
                b.close()
            kids = []
            for v in values:
                label = "Decline" if v == "decline" else v
                b = button(label, f"sk-choice-{v}", "", f"Choose {v}", width="auto",
                           colour=art.tint(art.CROP_COLOUR[CROPS.index(v)], 0.45) if v in CROPS else None)
                b.on_click(functools.partial(self._on_choice, v))
                kids.append(b)
            self.choice_box.children = tuple(kids)
        self.choice_box.layout.display = "flex" if values else "none"

    def _render_screen(self, st: KeyHarvestState, p: int, mine: bool, handoff: str | None) -> None:
        hidden = handoff is not None or (not mine and p != ME and len(self.humans()) > 1)
        bidding = mine and self.composer.tile is not None and self.composer.mode in ("bid", "sale")
        may_bid = mine and not bidding and why_not(st, p, "bid", self._legal(p)) is None
        if hidden:
            self.screen_words.value = "<i>Screen closed: the counters stay hidden until the next player is ready.</i>"
        else:
            self.screen_words.value = html.escape(words.screen_html(st, p, self.composer.bid)) + (
                " — click a registry tile to bid" if may_bid else "") + (
                f"<br><span class='sk-small'>General {html.escape(words.stock_words(st))}</span>")
        mine_counts = st.counters[p]
        self.crop_buttons[0].layout.display = "none" if hidden else None    # the five share their Layout
        for c, b in enumerate(self.crop_buttons):
            left = mine_counts[c] - self.composer.bid[c]
            b.description = f"{CROPS[c]} {left}" if not bidding else f"+ {CROPS[c]} ({left})"
            b.disabled = not bidding or left <= 0
        if not bidding and not built(self, "bid_line"):
            return
        if bidding:
            what = "pay for" if self.composer.mode == "sale" else "bid for"
            paid = html.escape(words.pay_words(self.composer.bid)) if sum(self.composer.bid) else "nothing yet"
            self.bid_line.value = f"<b>{what} {html.escape(self.composer.tile or '')}:</b> {paid}"
        else:
            self.bid_line.value = ""
        # shown as buttons are (display: flex would make a button's icon a block above its words)
        self.confirm_bid.layout.display = self.clear_bid.layout.display = None if bidding else "none"
        self.confirm_bid.disabled = sum(self.composer.bid) == 0
        self.confirm_bid.description = "Confirm payment" if self.composer.mode == "sale" else "Confirm bid"



def _toggle(b: W.DOMWidget, cls: str, on: bool) -> None:
    if on and cls not in b._dom_classes:
        b.add_class(cls)
    elif not on and cls in b._dom_classes:
        b.remove_class(cls)
