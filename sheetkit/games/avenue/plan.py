"""A lean one-player Avenue line for planners: the expert's rollouts and the hindsight search.

``Line`` holds one sheet and the cards still to come in a known order (the real deal for hindsight, a
sampled one for the expert). It plays the same rules as ``AvenueState`` without checks, logs or undo,
so a planner can copy it and play thousands of futures a second. ``Line.best_cell`` is the greedy
bot's choice written for it (same weights, same arithmetic, same tie-breaks): the rollout policy.
"""

from __future__ import annotations

from collections.abc import Sequence

from sheetkit.games.avenue.cards import ROAD_EDGES, RoadCard
from sheetkit.games.avenue.greedy import W_ANCHOR, W_CASTLE, _weights_table
from sheetkit.games.avenue.layout import FARM_LETTERS
from sheetkit.games.avenue.moves import AvenueAction, Draw, Pass, Peek
from sheetkit.games.avenue.params import AvenueParams
from sheetkit.games.avenue.sheet import Geometry, Sheet
from sheetkit.games.avenue.state import ACT, AvenueState

PEEK, PASS = -1, -2  # action codes beside cell indices 0..size-1


class Line:
    """One player's game from here on, with the remaining cards in a fixed order."""

    __slots__ = ("boxes", "card", "farm", "farms", "fpos", "front", "geo", "params", "peeked", "roads", "round",
                 "rpos", "scored", "seen", "sheet", "yellows")

    def __init__(self, params: AvenueParams, geo: Geometry, sheet: Sheet, roads: Sequence[RoadCard],
                 farms: Sequence[str], scored: Sequence[str], farm: str | None, boxes: Sequence[int],
                 card: RoadCard | None, yellows: int, peeked: bool, seen: str | None) -> None:
        self.params, self.geo, self.sheet = params, geo, sheet
        self.roads, self.rpos = list(roads), 0       # face-down road cards, top first
        self.farms, self.fpos = list(farms), 0       # face-down farm cards, top first
        self.scored = tuple(scored)                  # farms of the rounds already scored
        self.farm, self.round = farm, len(scored) + (farm is not None)
        self.boxes = list(boxes)
        self.card, self.yellows = card, yellows      # the face-up road card (None: game over)
        self.peeked, self.seen = peeked, seen
        # Empty cells a drawn road's end points into: the only cells whose value depends on the road drawn.
        self.front = sorted({j for i in range(geo.size) if sheet.roads[i]
                             for j, _ in geo.links[sheet.roads[i]][i] if not sheet.roads[j]})

    @classmethod
    def from_state(cls, state: AvenueState, player: int, roads: Sequence[RoadCard] | None = None,
                   farms: Sequence[str] | None = None) -> Line:
        """``player``'s position in ``state`` with the face-down cards as given (default: the real order)."""
        if state.phase != ACT or state.acted[player] is not None:
            raise ValueError("a line starts when the player has a face-up card to act on")
        rd, fd = state.road_deck, state.farm_deck
        return cls(state.params, state.geo, state.sheets[player].copy(),
                   rd.order()[rd._pos:] if roads is None else roads,
                   fd.order()[fd._pos:] if farms is None else farms,
                   state.round_farms[:-1], state.farm, state.boxes[player], state.card, state.yellows,
                   state.peeked[player], state.seen_farm[player])

    def copy(self) -> Line:
        """An independent copy (the card orders are shared: they are never changed in place)."""
        new = Line.__new__(Line)
        new.params, new.geo, new.sheet = self.params, self.geo, self.sheet.copy()
        new.roads, new.rpos, new.farms, new.fpos = self.roads, self.rpos, self.farms, self.fpos
        new.scored, new.farm, new.round = self.scored, self.farm, self.round
        new.boxes = list(self.boxes)
        new.front = self.front[:]
        new.card, new.yellows, new.peeked, new.seen = self.card, self.yellows, self.peeked, self.seen
        return new

    # ----- rules --------------------------------------------------------------------------
    def over(self) -> bool:
        """True when the game has ended."""
        return self.card is None

    def can_peek(self) -> bool:
        """A peek is allowed once a round while a farm card is face down."""
        return not self.peeked and self.fpos < len(self.farms)

    def moves(self) -> list[int]:
        """Legal move codes now: empty cells, then PEEK; PASS only when nothing else is allowed."""
        roads = self.sheet.roads
        out = [i for i in range(self.geo.size) if not roads[i]]
        if self.can_peek():
            out.append(PEEK)
        return out or [PASS]

    def play(self, move: int) -> None:
        """Act on the face-up card (a cell, PEEK or PASS), then move the table on to the next card."""
        if move >= 0:
            road = self.card.number  # type: ignore[union-attr]
            sheet, front = self.sheet, self.front
            sheet.place(move, road)
            if move in front:
                front.remove(move)
            for j, _ in self.geo.links[road][move]:
                if not sheet.roads[j] and j not in front:
                    front.append(j)
        elif move == PEEK:
            self.peeked, self.seen = True, self.farms[self.fpos]
        self._advance()

    def _advance(self) -> None:
        """Score the round if this card closed it, flip the next farm if so, then flip the next road card."""
        p = self.params
        while True:
            if self.yellows >= p.yellows_per_round or self.rpos >= len(self.roads):
                self._score()
                if self.round >= p.rounds:
                    self.card = None
                    return
                self.scored += (self.farm,)  # type: ignore[operator]
                self.farm = self.farms[self.fpos]
                self.fpos += 1
                self.round += 1
                self.yellows, self.peeked, self.seen = 0, False, None
                if self.rpos >= len(self.roads):
                    continue  # no road cards left: the round scores with no new roads
            card = self.roads[self.rpos]
            self.rpos += 1
            self.card = card
            self.yellows += card.yellow
            return

    def _score(self) -> None:
        got = self.sheet.farm_grapes(self.farm)  # type: ignore[arg-type]
        target = self.boxes[-1] if self.boxes else 0
        ok = got > target if self.params.rising else got > 0
        self.boxes.append(got if ok else 0)

    def total(self) -> int:
        """Farm boxes + castles − penalty per zero box (castles as they stand)."""
        s = self.sheet
        zeros = sum(1 for b in self.boxes if b == 0)
        return sum(self.boxes) + s.castle_score("purple") + s.castle_score("green") - self.params.penalty * zeros

    # ----- the greedy rollout -------------------------------------------------------------
    def weights(self) -> tuple[float, ...]:
        """The greedy bot's weight per farm bitmask in this position (see bots._farm_weights)."""
        return _weights_table(frozenset(self.scored), self.farm, self.seen if self.peeked else None,
                              self.params.rounds - self.round, max(1, len(self.farms) - self.fpos))

    def greedy_move(self) -> int:
        """The greedy bot's move: its best cell, or a peek when no cell helps, or a pass."""
        value, cell = self.best_cell(self.weights())
        if value <= 0 and self.can_peek():
            return PEEK
        return cell if cell >= 0 else PASS

    def best_cell(self, fw: tuple[float, ...]) -> tuple[float, int]:
        """The greedy bot's best draw: (value + tie-break, cell), or (0.0, -1) on a full sheet."""
        # A cell no road end points into is worth the same whatever the road, so only the front cells are
        # valued afresh; the best of the rest comes from a list sorted once per weight table.
        roads, front = self.sheet.roads, self.front
        best_v, best_t, best_i = 0.0, 0.0, -1
        for v, t, i in _static_order(self.geo, fw):
            if not roads[i] and i not in front:
                best_v, best_t, best_i = v, t, i
                break
        if front:
            sheet, road = self.sheet, self.card.number  # type: ignore[union-attr]
            ties = _ties(self.geo)
            for i in front:
                v, t = _cell_value(sheet, i, road, fw), ties[i]
                if best_i < 0 or v > best_v or (v == best_v and (t > best_t or (t == best_t and i < best_i))):
                    best_v, best_t, best_i = v, t, i
        return best_v + best_t, best_i

    def finish_greedy(self) -> int:
        """Play the rest of the game with the greedy policy; the final total."""
        while self.card is not None:
            self.play(self.greedy_move())
        return self.total()


