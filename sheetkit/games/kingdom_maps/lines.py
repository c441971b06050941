"""What the expert and the hindsight search choose between: whole drawings ("lines"), and greedy rollouts.

A line is everything one player does in one drawing, in order: the announce or pick (when still to do),
the power spends, then every hex (or ``Pass`` when the amount cannot fit). Searching over lines instead of
single moves keeps the choices few and meaningful: which terrain and die, how far to push the die with
powers, and where the group goes. A rollout plays a copy of the game to its end with greedy bots in every
seat, rolling dice from a list the caller gives (sampled dice for the expert, the real ones for hindsight).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sheetkit.games.kingdom_maps.board import Board
from sheetkit.games.kingdom_maps.bots import GreedyBot
from sheetkit.games.kingdom_maps.dice import DiceSource
from sheetkit.games.kingdom_maps.moves import Announce, Bank, KingdomAction, Pass, Pick, Power
from sheetkit.games.kingdom_maps.phases import ANNOUNCE, DRAW
from sheetkit.games.kingdom_maps.planner import Planner, _places
from sheetkit.games.kingdom_maps.state import KingdomState

ENUM_CAP = 400  # the most groups one drawing may list when groups are enumerated exhaustively


@dataclass(frozen=True)
class Line:
    """One way to play a drawing: the announce or pick still to make, the net power shift, the whole group.

    ``hexes`` is the drawing's whole group in drawing order, the hexes already drawn first; ``passes`` means
    drawing nothing (the amount does not fit).
    """

    head: tuple[KingdomAction, ...]
    shift: int
    hexes: tuple[int, ...]
    passes: bool = False

    def moves(self, state: KingdomState, player: int) -> list[KingdomAction]:
        """Every move of this line still to make, from ``state`` (which must be on the line)."""
        s = state.sheets[player]
        out: list[KingdomAction] = list(self.head) if s.die is None else []
        if self.shift != s.shift:
            out += _power_moves(s.shift, self.shift)
        if self.passes:
            return [*out, Pass()]
        places = _places(state.board)
        return out + [places[h] for h in self.hexes[len(s.placed):]]

    def next_move(self, state: KingdomState, player: int) -> KingdomAction | None:
        """This line's next move now, or None when ``state`` has left the line (someone else played)."""
        s = state.sheets[player]
        if s.die is None:
            return self.head[0] if self.head else None
        if self.head:
            h = self.head[0]
            if isinstance(h, Announce) and (state.terrain != h.terrain or s.die != h.die):
                return None
            if isinstance(h, Pick) and s.die != h.die:
                return None
        if s.placed or s.passed:
            if self.passes or tuple(s.placed) != self.hexes[:len(s.placed)] or len(s.placed) >= len(self.hexes):
                return None
            return _places(state.board)[self.hexes[len(s.placed)]]
        if s.shift != self.shift:
            if s.shift and (self.shift * s.shift <= 0 or abs(self.shift) < abs(s.shift)):  # powers go one way
                return None
            return Power(1 if self.shift > s.shift else -1)
        if self.passes:
            return Pass()
        return _places(state.board)[self.hexes[0]] if self.hexes else None


@dataclass
class LineChoice:
    """The lines open to a player now, and whether they are all of them (nothing pruned)."""

    lines: list[Line]
    complete: bool


def sim_copy(state: KingdomState, dice: DiceSource | None = None) -> KingdomState:
    """A copy for simulation: no log, no undo, the future dice from ``dice`` (the state's own when None)."""
    new = KingdomState.__new__(KingdomState)
    new.__dict__.update(state.__dict__)
    new._dice = dice if dice is not None else state._dice.copy()
    new.sheets = [s.copy() for s in state.sheets]
    new.dice = list(state.dice)
    new._undo = [[] for _ in state.players]
    new.log = []
    return new


def fixed_dice(values: Sequence[int]) -> DiceSource:
    """A dice source that rolls ``values`` in order."""
    return DiceSource(tuple(values), None)


def decision_kind(state: KingdomState, player: int) -> str | None:
    """'line' when ``player`` starts or continues a drawing, 'bank' for a ? hex, None when not their move."""
    if player not in state.current_players():
        return None
    s = state.sheets[player]
    if state.phase == DRAW and s.placed_all():
        return "bank"
    return "line"


def best_bank(state: KingdomState, player: int) -> Bank:
    """The criterion worth most on the map now (banking changes nothing else, so this is the best bank)."""
    scores = state.criterion_scores(player)
    return Bank(max(state.criteria, key=lambda c: (scores[c], -state.criteria.index(c))))


