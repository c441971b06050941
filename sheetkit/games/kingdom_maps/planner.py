"""The greedy bot's planner: greedy groups on one map, for any terrain and amount, grown hex by hex.

``Planner`` asks ``fastscore.MapScorer`` what each candidate hex adds (only the criteria and hexes it touches),
in exact tenths, through ``MapScorer.gains_function`` (``anygains.any_gains``, or the loop compiled for a set
of criteria asked for often), and keeps one plan per terrain and set of starting hexes. Exact ties are settled
on the whole-map floats the old full-rescoring bot compared (``tiefloats``), so its moves are exactly the old
bot's (``tests/test_kingdom_bot_golden.py``; the old bot is kept as ``tests/old_kingdom_greedy.py``).
``bots.GreedyBot`` chooses with it.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import compress
from operator import gt, mul, sub
from typing import Any

from sheetkit.games.kingdom_maps.board import Board
from sheetkit.games.kingdom_maps.criteria import BUSY_POINTS
from sheetkit.games.kingdom_maps.fastscore import FRACTIONAL, POINT_EIGHTS, SLOTS, MapScorer, T
from sheetkit.games.kingdom_maps.moves import Place
from sheetkit.games.kingdom_maps.placement import BIG, empty_patches, next_hexes
from sheetkit.games.kingdom_maps.terrains import FIELD, LAKE, VILLAGE

# id(board) -> (board, (a Place per hex, neighbours per hex)); actions are frozen, so one Place serves every game.
_PLACES: dict[int, tuple[Board, tuple[tuple[Place, ...], list[int]]]] = {}
_TENFOLD: dict[int, tuple[list[float], list[Any]]] = {}  # id(bonus list) -> (the list, its values × 10)


def _degrees(board: Board) -> list[int]:
    """How many neighbours each hex of ``board`` has (kept with its ``Place`` actions)."""
    return _board_tables(board)[1]


def _places(board: Board) -> tuple[Place, ...]:
    """A ``Place`` for each hex of ``board``, made once (the entry keeps the board alive, so its id stays its own)."""
    return _board_tables(board)[0]


def _board_tables(board: Board) -> tuple[tuple[Place, ...], list[int]]:
    """Per-board tables made once (the entry keeps the board alive, so its id stays its own)."""
    got = _PLACES.get(id(board))
    if got is None or got[0] is not board:
        if len(_PLACES) > 64:
            _PLACES.clear()
        got = _PLACES[id(board)] = (board, (tuple(Place(*c) for c in board.coords), [len(n) for n in board.nbrs]))
    return got[1]



def _tenfold(bonus: list[float]) -> list[float]:
    """``bonus`` in tenths, made once per bonus list (the bot keeps one list per power value and ? value)."""
    got = _TENFOLD.get(id(bonus))
    if got is None or got[0] is not bonus:
        if len(_TENFOLD) > 256:
            _TENFOLD.clear()
        tenths = [10 * b for b in bonus]
        if all(x.is_integer() for x in tenths):  # whole tenths as ints: the gains loops then add ints only
            tenths = [int(x) for x in tenths]
        got = _TENFOLD[id(bonus)] = (bonus, tenths)  # the entry keeps the list, so its id
    return got[1]


@lru_cache(maxsize=256)
def _criteria_tables(criteria: tuple[str, ...], codes: tuple[str, ...]) -> tuple[Any, ...]:
    """What a planner reads about its criteria, made once per set: (any fractional hint, each criterion's slot in a
    part, A3 / A6 / B3 in play, their slots, each criterion for the tie signatures)."""
    slot = {c: SLOTS[c] for c in codes}  # where each criterion's gain sits in a part (``SLOTS`` order)
    # Each criterion for the tie signatures: (its code if its hint is fractional else None, its slot).
    kinds = tuple((c if c in FRACTIONAL else None, slot[c]) for c in criteria)
    return (bool(FRACTIONAL & set(criteria)), slot, "A3" in criteria, "A6" in criteria, "B3" in criteria,
            slot.get("A3", 0), slot.get("A6", 0), slot.get("B3", 0), kinds)


class Planner:
    """Greedy groups on one map (one set of criteria, one bonus per hex), for any terrain and amount.

    A group grows one hex at a time, always taking the hex that raises the criteria's guides plus the
    bonus the most; ties go to the hex touching the most drawn hexes, then to the lowest hex number.
    Gains come from ``MapScorer.gains_function`` (``MapScorer.deltas``' loop) in exact tenths. When hexes tie
    exactly and a criterion with a fractional hint is in play (A3, A6, B3), the tie is settled on the
    whole-map float sums the bot has always compared (their last bit depends on the order of the terms),
    so the moves stay exactly those of the full-rescoring bot (``tests/test_kingdom_bot_golden.py``).
    """

    def __init__(self, board: Board, cells: Sequence[int], criteria: Sequence[str], bonus: Sequence[float],
                 scorer: MapScorer | None = None, patches: list[int] | None = None) -> None:
        self.board = board
        self.cells = list(cells)
        self.bonus = bonus if isinstance(bonus, list) else list(bonus)  # the bot's own lists are never changed
        self.bonus10 = _tenfold(self.bonus)
        self.scorer = scorer if scorer is not None else MapScorer(board, cells, criteria)
        self.criteria = tuple(criteria)
        (self.exact, self.slot, self.a3, self.a6, self.b3, self.i_a3, self.i_a6, self.i_b3,
         self._kinds) = _criteria_tables(self.criteria, self.scorer.codes)
        # Each empty hex's patch size (exact below ``BIG``; ``placement.patches_after`` when given)
        self.patches = empty_patches(board, cells) if patches is None else patches
        self.degree = _degrees(board)
        # Where a new group may start (any amount): empty, touching the map (anywhere on a blank map).
        nc, patches = self.scorer.nc, self.patches
        self.blank_map = not any(cells)
        if self.blank_map:
            self.open = [i for i in range(board.size) if patches[i]]
        else:  # empty (a patch of its own) and with fewer empty neighbours than neighbours, hex by hex in C
            self.open = list(compress(range(board.size), map(mul, patches, map(gt, self.degree, nc[::T]))))
        self._groups: dict[tuple[int, int], tuple[list[int], list[float], bool]] = {}  # (terrain, starts id)
        self._room: int | None = None
        # Per amount: (an id per distinct list of starts, the starts); the map does not change under a planner.
        self._starts: dict[int, tuple[int, tuple[int, ...]]] = {}
        self.scores: dict[str, int] | None = None  # the criteria's scores on this map, once asked for
        self._start_ids: dict[tuple[int, ...], int] = {}
        # What settling exact ties reads off this map before a hex is drawn (its A3 terms, whole-number guides…):
        # every terrain's first step shares it, as the planner's map never changes.
        self._map_memo: dict[str, Any] = {}
        self._scratch: MapScorer | None = None  # where groups are grown (``_grow``), a copy of ``scorer`` each time
        self._firsts: dict[int, tuple[Sequence[int], list[int]]] = {}  # id(starts) -> (starts, ``_blank_firsts``)
        self._gains: Callable[..., Any] | None = None  # the gains loop, asked for once per planner (``_grow``)

    def room(self) -> int:
        """The biggest amount this map can still take in one turn (``placement.largest_room``), at most ``BIG``
        (7: more than any drawing) once the map is drawn on."""
        if self.blank_map:
            return self.board.size
        if self._room is None:
            patches = self.patches
            self._room = min(max((patches[i] for i in self.open), default=0), BIG)
        return self._room

    def starts(self, amount: int) -> list[int]:
        """Where a group of ``amount`` may begin (``placement.start_hexes``)."""
        return list(self._start_set(amount)[1])

    def _start_set(self, amount: int) -> tuple[int, tuple[int, ...]]:
        """(an id for this list of starts, the starts) for ``amount``: plans are kept per id, not per long tuple."""
        need = max(amount, 1)
        got = self._starts.get(need)
        if got is None:
            patches = self.patches
            hexes = tuple([i for i in self.open if patches[i] >= need])
            got = self._starts[need] = (self._start_ids.setdefault(hexes, len(self._start_ids)), hexes)
        return got

    def group(self, terrain: int, amount: int) -> tuple[list[int], list[float]]:
        """A new group of ``terrain`` up to ``amount`` hexes: (hexes, gain after each hex, bonuses included).

        The first hex may be any legal start for ``amount`` (``placement.start_hexes``); groups with the
        same starts share one plan.
        """
        got = self._plan(terrain, amount)
        return got[0][:amount], got[1][:amount]

    def _plan(self, terrain: int, amount: int) -> tuple[list[int], list[float], bool]:
        """The kept plan for ``terrain`` from the starts for ``amount``, at least ``amount`` long unless it ran out."""
        sid, starts = self._start_set(amount)
        key = (terrain, sid)
        got = self._groups.get(key)
        if got is None or (len(got[0]) < amount and not got[2]):
            got = self._grow(terrain, amount, starts, ())
            self._groups[key] = got
        return got

    def extend(self, terrain: int, amount: int, group: Sequence[int]) -> list[int]:
        """The hexes that continue ``group`` (already drawn on this map) up to ``amount``."""
        return self._grow(terrain, amount, next_hexes(self.board, self.cells, group), group)[0]

    def _grow(self, terrain: int, amount: int, cand: Sequence[int],
              group: Sequence[int]) -> tuple[list[int], list[float], bool]:
        """Grow ``group`` hex by hex up to ``amount`` from ``cand``: (hexes, total gain after each, ran out)."""
        sc = self.scorer  # copied before the first hex is drawn on it (a group of one never is)
        own = False
        work, nc, nbrs = sc.cells, sc.nc, self.board.nbrs
        degree = self.degree
        bonus10 = self.bonus10
        exact = self.exact
        # ``MapScorer.deltas`` compiled for these criteria; with a fractional hint in play it also gives each
        # criterion's own gain (the tie-break needs them).
        gain = self._gains
        if gain is None:
            gain = self._gains = sc.gains_function(exact)
        size = len(group)
        if not size and self.blank_map:
            cand = self._blank_firsts(cand)
        fresh = not size  # a new group: after its first hex, only that hex's empty neighbours are candidates
        hexes: list[int] = []
        gains: list[float] = []
        total = 0  # in tenths: an int while the bonuses are (``_tenfold``), so total / 10 is rounded once, as before
        while size < amount and cand:
            if exact:
                ds, parts = gain(sc, cand, terrain, bonus10)
            else:
                ds = gain(sc, cand, terrain, bonus10)
            best_e = max(ds)
            j = ds.index(best_e)
            best = cand[j]
            n_tied = ds.count(best_e)
            if n_tied > 1:  # exact ties: the full-rescoring bot's float, then the most drawn neighbours
                if n_tied == len(cand):  # every candidate (most ties): no picking
                    ties: Sequence[int] = cand
                    values = self._tie_floats(sc, parts, ties, terrain) if exact else None
                else:
                    at = [j]  # where they are, found in C (ties are common, the lists of candidates long)
                    for _ in range(n_tied - 1):
                        j = ds.index(best_e, j + 1)
                        at.append(j)
                    ties = [cand[i] for i in at]
                    values = self._tie_floats(sc, [parts[i] for i in at], ties, terrain) if exact else None
                if values is None:  # the most drawn neighbours, the first of them
                    if n_tied > 6:  # (many ties, as on an early map: counted in C)
                        empty = nc[::T]
                        drawn = list(map(sub, map(degree.__getitem__, ties), map(empty.__getitem__, ties)))
                        best = ties[drawn.index(max(drawn))]
                    else:
                        most = -1
                        for h in ties:
                            k = degree[h] - nc[h * T]
                            if k > most:
                                best, most = h, k
                else:
                    best_key: tuple[float, int] | None = None
                    for j, h in enumerate(ties):
                        key = (values[j], degree[h] - nc[h * T])
                        if best_key is None or key > best_key:
                            best, best_key = h, key
            size += 1
            hexes.append(best)
            total += best_e
            gains.append(total / 10)
            if size >= amount:
                break  # the map after the last hex is never looked at
            if not own:  # the planner's one scratch copy, brought back to its map (no new lists each group)
                scratch = self._scratch
                sc = self._scratch = sc.copy() if scratch is None else sc.copy_into(scratch)
                own = True
                work, nc = sc.cells, sc.nc
            sc.place(best, terrain)
            # The empty hexes touching the group (``next_hexes``), in hex order: a board's neighbour lists are in
            # hex order, and the few new ones are put in their place in C.
            if fresh:
                fresh = False
                cand = [b for b in nbrs[best] if not work[b]]
            else:
                cand.remove(best)
                for b in nbrs[best]:
                    if not work[b] and b not in cand:
                        insort(cand, b)
        return hexes, gains, size < amount

    def _blank_firsts(self, cand: Sequence[int]) -> Sequence[int]:
        """Of ``cand`` on this blank map, the first hex of each kind (bonus, has neighbours, row longer than one).

        On a blank map a lone hex of a given terrain gains the same for every criterion (and the same tie
        floats, and no drawn neighbours) wherever it lies, but for its bonus and those two shapes of its place:
        hexes of one kind tie exactly, so the first of them wins and the others need no look-up.
        """
        got = self._firsts.get(id(cand))
        if got is not None and got[0] is cand:
            return got[1]
        bonus10, degree, row_of, rows = self.bonus10, self.degree, self.scorer.row_of, self.board.rows
        seen: set[tuple[float, bool, bool]] = set()
        firsts = []
        for h in cand:
            kind = (bonus10[h], degree[h] > 0, len(rows[row_of[h]]) > 1)
            if kind not in seen:
                seen.add(kind)
                firsts.append(h)
        if isinstance(cand, tuple):  # the planner's own lists of starts: every terrain asks again
            self._firsts[id(cand)] = (cand, firsts)  # the entry keeps cand, so its id stays its own
        return firsts

    def _tie_floats(self, sc: MapScorer, split: list[tuple[int, ...]], ties: Sequence[int],
                    terrain: int) -> list[float] | None:
        """The full-rescoring bot's float for each tied hex — or None when they are surely all the same.

        Hexes with the same signature (bonus, whole-number gains per criterion, and for each fractional
        hint what decides its float — A3's float itself when h moves its terms) have the same float; only
        distinct signatures are computed.
        """
        first, bonus = split[0], self.bonus
        memo: dict[Any, Any] = {}  # this tie's own: each hex's A3 float, each signature's float
        mm = self._map_memo if sc is self.scorer else {}  # read off the map before the hex (see ``_map_memo``)
        if split.count(first) == len(split):
            b0 = bonus[ties[0]]
            for h in ties:
                if bonus[h] != b0:
                    break
            else:
                # Same gains and bonus everywhere (nearly every tie): the signatures below can differ only in
                # their fractional hints' entries, so only those are compared — the same answer, much cheaper.
                lake_field = terrain in (LAKE, FIELD)
                if self.b3 and first[self.i_b3]:
                    # B3's entry is (row, gain): tied hexes in different rows need the same B3 float (the other
                    # entries being equal, the sums can differ only there) — one float per row.
                    row_of = self.scorer.row_of
                    r0 = row_of[ties[0]]
                    for h in ties:
                        if row_of[h] != r0:
                            rows: dict[int, int] = {}  # a hex per row
                            for g in ties:
                                rows.setdefault(row_of[g], g)
                            if len(set(sc.b3_floats(list(rows.values()), terrain))) > 1:
                                return self._tie_sigs(sc, split, ties, terrain, memo, mm)
                            break
                if self.a6:
                    # A6's entry: what h does to the village counts, (scoring, hinted) = (dc, dk), of which the
                    # tied hexes' equal gains give 20·dc + 8·dk: two can differ only by (2, −5) or more, so only
                    # when one of them moves 3 hints or more (one each), i.e. has 3 villages by it or more.
                    nc = sc.nc
                    for h in ties:
                        if nc[h * T + VILLAGE] > 2:
                            near = ties if terrain == VILLAGE else [g for g in ties if nc[g * T + VILLAGE]]
                            zero = (0, 0) if len(near) < len(ties) else sc.village_counts_delta(near[0], terrain)
                            for g in near:
                                if sc.village_counts_delta(g, terrain) != zero:
                                    return self._tie_sigs(sc, split, ties, terrain, memo, mm)
                            break
                if self.a3 and (lake_field or first[self.i_a3]):  # A3's entry: its float itself
                    if not sc.a3_same(ties, terrain):  # (most ties are: the same additions)
                        a3 = self._a3_float
                        v0 = a3(sc, ties[0], terrain, memo, mm)
                        for h in ties:
                            if a3(sc, h, terrain, memo, mm) != v0:
                                return self._tie_sigs(sc, split, ties, terrain, memo, mm)
                return None
        return self._tie_sigs(sc, split, ties, terrain, memo, mm)

    def _tie_sigs(self, sc: MapScorer, split: list[tuple[int, ...]], ties: Sequence[int], terrain: int,
                  memo: dict[Any, Any], mm: dict[str, Any]) -> list[float] | None:
        """``_tie_floats`` in general: each tied hex's signature, then one float per distinct signature."""
        bonus = self.bonus
        sigs: list[tuple[Any, ...] | None] = []
        kinds = self._kinds
        lake_field, nc, row_of = terrain in (LAKE, FIELD), sc.nc, self.scorer.row_of
        for h, part in zip(ties, split, strict=True):
            sig: list[Any] = [bonus[h]]
            for c, i in kinds:
                x = part[i]
                if c is None:
                    sig.append(x)
                elif c == "A6":
                    sig.append((0, 0) if terrain != VILLAGE and not nc[h * T + VILLAGE]
                               else sc.village_counts_delta(h, terrain))
                elif c == "B3":
                    sig.append((row_of[h], x) if x else 0)
                elif x or lake_field:  # A3, and h moves its terms: its float itself
                    sig.append(self._a3_float(sc, h, terrain, memo, mm))
                else:
                    sig.append(x)
            sigs.append(tuple(sig))
        if sigs.count(sigs[0]) == len(sigs):
            return None
        out = []
        for h, part, sig in zip(ties, split, sigs, strict=True):
            if sig in memo:
                out.append(memo[sig])
                continue
            v = memo[sig] = self._float_value(sc, part, h, terrain, memo, mm) + self.bonus[h]
            out.append(v)
        return out

    @staticmethod
    def _a3_float(sc: MapScorer, h: int, terrain: int, memo: dict[Any, Any], mm: dict[str, Any]) -> float:
        """A3's guide (the float, to the last bit) once ``h`` is drawn as ``terrain``; kept in ``memo``."""
        got = memo.get(("A3", h))
        if got is None:
            terms = mm.get("A3terms")
            if terms is None:
                terms = mm["A3terms"] = sc.a3_terms()
            got = memo[("A3", h)] = sc.a3_guide(h, terrain, terms)  # = sc.fractional_guide("A3", h, terrain)
        return got  # type: ignore[no-any-return]

    def _float_value(self, sc: MapScorer, part: tuple[int, ...], h: int, terrain: int, memo: dict[Any, Any],
                     mm: dict[str, Any]) -> float:
        """The whole-map float the full-rescoring bot compared: each criterion's guide, summed in order.

        Whole-number guides are exact; a fractional hint (A3, A6, B3) is rebuilt term by term in its own
        order (``MapScorer.fractional_guide``), or reused from the map before ``h`` when ``h`` leaves its
        terms alone. ``memo`` holds what the hexes tied at one step share, ``mm`` what is read off the map.
        """
        if "base" not in mm:
            mm["base"] = sc.whole_guides()
        base, slot = mm["base"], self.slot
        parts = []
        for c in self.criteria:
            if c not in FRACTIONAL:
                parts.append(float((base[c] + part[slot[c]]) // 10))
            elif c == "A6":
                if "A6" not in mm:
                    mm["A6"] = sc.village_counts()
                count, hinted = mm["A6"]
                dc, dk = sc.village_counts_delta(h, terrain)
                parts.append(BUSY_POINTS * (count + dc) + POINT_EIGHTS[hinted + dk])
            elif part[slot[c]] == 0 and (c == "B3" or terrain not in (LAKE, FIELD)):
                # The terms are those of the map before h (a lake or field drawn would add one).
                if c not in mm:
                    mm[c] = sc.fractional_guide(c, -1, 0, sc.term_hexes(c, -1))
                parts.append(mm[c])
            elif c == "A3":
                parts.append(self._a3_float(sc, h, terrain, memo, mm))
            else:
                scan = mm.get(c + "scan")
                if scan is None:
                    scan = mm[c + "scan"] = sc.term_hexes(c, -1)
                if terrain in (LAKE, FIELD):
                    scan = list(scan)
                    insort(scan, h)
                parts.append(sc.fractional_guide(c, h, terrain, scan))
        return sum(parts)
