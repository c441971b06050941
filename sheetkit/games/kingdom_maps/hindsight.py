"""The hindsight search: the best score found by a player told every die of the deal in advance.

Beam search over the player's drawings. Each beam state is the game at the start of one of the player's
drawings; every line open there (``lines.list_lines``) is played on a copy with the deal's real dice, and
each child is judged by finishing the game with greedy bots (a real, replayable game, so also a candidate
answer). The best ``width`` children go on. The answer is the best finished game seen — "at least N" points.
On a tiny map every line is listed and, when the beam never had to drop a child, the search covered every
game the player could play: the score is then exact (the tests check it against brute force).

The beam is seeded with a known game — ``baseline``, the player's moves of a game already played on this
deal (say the expert's), or else the greedy bot's game: that game's position at the start of each drawing
joins the beam of that drawing, and its final score is the first answer. So the search never ends below
the game it was given (a one-game judge of each child alone could drop the expert's line on the way).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from sheetkit.core.protocol import Bot, HindsightResult
from sheetkit.games.kingdom_maps.bots import GreedyBot
from sheetkit.games.kingdom_maps.lines import (
    advance,
    decision_kind,
    list_lines,
    play_line,
    rollout,
    sim_copy,
    state_key,
)
from sheetkit.games.kingdom_maps.moves import Bank, KingdomAction
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


Node = tuple[KingdomState, list[KingdomAction], list[Any]]


def _follow(root: KingdomState, player: int, bots: list[Any], moves: list[KingdomAction],
            baseline: Sequence[KingdomAction]) -> tuple[list[Node], int, list[KingdomAction]] | None:
    """Replay ``baseline`` from ``root`` (a drawing's start): its node at each later drawing, its score, its moves.

    Its banks are replaced by the best bank (a bank changes nothing but its own points, so the game can only
    score more). None when the baseline does not fit this deal (a move it lacks or one left over).
    """
    node, done, node_bots = sim_copy(root), list(moves), _copy_bots(bots, player)
    wanted = iter([a for a in baseline if not isinstance(a, Bank)])
    nodes: list[Node] = []
    while not node.is_terminal():
        nodes.append((sim_copy(node), list(done), _copy_bots(node_bots, player)))
        while player in node.current_players() and decision_kind(node, player) == "line":
            act = next(wanted, None)
            if act is None:
                return None
            done.append(act)
            node.apply_fast(player, act)
        advance(node, player, node_bots, done)
    if next(wanted, None) is not None:
        return None
    return nodes, node.total(player), done


def hindsight(state: KingdomState, player: int = 0, opponents: Sequence[Bot | None] | None = None,
              budget: float = 1.0, width: int | None = None, options: int | None = None,
              groups: int | None = None, baseline: Sequence[KingdomAction] | None = None) -> HindsightResult:
    """The best game found for ``player`` knowing every die of ``state``'s deal (``state``: the first state).

    ``baseline``: ``player``'s moves of a game played on this deal against the same opponents (e.g. the
    expert's); the answer is never below its score. Without one, the greedy bot's game is the baseline.
    """
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
    if baseline is None:
        baseline = []
        rollout(sim_copy(root), player, _copy_bots(bots, player), baseline)
    followed = _follow(root, player, bots, moves, baseline)
    seeds: list[Node] = []
    if followed is not None:
        seeds, best_score, best_moves = followed[0][1:], followed[1], followed[2]
    complete = True
    beam: list[Node] = [(root, moves, bots)]
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
        if seeds:  # the baseline's next drawing goes on too, unless the beam already holds its position
            seed = seeds.pop(0)
            if not solo or state_key(seed[0]) not in {state_key(b[0]) for b in beam}:
                beam.append(seed)
    if best_score < 0:  # the game was over before the player had a drawing
        best_score = root.total(player)
    return HindsightResult(best_score, tuple(best_moves), exact=complete)
