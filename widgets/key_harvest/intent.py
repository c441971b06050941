"""What a click or a button means at the Key Harvest table now, and the bid/worker composer's state.

Plain Python over the engine, no widgets: each function takes the game, the seat acting at this
screen and the ``Composer`` (what the player is in the middle of), and answers with a ``Move`` to
apply, or a ``Compose`` (the composer changed: redraw). A refusal is an ``IllegalAction`` whose
words are the engine's (``reasons``, ``state.check``); the table only adds which button to press.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sheetkit.core.errors import IllegalAction
from sheetkit.games.key_harvest.board import CODES
from sheetkit.games.key_harvest.crops import CROPS
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
from sheetkit.games.key_harvest.reasons import idle_space_reason, unfit_reason, why_not
from sheetkit.games.key_harvest.state import KeyHarvestState
from sheetkit.games.key_harvest.workers import WORKERS

NO_BID = (0, 0, 0, 0, 0)
ACTION_LABELS = {"harvest": "Harvest", "worker": "Worker", "buy": "Buy", "bid": "Bid"}


@dataclass
class Composer:
    """What you are in the middle of: the action a click serves, the worker picked, the bid being built."""

    mode: str | None = None       # harvest / worker / buy / bid / sale (a land sale's payment)
    worker: str | None = None     # the worker picked (mode "worker")
    tile: str | None = None       # the registry tile the bid (or the sale's payment) is for
    bid: list[int] = field(default_factory=lambda: list(NO_BID))

    def clear(self) -> None:
        """Put everything away: no action, no worker, no bid."""
        self.mode = self.worker = self.tile = None
        self.bid = list(NO_BID)

    def payment(self) -> tuple[int, int, int, int, int]:
        """The counters put on the bid, as the engine takes them."""
        b = self.bid
        return b[0], b[1], b[2], b[3], b[4]


@dataclass(frozen=True)
class Move:
    """A move to apply for the acting seat."""

    action: KeyHarvestAction


@dataclass(frozen=True)
class Compose:
    """The composer changed. ``next``: where the next step is ("board": a worker's spaces; "counters": a bid's
    payment); ``town_first``: the town's rings move before the text; ``refusal``: why it cannot go on from here."""

    next: str | None = None
    town_first: bool = False
    refusal: str | None = None


def acting_seat(state: KeyHarvestState, viewer: int, handoff: int | None, auto: bool) -> int:
    """The seat acting at this screen now (the viewer), or a refusal in plain words."""
    if state.is_terminal():
        raise IllegalAction("the game is over", "over")
    if handoff is not None:
        raise IllegalAction(f"first pass the screen: {state.players[handoff]} clicks “I am ready”", "handoff")
    cur = state.current_players()
    if viewer not in cur:
        who = state.players[cur[0]] if cur else "the table"
        raise IllegalAction(f"wait: {who} is to act" + ("" if auto else " — press Next step"), "not-your-turn")
    return viewer


def _first_answer(state: KeyHarvestState) -> None:
    if state.pending is not None:
        raise IllegalAction(f"first answer: {state.pending.prompt}", "pending")


def press_action(state: KeyHarvestState, p: int, c: Composer, kind: str) -> Compose:
    """An action button (Harvest, Worker, Buy, Bid): what a click serves from now on; a second press puts it away."""
    _first_answer(state)
    if c.mode == kind:
        c.clear()
        return Compose()
    why = why_not(state, p, kind)
    if why is not None:
        raise IllegalAction(f"{ACTION_LABELS[kind]} is not possible now: {why}", "not-now")
    c.mode, c.worker = kind, None
    if kind != "bid":
        c.tile, c.bid = None, list(NO_BID)
    return Compose()


def press_worker(state: KeyHarvestState, p: int, c: Composer, wid: str) -> Compose:
    """A worker picked (its button, or a townsfolk in the town): its spaces are tinted; again: put it back."""
    if c.mode == "worker" and c.worker == wid:
        c.worker = None
        return Compose()
    c.mode, c.worker = "worker", wid
    if not state.legal_spaces(p, wid):
        w = WORKERS[wid]
        return Compose(refusal=f"The {w.name} ({w.value}) fits no space now: {unfit_reason(w)}.")
    return Compose(next="board")


def choose(state: KeyHarvestState, p: int, value: str) -> Move:
    """A decision's button (a crop, a tile, Decline)."""
    options = [a for a in state.legal_actions(p) if isinstance(a, Choose) and a.value == value]
    if not options:
        raise IllegalAction(f"{value!r} is not one of the choices now", "bad-choice")
    return Move(options[0])


