"""The group rule (docs/kingdom_maps.md §Drawing), answered fast with empty-patch sizes.

A turn's hexes must form one connected group whose first hex touches the player's earlier
drawing (anywhere on a blank map), and the whole amount must fit. The key fact: the empty
hexes a turn may still use never change during the turn — a hex drawn this turn only moves
from "empty" to "this turn's group", and the two together stay one patch. So a first hex is
right exactly when its empty patch holds at least the amount, and after that every empty hex
touching the group can be taken without ever getting stuck. No search is needed: one flood
fill of the empty hexes (at most a few hundred steps) answers "can this player still draw N?".
The tests check this against brute-force enumeration of every group on small maps.
"""

from __future__ import annotations

from collections.abc import Sequence

from sheetkit.games.kingdom_maps.board import Board
from sheetkit.games.kingdom_maps.terrains import BLANK


def empty_patches(board: Board, cells: Sequence[int]) -> list[int]:
    """For each hex, the size of the patch of touching empty hexes it lies in (0 if drawn)."""
    nbrs = board.nbrs
    size = [0] * board.size
    seen = [c != BLANK for c in cells]
    for start in range(board.size):
        if seen[start]:
            continue
        seen[start] = True
        patch = [start]
        k = 0
        while k < len(patch):
            for b in nbrs[patch[k]]:
                if not seen[b]:
                    seen[b] = True
                    patch.append(b)
            k += 1
        n = len(patch)
        for i in patch:
            size[i] = n
    return size


BIG = 7  # a patch this big takes any drawing (none is bigger than 6 hexes): its exact size is not needed


def patches_after(board: Board, cells: Sequence[int], before: Sequence[int], drawn: Sequence[int]) -> list[int]:
    """``empty_patches(board, cells)`` where below ``BIG`` (``BIG`` or more elsewhere), from the patches before the
    ``drawn`` hexes were drawn (the same, or more): the bot's next map, without a flood fill of the whole map.

    Only a patch holding a drawn hex changes, and each of its pieces touches a drawn hex: a search from every
    empty neighbour of the drawn hexes, stopped at ``BIG`` hexes, finds each small piece whole; a hex of a big
    piece keeps its size from before, which was at least that piece's.
    """
    nbrs = board.nbrs
    size = list(before)
    done: set[int] = set()  # empty hexes whose piece is known
    big: set[int] = set()  # of those, the ones in a big piece (their sizes from before stand: BIG or more)
    for h in drawn:
        size[h] = 0
    for h in drawn:
        for s in nbrs[h]:
            if cells[s] or s in done:
                continue
            if not big.isdisjoint(nbrs[s]):  # it touches a big piece: it is in it
                big.add(s)
                done.add(s)
                continue
            seen = {s}
            patch = [s]
            k = 0
            while k < len(patch) and len(patch) < BIG:
                for b in nbrs[patch[k]]:
                    if not cells[b] and b not in seen:
                        seen.add(b)
                        patch.append(b)
                k += 1
            n = len(patch)
            if n < BIG:  # the whole piece
                for i in patch:
                    size[i] = n
            else:
                big |= seen
            done |= seen
    return size


def touches_drawn(board: Board, cells: Sequence[int], i: int) -> bool:
    """True when hex i has a drawn neighbour."""
    return any(cells[b] != BLANK for b in board.nbrs[i])


def start_hexes(board: Board, cells: Sequence[int], amount: int, patches: Sequence[int] | None = None) -> list[int]:
    """Hexes where a group of ``amount`` may begin: empty, touching the drawing (any on a blank map), room enough."""
    if patches is None:
        patches = empty_patches(board, cells)
    blank_map = not any(cells)
    need = max(amount, 1)
    return [i for i in range(board.size)
            if patches[i] >= need and (blank_map or touches_drawn(board, cells, i))]


def next_hexes(board: Board, cells: Sequence[int], group: Sequence[int]) -> list[int]:
    """Empty hexes touching the group drawn so far this turn, in hex order."""
    out: set[int] = set()
    nbrs = board.nbrs
    for g in group:
        for b in nbrs[g]:
            if cells[b] == BLANK:
                out.add(b)
    return sorted(out)


def can_draw(board: Board, cells: Sequence[int], amount: int) -> bool:
    """Can this map still take a whole group of ``amount`` hexes? (the end-of-game test)."""
    if amount <= 0:
        return True
    if not any(cells):
        return board.size >= amount
    patches = empty_patches(board, cells)
    return any(patches[i] >= amount and touches_drawn(board, cells, i) for i in range(board.size))


def largest_room(board: Board, cells: Sequence[int]) -> int:
    """The biggest amount this map can still take in one turn."""
    if not any(cells):
        return board.size
    patches = empty_patches(board, cells)
    return max((patches[i] for i in range(board.size) if patches[i] and touches_drawn(board, cells, i)), default=0)
