"""What a click or a button means at the Kingdom Maps table now: a hex, a criterion, a terrain, a die.

Plain Python over the engine, no widgets. Before announcing, the terrain and the die are chosen in
either order (``Announcement``); the move is made once both are chosen. Every other click answers
with the move to make, checked by the engine first, so a refusal is an ``IllegalAction`` in the
engine's words (``reasons.hex_refusal`` for a hex pointed at on the map).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sheetkit.core.errors import IllegalAction
from sheetkit.games.kingdom_maps import Announce, Bank, KingdomState, Pick, Place
from sheetkit.games.kingdom_maps.phases import ANNOUNCE
from sheetkit.games.kingdom_maps.reasons import hex_refusal


@dataclass
class Announcement:
    """The terrain and the die (its index on the table) chosen before announcing, in either order."""

    terrain: int | None = None
    die: int | None = None

    def clear(self) -> None:
        """Nothing chosen."""
        self.terrain = self.die = None

    def started(self) -> bool:
        """True once either is chosen (Undo takes it back)."""
        return self.terrain is not None or self.die is not None


def announcing(state: KingdomState, seat: int) -> bool:
    """True when ``seat`` announces the turn's terrain and die now."""
    return state.phase == ANNOUNCE and state.active == seat and not state.is_terminal()


def awaiting_confirm(state: KingdomState, seat: int) -> bool:
    """True when your part of this drawing is done and the table waits for you to press Confirm."""
    return not state.is_terminal() and seat not in state.current_players()


def hex_click(state: KingdomState, seat: int, cell: tuple[int, int]) -> Place:
    """A click on a hex of your map: draw there."""
    why = hex_refusal(state, seat, *cell)
    if why is not None:
        raise why
    return Place(*cell)


def beside_map_click(state: KingdomState, seat: int, part: tuple[str, Any] | None) -> Bank | None:
    """A click beside the map's hexes: a lit criterion box banks it; None: the click does nothing."""
    if part is not None and part[0] == "crit" and Bank(part[1]) in state.legal_actions(seat):
        return Bank(part[1])
    return None


def press_terrain(state: KingdomState, seat: int, a: Announcement, terrain: int) -> Announce | None:
    """A terrain button: chosen for the announcement (the move once a die is chosen too)."""
    # the engine says why not: not your turn to announce, the terrain announced already, no uses left
    state.check(seat, Announce(terrain, state.dice[0] if state.dice else 1))
    a.terrain = terrain
    return _announce_if_ready(state, a)


def take_die(state: KingdomState, seat: int, a: Announcement, k: int, roles: list[tuple[int, str, str]]) -> Any:
    """Die ``k`` clicked or pressed (``roles``: each die's role, from the dice panel): chosen for the announcement,
    or picked; None: chosen, nothing to move yet."""
    if state.is_terminal():
        raise IllegalAction("the game is over", "over")
    if k >= len(state.dice):
        raise IllegalAction("There is no such die on the table.", "no-die")
    value = state.dice[k]
    if awaiting_confirm(state, seat):
        state.check(seat, Pick(value))     # the engine says why: this drawing is done
    if announcing(state, seat):
        a.die = k
        return _announce_if_ready(state, a)
    if roles[k][1]:
        raise IllegalAction(f"That die is already taken ({roles[k][2] or 'taken'}) — pick another.", "taken")
    state.check(seat, Pick(value))
    return Pick(value)


def _announce_if_ready(state: KingdomState, a: Announcement) -> Announce | None:
    if a.terrain is None or a.die is None:
        return None
    action = Announce(a.terrain, state.dice[a.die])
    a.clear()
    return action


def may_confirm(state: KingdomState, seat: int) -> bool:
    """The Confirm button: True once your drawing is done (the game over: the engine's refusal)."""
    if state.is_terminal():
        raise IllegalAction("the game is over", "over")
    return awaiting_confirm(state, seat)
