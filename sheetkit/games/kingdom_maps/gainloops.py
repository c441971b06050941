"""The greedy bot's gains loops: for a set of criteria, what each candidate hex adds if drawn as terrain ``t``.

``gains_for(codes, parts)`` gives ``gains(scorer, hexes, t, bonus)`` = ``MapScorer.deltas(hexes, t, None,
bonus)`` (with ``parts``: also each hex's twelve gains per criterion, in ``SLOTS`` order, 0 for a criterion not
in play). A set's first
``COMPILE_AFTER`` asks get ``anygains.any_gains`` (``deltas``' loop with its flags fixed per call); after
that, a loop generated and compiled for the set (only its criteria's blocks) — compiling costs ~0.5 ms, more
than the compiled loop saves in one solo game, and solo criteria are rolled per deal. The small tables and
guides in tenths here are shared with ``fastscore``. ``tests/test_kingdom_gain_loops.py`` and
``tests/test_kingdom_bot_golden.py`` check both loops against ``deltas``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache, partial
from typing import Any

from sheetkit.games.kingdom_maps.anygains import any_gains, scarce_gain
from sheetkit.games.kingdom_maps.criteria import (
    BORDER_POINTS,
    BUSY_KINDS,
    BUSY_POINTS,
    FOREST_MIN,
    MIXED_KINDS,
    MIXED_POINTS,
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
from sheetkit.games.kingdom_maps.terrains import FIELD, FOREST, LAKE, MEADOW, MOUNTAIN, VILLAGE

T = 7  # slots per hex in the neighbour-count table: 0 (empty) and terrains 1–6
ALL_TERRAINS = 0b1111110  # bit t for terrains 1–6
NOT_VILLAGE = ALL_TERRAINS & ~(1 << VILLAGE)
SLOTS: dict[str, int] = {f"{g}{k}": 6 * (g == "B") + k - 1 for g in "AB" for k in range(1, 7)}  # A1 → 0 … B6 → 11


def _mixed_tenths(kinds: int, blank: bool) -> int:
    """B3's guide for one row, in tenths: 5 points at 4 kinds; hints 2.0 / 0.8 one or two kinds short."""
    if kinds >= MIXED_KINDS:
        return 10 * MIXED_POINTS
    if blank and kinds == MIXED_KINDS - 1:
        return 20
    if blank and kinds == MIXED_KINDS - 2:
        return 8
    return 0


def _scarce_tenths(counts: Sequence[int]) -> int:
    """B4's guide in tenths: 4 × the scarcest terrain, 3 × the next, 2 ×, 1 × (the hint)."""
    low = sorted(counts[1:])
    return 10 * SCARCE_POINTS * low[0] + 30 * low[1] + 20 * low[2] + 10 * low[3]


def _village_tenths(kinds: int, blank: bool) -> int:
    """A6's guide for one village, in tenths: 2 points at 2 other kinds; hint 0.8 at one kind with room."""
    if kinds >= BUSY_KINDS:
        return 10 * BUSY_POINTS
    return 8 if blank and kinds == BUSY_KINDS - 1 else 0


# The two as tables, [kinds][blank] (a bool indexes a tuple), for ``anygains.any_gains``.
_MIXED_T = tuple((_mixed_tenths(k, False), _mixed_tenths(k, True)) for k in range(8))
_VILLAGE_T = tuple((_village_tenths(k, False), _village_tenths(k, True)) for k in range(8))


@lru_cache(maxsize=512)
def _flags(use: frozenset[str], t: int) -> tuple[Any, ...]:
    """What ``deltas`` must look at for terrain ``t`` with these criteria in play (and a lone hex's gains)."""
    a1 = "A1" in use and t == MOUNTAIN
    a2 = "A2" in use and t == FOREST
    a5 = "A5" in use and t == MEADOW
    b5, b6 = "B5" in use, "B6" in use
    alone_parts = (10 * RANGE_POINTS * (RANGE_MIN <= 1) if a1 else 0, 10 * (FOREST_MIN <= 1) if a2 else 0,
                   10 * PATCH_POINTS * (PATCH_MIN <= 1) if b5 else 0,
                   10 * REGION_POINTS * (REGION_MIN <= 1) if b6 else 0)
    return (a1, a2, "A3" in use, "A4" in use, a5, "A6" in use, "B1" in use, "B2" in use, "B3" in use, "B4" in use,
            b5, b6, a1 or a2 or b5 or b6, sum(alone_parts), alone_parts)


def gains_for(codes: tuple[str, ...], parts: bool) -> Callable[..., Any]:
    """The gains loop for these criteria (``any_gains`` for a set's first ``COMPILE_AFTER`` asks, then compiled)."""
    key = (codes, parts)
    n = _ASKED.get(key, 0)
    if n >= COMPILE_AFTER:
        return _compiled_gains(codes, parts)
    if len(_ASKED) > 4096:
        _ASKED.clear()
    _ASKED[key] = n + 1
    return _generic_gains(codes, parts)


