"""Avenue bots: random, greedy (one-card lookahead on network values), a Monte Carlo planner, the expert.

Bots read only what their player could see: the sheets, the flipped cards and their own peek.
The planner samples the unseen cards (the deck's composition minus what was flipped) — it never
reads the deck's real order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sheetkit.core.bots import RandomBot
from sheetkit.core.chance import make_rng
from sheetkit.core.play import play_out
from sheetkit.games.avenue.expert import ExpertBot
from sheetkit.games.avenue.greedy import GreedyBot
from sheetkit.games.avenue.moves import AvenueAction, Pass, Peek
from sheetkit.games.avenue.state import AvenueState


class MonteCarloBot:
    """Tries the greedy bot's best few moves (and a peek) in sampled futures; keeps the best on average."""

    name = "montecarlo"

    def __init__(self, seed: int | None = 0, candidates: int = 4, rollouts: int = 6) -> None:
        self.rng = make_rng(seed)
        self.candidates, self.rollouts = candidates, rollouts
        self.greedy = GreedyBot()

    def _sample(self, state: AvenueState, player: int) -> AvenueState:
        """A one-player copy with the unseen cards shuffled (what this player cannot know).

        The unseen cards are put in a canonical (sorted) order before shuffling, so the sample
        depends only on which cards are unseen — public knowledge — never on their real order.
        """
        sim = state.solo_clone(player)
        rest = sorted(sim.road_deck.order()[sim.road_deck._pos:])
        sim.road_deck.replace_rest([rest[k] for k in self.rng.permutation(len(rest))])
        farms = sim.farm_deck.order()[sim.farm_deck._pos:]
        keep = 1 if state.peeked[player] and farms else 0  # a peeked top card is known
        tail = sorted(farms[keep:])
        sim.farm_deck.replace_rest(farms[:keep] + [tail[k] for k in self.rng.permutation(len(tail))])
        return sim

    def act(self, state: AvenueState, player: int) -> AvenueAction:
        ranked = self.greedy.ranked(state, player)
        options: list[AvenueAction] = [a for _, a in ranked[: self.candidates]]
        if state.can_peek(player):
            options.append(Peek())
        if not options:
            return Pass()
        if len(options) == 1:
            return options[0]
        bots = [self.greedy]
        totals = np.zeros(len(options))
        for _ in range(self.rollouts):
            base = self._sample(state, player)
            for k, a in enumerate(options):
                sim = base.clone()
                sim.apply_fast(0, a)
                play_out(sim, bots, fast=True)
                totals[k] += sim.total(0)
        return options[int(np.argmax(totals))]


BOTS: dict[str, Any] = {"random": RandomBot, "greedy": GreedyBot, "montecarlo": MonteCarloBot, "expert": ExpertBot}
