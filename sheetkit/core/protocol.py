"""The game protocol every sheetkit game follows (OpenSpiel-like game/state/chance split)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, runtime_checkable

from sheetkit.core.errors import IllegalAction


@runtime_checkable
class Action(Protocol):
    """A structured move; every game's moves serialise to a small JSON object."""

    def to_json(self) -> dict[str, Any]: ...


class GameState(ABC):
    """One game in progress: rules and parameters are fixed, everything else is state.

    Chance is explicit: when ``is_chance_node()`` is true, the table must move on with
    ``apply_chance()`` (flip a card, roll dice) before anyone can act. Every chance outcome
    and every action is appended to ``log``, which together with the setup makes the record.
    """

    game_name: ClassVar[str]
    log: list[dict[str, Any]]

    @property
    @abstractmethod
    def num_players(self) -> int:
        """How many sheets are in play."""

    @abstractmethod
    def current_players(self) -> list[int]:
        """Players who may act now (several at once in simultaneous games)."""

    @abstractmethod
    def is_chance_node(self) -> bool:
        """True when the next step is the table's (flip, roll, score), not a player's."""

    @abstractmethod
    def apply_chance(self) -> dict[str, Any]:
        """Carry out ONE pending table step (flip, roll, final scoring); returns its log entry."""

    @abstractmethod
    def legal_actions(self, player: int) -> list[Any]:
        """Every action ``player`` may take now — the single source of truth for legality."""

    @abstractmethod
    def check(self, player: int, action: Any) -> None:
        """Raise IllegalAction with a plain-words reason if ``action`` is not legal now."""

    @abstractmethod
    def apply_unchecked(self, player: int, action: Any) -> None:
        """Apply a move known to be legal (the fast path for bots and simulations)."""

    def apply_fast(self, player: int, action: Any) -> None:
        """Fastest path for simulations; games may skip the log and undo here (no record kept)."""
        self.apply_unchecked(player, action)

    def apply(self, player: int, action: Any) -> None:
        """Check, then apply; an illegal action raises and leaves the state untouched."""
        self.check(player, action)
        self.apply_unchecked(player, action)

    @abstractmethod
    def undo(self, player: int) -> None:
        """Take back ``player``'s own last action if the rules still allow it."""

    @abstractmethod
    def can_undo(self, player: int) -> bool:
        """True when ``undo(player)`` would succeed."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """True when the game is over."""

    @abstractmethod
    def scores(self) -> list[int]:
        """Each player's score as it stands (final once terminal)."""

    @abstractmethod
    def score_bounds(self) -> tuple[int, int]:
        """Lowest and highest score any player could possibly reach."""

    @abstractmethod
    def view(self, player: int) -> dict[str, Any]:
        """What ``player`` may see: secrets of the decks and of other players are left out."""

    @abstractmethod
    def clone(self) -> GameState:
        """An independent deep copy."""

    @abstractmethod
    def to_record(self) -> dict[str, Any]:
        """The versioned JSON record that replays to this exact state."""

    @abstractmethod
    def fingerprint(self) -> str:
        """A canonical text of the whole state, equal for equal states (for determinism tests)."""

    def audit(self) -> list[str]:
        """The game's conservation laws this state breaks, in words ([] when all hold; a game may have none)."""
        return []

    def require(self, ok: bool, message: str, code: str) -> None:
        """Raise IllegalAction(message) unless ``ok`` (small helper for ``check``)."""
        if not ok:
            raise IllegalAction(message, code)


class Bot(Protocol):
    """A player program; it reads only what ``state.view(player)`` would show a person."""

    name: str

    def act(self, state: GameState, player: int) -> Any: ...


class Expert(Bot, Protocol):
    """A strong bot that can also say what each of its candidate moves is worth (the skill panel's yardstick).

    ``evaluate`` returns, for each action of ``actions`` (legal moves of ``player`` now), the expert's
    estimate of ``player``'s final score after it, in points; it reads only ``state.view(player)``.
    ``slow = True`` tells tables to let it think off the click path.
    """

    slow: bool

    def evaluate(self, state: GameState, player: int, actions: Sequence[Any]) -> list[float]: ...


@dataclass(frozen=True)
class HindsightResult:
    """The best score a player told the whole deal in advance was found to reach: "at least ``score``".

    ``actions`` are that player's moves in order (they replay on the same deal); ``exact`` is True only
    when the search was exhaustive, so ``score`` is the true optimum rather than a lower bound.
    """

    score: int
    actions: tuple[Any, ...]
    exact: bool = False


class Hindsight(Protocol):
    """A game's hindsight search: ``hindsight(state, player, opponents, budget)`` from a fresh state.

    ``state`` is the game's first state (its deal fixed by the seed); ``opponents`` gives a bot per seat
    (``None`` at ``player``'s own seat) who play as they would; ``budget`` scales the search (1.0 = the
    documented default). Deterministic: the same inputs give the same result.
    """

    def __call__(
        self, state: GameState, player: int, opponents: Sequence[Bot | None] = ..., budget: float = 1.0
    ) -> HindsightResult: ...


class ChoiceCodec(Protocol):
    """Writes one player's move as a few mixed-radix digits (for result codes) and reads it back.

    A move is one or more digits ``(index, radix)``, ``0 <= index < radix``; each digit's radix
    depends only on the state and the digits before it, so a reader that knows the state knows it.
    A game lists none when "the move's index in ``legal_actions(player)``" (one digit) already
    covers every legal move; it gives one when some legal moves are not listed (Key Harvest's bids).
    """

    def encode(self, state: GameState, player: int, action: Any) -> list[tuple[int, int]] | None:
        """The digits of ``action`` (a legal move of ``player`` now), or None when it is not legal."""
        ...

    def decode(self, state: GameState, player: int, read: Callable[[int], int]) -> Any:
        """The move whose digits ``read(radix)`` gives one by one; raises IllegalAction if it is not legal."""
        ...
