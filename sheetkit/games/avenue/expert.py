"""Avenue's expert bot: determinized greedy rollouts, with the rollouts shared out by successive halving.

For each card the expert takes the greedy bot's best few draws (and a peek, when allowed), deals the
cards it cannot see in random orders (only which cards are left is public, never their order), and
plays every candidate out to the end of the game with the greedy policy on the same deals. Rather than
giving every candidate the same number of games, it plays a first batch, drops the worse half, plays
more games for the rest, and so on (successive halving): the close calls get most of the games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from sheetkit.core.chance import derive_seed, make_rng
from sheetkit.games.avenue.cards import RoadCard
from sheetkit.games.avenue.greedy import GreedyBot
from sheetkit.games.avenue.moves import AvenueAction, Pass
from sheetkit.games.avenue.plan import PASS, PEEK, Line, to_action, to_move
from sheetkit.games.avenue.state import AvenueState

CANDIDATES = 8          # the greedy bot's best draws the expert considers (plus a peek)
ROLLOUTS = 240          # rollouts per decision at budget 1.0, shared out by successive halving
EVAL_ROLLOUTS = 24      # rollouts per action in evaluate() at budget 1.0


class ExpertBot:
    """Plays each candidate move out on sampled deals with the greedy policy; the best average wins."""

    name = "expert"
    slow = True

    def __init__(self, seed: int | None = 0, budget: float = 1.0, candidates: int = CANDIDATES) -> None:
        if budget <= 0:
            raise ValueError(f"budget must be positive, not {budget}")
        self.seed = 0 if seed is None else int(seed)
        self.budget, self.candidates = budget, candidates
        self.greedy = GreedyBot()

    # ----- what the seat may see ---------------------------------------------------------
    def _rng(self, state: AvenueState, player: int) -> np.random.Generator:
        """A generator fixed by the seed and the public position, so a position always gets the same move."""
        sheet = "".join(map(str, state.sheets[player].roads))
        return make_rng(derive_seed(self.seed, "expert", state.road_deck._pos, state.round, sheet,
                                    int(state.peeked[player])))

    def _deals(self, state: AvenueState, player: int, rng: np.random.Generator, n: int) -> list[Line]:
        """``n`` starting lines with the unseen cards in random orders (sorted first: their order is never read)."""
        rd, fd = state.road_deck, state.farm_deck
        roads: list[RoadCard] = sorted(rd.order()[rd._pos:])
        farms = fd.order()[fd._pos:]
        keep = 1 if state.peeked[player] and farms else 0  # the peeked top farm is known to this player
        known, tail = farms[:keep], sorted(farms[keep:])
        base = Line.from_state(state, player, roads=roads, farms=farms)
        out = []
        for _ in range(n):
            line = base.copy()
            line.roads = [roads[k] for k in rng.permutation(len(roads))]
            line.farms = known + [tail[k] for k in rng.permutation(len(tail))]
            out.append(line)
        return out

    # ----- search --------------------------------------------------------------------------
    def _options(self, state: AvenueState, player: int) -> list[int]:
        """The greedy bot's best draws, then a peek when allowed."""
        cols = state.geo.cols
        opts = [to_move(a, cols) for _, a in self.greedy.ranked(state, player)[: self.candidates]]
        if state.can_peek(player):
            opts.append(PEEK)
        return opts or [PASS]

    def _halving(self, state: AvenueState, player: int, options: list[int]) -> int:
        """Successive halving over ``options``; the index of the survivor."""
        rng = self._rng(state, player)
        total = max(len(options), int(ROLLOUTS * self.budget))
        rounds = max(1, int(np.ceil(np.log2(len(options)))))
        sums = np.zeros(len(options))
        counts = np.zeros(len(options))
        alive = list(range(len(options)))
        while True:
            per = max(1, total // (rounds * len(alive)))
            for line in self._deals(state, player, rng, per):
                for k in alive:
                    sim = line.copy()
                    sim.play(options[k])
                    sums[k] += sim.finish_greedy()
                    counts[k] += 1
            if len(alive) == 1:
                return alive[0]
            alive.sort(key=lambda k: (-sums[k] / counts[k], k))
            alive = alive[: (len(alive) + 1) // 2]
            if len(alive) == 1:
                return alive[0]

    def act(self, state: AvenueState, player: int) -> AvenueAction:
        options = self._options(state, player)
        if len(options) == 1:
            return to_action(options[0], state.geo.cols) if options[0] != PASS else Pass()
        return to_action(options[self._halving(state, player, options)], state.geo.cols)

    def evaluate(self, state: AvenueState, player: int, actions: Sequence[Any]) -> list[float]:
        """The expected final score after each action: greedy play-outs on the same sampled deals."""
        if not actions:
            return []
        cols = state.geo.cols
        moves = [to_move(a, cols) for a in actions]
        n = max(1, int(EVAL_ROLLOUTS * self.budget))
        sums = [0.0] * len(moves)
        for line in self._deals(state, player, self._rng(state, player), n):
            for k, m in enumerate(moves):
                sim = line.copy()
                sim.play(m)
                sums[k] += sim.finish_greedy()
        return [s / n for s in sums]
