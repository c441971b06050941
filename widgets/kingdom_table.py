"""The playable Kingdom Maps table: your map, the dice, terrain and die choices, bots, the log.

The table only asks the engine (``legal_actions``, ``legal_hexes``, ``apply``, ``undo``,
``criterion_scores``, ``breakdown``...) and draws the answer; it never decides a rule. Every
handler is guarded: a problem becomes a plain message in the status line, never a traceback.

A turn at this table: the dice are rolled for you; you choose a terrain and take a die (when you
are the active player), or pick a die; spend +1/-1 powers if you like; click hexes on your map
(the ones legal now are tinted); bank a criterion for each ? hex; then press **Confirm** — until
then **Undo** takes your moves back. On Confirm the bots draw and the next dice are rolled.
"""

from __future__ import annotations

import base64
import functools
import html
import json
import os
import traceback
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import ipywidgets as W
from sheetkit.widgets import kingdom_art as art
from sheetkit.widgets import kingdom_text as words
from sheetkit.widgets import theme
from sheetkit.widgets.canvas import batch
from sheetkit.widgets.kingdom_map import KingdomSheet
from sheetkit.widgets.kingdom_panels import DiceView, OpponentsView, dice_roles, die_at
from sheetkit.widgets.query import MAX_BOTS, dashboard_options, share_query

from sheetkit.core.chance import derive_seed
from sheetkit.core.errors import IllegalAction, RecordError, SheetkitError
from sheetkit.core.records import dumps, parse_json, replay
from sheetkit.games.kingdom_maps import BOTS, TERRAINS, Announce, Bank, KingdomState, Pass, Pick, Place, Power, new_game
from sheetkit.games.kingdom_maps.phases import ANNOUNCE
from sheetkit.games.kingdom_maps.terrains import terrain_name

ME = 0  # the person at this screen is always player 0; everyone else is a bot
BOT_LABELS = {"greedy": "Greedy bot", "random": "Random bot"}
MAX_DICE = 3

# Friendlier words for some of the engine's refusals (keyed by IllegalAction.code); the engine's
# own message is shown for everything else.
FRIENDLY = {
    "over": "The game is over — play the same dice again or start a new game.",
    "no-undo": "Nothing to undo: you can take back your moves until you press Confirm.",
    "announce-first": "First choose a terrain and take a die.",
    "done": "Your drawing is complete — press Confirm (or Undo).",
}

KM_CSS = f"""
<style>
.sk-km .sk-km-left {{ gap: 8px; }}
.sk-km .sk-km-side {{ gap: 6px; width: 500px; }}
.sk-km .sk-km-controls {{ gap: 6px; }}
.sk-km .sk-terrains {{ gap: 4px; }}
.sk-km .sk-terrains button {{ color: {theme.INK}; border: 1px solid #B8B09C; font-size: 13px; }}
.sk-km .sk-terrains button.sk-chosen {{ outline: 3px solid {theme.OKABE_ITO['blue']}; font-weight: bold; }}
.sk-km button.sk-die {{ font-weight: bold; }}
.sk-km button.sk-confirm {{ font-weight: bold; }}
.sk-km .sk-bankbox {{ gap: 4px; flex-wrap: wrap; padding: 4px 6px; background: #FFF6D8; border-radius: 3px; }}
.sk-km .sk-criteria .widget-html-content {{ font-size: 13px; line-height: 1.3; display: flex; flex-direction: column;
  gap: 3px; }}
.sk-km .sk-crit {{ background: {theme.PAPER}; border: 1px solid #DDD6C4; border-radius: 3px; padding: 2px 8px; }}
.sk-km .sk-crit.sk-bankable {{ background: #FFF6D8; }}
.sk-km .sk-crit .sk-crit-score {{ float: right; color: {theme.PRINT}; }}
.sk-km .sk-km-title {{ color: {theme.OKABE_ITO['vermillion']}; }}
.sk-km .sk-end {{ min-width: 480px; }}
.sk-km .sk-powers {{ font-size: 13px; color: {theme.PRINT}; }}
.sk-km .sk-log {{ height: 96px; }}
.sk-km .sk-km-side .sk-row {{ flex-wrap: wrap; row-gap: 4px; }}
.sk-km .sk-km-side .sk-row > button, .sk-km .sk-km-side .sk-row > .widget-upload {{ flex: 0 0 auto; }}
</style>
"""

