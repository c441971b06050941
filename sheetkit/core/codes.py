"""Short game codes anyone can type: game prefix + seed in Crockford base32 + optional preset."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar

from sheetkit.core.chance import MAX_SEED
from sheetkit.core.errors import RecordError

P = TypeVar("P")  # a game's params type

_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford: no I, L, O, U
_READ_AS = {"I": "1", "L": "1", "O": "0", "U": "V"}


@dataclass(frozen=True)
class GameCode:
    """A parsed game code."""

    prefix: str
    seed: int
    preset: str

    def __str__(self) -> str:
        return make_code(self.prefix, self.seed, self.preset)


def _encode(seed: int) -> str:
    chars = []
    for _ in range(8):
        seed, d = divmod(seed, 32)
        chars.append(_ALPHABET[d])
    s = "".join(reversed(chars))
    return f"{s[:4]}-{s[4:]}"


def make_code(prefix: str, seed: int, preset: str = "standard") -> str:
    """Code for a deal, e.g. ``AV-0K3M-Q9ZT`` or ``AV-0K3M-Q9ZT-NORISE``."""
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be between 0 and {MAX_SEED}")
    code = f"{prefix.upper()}-{_encode(seed)}"
    return code if preset == "standard" else f"{code}-{preset.upper()}"


def code_example(prefix: str | None = None) -> str:
    """What a code looks like, for messages: 'a game code looks like KM-0K3M-Q9ZT' (AV if no game is known)."""
    return f"a game code looks like {(prefix or 'AV').upper()}-0K3M-Q9ZT"


def parse_code(text: str, prefix: str | None = None) -> GameCode:
    """Read a typed code; forgiving of case, spaces, missing dashes and the letters I/L/O/U.

    ``AV-0K3M-Q9ZT``, ``av 0k3m q9zt``, ``AV0K3MQ9ZT`` and ``AV-0K3MQ9ZT-norise`` all read. Without a
    dash after it, the game prefix is taken to be the first two letters (every game's prefix has two).
    ``prefix``: the game the caller expects, so a refusal shows that game's kind of code.
    """
    shown = repr(str(text)) if len(str(text)) <= 40 else repr(str(text)[:36] + "…")
    looks = code_example(prefix)
    raw = "".join(str(text).split()).upper()
    parts = [p for p in raw.split("-") if p]
    if "-" in raw and len(parts) > 1 and parts[0].isalpha() and len(parts[0]) <= 3:
        game, groups = parts[0], parts[1:]
    else:
        compact = "".join(parts)
        game, groups = compact[:2], [g for g in (compact[2:10], compact[10:]) if g]
    if len(game) < 2 or not game.isalpha() or not groups:
        raise RecordError(f"{shown} is not a game code — {looks}")
    if len(groups) >= 2 and len(groups[0]) == 4:
        body, more = groups[0] + groups[1], groups[2:]
    else:
        body, more = groups[0], groups[1:]
    if len(body) != 8:
        raise RecordError(f"{shown} is not a game code — {looks} (two groups of 4 letters or digits after the "
                          "game's two letters)")
    if len(more) > 1:
        raise RecordError(f"{shown} is not a game code — {looks}")
    preset = more[0].lower() if more else "standard"
    if len(preset) > 20 or not preset.isalnum():
        raise RecordError(f"{shown} is not a game code — {looks} (a variant may follow: letters and digits "
                          "after one more dash)")
    seed = 0
    for ch in body:
        ch = _READ_AS.get(ch, ch)
        if ch not in _ALPHABET:
            raise RecordError(f"{shown} is not a game code — {looks} ({ch!r} is not a code character)")
        seed = seed * 32 + _ALPHABET.index(ch)
    return GameCode(game, seed, preset)


def game_setup(code: str | None, seed: int | None, params: P | None, variant: str, *, prefix: str, title: str,
               presets: Mapping[str, P]) -> tuple[int | None, P]:
    """The seed and rules a game's ``new_game`` starts from: a typed ``code`` wins, else ``params``, else ``variant``.

    Every refusal is a RecordError in plain words (another game's code, an unknown variant).
    """
    if code is not None:
        gc = parse_code(code, prefix)
        if gc.prefix != prefix:
            raise RecordError(f"{code!r} is a code for another game (it starts {gc.prefix}, "
                              f"{title} codes start {prefix})")
        if gc.preset not in presets:
            raise RecordError(f"unknown variant {gc.preset!r} in the code (known: {', '.join(presets)})")
        return gc.seed, presets[gc.preset]
    if params is None:
        if variant not in presets:
            raise RecordError(f"unknown variant {variant!r} (known: {', '.join(presets)})")
        params = presets[variant]
    return seed, params