def _cell_ties(geo: Geometry) -> list[float]:
    """The greedy bot's tie-break: using up a valuable cell costs a little (same numbers as GreedyBot)."""
    return [-0.01 * (geo.grapes[i] + 3 * bool(geo.farm_bit[i] or geo.castle_bit[i])) for i in range(geo.size)]


_TIES: dict[int, list[float]] = {}
_STATIC: dict[tuple[int, tuple[float, ...]], list[tuple[float, float, int]]] = {}


def _ties(geo: Geometry) -> list[float]:
    ties = _TIES.get(id(geo))
    if ties is None:
        ties = _TIES[id(geo)] = _cell_ties(geo)
    return ties


def _static_order(geo: Geometry, fw: tuple[float, ...]) -> list[tuple[float, float, int]]:
    """(value, tie, cell) of a road alone in each cell, best first in the greedy bot's order (cached)."""
    key = (id(geo), fw)
    out = _STATIC.get(key)
    if out is None:
        if len(_STATIC) > 4096:
            _STATIC.clear()
        ties = _ties(geo)
        out = []
        for i in range(geo.size):
            fb, cb = geo.farm_bit[i], geo.castle_bit[i]
            # Same arithmetic as GreedyBot.ranked for a road that joins nothing.
            value = (geo.grapes[i] * fw[fb] + W_ANCHOR * fw[fb] * (fb > 0)
                     + W_CASTLE * ((geo.purple[i] if cb & 1 else 0) + (geo.green[i] if cb & 2 else 0)))
            out.append((value, ties[i], i))
        out.sort(key=lambda x: (-x[0], -x[1], x[2]))
        _STATIC[key] = out
    return out


