"""Key Harvest's expert bot: determinized rollouts with the greedy bot, over a pruned list of candidates.

For each decision it lists sensible candidates (``expert_candidates``: the bots' moves, with the bids
narrowed to the best registry tiles and a few sizes and crop mixes, workers and choices cut by a quick
one-move look), samples what its seat cannot see (``determinize``), and plays every candidate on for
``HORIZON`` turns on the same sampled deals with greedy bots in every seat (``search``). It picks the
candidate with the best mean *margin* (its estimated score minus the best other one): Key Harvest is
won against the others, not against a par. ``evaluate`` plays any list of legal moves to the end and
gives the mean final score of the player after each. Everything is seeded: the same seed and state
give the same move; budgets count playouts, never seconds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from sheetkit.core.chance import derive_seed
from sheetkit.games.key_harvest import board as B
from sheetkit.games.key_harvest.bots import pay_from
from sheetkit.games.key_harvest.crops import Counters, unit
from sheetkit.games.key_harvest.determinize import hidden_pool, sample
from sheetkit.games.key_harvest.moves import (
    Bid,
    Buy,
    Choose,
    EndTurn,
    Harvest,
    KeyHarvestAction,
    PlaceWorker,
    RemoveWorker,
)
from sheetkit.games.key_harvest.search import RolloutBot, rollout_values, static_value
from sheetkit.games.key_harvest.state import DECLINE, KeyHarvestState

ROLLOUTS = 24  # playouts per decision at budget 1.0
HORIZON = 8  # turns each playout of a decision runs before the position is valued (None: to the end)
TOP_TILES = 2  # registry tiles whose bids are searched
TOP_WORKERS = 3  # worker placements kept after the one-move look
TOP_CHOICES = 5  # answers to a pending decision kept after the one-move look


def _settle_own(state: KeyHarvestState, player: int, bot: RolloutBot) -> None:
    """Answer ``player``'s own follow-up questions (a Gleaner's crop…) the greedy way, for a one-move look."""
    for _ in range(8):
        if not state.queue or state.queue[0]["player"] != player:
            return
        state.apply_fast(player, bot.act(state, player))


def _look(world: KeyHarvestState, player: int, action: KeyHarvestAction, bot: RolloutBot) -> float:
    s = world.clone()
    s.apply_fast(player, action)
    _settle_own(s, player, bot)
    return static_value(s, player)


def _best_by_look(world: KeyHarvestState, player: int, actions: list[KeyHarvestAction], keep: int,
                  bot: RolloutBot) -> list[KeyHarvestAction]:
    if len(actions) <= keep:
        return actions
    scored = sorted(((-_look(world, player, a, bot), i) for i, a in enumerate(actions)))
    return [actions[i] for _, i in sorted(scored[:keep], key=lambda t: t[1])]


def _bids(state: KeyHarvestState, player: int, bids: list[Bid], bot: RolloutBot) -> list[KeyHarvestAction]:
    """A few bids for the best registry tiles: sizes 1, 2, 3 and half the screen, and 1–2 counters of the crop
    the others hold least of (a bid they cannot match keeps the tile safe in the store)."""
    codes = sorted({b.code for b in bids}, key=lambda c: (-bot.gain(state, player, c), c))[:TOP_TILES]
    mine = state.counters[player]
    total = sum(mine)
    pool = hidden_pool(state, player)
    held = [c for c in range(5) if mine[c]]
    scarce = min(held, key=lambda c: (pool[c], -mine[c], c)) if held else None
    out: list[KeyHarvestAction] = []
    for code in codes:
        mixes: list[Counters] = [pay_from(mine, n) for n in sorted({1, 2, 3, total // 2}) if 1 <= n <= total]
        if scarce is not None:
            mixes += [unit(scarce, k) for k in (1, 2) if k <= mine[scarce]]
        for m in dict.fromkeys(mixes):
            out.append(Bid(code, m))
    return out


def expert_candidates(state: KeyHarvestState, player: int, world: KeyHarvestState,
                      bot: RolloutBot) -> list[KeyHarvestAction]:
    """The moves the expert searches among now (all legal), the greedy bot's own choice always included."""
    legal = state.legal_actions(player)
    if len(legal) <= 1:
        return legal
    greedy = bot.act(world, player)
    if state.queue:
        kind = state.queue[0]["kind"]
        if kind == "sale":
            codes = sorted({a.value for a in legal if a.value != DECLINE},
                           key=lambda c: (-bot.gain(state, player, c), c))[:TOP_TILES + 1]
            pay = pay_from(state.counters[player], 3)
            opts: list[KeyHarvestAction] = [Choose(c, pay) for c in codes]
            opts += [Choose(DECLINE)]
        else:
            opts = _best_by_look(world, player, list(legal), TOP_CHOICES, bot)
            if Choose(DECLINE) in legal:
                opts.append(Choose(DECLINE))
        return [a for a in dict.fromkeys([greedy, *opts]) if a in legal]
    groups: dict[int, Harvest] = {}
    workers: list[KeyHarvestAction] = []
    removes: list[KeyHarvestAction] = []
    buys: list[KeyHarvestAction] = []
    bids: list[Bid] = []
    up = state._up[player]
    for a in legal:
        if isinstance(a, Harvest):
            groups.setdefault(B.component(B.BIT[a.code], up), a)
        elif isinstance(a, PlaceWorker):
            workers.append(a)
        elif isinstance(a, RemoveWorker):
            removes.append(a)
        elif isinstance(a, Buy):
            buys.append(a)
        elif isinstance(a, Bid):
            bids.append(a)
    out2: list[KeyHarvestAction] = [greedy, EndTurn(), *groups.values(), *buys]
    out2 += _best_by_look(world, player, workers, TOP_WORKERS, bot)
    out2 += _best_by_look(world, player, removes, 1, bot)
    if bids:
        out2 += _bids(state, player, bids, bot)
    return list(dict.fromkeys(out2))


