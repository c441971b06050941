"""The printed hex map: which hexes exist, which carry +1/-1 or ?, and fast look-up tables.

Hexes are addressed in axial coordinates (q, r) and numbered 0..n-1 in reading order (by row
r, then q) — the engine keeps a player's map as a flat list of terrain numbers in that order.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from sheetkit.core.errors import RecordError
from sheetkit.core.grid import Cell, HexGrid, components
from sheetkit.core.schema import expect_dict, expect_int, expect_list, expect_str
from sheetkit.games.kingdom_maps.terrains import BLANK

MAX_RADIUS = 7
MAX_HEXES = 169


class Board:
    """A hex map shared by every player, flattened into tuples for speed."""

    def __init__(self, hexes: Iterable[Cell], powers: Iterable[Cell] = (), questions: Iterable[Cell] = (),
                 name: str = "custom", title: str = "", notes: str = "") -> None:
        self.grid = HexGrid(frozenset(hexes))
        self.name, self.title, self.notes = name, title, notes
        self.coords: tuple[Cell, ...] = tuple(self.grid.cells())
        self.size = len(self.coords)
        self.index: dict[Cell, int] = {h: i for i, h in enumerate(self.coords)}
        self.nbrs: tuple[tuple[int, ...], ...] = tuple(
            tuple(sorted(self.index[n] for n in self.grid.neighbours(h))) for h in self.coords)
        self.edge: tuple[bool, ...] = tuple(len(n) < 6 for n in self.nbrs)
        self.edge_hexes: tuple[int, ...] = tuple(i for i in range(self.size) if self.edge[i])
        # Touching pairs of edge hexes: the steps of a walk around the border.
        self.edge_pairs: tuple[tuple[int, int], ...] = tuple(
            (a, b) for a in self.edge_hexes for b in self.nbrs[a] if b > a and self.edge[b])
        rows: dict[int, list[int]] = {}
        for i, (_, r) in enumerate(self.coords):
            rows.setdefault(r, []).append(i)
        self.rows: tuple[tuple[int, ...], ...] = tuple(tuple(rows[r]) for r in sorted(rows))
        self.powers: frozenset[int] = frozenset(self.index[h] for h in powers)
        self.questions: frozenset[int] = frozenset(self.index[h] for h in questions)
        self.is_power = tuple(i in self.powers for i in range(self.size))
        self.is_question = tuple(i in self.questions for i in range(self.size))
        # A board is a key of the bots' caches: hashing ~100 coordinates at every look-up cost more than the look-up.
        self._hash = hash((self.coords, self.powers, self.questions))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and (self.coords, self.powers, self.questions) == (
            other.coords, other.powers, other.questions)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Board({self.name!r}, {self.size} hexes, {len(self.powers)} +1/-1, {len(self.questions)} ?)"

    # ----- look-ups --------------------------------------------------------------------
    def hex_of(self, i: int) -> Cell:
        """Axial (q, r) of hex number i."""
        return self.coords[i]

    def printed(self, i: int) -> str:
        """What is printed in hex i: 'power' (+1/-1), 'question' (?) or 'plain'."""
        return "power" if self.is_power[i] else "question" if self.is_question[i] else "plain"

    def blank(self) -> list[int]:
        """A fresh, empty map for this board."""
        return [BLANK] * self.size

    # ----- text pictures (tests, docs, lessons) ----------------------------------------
    def parse_art(self, text: str) -> list[int]:
        """A map from a text picture: one line per row (top first), '.' empty or a terrain 1–6 per hex."""
        lines = [ln.split() for ln in text.strip("\n").splitlines() if ln.strip()]
        if len(lines) != len(self.rows):
            raise ValueError(f"the picture has {len(lines)} rows, the map has {len(self.rows)}")
        cells = self.blank()
        for k, (toks, row) in enumerate(zip(lines, self.rows, strict=True)):
            if len(toks) != len(row):
                raise ValueError(f"row {k + 1} has {len(toks)} hexes, the map's row has {len(row)}")
            for tok, i in zip(toks, row, strict=True):
                if tok == ".":
                    continue
                if tok not in "123456" or len(tok) != 1:
                    raise ValueError(f"row {k + 1}: {tok!r} is not '.' or a terrain 1–6")
                cells[i] = int(tok)
        return cells

    def render_art(self, cells: Sequence[int]) -> str:
        """The text picture of a map (the inverse of ``parse_art``), indented to look like hexes."""
        width = max(len(r) for r in self.rows)
        out = []
        for row in self.rows:
            toks = ["." if cells[i] == BLANK else str(cells[i]) for i in row]
            out.append(" " * (width - len(row)) + " ".join(toks))
        return "\n".join(out)

    # ----- data files ------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The data-file form (round-trips through ``Board.from_json``)."""
        radius = _radius_if_hexagon(self.grid)
        doc: dict[str, Any] = {"name": self.name, "title": self.title}
        if radius is not None:
            doc["radius"] = radius
        else:
            doc["hexes"] = [list(h) for h in self.coords]
        doc["powers"] = [list(self.coords[i]) for i in sorted(self.powers)]
        doc["questions"] = [list(self.coords[i]) for i in sorted(self.questions)]
        doc["notes"] = self.notes
        return doc

    @classmethod
    def from_json(cls, data: Any, path: str = "map") -> Board:
        """Build and validate a map: connected, specials on the map and never doubled."""
        d = expect_dict(data, path, optional=["name", "title", "radius", "hexes", "powers", "questions", "notes"])
        if ("radius" in d) == ("hexes" in d):
            raise RecordError("a map needs exactly one of 'radius' (a hexagon) or 'hexes' (a list of [q, r])", path)
        if "radius" in d:
            hexes = set(HexGrid.hexagon(expect_int(d["radius"], f"{path}.radius", 1, MAX_RADIUS)).hexes)
        else:
            hexes = set()
            for k, h in enumerate(expect_list(d["hexes"], f"{path}.hexes", MAX_HEXES, 1)):
                cell = _cell(h, f"{path}.hexes[{k}]")
                if cell in hexes:
                    raise RecordError(f"hex {cell} is listed twice", f"{path}.hexes[{k}]")
                hexes.add(cell)
        grid = HexGrid(frozenset(hexes))
        if len(components(hexes, lambda a, b: True, grid.neighbours)) != 1:
            raise RecordError("the map's hexes must form one connected piece", path)
        special: dict[Cell, str] = {}
        for key in ("powers", "questions"):
            for k, h in enumerate(expect_list(d.get(key, []), f"{path}.{key}", MAX_HEXES)):
                cell = _cell(h, f"{path}.{key}[{k}]")
                if cell not in hexes:
                    raise RecordError(f"hex {cell} is not on the map", f"{path}.{key}[{k}]")
                if cell in special:
                    raise RecordError(f"hex {cell} is already a {special[cell]} hex", f"{path}.{key}[{k}]")
                special[cell] = key[:-1]
        return cls(hexes, [h for h, k in special.items() if k == "power"],
                   [h for h, k in special.items() if k == "question"],
                   name=expect_str(d.get("name", "custom"), f"{path}.name", 40),
                   title=expect_str(d.get("title", ""), f"{path}.title", 120),
                   notes=expect_str(d.get("notes", ""), f"{path}.notes", 4000))


