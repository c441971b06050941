"""Key Harvest analysis: what each registry tile is worth to each player now, and the two-groups trade-off.

Everything here reads the public table only (boards, workers, registry, stores) and the scoring
rule of the game's params: 1 point per tile of the largest group and 2 per tile of the second
(``largest_mult``, ``second_mult``). Counters are secret and a tile does not change them, so a
tile's worth is the change of the group points, less a worker it would displace.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sheetkit.games.key_harvest import board as B
from sheetkit.games.key_harvest.workers import WORKERS


def group_points(tiles: list[str], largest_mult: int, second_mult: int) -> int:
    """Group points of a set of field tiles: largest × largest_mult + second largest × second_mult."""
    a, b = B.two_largest(B.mask_of(tiles))
    return a * largest_mult + b * second_mult


def tile_worth(state: Any, player: int, code: str) -> int:
    """Points ``code`` would add to ``player``'s score if it went onto their board now."""
    prm = state.params
    tiles = state.tiles_of(player)
    if code in tiles:
        return 0
    gain = group_points([*tiles, code], prm.largest_mult, prm.second_mult) - group_points(
        tiles, prm.largest_mult, prm.second_mult)
    wid = state.workers_on[player].get(code)
    # a worker standing on the space is displaced (it may be re-placed, but that is not certain)
    return gain - (WORKERS[wid].value if wid else 0)


@dataclass(frozen=True)
class TileRow:
    """One tile on offer: where it lies, what it costs now (a store's bid), and its worth to each player."""

    code: str
    where: str            # "registry" or "<name>'s store"
    price: int | None     # counters of the bid (None in the registry)
    worth: tuple[int, ...]


def tile_table(state: Any) -> list[TileRow]:
    """Every tile on offer (registry, then stores) × player → points it would add now."""
    rows = []
    n = state.num_players
    for code in state.registry:
        rows.append(TileRow(code, "registry", None, tuple(tile_worth(state, p, code) for p in range(n))))
    for o in range(n):
        for code, bid, *_ in state.stores[o]:
            rows.append(TileRow(code, f"{state.players[o]}'s store", sum(bid),
                                tuple(tile_worth(state, p, code) for p in range(n))))
    return rows


@dataclass(frozen=True)
class GroupRow:
    """A player's land as the score sees it."""

    player: str
    tiles: int
    largest: int
    second: int
    wasted: int           # tiles in smaller groups: they score nothing now
    points: int           # group points now
    best: int             # group points if the same tiles formed the best two groups


def best_split(n: int, largest_mult: int, second_mult: int) -> int:
    """The most group points ``n`` tiles can score in two groups (largest ≥ second)."""
    return max((n - b) * largest_mult + b * second_mult for b in range(n // 2 + 1))


def group_rows(state: Any) -> list[GroupRow]:
    """Each player's two largest groups, the tiles that score nothing, and what the same tiles could score."""
    prm = state.params
    out = []
    for p in range(state.num_players):
        tiles = state.tiles_of(p)
        a, b = B.two_largest(B.mask_of(tiles))
        out.append(GroupRow(state.players[p], len(tiles), a, b, len(tiles) - a - b,
                            a * prm.largest_mult + b * prm.second_mult,
                            best_split(len(tiles), prm.largest_mult, prm.second_mult)))
    return out


def split_curve(n: int, largest_mult: int, second_mult: int) -> list[tuple[int, int]]:
    """(second group size, group points) for ``n`` tiles in two groups, second from 0 to n // 2."""
    return [(b, (n - b) * largest_mult + b * second_mult) for b in range(n // 2 + 1)]
