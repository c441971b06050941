"""What workers, events and tiles do to the table (docs/key_harvest.md §Worker actions, §Events): the effects.

``Effects`` is a part of ``KeyHarvestState`` (mixed in): its methods change the fields state.py
sets up, and queue the decisions an effect asks for (answered in decisions.py).
"""

from __future__ import annotations

from sheetkit.games.key_harvest import board as B
from sheetkit.games.key_harvest.crops import CROP_INDEX, add, sub, unit
from sheetkit.games.key_harvest.workers import FARMHAND_IDS, TOWNSFOLK_IDS, WORKERS


class Effects:
    """Moving counters, tiles and workers; what each worker and each event does."""

    def _order(self) -> list[int]:
        n = self.num_players
        return [(self.active + k) % n for k in range(n)]

    def _take(self, player: int, crop: int, n: int = 1) -> int:
        """Move up to ``n`` counters of ``crop`` from the stock to ``player``; returns how many."""
        k = min(n, self.stock[crop])
        if k:
            self.stock = sub(self.stock, unit(crop, k))
            self.counters[player] = add(self.counters[player], unit(crop, k))
        return k

    def _give(self, player: int, crop: int) -> None:
        self.counters[player] = sub(self.counters[player], unit(crop))
        self.stock = add(self.stock, unit(crop))

    def _home(self, player: int, wid: str) -> None:
        if WORKERS[wid].townsfolk:
            self.townsfolk_in_town.append(wid)
            self.townsfolk_in_town.sort(key=TOWNSFOLK_IDS.index)
        else:
            self.farmhands_free[player].append(wid)
            self.farmhands_free[player].sort(key=FARMHAND_IDS.index)

    def _gain_tile(self, player: int, code: str, up: bool = True) -> None:
        """A field tile goes onto its own space of ``player``'s board; a worker standing there is displaced."""
        bit = B.BIT[code]
        self._tiles[player] |= bit
        if up:
            self._up[player] |= bit
        wid = self.workers_on[player].pop(code, None)
        if wid is not None:
            self._home(player, wid)
            self.journal.append({"what": "displaced", "player": player, "worker": wid, "code": code})
            self.queue.insert(0, {"player": player, "kind": "replace", "worker": wid, "source": "displaced"})

    def _harvest(self, player: int, code: str) -> None:
        group = B.component(B.BIT[code], self._up[player])
        self._up[player] &= ~group
        short = 0
        got = [0] * 5
        for c in range(5):
            k = (group & B.CROP_MASKS[c]).bit_count()
            if k:
                taken = self._take(player, c, k)
                got[c] += taken
                short += k - taken
        self.journal.append({"what": "harvest", "player": player, "codes": B.codes_in(group), "gained": got})
        if short and any(self.stock):
            self.queue.insert(0, {"player": player, "kind": "substitute", "n": short, "source": "harvest"})

    def _place(self, player: int, wid: str, code: str) -> None:
        """Put ``wid`` (taken from home) on ``code``, sending a lower own worker there home; then its action."""
        w = WORKERS[wid]
        if w.townsfolk:
            self.townsfolk_in_town.remove(wid)
        else:
            self.farmhands_free[player].remove(wid)
        old = self.workers_on[player].get(code)
        if old is not None:
            self._home(player, old)
        self.workers_on[player][code] = wid
        self.played[wid] = self.played.get(wid, 0) + 1
        self.journal.append({"what": "worker", "player": player, "worker": wid, "code": code, "replaced": old})
        self._worker_action(player, wid, code)

    def _worker_action(self, player: int, wid: str, code: str) -> None:
        ask = {"h1a": "crop", "h1b": "give", "notary": "notary", "miller": "miller", "foreman": "foreman",
               "lawyer": "lawyer", "bailiff": "bailiff"}
        if wid in ask:
            self.queue.insert(0, {"player": player, "kind": ask[wid], "source": wid})
        elif wid == "h2a":
            self._up[player] |= B.NBR_MASK[code] & self._tiles[player]
        elif wid == "h2b":
            near = B.NBR_MASK[code] & self._tiles[player]
            got = [self._take(player, c) if near & B.CROP_MASKS[c] else 0 for c in range(5)]
            self.journal.append({"what": "gain", "player": player, "counters": got, "source": wid})
        elif wid == "h3a":
            self.protected[player] = True
        elif wid == "h3b":
            self.buy_limit = 3
        elif wid == "mayor":
            self._up[player] = self._tiles[player]

    def _event(self, eid: str) -> None:
        self.events_placed.append(eid)
        self.played[eid] = self.played.get(eid, 0) + 1
        self.journal.append({"what": "event", "event": eid, "number": len(self.events_placed)})
        if self.final_turns_left is None and len(self.events_placed) == self.params.end_event:
            self.final_turns_left = self.params.final_turns * self.num_players
            self.journal.append({"what": "end-triggered", "turns": self.final_turns_left})
        order = self._order()
        ask = {"boundary": "pass", "land_sale": "sale", "market": "give", "bounty": "crop", "frost": "frost"}
        if eid in ask:
            self.queue.extend({"player": p, "kind": ask[eid], "source": eid} for p in order)
        elif eid == "rain":
            for p in order:
                self._up[p] = self._tiles[p]
        elif eid == "showers":
            for p in order:
                gs = B.groups(self._tiles[p])
                if gs:
                    self._up[p] |= gs[0]
        elif eid == "vintage":
            wine = CROP_INDEX["wine"]
            for p in order:
                got = unit(wine, self._take(p, wine))
                self.journal.append({"what": "gain", "player": p, "counters": list(got), "source": eid})
        elif eid == "windfall":
            for p in order:
                before = self.counters[p]
                if sum(before) >= 3:
                    continue
                while sum(self.counters[p]) < 3 and any(self.stock):
                    self._take(p, max(range(5), key=lambda c: (self.stock[c], -c)))
                got = sub(self.counters[p], before)
                self.journal.append({"what": "gain", "player": p, "counters": list(got), "source": eid})
        elif eid == "tithe":
            for p in order:
                mine = self.counters[p]
                c = max(range(5), key=lambda k: (mine[k], -k))
                given = unit(c) if mine[c] else (0, 0, 0, 0, 0)
                if mine[c]:
                    self._give(p, c)
                self.journal.append({"what": "give", "player": p, "counters": list(given), "source": eid})
        elif eid == "deadline":
            for p in order:
                entries, self.stores[p] = self.stores[p], []
                for code, bid, _ in entries:
                    self.stock = add(self.stock, bid)
                    self.journal.append({"what": "stored", "player": p, "code": code, "bid": list(bid), "source": eid})
                    self._gain_tile_queued(p, code)
        elif eid == "holiday":
            for p in order:
                mine = [(WORKERS[w].value, FARMHAND_IDS.index(w), c) for c, w in self.workers_on[p].items()
                        if not WORKERS[w].townsfolk]
                if mine:
                    code = min(mine)[2]
                    wid = self.workers_on[p].pop(code)
                    self._home(p, wid)
                    self.journal.append({"what": "remove", "player": p, "worker": wid, "code": code, "source": eid})
        elif eid == "drought":
            self.discards.extend(self.registry)
            self.registry = []
        elif eid == "census":
            counts = [self._tiles[p].bit_count() for p in range(self.num_players)]
            low = min(counts)
            self.queue.extend({"player": p, "kind": "census", "source": eid} for p in order if counts[p] == low)

    def _gain_tile_queued(self, player: int, code: str) -> None:
        """Like ``_gain_tile`` but a displacement waits its turn behind the decisions already asked."""
        before = len(self.queue)
        self._gain_tile(player, code)
        if len(self.queue) > before:
            self.queue.append(self.queue.pop(0))