def _cell(v: Any, path: str) -> Cell:
    pair = expect_list(v, path, 2, 2)
    return (expect_int(pair[0], f"{path}[0]", -50, 50), expect_int(pair[1], f"{path}[1]", -50, 50))


def _radius_if_hexagon(grid: HexGrid) -> int | None:
    for radius in range(0, MAX_RADIUS + 1):
        if len(grid) == 3 * radius * (radius + 1) + 1:
            return radius if grid == HexGrid.hexagon(radius) else None
    return None


def shipped_maps() -> list[str]:
    """Names of the maps that ship with sheetkit."""
    return list(_shipped_names())


@lru_cache(maxsize=1)
def _shipped_names() -> tuple[str, ...]:
    # Listed once: every new game looks its map up here (listing the package folder took ~0.3 ms a game).
    files = resources.files("sheetkit.games.kingdom_maps") / "maps"
    return tuple(sorted(p.name[:-5] for p in files.iterdir() if p.name.endswith(".json")))


@lru_cache(maxsize=16)
def _load_shipped(name: str) -> Board:
    text = (resources.files("sheetkit.games.kingdom_maps") / "maps" / f"{name}.json").read_text("utf-8")
    return Board.from_json(json.loads(text), f"maps/{name}.json")


def load_map(name_or_path: str | Path = "default") -> Board:
    """A shipped map by name, or a map JSON file by path."""
    if isinstance(name_or_path, str) and name_or_path in _shipped_names():
        return _load_shipped(name_or_path)
    p = Path(name_or_path)
    if not p.exists():
        raise RecordError(f"no map named {str(name_or_path)!r} (shipped: {', '.join(shipped_maps())})")
    try:
        data = json.loads(p.read_text("utf-8"))
    except ValueError as e:
        raise RecordError(f"map is not valid JSON ({e})") from None
    return Board.from_json(data, str(p))