def _cell_value(sheet: Sheet, i: int, road: int, fw: tuple[float, ...]) -> float:
    """The greedy value of drawing ``road`` in empty cell ``i`` (the arithmetic of GreedyBot.ranked)."""
    g, pur, grn, fm, cm = sheet.g, sheet.pur, sheet.grn, sheet.fmask, sheet.cmask
    parent, roads = sheet.parent, sheet.roads
    mg, mp, mgr, mf, mc = g[i], pur[i], grn[i], fm[i], cm[i]
    r1 = r2 = -1
    for j, need in sheet.geo.links[road][i]:
        rj = roads[j]
        if rj and ROAD_EDGES[rj] & need:
            r = j
            while parent[r] != r:
                r = parent[r]
            if r == r1:
                continue
            if r1 < 0:
                r1 = r
            else:
                r2 = r
            mg += g[r]
            mp += pur[r]
            mgr += grn[r]
            mf |= fm[r]
            mc |= cm[r]
    fb = sheet.geo.farm_bit[i]
    value = (mg * fw[mf] + W_ANCHOR * fw[fb] * (fb > 0)
             + W_CASTLE * ((mp if mc & 1 else 0) + (mgr if mc & 2 else 0)))
    for r in (r1, r2):
        if r >= 0:
            c = cm[r]
            value -= g[r] * fw[fm[r]] + W_CASTLE * ((pur[r] if c & 1 else 0) + (grn[r] if c & 2 else 0))
    return value


def cell_values(sheet: Sheet, road: int, fw: tuple[float, ...]) -> list[tuple[float, int]]:
    """(value + tie-break, cell) of every empty cell for ``road``, in the greedy bot's order (best first)."""
    ties = _ties(sheet.geo)
    out = [(_cell_value(sheet, i, road, fw), ties[i], i) for i in range(sheet.geo.size) if not sheet.roads[i]]
    out.sort(key=lambda x: (-x[0], -x[1], x[2]))
    return [(v + t, i) for v, t, i in out]


def to_action(move: int, cols: int) -> AvenueAction:
    """The engine's action for a move code."""
    if move >= 0:
        return Draw(*divmod(move, cols))
    return Peek() if move == PEEK else Pass()


def to_move(action: AvenueAction, cols: int) -> int:
    """The move code of an engine action."""
    if isinstance(action, Draw):
        return action.row * cols + action.col
    return PEEK if isinstance(action, Peek) else PASS


def farm_letter_bits(farm: str) -> int:
    """The bit of a farm letter in network farm masks."""
    return 1 << FARM_LETTERS.index(farm)
