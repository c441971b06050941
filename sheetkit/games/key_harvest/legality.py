"""What a player may do now, and why not: the turn's structure (``may``), worker spaces, stores, ``check``.

``Legality`` is a part of ``KeyHarvestState`` (mixed in). Every refusal is an ``IllegalAction``
in a player's words with a short code; ``legal_actions`` (state.py) lists from the same tests.
"""

from __future__ import annotations

from typing import Any

from sheetkit.core.errors import IllegalAction
from sheetkit.games.key_harvest import board as B
from sheetkit.games.key_harvest.crops import Counters, covers, describe
from sheetkit.games.key_harvest.moves import Bid, Buy, Choose, EndTurn, Harvest, PlaceWorker, RemoveWorker
from sheetkit.games.key_harvest.phases import OVER
from sheetkit.games.key_harvest.workers import WORKERS

ACTION_KIND = {Harvest: "harvest", PlaceWorker: "worker", RemoveWorker: "worker", Buy: "buy", Bid: "bid"}


class Legality:
    """The turn's structure, the spaces a worker may take, what blocks a buy, and the checks of a move."""

    def space_options(self, player: int) -> list[tuple[str, int, int]]:
        """(code, touching field tiles, number of your worker there or 0) for every space a worker of
        some number could take now, ignoring the turn; a worker of number v fits where touching >= v > number."""
        tiles = self._tiles[player]
        on = self.workers_on[player]
        wmask = self._worker_mask(player)
        nbr = B.NBR_MASK
        out = []
        for code in B.codes_in(B.grow(tiles) & ~tiles):
            if nbr[code] & wmask & ~B.BIT[code]:
                continue
            old = on.get(code)
            out.append((code, (nbr[code] & tiles).bit_count(), WORKERS[old].value if old else 0))
        return out

    def _worker_mask(self, player: int) -> int:
        m = 0
        for c in self.workers_on[player]:
            m |= B.BIT[c]
        return m

    def _spaces(self, player: int, wid: str) -> list[str]:
        """Spaces where ``wid`` may go now (ignoring whether it is available and whether the turn allows it)."""
        value = WORKERS[wid].value
        tiles = self._tiles[player]
        on = self.workers_on[player]
        wmask = self._worker_mask(player)
        out = []
        for code in B.codes_in(B.grow(tiles) & ~tiles):
            bit = B.BIT[code]
            if (B.NBR_MASK[code] & tiles).bit_count() < value:
                continue
            old = on.get(code)
            if old is not None and WORKERS[old].value >= value:
                continue
            if B.NBR_MASK[code] & (wmask & ~bit):
                continue
            out.append(code)
        return out

    def workers_available(self, player: int) -> list[str]:
        """Worker ids ``player`` could play: their free farmhands, then the townsfolk in town."""
        return list(self.farmhands_free[player]) + list(self.townsfolk_in_town)

    def legal_spaces(self, player: int, worker: str) -> list[str]:
        """Where ``player`` may play ``worker`` right now (empty if the worker or the turn does not allow it)."""
        if not self._is_actor(player) or self.queue or self._may(player, "worker") is not None:
            return []
        if worker not in WORKERS or worker not in self.workers_available(player):
            return []
        return self._spaces(player, worker)

    def _is_actor(self, player: Any) -> bool:
        return isinstance(player, int) and not isinstance(player, bool) and player in self.current_players()

    def buys_left(self) -> int:
        """Tiles the active player may still take from stores this turn (0 when the turn does not allow it)."""
        if self._may(self.active, "buy") is not None:
            return 0
        return self.buy_limit - self.turn_moves.count("buy")

    def bids_left(self) -> int:
        """Tiles the active player may still bid for this turn (store room included)."""
        if self._may(self.active, "bid") is not None:
            return 0
        return min(2 - self.turn_moves.count("bid"), self.params.store_size - len(self.stores[self.active]))

    def may(self, player: int, kind: str) -> tuple[str, str] | None:
        """Why this turn's structure forbids action ``kind`` (harvest/worker/buy/bid) now: (reason, code), or None."""
        if kind not in ("harvest", "worker", "buy", "bid"):
            raise ValueError(f"unknown action kind {kind!r} (harvest, worker, buy or bid)")
        return self._may(player, kind)

    def _may(self, player: int, kind: str) -> tuple[str, str] | None:
        """Why the turn structure forbids starting or continuing ``kind`` now (None: it allows it)."""
        moves = self.turn_moves
        done = self.turn_actions
        if kind == "buy" and "bid" in done:
            return "you cannot take tiles from stores after bidding in the same turn", "buy-after-bid"
        if moves and moves[-1] == kind:
            if kind in ("harvest", "worker"):
                return f"you already did the {kind} action this turn", "once"
            limit = self.buy_limit if kind == "buy" else 2
            if moves.count(kind) >= limit:
                return (f"you may take at most {limit} tiles from stores in a turn" if kind == "buy"
                        else "you may bid for at most 2 tiles in a turn"), "limit"
            if kind == "bid" and len(self.stores[player]) >= self.params.store_size:
                return f"your store is full ({self.params.store_size} tiles)", "store-full"
            return None
        if kind in done:
            return f"you already did the {kind} action this turn (each action at most once)", "once"
        if len(done) >= 2:
            return "you have already done two actions this turn: end your turn", "two-actions"
        if kind == "bid" and len(self.stores[player]) >= self.params.store_size:
            return f"your store is full ({self.params.store_size} tiles)", "store-full"
        return None

    def _buy_block(self, player: int, owner: int, bid: Counters, placed: int) -> str | None:
        """What forbids ``player`` taking a tile from ``owner``'s store (an IllegalAction code), or None.

        Words only for a refusal (``_buy_problem``): ``legal_actions`` asks this for every store tile.
        """
        if owner == player:
            return "too-soon" if placed >= self.turn else None
        if self.protected[owner]:
            return "protected"
        if not covers(self.counters[player], bid):
            return "cannot-pay"
        return None

    def _buy_problem(self, player: int, owner: int, bid: Counters, placed: int) -> tuple[str, str] | None:
        block = self._buy_block(player, owner, bid, placed)
        if block is None:
            return None
        return {"too-soon": "you can put a tile of your own store on your board only on a later turn",
                "protected": f"{self.players[owner]}'s Steward guards their store until their next turn",
                "cannot-pay": f"you cannot pay {describe(bid)} for it"}[block], block

    def check(self, player: int, action: Any) -> None:
        if self.phase == OVER:
            raise IllegalAction("the game is over", "over")
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < self.num_players:
            raise IllegalAction(f"there is no player {player!r}", "no-player")
        if not self._is_actor(player):
            if self.is_chance_node():
                raise IllegalAction("wait: the table has to move on first", "not-your-turn")
            who = self.players[self.current_players()[0]]
            raise IllegalAction(f"it is not your move: {who} is to act", "not-your-turn")
        if self.queue:
            if not isinstance(action, Choose):
                raise IllegalAction(f"first answer: {self._prompt(self.queue[0])}", "pending")
            if action not in self._options(self.queue[0]):
                raise IllegalAction(f"{action.value!r} is not one of the choices: {self._prompt(self.queue[0])}",
                                    "bad-choice")
            return
        if isinstance(action, Choose):
            raise IllegalAction("there is nothing to choose now", "nothing-to-choose")
        if isinstance(action, EndTurn):
            return
        kind = ACTION_KIND.get(type(action))
        if kind is None:
            raise IllegalAction("that is not a Key Harvest move", "not-a-move")
        why = self._may(player, kind)
        if why is not None:
            raise IllegalAction(*why)
        code = action.code
        # A move built by hand (or a fuzzer) may carry anything: refuse it in words, never with a TypeError.
        if not isinstance(code, str) or code not in B.CODE_SET:
            raise IllegalAction(f"there is no space {str(code)[:20]!r} (spaces are A1–G7)", "no-space")
        if isinstance(action, Harvest):
            if not self._up[player] & B.BIT[code]:
                raise IllegalAction(f"you have no unharvested tile on {code}", "not-harvestable")
        elif isinstance(action, PlaceWorker):
            wid = action.worker
            if not isinstance(wid, str) or wid not in WORKERS:
                raise IllegalAction(f"there is no worker {str(wid)[:20]!r}", "no-worker")
            if wid not in self.workers_available(player):
                raise IllegalAction(f"the {WORKERS[wid].name} is not available to you", "worker-busy")
            if code not in self._spaces(player, wid):
                raise IllegalAction(self._space_reason(player, wid, code), "bad-space")
        elif isinstance(action, RemoveWorker):
            if code not in self.workers_on[player]:
                raise IllegalAction(f"you have no worker on {code}", "no-worker-there")
        elif isinstance(action, Buy):
            try:
                o, i = self._store_entry(code)
            except KeyError:
                raise IllegalAction(f"{code} is in nobody's store", "not-in-store") from None
            _, bid, placed = self.stores[o][i]
            why = self._buy_problem(player, o, bid, placed)
            if why is not None:
                raise IllegalAction(*why)
        elif isinstance(action, Bid):
            if code not in self.registry:
                raise IllegalAction(f"{code} is not in the land registry", "not-in-registry")
            c = action.counters
            if (not isinstance(c, (tuple, list)) or len(c) != 5
                    or any(not isinstance(x, int) or x < 0 for x in c) or sum(c) < 1):
                raise IllegalAction("a bid needs at least one counter", "empty-bid")
            if not covers(self.counters[player], c):
                raise IllegalAction(f"you do not have {describe(c)} behind your screen", "cannot-pay")

    def _space_reason(self, player: int, wid: str, code: str) -> str:
        w = WORKERS[wid]
        if self._tiles[player] & B.BIT[code]:
            return f"{code} holds a field tile: a worker needs an empty space"
        old = self.workers_on[player].get(code)
        if old is not None and WORKERS[old].value >= w.value:
            return f"{code} holds your {WORKERS[old].name}: only a higher worker may replace it"
        n = B.touching(code, self._tiles[player])
        if n < w.value:
            return f"the {w.name} must touch at least {w.value} field tiles; {code} touches {n}"
        return f"{code} touches another worker"
