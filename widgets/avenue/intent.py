"""What a click or a button means at the Avenue table now: a road in a cell, a peek, the next card.

Plain Python over the engine, no widgets: each answer is the move to make, checked by the engine
first, so a refusal is the engine's ``IllegalAction`` with the engine's words, and the state is
untouched.
"""

from __future__ import annotations

from typing import Any

from sheetkit.core.errors import IllegalAction
from sheetkit.games.avenue import AvenueState, Draw, Pass, Peek


def cell_click(state: AvenueState, seat: int, cell: tuple[int, int] | None) -> Draw:
    """A click on the sheet: the face-up road in that cell (``cell`` None: the click missed the grid)."""
    if cell is None:
        raise IllegalAction("click inside the grid to draw there", "off-grid")
    action = Draw(*cell)
    state.check(seat, action)
    return action


def peek(state: AvenueState, seat: int) -> Peek:
    """The Peek button: a look at the next farm."""
    state.check(seat, Peek())
    return Peek()


def next_card(state: AvenueState) -> None:
    """The Next card button: allowed only when everyone has acted on the face-up card (the engine says why not)."""
    state.check_table_step()


def draws_now(state: AvenueState, seat: int) -> bool:
    """True when your next move is a click on your sheet (a road waits to be drawn)."""
    waiting = not state.is_terminal() and not state.is_chance_node() and seat in state.current_players()
    return waiting and any(isinstance(a, Draw) for a in state.legal_actions(seat))


def forced_move(state: AvenueState, seat: int) -> Any:
    """The move made for a person without asking (the engine allows only a pass), or None: they choose."""
    return Pass() if state.legal_actions(seat) == [Pass()] else None