# ----- the same gains, specialised: one compiled loop per set of criteria ---------------------------------
# ``deltas`` above checks a dozen flags for every hex and writes every criterion's part; the bot calls it
# ~60,000 times a second on a few hexes each. ``gains_function`` runs instead a loop generated for the
# criteria in play, with only their blocks — ``deltas``' own code, line for line, the terrain ``t`` still an
# argument (one compile, ~0.3 ms, per set of criteria). ``tests/test_kingdom_bot_golden.py`` checks the
# result against ``deltas`` and its ``split`` on random maps.
_GROUP = """\
same = nc[base + t]
if same:
    new = 1
{zero}
    if same == 1:
        for b in nb:
            if cells[b] == t:
                break
        s = gsize[gid[b]]
        new += s
{one}
    else:
        labs = []
        for b in nb:
            if cells[b] == t:
                g = gid[b]
                if g not in labs:
                    labs.append(g)
                    s = gsize[g]
                    new += s
{many}
{joined}
else:
{alone}
"""

_BLOCKS = {
    "A3": f"""\
x = 0
if t == {FIELD}:
    x = 20 if nc[base + {LAKE}] else 4 if nc[base] else 0
elif t == {LAKE} and nc[base]:
    x = 8
if nc[base + {LAKE}] or nc[base + {FIELD}]:
    for b in nb:
        c = cells[b]
        if c == {LAKE}:
            if nc[b * {T}] == 1:
                x -= 8
        elif c == {FIELD} and not nc[b * {T} + {LAKE}]:
            if t == {LAKE}:
                x += 16
            elif nc[b * {T}] == 1:
                x -= 4
xA3 = x
""",
    "A4": f"""\
if t == {LAKE}:
    m = nm[h] & {ALL_TERRAINS & ~(1 << LAKE)}
    old = 0
    seen = []
    for b in nb:
        if cells[b] == {LAKE} and gid[b] not in seen:
            g = gid[b]
            seen.append(g)
            m |= lmask[g]
            old += lmask[g].bit_count()
    xA4 = 20 * (m.bit_count() - old)
else:
    xA4 = 0
    if nc[base + {LAKE}]:
        seen = []
        for b in nb:
            if cells[b] == {LAKE} and gid[b] not in seen:
                seen.append(gid[b])
                if not lmask[gid[b]] & bit:
                    xA4 += 20
""",
    "A5": f"""\
xA5 = 0
if t == {MEADOW}:
    xA5 = 20 if nc[base + {MEADOW}] == 2 else 0
    for b in nb:
        if cells[b] == {MEADOW}:
            k = nc[b * {T} + {MEADOW}]
            xA5 += -20 if k == 2 else 20 if k == 1 else 0
""",
    "A6": f"""\
x = _village_tenths((nm[h] & {NOT_VILLAGE}).bit_count(), nc[base] > 0) if t == {VILLAGE} else 0
if nc[base + {VILLAGE}]:
    for b in nb:
        if cells[b] == {VILLAGE}:
            m = nm[b] & {NOT_VILLAGE}
            new_m = m if t == {VILLAGE} else m | bit
            if new_m != m or nc[b * {T}] == 1:
                x += _village_tenths(new_m.bit_count(), nc[b * {T}] > 1) - _village_tenths(m.bit_count(), True)
xA6 = x
""",
    "B1": f"""\
xB1 = 0
for b in partners[h]:
    c = cells[b]
    if c and c != t:
        xB1 += {10 * BORDER_POINTS}
""",
    "B2": f"""\
xB2 = 0
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
    if run >= {RUN_MIN}:
        xB2 = {10 * RUN_POINTS}
""",
    "B3": """\
r = row_of[h]
xB3 = row_gain.get(r)
if xB3 is None:
    m, blanks = rmask[r], rblank[r]
    xB3 = row_gain[r] = _mixed_tenths((m | bit).bit_count(), blanks > 1) - _mixed_tenths(m.bit_count(), blanks > 0)
""",
}


def _group_block(use: set[str]) -> str:
    """A1, A2, B5, B6: what joining the neighbouring groups of ``t`` does (``deltas``' grouped branch)."""
    zero, one, many, joined, alone = [], [], [], [], []
    for code, n, least, points in (("A1", "n_range", RANGE_MIN, RANGE_POINTS),
                                   ("B5", "n_patch", PATCH_MIN, PATCH_POINTS),
                                   ("B6", "n_region", REGION_MIN, REGION_POINTS)):
        if code in use:
            live = "a1 and " if code == "A1" else ""  # A1 counts mountains only
            zero.append(f"    {n} = 0")
            one.append(f"        {n} = s >= {least}")
            many.append(f"                    if s >= {least}:\n                        {n} += 1")
            joined.append(f"    x{code} = {10 * points} * ((new >= {least}) - {n}) if {live}True else 0")
            alone.append(f"    x{code} = {10 * points * (least <= 1)} if {live}True else 0")
    if "A2" in use:  # forests only
        zero.append("    forest = 0")
        one.append(f"        forest = s if s >= {FOREST_MIN} else 0")
        many.append(f"                    if s >= {FOREST_MIN}:\n                        forest += s")
        joined.append(f"    xA2 = 10 * ((new if new >= {FOREST_MIN} else 0) - forest) if a2 else 0")
        alone.append(f"    xA2 = {10 * (FOREST_MIN <= 1)} if a2 else 0")
    return _GROUP.format(zero="\n".join(zero), one="\n".join(one), many="\n".join(many), joined="\n".join(joined),
                         alone="\n".join(alone))


