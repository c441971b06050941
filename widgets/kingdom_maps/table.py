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

import functools
from collections.abc import Sequence
from typing import Any

import ipywidgets as W
from sheetkit.widgets import theme
from sheetkit.widgets.canvas import batch
from sheetkit.widgets.kingdom_maps import art, intent
from sheetkit.widgets.kingdom_maps import text as words
from sheetkit.widgets.kingdom_maps.intent import Announcement
from sheetkit.widgets.kingdom_maps.panels import DiceView, OpponentsView, dice_roles, die_at
from sheetkit.widgets.kingdom_maps.sheet import KingdomSheet
from sheetkit.widgets.shapes import ring
from sheetkit.widgets.table_base import (
    LOG_LINES,
    ME,
    GameTable,
    button,
    guarded,
    html_widget,
    label,
    row,
)

from sheetkit.core.play import Step
from sheetkit.games.kingdom_maps import BOTS, TERRAINS, Announce, Bank, KingdomState, Pass, Pick, Place, Power, new_game
from sheetkit.games.kingdom_maps.phases import ANNOUNCE
from sheetkit.games.kingdom_maps.terrains import terrain_name

MAX_DICE = 3

KM_CSS = f"""
<style>
/* Screens: a grid — the map, the bots' maps under it, the turn's controls beside both; one column
   (map, controls, bots) when the table is narrower than the map plus a 290 px column. */
.sk-km .sk-main {{ display: grid; grid-template-columns: max-content minmax(0, 560px); grid-template-rows: auto 1fr;
  grid-template-areas: "map side" "opp side"; gap: 8px 14px; justify-content: start; align-items: start; }}
.sk-km .sk-km-left {{ display: contents; }}
.sk-km .sk-main .sk-sheet {{ grid-area: map; }}
/* contain: its width is the map's column, whatever the log holds */
.sk-km .sk-main .sk-km-bottom {{ grid-area: opp; align-items: flex-start; gap: 8px 12px; contain: inline-size; }}
.sk-km .sk-km-bottom .sk-log {{ flex: 1 1 260px; min-width: 0; }}
.sk-km .sk-km-side {{ grid-area: side; gap: 6px; min-width: 0; container: kmside / inline-size; }}
@container sktable (max-width: 974.98px) {{
  .sk-km .sk-main {{ grid-template-columns: minmax(0, max-content); grid-template-areas: "map" "side" "opp"; }}
  .sk-km .sk-km-side {{ width: min(560px, 100%); }}
}}
/* in a narrow column: two terrains a row (their labels stay whole), the dice drawing smaller */
@container kmside (max-width: 420px) {{
  .sk-km .sk-terrains {{ grid-template-columns: repeat(2, 1fr) !important; }}
  .sk-km .sk-terrains button {{ padding: 0 4px; font-size: 12.5px; }}
  .sk-km .sk-km-controls canvas.sk-dice {{ width: 210px !important; }}
  .sk-km button.sk-die {{ min-width: 0 !important; flex: 1 1 0; }}
}}
/* a phone: Undo / Confirm right under the choices; the dice drawing and the criteria after them */
@container sktable (max-width: 560px) {{
  .sk-km .sk-km-controls canvas.sk-dice {{ order: 1; }}
  .sk-km .sk-km-controls .sk-criteria {{ order: 2; }}
}}
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
.sk-km .sk-end {{ min-width: 0; }}
.sk-km .sk-powers {{ font-size: 13px; color: {theme.PRINT}; }}
.sk-km .sk-log {{ height: 96px; }}
.sk-km .sk-km-side .sk-row {{ flex-wrap: wrap; row-gap: 4px; }}
.sk-km .sk-km-side .sk-row > button, .sk-km .sk-km-side .sk-row > .widget-upload {{ flex: 0 0 auto; }}
</style>
"""