def board_click(state: KeyHarvestState, p: int, c: Composer, code: str) -> Move:
    """A click on space ``code`` of your board: an answer, a worker placed or taken off, or a harvest."""
    if state.pending is not None:
        choice = [a for a in state.legal_actions(p) if isinstance(a, Choose) and a.value == code]
        if not choice:
            raise IllegalAction(f"{code} is not one of the choices: {state.pending.prompt}", "bad-choice")
        return Move(choice[0])
    workers = state.workers_on[p]
    if c.mode == "worker" and c.worker is not None:
        return Move(PlaceWorker(c.worker, code))
    if code in workers:
        if c.mode == "worker":
            return Move(RemoveWorker(code))
        w = WORKERS[workers[code]]
        raise IllegalAction(f"That is your {w.name} ({w.value}). To take it off, press Worker, then click it.",
                            "worker-there")
    why = idle_space_reason(state, p, code)
    if why is None:
        return Move(Harvest(code))
    if c.mode == "worker":
        raise IllegalAction("Choose a worker first (the buttons under the actions).", "no-worker-picked")
    if state.boards[p].get(code) is None:
        why += " — or play a worker here (press Worker)"
    raise IllegalAction(why, "idle-space")


def town_click(state: KeyHarvestState, p: int, c: Composer, hit: tuple[str, ...]) -> Move | Compose:
    """A click on the town: a registry tile starts a bid (or a sale's payment), a store tile buys, a townsfolk
    is picked as a worker; during a decision, the tile chosen."""
    kind, code = hit[0], hit[-1]
    if state.pending is not None:
        if state.pending.kind == "sale" and kind == "registry":
            c.mode, c.tile, c.bid = "sale", code, list(NO_BID)
            return Compose(next="counters")
        choice = [a for a in state.legal_actions(p) if isinstance(a, Choose) and a.value == code]
        if not choice:
            raise IllegalAction(f"that is not one of the choices: {state.pending.prompt}", "bad-choice")
        return Move(choice[0])
    if kind == "registry":
        why = why_not(state, p, "bid")
        if why is not None:
            raise IllegalAction(f"You cannot bid for {code} now: {why}.", "not-now")
        c.mode, c.tile, c.bid = "bid", code, list(NO_BID)
        return Compose(next="counters", town_first=True)
    if kind == "store":
        return Move(Buy(code))
    return press_worker(state, p, c, code)


def add_counter(state: KeyHarvestState, p: int, c: Composer, crop: int) -> Compose:
    """One more counter of ``crop`` on the bid being built."""
    if c.tile is None:
        raise IllegalAction("First click a registry tile to bid for (the counters are your bid's payment).",
                            "no-tile")
    have = state.counters[p][crop]
    if c.bid[crop] >= have:
        raise IllegalAction(f"You have only {have} {CROPS[crop]} behind your screen.", "cannot-pay")
    c.bid[crop] += 1
    return Compose()


def confirm_bid(state: KeyHarvestState, p: int, c: Composer) -> Move:
    """Confirm the bid built (or the land sale's payment)."""
    if c.tile is None:
        raise IllegalAction("First click a registry tile to bid for.", "no-tile")
    pay = c.payment()
    if sum(pay) == 0 and c.mode != "sale":
        state.check(p, Bid(c.tile, pay))       # the engine says why: a bid needs at least one counter
    if sum(pay) == 0:
        raise IllegalAction(f"Your payment for {c.tile} is empty: click your counters.", "empty-bid")
    return Move(Choose(c.tile, pay) if c.mode == "sale" else Bid(c.tile, pay))


def after_move(c: Composer, action: KeyHarvestAction) -> None:
    """A move made: what it was composing is done."""
    if isinstance(action, (Bid, Choose, EndTurn, PlaceWorker, RemoveWorker, Buy, Harvest)):
        c.clear()


def targets(state: KeyHarvestState, p: int, c: Composer, legal: Callable[[], list[KeyHarvestAction]],
            handoff: int | None = None) -> tuple[list[str], list[str]]:
    """(the spaces a click on your board may serve now, the group a harvest there would take); ``legal`` gives
    ``state.legal_actions(p)``, asked only during a decision."""
    if handoff is not None or state.is_terminal() or p not in state.current_players():
        return [], []
    pend = state.pending
    if pend is not None:
        codes = [a.value for a in legal() if isinstance(a, Choose)]
        return [v for v in codes if v in state.boards[p] or (pend.kind == "replace" and v in CODES)], []
    if c.mode == "worker" and c.worker:
        return state.legal_spaces(p, c.worker), []
    if c.mode == "worker":
        return list(state.workers_on[p]), []
    if c.mode == "harvest":
        return [], [v for g in state.harvestable_groups(p) for v in g]
    return [], []


def next_click(state: KeyHarvestState, p: int, c: Composer, legal: Callable[[], list[KeyHarvestAction]],
               handoff: int | None = None) -> str | None:
    """Where your next move is a click: "board", "town", or None (a button, or not your move); ``legal`` as for
    ``targets``."""
    if handoff is not None or state.is_terminal() or p not in state.current_players():
        return None
    if state.pending is not None:      # a decision answered by a click: on your board, or in the town
        values = {a.value for a in legal() if isinstance(a, Choose)}
        if targets(state, p, c, legal, handoff)[0]:
            return "board"
        in_town = set(state.registry) | {v for s in state.stores for v, *_ in s}
        return "town" if state.pending.kind == "sale" or values & in_town else None
    return "board" if any(isinstance(a, Harvest) for a in legal()) else None
