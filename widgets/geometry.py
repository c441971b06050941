"""Pure pixel ↔ cell maths for square and hex sheets (no widgets here, so it is easy to test).

Coordinates are in whatever unit the caller uses (CSS px for drawing, canvas px for clicks);
``scaled`` converts a geometry between units and ``to_canvas`` maps a click on a canvas shown at
another size back onto the canvas's own pixels.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

Cell = tuple[int, int]
Point = tuple[float, float]
Rect = tuple[float, float, float, float]  # x, y, width, height

SQRT3 = math.sqrt(3.0)


def to_canvas(x: float, y: float, rendered: tuple[float, float], canvas: tuple[float, float]) -> Point:
    """A point clicked on a canvas drawn ``rendered`` (w, h) in size, in the canvas's own (w, h) pixels."""
    rw, rh = rendered
    cw, ch = canvas
    if rw <= 0 or rh <= 0:
        raise ValueError("the rendered size must be positive")
    return x * cw / rw, y * ch / rh


@dataclass(frozen=True)
class SquareGeometry:
    """A rows × cols grid of square cells of side ``cell``, its top-left corner at (x0, y0)."""

    rows: int
    cols: int
    cell: float
    x0: float = 0.0
    y0: float = 0.0

    @property
    def width(self) -> float:
        """Width of the whole grid."""
        return self.cols * self.cell

    @property
    def height(self) -> float:
        """Height of the whole grid."""
        return self.rows * self.cell

    def cell_at(self, x: float, y: float) -> Cell | None:
        """The (row, col) under point (x, y), or None outside the grid."""
        fx, fy = (x - self.x0) / self.cell, (y - self.y0) / self.cell
        if not (0 <= fx < self.cols and 0 <= fy < self.rows):
            return None
        return int(fy), int(fx)

    def cell_center(self, row: int, col: int) -> Point:
        """Centre of cell (row, col)."""
        return self.x0 + (col + 0.5) * self.cell, self.y0 + (row + 0.5) * self.cell

    def cell_rect(self, row: int, col: int) -> Rect:
        """(x, y, width, height) of cell (row, col)."""
        return self.x0 + col * self.cell, self.y0 + row * self.cell, self.cell, self.cell

    def scaled(self, k: float) -> SquareGeometry:
        """The same grid in units ``k`` times smaller (e.g. k = 2: CSS px → canvas px on a 2× canvas)."""
        return replace(self, cell=self.cell * k, x0=self.x0 * k, y0=self.y0 * k)


@dataclass(frozen=True)
class HexGeometry:
    """Pointy-top hexes in axial (q, r) — q to the east, r to the south-east, as ``sheetkit.core.grid``.

    ``size`` is the centre-to-corner radius; hex (0, 0) is centred at (x0, y0). With ``hexes``
    given, points over hexes not on the map answer None.
    """

    size: float
    x0: float = 0.0
    y0: float = 0.0
    hexes: frozenset[Cell] | None = None

    @classmethod
    def for_map(cls, hexes: Collection[Cell], size: float, margin: float = 0.0) -> HexGeometry:
        """A geometry that puts the map's top-left hex corner at (margin, margin)."""
        hs = frozenset(hexes)
        if not hs:
            raise ValueError("a hex map needs at least one hex")
        xs = [SQRT3 * (q + r / 2) for q, r in hs]
        ys = [1.5 * r for _, r in hs]
        x0 = margin + size * (SQRT3 / 2 - min(xs))
        y0 = margin + size * (1.0 - min(ys))
        return cls(size, x0, y0, hs)

    def extent(self) -> tuple[float, float]:
        """(width, height) of the map's bounding box, from x0/y0's origin (needs ``hexes``)."""
        if not self.hexes:
            raise ValueError("extent needs the map's hexes")
        xs = [self.cell_center(q, r)[0] for q, r in self.hexes]
        ys = [self.cell_center(q, r)[1] for q, r in self.hexes]
        return max(xs) + self.size * SQRT3 / 2, max(ys) + self.size

    def cell_center(self, q: int, r: int) -> Point:
        """Centre of hex (q, r)."""
        return self.x0 + self.size * SQRT3 * (q + r / 2), self.y0 + self.size * 1.5 * r

    def cell_at(self, x: float, y: float) -> Cell | None:
        """The hex (q, r) under point (x, y) (cube rounding), or None off the map."""
        px, py = (x - self.x0) / self.size, (y - self.y0) / self.size
        fq, fr = SQRT3 / 3 * px - py / 3, 2.0 / 3 * py
        h = _cube_round(fq, fr)
        if self.hexes is not None and h not in self.hexes:
            return None
        return h

    def corners(self, q: int, r: int) -> list[Point]:
        """The six corners of hex (q, r), clockwise from the top."""
        cx, cy = self.cell_center(q, r)
        return [(cx + self.size * math.cos(math.radians(-90 + 60 * k)),
                 cy + self.size * math.sin(math.radians(-90 + 60 * k))) for k in range(6)]

    def scaled(self, k: float) -> HexGeometry:
        """The same map in units ``k`` times smaller (CSS px → canvas px when k = 2)."""
        return replace(self, size=self.size * k, x0=self.x0 * k, y0=self.y0 * k)