def advance(state: KingdomState, player: int, bots: Sequence[GreedyBot | Any],
            record: list[KingdomAction] | None = None) -> None:
    """Play on (chance, other seats, ``player``'s banks) until ``player`` starts a drawing or the game ends."""
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
            continue
        acting = state.current_players()
        if player in acting and decision_kind(state, player) == "line":
            return
        for p in acting:
            act = best_bank(state, p) if p == player else bots[p].act(state, p)
            if p == player and record is not None:
                record.append(act)
            state.apply_fast(p, act)


def rollout(state: KingdomState, player: int, bots: Sequence[GreedyBot], record: list[KingdomAction] | None = None
            ) -> int:
    """Play ``state`` (a sim copy, changed in place) to its end with greedy bots; ``player``'s final total."""
    for b in bots:
        b._want = b._plan = None  # a plan from another rollout must not be taken for this one's
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
            continue
        for p in state.current_players():
            act = bots[p].act(state, p)
            if p == player and record is not None:
                record.append(act)
            state.apply_fast(p, act)
    return state.total(player)


def state_key(state: KingdomState) -> tuple[Any, ...]:
    """What decides the rest of the game from here (two states with one key have the same futures and scores)."""
    sheets = tuple((tuple(s.cells), tuple(s.uses), s.powers, s.spent, s.die, s.shift, tuple(sorted(s.placed)),
                    s.passed, s.questions, sum(pts for _, pts in s.banked)) for s in state.sheets)
    return (sheets, state.turn, state.step, state.active, state.phase, tuple(state.dice), state.terrain,
            state.taken, state.ending, state._dice.used)


def play_line(state: KingdomState, player: int, line: Line, record: list[KingdomAction] | None = None) -> None:
    """Apply a line's moves (unchecked: lines come from the legal choices)."""
    for act in line.moves(state, player):
        if record is not None:
            record.append(act)
        state.apply_fast(player, act)


# ----- listing the lines --------------------------------------------------------------------------------
def _shift_targets(state: KingdomState, player: int) -> list[int]:
    """The net power shifts still reachable this drawing (powers go one way; undoing is not a line)."""
    s = state.sheets[player]
    if not state.params.powers or s.placed:
        return [s.shift]
    avail = s.available
    if s.shift > 0:
        return list(range(s.shift, s.shift + avail + 1))
    if s.shift < 0:
        return list(range(s.shift - avail, s.shift + 1))
    return list(range(-avail, avail + 1))


def _power_moves(now: int, target: int) -> tuple[KingdomAction, ...]:
    step = 1 if target > now else -1
    return tuple(Power(step) for _ in range(abs(target - now)))


def _heads(state: KingdomState, player: int) -> list[tuple[tuple[KingdomAction, ...], int, int, int]]:
    """(moves before the powers, terrain, die, die value already fixed) for each way to fix terrain and die."""
    s = state.sheets[player]
    if state.phase == ANNOUNCE:
        values = sorted(set(state.dice))
        return [((Announce(t, v),), t, v, s.shift) for t in range(1, 7) if s.uses[t] > 0 for v in values]
    if s.die is None:
        out = []
        for v in state.pick_options(player):
            out.append(((Pick(v),), state.pick_terrain(v) or 1, v, s.shift))
        return out
    return [((), state.terrain or 1, s.die, s.shift)]


def _order(board: Board, cells: Sequence[int], group: frozenset[int], start_ok: Sequence[int]) -> list[int]:
    """A legal drawing order for ``group``: a hex that may start, then each next hex touching those before."""
    first = min(h for h in group if h in start_ok)
    order, seen = [first], {first}
    k = 0
    while k < len(order):
        for b in board.nbrs[order[k]]:
            if b in group and b not in seen:
                seen.add(b)
                order.append(b)
        k += 1
    return order


