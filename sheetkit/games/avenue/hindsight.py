"""Avenue's hindsight search: the best score one player can find when told the whole deal in advance.

Told both decks' order, the rest of a game is a puzzle with no luck left: which cell (or a peek, which
here simply skips a card) for each road card. Small puzzles are solved completely (every line is tried,
so the score is the true optimum). Full games are searched with a beam: at each card every kept line
tries its ten most promising cells (by the greedy value) and a peek, each result is finished by a
greedy player who also knows the farm order, and the best eight lines by that finished score go on to
the next card. Every finished line is a real game, so
the best one found is an honest "at least" score, and its moves replay to it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from sheetkit.core.play import step_table
from sheetkit.core.protocol import Bot, HindsightResult
from sheetkit.games.avenue.greedy import W_LATER, W_LOOSE, W_NOW, W_PEEKED
from sheetkit.games.avenue.layout import FARM_LETTERS
from sheetkit.games.avenue.plan import PASS, PEEK, Line, cell_values, to_action
from sheetkit.games.avenue.state import AvenueState

BEAM = 8              # lines kept per card at budget 1.0
KEEP = 10             # cells tried per line, the best by the greedy value (0: all)
EXHAUSTIVE = 200_000  # at most this many move sequences: try them all (exact)


@functools.lru_cache(maxsize=4096)
def _known_weights(now: str | None, upcoming: tuple[str, ...]) -> tuple[float, ...]:
    """Weight per farm bitmask when the farm order is known: this round's farm, the next, later ones; unused 0."""
    per_bit = []
    for f in FARM_LETTERS:
        if f == now:
            per_bit.append(W_NOW)
        elif upcoming and f == upcoming[0]:
            per_bit.append(W_PEEKED)
        elif f in upcoming:
            per_bit.append(W_LATER)
        else:
            per_bit.append(0.0)
    return tuple(sum(w for k, w in enumerate(per_bit) if mask >> k & 1) or W_LOOSE for mask in range(64))


def _line_weights(line: Line) -> tuple[float, ...]:
    rounds_left = line.params.rounds - line.round
    return _known_weights(line.farm, tuple(line.farms[line.fpos:line.fpos + rounds_left]))


def _known_move(line: Line) -> int:
    """The greedy move of a player who knows the farm order (a peek skips a card that helps nowhere)."""
    value, cell = line.best_cell(_line_weights(line))
    if value <= 0 and line.can_peek():
        return PEEK
    return cell if cell >= 0 else PASS


def _finish(line: Line, moves: list[int] | None = None) -> int:
    """Play ``line`` to its end with the farm-order-aware greedy player; the final total (moves appended)."""
    while line.card is not None:
        m = _known_move(line)
        if moves is not None:
            moves.append(m)
        line.play(m)
    return line.total()


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
    out = [i for _, i in cell_values(line.sheet, line.card.number, _line_weights(line))[:keep]]
    if line.can_peek():
        out.append(PEEK)
    return out or [PASS]


def _beam(line: Line, width: int, keep: int = 0) -> tuple[int, list[int]]:
    """Beam search guided by farm-order-aware greedy finishes; the best finished line found."""
    first: list[int] = []
    best = _finish(line.copy(), first)
    best_moves = first
    beam: list[tuple[Line, list[int]]] = [(line, [])]
    while beam:
        scored: list[tuple[int, int, int, int]] = []   # (finish value, -order, beam index, move)
        order = 0
        for b, (node, _) in enumerate(beam):
            for m in _options(node, keep):
                child = node.copy()
                child.play(m)
                scored.append((_finish(child), -order, b, m))
                order += 1
        scored.sort(reverse=True)
        nxt: list[tuple[Line, list[int]]] = []
        seen: set[tuple[Any, ...]] = set()
        for value, _, b, m in scored:
            node, moves = beam[b]
            child = node.copy()
            child.play(m)
            key = (tuple(child.sheet.roads), child.peeked)
            if key in seen:
                continue
            seen.add(key)
            if value > best:
                rest: list[int] = []
                _finish(child.copy(), rest)
                best, best_moves = value, [*moves, m, *rest]
            if child.card is not None:
                nxt.append((child, [*moves, m]))
            if len(nxt) >= width:
                break
        beam = nxt
    return best, best_moves


def hindsight(state: AvenueState, player: int = 0, opponents: Sequence[Bot | None] | None = None,
              budget: float = 1.0) -> HindsightResult:
    """The best score found for ``player`` knowing the whole deal of ``state`` (a game not yet begun or under way).

    Avenue's sheets never touch, so ``opponents`` cannot change this player's score and are not consulted.
    Small games are searched completely (``exact=True``); full games by beam search (an "at least" score).
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
        score, moves = _beam(line, max(1, round(BEAM * budget)), KEEP)
        exact = False
    cols = state.geo.cols
    return HindsightResult(score, tuple(to_action(m, cols) for m in moves), exact=exact)
