"""Why a hex the player points at on their map cannot be drawn now, in the rules' words.

The engine's own refusals name a hex by its (q, r), which a record needs and a printed map does not
show; a player pointing at the hex needs no name for it. The table shows these words, never its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sheetkit.core.errors import IllegalAction
from sheetkit.games.kingdom_maps.moves import Place

if TYPE_CHECKING:
    from sheetkit.games.kingdom_maps.state import KingdomState

# The engine's reasons that name the hex, said of the hex pointed at.
POINTED = {
    "drawn": "that hex is already drawn — choose an empty one (the tinted hexes are open now)",
    "off-map": "that is not a hex of the map",
}


def hex_refusal(state: KingdomState, player: int, q: int, r: int) -> IllegalAction | None:
    """Why drawing on hex (q, r) is refused now, as the player pointing at it reads it (None: it may be drawn)."""
    try:
        state.check(player, Place(q, r))
    except IllegalAction as e:
        return IllegalAction(POINTED.get(e.code, str(e)), e.code)
    return None
