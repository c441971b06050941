"""The Kingdom Maps expert: whole drawings tried against sampled dice, each finished by greedy rollouts.

At the start of each drawing the expert lists a few lines (``lines.list_lines``: the greedy bot's best
terrain/die/power choices, each with its greedy group and groups grown from other first hexes), then plays
each line on copies of the game whose future dice it samples itself (it never reads the game's own dice to
come), finishing every copy with greedy bots. The same sampled dice serve every line (paired comparison), and
sequential halving spends the rollouts on the lines still in the running. It then draws the winning line hex
by hex, and banks each ? hex on the criterion worth most at that moment (banking changes nothing else).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from sheetkit.core.chance import derive_seed, make_rng
from sheetkit.games.kingdom_maps.bots import GreedyBot
from sheetkit.games.kingdom_maps.lines import (
    Line,
    best_bank,
    decision_kind,
    fixed_dice,
    list_lines,
    play_line,
    rollout,
    sim_copy,
)
from sheetkit.games.kingdom_maps.moves import KingdomAction
from sheetkit.games.kingdom_maps.state import KingdomState

DICE_PER_SAMPLE = 240  # more than any game rolls from one decision on (4 players: 18 turns x 3 dice, then some)


class ExpertBot:
    """Determinized rollouts over whole drawings, greedy bots finishing each game (the ``expert`` bot)."""

    name = "expert"
    slow = True

    def __init__(self, seed: int | None = 0, budget: float = 1.0, options: int = 5, groups: int = 1,
                 rollouts: int = 40) -> None:
        self.seed = 0 if seed is None else seed
        self.budget = budget
        self.options, self.groups = options, groups
        self.rollouts = max(1, round(rollouts * budget))
        self._greedy = GreedyBot()  # lists lines and prices them (its planner per map)
        self._bots: list[GreedyBot] = []  # the rollouts' bots, one per seat
        self._line: tuple[Any, Line] | None = None  # (drawing key, the line being drawn)

    # ----- what the expert may see -------------------------------------------------------------------
    def _samples(self, state: KingdomState, player: int, n: int) -> np.ndarray:
        """``n`` sampled dice futures, seeded by the expert's seed and what the table shows (never the game's dice)."""
        seen = "|".join([str(state.turn), str(state.step), str(player), str(state.active), str(state.dice),
                         str(state.terrain), str(state.taken)]
                        + [f"{s.cells}{s.uses}{s.powers}{s.spent}{s.die}{s.shift}{s.placed}" for s in state.sheets])
        rng = make_rng(derive_seed(self.seed, "kingdom-expert", seen))
        return rng.integers(1, 7, size=(n, DICE_PER_SAMPLE))

    def _rollout_bots(self, n: int) -> list[GreedyBot]:
        while len(self._bots) < n:
            self._bots.append(GreedyBot())
        return self._bots[:n]

    def _value(self, state: KingdomState, player: int, line: Line | None, first: KingdomAction | None,
               dice: np.ndarray) -> int:
        """One rollout: ``first`` (or the whole ``line``) on a copy with these future dice, then greedy bots."""
        sim = sim_copy(state, fixed_dice(dice.tolist()))
        if line is not None:
            play_line(sim, player, line)
        elif first is not None:
            sim.apply_fast(player, first)
        return rollout(sim, player, self._rollout_bots(state.num_players))

    def line_values(self, state: KingdomState, player: int, lines: Sequence[Line]) -> list[float]:
        """Each line's mean final score over sampled dice; sequential halving gives the best lines most samples.

        The rollouts (``self.rollouts``) are shared out evenly between the rounds; each round gives every line
        still in the running the same new samples, then keeps the better half.
        """
        n_lines = len(lines)
        rounds = max(1, (n_lines - 1).bit_length())
        totals = [0.0] * n_lines
        counts = [0] * n_lines
        active = list(range(n_lines))
        plan = []
        for _ in range(rounds):
            plan.append(max(1, self.rollouts // (rounds * len(active))))
            active = active[: max(1, (len(active) + 1) // 2)]
        samples = self._samples(state, player, sum(plan))
        active = list(range(n_lines))
        used = 0
        for per in plan:
            for k in active:
                for j in range(used, used + per):
                    totals[k] += self._value(state, player, lines[k], None, samples[j])
                counts[k] += per
            used += per
            active.sort(key=lambda k: (-totals[k] / counts[k], k))
            active = active[: max(1, (len(active) + 1) // 2)]
            if len(active) == 1:
                break
        return [totals[k] / counts[k] if counts[k] else float("-inf") for k in range(n_lines)]

    # ----- the Bot protocol -------------------------------------------------------------------------
    def act(self, state: KingdomState, player: int) -> KingdomAction:
        kind = decision_kind(state, player)
        if kind == "bank":
            return best_bank(state, player)
        key = (id(state.board), state.turn, state.step, player, tuple(state.sheets[player].uses))
        if self._line is not None and self._line[0] == key:
            move = self._line[1].next_move(state, player)
            if move is not None:
                return move
        choice = list_lines(state, player, self._greedy, self.options, self.groups)
        lines = choice.lines
        if len(lines) == 1:
            best = lines[0]
        else:
            values = self.line_values(state, player, lines)
            best = lines[max(range(len(lines)), key=lambda k: (values[k], -k))]
        move = best.next_move(state, player)
        assert move is not None
        # the key after the announce crosses out a use: remember the line under the key it will meet next
        after = sim_copy(state, fixed_dice(()))  # only to see the key after this move: no dice needed
        after.apply_fast(player, move)
        self._line = ((id(state.board), after.turn, after.step, player, tuple(after.sheets[player].uses)), best)
        return move

    def evaluate(self, state: KingdomState, player: int, actions: Sequence[KingdomAction]) -> list[float]:
        """For each action: the mean final score of its best line (or of greedy play after it) over sampled dice."""
        n = max(2, round(8 * self.budget))
        samples = self._samples(state, player, n)
        lines: list[Line] = []
        if decision_kind(state, player) == "line":
            lines = list_lines(state, player, self._greedy, self.options, self.groups).lines
        out = []
        for a in actions:
            best = sum(self._value(state, player, None, a, samples[j]) for j in range(n)) / n
            for line in lines:
                if line.next_move(state, player) == a:
                    v = sum(self._value(state, player, line, None, samples[j]) for j in range(n)) / n
                    best = max(best, v)
            out.append(best)
        return out
