"""Determinized search for Key Harvest: try each candidate move on sampled deals, play on with greedy bots.

One *determinization* is a full game state with the unseen drawn at random (``determinize.sample``).
A candidate move is scored on a determinization by applying it and playing on with the greedy bot
in every seat (the fast path) — to the end, or for a few turns (a *horizon*) after which
``static_value`` estimates the position; the same determinizations serve every candidate (common
random numbers), so their differences are not swamped by the luck of the draw. The candidates share
the playouts in rounds of successive halving: after each round the worse half is dropped.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sheetkit.games.key_harvest import board as B
from sheetkit.games.key_harvest.bots import GreedyBot
from sheetkit.games.key_harvest.determinize import sample
from sheetkit.games.key_harvest.moves import KeyHarvestAction
from sheetkit.games.key_harvest.state import KeyHarvestState
from sheetkit.games.key_harvest.workers import WORKERS

_POINTS: dict[tuple[int, int, int], int] = {}  # (tiles, multipliers) → group points, shared by every rollout


class RolloutBot(GreedyBot):
    """The greedy bot with its group values remembered (rollouts value the same boards again and again)."""

    name = "greedy-rollout"

    def _points(self, state: KeyHarvestState, mask: int) -> int:  # type: ignore[override]
        prm = state.params
        key = (mask, prm.largest_mult, prm.second_mult)
        v = _POINTS.get(key)
        if v is None:
            if len(_POINTS) > 500_000:
                _POINTS.clear()
            a, b = B.two_largest(mask)
            v = _POINTS[key] = a * prm.largest_mult + b * prm.second_mult
        return v


def play_on(state: KeyHarvestState, bot: GreedyBot, until_turn: int | None = None) -> KeyHarvestState:
    """Play ``state`` on with ``bot`` in every seat (fast path) to the end, or until turn ``until_turn`` begins."""
    while state.phase != "over":
        if state.queue:
            p = state.queue[0]["player"]
        elif state.phase == "act":
            if until_turn is not None and state.turn >= until_turn:
                break
            p = state.active
        else:
            state.apply_chance()
            continue
        state.apply_fast(p, bot.act(state, p))
    return state


def static_value(state: KeyHarvestState, player: int) -> float:
    """A quick estimate of what ``player``'s position is worth now (used to prune candidates, not to pick)."""
    prm = state.params
    tiles = state._tiles[player]
    largest, second = B.two_largest(tiles)
    workers = sum(WORKERS[w].value for w in state.workers_on[player].values())
    stored = 0.0
    for code, _, _ in state.stores[player]:
        a, b = B.two_largest(tiles | B.BIT[code])
        stored += 0.6 * (a * prm.largest_mult + b * prm.second_mult - largest * prm.largest_mult
                         - second * prm.second_mult)
    up = state._up[player].bit_count()
    return (largest * prm.largest_mult + second * prm.second_mult + workers + stored
            + (state.owned_counters(player) + 0.4 * up) / prm.counters_per_point)


def margin(state: KeyHarvestState, player: int) -> float:
    """``player``'s final score minus the best other score, plus half a point for a win (ties: by counters);
    before the end, the same on ``static_value`` estimates."""
    if state.phase != "over":
        values = [static_value(state, q) for q in range(state.num_players)]
        return values[player] - max(v for q, v in enumerate(values) if q != player)
    scores = state.scores()
    mine = scores[player]
    best = max(s for q, s in enumerate(scores) if q != player)
    return mine - best + (0.5 if state.placings()[player] == 1 else 0.0)


def own_value(state: KeyHarvestState, player: int) -> float:
    """``player``'s final score, or its ``static_value`` estimate before the end."""
    return state.total(player) if state.phase == "over" else static_value(state, player)


@dataclass
class Estimate:
    """What the rollouts said of one candidate: mean final score and mean utility over ``n`` deals."""

    action: KeyHarvestAction
    score: float = 0.0
    utility: float = 0.0
    n: int = 0


def rollout_values(state: KeyHarvestState, player: int, actions: Sequence[KeyHarvestAction], rollouts: int,
                   rng: random.Random, bot: GreedyBot,
                   utility: Callable[[KeyHarvestState, int], float] = margin,
                   halving: bool = True, horizon: int | None = None) -> list[Estimate]:
    """Estimates for ``actions`` (legal for ``player`` now) from about ``rollouts`` games played out in all.

    With ``halving`` the rollouts come in rounds, each round's share spread over the candidates still in,
    and the worse half stops after each round (its estimates rest on fewer deals); without it every
    candidate gets the same deals, at least one. A ``horizon`` stops each playout after that many turns
    and values the position with ``static_value`` instead of the final score.
    """
    ests = [Estimate(a) for a in actions]
    if not actions:
        return ests
    alive = list(range(len(actions)))
    rounds = max(1, (len(actions) - 1).bit_length()) if halving else 1
    share = rollouts / rounds
    for r in range(rounds):
        deals = max(1, round(share / len(alive)))
        for _ in range(deals):
            world = sample(state, player, rng)
            for i in alive:
                s = world.clone()
                s.apply_fast(player, actions[i])
                play_on(s, bot, None if horizon is None else state.turn + horizon)
                e = ests[i]
                e.score += own_value(s, player)
                e.utility += utility(s, player)
                e.n += 1
        if r < rounds - 1 and len(alive) > 1:
            alive.sort(key=lambda i: -ests[i].utility / ests[i].n)
            alive = alive[: max(1, (len(alive) + 1) // 2)]
    for e in ests:
        e.score /= e.n
        e.utility /= e.n
    return ests
