"""Why not, in the rules' words: why an action, a worker or a space of your board does nothing now.

The table asks these and shows the answer; it never explains a rule itself. The turn-structure
reasons come from ``state.may``; the rest say what the rules of workers, harvests and tiles mean
for the player's board at this moment.
"""

from __future__ import annotations

from collections.abc import Sequence

from sheetkit.games.key_harvest.moves import Bid, Buy, Harvest, KeyHarvestAction, PlaceWorker, RemoveWorker
from sheetkit.games.key_harvest.state import KeyHarvestState
from sheetkit.games.key_harvest.workers import Worker

ACTION_KINDS = ("harvest", "worker", "buy", "bid")
_KIND_OF = {Harvest: "harvest", PlaceWorker: "worker", RemoveWorker: "worker", Buy: "buy", Bid: "bid"}
_NONE_LEGAL = {"harvest": "you have no unharvested tiles",
               "worker": "no worker fits any space of your board yet",
               "buy": "no store tile you could take (too soon, guarded, or you cannot pay)",
               "bid": "no registry tile, or no counters to bid with"}

UNFIT_NOTE = ("Dashed: fits no space of your board now — a worker needs an empty space touching as many of your "
              "tiles as its number, and no other worker.")


def why_not(state: KeyHarvestState, p: int, kind: str,
            legal: Sequence[KeyHarvestAction] | None = None) -> str | None:
    """Why the turn does not allow starting or continuing action ``kind`` now (None: allowed).

    ``legal``: ``state.legal_actions(p)`` when the caller already has it.
    """
    if kind not in ACTION_KINDS:
        raise ValueError(f"unknown action kind {kind!r} (harvest, worker, buy or bid)")
    if state.is_terminal():
        return "the game is over"
    if p not in state.current_players() or state.phase != "act":
        return "it is not your turn"
    if state.pending is not None:
        return f"first answer: {state.pending.prompt}"
    why = state.may(p, kind)  # the turn's structure
    if why is not None:
        return str(why[0])
    if legal is None:
        legal = state.legal_actions(p)
    if not any(_KIND_OF.get(type(a)) == kind for a in legal):
        return _NONE_LEGAL[kind]
    return None


def unfit_reason(w: Worker) -> str:
    """Why a worker fits no space of your board now (the workers' placement rule, said of your board)."""
    return f"it needs an empty space touching {w.value}+ of your tiles and no other worker"


def idle_space_reason(state: KeyHarvestState, p: int, code: str) -> str | None:
    """Why a space of ``p``'s board holding no worker cannot be harvested now (None: it can)."""
    tile = state.boards[p].get(code)
    if tile == "up":
        return None
    if tile == "harvested":
        return f"{code} is harvested already: a Waterer, the Mayor or an event turns it back up"
    return f"{code} is an empty space: its tile is in the bag, the registry or a store"