def _cube_round(fq: float, fr: float) -> Cell:
    """Nearest hex to fractional axial coordinates."""
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return int(q), int(r)


def cell_at(x: float, y: float, cell: float, origin: Point = (0.0, 0.0)) -> Cell:
    """Square grid, unbounded: the (row, col) under (x, y) for cells of side ``cell``."""
    return math.floor((y - origin[1]) / cell), math.floor((x - origin[0]) / cell)


def cell_center(row: int, col: int, cell: float, origin: Point = (0.0, 0.0)) -> Point:
    """Square grid: centre of (row, col)."""
    return origin[0] + (col + 0.5) * cell, origin[1] + (row + 0.5) * cell


def hex_points(cx: float, cy: float, size: float) -> list[Point]:
    """The six corners of a pointy-top hex of radius ``size`` centred at (cx, cy), clockwise from the top."""
    return [(cx + size * math.cos(math.radians(-90 + 60 * k)), cy + size * math.sin(math.radians(-90 + 60 * k)))
            for k in range(6)]


def hex_at(x: float, y: float, size: float, origin: Point = (0.0, 0.0)) -> Cell:
    """Pointy-top axial hex grid, unbounded: the (q, r) under (x, y)."""
    h = HexGeometry(size, origin[0], origin[1]).cell_at(x, y)
    assert h is not None
    return h


def hex_center(q: int, r: int, size: float, origin: Point = (0.0, 0.0)) -> Point:
    """Pointy-top axial hex grid: centre of (q, r)."""
    return HexGeometry(size, origin[0], origin[1]).cell_center(q, r)


def clip_segment(a: Point, b: Point, polygon: Sequence[Point]) -> tuple[Point, Point] | None:
    """The part of segment a–b inside the convex ``polygon`` (corners in either winding), or None (Cyrus–Beck)."""
    n = len(polygon)
    # the polygon's winding, so that every edge's inward normal points the same way
    area2 = sum(polygon[i][0] * polygon[(i + 1) % n][1] - polygon[(i + 1) % n][0] * polygon[i][1] for i in range(n))
    sign = 1.0 if area2 > 0 else -1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    t0, t1 = 0.0, 1.0
    for i in range(n):
        (px, py), (qx, qy) = polygon[i], polygon[(i + 1) % n]
        nx, ny = -(qy - py) * sign, (qx - px) * sign            # inward normal of edge p–q
        num = nx * (a[0] - px) + ny * (a[1] - py)             # > 0: a is inside this edge
        den = nx * dx + ny * dy
        if den == 0:
            if num < 0:
                return None                                   # parallel to the edge and outside it
            continue
        t = -num / den
        if den > 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return None
    return (a[0] + t0 * dx, a[1] + t0 * dy), (a[0] + t1 * dx, a[1] + t1 * dy)
