"""Incremental criteria scoring for the bots: what drawing one more hex adds, without rescoring the map.

``MapScorer(board, cells, codes)`` holds one map and small tables kept up to date hex by hex
(neighbour counts per terrain, one-terrain groups and their sizes, each lake's shore kinds, each row's
kinds and longest runs, terrain counts). ``deltas(hexes, t)`` answers, for every empty hex in
``hexes``, how much the criteria in play would gain if it were drawn as terrain ``t`` — the bots'
``guide`` (score plus hint) of each criterion, summed, in **tenths** so the arithmetic is exact
integers (every criterion and hint is a multiple of 0.1); ``place(h, t)`` draws the hex.

Only the hexes a drawn hex touches can change: its neighbours' terms (A3, A5, A6), the groups it
joins (A1, A2, A4, B5, B6), its row (B2, B3), its edge neighbours (B1); B4 depends only on the
terrain. ``tests/test_kingdom_bot_golden.py`` checks ``deltas`` against full rescoring with
``CRITERIA[c].guide`` on random maps.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import compress
from operator import mul, ne
from typing import Any

from sheetkit.games.kingdom_maps.board import Board
from sheetkit.games.kingdom_maps.criteria import (
    BORDER_POINTS,
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
    longest_run,
)
from sheetkit.games.kingdom_maps.gainloops import (
    ALL_TERRAINS,
    NOT_VILLAGE,
    T,
    _flags,
    _mixed_tenths,
    _scarce_tenths,
    _village_tenths,
    gains_for,
)
from sheetkit.games.kingdom_maps.gainloops import (
    SLOTS as SLOTS,  # (re-exported: the tests read each criterion's slot here)
)
from sheetkit.games.kingdom_maps.terrains import FIELD, FOREST, LAKE, MEADOW, MOUNTAIN, VILLAGE
from sheetkit.games.kingdom_maps.tiefloats import FRACTIONAL, POINT_EIGHTS, TieFloats

__all__ = ["FRACTIONAL", "POINT_EIGHTS", "SLOTS", "MapScorer", "T"]  # (the bots and the tests read these here)


@lru_cache(maxsize=16)
def _tables(board: Board) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Per hex: its row number, its position in the row, and its partners along the border walk (B1)."""
    row_of = [0] * board.size
    pos_of = [0] * board.size
    for r, row in enumerate(board.rows):
        for k, i in enumerate(row):
            row_of[i], pos_of[i] = r, k
    partners: list[list[int]] = [[] for _ in range(board.size)]
    for a, b in board.edge_pairs:
        partners[a].append(b)
        partners[b].append(a)
    return tuple(row_of), tuple(pos_of), tuple(tuple(p) for p in partners)


@lru_cache(maxsize=16)
def _edge_ends(board: Board) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The border walk's pairs (B1) as two tuples: each pair's first hex, each pair's second."""
    return tuple(a for a, _ in board.edge_pairs), tuple(b for _, b in board.edge_pairs)


@lru_cache(maxsize=16)
def _blank_tables(board: Board) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A blank map's neighbour counts (every neighbour empty) and empty hexes per row."""
    nc = [0] * (board.size * T)
    for i, nb in enumerate(board.nbrs):
        nc[i * T] = len(nb)
    return tuple(nc), tuple(len(row) for row in board.rows)


