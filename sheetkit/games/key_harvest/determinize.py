"""Sample what one seat cannot see in a Key Harvest game: the bag's order and the others' counters.

A seat sees every board, store, bid, the registry, the stock, its own screen and the table's log
(``journal``: harvests, gains, bids, payments, choices — all done in the open). What it cannot see:

- the **bag order** — its contents are known (every field tile not on the table, every event not yet
  placed), so a sample is a fresh shuffle of them;
- the **others' counters**. Every counter that moved after the setup moved in the open, so each
  other player's screen is their 3 blind counters plus a public change (``public_changes``); only
  who drew which blind counters is secret. A sample deals the blind counters nobody can place
  (12 of each crop minus the stock, the bids and the seat's own screen, minus the public changes)
  at random to the others, first giving each what their past payments prove they had.

``sample`` returns a full game state (a clone) with those parts replaced: rollouts and searches run
on it as on a real game. It reads nothing hidden from ``state`` (tests swap the hidden parts and get
the same samples).
"""

from __future__ import annotations

import random
from typing import Any

from sheetkit.games.key_harvest import board as B
from sheetkit.games.key_harvest.crops import COUNTERS_PER_CROP, CROP_INDEX, Counters
from sheetkit.games.key_harvest.events import events_for
from sheetkit.games.key_harvest.state import KeyHarvestState


def unseen_bag(state: KeyHarvestState) -> list[str]:
    """The bag's contents as any seat can work them out (in a fixed order): unplaced tiles and events."""
    seen = set(state.registry) | set(state.discards)
    for p in range(state.num_players):
        seen.update(state.tiles_of(p))
        seen.update(code for code, _, _ in state.stores[p])
    items = [c for c in B.CODES if c not in seen]
    if state.params.events:
        placed = list(state.events_placed)
        for e in events_for(state.num_players):
            if e in placed:
                placed.remove(e)
            else:
                items.append(e)
    return items


def public_changes(state: KeyHarvestState) -> tuple[list[list[int]], list[list[int]]]:
    """Per player and crop: the change of their screen since the setup as the log shows it, and its lowest
    running value (how far below the blind counters it went: they must have held at least that much)."""
    n = state.num_players
    delta = [[0] * 5 for _ in range(n)]
    low = [[0] * 5 for _ in range(n)]
    bids: dict[str, tuple[int, list[int]]] = {}

    def move(p: int, c: list[int] | tuple[int, ...], sign: int) -> None:
        d, lo = delta[p], low[p]
        for k in range(5):
            if c[k]:
                d[k] += sign * c[k]
                if d[k] < lo[k]:
                    lo[k] = d[k]

    for e in state.journal:
        what = e.get("what")
        if what == "harvest":
            move(e["player"], e["gained"], 1)
        elif what == "gain":
            move(e["player"], e["counters"], 1)
        elif what == "give":
            move(e["player"], e["counters"], -1)
        elif what == "bid":
            bids[e["code"]] = (e["player"], list(e["counters"]))
            move(e["player"], e["counters"], -1)
        elif what == "buy":
            owner = e["from"]
            if owner != e["player"]:
                move(e["player"], e["paid"], -1)
                move(owner, [2 * x for x in e["paid"]], 1)
            bids.pop(e["code"], None)
        elif what == "choose":
            _choice(e, bids, move)
    return delta, low


def _choice(e: dict[str, Any], bids: dict[str, tuple[int, list[int]]], move: Any) -> None:
    """A journal ``choose`` entry's effect on screens (crops taken or given, a Lawyer's refund)."""
    kind, value, p = e["kind"], e["value"], e["player"]
    if value == "decline":
        return
    one = [0] * 5
    if value in CROP_INDEX:
        one[CROP_INDEX[value]] = 1
    if kind in ("crop", "substitute", "take"):
        move(p, one, 1)
    elif kind == "miller":
        move(p, [2 * x for x in one], 1)  # the stock may have held only 1: the sampler tolerates that
    elif kind == "give":
        move(p, one, -1)
    elif kind == "sale" and e.get("counters"):
        move(p, e["counters"], -1)
    elif kind == "lawyer" and value in bids:
        owner, bid = bids.pop(value)
        move(owner, bid, 1)
    elif kind == "notary":
        bids.pop(value, None)


def hidden_pool(state: KeyHarvestState, player: int) -> list[int]:
    """Per crop: the counters behind the other players' screens together (12 minus everything seen)."""
    out = []
    mine = state.counters[player]
    for c in range(5):
        seen = state.stock[c] + mine[c] + sum(bid[c] for store in state.stores for _, bid, _ in store)
        out.append(COUNTERS_PER_CROP - seen)
    return out


def sample_counters(state: KeyHarvestState, player: int, rng: random.Random) -> list[Counters]:
    """Every screen, ``player``'s as it is and the others' dealt at random consistently with the public log."""
    n = state.num_players
    others = [q for q in range(n) if q != player]
    pool = hidden_pool(state, player)
    out: list[Counters] = [tuple(state.counters[player])] * n  # type: ignore[list-item]
    if not others:
        return out
    delta, low = public_changes(state)
    start = state.params.start_counters
    blind = [pool[c] - sum(delta[q][c] for q in others) for c in range(5)]
    need = {q: [max(0, -low[q][c], -delta[q][c]) for c in range(5)] for q in others}
    ok = (min(blind) >= 0 and sum(blind) == start * len(others)
          and all(sum(need[q]) <= start for q in others)
          and all(sum(need[q][c] for q in others) <= blind[c] for c in range(5)))
    if ok:
        # Each one's proven counters first, then the rest of the blind counters shuffled into the free places.
        rest = [c for c in range(5) for _ in range(blind[c] - sum(need[q][c] for q in others))]
        rng.shuffle(rest)
        i = 0
        for q in others:
            hand = list(need[q])
            for _ in range(start - sum(need[q])):
                hand[rest[i]] += 1
                i += 1
            out[q] = tuple(hand[c] + delta[q][c] for c in range(5))  # type: ignore[assignment]
        if all(min(h) >= 0 for h in out):
            return out
    # The log cannot be read exactly (a Miller short of stock, say): deal the pool at random instead.
    hands = {q: [0] * 5 for q in others}
    flat = [c for c in range(5) for _ in range(max(0, pool[c]))]
    rng.shuffle(flat)
    for i, c in enumerate(flat):
        hands[others[i % len(others)]][c] += 1
    for q in others:
        out[q] = tuple(hands[q])  # type: ignore[assignment]
    return out


def sample(state: KeyHarvestState, player: int, rng: random.Random) -> KeyHarvestState:
    """A copy of ``state`` with the unseen (bag order, others' counters) drawn at random as ``player`` may
    believe it."""
    s = state.clone()
    bag = unseen_bag(state)
    rng.shuffle(bag)
    if len(bag) != state.bag_remaining():  # cannot happen by the rules; keep the game playable regardless
        bag = bag[: state.bag_remaining()]
    s._bag = list(s._bag[: s._bag_pos]) + bag
    s.counters = sample_counters(state, player, rng)
    s._plan = {}
    return s
