"""The whole-map floats the greedy bot settles exact ties on: A3's, A6's and B3's hints to the last bit.

The old greedy bot compared whole-map float sums, and where hexes tie exactly in tenths the last bit of
those sums depends on the order in which a fractional hint adds its terms. ``TieFloats`` (a base of
``fastscore.MapScorer``, reading its tables) rebuilds those floats term by term, cheaply: only the terms a
hex changes are redone, and equal floats are proved equal without summing where the terms show it
(``a3_same``). ``tests/test_kingdom_tie_floats.py`` and ``tests/test_kingdom_bot_golden.py`` check them
against the criteria's own guides.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Sequence
from functools import reduce
from itertools import accumulate, compress
from operator import add
from typing import Any

from sheetkit.games.kingdom_maps.criteria import BUSY_KINDS, BUSY_POINTS, MIXED_KINDS, MIXED_POINTS
from sheetkit.games.kingdom_maps.gainloops import T, _scarce_tenths
from sheetkit.games.kingdom_maps.terrains import BLANK, FIELD, LAKE, VILLAGE

# Criteria whose bot hint is not a whole number: their float sums can differ in the last bit with the
# order of the terms, so exact ties between hexes are settled on the floats (see planner.Planner).
FRACTIONAL = frozenset({"A3", "A6", "B3"})


def _point_eights(n: int) -> tuple[float, ...]:
    """0, 0.8, 0.8 + 0.8, … (n + 1 sums), each made by one more addition, as A6's hint adds its terms."""
    out, s = [0.0], 0.0
    for _ in range(n):
        s += 0.8
        out.append(s)
    return tuple(out)


A3Terms = tuple[list[int], list[int], list[float], int, list[float]]  # ``MapScorer.a3_terms``
_A3_FLOAT = {8: 0.8, 4: 0.4, 0: 0.0, -1: 0.0}  # what a term of A3's hint adds to its float sum
_LAKE_OR_FIELD = tuple(t in (LAKE, FIELD) for t in range(7))

POINT_EIGHTS = _point_eights(200)  # k × 0.8 added one at a time, as A6's hint adds them (last bit included)


def _a3_term(c: int, empty: int, lakes: int) -> int:
    """A3's hint term of a lake or field in tenths (8, 4, or 0 for none), or -1 for a watered field (it scores 2)."""
    if c == LAKE:
        return 8 if empty else 0
    if lakes:
        return -1
    return 4 if empty else 0


def _village_state(kinds: int, blank: bool) -> int:
    """A6 for one village: 2 scores, 1 earns the hint, 0 neither."""
    return 2 if kinds >= BUSY_KINDS else 1 if blank and kinds == BUSY_KINDS - 1 else 0


