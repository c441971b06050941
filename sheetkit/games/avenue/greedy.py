"""Avenue's greedy bot: draws where the new road adds the most weighted grapes now.

It reads only what its player could see: the sheets, the flipped cards and its own peek. It is also the
rollout policy of the Monte Carlo planner and of the expert (``bots.py``, ``expert.py``).
"""

from __future__ import annotations

import functools

from sheetkit.games.avenue.layout import FARM_LETTERS
from sheetkit.games.avenue.moves import AvenueAction, Draw, Pass, Peek
from sheetkit.games.avenue.state import AvenueState

# Weights of the greedy evaluation: a grape on the network of the farm scored this round is worth
# most, then one on a farm the bot peeked, then on any farm still to come; castles count their colour.
W_NOW, W_PEEKED, W_LATER, W_CASTLE = 3.0, 2.0, 1.0, 1.0
# Grapes on a network with no farm yet may still be joined to one; a road on a farm is a start.
W_LOOSE, W_ANCHOR = 0.2, 1.0


def _farm_weights(state: AvenueState, player: int) -> tuple[float, ...]:
    """Weight per farm bitmask (index = mask of farms on a network)."""
    scored = frozenset(state.round_farms[:-1]) if state.round_farms else frozenset()
    peeked = state.seen_farm[player] if state.peeked[player] else None
    return _weights_table(scored, state.farm, peeked, state.params.rounds - state.round,
                          max(1, state.farm_deck.remaining()))


# The table changes only when a farm is flipped or peeked, yet the bot asks for it on every card:
# a small cache makes the greedy bot about twice as fast (docs/performance.md).
@functools.lru_cache(maxsize=512)
def _weights_table(scored: frozenset[str], now: str | None, peeked: str | None, rounds_left: int,
                   unseen: int) -> tuple[float, ...]:
    later = W_LATER * min(1.0, rounds_left / unseen)
    per_bit = []
    for f in FARM_LETTERS:
        if f == now:
            per_bit.append(W_NOW)
        elif f in scored:
            per_bit.append(0.0)
        elif f == peeked:
            per_bit.append(W_PEEKED)
        else:
            per_bit.append(later)
    return tuple(sum(w for k, w in enumerate(per_bit) if mask >> k & 1) or W_LOOSE for mask in range(64))


class GreedyBot:
    """Draws where the road adds the most weighted grapes now; peeks when no cell helps."""

    name = "greedy"

    def __init__(self, seed: int | None = 0) -> None:
        self.seed = seed

    def ranked(self, state: AvenueState, player: int) -> list[tuple[float, AvenueAction]]:
        """Every draw with its gain, best first (ties: the least valuable cell, then reading order)."""
        sheet = state.sheets[player]
        road = state.card.number  # type: ignore[union-attr]
        fw = _farm_weights(state, player)
        g, pur, grn, fm, cm = sheet.g, sheet.pur, sheet.grn, sheet.fmask, sheet.cmask
        geo = sheet.geo
        out: list[tuple[float, float, int]] = []
        for i in range(geo.size):
            if sheet.roads[i]:
                continue
            mg, mp, mgr, mf, mc, roots = sheet.preview(i, road)
            value = (mg * fw[mf] + W_ANCHOR * fw[geo.farm_bit[i]] * (geo.farm_bit[i] > 0)
                     + W_CASTLE * ((mp if mc & 1 else 0) + (mgr if mc & 2 else 0)))
            for r in roots:
                c = cm[r]
                value -= g[r] * fw[fm[r]] + W_CASTLE * ((pur[r] if c & 1 else 0) + (grn[r] if c & 2 else 0))
            # Cost of using up a cell: what it could have been worth later.
            cell_worth = geo.grapes[i] + 3 * bool(geo.farm_bit[i] or geo.castle_bit[i])
            out.append((value, -0.01 * cell_worth, i))
        out.sort(key=lambda t: (-t[0], -t[1], t[2]))
        cols = geo.cols
        return [(v + tie, Draw(*divmod(i, cols))) for v, tie, i in out]

    def act(self, state: AvenueState, player: int) -> AvenueAction:
        ranked = self.ranked(state, player)
        if (not ranked or ranked[0][0] <= 0) and state.can_peek(player):
            return Peek()
        return ranked[0][1] if ranked else Pass()