class KingdomTable(GameTable):
    """A playable Kingdom Maps table: solo, or you against ``bots``. Display it in a notebook cell.

    ``code`` replays a shared deal (``KM-XXXX-XXXX``); ``seed`` picks one; neither: fresh dice.
    ``players`` (total seats) fills the seats beyond ``bots`` with greedy bots. ``record`` (a
    record dict or JSON text) continues or reviews a saved game.
    """

    GAME = "kingdom-maps"
    TITLE = "Kingdom Maps"
    CODE_EXAMPLE = "KM-0000-0005"
    BOTS = BOTS
    NEW_GAME = staticmethod(new_game)
    DEFAULT_BOTS = ()
    SHARE_WHAT = "these dice"
    SHARE_GETS = "the same criteria and the same rolls"
    OPPONENTS = (("solo", ()), ("vs greedy bot", ("greedy",)),
                 ("vs 2 bots", ("greedy", "random")),
                 ("vs 3 bots", ("greedy", "random", "greedy")))

    def __init__(self, code: str | None = None, bots: Sequence[str] | str = (), *, seed: int | None = None,
                 players: int | None = None, variant: str = "standard", name: str = "You",
                 record: dict[str, Any] | str | None = None, notes: Sequence[str] = ()) -> None:
        self.announcement = Announcement()    # the terrain and die chosen before announcing
        self._serial = 0
        super().__init__(code, bots, seed=seed, variant=variant, name=name, record=record, notes=notes,
                         seats=players)

    def _reset_choices(self) -> None:
        self.announcement.clear()

    def _moves_on(self, state: KingdomState) -> bool:  # type: ignore[override]
        """A loaded game moves on by itself at a table step or a bot's announcement, not at your Confirm."""
        return state.is_chance_node() or (state.phase == ANNOUNCE and state.active != ME)

    def _progress(self) -> str:
        return f"turn{self.state.turn}"

    def _build(self) -> None:
        st = self.state
        self.sheet = self._make_sheet(st)
        self.dice = DiceView()
        self.dice.canvas.on_ready(self._redraw_dice)
        self.dice.canvas.on_click(self._on_dice_click)
        self.opponents = self._make_opponents(st)

        self.status = html_widget("sk-status")
        self.info = html_widget("sk-info")
        self.terrain_buttons: dict[int, W.Button] = {}
        for t in TERRAINS:
            b = button(words.terrain_label(t.number), f"sk-terrain-{t.number}", "",
                       f"Announce {t.plural} (crosses out one use)", colour=art.tint(t.colour, 0.45),
                       width="auto", height="30px")
            b.add_class("sk-terrain")
            b.on_click(functools.partial(self._on_terrain, t.number))
            self.terrain_buttons[t.number] = b
        self.terrain_box = W.GridBox(list(self.terrain_buttons.values()),
                                     layout=W.Layout(grid_template_columns="repeat(3, 1fr)", width="100%"))
        self.terrain_box.add_class("sk-terrains")
        self.die_buttons: list[W.Button] = []
        for k in range(MAX_DICE):
            b = button("", f"sk-die-{k}", "", "Take or pick this die")
            b.add_class("sk-die")
            b.layout = W.Layout(width="auto", min_width="96px")
            b.on_click(functools.partial(self._on_die, k))
            self.die_buttons.append(b)
        self.plus_button = button("+1", "sk-plus", "", "Spend a power: draw one hex more")
        self.minus_button = button("−1", "sk-minus", "", "Spend a power: draw one hex fewer")
        self.plus_button.on_click(functools.partial(self._on_power, 1))
        self.minus_button.on_click(functools.partial(self._on_power, -1))
        self.powers = html_widget("sk-powers")
        self.undo_button = button("Undo", "sk-undo", "undo", "Take back your last move of this drawing")
        self.confirm_button = button("Confirm", "sk-confirm", "check", "Your drawing is done: let the table "
                                      "move on", "primary")
        self.pass_button = button("Draw nothing", "sk-pass", "ban", "Only when the amount fits nowhere "
                                   "(the game ends after this turn)", "warning")
        self.undo_button.on_click(self._on_undo)
        self.confirm_button.on_click(self._on_confirm)
        self.pass_button.on_click(self._on_pass)
        self.bank_box = W.HBox([], layout=W.Layout(display="none"))
        self.bank_box.add_class("sk-bankbox")
        self.bank_buttons: dict[str, W.Button] = {}

        self._end_parts("Play these dice again", "Same dice, same criteria, same bots, a blank map")
        self.end_box = W.VBox([self.end_summary, self.breakdown, W.HBox([self.again_button]), self.share],
                              layout=W.Layout(display="none"))
        self.end_box.add_class("sk-end")

        self.criteria = html_widget("sk-criteria")
        self.game_rows = self._game_rows("KM-XXXX-XXXX", "Play the dice of a game code",
                                         "Fresh dice, against the bots chosen beside")
        self.log = html_widget("sk-log")
        self.hooks = html_widget("sk-hooks")
        self.hooks.layout.display = "none"

        for b in (self.plus_button, self.minus_button, self.undo_button, self.confirm_button, self.pass_button,
                  self.again_button):
            b.layout = W.Layout(width="auto")
        self.controls = W.VBox([
            self.dice.widget,
            row(*self.die_buttons),
            self.terrain_box,
            row(self.plus_button, self.minus_button, self.powers),
            self.bank_box,
            row(self.undo_button, self.confirm_button, self.pass_button, self.hints.button),
            self.criteria,
        ])
        self.controls.add_class("sk-km-controls")
        self.side = W.VBox([self.status, self.info, self.controls, self.end_box, self.game_rows])
        self.side.add_class("sk-km-side")
        # The bots' maps and the log share the row under the map, so the log stays on a laptop's screen.
        self.bottom = row(self.opponents.widget, self.log)
        self.bottom.add_class("sk-km-bottom")
        self.left = W.VBox([self.sheet.widget, self.bottom])
        self.left.add_class("sk-km-left")
        self._page(KM_CSS, [self.left, self.side], [self.hooks], "sk-km")

    def _make_sheet(self, st: KingdomState) -> KingdomSheet:
        sheet = KingdomSheet(st.board, st.uses_each, criteria=len(st.params.criteria or ()) or 4,
                             powers=st.params.powers, questions=st.params.questions)
        sheet.canvas.on_ready(self._redraw_sheet)
        sheet.canvas.on_click(self._on_click)
        return sheet

    def _make_opponents(self, st: KingdomState) -> OpponentsView:
        return self._watch_opponents(OpponentsView(st.board, self._others(st)))

    def _views(self) -> list[Any]:
        return [self.sheet, self.dice, self.opponents]

    def _renew_views(self, old: KingdomState, state: KingdomState) -> None:  # type: ignore[override]
        same_sheet = (state.board == old.board and state.uses_each == old.uses_each
                      and state.params.powers == old.params.powers and state.params.questions == old.params.questions)
        if not same_sheet:
            gone = self.sheet
            self.sheet = self._make_sheet(state)
            self.left.children = (self.sheet.widget, self.bottom)
            gone.canvas.close()
        if (state.num_players != old.num_players or state.board != old.board
                or self.opponents.players != self._others(state)):
            gone_opp = self.opponents
            self.opponents = self._make_opponents(state)
            self.bottom.children = (self.opponents.widget, self.log)
            gone_opp.canvas.close()

    def _make_bank_buttons(self, criteria: Sequence[str]) -> None:
        if tuple(self.bank_buttons) == tuple(criteria):
            return
        for b in self.bank_buttons.values():
            b.close()
        self.bank_buttons = {}
        for c in criteria:
            b = button(c, f"sk-bank-{c}", "star", f"Score {c} now for your ? hex and bank it")
            b.add_class("sk-bank")
            b.layout = W.Layout(width="auto")
            b.on_click(functools.partial(self._on_bank, c))
            self.bank_buttons[c] = b
        self.bank_box.children = (label("Your ? hex banks:"), *self.bank_buttons.values())

    # ----- what tests and the notebook use ---------------------------------------------------
    def hex_click_point(self, q: int, r: int) -> tuple[float, float]:
        """Where to click hex (q, r), in the map canvas's own pixels (its centre)."""
        return self.sheet.click_geometry.cell_center(q, r)

    def click_hex(self, q: int, r: int) -> None:
        """Click a hex as a browser would (through the canvas's mouse event)."""
        self.sheet.canvas.simulate_click(*self.sheet.geometry.cell_center(q, r))

    def click_die(self, k: int) -> None:
        """Click die ``k`` on the dice canvas as a browser would."""
        from sheetkit.widgets.kingdom_maps.panels import die_rect

        x, y, w, h = die_rect(k)
        self.dice.canvas.simulate_click(x + w / 2, y + h / 2)

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
    @guarded
    def _on_click(self, x: float, y: float) -> None:
        self._focus = self.sheet
        cell = self.sheet.hex_at(x, y)
        st = self.state
        if cell is None:
            part = self.sheet.part_at(x, y, st)
            bank = intent.beside_map_click(st, ME, part)   # a lit criteria box banks it
            if bank is None:
                self._fail(words.off_map_words(st, ME, part))
                return
            st.apply(ME, bank)
        else:
            st.apply(ME, intent.hex_click(st, ME, cell))
        self._moved()

    def _make(self, action: Any) -> None:
        """Make a move the intent layer answered (None: a choice made, nothing to move yet)."""
        if action is None:
            self._error = None
            self._render([])
            return
        self.state.apply(ME, action)
        self._moved()

    @guarded
    def _on_terrain(self, terrain: int, _: Any = None) -> None:
        self._make(intent.press_terrain(self.state, ME, self.announcement, terrain))

    @guarded
    def _on_die(self, k: int, _: Any = None) -> None:
        self._take_die(k)

    @guarded
    def _on_dice_click(self, x: float, y: float) -> None:
        self._focus = self.dice
        k = die_at(x, y, len(self.state.dice))
        if k is None:
            self._fail("Click a die to take it.")
            return
        self._take_die(k)

    def _take_die(self, k: int) -> None:
        self._make(intent.take_die(self.state, ME, self.announcement, k, dice_roles(self.state, ME)))

    @guarded
    def _on_power(self, delta: int, _: Any = None) -> None:
        self._make(Power(delta))

    @guarded
    def _on_pass(self, _: Any = None) -> None:
        self._make(Pass())

    @guarded
    def _on_bank(self, code: str, _: Any = None) -> None:
        self._make(Bank(code))

    @guarded
    def _on_undo(self, _: Any = None) -> None:
        if self.state.can_undo(ME) or not self.announcement.started():     # else: the choices only
            self.state.undo(ME)
        self.announcement.clear()
        self._error = None
        self._render(["move"])

    @guarded
    def _on_confirm(self, _: Any = None) -> None:
        st = self.state
        if not intent.may_confirm(st, ME):
            a = self.announcement
            self._fail(f"Not yet — {words.status_line(st, ME, a.terrain, None if a.die is None else st.dice[a.die])}")
            return
        events = self._advance()
        self._error = None
        self._render(events)

    def _next_click_view(self) -> Any:
        st = self.state
        return self.sheet if not st.is_terminal() and st.legal_hexes(ME) else None

    # ----- game flow ------------------------------------------------------------------------
    def _moved(self) -> None:
        """After one of your moves: redraw (bots wait for your Confirm, so Undo stays possible)."""
        self._error = None
        self._render(["move"])

    def _step_events(self, step: Step) -> list[str]:
        return ["turn"] if step.chance and step.entry.get("chance") == "roll" else []

    # ----- drawing --------------------------------------------------------------------------
    @guarded
    def _redraw_sheet(self) -> None:
        self._redraw_in_full(self.sheet, lambda: self.sheet.sync(self.state, ME))

    @guarded
    def _redraw_dice(self) -> None:
        self._redraw_in_full(self.dice, self._sync_dice, printed=False)

    def _sync_dice(self) -> None:
        st = self.state
        choosable: tuple[int, ...] = ()
        if not st.is_terminal() and not words.awaiting_confirm(st, ME):
            if st.phase == ANNOUNCE and st.active == ME:
                choosable = tuple(range(len(st.dice)))
            else:
                picks = {a.die for a in st.legal_actions(ME) if isinstance(a, Pick)}
                choosable = tuple(k for k, (v, role, _) in enumerate(dice_roles(st, ME)) if v in picks and not role)
        self.dice.sync(st, ME, choosable, self.announcement.die)

    def _canvas_steps(self, full: bool) -> list[tuple[Any, Any]]:
        st = self.state
        steps: list[tuple[Any, Any]] = []
        if self.sheet.canvas.ready:
            steps.append((self.sheet, self._redrawn(self.sheet, lambda: self.sheet.sync(st, ME), full)))
        if self.dice.canvas.ready:
            steps.append((self.dice, self._sync_dice))
        if self.opponents.canvas.ready and st.num_players > 1:
            steps.append((self.opponents, self._redrawn(self.opponents, lambda: self.opponents.sync(st), full)))
        return steps

    def _draw_hint(self, move: Any) -> tuple[str, Any]:
        """The expert's move: a hex ringed in blue on your map, or its words (announce, pick, power, bank)."""
        if isinstance(move, Place):
            if self.sheet.canvas.ready:
                cx, cy = self.sheet.geometry.cell_center(move.q, move.r)
                with batch():
                    ring(self.sheet.canvas["ink"].ctx, cx, cy, self.sheet.box.size * 0.72, theme.OKABE_ITO["blue"],
                         dashed=True)
            return "the expert would draw the hex ringed in blue on your map", self.sheet
        return f"the expert would {move}", None

    def _move_words(self, state: KingdomState, move: Any) -> str:  # type: ignore[override]
        if isinstance(move, Place):
            terrain = terrain_name(state.terrain, plural=False) if state.terrain else "a"
            return f"a {terrain} hex, ringed on the map"
        return str(move)

    def _small_sheet(self, state: KingdomState, played: Any, best: Any) -> Any:  # type: ignore[override]
        """Your map before the move, small: your hex ringed in vermillion, the expert's dashed in blue."""
        if not (isinstance(played, Place) or isinstance(best, Place)):
            return None
        small = KingdomSheet(state.board, state.uses_each, criteria=len(state.params.criteria or ()) or 4,
                             powers=state.params.powers, questions=state.params.questions, size=19.0)

        def mark(move: Any, colour: str, dashed: bool) -> None:
            if isinstance(move, Place):
                cx, cy = small.geometry.cell_center(move.q, move.r)
                ring(small.canvas["ink"].ctx, cx, cy, small.box.size * 0.75, colour, 3.0, dashed)

        return self._luck_sheet(small, lambda: small.sync(state, ME, interactive=False), mark, played, best)

    def _render_text(self, message: str | None = None) -> None:
        st = self.state
        self._serial += 1
        a = self.announcement
        line = words.status_line(st, ME, a.terrain, None if a.die is None else st.dice[a.die])
        self.status.value = self._status_html(line, message)
        self.info.value = words.turn_info(st, ME)
        over = st.is_terminal()
        legal = st.legal_actions(ME)
        announcing = st.phase == ANNOUNCE and st.active == ME and not over
        uses = st.sheets[ME].uses
        for t, b in self.terrain_buttons.items():
            b.description = words.terrain_label(t, uses[t])
            b.disabled = not (announcing and any(isinstance(a, Announce) and a.terrain == t for a in legal))
            chosen = announcing and self.announcement.terrain == t
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
        self.undo_button.disabled = not (st.can_undo(ME) or self.announcement.started())
        self.confirm_button.disabled = not words.awaiting_confirm(st, ME)
        self.confirm_button.button_style = "" if self.confirm_button.disabled else "primary"
        banks = [a.criterion for a in legal if isinstance(a, Bank)]
        self._make_bank_buttons(st.criteria)
        for c, b in self.bank_buttons.items():
            b.description = words.bank_label(st, c, ME)
            b.disabled = c not in banks
        self.bank_box.layout.display = "flex" if banks else "none"
        self.criteria.value = words.criteria_html(st, ME, bankable=bool(banks))
        self.code.value = self._code_html()
        self.log.value = words.log_html(st, ME, limit=LOG_LINES)
        self.controls.layout.display = "none" if over else "flex"
        self._render_end(over, lambda: words.end_summary(st, ME), lambda: words.breakdown_html(st, ME))
        self._publish_hooks("sk-km-state")

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
                b.button_style = "info" if self.announcement.die == k else ""
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
