"""The one play loop: table steps and bot moves until a person must decide; and who sits at a table.

Every simulation, lesson, result code and table moves a game on with ``advance`` (or ``play_out``, built
on it), and names and seeds its bots with ``bot_names`` / ``seat_bots``, so a game played anywhere in
sheetkit is the same game: the same order of moves, the same bots with the same seeds.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any, NamedTuple

from sheetkit.core.chance import derive_seed
from sheetkit.core.errors import BrokenGame
from sheetkit.core.protocol import Bot, GameState

Bots = Mapping[int, Bot] | Sequence[Bot | None]


_NOTHING: Mapping[str, Any] = MappingProxyType({})


class Step(NamedTuple):
    """One thing that happened: a table step (``player`` is None, ``entry`` its log entry) or a seat's move.

    A named tuple: the loop makes one per step, and simulations make millions.
    """

    player: int | None
    action: Any = None
    entry: Mapping[str, Any] = _NOTHING

    @property
    def chance(self) -> bool:
        """True for a table step (a flip, a roll, the final scoring)."""
        return self.player is None


def _seats(bots: Bots) -> dict[int, Bot]:
    """Seat → bot, for a mapping or a sequence (None: no bot in that seat)."""
    pairs = bots.items() if isinstance(bots, Mapping) else enumerate(bots)
    return {p: b for p, b in pairs if b is not None}


def advance(state: GameState, bots: Bots, people: Collection[int] = (), *, fast: bool = False,
            moves: int | None = None, flip: bool = True,
            person_move: Callable[[GameState, int], Any] | None = None) -> Iterator[Step]:
    """Move ``state`` on — table steps and bot moves — until a seat in ``people`` must decide or the game ends.

    Yields a ``Step`` after each change. ``bots`` maps a seat to its bot; a seat with neither a bot nor a
    person takes its first legal move. ``people`` are the seats this loop never plays (a person, or a slow
    bot its caller runs elsewhere); when one of them is among the players to move, the loop stops before
    any bot moves, so a person always moves first at a simultaneous step. ``forced(state, seat)`` may
    return a move to make for such a seat without asking (its only legal move is a pass), else None.
    ``moves`` caps the bot moves made (table steps still run until someone must decide); ``flip=False``
    stops at a table step too (a person flips the next card). ``fast`` uses the unchecked, unlogged path.
    The loop also stops, without error, when nobody is to move in a game that is not over.
    """
    apply = state.apply_fast if fast else state.apply
    seated = _seats(bots)
    made = 0
    while not state.is_terminal():
        if state.is_chance_node():
            if not flip:
                return
            yield Step(None, None, state.apply_chance())
            continue
        current = state.current_players()
        if not current:
            return
        if people:                              # (a plain loop: this runs at every step of every simulation)
            waiting = None
            for p in current:
                if p in people:
                    waiting = p
                    break
            if waiting is not None:
                action = person_move(state, waiting) if person_move is not None else None
                if action is None:
                    return
                apply(waiting, action)
                yield Step(waiting, action)
                continue
        for p in current:       # the players to move now, in seat order, each seeing the moves before
            if moves is not None and made >= moves:
                return
            bot = seated.get(p)
            action = bot.act(state, p) if bot is not None else state.legal_actions(p)[0]
            apply(p, action)
            made += 1
            yield Step(p, action)


def run(steps: Iterable[Step]) -> int:
    """Carry out every step of an ``advance``; returns how many there were."""
    n = 0
    for _ in steps:
        n += 1
    return n


def step_table(state: GameState) -> None:
    """Apply table steps until a player must act or the game ends."""
    run(advance(state, {}, people=range(state.num_players)))


def play_out(state: GameState, bots: Bots, fast: bool = False) -> GameState:
    """Play ``state`` to the end, each player choosing with its bot; returns the same state.

    ``fast`` uses the unchecked, unlogged path (no record is kept); otherwise every move is checked. Every game
    played here is audited at its end (``GameState.audit``): one that broke a conservation law, or stopped
    with nobody to move, raises ``BrokenGame`` instead of adding its scores to a simulation.
    """
    run(advance(state, bots, fast=fast))
    seed = getattr(state, "seed", None)
    if not state.is_terminal():
        raise BrokenGame(f"the game (seed {seed}) stopped with nobody to move")
    problems = state.audit()
    if problems:
        raise BrokenGame(f"the game (seed {seed}) broke a conservation law: " + "; ".join(problems))
    return state


# ----- who sits at a table ------------------------------------------------------------------------
def bot_label(kind: str) -> str:
    """A bot kind's player name: 'greedy' → 'Greedy bot', 'montecarlo' → 'Montecarlo bot'."""
    return f"{kind.title()} bot"


def bot_names(kinds: Sequence[str]) -> list[str]:
    """The bots' player names as a table writes them ('Greedy bot', 'Greedy bot 2', …), one per kind."""
    names: list[str] = []
    for kind in kinds:
        base = bot_label(kind)
        name, k = base, 2
        while name in names:
            name, k = f"{base} {k}", k + 1
        names.append(name)
    return names


def bot_kind(name: str, kinds: Iterable[str]) -> str | None:
    """The bot kind (among ``kinds``) behind a player name ``bot_names`` wrote ('Greedy bot 2' → 'greedy')."""
    for kind in kinds:
        label = bot_label(kind)
        if name == label or (name.startswith(label + " ") and name[len(label) + 1:].isdigit()):
            return kind
    return None


def bot_seed(seed: int | None, seat: int) -> int:
    """The seed of the bot in ``seat`` for a deal — the one every table, code and review gives it."""
    return derive_seed(seed or 0, "table-bot", seat)


def seat_bots(registry: Mapping[str, Callable[..., Bot]], kinds: Mapping[int, str] | Sequence[str],
              seed: int | None) -> dict[int, Bot]:
    """The table's bots for a deal: seat → a bot of its kind seeded with ``bot_seed`` (a sequence: seats 1, 2, …)."""
    seats = kinds if isinstance(kinds, Mapping) else dict(enumerate(kinds, start=1))
    return {p: registry[k](seed=bot_seed(seed, p)) for p, k in seats.items()}
