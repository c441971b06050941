"""The Kingdom Maps greedy bot as it was before issue #8 (full re-scoring of every candidate hex).

The frozen baseline of ``tests/test_kingdom_bot_golden.py``: ``tests/kingdom_greedy_golden.py`` recorded its
moves into ``tests/data/kingdom_greedy_golden.json``, and the test asks it and today's bot for moves on the same
states. ``benchmarks/engine_bench.py`` times it against today's bot. Not imported by the library. Frozen copy of
``sheetkit/games/kingdom_maps/bots.py`` at commit 6470f38; the docstring below is the original one.

Kingdom Maps bots: random, and greedy (the best score gain this drawing, hex by hex).

The greedy bot grows each group one hex at a time, always taking the hex that raises the
criteria in play the most (ties: the hex touching the most drawn hexes, which keeps the map
compact). Because it is greedy hex by hex, the group it would draw for amount k is the start of
the group for amount k + 1 — so one plan per terrain values every die and every power spend.
Bots read only what their player could see: the sheets, the dice on the table, the criteria.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sheetkit.core.chance import make_rng
from sheetkit.games.kingdom_maps.board import Board
from sheetkit.games.kingdom_maps.criteria import CRITERIA
from sheetkit.games.kingdom_maps.moves import Announce, Bank, KingdomAction, Pass, Pick, Place, Power
from sheetkit.games.kingdom_maps.phases import ANNOUNCE
from sheetkit.games.kingdom_maps.placement import empty_patches, largest_room, next_hexes, start_hexes
from sheetkit.games.kingdom_maps.state import KingdomState

Value = Callable[[Sequence[int]], float]
NO_ROOM = -1000.0  # what drawing nothing (and ending the game) is worth to the greedy bot


class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "random"

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = make_rng(seed)

    def act(self, state: KingdomState, player: int) -> KingdomAction:
        acts = state.legal_actions(player)
        return acts[int(self.rng.integers(len(acts)))]


def criteria_value(state: KingdomState) -> Value:
    """What the greedy bot maximises: the criteria in play (with their bot hints), as a function of a map."""
    board = state.board
    fns = [CRITERIA[c].guide for c in state.criteria]

    def value(cells: Sequence[int]) -> float:
        return sum(f(board, cells) for f in fns)

    return value


def greedy_group(board: Board, cells: Sequence[int], terrain: int, amount: int, value: Value,
                 bonus: Sequence[float], group: Sequence[int] = ()) -> tuple[list[int], list[float]]:
    """Grow a group of ``terrain`` hex by hex up to ``amount``; returns (hexes, gain after each hex).

    ``group`` is what is already drawn this drawing (the plan continues it); ``bonus`` adds a
    value per hex (powers, ? hexes). The gain list starts after the given group.
    """
    work = list(cells)
    grp = list(group)
    base = value(work)
    extra = 0.0
    if grp:
        cand = next_hexes(board, work, grp)
    else:
        cand = start_hexes(board, work, amount, empty_patches(board, work))
    nbrs = board.nbrs
    gains: list[float] = []
    while len(grp) < amount and cand:
        best, best_key, best_v = -1, (-1e18, 0), 0.0
        for h in cand:
            work[h] = terrain
            v = value(work) + bonus[h]
            work[h] = 0
            key = (v, sum(1 for b in nbrs[h] if work[b]))
            if key > best_key:
                best, best_key, best_v = h, key, v - bonus[h]
        work[best] = terrain
        extra += bonus[best]
        grp.append(best)
        gains.append(best_v + extra - base)
        cand = next_hexes(board, work, grp)
    return grp[len(group):], gains


class GreedyBot:
    """Chooses terrain, die, powers and hexes for the biggest immediate gain; banks its best criterion."""

    name = "greedy"

    def __init__(self, seed: int | None = 0, power_cost: float = 1.0, power_value: float = 1.0,
                 question_weight: float = 1.0) -> None:
        self.seed = seed
        self.power_cost, self.power_value, self.question_weight = power_cost, power_value, question_weight
        self._want: tuple[Any, int] | None = None  # (drawing key, wanted power shift)
        self._plan: tuple[Any, list[int]] | None = None  # (drawing key, hexes to draw in order)

    # ----- helpers -----------------------------------------------------------------------
    def _bonus(self, state: KingdomState, player: int) -> list[float]:
        board = state.board
        q = 0.0
        if state.params.questions and state.criteria:
            q = self.question_weight * max(state.criterion_scores(player).values())
        p = self.power_value if state.params.powers else 0.0
        return [(p if board.is_power[i] else 0.0) + (q if board.is_question[i] else 0.0) for i in range(board.size)]

    def _shifts(self, state: KingdomState, player: int) -> range:
        avail = state.sheets[player].available if state.params.powers else 0
        return range(-avail, avail + 1)

    def _options(self, state: KingdomState, player: int, terrain: int, dice: Sequence[int],
                 value: Value, bonus: Sequence[float]) -> list[tuple[float, int, int]]:
        """(worth, die, shift) for each die and power spend, from one greedy plan."""
        cells = state.sheets[player].cells
        shifts = self._shifts(state, player)
        top = max(min(6, v + max(shifts)) for v in dice)
        room = largest_room(state.board, cells)
        _, gains = greedy_group(state.board, cells, terrain, min(top, room), value, bonus)
        out = []
        for v in dice:
            for sh in shifts:
                a = v + sh
                if not 1 <= a <= 6:
                    continue
                worth = gains[a - 1] if a <= len(gains) else NO_ROOM
                out.append((worth - self.power_cost * abs(sh), v, sh))
        return out

    @staticmethod
    def _best(options: list[tuple[Any, ...]]) -> tuple[Any, ...]:
        """The first option with the highest worth (options are (worth, ...) tuples)."""
        best = options[0]
        for o in options[1:]:
            if o[0] > best[0] + 1e-9:
                best = o
        return best

    # ----- decisions ---------------------------------------------------------------------
    def act(self, state: KingdomState, player: int) -> KingdomAction:
        s = state.sheets[player]
        key = (state.turn, state.step)
        if state.phase == ANNOUNCE:
            value = criteria_value(state)
            bonus = self._bonus(state, player)
            dice = sorted(set(state.dice))
            options = []
            for t in range(1, 7):
                if s.uses[t] > 0:
                    options += [(w, t, v, sh) for w, v, sh in self._options(state, player, t, dice, value, bonus)]
            _, t, v, sh = self._best(options)
            self._want = (key, sh)
            return Announce(t, v)
        if s.die is None:
            value = criteria_value(state)
            bonus = self._bonus(state, player)
            options = []
            for v in state.pick_options(player):
                if state.solo:
                    rest = list(state.dice)
                    rest.remove(v)
                    opts = self._options(state, player, rest[0], [v], value, bonus)
                else:
                    opts = self._options(state, player, state.terrain or 1, [v], value, bonus)
                options += opts
            _, v, sh = self._best(options)
            self._want = (key, sh)
            return Pick(v)
        if s.placed_all():
            scores = state.criterion_scores(player)
            return Bank(max(state.criteria, key=lambda c: (scores[c], -state.criteria.index(c))))
        if not s.placed:
            want = self._want[1] if self._want is not None and self._want[0] == key else 0
            if state.params.powers and s.available > 0 and s.shift != want:
                step = 1 if want > s.shift else -1
                act = Power(step)
                if act in state.legal_actions(player):
                    return act
            hexes = state.legal_hex_numbers(player)
            if not hexes:
                return Pass()
        plan = self._plan[1] if self._plan is not None and self._plan[0] == key else None
        k = len(s.placed)
        if plan is None or plan[:k] != s.placed or len(plan) <= k:
            value = criteria_value(state)
            bonus = self._bonus(state, player)
            # Continue the hexes already drawn this drawing.
            more, _ = greedy_group(state.board, s.cells, state.terrain or 1, s.amount or 0, value, bonus,
                                   group=s.placed)
            plan = list(s.placed) + more
            self._plan = (key, plan)
        h = plan[k]
        return Place(*state.board.coords[h])
