"""The hindsight search: the best score found by a player told every die of the deal in advance.

Beam search over the player's drawings. Each beam state is the game at the start of one of the player's
drawings; every line open there (``lines.list_lines``) is played on a copy with the deal's real dice, and
each child is judged by finishing the game with greedy bots (a real, replayable game, so also a candidate
answer). The best ``width`` children go on. The answer is the best finished game seen — "at least N" points.
On a tiny map every line is listed and, when the beam never had to drop a child, the search covered every
game the player could play: the score is then exact (the tests check it against brute force).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from sheetkit.core.protocol import Bot, HindsightResult
from sheetkit.games.kingdom_maps.bots import GreedyBot
from sheetkit.games.kingdom_maps.lines import advance, list_lines, play_line, rollout, sim_copy, state_key
from sheetkit.games.kingdom_maps.moves import KingdomAction
from sheetkit.games.kingdom_maps.state import KingdomState

WIDTH, OPTIONS, GROUPS = 3, 6, 2  # the beam and the lines per beam state at budget 1.0
SMALL_MAP = 19  # maps this small (a hexagon of radius 2) have every group listed


def _seats(state: KingdomState, player: int, opponents: Sequence[Bot | None] | None) -> list[Any]:
    """The bot of every seat (``player``'s own seat gets a greedy bot, used only to finish rollouts)."""
    out: list[Any] = []
    for p in range(state.num_players):
        given = opponents[p] if opponents is not None and p < len(opponents) else None
        out.append(GreedyBot() if p == player or given is None else copy.deepcopy(given))
    return out


def _copy_bots(bots: Sequence[Any], player: int) -> list[Any]:
    """Independent copies of the other seats' bots (they may keep state); greedy bots are cheap to renew."""
    return [GreedyBot() if isinstance(b, GreedyBot) else copy.deepcopy(b) for b in bots]


def hindsight(state: KingdomState, player: int = 0, opponents: Sequence[Bot | None] | None = None,
              budget: float = 1.0, width: int | None = None, options: int | None = None,
              groups: int | None = None) -> HindsightResult:
    """The best game found for ``player`` knowing every die of ``state``'s deal (``state``: the first state)."""
    width = width if width is not None else max(1, round(WIDTH * budget))
    options = options if options is not None else max(1, round(OPTIONS * min(budget, 2.0)))
    groups = groups if groups is not None else GROUPS
    exhaustive = state.board.size <= SMALL_MAP
    solo = state.num_players == 1  # with opponents, their bots' own state is part of a node too
    lister = GreedyBot()
    root = sim_copy(state)  # the deal's own dice: hindsight is told them
    bots = _seats(state, player, opponents)
    moves: list[KingdomAction] = []
    advance(root, player, bots, moves)
    best_score, best_moves = -1, list(moves)
    complete = True
    beam: list[tuple[KingdomState, list[KingdomAction], list[Any]]] = [(root, moves, bots)]
    while beam:
        children: list[tuple[int, int, KingdomState, list[KingdomAction], list[Any]]] = []
        seen: set[Any] = set()  # children reached twice (another order, group or die to the same sheet) go on once
        for node, done, node_bots in beam:
            if node.is_terminal():
                continue
            choice = list_lines(node, player, lister, options, groups, exhaustive)
            complete = complete and choice.complete
            for line in choice.lines:
                child, child_moves, child_bots = sim_copy(node), list(done), _copy_bots(node_bots, player)
                play_line(child, player, line, child_moves)
                advance(child, player, child_bots, child_moves)
                key = state_key(child) if solo else None
                if key is not None:
                    if key in seen:
                        continue
                    seen.add(key)
                if child.is_terminal():
                    score, full = child.total(player), child_moves
                else:
                    tail: list[KingdomAction] = []
                    score = rollout(sim_copy(child), player, _copy_bots(child_bots, player), tail)
                    full = child_moves + tail
                if score > best_score:
                    best_score, best_moves = score, full
                if not child.is_terminal():
                    children.append((score, len(children), child, child_moves, child_bots))
        children.sort(key=lambda c: (-c[0], c[1]))
        if len(children) > width:
            complete = False
        beam = [(c[2], c[3], c[4]) for c in children[:width]]
    if best_score < 0:  # the game was over before the player had a drawing
        best_score = root.total(player)
    return HindsightResult(best_score, tuple(best_moves), exact=complete)