F = TypeVar("F", bound=Callable[..., Any])


def _guarded(fn: F) -> F:
    """Run a UI handler; turn any failure into a status-line message (and keep the game)."""

    @functools.wraps(fn)
    def run(self: KingdomTable, *args: Any, **kwargs: Any) -> Any:
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


def bot_names(kinds: Sequence[str]) -> list[str]:
    """'Greedy bot', 'Greedy bot 2'... one name per bot."""
    names: list[str] = []
    for kind in kinds:
        base = BOT_LABELS.get(kind, f"{kind.title()} bot")
        name, k = base, 2
        while name in names:
            name, k = f"{base} {k}", k + 1
        names.append(name)
    return names


def bot_kind(name: str) -> str | None:
    """The bot kind behind a player name written by this table ('Greedy bot 2' → 'greedy')."""
    for kind, label in BOT_LABELS.items():
        if name == label or (name.startswith(label + " ") and name[len(label) + 1:].isdigit()):
            return kind
    return None


class KingdomTable:
    """A playable Kingdom Maps table: solo, or you against ``bots``. Display it in a notebook cell.

    ``code`` replays a shared deal (``KM-XXXX-XXXX``); ``seed`` picks one; neither: fresh dice.
    ``players`` (total seats) fills the seats beyond ``bots`` with greedy bots. ``record`` (a
    record dict or JSON text) continues or reviews a saved game.
    """

    def __init__(self, code: str | None = None, bots: Sequence[str] = (), *, seed: int | None = None,
                 players: int | None = None, variant: str = "standard", name: str = "You",
                 record: dict[str, Any] | str | None = None, notes: Sequence[str] = ()) -> None:
        self.name = name
        self.variant = variant
        self.last_error: str | None = None
        self._error: str | None = None
        self._pending: str | None = None      # a game-replacing action waiting for a second press
        self._terrain_choice: int | None = None
        self._die_choice: int | None = None   # index of the die you hold before announcing
        self._serial = 0
        self._listeners: list[Callable[[str], None]] = []
        self.bots: dict[int, Any] = {}
        self.bot_kinds: list[str] = []
        problems = list(notes)
        wanted = list(bots)
        if players is not None:
            seats = max(1, min(players, MAX_BOTS + 1))
            if seats != players:
                problems.append(f"Kingdom Maps takes 1 to {MAX_BOTS + 1} players")
            wanted = (wanted + ["greedy"] * seats)[:seats - 1]
        kinds = [b for b in wanted if b in BOTS][:MAX_BOTS]
        if len(kinds) < len(wanted):
            problems.append(f"only the bots {', '.join(BOTS)} can play (at most {MAX_BOTS})")
        self.state = self._first_state(code, kinds, seed, variant, record, problems)
        self._build()
        self._adopt(self.state, advance=record is None or self._record_failed or _moves_on(self.state))
        if problems:
            self._fail(" ".join(p[0].upper() + p[1:] + ("" if p.endswith(".") else ".") for p in problems))

    # ----- construction ---------------------------------------------------------------------
    def _first_state(self, code: str | None, kinds: list[str], seed: int | None, variant: str,
                     record: dict[str, Any] | str | None, problems: list[str]) -> KingdomState:
        players = [self.name, *bot_names(kinds)]
        self._record_failed = False
        if record is not None:
            try:
                return self._replay(record)
            except SheetkitError as e:
                self._record_failed = True
                problems.append(f"the record could not be loaded ({e}); here is a fresh game instead")
        if code:
            try:
                return new_game(players, code=code)
            except SheetkitError as e:
                problems.append(f"{e} — here is a fresh game instead")
        try:
            return new_game(players, seed=seed, variant=variant)
        except SheetkitError as e:
            problems.append(str(e))
            return new_game(players, seed=seed)

    @classmethod
    def from_query(cls, query: str | None = None, default_bots: Sequence[str] = (), **kwargs: Any) -> KingdomTable:
        """The dashboard's table: ``?code=…&bots=…`` from Voila's QUERY_STRING (solo without ``bots``)."""
        opts = dashboard_options(query, known_bots=tuple(BOTS))
        bots = default_bots if opts.bots is None else opts.bots
        return cls(code=opts.code, bots=bots, notes=opts.problems, **kwargs)

    def _build(self) -> None:
        st = self.state
        self.sheet = self._make_sheet(st)
        self.dice = DiceView()
        self.dice.canvas.on_ready(self._redraw_dice)
        self.dice.canvas.on_click(self._on_dice_click)
        self.opponents = self._make_opponents(st)

        self.status = _html("sk-status")
        self.info = _html("sk-info")
        self.terrain_buttons: dict[int, W.Button] = {}
        for t in TERRAINS:
            b = _button(words.terrain_label(t.number), f"sk-terrain-{t.number}", "",
                        f"Announce {t.plural} (crosses out one use)")
            b.add_class("sk-terrain")
            b.style.button_color = art.tint(t.colour, 0.45)
            b.layout = W.Layout(width="auto", height="30px")
            b.on_click(functools.partial(self._on_terrain, t.number))
            self.terrain_buttons[t.number] = b
        self.terrain_box = W.GridBox(list(self.terrain_buttons.values()),
                                     layout=W.Layout(grid_template_columns="repeat(3, 1fr)", width="100%"))
        self.terrain_box.add_class("sk-terrains")
        self.die_buttons: list[W.Button] = []
        for k in range(MAX_DICE):
            b = _button("", f"sk-die-{k}", "", "Take or pick this die")
            b.add_class("sk-die")
            b.layout = W.Layout(width="auto", min_width="96px")
            b.on_click(functools.partial(self._on_die, k))
            self.die_buttons.append(b)
        self.plus_button = _button("+1", "sk-plus", "", "Spend a power: draw one hex more")
        self.minus_button = _button("−1", "sk-minus", "", "Spend a power: draw one hex fewer")
        self.plus_button.on_click(functools.partial(self._on_power, 1))
        self.minus_button.on_click(functools.partial(self._on_power, -1))
        self.powers = _html("sk-powers")
        self.undo_button = _button("Undo", "sk-undo", "undo", "Take back your last move of this drawing")
        self.confirm_button = _button("Confirm", "sk-confirm", "check", "Your drawing is done: let the table "
                                      "move on", "primary")
        self.pass_button = _button("Draw nothing", "sk-pass", "ban", "Only when the amount fits nowhere "
                                   "(the game ends after this turn)", "warning")
        self.undo_button.on_click(self._on_undo)
        self.confirm_button.on_click(self._on_confirm)
        self.pass_button.on_click(self._on_pass)
        self.bank_box = W.HBox([], layout=W.Layout(display="none"))
        self.bank_box.add_class("sk-bankbox")
        self.bank_buttons: dict[str, W.Button] = {}

        self.end_summary = _html("sk-end-summary")
        self.breakdown = _html("sk-breakdown")
        self.again_button = _button("Play these dice again", "sk-again", "repeat", "Same dice, same criteria, "
                                    "same bots, a blank map", "success")
        self.again_button.on_click(self._on_again)
        self.share = _html("sk-share")
        self.end_box = W.VBox([self.end_summary, self.breakdown, W.HBox([self.again_button]), self.share],
                              layout=W.Layout(display="none"))
        self.end_box.add_class("sk-end")

        self.criteria = _html("sk-criteria")
        self.code = _html("sk-code")
        self.code_input = W.Text(placeholder="KM-XXXX-XXXX", layout=W.Layout(width="150px"))
        self.code_input.add_class("sk-code-input")
        self.play_code_button = _button("Play code", "sk-play-code", "play", "Play the dice of a game code")
        self.play_code_button.on_click(self._on_play_code)
        self.new_button = _button("New game", "sk-new", "plus", "Fresh dice, same bots")
        self.new_button.on_click(self._on_new)
        self.save_button = _button("Save", "sk-save", "download", "Make a download link of this game's record")
        self.save_button.on_click(self._on_save)
        self.download = _html("sk-download-box")
        self.upload = W.FileUpload(accept=".json,application/json", multiple=False, description="Load",
                                   tooltip="Load a saved game record (.json)", layout=W.Layout(width="90px"))
        self.upload.add_class("sk-load")
        self.upload.observe(self._on_upload, names="value")
        self.log = _html("sk-log")
        self.hooks = _html("sk-hooks")
        self.hooks.layout.display = "none"

        for b in (self.plus_button, self.minus_button, self.undo_button, self.confirm_button, self.pass_button,
                  self.play_code_button, self.new_button, self.save_button, self.again_button):
            b.layout = W.Layout(width="auto")
        self.controls = W.VBox([
            self.dice.widget,
            _row(*self.die_buttons),
            self.terrain_box,
            _row(self.plus_button, self.minus_button, self.powers),
            self.bank_box,
            _row(self.undo_button, self.confirm_button, self.pass_button),
            self.criteria,
        ])
        self.controls.add_class("sk-km-controls")
        self.game_rows = W.VBox([
            _row(_label("Game code"), self.code, self.code_input, self.play_code_button),
            _row(self.new_button, self.save_button, self.upload, self.download),
        ])
        self.side = W.VBox([self.status, self.info, self.controls, self.end_box, self.game_rows])
        self.side.add_class("sk-km-side")
        self.left = W.VBox([self.sheet.widget, self.opponents.widget])
        self.left.add_class("sk-km-left")
        self.main = W.HBox([self.left, self.side])
        self.main.add_class("sk-main")
        self.widget = W.VBox([W.HTML(theme.CSS + KM_CSS), self.main, self.log, self.hooks])
        self.widget.add_class("sk-table")
        self.widget.add_class("sk-km")

    def _make_sheet(self, st: KingdomState) -> KingdomSheet:
        sheet = KingdomSheet(st.board, st.uses_each, criteria=len(st.params.criteria or ()) or 4,
                             powers=st.params.powers, questions=st.params.questions)
        sheet.canvas.on_ready(self._redraw_sheet)
        sheet.canvas.on_click(self._on_click)
        return sheet

    def _make_opponents(self, st: KingdomState) -> OpponentsView:
        view = OpponentsView(st.board, [p for p in range(st.num_players) if p != ME])
        view.canvas.on_ready(self._redraw_opponents)
        if st.num_players == 1:
            view.widget.layout.display = "none"
        return view

    def _make_bank_buttons(self, criteria: Sequence[str]) -> None:
        if tuple(self.bank_buttons) == tuple(criteria):
            return
        for b in self.bank_buttons.values():
            b.close()
        self.bank_buttons = {}
        for c in criteria:
            b = _button(c, f"sk-bank-{c}", "star", f"Score {c} now for your ? hex and bank it")
            b.add_class("sk-bank")
            b.layout = W.Layout(width="auto")
            b.on_click(functools.partial(self._on_bank, c))
            self.bank_buttons[c] = b
        self.bank_box.children = (_label("Your ? hex banks:"), *self.bank_buttons.values())

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

    # ----- what tests and the notebook use ---------------------------------------------------
    @property
    def scale(self) -> float:
        """Canvas pixels per CSS pixel of the map."""
        return self.sheet.canvas.scale

    def hex_click_point(self, q: int, r: int) -> tuple[float, float]:
        """Where to click hex (q, r), in the map canvas's own pixels (its centre)."""
        return self.sheet.click_geometry.cell_center(q, r)

    def click_hex(self, q: int, r: int) -> None:
        """Click a hex as a browser would (through the canvas's mouse event)."""
        self.sheet.canvas.simulate_click(*self.sheet.geometry.cell_center(q, r))

    def click_die(self, k: int) -> None:
        """Click die ``k`` on the dice canvas as a browser would."""
        from sheetkit.widgets.kingdom_panels import die_rect

        x, y, w, h = die_rect(k)
        self.dice.canvas.simulate_click(x + w / 2, y + h / 2)

    def simulate_client_ready(self) -> None:
        """Behave as if a browser had just shown the table (each canvas redraws in full)."""
        for view in (self.sheet, self.dice, self.opponents):
            view.canvas.simulate_client_ready()

    def on_change(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(event)`` after 'move', 'turn' (new dice rolled), 'over' and 'new'."""
        self._listeners.append(callback)

    def record(self) -> dict[str, Any]:
        """The game's record (JSON-able): replays to the identical game."""
        return self.state.to_record()

    @property
    def status_text(self) -> str:
        """The status line as plain text."""
        return html.unescape(_strip_tags(self.status.value))

    def hook_data(self) -> dict[str, Any]:
        """What the hidden ``.sk-hooks`` element tells browser tests (legal hexes, map geometry in canvas px)."""
        st = self.state
        legal = st.legal_actions(ME)
        g = self.sheet.click_geometry
        return {
            "serial": self._serial, "phase": st.phase, "turn": st.turn, "step": st.step,
            "current": ME in st.current_players(), "confirm": words.awaiting_confirm(st, ME),
            "over": st.is_terminal(), "dice": list(st.dice),
            "legal": [list(h) for h in st.legal_hexes(ME)],
            "announce": [[a.terrain, a.die] for a in legal if isinstance(a, Announce)],
            "pick": sorted({a.die for a in legal if isinstance(a, Pick)}),
            "power": [a.delta for a in legal if isinstance(a, Power)],
            "bank": [a.criterion for a in legal if isinstance(a, Bank)],
            "pass": Pass() in legal, "undo": st.can_undo(ME),
            "geometry": {"size": g.size, "x0": g.x0, "y0": g.y0, "scale": self.scale},
            "scores": st.criterion_scores(ME), "uses": st.sheets[ME].uses[1:], "code": st.game_code(),
        }

    # ----- handlers -------------------------------------------------------------------------
    @_guarded
    def _on_click(self, x: float, y: float) -> None:
        cell = self.sheet.hex_at(x, y)
        if cell is None:
            self._fail("Click a hex of the map to draw there.")
            return
        st = self.state
        if st.is_terminal():
            raise IllegalAction("the game is over", "over")
        if words.awaiting_confirm(st, ME):
            raise IllegalAction("done", "done")
        if st.phase == ANNOUNCE and st.active == ME:
            raise IllegalAction("announce first", "announce-first")
        st.apply(ME, Place(*cell))
        self._moved()

    @_guarded
    def _on_terrain(self, terrain: int, _: Any = None) -> None:
        st = self.state
        if not (st.phase == ANNOUNCE and st.active == ME):
            self._fail("You choose the terrain when it is your turn to announce." if not st.is_terminal()
                       else FRIENDLY["over"])
            return
        st.check(ME, Announce(terrain, st.dice[0]))   # the engine explains a terrain with no uses left
        self._terrain_choice = terrain
        self._announce_if_ready()

    @_guarded
    def _on_die(self, k: int, _: Any = None) -> None:
        self._take_die(k)

    @_guarded
    def _on_dice_click(self, x: float, y: float) -> None:
        k = die_at(x, y, len(self.state.dice))
        if k is None:
            self._fail("Click a die to take it.")
            return
        self._take_die(k)

    def _take_die(self, k: int) -> None:
        st = self.state
        if st.is_terminal():
            raise IllegalAction("the game is over", "over")
        if k >= len(st.dice):
            self._fail("There is no such die on the table.")
            return
        if words.awaiting_confirm(st, ME):
            raise IllegalAction("done", "done")
        value = st.dice[k]
        if st.phase == ANNOUNCE and st.active == ME:
            self._die_choice = k
            self._announce_if_ready()
            return
        roles = dice_roles(st, ME)
        if roles[k][1]:
            who = roles[k][2] or "taken"
            self._fail(f"That die is already taken ({who}) — pick another.")
            return
        st.apply(ME, Pick(value))
        self._moved()

    def _announce_if_ready(self) -> None:
        st = self.state
        if self._terrain_choice is None or self._die_choice is None:
            self._error = None
            self._render([])
            return
        action = Announce(self._terrain_choice, st.dice[self._die_choice])
        self._terrain_choice = self._die_choice = None
        st.apply(ME, action)
        self._moved()

    @_guarded
    def _on_power(self, delta: int, _: Any = None) -> None:
        self.state.apply(ME, Power(delta))
        self._moved()

    @_guarded
    def _on_pass(self, _: Any = None) -> None:
        self.state.apply(ME, Pass())
        self._moved()

    @_guarded
    def _on_bank(self, code: str, _: Any = None) -> None:
        self.state.apply(ME, Bank(code))
        self._moved()

    @_guarded
    def _on_undo(self, _: Any = None) -> None:
        if not self.state.can_undo(ME) and (self._terrain_choice or self._die_choice is not None):
            self._terrain_choice = self._die_choice = None
        else:
            self.state.undo(ME)
            self._terrain_choice = self._die_choice = None
        self._error = None
        self._render(["move"])

    @_guarded
    def _on_confirm(self, _: Any = None) -> None:
        st = self.state
        if st.is_terminal():
            raise IllegalAction("the game is over", "over")
        if not words.awaiting_confirm(st, ME):
            self._fail(f"Not yet — {words.status_line(st, ME, self._terrain_choice, self._die_choice)}")
            return
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
        self._adopt(KingdomState(st.params, list(st.players), seed=st.seed, deal=st.deal))

    @_guarded
    def _on_play_code(self, _: Any = None) -> None:
        code = self.code_input.value.strip()
        if not code:
            self._fail("Type a game code first (it looks like KM-0000-0005).")
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
    def _moved(self) -> None:
        """After one of your moves: redraw (bots wait for your Confirm, so Undo stays possible)."""
        self._error = None
        self._render(["move"])

    def _advance(self) -> list[str]:
        """Let the bots act and the table roll until you must act (or the game ends)."""
        st = self.state
        events: list[str] = []
        while not st.is_terminal():
            if st.is_chance_node():
                if st.apply_chance().get("chance") == "roll":
                    events.append("turn")
                continue
            current = st.current_players()
            if ME in current:
                break
            for p in current:
                bot = self.bots.get(p)
                st.apply(p, bot.act(st, p) if bot is not None else st.legal_actions(p)[0])
        if st.is_terminal():
            events.append("over")
        return events

    def _replay(self, record: dict[str, Any] | str | bytes) -> KingdomState:
        doc = parse_json(record) if isinstance(record, str | bytes) else record
        if isinstance(doc, dict) and doc.get("game") not in (None, "kingdom-maps"):
            raise RecordError(f"that record is a game of {str(doc.get('game'))[:30]!r}; this table plays "
                              "Kingdom Maps")
        state = replay(doc)
        if not isinstance(state, KingdomState):
            raise RecordError("that record is not a Kingdom Maps game")
        return state

    def _load(self, data: bytes) -> None:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError("that file is not a sheetkit record (not a text file)") from None
        state = self._replay(text)
        self._adopt(state, advance=_moves_on(state))
        self._error = None
        self._render(["new"], message="Record loaded.")

    def _adopt(self, state: KingdomState, advance: bool = True) -> None:
        """Make ``state`` the table's game: bots for the other seats, views for its map, the first dice rolled."""
        old = self.state
        self.state = state
        self.bots = {}
        self.bot_kinds = []
        self._terrain_choice = self._die_choice = None
        unknown = []
        for p in range(state.num_players):
            if p == ME:
                continue
            kind = bot_kind(state.players[p])
            if kind is None:
                unknown.append(state.players[p])
                kind = "greedy"
            self.bot_kinds.append(kind)
            self.bots[p] = BOTS[kind](seed=derive_seed(state.seed or 0, "table-bot", p))
        same_sheet = (state.board == old.board and state.uses_each == old.uses_each
                      and state.params.powers == old.params.powers and state.params.questions == old.params.questions)
        if not same_sheet:
            gone = self.sheet
            self.sheet = self._make_sheet(state)
            self.left.children = (self.sheet.widget, self.opponents.widget)
            gone.canvas.close()
        if (state.num_players != old.num_players or state.board != old.board
                or self.opponents.players != [p for p in range(state.num_players) if p != ME]):
            gone_opp = self.opponents
            self.opponents = self._make_opponents(state)
            self.left.children = (self.sheet.widget, self.opponents.widget)
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
            self.sheet.sync(self.state, ME)

    @_guarded
    def _redraw_dice(self) -> None:
        with batch():
            self.dice.forget()
            self._sync_dice()

    @_guarded
    def _redraw_opponents(self) -> None:
        with batch():
            self.opponents.draw_static()
            self.opponents.forget()
            self.opponents.sync(self.state)

    def _sync_dice(self) -> None:
        st = self.state
        choosable: tuple[int, ...] = ()
        if not st.is_terminal() and not words.awaiting_confirm(st, ME):
            if st.phase == ANNOUNCE and st.active == ME:
                choosable = tuple(range(len(st.dice)))
            else:
                picks = {a.die for a in st.legal_actions(ME) if isinstance(a, Pick)}
                choosable = tuple(k for k, (v, role, _) in enumerate(dice_roles(st, ME)) if v in picks and not role)
        self.dice.sync(st, ME, choosable, self._die_choice)

    def _render(self, events: Sequence[str] = (), full: bool = False, message: str | None = None) -> None:
        """Bring every view in line with the state: one canvas message, then the text widgets."""
        st = self.state
        self._pending = None
        with batch():
            if full:
                self.sheet.forget()
                self.dice.forget()
                self.opponents.forget()
            if self.sheet.canvas.ready:
                if full:
                    self.sheet.draw_static()
                self.sheet.sync(st, ME)
            if self.dice.canvas.ready:
                self._sync_dice()
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
        self._serial += 1
        line = html.escape(words.status_line(st, ME, self._terrain_choice,
                                             None if self._die_choice is None else st.dice[self._die_choice]))
        note = ""
        if self._error:
            err = self._error[0].upper() + self._error[1:]
            err = err if err.endswith((".", "!", "?")) else err + "."
            note = f"<span class='sk-error'>{html.escape(err)}</span> "
        elif message:
            note = f"<b>{html.escape(message)}</b> "
        self.status.value = f"<div>{note}{line}</div>"
        self.info.value = words.turn_info(st, ME)
        over = st.is_terminal()
        legal = st.legal_actions(ME)
        announcing = st.phase == ANNOUNCE and st.active == ME and not over
        uses = st.sheets[ME].uses
        for t, b in self.terrain_buttons.items():
            b.description = words.terrain_label(t, uses[t])
            b.disabled = not (announcing and any(isinstance(a, Announce) and a.terrain == t for a in legal))
            chosen = announcing and self._terrain_choice == t
            if chosen and "sk-chosen" not in b._dom_classes:
                b.add_class("sk-chosen")
            elif not chosen and "sk-chosen" in b._dom_classes:
                b.remove_class("sk-chosen")
        self._render_dice_buttons(st, legal, announcing)
        s = st.sheets[ME]
        self.plus_button.disabled = Power(1) not in legal
        self.minus_button.disabled = Power(-1) not in legal
        self.powers.value = (f"±1 powers: <b>{s.available}</b> to spend" + (f" · this die {s.shift:+d}" if s.shift
                             else "")) if st.params.powers else "<i>no ±1 powers in this variant</i>"
        self.pass_button.layout.display = "flex" if Pass() in legal else "none"
        self.undo_button.disabled = not (st.can_undo(ME) or self._terrain_choice or self._die_choice is not None)
        self.confirm_button.disabled = not words.awaiting_confirm(st, ME)
        self.confirm_button.button_style = "" if self.confirm_button.disabled else "primary"
        banks = [a.criterion for a in legal if isinstance(a, Bank)]
        self._make_bank_buttons(st.criteria)
        for c, b in self.bank_buttons.items():
            b.description = words.bank_label(st, c, ME)
            b.disabled = c not in banks
        self.bank_box.layout.display = "flex" if banks else "none"
        self.criteria.value = words.criteria_html(st, ME, bankable=bool(banks))
        code = st.game_code()
        self.code.value = html.escape(code) if code else "<i>a fixed deal (no code)</i>"
        self.log.value = words.log_html(st, ME)
        self.end_box.layout.display = "flex" if over else "none"
        self.controls.layout.display = "none" if over else "flex"
        if over:
            self.end_summary.value = words.end_summary(st, ME)
            self.breakdown.value = words.breakdown_html(st, ME)
            self.share.value = self._share_html()
            if not self.download.value:
                self.download.value = self._download_link()
        else:
            self.breakdown.value = ""
        data = html.escape(json.dumps(self.hook_data()), quote=True)
        self.hooks.value = f"<div class='sk-km-state' data-state=\"{data}\"></div>"

    def _render_dice_buttons(self, st: KingdomState, legal: list[Any], announcing: bool) -> None:
        picks = {a.die for a in legal if isinstance(a, Pick)}
        roles = dice_roles(st, ME)
        waiting = words.awaiting_confirm(st, ME)
        for k, b in enumerate(self.die_buttons):
            if k >= len(st.dice) or st.is_terminal():
                b.layout.display = "none"
                continue
            b.layout.display = "flex"
            value, role, label = roles[k]
            if announcing:
                b.description = f"Take {value}"
                b.disabled = False
                b.button_style = "info" if self._die_choice == k else ""
                b.tooltip = f"Take the {value}: draw {value} hexes of the terrain you announce"
            elif value in picks and not role and not waiting:
                amount, terrain = words.pick_preview(st, ME, value)
                what = f"{amount} {terrain_name(terrain or 1, plural=amount != 1)}"
                b.description = f"Pick {value} → {what}"
                b.tooltip = f"Draw {what}"
                b.disabled = False
                b.button_style = ""
            else:
                b.description = f"{value}" + (" · taken" if role == "taken" else " · yours" if role == "mine"
                                              else " · terrain" if role == "terrain" else "")
                b.tooltip = label or "not yours to take now"
                b.disabled = True
                b.button_style = ""

    def _forget_drawing(self) -> None:
        """After a failure mid-draw, redraw the dynamic layers in full next time."""
        for view in (getattr(self, "sheet", None), getattr(self, "dice", None), getattr(self, "opponents", None)):
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
        when = "final" if st.is_terminal() else f"turn{st.turn}"
        filename = f"kingdom-maps-{stem}-{when}.json"
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
        return (f"<div>Share these dice: game code <b class='sk-code-share'>{html.escape(code)}</b>{link}. "
                f"Whoever plays it gets the same criteria and the same rolls.</div>"
                f"<div class='sk-small'>The analysis below the table has filled in for this game.</div>")


def _moves_on(state: KingdomState) -> bool:
    """True when a loaded game moves on by itself (a table step or a bot's announcement), not at your Confirm."""
    return state.is_chance_node() or (state.phase == ANNOUNCE and state.active != ME)


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