class ExpertBot:
    """Searches sampled deals with greedy rollouts; ``budget`` scales the rollouts per decision."""

    name = "expert"
    slow = True

    def __init__(self, seed: int | None = 0, budget: float = 1.0, rollouts: int | None = None,
                 horizon: int | None = HORIZON) -> None:
        self.seed = 0 if seed is None else int(seed)
        self.budget = budget
        self.horizon = horizon
        self.rollouts = max(2, round((rollouts or ROLLOUTS) * budget))
        self.bot = RolloutBot()

    def _rng(self, state: KeyHarvestState, player: int, salt: str) -> random.Random:
        # Seeded by what the seat sees of the moment, never by the hidden parts: same seed + state → same move.
        return random.Random(derive_seed(self.seed, salt, player, state.turn, len(state.journal),
                                         len(state.turn_moves)))

    def act(self, state: KeyHarvestState, player: int) -> KeyHarvestAction:
        """The candidate with the best mean margin over the sampled deals."""
        rng = self._rng(state, player, "act")
        legal = state.legal_actions(player)
        if len(legal) == 1:
            return legal[0]
        world = sample(state, player, rng)
        cands = expert_candidates(state, player, world, self.bot)
        if len(cands) == 1:
            return cands[0]
        ests = rollout_values(state, player, cands, self.rollouts, rng, self.bot, horizon=self.horizon)
        most = max(e.n for e in ests)
        best = max((e for e in ests if e.n == most), key=lambda e: e.utility)
        return best.action

    def evaluate(self, state: KeyHarvestState, player: int, actions: Sequence[Any]) -> list[float]:
        """For each legal move of ``player`` in ``actions``: the mean final score after it, over sampled deals."""
        keys: dict[Any, int] = {}
        uniq: list[KeyHarvestAction] = []
        index = []
        up = state._up[player]
        for a in actions:
            key: Any = ("harvest", B.component(B.BIT[a.code], up)) if isinstance(a, Harvest) else a
            if key not in keys:
                keys[key] = len(uniq)
                uniq.append(a)
            index.append(keys[key])
        if not uniq:
            return []
        rng = self._rng(state, player, "evaluate")
        ests = rollout_values(state, player, uniq, max(self.rollouts, 2 * len(uniq)), rng, self.bot,
                              halving=False)
        return [ests[i].score for i in index]

