"""Explicit, seeded chance: numpy Generators, decks and dice. No global randomness anywhere."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Generic, TypeVar

import numpy as np

T = TypeVar("T")

MAX_SEED = 2**40 - 1  # fits in an 8-character game code


def make_rng(seed: int | None) -> np.random.Generator:
    """A PCG64 generator for ``seed``; ``None`` asks the OS for fresh entropy (never global state)."""
    return np.random.default_rng(seed)


def fresh_seed() -> int:
    """A new random seed in the game-code range, for 'New game' buttons."""
    return int(np.random.default_rng().integers(0, MAX_SEED + 1))


def _label_word(label: int | str) -> int:
    """One SeedSequence word per label: ints as they are, texts from their UTF-8 bytes."""
    if isinstance(label, int):
        return label
    data = label.encode()
    if len(data) <= 8:
        return int.from_bytes(data.ljust(8, b"\0"), "little")
    # Longer texts: a digest of the whole text, so labels sharing their first 8 bytes still differ.
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")


def derive_seed(seed: int, *labels: int | str) -> int:
    """A child seed for a sub-stream (e.g. bot 2 of game 7), stable across runs and processes."""
    words = [seed] + [_label_word(x) for x in labels]
    return int(np.random.SeedSequence(words).generate_state(1, np.uint64)[0] & MAX_SEED)


class Deck(Generic[T]):
    """A face-down pile: shuffled once from a seed, or laid in a fixed order given by a record."""

    def __init__(self, order: Sequence[T]) -> None:
        self._order: list[T] = list(order)
        self._pos = 0

    @classmethod
    def shuffled(cls, cards: Sequence[T], rng: np.random.Generator) -> Deck[T]:
        """Shuffle ``cards`` with ``rng`` (the one chance event of setting up a deck)."""
        perm = rng.permutation(len(cards))
        return cls([cards[i] for i in perm])

    def flip(self) -> T:
        """Take the top card; raises IndexError when the deck is empty."""
        if self._pos >= len(self._order):
            raise IndexError("the deck is empty")
        card = self._order[self._pos]
        self._pos += 1
        return card

    def peek(self) -> T | None:
        """The top card without taking it, or None when empty."""
        return self._order[self._pos] if self._pos < len(self._order) else None

    def remaining(self) -> int:
        """How many cards are still face down."""
        return len(self._order) - self._pos

    def flipped(self) -> list[T]:
        """Cards already taken, in order."""
        return self._order[: self._pos]

    def order(self) -> list[T]:
        """The whole order, top first (for records: never shown to players)."""
        return list(self._order)

    def replace_rest(self, rest: Sequence[T]) -> None:
        """Replace the face-down part (used by bots to sample what they cannot see)."""
        self._order = self._order[: self._pos] + list(rest)

    def copy(self) -> Deck[T]:
        """An independent copy at the same position."""
        d: Deck[T] = Deck(self._order)
        d._pos = self._pos
        return d


class Dice:
    """n six-sided (or k-sided) dice rolled from an explicit generator."""

    def __init__(self, rng: np.random.Generator, sides: int = 6) -> None:
        self._rng = rng
        self.sides = sides

    def roll(self, n: int) -> list[int]:
        """Roll ``n`` dice."""
        return [int(x) for x in self._rng.integers(1, self.sides + 1, size=n)]
