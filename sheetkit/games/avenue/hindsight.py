"""Avenue's hindsight search: the best score one player can find when told the whole deal in advance.

Told both decks' order, the rest of a game is a puzzle with no luck left: which cell (or a peek, which
here simply skips a card) for each road card. Small puzzles are solved completely (every line is tried,
so the score is the true optimum). Full games are searched with beams: at each card every kept line
tries its ten most promising cells (by the greedy value) and a peek, each result is finished by a
greedy player who knows the farm order, and the eight lines whose finished games score best (at most
two grown from the same line) go on to the next card. Four beams run, each with its own finishing
player, and the best line of all counts. Every finished line is a real game, so the best one found is
an honest "at least" score, and its moves replay to it. Given ``baseline`` (a game already played on the
deal, say the expert's), the answer is never below that game.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from sheetkit.core.play import step_table
from sheetkit.core.protocol import Bot, HindsightResult
from sheetkit.games.avenue.greedy import W_LATER, W_LOOSE, W_NOW, W_PEEKED
from sheetkit.games.avenue.layout import FARM_LETTERS
from sheetkit.games.avenue.plan import PASS, PEEK, Line, cell_values, to_action, to_move
from sheetkit.games.avenue.state import AvenueState

BEAM = 8              # lines kept per card at budget 1.0, in each of the beams
KEEP = 10             # cells tried per line, the best by the greedy value (0: all)
PER_LINE = 2          # lines kept from any one line, so a beam does not follow a single idea
EXHAUSTIVE = 200_000  # at most this many move sequences: try them all (exact)


# The finishing players that guide the beams. Each is the greedy bot with its weights (this round's farm, the next
# farm, later farms, a network with no farm) told the farm order; None is the greedy bot itself, who does not know
# it. Different players suit different deals, so a beam is run with each and the best line found counts.
Profile = tuple[float, float, float, float] | None
PROFILES: tuple[Profile, ...] = ((W_NOW, W_PEEKED, W_LATER, W_LOOSE), None, (W_NOW, W_PEEKED, 2 * W_LATER, W_LOOSE),
                                 (5.0, W_PEEKED, W_LATER, W_LOOSE))


@functools.lru_cache(maxsize=4096)
def _known_weights(now: str | None, upcoming: tuple[str, ...], profile: tuple[float, float, float, float]
                   ) -> tuple[float, ...]:
    """Weight per farm bitmask when the farm order is known: this round's farm, the next, later ones; unused 0."""
    w_now, w_next, w_later, w_loose = profile
    per_bit = []
    for f in FARM_LETTERS:
        if f == now:
            per_bit.append(w_now)
        elif upcoming and f == upcoming[0]:
            per_bit.append(w_next)
        elif f in upcoming:
            per_bit.append(w_later)
        else:
            per_bit.append(0.0)
    return tuple(sum(w for k, w in enumerate(per_bit) if mask >> k & 1) or w_loose for mask in range(64))


def _weights(line: Line, profile: Profile) -> tuple[float, ...]:
    if profile is None:
        return line.weights()
    rounds_left = line.params.rounds - line.round
    return _known_weights(line.farm, tuple(line.farms[line.fpos:line.fpos + rounds_left]), profile)


def _finish(line: Line, profile: Profile, moves: list[int] | None = None) -> int:
    """Play ``line`` to its end with one finishing player; the final total (its moves appended to ``moves``)."""
    while line.card is not None:
        value, cell = line.best_cell(_weights(line, profile))
        m = PEEK if value <= 0 and line.can_peek() else (cell if cell >= 0 else PASS)
        if moves is not None:
            moves.append(m)
        line.play(m)
    return line.total()


def _best_finish(line: Line, profiles: Sequence[Profile]) -> tuple[int, Profile]:
    """The best final total any of the finishing players makes from ``line``, and which player."""
    best, who = -(10**9), profiles[0]
    for prof in profiles:
        value = _finish(line.copy(), prof)
        if value > best:
            best, who = value, prof
    return best, who


def _decisions(line: Line) -> list[int]:
    """How many moves each remaining card offers at most (empty cells + a peek), card by card."""
    sim = line.copy()
    free = sim.sheet.free
    out = []
    while sim.card is not None:
        out.append(free + 1)
        sim.play(PASS)      # where the cards fall does not depend on the moves
        free = max(0, free - 1)
    return out


