"""Kingdom Maps bots: random, and greedy (the best score gain this drawing, hex by hex).

The greedy bot grows each group one hex at a time, always taking the hex that raises the
criteria in play the most (ties: the hex touching the most drawn hexes, which keeps the map
compact). Because it is greedy hex by hex, the group it would draw for amount k is the start of
the group for amount k + 1 — so one plan per terrain values every die and every power spend.
Bots read only what their player could see: the sheets, the dice on the table, the criteria.

Speed (issue #8, issue 17): the greedy bot no longer rescores the whole map for every candidate hex: its
``planner.Planner`` grows the groups; the bot keeps one planner per map (announce, pick and drawing share it; a
later map updates the last one hex by hex; every seat's blank map with the same criteria shares one) and
works out an announce's options once for all six terrains. Its moves are exactly the old ones
(``tests/test_kingdom_bot_golden.py``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import compress
from operator import ne
from typing import Any

from sheetkit.core.bots import RandomBot
from sheetkit.core.errors import IllegalAction
from sheetkit.games.kingdom_maps.board import Board
from sheetkit.games.kingdom_maps.criteria import CRITERIA
from sheetkit.games.kingdom_maps.fastscore import MapScorer
from sheetkit.games.kingdom_maps.moves import Announce, Bank, KingdomAction, Pass, Pick, Power
from sheetkit.games.kingdom_maps.phases import ANNOUNCE
from sheetkit.games.kingdom_maps.placement import patches_after
from sheetkit.games.kingdom_maps.planner import Planner, _places
from sheetkit.games.kingdom_maps.state import KingdomState

__all__ = ["BOTS", "GreedyBot", "Planner", "RandomBot", "criteria_value"]

Value = Callable[[Sequence[int]], float]
NO_ROOM = -1000.0  # what drawing nothing (and ending the game) is worth to the greedy bot
_BLANK_PLANNERS: dict[tuple[Any, ...], Planner] = {}  # (board, criteria, bonuses) -> the blank map's planner
_BONUS_LISTS: dict[tuple[Board, float, float], list[float]] = {}  # (board, power value, ? value) -> bonus per hex


def criteria_value(state: KingdomState) -> Value:
    """The greedy bot's aim as a function of a whole map: the criteria in play with their bot hints.

    The bot itself scores hexes incrementally (``fastscore.MapScorer``); this full version is the reference.
    """
    board = state.board
    fns = [CRITERIA[c].guide for c in state.criteria]

    def value(cells: Sequence[int]) -> float:
        return sum(f(board, cells) for f in fns)

    return value


class GreedyBot:
    """Chooses terrain, die, powers and hexes for the biggest immediate gain; banks its best criterion."""

    name = "greedy"

    def __init__(self, seed: int | None = 0, power_cost: float = 1.0, power_value: float = 1.0,
                 question_weight: float = 1.0) -> None:
        self.seed = seed
        self.power_cost, self.power_value, self.question_weight = power_cost, power_value, question_weight
        self._want: tuple[Any, int] | None = None  # (drawing key, wanted power shift)
        self._plan: tuple[Any, list[int]] | None = None  # (drawing key, hexes to draw in order)
        self._planned: tuple[Any, Planner] | None = None  # (map and bonus, its planner)

    # ----- helpers -----------------------------------------------------------------------
    def _bonus(self, state: KingdomState, scores: dict[str, int] | None) -> list[float]:
        """What drawing each hex is worth besides the criteria: a power, or a ? (the best criterion now; 0 with
        ``scores`` None, when no ? hex is left empty)."""
        board = state.board
        q = 0.0
        if scores is not None and state.params.questions and state.criteria:
            q = self.question_weight * max(scores.values())
        p = self.power_value if state.params.powers else 0.0
        key = (board, p, q)
        got = _BONUS_LISTS.get(key)  # shared by every game's bots: the lists are never changed, so their tenths
        if got is None:  # (``_tenfold``) are made once
            if len(_BONUS_LISTS) > 256:
                _BONUS_LISTS.clear()
            # = (p if a power else 0.0) + (q if a ? else 0.0) per hex: 0.0 + x is x, to the last bit
            got = [0.0] * board.size
            for i in board.powers:
                got[i] += p
            for i in board.questions:
                got[i] += q
            _BONUS_LISTS[key] = got
        return got

    def _shifts(self, state: KingdomState, player: int) -> range:
        avail = state.sheets[player].available if state.params.powers else 0
        return range(-avail, avail + 1)

    def _planner(self, state: KingdomState, player: int) -> Planner:
        """The planner for ``player``'s map as it is now (kept while the map and the bonus stay the same)."""
        cells = state.sheets[player].cells
        # The bonus is a function of these (and of the bot's own weights); the planner keeps its own copy of the map.
        key = (state.board, state.criteria, state.params.powers, state.params.questions)
        if self._planned is None or self._planned[0] != key or self._planned[1].cells != cells:
            scorer = last = patches = None
            if self._planned is not None and self._planned[0] == key:
                # The same map a few hexes later: bring the last planner's tables up to date.
                old = self._planned[1].cells
                drawn = list(compress(range(len(cells)), map(ne, old, cells)))  # the hexes that differ, found in C
                last = self._planned[1]
                if not any(old[h] for h in drawn):
                    # The last planner is dropped now: its tables can be taken over, unless every blank map shares it.
                    scorer = last.scorer.copy() if last.blank_map else last.scorer
                    for h in drawn:
                        scorer.place(h, cells[h])
                    patches = patches_after(state.board, cells, last.patches, drawn)
            if scorer is None:
                scorer = MapScorer(state.board, cells, state.criteria)
            # The scores set what a ? hex is worth; once every ? hex is drawn that worth is read nowhere (the
            # bonus of an empty hex is then the same for any ? worth), so they are left until a bank asks.
            scores = scorer.scores() if any(not cells[i] for i in state.board.questions) else None
            bonus = self._bonus(state, scores)  # = state.criterion_scores(player), when asked for
            if any(cells):
                planner = Planner(state.board, cells, state.criteria, bonus, scorer, patches)
                if last is not None:  # its scratch copy too (same board and criteria): it is refilled at each group
                    planner._scratch = last._scratch
            else:
                # Every blank map with these criteria and bonuses is planned alike (the other seats' first
                # turn, later games with the same criteria): one shared planner, its plans made once.
                blank_key = (state.board, state.criteria, tuple(bonus))
                planner = _BLANK_PLANNERS.get(blank_key)  # type: ignore[assignment]
                if planner is None:
                    planner = _BLANK_PLANNERS[blank_key] = Planner(state.board, cells, state.criteria, bonus, scorer)
                    if len(_BLANK_PLANNERS) > 256:
                        del _BLANK_PLANNERS[next(iter(_BLANK_PLANNERS))]
            planner.scores = scores  # banking on this map reads them again
            self._planned = (key, planner)
        return self._planned[1]

    def _options(self, dice: Sequence[int], planner: Planner, shifts: range) -> tuple[int, list[tuple[Any, ...]]]:
        """(the amount to plan for, each option in scan order: (hexes, power cost, die, shift)) for these dice.

        Only shifts that would leave 1–6 hexes are options. The same for every terrain an announce looks at.
        """
        amount = min(min(6, max(dice) + shifts.stop - 1), planner.room())
        cost = self.power_cost
        lo, hi = shifts.start, shifts.stop
        return amount, [(v + sh, cost * abs(sh), v, sh) for v in dice for sh in range(max(lo, 1 - v), min(hi, 7 - v))]

    def _scan(self, terrain: int, amount: int, options: list[tuple[Any, ...]], planner: Planner,
              best: tuple[float, int, int, int] | None) -> tuple[float, int, int, int] | None:
        """``best`` (worth, terrain, die, shift) after this terrain's ``options`` (``_options``), in order.

        An option replaces ``best`` only when it is worth more by 1e-9, so over a whole scan the first option
        with the highest worth wins.
        """
        gains = planner._plan(terrain, amount)[1]  # = planner.group(terrain, amount)[1], without copying it
        room = min(len(gains), amount)
        top = -math.inf if best is None else best[0] + 1e-9  # what an option must beat
        for a, cost, v, sh in options:
            worth = (gains[a - 1] if a <= room else NO_ROOM) - cost
            if worth > top:
                best = (worth, terrain, v, sh)
                top = worth + 1e-9
        return best

    # ----- decisions ---------------------------------------------------------------------
    def act(self, state: KingdomState, player: int) -> KingdomAction:
        s = state.sheets[player]
        key = (state.turn, state.step)
        if state.phase == ANNOUNCE:
            planner = self._planner(state, player)
            amount, options = self._options(sorted(set(state.dice)), planner, self._shifts(state, player))
            best: tuple[float, int, int, int] | None = None
            for t in range(1, 7):
                if s.uses[t] > 0:
                    best = self._scan(t, amount, options, planner, best)
            assert best is not None
            _, t, v, sh = best
            self._want = (key, sh)
            return Announce(t, v)
        if s.die is None:
            planner = self._planner(state, player)
            shifts = self._shifts(state, player)
            best = None
            for v in state.pick_options(player):
                terrain = state.pick_terrain(v) or 1
                best = self._scan(terrain, *self._options([v], planner, shifts), planner, best)
            assert best is not None
            _, _, v, sh = best
            self._want = (key, sh)
            return Pick(v)
        if s.placed_all():
            # = state.criterion_scores(player); the planner is the one the next turn starts from
            planner = self._planner(state, player)
            scores = planner.scores if planner.scores is not None else planner.scorer.scores()
            return Bank(max(state.criteria, key=lambda c: (scores[c], -state.criteria.index(c))))
        if not s.placed:
            want = self._want[1] if self._want is not None and self._want[0] == key else 0
            if state.params.powers and s.available > 0 and s.shift != want:
                step = 1 if want > s.shift else -1
                act = Power(step)
                try:
                    state.check(player, act)  # = act in state.legal_actions(player), without listing the hexes
                    return act
                except IllegalAction:
                    pass
            if not self._planner(state, player)._start_set(s.amount or 0)[1]:  # = state.legal_hex_numbers(player)
                return Pass()
        plan = self._plan[1] if self._plan is not None and self._plan[0] == key else None
        k = len(s.placed)
        if plan is None or plan[:k] != s.placed or len(plan) <= k:
            planner = self._planner(state, player)
            terrain, amount = state.terrain or 1, s.amount or 0
            # Continue the hexes already drawn this drawing.
            more = planner.extend(terrain, amount, s.placed) if s.placed else planner.group(terrain, amount)[0]
            plan = list(s.placed) + more
            self._plan = (key, plan)
        return _places(state.board)[plan[k]]


BOTS: dict[str, Any] = {"random": RandomBot, "greedy": GreedyBot}
