"""Key Harvest's hindsight bound: the best score one seat was found to reach when told the whole deal.

The bound for a 2–4 player game with hidden information (docs/key_harvest.md §The hindsight bound): the seat
is told **the bag's order and every other player's counters** in advance, and plays against **the
same opponents, who play as they would** (the given bots, each a fresh copy, so their choices — and
their dice, for a random bot — are the ones they would make in a real game). It cannot change how
they play, only its own moves.

How it searches, knowing everything:

- **Rollout improvement** over a known line: at each of its decisions it plays every candidate
  (the expert's list) out to the end with the greedy bot in its own seat and copies of the real
  opponents in theirs. Those playouts are exact (nothing is sampled), so each is a whole game it could
  play; it keeps the best such game found so far (at first the greedy bot's game on the deal, or
  ``baseline`` — a game already played on the deal, say the expert's — when that scores more) and
  follows it until a candidate's game ends higher. So the line it plays never ends below the greedy
  bot's game nor the baseline's.
- **Exhaustively** at the very end: once every player has at most one turn left, every sequence of
  its own moves (every bid mix included) is tried against the opponents' replies, up to a node limit.
  When that search runs from the start of the given state and completes, the result is ``exact``.

The score is the final score of the line actually played against the real opponents, so it is a
score reached — "at least this much" — and ``actions`` replay to it on the same deal.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from itertools import product
from typing import Any

from sheetkit.core.chance import derive_seed
from sheetkit.core.errors import IllegalAction
from sheetkit.core.protocol import Bot, HindsightResult
from sheetkit.games.key_harvest import board as B
from sheetkit.games.key_harvest.bots import GreedyBot
from sheetkit.games.key_harvest.expert import expert_candidates
from sheetkit.games.key_harvest.moves import Bid, Harvest, KeyHarvestAction
from sheetkit.games.key_harvest.search import RolloutBot
from sheetkit.games.key_harvest.state import KeyHarvestState

NODES = 4000  # decisions the exhaustive end search may visit at budget 1.0


class _TooBig(Exception):
    """The exhaustive search hit its node limit."""


def all_moves(state: KeyHarvestState, player: int) -> list[KeyHarvestAction]:
    """Every move ``player`` may make now: ``legal_actions`` with every affordable bid mix, one harvest per group."""
    out: list[KeyHarvestAction] = []
    seen_groups: set[int] = set()
    bid_codes: list[str] = []
    for a in state.legal_actions(player):
        if isinstance(a, Harvest):
            g = B.component(B.BIT[a.code], state._up[player])
            if g not in seen_groups:
                seen_groups.add(g)
                out.append(a)
        elif isinstance(a, Bid):
            if a.code not in bid_codes:
                bid_codes.append(a.code)
        else:
            out.append(a)
    if bid_codes:  # (the mixes run to tens of thousands with many counters: list them only when bidding)
        mixes = [m for m in product(*(range(k + 1) for k in state.counters[player])) if sum(m)]
        out += [Bid(code, tuple(m)) for code in bid_codes for m in mixes]  # type: ignore[arg-type]
    return out


def count_moves(state: KeyHarvestState, player: int) -> int:
    """How many moves ``all_moves`` would list, without listing them (the bid mixes multiply)."""
    others, bid_codes, groups = 0, set(), set()
    for a in state.legal_actions(player):
        if isinstance(a, Harvest):
            groups.add(B.component(B.BIT[a.code], state._up[player]))
        elif isinstance(a, Bid):
            bid_codes.add(a.code)
        else:
            others += 1
    mixes = 1
    for k in state.counters[player]:
        mixes *= k + 1
    return others + len(groups) + len(bid_codes) * (mixes - 1)


def _seat_bots(state: KeyHarvestState, player: int, opponents: Sequence[Bot | None] | None) -> list[Any]:
    n = state.num_players
    if opponents is None:
        return [None if q == player else GreedyBot(seed=derive_seed(state.seed, "bot", q)) for q in range(n)]
    if len(opponents) != n:
        raise ValueError(f"opponents: one entry per seat ({n}), None at the player's own")
    return [None if q == player else copy.deepcopy(opponents[q]) for q in range(n)]


def _fork(b: Any) -> Any:
    """A bot that will play on exactly as ``b`` would from here (a copy, keeping a random bot's dice as they are)."""
    if type(b) in (GreedyBot, RolloutBot):
        return b  # its moves depend on the state alone (it never rolls its dice): no copy needed
    return copy.deepcopy(b)


def _rollout_copy(bots: list[Any]) -> list[Any]:
    # A slow bot (the expert) is stood in for by greedy in the playouts.
    return [RolloutBot() if b is None or getattr(b, "slow", False) else _fork(b) for b in bots]


def _to_me(state: KeyHarvestState, player: int, bots: list[Any]) -> None:
    """Let the table and the opponents move until ``player`` decides or the game is over (in place)."""
    while state.phase != "over":
        if state.is_chance_node():
            state.apply_chance()
            continue
        q = state.current_players()[0]
        if q == player:
            return
        state.apply_fast(q, bots[q].act(state, q))


def _exhaustive(state: KeyHarvestState, player: int, bots: list[Any], limit: int) -> tuple[int, list[Any]]:
    """The best final score of ``player`` over every sequence of its moves (the opponents as they play)."""
    count = [0]

    def best(s: KeyHarvestState, bs: list[Any]) -> tuple[int, list[Any]]:
        _to_me(s, player, bs)
        if s.phase == "over":
            return s.total(player), []
        # Every move of a node is tried, so a node wider than what is left of the limit fails anyway:
        # fail before listing it (a bid's counter mixes can run to tens of thousands).
        if count[0] + count_moves(s, player) > limit:
            raise _TooBig
        top: tuple[int, list[Any]] | None = None
        for a in all_moves(s, player):
            count[0] += 1
            if count[0] > limit:
                raise _TooBig
            child, cbs = s.clone(), [_fork(b) for b in bs]
            child.apply_fast(player, a)
            v, rest = best(child, cbs)
            if top is None or v > top[0]:
                top = (v, [a, *rest])
        assert top is not None
        return top

    return best(state, bots)


def _near_end(state: KeyHarvestState) -> bool:
    return state.final_turns_left is not None and state.final_turns_left <= state.num_players


def _finish(trial: KeyHarvestState, player: int, bots: list[Any], mine: list[Any]) -> int:
    """Play ``trial`` to its end in place with ``bots``; ``player``'s moves go to ``mine``; its final score."""
    while trial.phase != "over":
        if trial.is_chance_node():
            trial.apply_chance()
            continue
        q = trial.current_players()[0]
        a = bots[q].act(trial, q)
        if q == player:
            mine.append(a)
        trial.apply_fast(q, a)
    return trial.total(player)


def _replay(trial: KeyHarvestState, player: int, bots: list[Any], line: Sequence[Any]) -> int | None:
    """``player``'s final score when it plays ``line`` in ``trial`` (checked); None when the line does not fit."""
    todo = iter(line)
    while trial.phase != "over":
        if trial.is_chance_node():
            trial.apply_chance()
            continue
        q = trial.current_players()[0]
        if q != player:
            trial.apply_fast(q, bots[q].act(trial, q))
            continue
        a = next(todo, None)
        if a is None:
            return None
        try:
            trial.apply(player, a)
        except IllegalAction:
            return None
    return None if next(todo, None) is not None else trial.total(player)


def _fits(state: KeyHarvestState, player: int, line: list[Any]) -> bool:
    """Whether ``line``'s first move is legal for ``player`` now."""
    if not line:
        return False
    try:
        state.clone().apply(player, line[0])
    except IllegalAction:
        return False
    return True


def hindsight(state: KeyHarvestState, player: int, opponents: Sequence[Bot | None] | None = None,
              budget: float = 1.0, baseline: Sequence[KeyHarvestAction] | None = None) -> HindsightResult:
    """Told the bag order and the others' counters, the best final score ``player`` was found to reach
    against ``opponents`` (a bot per seat, None at ``player``'s; default greedy bots), with its moves.

    ``baseline``: ``player``'s moves of a game played on this deal against the same opponents (e.g. the
    expert's); the line found never ends below it (nor below the greedy bot's game)."""
    s = state.clone()
    bots = _seat_bots(s, player, opponents)
    me = RolloutBot()
    limit = max(100, round(NODES * budget))
    actions: list[Any] = []
    searched = False
    tried_turn = -1
    known: tuple[int, list[Any]] | None = None   # the best whole game found from here: its score, our moves
    if baseline is not None:
        got = _replay(s.clone(), player, _rollout_copy(bots), baseline)
        if got is not None:
            known = (got, list(baseline))
    while True:
        _to_me(s, player, bots)
        if s.phase == "over":
            break
        if _near_end(s) and s.turn != tried_turn:
            tried_turn = s.turn  # one try per turn: within a turn the tree shrinks little
            try:
                _, line = _exhaustive(s.clone(), player, [_fork(b) for b in bots], limit)
            except _TooBig:
                pass
            else:
                # Play the best line against the real opponents (the same replies the search saw).
                for a in line:
                    _to_me(s, player, bots)
                    s.apply_fast(player, a)
                    actions.append(a)
                _to_me(s, player, bots)
                return HindsightResult(s.total(player), tuple(actions), exact=not searched)
        searched = True
        if known is None or not _fits(s, player, known[1]):
            # The greedy bot's game from here (the known game can stop fitting only when a slow opponent
            # played otherwise than its stand-in in the playouts).
            tbots = _rollout_copy(bots)
            tbots[player] = me
            greedy: list[Any] = []
            known = (_finish(s.clone(), player, tbots, greedy), greedy)
        if len(s.legal_actions(player)) > 1:
            for a in expert_candidates(s, player, s, me):
                trial, tbots = s.clone(), _rollout_copy(bots)
                trial.apply_fast(player, a)
                tbots[player] = me
                rest: list[Any] = [a]
                v = _finish(trial, player, tbots, rest)
                if v > known[0]:
                    known = (v, rest)
        move = known[1].pop(0)
        s.apply_fast(player, move)
        actions.append(move)
    return HindsightResult(s.total(player), tuple(actions), exact=not searched)
