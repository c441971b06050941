"""What every game's rule parameters share: a validated copy with changes, and the preset a variant equals."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, TypeVar

P = TypeVar("P", bound="RuleParams")


class RuleParams(ABC):
    """Base of a game's params (a frozen dataclass): its JSON form, parsed back, is the one validation."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """JSON form stored in records."""

    @classmethod
    @abstractmethod
    def from_json(cls: type[P], data: Any, path: str = "params") -> P:
        """Parse and validate params (raising RecordError)."""

    def with_changes(self: P, **changes: Any) -> P:
        """A copy with some parameters changed (validated)."""
        new = replace(self, **changes)  # type: ignore[type-var]
        new.validate()
        return new

    def validate(self) -> None:
        """Raise RecordError if the combination cannot be played."""
        self.from_json(self.to_json(), "params")


def preset_of(params: Any, presets: Mapping[str, Any]) -> str | None:
    """The name of the preset that equals ``params``, if any (game codes can only carry presets)."""
    return next((name for name, p in presets.items() if p == params), None)
