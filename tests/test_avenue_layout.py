"""The default Avenue sheet holds what docs/avenue.md §The sheet asks for; bad layout files are refused clearly."""

from __future__ import annotations

import copy
import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from sheetkit.core.errors import RecordError
from sheetkit.core.play import play_out
from sheetkit.core.records import replay
from sheetkit.games.avenue import AvenueParams, AvenueState, GreedyBot, Layout, load_layout, new_game, shipped_layouts
from sheetkit.games.avenue.cards import ROAD_EDGES
from sheetkit.games.avenue.sheet import Sheet, geometry

DEFAULT = load_layout("default")
ROOT = Path(__file__).resolve().parents[1]
DEFAULT_JSON = json.loads((ROOT / "sheetkit/games/avenue/layouts/default.json").read_text("utf-8"))
EDGE_OF = {(-1, 0): 1, (0, 1): 2, (1, 0): 4, (0, -1): 8}  # TOP, RIGHT, BOTTOM, LEFT bits (sheetkit.core.grid)
OPPOSITE = {1: 4, 4: 1, 2: 8, 8: 2}


# ===== the default layout (docs/avenue.md §The sheet) ===================================
def test_default_is_shipped_and_7_by_6() -> None:
    """docs/avenue.md §Components, §The sheet — sheetkit ships its own default layout, a 7 × 6 sheet."""
    assert "default" in shipped_layouts()
    assert (DEFAULT.rows, DEFAULT.cols) == (7, 6)


def test_default_has_six_farms_a_to_f() -> None:
    """docs/avenue.md §The sheet — 6 farms, letters A–F, one cell each."""
    assert sorted(DEFAULT.farms) == list("ABCDEF")
    assert len(set(DEFAULT.farms.values())) == 6


def test_default_castles_in_opposite_corners() -> None:
    """docs/avenue.md §The sheet — one purple and one green castle, in opposite corners."""
    (pr, pc), (gr, gc) = DEFAULT.castles["purple"], DEFAULT.castles["green"]
    assert DEFAULT.grid.is_corner((pr, pc)) and DEFAULT.grid.is_corner((gr, gc))
    assert pr + gr == DEFAULT.rows - 1 and pc + gc == DEFAULT.cols - 1   # diagonally opposite


def test_default_about_26_grape_cells_and_8_empty() -> None:
    """docs/avenue.md §The sheet — about 26 grape cells and about 8 empty cells, 1–4 grapes each."""
    kinds = defaultdict(int)
    for r in range(DEFAULT.rows):
        for c in range(DEFAULT.cols):
            kinds[DEFAULT.printed((r, c))] += 1
    assert 24 <= kinds["grapes"] <= 28
    assert 6 <= kinds["empty"] <= 10
    assert kinds["farm"] + kinds["castle"] + kinds["grapes"] + kinds["empty"] == 42
    assert all(1 <= p + g <= 4 for p, g in DEFAULT.grapes.values())


def test_default_48_grapes_24_purple_24_green() -> None:
    """docs/avenue.md §The sheet — 48 grapes, 24 purple and 24 green."""
    assert DEFAULT.total_grapes() == (24, 24)
    # counted again straight from the data file's tokens
    tokens = " ".join(DEFAULT_JSON["map"]).split()
    grape_tokens = [t for t in tokens if set(t) <= {"p", "g"}]
    assert sum(t.count("p") for t in grape_tokens) == 24 and sum(t.count("g") for t in grape_tokens) == 24


def _reach_both_colours(farm: str) -> list[tuple[int, int]] | None:
    """Roads (farm's road + its neighbours') that put grapes of both colours on the farm's network, if any."""
    fr, fc = DEFAULT.farms[farm]
    for road, mask in ROAD_EDGES.items():
        sheet = Sheet(geometry(DEFAULT))
        sheet.place(fr * 6 + fc, road)
        for (dr, dc), edge in EDGE_OF.items():
            nr, nc = fr + dr, fc + dc
            if mask & edge and 0 <= nr < 7 and 0 <= nc < 6 and (nr, nc) in DEFAULT.grapes:
                back = OPPOSITE[edge]
                # the straight road through that edge always has an end facing back at the farm
                sheet.place(nr * 6 + nc, 6 if back in (1, 4) else 5)
        cells = sheet.network_cells(fr * 6 + fc)
        purple = sum(DEFAULT.grapes.get(c, (0, 0))[0] for c in cells)
        green = sum(DEFAULT.grapes.get(c, (0, 0))[1] for c in cells)
        if purple and green:
            return cells
    return None


