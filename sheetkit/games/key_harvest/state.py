"""The state of one Key Harvest game: boards, stores, registry, bag, counters, workers, events, turn.

Flow (docs/key_harvest.md): a ``setup`` table step deals the starting pairs, the blind counters, the
registry and the start player. Then turns: the active player takes one or two different actions
(harvest / worker / buy / bid), answering any ``pending`` decision an effect asks for, and ends
the turn with ``EndTurn``. The table then refills the registry one ``draw`` step at a time; an
event drawn resolves at once for every player (decisions asked in turn order from the active
player) and drawing goes on. A final ``end`` step discards unclaimed store tiles.

Public state the UI reads (all read-only; change it only through moves and table steps):

- ``players`` (names), ``params`` (``KeyHarvestParams``), ``seed``, ``num_players``
- ``phase``: ``"setup"`` / ``"act"`` / ``"refill"`` / ``"end"`` (table steps: setup, refill, end) / ``"over"``
- ``active`` (whose turn), ``turn`` (turns started so far, 1-based), ``start_player``
- ``boards[p]``: dict code → ``"up"`` (unharvested) / ``"harvested"``, in board order
- ``workers_on[p]``: dict code → worker id; ``farmhands_free[p]``: farmhand ids beside the board;
  ``townsfolk_in_town``: townsfolk ids still on the town board
- ``stores[p]``: list of ``(code, counters, placed_turn)``; ``protected[p]``: the Steward guards the store
- ``registry``: face-up codes; ``events_placed``: event ids in order; ``bag_remaining()``: a count only
- ``counters[p]``: 5-tuple (wine, hops, apples, vegetables, wheat) behind the screen (secret: use ``view``);
  ``stock``: 5-tuple; ``discards``: codes out of the game
- ``turn_actions``: the actions done this turn in order (``"harvest"``, ``"worker"``, ``"buy"``, ``"bid"``),
  ``turn_moves``: one entry per move; ``buys_left()``, ``bids_left()``; ``buy_limit``
- ``pending``: the decision asked now (``Pending``: ``player``, ``kind``, ``prompt``, ``source``) or None;
  ``legal_actions(pending.player)`` lists its answers
- ``final_turns_left``: None until the end is triggered, then turns still to play; ``end_reason``
- ``groups(p)``, ``legal_spaces(p, worker)``, ``can_afford(p, counters)``, ``breakdown(p)``, ``scores()``,
  ``placings()``; ``journal``: one plain dict per thing that happened (for the UI's log; not in the record)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, ClassVar

from sheetkit.core.chance import make_rng
from sheetkit.core.codes import make_code
from sheetkit.core.errors import IllegalAction
from sheetkit.core.protocol import GameState
from sheetkit.core.records import make_record
from sheetkit.games.key_harvest import board as B
from sheetkit.games.key_harvest.crops import (
    COUNTERS_PER_CROP,
    CROP_INDEX,
    CROPS,
    Counters,
    add,
    covers,
    describe,
    mixes,
    sub,
    unit,
)
from sheetkit.games.key_harvest.events import EVENTS, events_for
from sheetkit.games.key_harvest.moves import (
    Bid,
    Buy,
    Choose,
    EndTurn,
    Harvest,
    KeyHarvestAction,
    PlaceWorker,
    RemoveWorker,
)
from sheetkit.games.key_harvest.params import MAX_PLAYERS, MIN_PLAYERS, KeyHarvestParams, preset_name
from sheetkit.games.key_harvest.workers import FARMHAND_IDS, TOWNSFOLK_IDS, WORKERS

GAME = "key-harvest"
SETUP, ACT, REFILL, END, OVER = "setup", "act", "refill", "end", "over"
DECLINE = "decline"
SALE_PRICE = 3  # counters the land-sale event asks per tile (known from play reports)

_PROMPTS = {
    "crop": "Choose a crop to take from the stock",
    "miller": "Choose a crop: take 2 counters of it from the stock",
    "substitute": "Choose a crop still in stock to take instead of one that ran out",
    "give": "Choose a crop to give to the stock (or decline)",
    "take": "Choose a crop to take from the stock in exchange",
    "notary": "Choose a tile of your store to put on your board now (or decline)",
    "foreman": "Choose one of your unharvested groups to harvest (or decline)",
    "lawyer": "Choose a tile from another player's store to take (or decline)",
    "bailiff": "Choose a tile from the land registry to take for free (or decline)",
    "census": "Census: choose a tile from the land registry to take for free (or decline)",
    "replace": "Your worker was displaced: choose a space to put it on again (or decline: it goes back)",
    "pass": "Boundary shift: choose one of your field tiles to pass to the player on your left",
    "sale": "Land sale: choose a registry tile and 3 counters to pay for it (or decline)",
    "frost": "Late frost: choose one of your unharvested tiles to turn over",
}
_ACTION_KIND = {Harvest: "harvest", PlaceWorker: "worker", RemoveWorker: "worker", Buy: "buy", Bid: "bid"}


@dataclass(frozen=True)
class Pending:
    """A decision an effect asks one player for; answer it with one of ``legal_actions(player)`` (``Choose``)."""

    player: int
    kind: str  # crop, miller, substitute, give, take, notary, foreman, lawyer, bailiff, census, replace, pass, ...
    prompt: str  # plain words: what to choose
    source: str  # the worker or event id that asked (or "harvest", "displaced")
    worker: str | None = None  # for "replace": the displaced worker's id

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "kind": self.kind, "prompt": self.prompt, "source": self.source,
                "worker": self.worker}


class KeyHarvestState(GameState):
    """A Key Harvest game in progress, 2–4 players."""

    game_name: ClassVar[str] = GAME

    def __init__(self, params: KeyHarvestParams | None = None, players: list[str] | int = 3,
                 seed: int | None = None, deal: Any = None) -> None:
        self.params = params or KeyHarvestParams()
        if isinstance(players, int):
            players = ["You"] + [f"Player {i + 1}" for i in range(1, players)] if players > 0 else []
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise ValueError(f"Key Harvest takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}")
        if deal is not None or seed is None:
            raise ValueError("Key Harvest games start from a seed (there is no fixed-deal form)")
        self.players: list[str] = list(players)
        self.seed = seed
        n = len(self.players)
        self._plan = self._deal(seed, n)
        self._bag: list[str] = list(self._plan["bag"])
        self._bag_pos = 0
        self._tiles = [0] * n  # field tiles on each board (bitmask)
        self._up = [0] * n  # of those, the unharvested ones
        self.workers_on: list[dict[str, str]] = [{} for _ in range(n)]
        self.farmhands_free: list[list[str]] = [list(FARMHAND_IDS) for _ in range(n)]
        self.townsfolk_in_town: list[str] = list(TOWNSFOLK_IDS)
        self.stores: list[list[tuple[str, Counters, int]]] = [[] for _ in range(n)]
        self.protected = [False] * n
        self.registry: list[str] = []
        self.events_placed: list[str] = []
        self.discards: list[str] = []
        self.counters: list[Counters] = [(0, 0, 0, 0, 0)] * n
        self.stock: Counters = (COUNTERS_PER_CROP,) * 5  # type: ignore[assignment]
        self.active = 0
        self.start_player = 0
        self.turn = 0
        self.turn_moves: list[str] = []
        self.buy_limit = 2
        self.final_turns_left: int | None = None
        self.end_reason: str | None = None
        self.phase = SETUP
        self.queue: list[dict[str, Any]] = []
        self.played: dict[str, int] = {}  # how often each worker was played and each event drawn (statistics)
        self.journal: list[dict[str, Any]] = []
        self._undo: list[tuple[int, tuple[Any, ...], int]] = []
        self.log: list[dict[str, Any]] = []

    # ----- the deal ----------------------------------------------------------------------
    def _deal(self, seed: int, n: int) -> dict[str, Any]:
        """Everything chance decides, from the seed: pairs, blind counters, registry, start player, bag order."""
        rng = make_rng(seed)
        pairs = [B.START_PAIRS[int(i)] for i in rng.permutation(len(B.START_PAIRS))[:n]]
        stock = [COUNTERS_PER_CROP] * 5
        drawn = []
        for _ in range(n):
            mine = [0] * 5
            for _ in range(self.params.start_counters):
                r = int(rng.integers(sum(stock)))
                c = 0
                while r >= stock[c]:
                    r -= stock[c]
                    c += 1
                stock[c] -= 1
                mine[c] += 1
            drawn.append(tuple(mine))
        used = {c for pr in pairs for c in pr}
        items = [c for c in B.CODES if c not in used]
        if self.params.events:
            items += list(events_for(n))
        bag = [items[int(i)] for i in rng.permutation(len(items))]
        registry, aside, pos = [], [], 0
        while len(registry) < self.params.registry_size and pos < len(bag):
            item = bag[pos]
            pos += 1
            (aside if item in EVENTS else registry).append(item)
        rest = bag[pos:] + aside
        rest = [rest[int(i)] for i in rng.permutation(len(rest))]
        start = int(rng.integers(n))
        return {"pairs": pairs, "counters": drawn, "registry": registry, "bag": rest, "start": start}

    # ----- protocol basics ---------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    def boards(self) -> list[dict[str, str]]:
        """Each board: code → "up" (unharvested) or "harvested", in board order."""
        return [{c: ("up" if self._up[p] & B.BIT[c] else "harvested") for c in B.codes_in(self._tiles[p])}
                for p in range(self.num_players)]

    @property
    def pending(self) -> Pending | None:
        """The decision asked now, or None."""
        if not self.queue:
            return None
        t = self.queue[0]
        return Pending(t["player"], t["kind"], self._prompt(t), t.get("source", ""), t.get("worker"))

    @property
    def turn_actions(self) -> list[str]:
        """The different actions done this turn, in order (harvest / worker / buy / bid)."""
        out: list[str] = []
        for k in self.turn_moves:
            if k not in out:
                out.append(k)
        return out

    def current_players(self) -> list[int]:
        if self.queue:
            return [self.queue[0]["player"]]
        return [self.active] if self.phase == ACT else []

    def is_chance_node(self) -> bool:
        return self.phase in (SETUP, REFILL, END) and not self.queue

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def bag_remaining(self) -> int:
        """How many tiles and events are still in the bag (their order is secret)."""
        return len(self._bag) - self._bag_pos

    def tiles_of(self, player: int) -> list[str]:
        """The codes of ``player``'s field tiles, in board order."""
        return B.codes_in(self._tiles[player])

    def groups(self, player: int) -> list[list[str]]:
        """``player``'s connected groups of field tiles (workers do not connect), largest first."""
        return [B.codes_in(g) for g in B.groups(self._tiles[player])]

    def harvestable_groups(self, player: int) -> list[list[str]]:
        """``player``'s groups of unharvested tiles (connected through unharvested tiles), largest first."""
        return [B.codes_in(g) for g in B.groups(self._up[player])]

    def can_afford(self, player: int, counters: Counters) -> bool:
        """True when ``player``'s screen holds at least ``counters``."""
        return covers(self.counters[player], counters)

    def owned_counters(self, player: int) -> int:
        """Counters ``player`` owns: behind the screen plus their bids lying in their store."""
        return sum(self.counters[player]) + sum(sum(b) for _, b, _ in self.stores[player])

    def set_board(self, player: int, up: list[str] | tuple[str, ...] = (),
                  harvested: list[str] | tuple[str, ...] = ()) -> None:
        """For lessons and tests only: lay out ``player``'s field tiles (no record can hold this change)."""
        self._up[player] = B.mask_of(up)
        self._tiles[player] = B.mask_of(up) | B.mask_of(harvested)

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

    # ----- the table's steps -------------------------------------------------------------
    def apply_chance(self) -> dict[str, Any]:
        """One table step: the setup deal, one draw from the bag while refilling, or the end."""
        if not self.is_chance_node():
            raise IllegalAction("the game is over" if self.phase == OVER else
                                "the table cannot move yet: a player has to act", "not-table")
        self._undo = []
        entry: dict[str, Any]
        if self.phase == SETUP:
            plan = self._plan
            for p, pair in enumerate(plan["pairs"]):
                m = B.mask_of(pair)
                self._tiles[p] = self._up[p] = m
            self.counters = [tuple(c) for c in plan["counters"]]  # type: ignore[misc]
            stock = (COUNTERS_PER_CROP,) * 5
            for c in self.counters:
                stock = sub(stock, c)
            self.stock = stock  # type: ignore[assignment]
            self.registry = list(plan["registry"])
            self.start_player = self.active = plan["start"]
            self.turn = 1
            self.phase = ACT
            # The blind counters are logged (record version 2) so a record shows where every counter came from.
            entry = {"chance": "setup", "pairs": [list(pr) for pr in plan["pairs"]],
                     "counters": [list(c) for c in self.counters], "registry": list(self.registry),
                     "start": self.start_player}
            self.journal.append({"what": "setup", "pairs": entry["pairs"], "start": self.start_player})
        elif self.phase == REFILL:
            item = self._bag[self._bag_pos]
            self._bag_pos += 1
            if item in EVENTS:
                entry = {"chance": "draw", "event": item}
                self.log.append(entry)
                self._event(item)
                self._settle()
                return entry
            self.registry.append(item)
            entry = {"chance": "draw", "tile": item}
            self.journal.append({"what": "draw", "tile": item})
            self._continue_refill()
        else:
            for p in range(self.num_players):
                for code, bid, _ in self.stores[p]:
                    self.counters[p] = add(self.counters[p], bid)
                    self.discards.append(code)
                self.stores[p] = []
            self.phase = OVER
            entry = {"chance": "end"}
            self.journal.append({"what": "end", "reason": self.end_reason})
        self.log.append(entry)
        return entry

    def _continue_refill(self) -> None:
        """Draw on while the registry has room and the bag has items; else the next turn begins."""
        if len(self.registry) < self.params.registry_size and self.bag_remaining() > 0:
            self.phase = REFILL
        else:
            self._next_turn()

    def _next_turn(self) -> None:
        n = self.num_players
        reason = None
        if self.final_turns_left is not None and self.final_turns_left <= 0:
            reason = "every player took their last turns after the last event"
        elif self.final_turns_left is None and self.bag_remaining() == 0 and (self.active + 1) % n == self.start_player:
            reason = "the bag ran out and the round is finished"
        elif self.turn >= self.params.max_turns:
            reason = f"the turn limit ({self.params.max_turns}) was reached"
        if reason is not None:
            self.end_reason = reason
            self.phase = END
            return
        self.active = (self.active + 1) % n
        self.turn += 1
        self.protected[self.active] = False
        self.turn_moves = []
        self.buy_limit = 2
        self.phase = ACT

    # ----- effects -----------------------------------------------------------------------
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
            for c in range(5):
                if near & B.CROP_MASKS[c]:
                    self._take(player, c)
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
            for p in order:
                self._take(p, CROP_INDEX["wine"])
        elif eid == "windfall":
            for p in order:
                while sum(self.counters[p]) < 3 and any(self.stock):
                    self._take(p, max(range(5), key=lambda c: (self.stock[c], -c)))
        elif eid == "tithe":
            for p in order:
                mine = self.counters[p]
                c = max(range(5), key=lambda k: (mine[k], -k))
                if mine[c]:
                    self._give(p, c)
        elif eid == "deadline":
            for p in order:
                entries, self.stores[p] = self.stores[p], []
                for code, bid, _ in entries:
                    self.stock = add(self.stock, bid)
                    self._gain_tile_queued(p, code)
        elif eid == "holiday":
            for p in order:
                mine = [(WORKERS[w].value, FARMHAND_IDS.index(w), c) for c, w in self.workers_on[p].items()
                        if not WORKERS[w].townsfolk]
                if mine:
                    code = min(mine)[2]
                    self._home(p, self.workers_on[p].pop(code))
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

    # ----- pending decisions -------------------------------------------------------------
    def _prompt(self, t: dict[str, Any]) -> str:
        k = t["kind"]
        if k == "replace":
            w = WORKERS[t["worker"]]
            return f"Your {w.name} ({w.value}) was displaced: choose a space to put it on again (or decline)"
        if k == "take":
            return f"Choose a crop to take from the stock for your {CROPS[t['gave']]}"
        if k == "substitute":
            return f"{_PROMPTS[k]} ({t['n']} to take)"
        if k == "pass":
            left = self.players[(t["player"] + 1) % self.num_players]
            return f"Boundary shift: choose one of your field tiles to pass to {left}"
        return _PROMPTS[k]

    def _options(self, t: dict[str, Any]) -> list[Choose]:
        p, k = t["player"], t["kind"]
        out: list[Choose] = []
        decline = True
        if k in ("crop", "miller", "substitute"):
            out = [Choose(CROPS[c]) for c in range(5) if self.stock[c]]
            decline = False
        elif k == "give":
            mine = self.counters[p]
            out = [Choose(CROPS[c]) for c in range(5)
                   if mine[c] and any(self.stock[d] for d in range(5) if d != c)]
        elif k == "take":
            out = [Choose(CROPS[c]) for c in range(5) if c != t["gave"] and self.stock[c]]
            decline = False
        elif k == "notary":
            out = [Choose(code) for code, _, _ in self.stores[p]]
        elif k == "foreman":
            out = [Choose(code) for code in B.codes_in(self._up[p])]
        elif k == "lawyer":
            out = [Choose(code) for o in range(self.num_players) if o != p and not self.protected[o]
                   for code, _, _ in self.stores[o]]
        elif k in ("bailiff", "census"):
            out = [Choose(code) for code in self.registry]
        elif k == "replace":
            out = [Choose(code) for code in self._spaces(p, t["worker"])]
        elif k == "pass":
            out = [Choose(code) for code in B.codes_in(self._tiles[p])]
            decline = False
        elif k == "frost":
            out = [Choose(code) for code in B.codes_in(self._up[p])]
            decline = False
        elif k == "sale":
            mine = self.counters[p]
            if sum(mine) >= SALE_PRICE:
                pays = mixes(SALE_PRICE, mine)
                out = [Choose(code, m) for code in self.registry for m in pays]
        if out and decline:
            out.append(Choose(DECLINE))
        return out

    def _settle(self) -> None:
        """Drop decisions that have nothing to choose (and settle forced ones); then let the table go on."""
        while self.queue:
            t = self.queue[0]
            if t["kind"] == "substitute":
                left = [c for c in range(5) if self.stock[c]]
                if len(left) == 1:
                    self._take(t["player"], left[0], t["n"])
                    self.queue.pop(0)
                    continue
            if self._options(t):
                return
            self.queue.pop(0)
        if self.phase == REFILL:
            self._continue_refill()

    def _answer(self, t: dict[str, Any], ch: Choose) -> None:
        p, k, v = t["player"], t["kind"], ch.value
        self.queue.pop(0)
        self.journal.append({"what": "choose", "player": p, "kind": k, "value": v, "source": t.get("source"),
                             "counters": list(ch.counters) if ch.counters is not None else None})
        if v == DECLINE:
            return
        if k == "crop":
            self._take(p, CROP_INDEX[v])
        elif k == "miller":
            self._take(p, CROP_INDEX[v], 2)
        elif k == "substitute":
            self._take(p, CROP_INDEX[v])
            if t["n"] > 1 and any(self.stock):
                self.queue.insert(0, {**t, "n": t["n"] - 1})
        elif k == "give":
            self._give(p, CROP_INDEX[v])
            self.queue.insert(0, {"player": p, "kind": "take", "gave": CROP_INDEX[v], "source": t.get("source")})
        elif k == "take":
            self._take(p, CROP_INDEX[v])
        elif k == "notary":
            i = next(i for i, e in enumerate(self.stores[p]) if e[0] == v)
            _, bid, _ = self.stores[p].pop(i)
            self.stock = add(self.stock, bid)
            self._gain_tile(p, v)
        elif k == "foreman":
            self._harvest(p, v)
        elif k == "lawyer":
            o, i = self._store_entry(v)
            _, bid, _ = self.stores[o].pop(i)
            self.counters[o] = add(self.counters[o], bid)
            self._gain_tile(p, v)
        elif k in ("bailiff", "census"):
            self.registry.remove(v)
            self._gain_tile(p, v)
        elif k == "replace":
            self._place(p, t["worker"], v)
        elif k == "pass":
            bit = B.BIT[v]
            up = bool(self._up[p] & bit)
            self._tiles[p] &= ~bit
            self._up[p] &= ~bit
            left = (p + 1) % self.num_players
            self.journal.append({"what": "pass", "player": p, "to": left, "code": v})
            self._gain_tile(left, v, up=up)
        elif k == "frost":
            self._up[p] &= ~B.BIT[v]
        elif k == "sale":
            assert ch.counters is not None
            self.registry.remove(v)
            self.counters[p] = sub(self.counters[p], ch.counters)
            self.stock = add(self.stock, ch.counters)
            self._gain_tile(p, v)

    def _store_entry(self, code: str) -> tuple[int, int]:
        """(owner, index) of ``code`` in the stores; raises KeyError if it is in none."""
        for o, store in enumerate(self.stores):
            for i, e in enumerate(store):
                if e[0] == code:
                    return o, i
        raise KeyError(code)

    # ----- what a player may do ----------------------------------------------------------
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

    def legal_actions(self, player: int) -> list[KeyHarvestAction]:
        """Every move ``player`` may make now — except bids, where only one-counter bids are listed.

        Bids are multisets of counters, too many to list: ``legal_actions`` lists, for each registry
        tile, a bid of ONE counter of each crop the player holds; ``check`` (and ``apply``) accept
        every bid of at least one counter the player can afford. This set is closed: a one-counter
        bid listed once is listed again whenever it is legal again.
        """
        if not self._is_actor(player):
            return []
        if self.queue:
            return list(self._options(self.queue[0]))
        acts: list[KeyHarvestAction] = []
        if self._may(player, "harvest") is None:
            acts += [Harvest(c) for c in B.codes_in(self._up[player])]
        if self._may(player, "worker") is None:
            for wid in self.workers_available(player):
                acts += [PlaceWorker(wid, c) for c in self._spaces(player, wid)]
            acts += [RemoveWorker(c) for c in sorted(self.workers_on[player], key=B.sort_key)]
        if self._may(player, "buy") is None:
            for o, store in enumerate(self.stores):
                acts += [Buy(code) for code, bid, t in store if self._buy_block(player, o, bid, t) is None]
        if self._may(player, "bid") is None:
            mine = self.counters[player]
            for code in self.registry:
                acts += [Bid(code, unit(c)) for c in range(5) if mine[c]]
        acts.append(EndTurn())
        return acts

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
        kind = _ACTION_KIND.get(type(action))
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

    # ----- applying moves ----------------------------------------------------------------
    def apply_unchecked(self, player: int, action: KeyHarvestAction) -> None:
        self._undo.append((player, self._snapshot(), len(self.log)))
        self.log.append({"player": player, "action": action.to_json()})
        self._do(player, action)

    def apply_fast(self, player: int, action: KeyHarvestAction) -> None:
        """The simulation path: no checks, no undo snapshot, no log line (the record is not kept)."""
        self._do(player, action)

    def _do(self, player: int, action: KeyHarvestAction) -> None:
        if isinstance(action, Choose):
            self._answer(self.queue[0], action)
            self._settle()
            return
        if isinstance(action, EndTurn):
            self._undo = []
            self.journal.append({"what": "end-turn", "player": player, "actions": self.turn_actions})
            if self.final_turns_left is not None:
                self.final_turns_left -= 1
            self.turn_moves = []
            self.buy_limit = 2
            self._continue_refill()
            return
        kind = _ACTION_KIND[type(action)]
        self.turn_moves.append(kind)
        if isinstance(action, Harvest):
            self._harvest(player, action.code)
        elif isinstance(action, PlaceWorker):
            self._place(player, action.worker, action.code)
        elif isinstance(action, RemoveWorker):
            wid = self.workers_on[player].pop(action.code)
            self._home(player, wid)
            self.journal.append({"what": "remove", "player": player, "worker": wid, "code": action.code})
        elif isinstance(action, Buy):
            o, i = self._store_entry(action.code)
            code, bid, _ = self.stores[o].pop(i)
            if o == player:
                self.stock = add(self.stock, bid)
            else:
                self.counters[player] = sub(self.counters[player], bid)
                self.counters[o] = add(self.counters[o], add(bid, bid))
            self.journal.append({"what": "buy", "player": player, "code": code, "from": o, "paid": list(bid)})
            self._gain_tile(player, code)
        elif isinstance(action, Bid):
            self.registry.remove(action.code)
            self.counters[player] = sub(self.counters[player], action.counters)
            self.stores[player].append((action.code, tuple(action.counters), self.turn))  # type: ignore[arg-type]
            self.journal.append({"what": "bid", "player": player, "code": action.code,
                                 "counters": list(action.counters)})
        self._settle()

    # ----- undo --------------------------------------------------------------------------
    def _snapshot(self) -> tuple[Any, ...]:
        return (list(self._tiles), list(self._up), [dict(d) for d in self.workers_on],
                [list(f) for f in self.farmhands_free], list(self.townsfolk_in_town), [list(s) for s in self.stores],
                list(self.protected), list(self.registry), list(self.events_placed), list(self.discards),
                list(self.counters), self.stock, self.active, self.turn, list(self.turn_moves), self.buy_limit,
                self.final_turns_left, self.end_reason, self.phase, [dict(t) for t in self.queue], dict(self.played),
                len(self.journal))

    def _restore(self, snap: tuple[Any, ...]) -> None:
        # Load the snapshot, then copy what was loaded: clones share undo snapshots, which must never change.
        self._load(snap)
        self._load(self._snapshot())

    def _load(self, snap: tuple[Any, ...]) -> None:
        (self._tiles, self._up, self.workers_on, self.farmhands_free, self.townsfolk_in_town, self.stores,
         self.protected, self.registry, self.events_placed, self.discards, self.counters, self.stock, self.active,
         self.turn, self.turn_moves, self.buy_limit, self.final_turns_left, self.end_reason, self.phase, self.queue,
         self.played, njournal) = snap
        del self.journal[njournal:]

    def can_undo(self, player: int) -> bool:
        """True when ``player`` made the last move and no table step or end of turn has happened since."""
        return self.phase != OVER and bool(self._undo) and self._undo[-1][0] == player

    def undo(self, player: int) -> None:
        """Take back your own last move of this turn (or of this event's decisions)."""
        if not self.can_undo(player):
            raise IllegalAction("nothing to undo: you can take back your own last move until the turn ends "
                                "or the table moves on", "no-undo")
        _, snap, at = self._undo.pop()
        self._restore(snap)
        del self.log[at:]

    # ----- scores ------------------------------------------------------------------------
    def breakdown(self, player: int) -> dict[str, Any]:
        """The score in full: the two largest groups, the workers, the counters, the total and the placing."""
        prm = self.params
        largest, second = B.two_largest(self._tiles[player])
        group_points = largest * prm.largest_mult + second * prm.second_mult
        workers = sum(WORKERS[w].value for w in self.workers_on[player].values())
        owned = self.owned_counters(player)
        cp = owned // prm.counters_per_point
        return {
            "player": self.players[player], "largest": largest, "second": second, "group_points": group_points,
            "workers": workers, "counters": owned, "counter_points": cp, "total": group_points + workers + cp,
            "tiles": self._tiles[player].bit_count(), "placing": self.placings()[player], "final": self.phase == OVER,
        }

    def total(self, player: int) -> int:
        """``player``'s score as it stands."""
        prm = self.params
        largest, second = B.two_largest(self._tiles[player])
        workers = sum(WORKERS[w].value for w in self.workers_on[player].values())
        return (largest * prm.largest_mult + second * prm.second_mult + workers
                + self.owned_counters(player) // prm.counters_per_point)

    def scores(self) -> list[int]:
        return [self.total(p) for p in range(self.num_players)]

    def placings(self) -> list[int]:
        """1-based placing per player: by score, then by counters owned; still equal, they share it."""
        keys = [(self.total(p), self.owned_counters(p)) for p in range(self.num_players)]
        return [1 + sum(1 for k in keys if k > keys[p]) for p in range(self.num_players)]

    def score_bounds(self) -> tuple[int, int]:
        prm = self.params
        n = len(B.CODES)
        groups = max(a * prm.largest_mult + min(a, n - a) * prm.second_mult for a in range(n + 1))
        workers = sum(w.value for w in WORKERS.values())
        return (0, groups + workers + 5 * COUNTERS_PER_CROP // prm.counters_per_point)

    # ----- views, copies, records --------------------------------------------------------
    def view(self, player: int) -> dict[str, Any]:
        """What ``player`` sees: the whole table; others' counters only as "hidden"; the bag as a count."""
        pend = self.pending
        return {
            "game": GAME, "player": player, "players": list(self.players), "phase": self.phase,
            "turn": self.turn, "active": self.active, "start_player": self.start_player,
            "boards": self.boards, "workers_on": [dict(d) for d in self.workers_on],
            "farmhands_free": [list(f) for f in self.farmhands_free], "townsfolk_in_town": list(self.townsfolk_in_town),
            "stores": [[[c, list(b), t] for c, b, t in s] for s in self.stores], "protected": list(self.protected),
            "registry": list(self.registry), "events_placed": list(self.events_placed),
            "bag_remaining": self.bag_remaining(), "discards": list(self.discards), "stock": list(self.stock),
            "counters": [list(c) if q == player else "hidden" for q, c in enumerate(self.counters)],
            "turn_actions": self.turn_actions, "turn_moves": list(self.turn_moves), "buy_limit": self.buy_limit,
            "pending": pend.to_json() if pend is not None else None,
            "final_turns_left": self.final_turns_left, "end_reason": self.end_reason,
            "scores": [self._public_score(q) if q != player else self.total(q) for q in range(self.num_players)],
        }

    def _public_score(self, player: int) -> int:
        """What the others can see of a score: groups and workers (counters are secret)."""
        prm = self.params
        largest, second = B.two_largest(self._tiles[player])
        return largest * prm.largest_mult + second * prm.second_mult + sum(
            WORKERS[w].value for w in self.workers_on[player].values())

    def clone(self) -> KeyHarvestState:
        new = KeyHarvestState.__new__(KeyHarvestState)
        new.__dict__.update(self.__dict__)
        (new._tiles, new._up, new.workers_on, new.farmhands_free, new.townsfolk_in_town, new.stores, new.protected,
         new.registry, new.events_placed, new.discards, new.counters, new.stock, new.active, new.turn, new.turn_moves,
         new.buy_limit, new.final_turns_left, new.end_reason, new.phase, new.queue, new.played, _) = self._snapshot()
        new.players = list(self.players)
        new.journal = list(self.journal)
        new._undo = list(self._undo)
        new.log = list(self.log)
        return new

    def game_code(self) -> str | None:
        """The short code for this deal (``KH-XXXX-XXXX``), when the rules are a preset."""
        preset = preset_name(self.params)
        return None if preset is None else make_code("KH", self.seed, preset)

    def to_record(self) -> dict[str, Any]:
        return make_record(GAME, self.params.to_json(), self.players, self.log, seed=self.seed,
                           code=self.game_code())

    def audit(self) -> list[str]:
        """docs/key_harvest.md §Components: 12 counters of each crop (stock + screens + bids in the stores) and
        the 56 field tiles (bag + registry + stores + boards + discards), none duplicated or lost; what breaks
        that, in words."""
        problems = []
        for c, crop in enumerate(CROPS):
            places = [self.stock[c], *(screen[c] for screen in self.counters),
                      *(bid[c] for store in self.stores for _, bid, _ in store)]
            if sum(places) != COUNTERS_PER_CROP or min(places) < 0:
                problems.append(f"{crop}: {sum(places)} counters in the game (stock, screens, bids: {places}), "
                                f"not {COUNTERS_PER_CROP} with none below 0")
        if self.phase != SETUP:
            where = ([x for x in self._bag[self._bag_pos:] if x not in EVENTS] + list(self.registry)
                     + [c for store in self.stores for c, _, _ in store]
                     + [c for p in range(self.num_players) for c in self.tiles_of(p)] + list(self.discards))
            twice = sorted({c for c in where if where.count(c) > 1})
            lost = sorted(set(B.CODES) - set(where))
            if twice or lost or len(where) != len(B.CODES):
                problems.append(f"field tiles: {len(where)} in the game, not {len(B.CODES)}"
                                + (f"; twice: {', '.join(twice)}" if twice else "")
                                + (f"; lost: {', '.join(lost)}" if lost else ""))
        return problems

    def fingerprint(self) -> str:
        return json.dumps({
            "boards": self.boards, "workers_on": self.workers_on, "free": self.farmhands_free,
            "town": self.townsfolk_in_town, "stores": self.stores, "protected": self.protected,
            "registry": self.registry, "events": self.events_placed, "discards": self.discards,
            "counters": self.counters, "stock": self.stock, "active": self.active, "turn": self.turn,
            "moves": self.turn_moves, "buy_limit": self.buy_limit, "final": self.final_turns_left,
            "end": self.end_reason, "phase": self.phase, "queue": self.queue, "bag": self._bag_pos,
            "start": self.start_player, "log": self.log,
        }, sort_keys=True)
