"""The greedy bot's gains loop for any set of criteria, without compiling one for the set.

``fastscore.MapScorer.gains_function`` used to compile a loop for every new set of criteria (~1 ms, about
one set per solo game: criteria are rolled per deal). ``any_gains`` is ``MapScorer.deltas``' loop with the
flags fixed once per call, no per-hex part lists, and the additions in the compiled loop's order, so the
floats are the same to the last bit. A set compiles only once it has been used often (``fastscore``), where
the compiled loop pays for itself. ``tests/test_kingdom_bot_golden.py`` checks both against ``deltas``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sheetkit.games.kingdom_maps.criteria import (
    BORDER_POINTS,
    FOREST_MIN,
    PATCH_MIN,
    PATCH_POINTS,
    RANGE_MIN,
    RANGE_POINTS,
    REGION_MIN,
    REGION_POINTS,
    RUN_MIN,
    RUN_POINTS,
    SCARCE_POINTS,
)
from sheetkit.games.kingdom_maps.terrains import FIELD, LAKE, MEADOW, VILLAGE

T = 7  # slots per hex in the neighbour-count table (as in fastscore)
_LAKE_OTHERS = 0b1111110 & ~(1 << LAKE)
_NOT_VILLAGE = 0b1111110 & ~(1 << VILLAGE)
_BORDER = 10 * BORDER_POINTS
_RUN = 10 * RUN_POINTS
_SCARCE_WEIGHTS = (10 * SCARCE_POINTS, 30, 20, 10, 0, 0, 0)  # B4's weights (tenths), scarcest terrain first


def scarce_gain(counts: Sequence[int], t: int) -> int:
    """B4's gain (tenths) from one more hex of ``t`` with these terrain counts (index 0: empty hexes).

    In the sorted counts the one that grows is the last equal to ``t``'s (the order stays sorted), so the
    gain is the weight of that place: = ``gainloops._scarce_tenths`` after − before, without sorting twice.
    """
    c = counts[t]
    return _SCARCE_WEIGHTS[(counts[1] <= c) + (counts[2] <= c) + (counts[3] <= c) + (counts[4] <= c)
                           + (counts[5] <= c) + (counts[6] <= c) - 1]


def any_gains(split: bool, flags_by_terrain: Sequence[tuple[Any, ...]], b4: bool, village: Sequence[tuple[int, int]],
              mixed: Sequence[tuple[int, int]], sc: Any, hexes: Sequence[int], t: int, bonus: Sequence[float]) -> Any:
    """Each hex's gain (tenths, bonus included) as ``t``; with ``split``, also (gains, each hex's parts).

    The first five arguments are fixed per set of criteria (``gainloops._generic_gains`` binds them with
    ``functools.partial``, a call in C): ``flags_by_terrain[t]`` = ``gainloops._flags(sc.use, t)``; ``b4``: B4
    in play (its gain is the same for every hex); ``village`` and ``mixed`` are A6's and B3's guides in tenths
    as tables ``[kinds][blank]``. A hex's parts are its twelve gains per criterion in ``SLOTS`` order (A1…B6; 0
    for a criterion not in play).
    """
    flags = flags_by_terrain[t]
    const = scarce_gain(sc.counts, t) if b4 else 0
    cells, nc, nm, nbrs, gid, gsize, lmask, partners, row_of, rok, rows, pos_of, rmask, rblank = sc.tables
    a1, a2, a3, a4, a5, a6, b1, b2, b3, _b4, b5, b6, grouped, _alone, alone_parts = flags
    bit = 1 << t
    lake_t, field_t = t == LAKE, t == FIELD
    row_gain: dict[int, int] = {}
    out = []
    parts = []
    x1 = x2 = x3 = x4 = x5 = x6 = y1 = y2 = y3 = y5 = y6 = 0
    for h in hexes:
        nb = nbrs[h]
        base = h * T
        d = const + bonus[h]
        if grouped:
            same = nc[base + t]
            if same:  # h joins one or more groups of its terrain
                new = 1
                n_range = forest = n_patch = n_region = 0
                if same == 1:
                    for b in nb:
                        if cells[b] == t:
                            break
                    s = gsize[gid[b]]
                    new += s
                    n_range, n_patch, n_region = s >= RANGE_MIN, s >= PATCH_MIN, s >= REGION_MIN
                    forest = s if s >= FOREST_MIN else 0
                else:
                    labs: list[int] = []
                    for b in nb:
                        if cells[b] == t:
                            g = gid[b]
                            if g not in labs:
                                labs.append(g)
                                s = gsize[g]
                                new += s
                                n_range += s >= RANGE_MIN
                                n_patch += s >= PATCH_MIN
                                n_region += s >= REGION_MIN
                                if s >= FOREST_MIN:
                                    forest += s
                if a1:
                    x1 = 10 * RANGE_POINTS * ((new >= RANGE_MIN) - n_range)
                    d += x1
                if a2:
                    x2 = 10 * ((new if new >= FOREST_MIN else 0) - forest)
                    d += x2
                if b5:
                    y5 = 10 * PATCH_POINTS * ((new >= PATCH_MIN) - n_patch)
                    d += y5
                if b6:
                    y6 = 10 * REGION_POINTS * ((new >= REGION_MIN) - n_region)
                    d += y6
            else:  # a group of one
                x1, x2, y5, y6 = alone_parts
                if a1:
                    d += x1
                if a2:
                    d += x2
                if b5:
                    d += y5
                if b6:
                    d += y6
        if a3:  # 2 per watered field; hints 0.8 per lake and 0.4 per dry field with an empty neighbour
            x3 = 0
            if field_t:
                x3 = 20 if nc[base + LAKE] else 4 if nc[base] else 0
            elif lake_t and nc[base]:
                x3 = 8
            if nc[base + LAKE] or nc[base + FIELD]:
                for b in nb:
                    c = cells[b]
                    if c == LAKE:
                        if nc[b * T] == 1:
                            x3 -= 8
                    elif c == FIELD and not nc[b * T + LAKE]:
                        if lake_t:
                            x3 += 16
                        elif nc[b * T] == 1:
                            x3 -= 4
            d += x3
        if a4:
            x4 = 0
            if lake_t:
                m = nm[h] & _LAKE_OTHERS
                old = 0
                seen: list[int] = []
                for b in nb:
                    if cells[b] == LAKE and gid[b] not in seen:
                        g = gid[b]
                        seen.append(g)
                        m |= lmask[g]
                        old += lmask[g].bit_count()
                x4 = 20 * (m.bit_count() - old)
            elif nc[base + LAKE]:
                seen = []
                for b in nb:
                    if cells[b] == LAKE and gid[b] not in seen:
                        seen.append(gid[b])
                        if not lmask[gid[b]] & bit:
                            x4 += 20
            d += x4
        if a5:
            x5 = 20 if nc[base + MEADOW] == 2 else 0
            for b in nb:
                if cells[b] == MEADOW:
                    k = nc[b * T + MEADOW]
                    x5 += -20 if k == 2 else 20 if k == 1 else 0
            d += x5
        if a6:
            x6 = village[(nm[h] & _NOT_VILLAGE).bit_count()][nc[base] > 0] if t == VILLAGE else 0
            if nc[base + VILLAGE]:
                for b in nb:
                    if cells[b] == VILLAGE:
                        m = nm[b] & _NOT_VILLAGE
                        new_m = m if t == VILLAGE else m | bit
                        if new_m != m or nc[b * T] == 1:
                            x6 += village[new_m.bit_count()][nc[b * T] > 1] - village[m.bit_count()][1]
            d += x6
        if b1:
            y1 = 0
            for b in partners[h]:
                c = cells[b]
                if c and c != t:
                    y1 += _BORDER
            d += y1
        if b2:
            y2 = 0
            r = row_of[h]
            if not rok[r]:
                row, k = rows[r], pos_of[h]
                run = 1
                j = k - 1
                while j >= 0 and cells[row[j]] == t:
                    run, j = run + 1, j - 1
                j = k + 1
                while j < len(row) and cells[row[j]] == t:
                    run, j = run + 1, j + 1
                if run >= RUN_MIN:
                    y2 = _RUN
            d += y2
        if b3:
            r = row_of[h]
            y3 = row_gain.get(r)  # type: ignore[assignment]
            if y3 is None:
                m, blanks = rmask[r], rblank[r]
                y3 = row_gain[r] = mixed[(m | bit).bit_count()][blanks > 1] - mixed[m.bit_count()][blanks > 0]
            d += y3
        out.append(d)
        if split:  # (the whole tuple: picking the criteria in play out of it cost more than building it)
            parts.append((x1, x2, x3, x4, x5, x6, y1, y2, y3, const, y5, y6))
    return (out, parts) if split else out
