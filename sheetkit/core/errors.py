"""Typed errors whose messages are written for players, not programmers."""

from __future__ import annotations


class SheetkitError(Exception):
    """Base class of every error sheetkit raises on purpose."""


class IllegalAction(SheetkitError, ValueError):
    """An action the rules do not allow now; the state is left untouched.

    ``code`` is a stable machine-readable reason (e.g. ``"occupied"``), the message is plain words.
    """

    def __init__(self, message: str, code: str = "illegal") -> None:
        super().__init__(message)
        self.code = code


class RecordError(SheetkitError, ValueError):
    """A game record (or layout, or game code) that cannot be read or replayed."""

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.reason = message


class BrokenGame(SheetkitError, AssertionError):
    """A game that broke one of its conservation laws (``GameState.audit``): a bug in sheetkit, never a player's."""