@pytest.mark.parametrize("farm", list("ABCDEF"))
def test_default_every_farm_reaches_both_colours(farm: str) -> None:
    """docs/avenue.md §The sheet — every farm can reach purple AND green grapes, with neighbours alone."""
    cells = _reach_both_colours(farm)
    assert cells is not None, f"farm {farm} cannot reach both colours through its neighbours"
    assert DEFAULT.farms[farm] in cells


def test_default_balance_under_the_greedy_bot() -> None:
    """docs/avenue.md §The sheet — under the greedy bot no farm is much harder to score than the others.

    400 seeded solo games. "Much harder" is judged two ways: the mean grapes the bot reaches on a farm's
    network when it is scored (at least 70% of the best farm's), and the mean value written in its box
    (at least half of the best farm's; the rising rule makes this one noisier).
    """
    reached: dict[str, list[int]] = defaultdict(list)
    written: dict[str, list[int]] = defaultdict(list)
    for seed in range(400):
        state = play_out(new_game(1, seed=seed), [GreedyBot()], fast=True)
        for farm, grapes, box in zip(state.round_farms, state.grapes[0], state.boxes[0], strict=True):
            reached[farm].append(grapes)
            written[farm].append(box)
    mean_reached = {f: sum(v) / len(v) for f, v in reached.items()}
    mean_written = {f: sum(v) / len(v) for f, v in written.items()}
    assert sorted(mean_reached) == list("ABCDEF")
    assert min(mean_reached.values()) >= 0.7 * max(mean_reached.values()), mean_reached
    assert min(mean_written.values()) >= 0.5 * max(mean_written.values()), mean_written


def test_default_balance_is_reported() -> None:
    """docs/avenue.md §The sheet — the layout's notes report the per-farm mean score from simulation."""
    notes = DEFAULT.notes
    assert "per-farm" in notes.lower()
    means = {m.group(1): float(m.group(2)) for m in re.finditer(r"\b([A-F]) (\d+\.\d+)", notes)}
    assert sorted(means) == list("ABCDEF")
    assert all(0 < v <= 48 for v in means.values())


def test_layout_round_trips_through_json() -> None:
    """docs/avenue.md §The sheet — a layout's data form reads back to the same layout."""
    again = Layout.from_json(DEFAULT.to_json())
    assert again == DEFAULT and hash(again) == hash(DEFAULT)
    assert (again.farms, again.castles, again.grapes) == (DEFAULT.farms, DEFAULT.castles, DEFAULT.grapes)


# ===== any other layout from a data file ==========================================================
def _mirrored() -> dict[str, Any]:
    """The default map mirrored left–right: a different, valid layout (castles stay in opposite corners)."""
    data = copy.deepcopy(DEFAULT_JSON)
    data["name"] = "mirror"
    data["map"] = [" ".join(reversed(line.split())) for line in DEFAULT_JSON["map"]]
    return data


def test_layout_loads_from_a_file_and_plays(tmp_path: Path) -> None:
    """docs/avenue.md §The sheet — any other layout loads from a data file and a game uses it."""
    path = tmp_path / "mirror.json"
    path.write_text(json.dumps(_mirrored()), "utf-8")
    layout = load_layout(path)
    assert layout.farms["A"] == (1, 4) and layout.castles == {"purple": (0, 5), "green": (6, 0)}
    params = AvenueParams.from_json({"layout": layout.to_json()})
    assert params.layout == layout
    state = play_out(AvenueState(params, ["You", "Bot"], seed=5), [GreedyBot(), GreedyBot()])
    # (1,4) is now farm A: a road there is A's network
    assert state.sheets[0].geo.farm_cell["A"] == 1 * 6 + 4
    again = replay(json.loads(json.dumps(state.to_record())))
    assert again.fingerprint() == state.fingerprint() and again.params.layout == layout


