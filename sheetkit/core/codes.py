"""Short game codes anyone can type: game prefix + seed in Crockford base32 + optional preset."""

from __future__ import annotations

from dataclasses import dataclass

from sheetkit.core.chance import MAX_SEED
from sheetkit.core.errors import RecordError

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


def parse_code(text: str) -> GameCode:
    """Read a typed code; forgiving of case, spaces and the letters I/L/O."""
    raw = "".join(str(text).split()).upper()
    parts = [p for p in raw.split("-") if p]
    if len(parts) < 3 or len(parts) > 4:
        raise RecordError(f"{text!r} is not a game code — it looks like AV-0K3M-Q9ZT")
    prefix, body, preset = parts[0], parts[1] + parts[2], (parts[3].lower() if len(parts) == 4 else "standard")
    if len(body) != 8:
        raise RecordError(f"{text!r} is not a game code — the middle must be two groups of 4 characters")
    seed = 0
    for ch in body:
        ch = _READ_AS.get(ch, ch)
        if ch not in _ALPHABET:
            raise RecordError(f"{text!r} is not a game code — {ch!r} is not a code character")
        seed = seed * 32 + _ALPHABET.index(ch)
    return GameCode(prefix, seed, preset)
