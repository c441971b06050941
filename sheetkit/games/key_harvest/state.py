"""The state of one Key Harvest game: boards, stores, registry, bag, counters, workers, events, turn.

Flow (docs/key_harvest.md): a ``setup`` table step deals the starting pairs, the blind counters, the
registry and the start player. Then turns: the active player takes one or two different actions
(harvest / worker / buy / bid), answering any ``pending`` decision an effect asks for, and ends
the turn with ``EndTurn``. The table then refills the registry one ``draw`` step at a time; an
event drawn resolves at once for every player (decisions asked in turn order from the active
player) and drawing goes on. A final ``end`` step discards unclaimed store tiles.

This module holds the fields, the deal, the table's steps, applying a move, undo, views and
records; ``KeyHarvestState`` mixes in the rest of the rules: ``legality.py`` (what a player may
do and why not: ``may``, ``check``), ``effects.py`` (what workers, events and tiles do),
``decisions.py`` (the decisions an effect asks: prompts, options, answers) and ``scoring.py``.

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
from typing import Any, ClassVar

from sheetkit.core.chance import make_rng
from sheetkit.core.errors import IllegalAction
from sheetkit.core.records import RecordedGame
from sheetkit.games.key_harvest import board as B
from sheetkit.games.key_harvest.crops import COUNTERS_PER_CROP, CROPS, Counters, add, covers, sub, unit
from sheetkit.games.key_harvest.decisions import DECLINE, SALE_PRICE, Decisions, Pending
from sheetkit.games.key_harvest.effects import Effects
from sheetkit.games.key_harvest.events import EVENTS, events_for
from sheetkit.games.key_harvest.legality import ACTION_KIND, Legality
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
from sheetkit.games.key_harvest.params import MAX_PLAYERS, MIN_PLAYERS, PRESETS, KeyHarvestParams
from sheetkit.games.key_harvest.phases import ACT, END, OVER, REFILL, SETUP
from sheetkit.games.key_harvest.scoring import Scoring
from sheetkit.games.key_harvest.workers import FARMHAND_IDS, TOWNSFOLK_IDS

# Other modules import these from here (state.py was once the whole of the rules).
__all__ = ["ACT", "DECLINE", "END", "GAME", "OVER", "REFILL", "SALE_PRICE", "SETUP", "KeyHarvestState", "Pending"]

GAME = "key-harvest"


class KeyHarvestState(Legality, Decisions, Effects, Scoring, RecordedGame):
    """A Key Harvest game in progress, 2–4 players."""

    game_name: ClassVar[str] = GAME
    code_prefix: ClassVar[str] = "KH"
    presets: ClassVar[dict[str, Any]] = PRESETS

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

    def set_board(self, player: int, up: list[str] | tuple[str, ...] = (),
                  harvested: list[str] | tuple[str, ...] = ()) -> None:
        """For lessons and tests only: lay out ``player``'s field tiles (no record can hold this change)."""
        self._up[player] = B.mask_of(up)
        self._tiles[player] = B.mask_of(up) | B.mask_of(harvested)

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

    def _store_entry(self, code: str) -> tuple[int, int]:
        """(owner, index) of ``code`` in the stores; raises KeyError if it is in none."""
        for o, store in enumerate(self.stores):
            for i, e in enumerate(store):
                if e[0] == code:
                    return o, i
        raise KeyError(code)

    # ----- the moves a player may make (the tests behind them: legality.py) -------------
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
        kind = ACTION_KIND[type(action)]
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