def _exhaustive(line: Line) -> tuple[int, list[int]]:
    """Try every line of moves; the best total and its moves."""
    if line.card is None:
        return line.total(), []
    best, best_moves = -(10**9), [PASS]
    for m in line.moves():
        child = line.copy()
        child.play(m)
        value, rest = _exhaustive(child)
        if value > best:
            best, best_moves = value, [m, *rest]
    return best, best_moves


def _options(line: Line, keep: int) -> list[int]:
    """The ``keep`` best cells by the farm-order-aware greedy value, and a peek when allowed (0: every move)."""
    if keep <= 0 or line.card is None:
        return line.moves()
    out = [i for _, i in cell_values(line.sheet, line.card.number, _weights(line, PROFILES[0]))[:keep]]
    if line.can_peek():
        out.append(PEEK)
    return out or [PASS]


def _beam(line: Line, width: int, keep: int, profiles: Sequence[Profile]) -> tuple[int, list[int]]:
    """Beam search guided by the finishing players; the best finished line found."""
    best, who = _best_finish(line, profiles)
    best_moves: list[int] = []
    _finish(line.copy(), who, best_moves)
    beam: list[tuple[Line, list[int]]] = [(line, [])]
    while beam:
        scored: list[tuple[int, int, int, int, Profile]] = []   # (finish value, -order, beam index, move, player)
        order = 0
        for b, (node, _) in enumerate(beam):
            for m in _options(node, keep):
                child = node.copy()
                child.play(m)
                value, prof = _best_finish(child, profiles)
                scored.append((value, -order, b, m, prof))
                order += 1
        scored.sort(key=lambda x: x[:2], reverse=True)
        nxt: list[tuple[Line, list[int]]] = []
        seen: set[tuple[Any, ...]] = set()
        kids = [0] * len(beam)
        for value, _, b, m, prof in scored:
            if kids[b] >= PER_LINE:
                continue
            node, moves = beam[b]
            child = node.copy()
            child.play(m)
            key = (tuple(child.sheet.roads), child.peeked)
            if key in seen:
                continue
            seen.add(key)
            if value > best:
                rest: list[int] = []
                _finish(child.copy(), prof, rest)
                best, best_moves = value, [*moves, m, *rest]
            if child.card is not None:
                nxt.append((child, [*moves, m]))
                kids[b] += 1
            if len(nxt) >= width:
                break
        beam = nxt
    return best, best_moves


def _replay(line: Line, moves: Sequence[int]) -> int | None:
    """The final total of ``moves`` played on a copy of ``line``; None when they do not fit (not legal, too few)."""
    sim = line.copy()
    for m in moves:
        if sim.over() or m not in sim.moves():
            return None
        sim.play(m)
    return sim.total() if sim.over() else None


def hindsight(state: AvenueState, player: int = 0, opponents: Sequence[Bot | None] | None = None,
              budget: float = 1.0, baseline: Sequence[Any] | None = None) -> HindsightResult:
    """The best score found for ``player`` knowing the whole deal of ``state`` (a game not yet begun or under way).

    Avenue's sheets never touch, so ``opponents`` cannot change this player's score and are not consulted.
    Small games are searched completely (``exact=True``); full games by beam search (an "at least" score).
    ``baseline``: ``player``'s moves of a game played on this deal (e.g. the expert's); never scored below.
    """
    if budget <= 0:
        raise ValueError(f"budget must be positive, not {budget}")
    start = state.clone()
    step_table(start)
    if start.is_terminal():
        return HindsightResult(start.total(player), (), exact=True)
    if start.acted[player] is not None:
        raise ValueError("the player has already acted on the face-up card")
    line = Line.from_state(start, player)
    sizes = _decisions(line)
    lines = 1
    for s in sizes:
        lines *= s
        if lines > EXHAUSTIVE * budget:
            break
    if lines <= EXHAUSTIVE * budget:
        score, moves = _exhaustive(line)
        exact = True
    else:
        # One beam per finishing player: each explores where its own player does well, and the deals where
        # one beam is misled are rarely the deals where all four are.
        score, moves = -(10**9), []
        for profile in PROFILES:
            found, line_moves = _beam(line, max(1, round(BEAM * budget)), KEEP, [profile])
            if found > score:
                score, moves = found, line_moves
        exact = False
    cols = state.geo.cols
    if baseline is not None and not exact:
        given = [to_move(a, cols) for a in baseline]
        got = _replay(line, given)
        if got is not None and got > score:
            score, moves = got, given
    return HindsightResult(score, tuple(to_action(m, cols) for m in moves), exact=exact)
