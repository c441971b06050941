"""Shared helpers for the Key Harvest tests: a dealt table whose boards and screens a test lays out."""

from __future__ import annotations

from collections.abc import Sequence

from sheetkit.games.key_harvest import EndTurn, KeyHarvestParams, KeyHarvestState, new_game
from sheetkit.games.key_harvest.crops import add, sub


def dealt(players: int = 3, seed: int = 7, params: KeyHarvestParams | None = None) -> KeyHarvestState:
    """A game after its setup step (the start player is to act)."""
    s = new_game(players, seed=seed, params=params)
    s.apply_chance()
    return s


def set_counters(state: KeyHarvestState, player: int, counters: Sequence[int]) -> None:
    """Give ``player`` exactly ``counters`` behind the screen, moving the difference to or from the stock."""
    new = tuple(counters)
    state.stock = add(sub(state.stock, new), state.counters[player])  # type: ignore[assignment]
    state.counters[player] = new  # type: ignore[assignment]
    assert min(state.stock) >= 0


def table(players: int = 3, seed: int = 7, active: int = 0, params: KeyHarvestParams | None = None,
          **boards: Sequence[str]) -> KeyHarvestState:
    """A dealt game with player ``active`` to act, every screen empty and every board empty unless given
    (``p0=["A1", "A2"]`` lays player 0's tiles, unharvested; ``h0=[...]`` harvested ones)."""
    s = dealt(players, seed, params)
    s.active = active
    for p in range(players):
        set_counters(s, p, (0, 0, 0, 0, 0))
        s.set_board(p, up=list(boards.get(f"p{p}", ())), harvested=list(boards.get(f"h{p}", ())))
    return s


def finish_turn(state: KeyHarvestState) -> None:
    """End the active player's turn and let the table refill (no decisions expected)."""
    state.apply(state.active, EndTurn())
    while state.is_chance_node() and not state.is_terminal():
        state.apply_chance()


def total_counters(state: KeyHarvestState) -> int:
    """Stock + every screen + every bid in a store (always 60)."""
    return sum(state.stock) + sum(sum(c) for c in state.counters) + sum(
        sum(b) for store in state.stores for _, b, _ in store)


def put_in_store(state: KeyHarvestState, player: int, code: str, bid: Sequence[int], turn: int = 0) -> None:
    """Lay ``code`` in ``player``'s store with ``bid`` (taken from the stock), as if bid on turn ``turn``."""
    state.stock = sub(state.stock, tuple(bid))  # type: ignore[assignment]
    state.stores[player].append((code, tuple(bid), turn))  # type: ignore[arg-type]
    if code in state.registry:
        state.registry.remove(code)


def with_event(state: KeyHarvestState, eid: str) -> None:
    """End the active player's turn with event ``eid`` on top of the bag; returns after the event's draw."""
    state.registry = state.registry[:5]
    state._bag[state._bag_pos:] = [eid] + [x for x in state._bag[state._bag_pos:] if x != eid]
    state.apply(state.active, EndTurn())
    assert state.apply_chance() == {"chance": "draw", "event": eid}
    assert state.events_placed[-1] == eid
