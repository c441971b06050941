"""The Kingdom Maps table's other canvases: the dice on the table, and the opponents' small maps."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sheetkit.widgets import theme
from sheetkit.widgets.canvas import SheetCanvas
from sheetkit.widgets.geometry import HexGeometry, Rect
from sheetkit.widgets.kingdom_maps import art

from sheetkit.games.kingdom_maps.board import Board
from sheetkit.games.kingdom_maps.state import KingdomState
from sheetkit.games.kingdom_maps.terrains import TERRAINS

DIE, SLOT, DICE_TOP = 54.0, 100.0, 6.0
MAX_DICE = 3


def die_rect(k: int) -> Rect:
    """Where die ``k`` (0-based, in rolled order) sits on the dice canvas (CSS px)."""
    return k * SLOT + (SLOT - DIE) / 2, DICE_TOP, DIE, DIE


def die_at(x: float, y: float, n: int) -> int | None:
    """Which of ``n`` dice is under CSS-px point (x, y), or None (a pure hit test)."""
    for k in range(n):
        rx, ry, rw, rh = die_rect(k)
        if rx - 4 <= x <= rx + rw + 4 and ry - 4 <= y <= ry + rh + 4:
            return k
    return None


def dice_roles(state: KingdomState, me: int) -> list[tuple[int, str, str]]:
    """(value, role, label) per die on the table; role 'taken', 'mine', 'terrain' or '' — read from the state."""
    # The active player's die (``taken``), your die, and in solo's second drawing the die whose
    # number names the terrain (``state.terrain``); equal values mark the first unmarked die.
    dice = list(state.dice)
    roles = [""] * len(dice)
    labels = [""] * len(dice)

    def mark(value: int | None, role: str, label: str) -> None:
        for k, v in enumerate(dice):
            if v == value and not roles[k]:
                roles[k], labels[k] = role, label
                return

    s = state.sheets[me]
    if state.taken is not None:
        who = "you took" if state.active == me else f"{state.players[state.active]} took"
        mark(state.taken, "taken" if state.active != me else "mine", who)
    if s.die is not None and not (state.active == me and state.taken is not None):
        mark(s.die, "mine", "your die" if not state.solo else "the amount")
    if state.solo and state.step == 2 and state.terrain is not None and s.die is not None:
        mark(state.terrain, "terrain", f"names {TERRAINS[state.terrain - 1].plural}")
    return list(zip(dice, roles, labels, strict=True))


class DiceView:
    """The dice on the table, marked with who took which (click a die to take or pick it)."""

    def __init__(self, scale: float = theme.SCALE) -> None:
        self.canvas = SheetCanvas(MAX_DICE * SLOT, DICE_TOP + DIE + 40, ("dice",), scale, css_class="sk-dice")
        self.widget = self.canvas.widget
        self._spec: Any = None

    def forget(self) -> None:
        """Next ``sync`` redraws in full."""
        self._spec = None

    def sync(self, state: KingdomState, me: int, choosable: tuple[int, ...] = (), chosen: int | None = None) -> None:
        """Draw the dice if anything about them changed (call inside ``batch``)."""
        s = state.sheets[me]
        spec = (tuple(dice_roles(state, me)), choosable, chosen, s.die, s.shift, s.amount, state.is_terminal())
        if spec == self._spec:
            return
        self._spec = spec
        roles, choosable, chosen, die, shift, amount, over = spec
        layer = self.canvas["dice"]
        layer.clear()
        ctx = layer.ctx
        if not roles:
            ctx.fill_style = theme.PRINT
            ctx.font = theme.font(13, theme.FONT_PRINT, "italic")
            ctx.text_align = "left"
            ctx.text_baseline = "middle"
            ctx.fill_text("the game is over" if over else "no dice on the table", 8, DICE_TOP + DIE / 2)
            return
        for k, (value, role, label) in enumerate(roles):
            x, y, w, _ = die_rect(k)
            fill, edge, dashed = "#FFFFFF", theme.INK, False
            if role == "taken":
                fill, edge, dashed = "#E4E0D6", theme.FAINT, True
            elif role == "mine":
                fill, edge = "#FFF2B3", theme.OKABE_ITO["blue"]
            elif role == "terrain":
                fill = art.tint(TERRAINS[value - 1].colour, 0.55)
            if chosen == k:
                fill, edge = "#FFF2B3", theme.OKABE_ITO["blue"]
            if k in choosable:
                ctx.fill_style = "rgba(86, 180, 233, 0.25)"
                ctx.fill_rect(x - 5, y - 5, w + 10, w + 10)
            art.die_face(ctx, x, y, w, value, fill=fill, edge=edge, dashed=dashed)
            if role == "mine" or chosen == k:
                ctx.stroke_style = theme.OKABE_ITO["blue"]
                ctx.line_width = 3
                ctx.stroke_rect(x - 3, y - 3, w + 6, w + 6)
            ctx.text_align = "center"
            ctx.text_baseline = "top"
            cx = k * SLOT + SLOT / 2
            ctx.fill_style = theme.INK if role in ("mine", "terrain") else theme.PRINT
            ctx.font = theme.font(12, theme.FONT_INK, "bold" if role == "mine" else "")
            text = label or ("chosen" if chosen == k else "")
            if text:
                ctx.fill_text(text, cx, y + w + 6, SLOT - 4)
            if role == "mine" and shift:
                ctx.font = theme.font(12, theme.FONT_INK, "bold")
                ctx.fill_style = theme.OKABE_ITO["blue"]
                ctx.fill_text(f"{die} {shift:+d} = {amount}", cx, y + w + 21, SLOT - 4)


# Hexes of radius 10 CSS px (17 px across) keep a bot's terrains and symbols readable.
MINI, BLOCK_W, BLOCK_H, MAP_TOP = 10.0, 172.0, 182.0, 20.0


class OpponentsView:
    """Each bot's map in miniature, with its name, its score as it stands and whose turn it is."""

    def __init__(self, board: Board, players: list[int], scale: float = theme.SCALE) -> None:
        self.board = board
        self.players = list(players)
        n = max(1, len(players))
        self.canvas = SheetCanvas(n * BLOCK_W, BLOCK_H, ("paper", "ink"), scale, css_class="sk-opponents")
        self.widget = self.canvas.widget
        self._cells: dict[int, list[int]] = {}
        self._labels: dict[int, Any] = {}

    def geometry(self, k: int) -> HexGeometry:
        """Mini map of the k-th opponent shown."""
        g = HexGeometry.for_map(self.board.coords, MINI)
        w, _ = g.extent()
        return replace(g, x0=g.x0 + k * BLOCK_W + (BLOCK_W - w) / 2, y0=g.y0 + MAP_TOP)

    def forget(self) -> None:
        """Next ``sync`` redraws in full."""
        self._cells, self._labels = {}, {}

    def draw_static(self) -> None:
        """Paper and the mini maps' printed hexes."""
        ctx = self.canvas["paper"].ctx
        ctx.fill_style = theme.PAPER
        ctx.fill_rect(0, 0, self.canvas.width, self.canvas.height)
        for k in range(len(self.players)):
            g = self.geometry(k)
            ctx.stroke_style = theme.GRID
            ctx.line_width = 0.6
            for q, r in self.board.coords:
                ctx.stroke_polygon(art.hex_points(*g.cell_center(q, r), MINI))
            ctx.fill_style = theme.PRINT
            for i in sorted(self.board.questions):
                cx, cy = g.cell_center(*self.board.coords[i])
                ctx.fill_circle(cx, cy, 2.0)

    def sync(self, state: KingdomState) -> None:
        """Draw new hexes and changed score lines (call inside ``batch``)."""
        ink = self.canvas["ink"]
        for k, p in enumerate(self.players):
            g = self.geometry(k)
            cells = state.sheets[p].cells
            old = self._cells.get(p)
            if old is None or any(a and a != b for a, b in zip(old, cells, strict=True)):
                ink.clear_rect(k * BLOCK_W, MAP_TOP - 2, BLOCK_W, 14 * MINI + 4)
                old = [0] * len(cells)
            ctx = None
            for i, (a, b) in enumerate(zip(old, cells, strict=True)):
                if a != b and b:
                    ctx = ctx or ink.ctx
                    art.mini_hex(ctx, *g.cell_center(*self.board.coords[i]), MINI, b)
            self._cells[p] = list(cells)
            s = state.sheets[p]
            label = (state.players[p], state.total(p), state.is_terminal(), state.active == p and not
                     state.is_terminal() and state.num_players > 1, sum(s.uses[1:]), s.available)
            if label != self._labels.get(p):
                self._labels[p] = label
                self._draw_label(k, *label)

    def _draw_label(self, k: int, name: str, total: int, final: bool, active: bool, uses: int, powers: int) -> None:
        ink = self.canvas["ink"]
        x = k * BLOCK_W
        ink.clear_rect(x, 0, BLOCK_W, MAP_TOP - 2)
        bottom = MAP_TOP + 14 * MINI + 2
        ink.clear_rect(x, bottom, BLOCK_W, BLOCK_H - bottom)
        ctx = ink.ctx
        ctx.text_align = "center"
        ctx.text_baseline = "middle"
        ctx.fill_style = theme.INK
        ctx.font = theme.font(12, theme.FONT_INK, "bold")
        # The score beside the name, above the map: the line a laptop screen shows first.
        ctx.fill_text(f"{'▶ ' if active else ''}{name} · {'total' if final else 'now'} {total}", x + BLOCK_W / 2, 10,
                      BLOCK_W - 6)
        ctx.font = theme.font(10.5, theme.FONT_INK)
        ctx.fill_style = theme.PRINT
        ctx.fill_text(f"{uses} uses left · ±1: {powers}", x + BLOCK_W / 2, bottom + 10, BLOCK_W - 6)
