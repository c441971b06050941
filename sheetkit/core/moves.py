"""The base of every game's structured moves: a frozen dataclass named in JSON by its ``kind``."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, dataclass_transform


@dataclass_transform(frozen_default=True)
class Move:
    """A move: ``class Pick(Move, kind="pick", says="pick the {die}")`` with its fields makes a frozen dataclass
    whose JSON is ``{"type": "pick", <field>: <value>, ...}`` (tuples as lists; a field left at a default of None
    is omitted) and whose ``str`` is ``says`` with the fields filled in."""

    kind: ClassVar[str] = ""
    says: ClassVar[str] = ""
    _fields: ClassVar[tuple[tuple[str, bool], ...]] = ()  # (name, left out when None) per field, in order

    def __init_subclass__(cls, kind: str = "", says: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.kind, cls.says = kind, says
        dataclass(frozen=True)(cls)
        cls._fields = tuple((f.name, f.default is None) for f in fields(cls))  # type: ignore[arg-type]

    def __str__(self) -> str:
        """The move in a player's words: ``says`` filled in with the fields (a subclass may say more)."""
        return self.says.format(**{name: getattr(self, name) for name, _ in self._fields})

    def to_json(self) -> dict[str, Any]:
        """Plain dict form: the kind as ``type``, then the fields in their order."""
        out: dict[str, Any] = {"type": self.kind}
        for name, optional in self._fields:
            value = getattr(self, name)
            if value is None and optional:
                continue
            out[name] = list(value) if isinstance(value, tuple) else value
        return out
