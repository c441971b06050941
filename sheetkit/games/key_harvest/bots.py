"""Key Harvest bots: random (among sensible moves) and greedy (tile values from its two largest groups).

``candidate_moves(state, p)`` is the bots' move generator: everything ``legal_actions`` lists, with
one harvest per group instead of one per tile, and a few bigger bids per registry tile (2 and 3
counters of the crops the player holds most of, and half the screen). Bots read only what their
player may see: boards, stores, registry, their own counters.
"""

from __future__ import annotations

from typing import Any

from sheetkit.core.chance import make_rng
from sheetkit.games.key_harvest import board as B
from sheetkit.games.key_harvest.crops import CROP_INDEX, CROPS, Counters, counters
from sheetkit.games.key_harvest.moves import Bid, Buy, Choose, EndTurn, Harvest, KeyHarvestAction, PlaceWorker
from sheetkit.games.key_harvest.state import DECLINE, KeyHarvestState
from sheetkit.games.key_harvest.workers import WORKERS


def pay_from(have: Counters, n: int) -> Counters:
    """``n`` counters taken from ``have``, from the crops held most first (ties: crop order)."""
    left = list(have)
    out = [0] * 5
    for _ in range(min(n, sum(have))):
        c = max(range(5), key=lambda k: (left[k], -k))
        left[c] -= 1
        out[c] += 1
    return counters(out)


