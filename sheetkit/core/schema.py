"""Small validators for JSON documents, with error paths a person can follow."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sheetkit.core.errors import RecordError

_NAMES = {dict: "an object", list: "a list", str: "a text", int: "a whole number", bool: "true or false"}


def type_name(v: Any) -> str:
    """How a JSON value's type is named in messages."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true/false"
    if isinstance(v, float):
        return "a decimal number"
    return _NAMES.get(type(v), type(v).__name__)


def expect_dict(v: Any, path: str, required: Iterable[str] = (), optional: Iterable[str] = ()) -> dict[str, Any]:
    """An object with exactly the known keys (unknown keys are an error: typos must not pass)."""
    if not isinstance(v, dict):
        raise RecordError(f"expected an object, got {type_name(v)}", path)
    required, optional = list(required), list(optional)
    for k in required:
        if k not in v:
            raise RecordError(f"missing field {k!r}", path)
    unknown = sorted(set(map(str, v)) - set(required) - set(optional))
    if unknown:
        raise RecordError(f"unknown field {unknown[0]!r} (allowed: {', '.join(required + optional)})", path)
    return v


def expect_int(v: Any, path: str, lo: int, hi: int) -> int:
    """A whole number in [lo, hi]."""
    if isinstance(v, bool) or not isinstance(v, int):
        raise RecordError(f"expected a whole number, got {type_name(v)}", path)
    if not lo <= v <= hi:
        shown = str(v) if len(str(v)) <= 24 else str(v)[:20] + "…"
        raise RecordError(f"{shown} is out of range ({lo} to {hi})", path)
    return v


def expect_bool(v: Any, path: str) -> bool:
    """true or false."""
    if not isinstance(v, bool):
        raise RecordError(f"expected true or false, got {type_name(v)}", path)
    return v


def expect_str(v: Any, path: str, max_len: int = 200, choices: Iterable[str] | None = None) -> str:
    """A text of bounded length, optionally one of ``choices``."""
    if not isinstance(v, str):
        raise RecordError(f"expected a text, got {type_name(v)}", path)
    if choices is not None:
        choices = list(choices)
        if v not in choices:
            shown = v if len(v) <= 40 else v[:40] + "…"
            raise RecordError(f"{shown!r} is not one of {', '.join(map(repr, choices))}", path)
    if len(v) > max_len:
        raise RecordError(f"text is too long ({len(v)} characters, at most {max_len})", path)
    # Record texts end up on terminals and pages: control characters (escape sequences) never belong.
    bad = next((c for c in v if (ord(c) < 32 and c not in "\t\n") or 127 <= ord(c) < 160), None)
    if bad is not None:
        raise RecordError(f"text holds a control character ({ord(bad):#04x})", path)
    return v


def expect_list(v: Any, path: str, max_len: int, min_len: int = 0) -> list[Any]:
    """A list with a bounded number of items."""
    if not isinstance(v, list):
        raise RecordError(f"expected a list, got {type_name(v)}", path)
    if not min_len <= len(v) <= max_len:
        want = f"exactly {min_len}" if min_len == max_len else f"{min_len} to {max_len}"
        raise RecordError(f"expected {want} items, got {len(v)}", path)
    return v
