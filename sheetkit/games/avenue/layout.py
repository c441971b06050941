"""Sheet layouts as data: what is printed in each cell, loaded and validated from JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from sheetkit.core.errors import RecordError
from sheetkit.core.grid import Cell, SquareGrid
from sheetkit.core.schema import expect_dict, expect_int, expect_list, expect_str

FARM_LETTERS = "ABCDEF"
CASTLE_TOKENS = {"#p": "purple", "#g": "green"}


@dataclass(frozen=True)
class Layout:
    """A printed Avenue sheet: farms, castles and grapes on a rows × cols grid."""

    name: str
    rows: int
    cols: int
    farms: dict[str, Cell]
    castles: dict[str, Cell]
    grapes: dict[Cell, tuple[int, int]]  # cell → (purple, green)
    title: str = ""
    notes: str = ""
    _tokens: tuple[tuple[str, ...], ...] = field(default=(), repr=False, compare=False)

    def __hash__(self) -> int:
        return hash((self.rows, self.cols, tuple(sorted(self.farms.items())), tuple(sorted(self.castles.items())),
                     tuple(sorted(self.grapes.items()))))

    @property
    def grid(self) -> SquareGrid:
        """The square grid of this sheet."""
        return SquareGrid(self.rows, self.cols)

    def printed(self, cell: Cell) -> str:
        """What is printed in a cell: 'farm', 'castle', 'grapes' or 'empty'."""
        if cell in self.farm_at:
            return "farm"
        if cell in self.castle_at:
            return "castle"
        return "grapes" if cell in self.grapes else "empty"

    @property
    def farm_at(self) -> dict[Cell, str]:
        """Cell → farm letter."""
        return {c: f for f, c in self.farms.items()}

    @property
    def castle_at(self) -> dict[Cell, str]:
        """Cell → castle colour."""
        return {c: k for k, c in self.castles.items()}

    def total_grapes(self) -> tuple[int, int]:
        """(purple, green) grapes on the whole sheet."""
        return (sum(p for p, _ in self.grapes.values()), sum(g for _, g in self.grapes.values()))

    def to_json(self) -> dict[str, Any]:
        """The data-file form (round-trips through ``Layout.from_json``)."""
        rows = []
        for r in range(self.rows):
            toks = []
            for c in range(self.cols):
                cell = (r, c)
                if cell in self.farm_at:
                    toks.append(self.farm_at[cell])
                elif cell in self.castle_at:
                    toks.append("#" + self.castle_at[cell][0])
                elif cell in self.grapes:
                    p, g = self.grapes[cell]
                    toks.append("p" * p + "g" * g)
                else:
                    toks.append(".")
            rows.append(" ".join(t.ljust(4) for t in toks).rstrip())
        return {"name": self.name, "title": self.title, "rows": self.rows, "cols": self.cols, "map": rows,
                "notes": self.notes}

    @classmethod
    def from_json(cls, data: Any, path: str = "layout") -> Layout:
        """Build and validate a layout; every problem is named with its row and column."""
        d = expect_dict(data, path, required=["rows", "cols", "map"], optional=["name", "title", "notes"])
        rows = expect_int(d["rows"], f"{path}.rows", 1, 15)
        cols = expect_int(d["cols"], f"{path}.cols", 1, 15)
        name = expect_str(d.get("name", "custom"), f"{path}.name", 40)
        title = expect_str(d.get("title", ""), f"{path}.title", 120)
        notes = expect_str(d.get("notes", ""), f"{path}.notes", 2000)
        lines = expect_list(d["map"], f"{path}.map", 100)
        if len(lines) != rows:
            raise RecordError(f"the map has {len(lines)} rows, but the layout says rows: {rows}", f"{path}.map")
        farms: dict[str, Cell] = {}
        castles: dict[str, Cell] = {}
        grapes: dict[Cell, tuple[int, int]] = {}
        for r, line in enumerate(lines):
            lp = f"{path}.map[{r}]"
            toks = expect_str(line, lp, 200).split()
            if len(toks) != cols:
                raise RecordError(f"row {r} has {len(toks)} cells, expected {cols}", lp)
            for c, tok in enumerate(toks):
                where = f"cell ({r}, {c})"
                if tok in FARM_LETTERS:
                    if tok in farms:
                        raise RecordError(f"{where}: farm {tok} is printed twice (also at {farms[tok]})", lp)
                    farms[tok] = (r, c)
                elif tok in CASTLE_TOKENS:
                    colour = CASTLE_TOKENS[tok]
                    if colour in castles:
                        raise RecordError(f"{where}: there is already a {colour} castle at {castles[colour]}", lp)
                    castles[colour] = (r, c)
                elif tok == ".":
                    pass
                elif set(tok) <= {"p", "g"}:
                    if len(tok) > 4:
                        raise RecordError(f"{where}: {tok!r} is {len(tok)} grapes — a cell holds 1 to 4", lp)
                    grapes[(r, c)] = (tok.count("p"), tok.count("g"))
                else:
                    raise RecordError(f"{where}: {tok!r} is not something a cell can hold (write a farm A–F, "
                                      f"a castle #p or #g, 1 to 4 grapes like 'ppg', or '.' for nothing)", lp)
        if not farms:
            raise RecordError("a layout needs at least one farm", path)
        for colour in ("purple", "green"):
            if colour not in castles:
                raise RecordError(f"the {colour} castle is missing (write #{colour[0]})", path)
        return cls(name, rows, cols, farms, castles, grapes, title, notes)


def shipped_layouts() -> list[str]:
    """Names of the layouts that ship with sheetkit."""
    files = resources.files("sheetkit.games.avenue") / "layouts"
    return sorted(p.name[:-5] for p in files.iterdir() if p.name.endswith(".json"))


def load_layout(name_or_path: str | Path = "default") -> Layout:
    """A shipped layout by name, or a layout JSON file by path."""
    text: str
    if isinstance(name_or_path, str) and name_or_path in shipped_layouts():
        text = (resources.files("sheetkit.games.avenue") / "layouts" / f"{name_or_path}.json").read_text("utf-8")
    else:
        p = Path(name_or_path)
        if not p.exists():
            raise RecordError(f"no layout named {str(name_or_path)!r} (shipped: {', '.join(shipped_layouts())})")
        text = p.read_text("utf-8")
    try:
        data = json.loads(text)
    except ValueError as e:
        raise RecordError(f"layout is not valid JSON ({e})") from None
    return Layout.from_json(data)