class TieFloats:
    """``MapScorer``'s exact floats for settling ties (its tables: ``cells``, ``nc``, ``nm``, rows, ``codes``)."""

    __slots__ = ()
    # What it reads (``MapScorer`` keeps them up to date): the map, its neighbour counts and kinds, its rows.
    cells: list[int]
    nc: list[int]
    nm: list[int]
    nbrs: tuple[tuple[int, ...], ...]
    rows: tuple[tuple[int, ...], ...]
    row_of: tuple[int, ...]
    rmask: list[int]
    rblank: list[int]
    codes: tuple[str, ...]
    counts: list[int]
    scores: Any  # MapScorer.scores

    def fractional_guide(self, code: str, h: int, t: int, scan: Sequence[int] | None = None) -> float:
        """``CRITERIA[code].guide`` (A3, A6 or B3) of the map with ``h`` drawn as ``t``, to the last bit.

        Same terms added in the same order as the criterion's own hint function, so the same float.
        ``scan``: the hexes that may hold a term, in order (A3: lakes and fields with ``h``; A6: villages
        with ``h``) — every hex when None.
        """
        cells, nc, nm, nbrs = self.cells, self.nc, self.nm, self.nbrs
        near = nbrs[h] if h >= 0 else ()
        saved_nm = [nm[b] for b in near]
        if h >= 0:
            cells[h] = t
        for b in near:
            nc[b * T] -= 1
            nc[b * T + t] += 1
            nm[b] |= 1 << t
        try:
            count = 0
            bonus = 0.0
            if code == "A3":
                for i in range(len(cells)) if scan is None else scan:
                    c = cells[i]
                    if c == LAKE:
                        if nc[i * T]:
                            bonus += 0.8
                    elif c == FIELD:
                        if nc[i * T + LAKE]:
                            count += 1
                        elif nc[i * T]:
                            bonus += 0.4
                return 2 * count + bonus
            if code == "A6":
                other = ~(1 << VILLAGE)
                for i in range(len(cells)) if scan is None else scan:
                    if cells[i] == VILLAGE:
                        kinds = (nm[i] & other).bit_count()
                        if kinds >= BUSY_KINDS:
                            count += 1
                        elif nc[i * T] and kinds == BUSY_KINDS - 1:
                            bonus += 0.8
                return BUSY_POINTS * count + bonus
            if code == "B3":
                r_h = self.row_of[h] if h >= 0 else -1
                for r in range(len(self.rows)):
                    m, blanks = self.rmask[r], self.rblank[r]
                    if r == r_h:
                        m, blanks = m | (1 << t), blanks - 1
                    kinds = m.bit_count()
                    if kinds >= MIXED_KINDS:
                        count += 1
                    elif blanks and kinds == MIXED_KINDS - 1:
                        bonus += 2.0
                    elif blanks and kinds == MIXED_KINDS - 2:
                        bonus += 0.8
                return MIXED_POINTS * count + bonus
            raise ValueError(f"{code} has no fractional hint")
        finally:
            if h >= 0:
                cells[h] = BLANK
            for b, m in zip(near, saved_nm, strict=True):
                nc[b * T] += 1
                nc[b * T + t] -= 1
                nm[b] = m

    def b3_floats(self, hexes: Sequence[int], t: int) -> list[float]:
        """``fractional_guide("B3", h, t)`` for each ``h`` in ``hexes``, to the last bit, in one call: the rows'
        terms are read once, and ``h`` changes only its own row's."""
        row_of = self.row_of
        terms = []  # each row's hint as the float it adds (0.0 for none: adding it leaves the sum as it was)
        count = 0
        for m, blanks in zip(self.rmask, self.rblank, strict=True):
            kinds = m.bit_count()
            if kinds >= MIXED_KINDS:
                count += 1
                terms.append(0.0)
            else:
                terms.append(2.0 if blanks and kinds == MIXED_KINDS - 1 else
                             0.8 if blanks and kinds == MIXED_KINDS - 2 else 0.0)
        bit = 1 << t
        out = []
        for h in hexes:
            r = row_of[h]
            old, blanks = self.rmask[r], self.rblank[r] - 1
            kinds = (old | bit).bit_count()
            cnt = count + (kinds >= MIXED_KINDS) - (old.bit_count() >= MIXED_KINDS)
            seq = terms.copy()
            seq[r] = (0.0 if kinds >= MIXED_KINDS else 2.0 if blanks and kinds == MIXED_KINDS - 1 else
                      0.8 if blanks and kinds == MIXED_KINDS - 2 else 0.0)
            out.append(MIXED_POINTS * cnt + reduce(add, seq, 0.0))
        return out

    def a3_terms(self) -> A3Terms:
        """A3's hint on this map as ``fractional_guide`` adds it, for ``a3_guide``: the lakes and fields in hex
        order, their terms (tenths: 8, 4 or 0; -1 for a watered field), the float sum before each term (and
        after the last), the watered fields, and each term as the float added."""
        cells, nc = self.cells, self.nc
        hexes = list(compress(range(len(cells)), map(_LAKE_OR_FIELD.__getitem__, cells)))
        # = _a3_term(cells[i], nc[i * T], nc[i * T + LAKE]), written out (the bot asks for it at most exact ties)
        terms = [(8 if nc[i * T] else 0) if cells[i] == LAKE else -1 if nc[i * T + LAKE] else 4 if nc[i * T] else 0
                 for i in hexes]
        floats = list(map(_A3_FLOAT.__getitem__, terms))
        # the float sum before each term and after the last, added one by one (0.0 leaves a float as it was)
        before = list(accumulate(floats, add, initial=0.0))
        return hexes, terms, before, terms.count(-1), floats

    def a3_guide(self, h: int, t: int, base: A3Terms) -> float:
        """``fractional_guide("A3", h, t)`` to the last bit, from this map's ``a3_terms()``: only the terms of
        ``h`` and of its neighbours change, so the float sum restarts at the first of them (the rest added
        one by one in C: adding 0.0 for a term without a hint leaves the float as it was)."""
        hexes, terms, before, count, floats = base
        cells, nc = self.cells, self.nc
        changed: dict[int, int] = {}
        for b in self.nbrs[h]:
            c = cells[b]
            if c == LAKE or c == FIELD:
                k = bisect_left(hexes, b)  # its place in the order
                new = _a3_term(c, nc[b * T] - 1, nc[b * T + LAKE] + (t == LAKE))
                if new != terms[k]:
                    changed[k] = new
                    count += (new < 0) - (terms[k] < 0)
        mine = _a3_term(t, nc[h * T], nc[h * T + LAKE]) if t == LAKE or t == FIELD else 0
        count += mine < 0
        n = len(hexes)
        at = bisect_left(hexes, h) if mine > 0 else n + 1  # where h's own term falls in the order
        start = min(min(changed, default=n), at)
        seq = floats[start:]
        for k, x in changed.items():
            seq[k - start] = _A3_FLOAT[x]
        if at <= n:
            seq.insert(at - start, _A3_FLOAT[mine])
        return 2 * count + reduce(add, seq, before[start])

    def a3_same(self, hexes: Sequence[int], t: int) -> bool:
        """Whether A3's float is surely the same whichever of ``hexes`` is drawn as ``t``: it is when they leave
        the same watered fields and the same hint terms in the same order, as then the float sums make the same
        additions (terms taken away or added elsewhere do not matter). Only the stretch of hexes where some of
        them change a term is read: the rest is the same for all."""
        cells, nc, nbrs = self.cells, self.nc, self.nbrs
        watering = t == LAKE
        # Drawing h only takes terms away from its neighbours (a lake's 0.8 when h was its last empty neighbour, a
        # dry field's 0.4 when h waters it or was its last empty neighbour) and adds its own.
        changes = []  # per hex: (hex, its new term) for the terms it takes away and its own
        lo, hi = len(cells), -1
        for h in hexes:
            ch = []
            for b in nbrs[h]:
                c = cells[b]
                if c == LAKE:
                    if nc[b * T] == 1:
                        ch.append((b, 0))
                elif c == FIELD and not nc[b * T + LAKE]:
                    if watering:
                        ch.append((b, 3))
                    elif nc[b * T] == 1:
                        ch.append((b, 0))
            if watering:
                if nc[h * T]:
                    ch.append((h, 2))
            elif t == FIELD:
                if nc[h * T + LAKE]:
                    ch.append((h, 3))
                elif nc[h * T]:
                    ch.append((h, 1))
            for b, _ in ch:
                if b < lo:
                    lo = b
                if b > hi:
                    hi = b
            changes.append(ch)
        if hi < 0:  # no hex changes a term: the map's own sum for all
            return True
        # The stretch's terms, a byte per hex (0 none, 1 a dry field's 0.4, 2 a lake's 0.8, 3 a watered field).
        stretch = bytearray(hi + 1 - lo)
        for i in compress(range(lo, hi + 1), map(_LAKE_OR_FIELD.__getitem__, cells[lo:hi + 1])):
            if cells[i] == LAKE:
                if nc[i * T]:
                    stretch[i - lo] = 2
            else:
                stretch[i - lo] = 3 if nc[i * T + LAKE] else 1 if nc[i * T] else 0
        first = None
        for ch in changes:
            mod = stretch.copy()
            for b, k in ch:
                mod[b - lo] = k
            key = (mod.count(3), mod.translate(None, b"\x00\x03"))  # the watered fields, the hints in order
            if first is None:
                first = key
            elif key != first:
                return False
        return True

    def term_hexes(self, code: str, h: int) -> list[int]:
        """The hexes, in order, that may hold a term of ``code``'s hint once ``h`` is drawn (its scan)."""
        cells = self.cells
        if code == "A3":
            out = [i for i in range(len(cells)) if cells[i] == LAKE or cells[i] == FIELD]
        elif code == "A6":
            out = [i for i in range(len(cells)) if cells[i] == VILLAGE]
        else:
            return []
        if h >= 0:
            insort(out, h)
        return out

    def village_counts(self) -> tuple[int, int]:
        """A6 on this map: (villages scoring, villages earning the 0.8 hint)."""
        cells, nc, nm = self.cells, self.nc, self.nm
        other = ~(1 << VILLAGE)
        count = hinted = 0
        for i in range(len(cells)):
            if cells[i] == VILLAGE:
                s = _village_state((nm[i] & other).bit_count(), nc[i * T] > 0)
                count += s == 2
                hinted += s == 1
        return count, hinted

    def village_counts_delta(self, h: int, t: int) -> tuple[int, int]:
        """How ``village_counts`` changes if hex ``h`` is drawn as ``t`` (only h and its villages can change)."""
        cells, nc, nm = self.cells, self.nc, self.nm
        other = ~(1 << VILLAGE)
        dc = dk = 0
        if t == VILLAGE:
            s = _village_state((nm[h] & other).bit_count(), nc[h * T] > 0)
            dc += s == 2
            dk += s == 1
        for b in self.nbrs[h]:
            if cells[b] == VILLAGE:
                m = nm[b] & other
                old = _village_state(m.bit_count(), nc[b * T] > 0)
                new = _village_state((m | (1 << t) if t != VILLAGE else m).bit_count(), nc[b * T] > 1)
                dc += (new == 2) - (old == 2)
                dk += (new == 1) - (old == 1)
        return dc, dk

    def whole_guides(self) -> dict[str, int]:
        """The guide (tenths) of each criterion in play whose guide is a whole number: all but A3, A6, B3."""
        scores = self.scores([c for c in self.codes if c not in FRACTIONAL])
        return {c: _scarce_tenths(self.counts) if c == "B4" else 10 * v for c, v in scores.items()
                if c not in FRACTIONAL}