def enumerate_groups(board: Board, cells: Sequence[int], placed: Sequence[int], amount: int,
                     starts: Sequence[int], cap: int) -> list[list[int]] | None:
    """Every group of ``amount`` hexes the drawing may end as (in a legal order), or None past ``cap``."""
    found: set[frozenset[int]] = set()
    base = frozenset(placed)
    if base:
        frontier = [base]
    else:
        frontier = [frozenset([h]) for h in starts]
    seen = set(frontier)
    while frontier:
        nxt: list[frozenset[int]] = []
        for g in frontier:
            if len(g) >= amount:
                found.add(g)
                if len(found) > cap:
                    return None
                continue
            for h in g:
                for b in board.nbrs[h]:
                    if not cells[b] and b not in g:
                        g2 = g | {b}
                        if g2 not in seen:
                            seen.add(g2)
                            nxt.append(g2)
            if len(seen) > 20 * cap:
                return None
        frontier = nxt
    out = []
    for g in sorted(found, key=sorted):
        if base:
            rest = g - base
            order = list(placed)
            have = set(placed)
            while rest:
                h = min(x for x in rest if any(b in have for b in board.nbrs[x]))
                order.append(h)
                have.add(h)
                rest.discard(h)
            out.append(order)
        else:
            out.append(_order(board, cells, g, starts))
    return out


def list_lines(state: KingdomState, player: int, greedy: GreedyBot, options: int, groups: int,
               exhaustive: bool = False) -> LineChoice:
    """The lines worth trying for ``player`` now (``player`` must be starting or continuing a drawing).

    Heuristic mode: the ``options`` best (terrain, die, shift) by the greedy bot's own worth (its choice
    first), each with its greedy group and up to ``groups`` others grown greedily from other first hexes.
    Exhaustive mode (tiny maps): every choice and every group, unless there are too many.
    """
    s = state.sheets[player]
    board = state.board
    planner: Planner = greedy._planner(state, player)
    complete = exhaustive
    if s.placed:  # a drawing under way: only where it goes on
        amount = s.amount or 0
        placed = tuple(s.placed)
        if exhaustive:
            found = enumerate_groups(board, s.cells, s.placed, amount, (), ENUM_CAP)
            if found is not None:
                return LineChoice([Line((), s.shift, tuple(g)) for g in found], True)
            complete = False
        more = planner.extend(state.terrain or 1, amount, s.placed)
        return LineChoice([Line((), s.shift, placed + tuple(more))], complete)
    opts: list[tuple[float, int, tuple[KingdomAction, ...], int, int, int]] = []  # worth, order, head, t, shift, a
    room = planner.room()
    for head, t, v, now in _heads(state, player):
        gains = planner._plan(t, min(6, room))[1] if room else []
        for sh in _shift_targets(state, player):
            a = v + sh
            if not 1 <= a <= 6:
                continue
            worth = gains[a - 1] if a <= min(room, len(gains)) else -1000.0
            opts.append((worth - greedy.power_cost * abs(sh - now), len(opts), head, t, sh, a))
    if not opts:
        return LineChoice([Line((), s.shift, (), True)], True)
    ranked = sorted(opts, key=lambda o: (-o[0], o[1]))  # the greedy bot's own choice first
    if not exhaustive and len(ranked) > options:
        ranked = ranked[:options]
        complete = False
    lines: list[Line] = []
    for _, _, head, t, sh, a in ranked:
        starts = planner.starts(a)
        if not starts:
            lines.append(Line(head, sh, (), True))
            continue
        if exhaustive:
            found = enumerate_groups(board, s.cells, (), a, starts, ENUM_CAP)
            if found is not None:
                lines += [Line(head, sh, tuple(g)) for g in found]
                continue
            complete = False
        lines += [Line(head, sh, tuple(g)) for g in _groups(planner, t, a, starts, groups)]
        if groups < len(starts):
            complete = False
    return LineChoice(lines, complete)


def _groups(planner: Planner, terrain: int, amount: int, starts: Sequence[int], extra: int) -> list[list[int]]:
    """The greedy group, then up to ``extra`` different groups grown greedily from the best other first hexes."""
    first = planner.group(terrain, amount)[0]
    out = [first]
    if extra <= 0 or len(starts) <= 1:
        return out
    sc = planner.scorer
    gain = sc.gains_function(planner.exact)
    cand = [h for h in starts if h != first[0]]
    got = gain(sc, cand, terrain, planner.bonus10)
    ds = got[0] if planner.exact else got
    order = sorted(range(len(cand)), key=lambda k: (-ds[k], cand[k]))
    seen = {frozenset(first)}
    scored: list[tuple[float, int, list[int]]] = []
    for k in order[: 2 * extra]:
        hexes, gains, _ = planner._grow(terrain, amount, [cand[k]], ())
        key = frozenset(hexes)
        if key in seen:
            continue
        seen.add(key)
        scored.append((gains[-1] if gains else 0.0, k, hexes))
    scored.sort(key=lambda x: (-x[0], x[1]))
    out += [h for _, _, h in scored[:extra]]
    return out
