"""Key Harvest's five crops and crop-counter arithmetic (counters are 5-tuples of ints, in CROPS order)."""

from __future__ import annotations

from collections.abc import Sequence

CROPS: tuple[str, ...] = ("wine", "hops", "apples", "vegetables", "wheat")
CROP_INDEX: dict[str, int] = {c: i for i, c in enumerate(CROPS)}
# One letter per crop, used by the board map in board.py and docs/key_harvest.md.
CROP_LETTERS: str = "WHAVT"
# One counter of a crop, in words ("1 apple", "1 wine"): the names above are the crops, mostly plurals.
CROP_ONE: dict[str, str] = {"apples": "apple", "vegetables": "vegetable"}
COUNTERS_PER_CROP = 12  # wooden counters of each crop in the game (60 in all)
NO_COUNTERS: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)

Counters = tuple[int, int, int, int, int]


def counters(values: Sequence[int]) -> Counters:
    """A 5-tuple of counts from any sequence of 5 ints."""
    a, b, c, d, e = (int(v) for v in values)
    return (a, b, c, d, e)


def unit(crop: int, n: int = 1) -> Counters:
    """``n`` counters of one crop."""
    out = [0, 0, 0, 0, 0]
    out[crop] = n
    return counters(out)


def add(a: Sequence[int], b: Sequence[int]) -> Counters:
    """a + b, crop by crop."""
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4])


def sub(a: Sequence[int], b: Sequence[int]) -> Counters:
    """a − b, crop by crop (may go negative: check ``covers`` first)."""
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3], a[4] - b[4])


def covers(have: Sequence[int], need: Sequence[int]) -> bool:
    """True when ``have`` holds at least ``need`` of every crop."""
    return have[0] >= need[0] and have[1] >= need[1] and have[2] >= need[2] and have[3] >= need[3] \
        and have[4] >= need[4]


def count_words(n: int, crop: str) -> str:
    """'1 apple', '2 apples', '1 hops' — ``n`` counters of ``crop`` in words."""
    return f"{n} {CROP_ONE.get(crop, crop) if n == 1 else crop}"


def describe(c: Sequence[int]) -> str:
    """Plain words: '2 wine, 1 apple' (or 'nothing')."""
    parts = [count_words(n, CROPS[i]) for i, n in enumerate(c) if n]
    return ", ".join(parts) if parts else "nothing"


def mixes(total: int, limit: Sequence[int] | None = None) -> list[Counters]:
    """Every 5-tuple of counters summing to ``total`` (within ``limit`` per crop when given), in a fixed order."""
    out: list[Counters] = []

    def rec(i: int, left: int, acc: list[int]) -> None:
        if i == 4:
            if limit is None or left <= limit[4]:
                out.append(counters([*acc, left]))
            return
        top = left if limit is None else min(left, limit[i])
        for k in range(top, -1, -1):
            rec(i + 1, left - k, [*acc, k])

    rec(0, total, [])
    return out