@lru_cache(maxsize=1024)
def _compiled_gains(codes: tuple[str, ...], with_parts: bool) -> Callable[..., Any]:
    """``gains(scorer, hexes, t, bonus)`` for these criteria (in this order): ``deltas``' loop, only its live blocks."""
    use = set(codes)
    grouped = [c for c in ("A1", "A2", "B5", "B6") if c in use]
    # A1, A2 and B5, B6 only when ``deltas`` would look at groups for t: A1 mountains, A2 forests.
    group_test = " or ".join(["a1"] * ("A1" in use) + ["a2"] * ("A2" in use) + ["True"] * bool({"B5", "B6"} & use))
    body = []
    if grouped:
        body.append(f"if {group_test}:\n" + "\n".join("    " + ln for ln in _group_block(use).splitlines()))
        body.append("else:\n" + "\n".join(f"    x{c} = 0" for c in grouped))
    body += [_BLOCKS[c] for c in ("A3", "A4", "A5", "A6", "B1", "B2", "B3") if c in use]
    # Each criterion's gain in tenths; 'const' for B4 (the same for every hex).
    terms = [("const" if c == "B4" else f"x{c}") if c in use else "0" for c in SLOTS]  # all twelve, SLOTS order
    # Summed in deltas' order (const + bonus first), so that even a fractional bonus gives the same float.
    order = [f"x{c}" for c in ("A1", "A2", "B5", "B6", "A3", "A4", "A5", "A6", "B1", "B2", "B3") if c in use]
    code = ["        " + ln for block in body for ln in block.splitlines() if ln.strip()]
    # Only the tables these blocks read are fetched (the loop is short: the fetching is a good part of a call).
    # (one scan for every word: a regex search per table name took half of the time spent here)
    words = set(re.findall(r"\w+", "\n".join(code)))
    tables = [name for name in ("cells", "nc", "nm", "gid", "gsize", "lmask", "partners", "row_of", "rok", "rows",
                                "pos_of", "rmask", "rblank") if name in words]
    lines = ["def gains(sc, hexes, t, bonus):",
             f"    nbrs, {', '.join(tables)} = sc.nbrs, {', '.join('sc.' + name for name in tables)}",
             f"    bit, a1, a2 = 1 << t, t == {MOUNTAIN}, t == {FOREST}",
             "    const = _scarce_gain(sc.counts, t)" if "B4" in use else "    const = 0",
             "    row_gain = {}" if "B3" in use else "",
             "    out = []",
             "    parts = []" if with_parts else "",
             "    for h in hexes:",
             "        nb = nbrs[h]",
             f"        base = h * {T}", *code]
    lines.append("        out.append(" + " + ".join(["const + bonus[h]", *order]) + ")")
    if with_parts:
        lines.append("        parts.append((" + "".join(x + ", " for x in terms) + "))")
        lines.append("    return out, parts")
    else:
        lines.append("    return out")
    namespace: dict[str, Any] = {"_village_tenths": _village_tenths, "_mixed_tenths": _mixed_tenths,
                                 "_scarce_gain": scarce_gain}
    exec(compile("\n".join(ln for ln in lines if ln), f"<kingdom gains {' '.join(codes)}>", "exec"), namespace)
    return namespace["gains"]


# A set of criteria is compiled once this many planners have asked for its loop (each asks once: ~15 a solo game,
# so ~7 games with the same criteria): compiling costs ~0.5 ms, more than the compiled loop saves over
# ``any_gains`` in one solo game, and solo criteria are rolled per deal.
COMPILE_AFTER = 100
_ASKED: dict[tuple[tuple[str, ...], bool], int] = {}  # (codes, parts) -> how often its gains loop was asked for


@lru_cache(maxsize=1024)
def _generic_gains(codes: tuple[str, ...], with_parts: bool) -> Callable[..., Any]:
    """``gains(scorer, hexes, t, bonus)`` for these criteria through ``any_gains`` (nothing compiled)."""
    use = frozenset(codes)
    flags = ((), *(_flags(use, t) for t in range(1, 7)))
    return partial(any_gains, with_parts, flags, "B4" in use, _VILLAGE_T, _MIXED_T)