def _bad(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(DEFAULT_JSON)
    change(data)
    return data


def _set_cell(r: int, c: int, token: str) -> Any:
    def change(data: dict[str, Any]) -> None:
        toks = data["map"][r].split()
        toks[c] = token
        data["map"][r] = " ".join(toks)
    return change


BAD_LAYOUTS = [
    ("a row missing", _bad(lambda d: d["map"].pop()), "the map has 6 rows, but the layout says rows: 7"),
    ("a row too short", _bad(lambda d: d.__setitem__("map", [*d["map"][:3], "p p p", *d["map"][4:]])),
     "row 3 has 3 cells, expected 6"),
    ("unknown token", _bad(_set_cell(2, 2, "x")), "cell (2, 2): 'x' is not something a cell can hold"),
    ("farm G", _bad(_set_cell(2, 2, "G")), "cell (2, 2): 'G' is not something a cell can hold"),
    ("five grapes", _bad(_set_cell(0, 1, "ppggp")), "cell (0, 1): 'ppggp' is 5 grapes — a cell holds 1 to 4"),
    ("duplicate farm", _bad(_set_cell(2, 2, "A")), "cell (2, 2): farm A is printed twice (also at (1, 1))"),
    ("two purple castles", _bad(_set_cell(6, 5, "#p")), "cell (6, 5): there is already a purple castle at (0, 0)"),
    ("missing green castle", _bad(_set_cell(6, 5, ".")), "the green castle is missing (write #g)"),
    ("no farms", _bad(lambda d: d.__setitem__("map", [" ".join("." if t in "ABCDEF" else t for t in line.split())
                                                       for line in d["map"]])), "a layout needs at least one farm"),
    ("rows not a number", _bad(lambda d: d.__setitem__("rows", "7")), "rows: expected a whole number, got a text"),
    ("too many rows", _bad(lambda d: d.__setitem__("rows", 16)), "rows: 16 is out of range (1 to 15)"),
    ("unknown field", _bad(lambda d: d.__setitem__("colour", "red")), "unknown field 'colour'"),
    ("map missing", _bad(lambda d: d.pop("map")), "missing field 'map'"),
]


@pytest.mark.parametrize("what,data,message", BAD_LAYOUTS, ids=[b[0] for b in BAD_LAYOUTS])
def test_bad_layout_is_refused_clearly(what: str, data: dict[str, Any], message: str) -> None:
    """docs/avenue.md §The sheet — a bad layout file is refused with a message naming the problem."""
    with pytest.raises(RecordError) as err:
        Layout.from_json(data)
    assert message in str(err.value), what


def test_bad_layout_file_problems(tmp_path: Path) -> None:
    """docs/avenue.md §The sheet — missing files and broken JSON are named plainly too."""
    with pytest.raises(RecordError, match=re.escape("no layout named 'nowhere.json' (shipped: default")):
        load_layout("nowhere.json")
    broken = tmp_path / "broken.json"
    broken.write_text('{"rows": 7,', "utf-8")
    with pytest.raises(RecordError, match="layout is not valid JSON"):
        load_layout(broken)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_bad(_set_cell(6, 5, "."))), "utf-8")
    with pytest.raises(RecordError, match="the green castle is missing"):
        load_layout(bad)


def test_bad_inline_layout_in_a_record_names_its_path() -> None:
    """docs/avenue.md §The sheet — a bad layout inside a record's params says where it is."""
    with pytest.raises(RecordError) as err:
        AvenueParams.from_json({"layout": _bad(_set_cell(2, 2, "A"))})
    assert str(err.value).startswith("params.layout.map[2]: cell (2, 2): farm A is printed twice")
