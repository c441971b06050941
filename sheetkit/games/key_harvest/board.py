"""The Key Harvest country board: 56 hex spaces A1–G7, their crops, adjacency and the starting pairs.

Every player's board is the same (docs/key_harvest.md §The country board). Rows A–G hold 7, 8, 9, 8,
9, 8, 7 spaces and are **centred** on one another, so each row sits half a hex left of the longer
row beside it. The offset rule, exactly: give space *k* (1-based) of a row of length *n* the
half-hex column ``x = 2(k − 1) − (n − 1)``; two spaces touch when they are in the same row with
``|x − x'| = 2``, or in neighbouring rows with ``|x − x'| = 1``. Since neighbouring rows always
differ in length by one, space *k* of the shorter row touches spaces *k* and *k + 1* of the longer
row (e.g. B1 touches A1, C1, C2 and B2). Row and ``x`` are what a drawing needs: the centre of a
space is at (x · w/2, row · 3h/4) for hexes w wide and h tall (pointy-top).

The crop printed on each space is sheetkit's own (ours): a proper 5-colouring — no two touching
spaces share a crop, so no crop forms a patch — with 12 wine and 11 of each other crop. The
8 starting pairs are ours too: two spaces that do not touch, of different crops, with a space
between them that touches both (one more tile joins them).

For speed, sets of spaces are Python ints (bitmasks): each space has a bit in a padded grid in
which every neighbour is one fixed shift away, so a whole region grows in a few big-int steps.
"""

from __future__ import annotations

from collections.abc import Iterable

from sheetkit.games.key_harvest.crops import CROP_LETTERS, CROPS

ROWS = "ABCDEFG"
ROW_LENGTHS = (7, 8, 9, 8, 9, 8, 7)

# The crop letter of each space, row by row (W wine, H hops, A apples, V vegetables, T wheat).
CROP_MAP: tuple[str, ...] = (
    "WHVWTAT",
    "VAWHVWHA",
    "THTAWAVWH",
    "VAVTHWTV",
    "TWHAWVAHT",
    "VAWTHTVW",
    "HTAVWAH",
)

# 8 starting pairs (ours): not touching, different crops, one space between them touches both.
START_PAIRS: tuple[tuple[str, str], ...] = (
    ("A2", "B1"), ("A4", "A6"), ("C3", "E2"), ("C6", "D4"),
    ("C9", "D7"), ("E9", "G7"), ("F3", "G1"), ("F6", "G4"),
)

CODES: tuple[str, ...] = tuple(f"{r}{k}" for r, n in zip(ROWS, ROW_LENGTHS, strict=True) for k in range(1, n + 1))
CODE_SET = frozenset(CODES)
# code -> (row 0–6, half-hex column x)
POSITION: dict[str, tuple[int, int]] = {
    f"{r}{k}": (i, 2 * (k - 1) - (n - 1))
    for i, (r, n) in enumerate(zip(ROWS, ROW_LENGTHS, strict=True)) for k in range(1, n + 1)
}
_AT = {v: k for k, v in POSITION.items()}
NEIGHBOURS: dict[str, tuple[str, ...]] = {
    c: tuple(_AT[(r + dr, x + dx)] for dr, dx in ((0, -2), (0, 2), (-1, -1), (-1, 1), (1, -1), (1, 1))
             if (r + dr, x + dx) in _AT)
    for c, (r, x) in POSITION.items()
}
CROP_OF: dict[str, int] = {
    f"{r}{k + 1}": CROP_LETTERS.index(CROP_MAP[i][k])
    for i, (r, n) in enumerate(zip(ROWS, ROW_LENGTHS, strict=True)) for k in range(n)
}

# ----- bitmasks ---------------------------------------------------------------------------------
# Axial coordinates q = (x − row) / 2 in a grid W wide with one empty column, so the six neighbours
# of a bit are the shifts ±1, ±W and ±(W − 1) and nothing wraps onto a real space.
_QS = {c: (x - r) // 2 for c, (r, x) in POSITION.items()}
_QMIN = min(_QS.values())
W = max(_QS.values()) - _QMIN + 2
BIT: dict[str, int] = {c: 1 << (POSITION[c][0] * W + _QS[c] - _QMIN) for c in CODES}
CODE_AT_BIT: dict[int, str] = {b: c for c, b in BIT.items()}
ALL = sum(BIT.values())
NBR_MASK: dict[str, int] = {c: sum(BIT[d] for d in NEIGHBOURS[c]) for c in CODES}
CROP_MASKS: tuple[int, ...] = tuple(sum(BIT[c] for c in CODES if CROP_OF[c] == k) for k in range(len(CROPS)))
_W1 = W - 1


def grow(region: int) -> int:
    """``region`` and every space touching it (within the board)."""
    return (region | region << 1 | region >> 1 | region << W | region >> W | region << _W1 | region >> _W1) & ALL


def component(start: int, within: int) -> int:
    """The connected part of ``within`` that holds the bits of ``start``."""
    comp = start & within
    while True:
        more = grow(comp) & within
        if more == comp:
            return comp
        comp = more


def groups(mask: int) -> list[int]:
    """The connected groups of ``mask``, largest first (ties: the group with the lowest bit first)."""
    out = []
    while mask:
        comp = component(mask & -mask, mask)
        out.append(comp)
        mask ^= comp
    out.sort(key=lambda g: -g.bit_count())
    return out


def group_sizes(mask: int) -> list[int]:
    """Sizes of the connected groups of ``mask``, largest first."""
    out = []
    while mask:
        comp = component(mask & -mask, mask)
        out.append(comp.bit_count())
        mask ^= comp
    out.sort(reverse=True)
    return out


def two_largest(mask: int) -> tuple[int, int]:
    """Sizes of the largest and second largest connected groups (0 when missing)."""
    a = b = 0
    while mask:
        comp = component(mask & -mask, mask)
        n = comp.bit_count()
        if n > a:
            a, b = n, a
        elif n > b:
            b = n
        mask ^= comp
    return a, b


def codes_in(mask: int) -> list[str]:
    """The codes of a mask, in board order (A1, A2, … G7: bits run row by row, left to right)."""
    out = []
    at = CODE_AT_BIT
    while mask:
        b = mask & -mask
        out.append(at[b])
        mask ^= b
    return out


def mask_of(codes: Iterable[str]) -> int:
    """The mask of some codes."""
    m = 0
    for c in codes:
        m |= BIT[c]
    return m


def touching(code: str, mask: int) -> int:
    """How many spaces of ``mask`` touch ``code``."""
    return (NBR_MASK[code] & mask).bit_count()


def adjacent(a: str, b: str) -> bool:
    """True when spaces ``a`` and ``b`` touch."""
    return b in NEIGHBOURS[a]


def crop_of(code: str) -> str:
    """The crop name printed on a space."""
    return CROPS[CROP_OF[code]]


def sort_key(code: str) -> tuple[int, int]:
    """Board order of a code (row, then number)."""
    return ROWS.index(code[0]), int(code[1:])


def board_text(marks: dict[str, str] | None = None) -> str:
    """The board drawn as text: each space's code and crop letter (or a mark), rows offset like the hexes."""
    lines = []
    for i, (r, n) in enumerate(zip(ROWS, ROW_LENGTHS, strict=True)):
        cells = []
        for k in range(1, n + 1):
            c = f"{r}{k}"
            cells.append(f"{c}{(marks or {}).get(c, CROP_MAP[i][k - 1])}")
        lines.append(" " * (9 - n) * 2 + " ".join(cells))
    return "\n".join(lines)