def candidate_moves(state: KeyHarvestState, player: int) -> list[KeyHarvestAction]:
    """Sensible moves for ``player`` now (all legal): the bots choose among these."""
    acts = state.legal_actions(player)
    if state.queue or not acts:
        return acts
    out: list[KeyHarvestAction] = []
    seen_groups: set[int] = set()
    up = state._up[player]
    mine = state.counters[player]
    total = sum(mine)
    bids_done: set[str] = set()
    for a in acts:
        if isinstance(a, Harvest):
            g = B.component(B.BIT[a.code], up)
            if g in seen_groups:
                continue
            seen_groups.add(g)
            out.append(a)
        elif isinstance(a, Bid):
            out.append(a)
            if a.code not in bids_done:
                bids_done.add(a.code)
                for n in sorted({2, 3, total // 2}):
                    if 2 <= n <= total:
                        out.append(Bid(a.code, pay_from(mine, n)))
        else:
            out.append(a)
    return out


class RandomBot:
    """Picks uniformly among ``candidate_moves``."""

    name = "random"

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = make_rng(seed)

    def act(self, state: KeyHarvestState, player: int) -> KeyHarvestAction:
        acts = candidate_moves(state, player)
        return acts[int(self.rng.integers(len(acts)))]


class GreedyBot:
    """Values each tile by the points it adds to its two largest groups; buys, bids, harvests and
    plays workers when the gain is worth it, one decision at a time."""

    name = "greedy"

    def __init__(self, seed: int | None = 0, bid_share: float = 0.5, buy_margin: float = 0.5,
                 harvest_low: int = 5) -> None:
        self.rng = make_rng(seed)
        self.bid_share, self.buy_margin, self.harvest_low = bid_share, buy_margin, harvest_low
        self._base: tuple[int, int] | None = None  # (tiles mask, its group points): gain's cache

    # ----- values ------------------------------------------------------------------------
    @staticmethod
    def _points(state: KeyHarvestState, mask: int) -> int:
        a, b = B.two_largest(mask)
        return a * state.params.largest_mult + b * state.params.second_mult

    def gain(self, state: KeyHarvestState, player: int, code: str) -> float:
        """Points ``code`` adds to ``player``'s groups, plus a little for touching own tiles."""
        tiles = state._tiles[player]
        if self._base is None or self._base[0] != tiles:
            self._base = (tiles, self._points(state, tiles))
        g = self._points(state, tiles | B.BIT[code]) - self._base[1]
        return g + 0.1 * B.touching(code, tiles)

    def _counter_worth(self, state: KeyHarvestState) -> float:
        return 1.0 / state.params.counters_per_point

    # ----- decisions ---------------------------------------------------------------------
    def act(self, state: KeyHarvestState, player: int) -> KeyHarvestAction:
        if state.queue:
            return self._choose(state, player)
        moves = state.turn_moves
        best: tuple[float, KeyHarvestAction] = (0.0, EndTurn())
        for kind, fn in (("buy", self._buy), ("bid", self._bid), ("harvest", self._harvest),
                         ("worker", self._worker)):
            if state._may(player, kind) is not None:
                continue
            opt = fn(state, player)
            if opt is None:
                continue
            worth, act = opt
            # Buying must come before bidding: hold a good buy back only for a much better bid.
            if kind == "buy" and not moves:
                worth += 0.5
            if worth > best[0]:
                best = (worth, act)
        return best[1]

    def _buy(self, state: KeyHarvestState, player: int) -> tuple[float, KeyHarvestAction] | None:
        cw = self._counter_worth(state)
        best: tuple[float, KeyHarvestAction] | None = None
        for o, store in enumerate(state.stores):
            for code, bid, placed in store:
                if state._buy_block(player, o, bid, placed) is not None:
                    continue
                g = self.gain(state, player, code)
                worth = g + 1.0 if o == player else g - sum(bid) * cw * 2 - self.buy_margin
                if best is None or worth > best[0]:
                    best = (worth, Buy(code))
        return best

    def _bid(self, state: KeyHarvestState, player: int) -> tuple[float, KeyHarvestAction] | None:
        mine = state.counters[player]
        total = sum(mine)
        if not total or not state.registry or len(state.stores[player]) >= state.params.store_size:
            return None
        code = max(state.registry, key=lambda c: (self.gain(state, player, c), c))
        g = self.gain(state, player, code)
        n = max(1, min(total, round(g * self.bid_share) + 1))
        return 0.6 * g + 0.3, Bid(code, pay_from(mine, n))

    def _harvest(self, state: KeyHarvestState, player: int) -> tuple[float, KeyHarvestAction] | None:
        up = state._up[player]
        if not up:
            return None
        g = B.groups(up)[0]
        size = g.bit_count()
        low = sum(state.counters[player]) < self.harvest_low
        worth = size * (0.9 if low else 0.4)
        return worth, Harvest(B.CODE_AT_BIT[g & -g])

    def _worker(self, state: KeyHarvestState, player: int) -> tuple[float, KeyHarvestAction] | None:
        first: dict[int, str] = {}
        for wid in state.workers_available(player):
            first.setdefault(WORKERS[wid].value, wid)
        if not first:
            return None
        wanted = set(state.registry) | {c for s in state.stores for c, _, _ in s}
        best: tuple[float, tuple[Any, ...], KeyHarvestAction] | None = None
        for code, touching, old in state.space_options(player):
            for value, wid in first.items():
                if touching < value or old >= value:
                    continue
                worth = value - old + 0.5
                key = (worth, code not in wanted, touching)
                if best is None or key > best[1]:
                    best = (worth, key, PlaceWorker(wid, code))
        return None if best is None else (best[0], best[2])

    def _one_short(self, state: KeyHarvestState, player: int) -> tuple[Counters, int, list[int]] | None:
        """The best store tile of another player worth buying that ``player`` is one counter short of paying
        (its bid must be paid in the same crops): (its bid, the crop missing, the crops ``player`` has to spare)."""
        mine, cw = state.counters[player], self._counter_worth(state)
        best: tuple[float, Counters, int, list[int]] | None = None
        for o, store in enumerate(state.stores):
            if o == player or state.protected[o]:
                continue
            for code, bid, _ in store:
                short = [max(0, bid[c] - mine[c]) for c in range(5)]
                if sum(short) != 1:
                    continue
                worth = self.gain(state, player, code) - sum(bid) * cw * 2 - self.buy_margin
                if worth > 0 and (best is None or worth > best[0]):
                    want = short.index(1)
                    best = (worth, bid, want, [d for d in range(5) if d != want and mine[d] > bid[d]])
        return None if best is None else best[1:]

    def _choose(self, state: KeyHarvestState, player: int) -> KeyHarvestAction:
        t = state.queue[0]
        kind = t["kind"]
        opts = state.legal_actions(player)
        values = [o.value for o in opts]
        if kind == "take":
            want = self._one_short(state, player)
            if want is not None and CROPS[want[1]] in values:
                return Choose(CROPS[want[1]])
        if kind in ("crop", "miller", "substitute", "take"):
            best = max((CROP_INDEX[v] for v in values), key=lambda c: (state.stock[c], -c))
            return Choose(CROPS[best])
        if kind == "give":
            # a trade only pays when it makes a wanted store tile payable: give a spare crop for the one missing
            want = self._one_short(state, player)
            if want is not None and want[2] and state.stock[want[1]]:
                mine, bid = state.counters[player], want[0]
                give = max(want[2], key=lambda d: (mine[d] - bid[d], -d))
                if CROPS[give] in values:
                    return Choose(CROPS[give])
            return Choose(DECLINE)
        if kind in ("notary", "lawyer", "bailiff", "census"):
            codes = [v for v in values if v != DECLINE]
            code = max(codes, key=lambda c: (self.gain(state, player, c), c))
            return Choose(code)
        if kind == "foreman":
            g = B.groups(state._up[player])[0]
            return Choose(B.CODE_AT_BIT[g & -g])
        if kind == "replace":
            spaces = [v for v in values if v != DECLINE]
            return Choose(max(spaces, key=lambda c: (B.touching(c, state._tiles[player]), c)))
        if kind in ("pass", "frost"):
            tiles = state._tiles[player]
            base = self._points(state, tiles)
            code = max(values, key=lambda c: (self._points(state, tiles & ~B.BIT[c]) - base, c))
            return Choose(code)
        if kind == "sale":
            codes = [v for v in values if v != DECLINE]
            code = max(codes, key=lambda c: (self.gain(state, player, c), c))
            if self.gain(state, player, code) >= 2:
                pay = pay_from(state.counters[player], 3)
                return Choose(code, pay)
            return Choose(DECLINE)
        return opts[0]


BOTS: dict[str, Any] = {"random": RandomBot, "greedy": GreedyBot}
__all__ = ["BOTS", "GreedyBot", "RandomBot", "candidate_moves", "pay_from"]
