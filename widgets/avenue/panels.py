"""The table's other canvases: the face-up cards, and the opponents' small sheets with their scores."""

from __future__ import annotations

from typing import Any

from sheetkit.widgets import theme
from sheetkit.widgets.avenue import art
from sheetkit.widgets.canvas import SheetCanvas
from sheetkit.widgets.geometry import SquareGeometry

from sheetkit.games.avenue.state import AvenueState

CARD_W, CARD_H, CARD_GAP = 108.0, 150.0, 14.0


class CardsView:
    """The round's farm card, the flipped road card, and (only for you) the farm you peeked at."""

    def __init__(self, scale: float = theme.SCALE) -> None:
        self.canvas = SheetCanvas(3 * CARD_W + 2 * CARD_GAP + 8, CARD_H + 8, ("cards",), scale, css_class="sk-cards",
                                  stacked=True)
        self.widget = self.canvas.widget
        self._spec: Any = None

    def forget(self) -> None:
        """Next ``sync`` redraws in full."""
        self._spec = None

    def sync(self, state: AvenueState, player: int) -> None:
        """Draw the cards if they changed (call inside ``batch``)."""
        spec = _cards_spec(state, player)
        if spec == self._spec:
            return
        self._spec = spec
        farm, target, card, yellows, per_round, seen = spec
        layer = self.canvas["cards"]
        layer.clear()
        ctx = layer.ctx
        x, y = 4.0, 4.0
        note = "" if farm is None else (f"must beat {target}" if target else "needs 1+ grapes")
        art.farm_card(ctx, x, y, CARD_W, CARD_H, farm, "THIS ROUND" if farm else "FARM", note)
        x += CARD_W + CARD_GAP
        art.road_card(ctx, x, y, CARD_W, CARD_H, card, count=f"yellow {yellows}/{per_round}" if card else "")
        x += CARD_W + CARD_GAP
        if seen is not None:
            art.farm_card(ctx, x, y, CARD_W, CARD_H, seen, "NEXT FARM", "only you see this",
                          ring=theme.PEEK_RING, dashed=True)


def _cards_spec(state: AvenueState, p: int) -> tuple[Any, ...]:
    if state.is_terminal():
        return (None, 0, None, 0, state.params.yellows_per_round, None)
    pv = state.preview(p)["farm"]
    target = pv["target"] if pv else 0
    return (state.farm, target, state.card, state.yellows, state.params.yellows_per_round, state.seen_farm[p])


MINI = 12.0                    # mini sheet cell (CSS px)
BLOCK_W, BLOCK_H = 100.0, 142.0


class OpponentsView:
    """Each bot's sheet in miniature, with its name and its score as it stands."""

    def __init__(self, layout: Any, players: list[int], scale: float = theme.SCALE) -> None:
        self.layout = layout
        self.players = list(players)
        n = max(1, len(players))
        self.canvas = SheetCanvas(n * BLOCK_W, BLOCK_H, ("paper", "ink"), scale, css_class="sk-opponents",
                                  stacked=True)
        self.widget = self.canvas.widget
        self._roads: dict[int, list[int]] = {}
        self._labels: dict[int, Any] = {}

    def grid(self, k: int) -> SquareGeometry:
        """Mini sheet of the k-th opponent shown."""
        lay = self.layout
        x0 = k * BLOCK_W + (BLOCK_W - lay.cols * MINI) / 2
        return SquareGeometry(lay.rows, lay.cols, MINI, x0, 20.0)

    def forget(self) -> None:
        """Next ``sync`` redraws in full."""
        self._roads, self._labels = {}, {}

    def draw_static(self) -> None:
        """Paper, mini grids, farm letters and castle marks."""
        layer = self.canvas["paper"]
        ctx = layer.ctx
        ctx.fill_style = theme.PAPER
        ctx.fill_rect(0, 0, self.canvas.width, self.canvas.height)
        lay = self.layout
        for k in range(len(self.players)):
            g = self.grid(k)
            ctx.stroke_style = theme.GRID
            ctx.line_width = 0.6
            for r in range(1, g.rows):
                ctx.stroke_line(g.x0, g.y0 + r * MINI, g.x0 + g.width, g.y0 + r * MINI)
            for c in range(1, g.cols):
                ctx.stroke_line(g.x0 + c * MINI, g.y0, g.x0 + c * MINI, g.y0 + g.height)
            ctx.stroke_style = theme.GRID_STRONG
            ctx.line_width = 1
            ctx.stroke_rect(g.x0, g.y0, g.width, g.height)
            ctx.font = theme.font(9, theme.FONT_PRINT, "bold")
            ctx.text_align = "center"
            ctx.text_baseline = "middle"
            ctx.fill_style = theme.PRINT
            for (r, c), letter in lay.farm_at.items():
                ctx.fill_text(letter, *g.cell_center(r, c))
            for (r, c), colour in lay.castle_at.items():
                cx, cy = g.cell_center(r, c)
                if colour == "purple":
                    ctx.fill_style = theme.GRAPE_PURPLE
                    ctx.fill_rect(cx - 4, cy - 4, 8, 8)
                else:
                    ctx.stroke_style = theme.GRAPE_GREEN
                    ctx.line_width = 2
                    ctx.stroke_rect(cx - 3.5, cy - 3.5, 7, 7)

    def sync(self, state: AvenueState) -> None:
        """Draw new roads and changed score lines (call inside ``batch``)."""
        ink = self.canvas["ink"]
        for k, p in enumerate(self.players):
            g = self.grid(k)
            roads = state.sheets[p].roads
            old = self._roads.get(p)
            if old is None:
                ink.clear_rect(k * BLOCK_W, 0, BLOCK_W, BLOCK_H)
                old = [0] * len(roads)
                self._labels.pop(p, None)
            for i, (a, b) in enumerate(zip(old, roads, strict=True)):
                if a == b:
                    continue
                x, y, s, _ = g.cell_rect(*divmod(i, g.cols))
                if a:
                    ink.clear_rect(x, y, s, s)
                if b:
                    art.road(ink.ctx, x, y, s, b, width=2.4, wobble=False)
            self._roads[p] = list(roads)
            label = (state.players[p], state.total(p), state.is_terminal(), tuple(state.boxes[p]))
            if label != self._labels.get(p):
                self._labels[p] = label
                self._draw_label(k, *label)

    def _draw_label(self, k: int, name: str, total: int, final: bool, boxes: tuple[int, ...]) -> None:
        ink = self.canvas["ink"]
        x = k * BLOCK_W
        ink.clear_rect(x, 0, BLOCK_W, 18)
        ink.clear_rect(x, 20 + self.layout.rows * MINI + 1, BLOCK_W, 40)
        ctx = ink.ctx
        ctx.text_align = "center"
        ctx.text_baseline = "middle"
        ctx.fill_style = theme.INK
        ctx.font = theme.font(12, theme.FONT_INK, "bold")
        ctx.fill_text(name, x + BLOCK_W / 2, 10, BLOCK_W - 6)
        y = 20 + self.layout.rows * MINI + 11
        ctx.font = theme.font(11, theme.FONT_INK)
        ctx.fill_text(" ".join(str(b) for b in boxes) if boxes else "no boxes yet", x + BLOCK_W / 2, y,
                      BLOCK_W - 6)
        ctx.font = theme.font(12, theme.FONT_INK, "bold")
        ctx.fill_text(f"{'total' if final else 'now'} {total}", x + BLOCK_W / 2, y + 15)
