"""Key Harvest's moves as mixed-radix digits, for result codes (``sheetkit.core.protocol.ChoiceCodec``).

``legal_actions`` lists only one-counter bids (a bid may be any mix of the counters behind the
player's screen), so a move's index in that list cannot write every game. Here a move is:

- one digit choosing among the listed moves that are not bids (sorted by their JSON text), plus one
  more value, "a bid", when bidding is allowed now (a pending decision's options are all listed);
- for a bid, two more digits: the registry tile (its index in the registry) and the counters, the
  count of each crop from 0 to what the player holds, in mixed radix (the empty bid left out).

Most moves are not bids, so they cost only the few bits of the first digit; a bid costs what its
tile and mix need. A decoded bid is checked with ``state.check`` before it is played.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from sheetkit.games.key_harvest.crops import Counters, counters
from sheetkit.games.key_harvest.moves import Bid, KeyHarvestAction
from sheetkit.games.key_harvest.state import KeyHarvestState


def _key(action: KeyHarvestAction) -> str:
    return json.dumps(action.to_json(), sort_keys=True)


def _listed(state: KeyHarvestState, player: int) -> tuple[list[KeyHarvestAction], bool]:
    """The legal moves that are not bids, in canonical order, and whether a bid is legal now."""
    legal = state.legal_actions(player)
    others = sorted((a for a in legal if not isinstance(a, Bid)), key=_key)
    return others, len(others) < len(legal)


def held(state: KeyHarvestState, player: int) -> Counters:
    """The counters behind ``player``'s screen: a bid's mix is written within them."""
    return state.counters[player]


def _mixes(have: Counters) -> int:
    """How many non-empty bids fit in ``have``."""
    n = 1
    for h in have:
        n *= h + 1
    return n - 1


class KeyHarvestCodec:
    """A Key Harvest move ↔ digits: the listed non-bid moves by index, a bid by (tile, counters)."""

    def encode(self, state: KeyHarvestState, player: int, action: Any) -> list[tuple[int, int]] | None:
        """The digits of a legal move of ``player`` now, or None when it is not legal."""
        others, can_bid = _listed(state, player)
        first = len(others) + can_bid
        if not isinstance(action, Bid):
            key = _key(action) if hasattr(action, "to_json") else None
            i = next((i for i, a in enumerate(others) if _key(a) == key), None)
            return None if i is None else [(i, first)]
        if not can_bid or action.code not in state.registry:
            return None
        have = held(state, player)
        value, radix = 0, 1
        for c, h in zip(action.counters, have, strict=True):
            if not 0 <= c <= h:
                return None
            value += c * radix
            radix *= h + 1
        if value == 0:
            return None
        return [(len(others), first), (state.registry.index(action.code), len(state.registry)),
                (value - 1, _mixes(have))]

    def decode(self, state: KeyHarvestState, player: int, read: Callable[[int], int]) -> KeyHarvestAction:
        """The move whose digits ``read`` gives; a bid is checked (IllegalAction if the player cannot make it)."""
        others, can_bid = _listed(state, player)
        i = read(len(others) + can_bid)
        if i < len(others):
            return others[i]
        code = state.registry[read(len(state.registry))]
        value = read(_mixes(held(state, player))) + 1
        mix = []
        for h in held(state, player):
            value, c = divmod(value, h + 1)
            mix.append(c)
        bid = Bid(code, counters(mix))
        state.check(player, bid)
        return bid


CODEC = KeyHarvestCodec()