class MapScorer(TieFloats):
    """One player's map and the running tables that make a hex's score gain a few look-ups."""

    __slots__ = ("b2", "b3", "b4", "board", "cells", "codes", "counts", "gid", "gmembers", "grouped", "gsize", "gterr",
                 "lmask",
                 "masks", "nbrs", "nc", "nm", "partners", "pos_of", "rblank", "rmask", "rok", "row_of", "rows",
                 "tables", "use")

    def __init__(self, board: Board, cells: Sequence[int], codes: Sequence[str]) -> None:
        self.board = board
        self.codes = tuple(codes)
        self.use = frozenset(codes)
        self.b2 = "B2" in self.use
        # Tables only some criteria read are kept up to date only when one of them is in play (``place``):
        # the neighbours' kinds (A4, A6), the rows' kinds and blanks (B3), the terrain counts (B4).
        self.masks = bool(self.use & {"A4", "A6"})
        self.b3, self.b4 = "B3" in self.use, "B4" in self.use
        # Groups are kept only when a criterion in play looks at them (A1, A2, A4, B5, B6).
        self.grouped = bool(self.use & {"A1", "A2", "A4", "B5", "B6"})
        # Per terrain: are its groups read (A1 mountains, A2 forests, A4 lakes, B5 and B6 every terrain)?
        every = bool(self.use & {"B5", "B6"})
        self.gterr = tuple(every or (t == MOUNTAIN and "A1" in self.use) or (t == FOREST and "A2" in self.use)
                           or (t == LAKE and "A4" in self.use) for t in range(7))
        self.nbrs = board.nbrs
        self.rows = board.rows
        self.row_of, self.pos_of, self.partners = _tables(board)
        n = board.size
        self.cells = list(cells)
        cells = self.cells
        if not any(cells):  # a blank map (every game's first planner): the tables as made once for the board
            blank_nc, blank_rows = _blank_tables(board)
            self.nc, self.nm = list(blank_nc), [0] * n
            self.gid, self.gsize, self.gmembers, self.lmask = [-1] * n, [0] * n, {}, [0] * n
            self.rmask, self.rblank, self.rok = [0] * len(self.rows), list(blank_rows), [False] * len(self.rows)
            self.counts = [n, 0, 0, 0, 0, 0, 0]
            self._bind()
            return
        nc = [0] * (n * T)  # nc[i*7 + t]: neighbours of hex i holding terrain t (t = 0: empty)
        nm = [0] * n  # bit t set when a neighbour holds terrain t (1–6)
        for i in range(n):
            for b in self.nbrs[i]:
                c = cells[b]
                nc[i * T + c] += 1
                if c:
                    nm[i] |= 1 << c
        self.nc, self.nm = nc, nm
        # One-terrain groups: a label per drawn hex (-1 empty), size and members per label.
        gid = [-1] * n
        gsize = [0] * n
        gmembers: dict[int, list[int]] = {}
        for s in range(n if self.grouped else 0):
            if gid[s] >= 0 or not cells[s]:
                continue
            t = cells[s]
            gid[s] = s
            grp = [s]
            k = 0
            while k < len(grp):
                for b in self.nbrs[grp[k]]:
                    if gid[b] < 0 and cells[b] == t:
                        gid[b] = s
                        grp.append(b)
                k += 1
            gsize[s] = len(grp)
            gmembers[s] = grp
        self.gid, self.gsize, self.gmembers = gid, gsize, gmembers
        # Each lake's shore: bit t for every other terrain touching it (A4).
        lmask = [0] * n
        for lab, grp in gmembers.items():
            if cells[lab] == LAKE:
                m = 0
                for i in grp:
                    m |= nm[i]
                lmask[lab] = m & ALL_TERRAINS & ~(1 << LAKE)
        self.lmask = lmask
        self.rmask = [0] * len(self.rows)  # bit t per terrain present in the row
        self.rblank = [0] * len(self.rows)  # empty hexes in the row
        self.rok = [False] * len(self.rows)  # the row already has a run of 4 (B2)
        for r, row in enumerate(self.rows):
            for i in row:
                if cells[i]:
                    self.rmask[r] |= 1 << cells[i]
                else:
                    self.rblank[r] += 1
            self.rok[r] = longest_run(cells, row) >= RUN_MIN
        self.counts = [0] * 7
        for c in cells:
            self.counts[c] += 1
        self._bind()

    def _bind(self) -> None:
        """``tables``: the lists the gains loops read, in one tuple (``place`` changes them in place, never rebinds)."""
        self.tables = (self.cells, self.nc, self.nm, self.nbrs, self.gid, self.gsize, self.lmask, self.partners,
                       self.row_of, self.rok, self.rows, self.pos_of, self.rmask, self.rblank)

    def copy(self) -> MapScorer:
        """An independent copy (cheap: flat lists)."""
        new = MapScorer.__new__(MapScorer)
        new.board, new.codes, new.use, new.b2, new.grouped = self.board, self.codes, self.use, self.b2, self.grouped
        new.masks, new.b3, new.b4, new.gterr = self.masks, self.b3, self.b4, self.gterr
        new.nbrs, new.rows, new.row_of, new.pos_of, new.partners = (self.nbrs, self.rows, self.row_of, self.pos_of,
                                                                    self.partners)
        # A table no criterion in play reads is never changed (``place``): the copy shares it.
        new.cells, new.nc = list(self.cells), list(self.nc)
        new.nm = list(self.nm) if self.masks else self.nm
        if self.grouped:
            new.gid, new.gsize, new.lmask = list(self.gid), list(self.gsize), list(self.lmask)
            new.gmembers = dict(self.gmembers)  # member lists are never changed in place, only replaced
        else:  # no groups kept: these stay as built (only ``place`` changes them, and only when grouped)
            new.gid, new.gsize, new.lmask, new.gmembers = self.gid, self.gsize, self.lmask, self.gmembers
        new.rmask, new.rblank = (list(self.rmask), list(self.rblank)) if self.b3 else (self.rmask, self.rblank)
        new.rok = list(self.rok) if self.b2 else self.rok
        new.counts = list(self.counts) if self.b4 else self.counts
        new._bind()
        return new

    def copy_into(self, new: MapScorer) -> MapScorer:
        """``new`` (an earlier ``copy()`` of this scorer) made equal to it again, reusing its lists; returns it."""
        new.cells[:] = self.cells
        new.nc[:] = self.nc
        if self.masks:
            new.nm[:] = self.nm
        if self.grouped:
            new.gid[:], new.gsize[:], new.lmask[:] = self.gid, self.gsize, self.lmask
            new.gmembers = dict(self.gmembers)
        if self.b3:
            new.rmask[:], new.rblank[:] = self.rmask, self.rblank
        if self.b2:
            new.rok[:] = self.rok
        if self.b4:
            new.counts[:] = self.counts
        return new

    # ----- what one more hex adds ------------------------------------------------------------
    def deltas(self, hexes: Sequence[int], t: int, split: list[list[int]] | None = None,
               bonus: Sequence[float] | None = None) -> list[float]:
        """For each empty hex in ``hexes``: the gain (tenths) of the criteria's guides if it were drawn as ``t``.

        With ``split`` (a list), also appends each hex's gain per criterion, in ``SLOTS`` order (A1…B6).
        ``bonus`` (tenths per hex) is added to each hex's gain, not to ``split``.
        """
        cells, nc, nm, nbrs = self.cells, self.nc, self.nm, self.nbrs
        gid, gsize, lmask = self.gid, self.gsize, self.lmask
        a1, a2, a3, a4, a5, a6, b1, b2, b3, b4, b5, b6, grouped, alone, alone_parts = _flags(self.use, t)
        bit = 1 << t
        const = 0
        if b4:
            after = list(self.counts)
            after[t] += 1
            const = _scarce_tenths(after) - _scarce_tenths(self.counts)
        row_gain: dict[int, int] = {}
        partners, row_of, rok, rows, pos_of = self.partners, self.row_of, self.rok, self.rows, self.pos_of
        out = []
        sp = split is not None
        part = [0] * 12
        for h in hexes:
            d = const if bonus is None else const + bonus[h]
            if sp:
                part = [0] * 12
                part[9] = const
            nb = nbrs[h]
            base = h * T
            if grouped:
                same = nc[base + t]
                if same:  # h joins one or more groups of its terrain
                    new = 1
                    n_range = forest = n_patch = n_region = 0
                    if same == 1:  # one neighbour of its terrain: one group
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
                                    if s >= RANGE_MIN:
                                        n_range += 1
                                    if s >= FOREST_MIN:
                                        forest += s
                                    if s >= PATCH_MIN:
                                        n_patch += 1
                                    if s >= REGION_MIN:
                                        n_region += 1
                    if a1:
                        x = 10 * RANGE_POINTS * ((new >= RANGE_MIN) - n_range)
                        d += x
                        part[0] = x
                    if a2:
                        x = 10 * ((new if new >= FOREST_MIN else 0) - forest)
                        d += x
                        part[1] = x
                    if b5:
                        x = 10 * PATCH_POINTS * ((new >= PATCH_MIN) - n_patch)
                        d += x
                        part[10] = x
                    if b6:
                        x = 10 * REGION_POINTS * ((new >= REGION_MIN) - n_region)
                        d += x
                        part[11] = x
                else:  # a group of one
                    d += alone
                    if sp:
                        part[0], part[1], part[10], part[11] = alone_parts
            if a3:  # 2 per watered field; hints 0.8 per lake and 0.4 per dry field with an empty neighbour
                x = 0
                if t == FIELD:
                    x = 20 if nc[base + LAKE] else 4 if nc[base] else 0
                elif t == LAKE and nc[base]:
                    x = 8
                if nc[base + LAKE] or nc[base + FIELD]:
                    for b in nb:  # h is an empty neighbour of each: their hints held before
                        c = cells[b]
                        if c == LAKE:
                            if nc[b * T] == 1:
                                x -= 8
                        elif c == FIELD and not nc[b * T + LAKE]:
                            if t == LAKE:
                                x += 16  # watered now (+2), no more hint (-0.4)
                            elif nc[b * T] == 1:
                                x -= 4
                d += x
                part[2] = x
            if a4:
                x = 0
                if t == LAKE:
                    m = nm[h] & ALL_TERRAINS & ~(1 << LAKE)
                    old = 0
                    seen: list[int] = []
                    for b in nb:
                        if cells[b] == LAKE and gid[b] not in seen:
                            g = gid[b]
                            seen.append(g)
                            m |= lmask[g]
                            old += lmask[g].bit_count()
                    x = 20 * (m.bit_count() - old)
                elif nc[base + LAKE]:
                    seen = []
                    for b in nb:
                        if cells[b] == LAKE and gid[b] not in seen:
                            seen.append(gid[b])
                            if not lmask[gid[b]] & bit:
                                x += 20
                d += x
                part[3] = x
            if a5:
                x = 20 if nc[base + MEADOW] == 2 else 0
                for b in nb:
                    if cells[b] == MEADOW:
                        k = nc[b * T + MEADOW]
                        x += -20 if k == 2 else 20 if k == 1 else 0
                d += x
                part[4] = x
            if a6:
                x = 0
                if t == VILLAGE:
                    x = _village_tenths((nm[h] & NOT_VILLAGE).bit_count(), nc[base] > 0)
                if nc[base + VILLAGE]:
                    for b in nb:  # h is an empty neighbour of each village here
                        if cells[b] == VILLAGE:
                            m = nm[b] & NOT_VILLAGE
                            new_m = m if t == VILLAGE else m | bit
                            if new_m != m or nc[b * T] == 1:
                                x += (_village_tenths(new_m.bit_count(), nc[b * T] > 1)
                                      - _village_tenths(m.bit_count(), True))
                d += x
                part[5] = x
            if b1:
                x = 0
                for b in partners[h]:
                    c = cells[b]
                    if c and c != t:
                        x += 10 * BORDER_POINTS
                d += x
                part[6] = x
            if b2 or b3:
                r = row_of[h]
                if b2 and not rok[r]:
                    row, k = rows[r], pos_of[h]
                    run = 1
                    j = k - 1
                    while j >= 0 and cells[row[j]] == t:
                        run, j = run + 1, j - 1
                    j = k + 1
                    while j < len(row) and cells[row[j]] == t:
                        run, j = run + 1, j + 1
                    if run >= RUN_MIN:
                        d += 10 * RUN_POINTS
                        part[7] = 10 * RUN_POINTS
                if b3:
                    g = row_gain.get(r)
                    if g is None:
                        m, blanks = self.rmask[r], self.rblank[r]
                        g = row_gain[r] = (_mixed_tenths((m | bit).bit_count(), blanks > 1)
                                           - _mixed_tenths(m.bit_count(), blanks > 0))
                    d += g
                    part[8] = g
            out.append(d)
            if sp:
                split.append(part)  # type: ignore[union-attr]
        return out

    def gains_function(self, parts: bool = False) -> Callable[..., Any]:
        """``f(scorer, hexes, t, bonus)`` = ``scorer.deltas(hexes, t, None, bonus)``, fast for these criteria.

        With ``parts``, f returns (gains, parts): each hex's gain per criterion, a tuple in ``SLOTS`` order (A1…B6;
        0 for a criterion not in play).
        A set's first ``gainloops.COMPILE_AFTER`` asks get ``anygains.any_gains``; later ones its compiled loop.
        """
        return gains_for(self.codes, parts)

    # ----- drawing a hex -----------------------------------------------------------------
    def place(self, h: int, t: int) -> None:
        """Draw terrain ``t`` on empty hex ``h`` and bring every table the criteria in play read up to date."""
        cells, nc, nm = self.cells, self.nc, self.nm
        bit = 1 << t
        nb = self.nbrs[h]
        if self.masks:
            for b in nb:
                i = b * T
                nc[i] -= 1
                nc[i + t] += 1
                nm[b] |= bit
        else:
            for b in nb:
                i = b * T
                nc[i] -= 1
                nc[i + t] += 1
        cells[h] = t
        if self.b4:
            counts = self.counts
            counts[0] -= 1
            counts[t] += 1
        r = self.row_of[h]
        if self.b3:
            self.rmask[r] |= bit
            self.rblank[r] -= 1
        if self.b2 and not self.rok[r]:  # only a run through h can be new
            row, k = self.rows[r], self.pos_of[h]
            run = 1
            j = k - 1
            while j >= 0 and cells[row[j]] == t:
                run, j = run + 1, j - 1
            j = k + 1
            while j < len(row) and cells[row[j]] == t:
                run, j = run + 1, j + 1
            self.rok[r] = run >= RUN_MIN
        if not self.grouped:  # no criterion in play looks at groups
            return
        gid = self.gid
        if not self.gterr[t]:  # nobody reads this terrain's groups: only the shores of the lakes it touches change
            if "A4" in self.use:
                lmask = self.lmask
                for b in nb:
                    if cells[b] == LAKE:
                        lmask[gid[b]] |= bit
            return
        labs: list[int] = []
        lakes: list[int] = []
        shores = t != LAKE and "A4" in self.use  # only A4 reads the lakes' shores
        for b in nb:  # (h is not its own neighbour: drawing it first changes nothing here)
            c = cells[b]
            if c == t:
                if gid[b] not in labs:
                    labs.append(gid[b])
            elif shores and c == LAKE and gid[b] not in lakes:
                lakes.append(gid[b])
        gmembers, gsize, lmask = self.gmembers, self.gsize, self.lmask
        mask = nm[h] & ~(1 << LAKE)
        # h joins the biggest group it touches, under that group's label: only the others are relabelled.
        label = h
        for g in labs:
            if label == h or gsize[g] > gsize[label]:
                label = g
        members = [*gmembers[label], h] if label != h else [h]  # a new list: copies share the old one
        gid[h] = label
        mask |= lmask[label]
        for g in labs:
            if g != label:
                grp = gmembers.pop(g)
                members += grp
                for i in grp:
                    gid[i] = label
                mask |= lmask[g]
                lmask[g] = 0
                gsize[g] = 0
        gmembers[label] = members
        gsize[label] = len(members)
        if t == LAKE:
            lmask[label] = mask
        else:
            for g in lakes:
                self.lmask[g] |= bit

    # ----- whole scores from the tables ----------------------------------------------------
    def scores(self, codes: Sequence[str] | None = None) -> dict[str, int]:
        """Each criterion's score on this map (``CRITERIA[c].score``), read off the tables (``codes``: only these)."""
        cells, nc = self.cells, self.nc
        sizes = [(cells[g], len(m)) for g, m in self.gmembers.items()] if self.grouped else []
        out: dict[str, int] = {}
        for code in self.codes if codes is None else codes:
            # (A3 and A5 read each hex's count of lake or meadow neighbours straight off the table, in C)
            if code == "A1":
                v = RANGE_POINTS * sum(1 for t, s in sizes if t == MOUNTAIN and s >= RANGE_MIN)
            elif code == "A2":
                v = sum(s for t, s in sizes if t == FOREST and s >= FOREST_MIN)
            elif code == "A3":
                v = 2 * sum(map(bool, compress(nc[LAKE::T], map(FIELD.__eq__, cells))))
            elif code == "A4":
                v = 2 * sum(self.lmask[g].bit_count() for g in self.gmembers if cells[g] == LAKE)
            elif code == "A5":
                v = 2 * list(compress(nc[MEADOW::T], map(MEADOW.__eq__, cells))).count(2)
            elif code == "A6":
                v = BUSY_POINTS * self.village_counts()[0]
            elif code == "B1":  # pairs both drawn and different, counted in C
                ea, eb = _edge_ends(self.board)
                ca, cb = list(map(cells.__getitem__, ea)), list(map(cells.__getitem__, eb))
                v = BORDER_POINTS * sum(map(mul, map(ne, ca, cb), map(bool, map(mul, ca, cb))))
            elif code == "B2":
                v = RUN_POINTS * sum(self.rok)
            elif code == "B3":
                v = MIXED_POINTS * sum(1 for m in self.rmask if m.bit_count() >= MIXED_KINDS)
            elif code == "B4":
                v = SCARCE_POINTS * min(self.counts[1:])
            elif code == "B5":
                v = PATCH_POINTS * sum(1 for _, s in sizes if s >= PATCH_MIN)
            else:
                v = REGION_POINTS * sum(1 for _, s in sizes if s >= REGION_MIN)
            out[code] = v
        return out
