"""notebooks/key_harvest.ipynb as Voila runs it: a shared link's deal against two bots, played to the end
through the table, with the live analysis panels (tile worth, group trade-off) filling in."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

REPO = Path(__file__).resolve().parents[1]
NOTEBOOK = REPO / "notebooks" / "key_harvest.ipynb"

PLAY_IT = """
import json
import ipywidgets as W
from ipywidgets.widgets.widget import _instances
from sheetkit.games.key_harvest import GreedyBot
from sheetkit.widgets.key_harvest import plots
table.simulate_client_ready()
bot = GreedyBot(seed=1)
def shown_groups():
    return next(c.value for w in list(_instances.values()) if isinstance(w, W.VBox) and "sk-live" in w._dom_classes
                for c in w.children if isinstance(c, W.HTML) and "sk-groups" in c.value)
lagged = []   # the moves after which the groups panel did not show the table's game
while not table.state.is_terminal():
    table._apply(0, bot.act(table.state, 0))
    if not shown_groups().startswith(plots.groups_html(table.state)):   # the groups, then the trade-off plot
        lagged.append(table.state.turn)
panels = [w for w in list(_instances.values()) if isinstance(w, W.VBox) and "sk-live" in w._dom_classes
          and w.children]
print(json.dumps({
    "code": table.state.game_code(), "players": table.state.players, "over": table.state.is_terminal(),
    "status": table.status_text, "last_error": table.last_error,
    "panels": [[type(c).__name__ for c in p.children] for p in panels],
    "texts": [c.value for p in panels for c in p.children if isinstance(c, W.HTML)],
    "registry": table.state.registry, "lagged": lagged,
}))
"""


def run(extra: str, query: str, monkeypatch: pytest.MonkeyPatch) -> nbformat.NotebookNode:
    nb = copy.deepcopy(nbformat.read(NOTEBOOK, as_version=4))
    nb.cells.append(nbformat.v4.new_code_cell(extra))
    monkeypatch.setenv("QUERY_STRING", query)       # the kernel inherits it, as under Voila
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    return nb


def test_the_notebook_plays_a_shared_link_to_the_end_and_its_panels_follow(monkeypatch):
    nb = run(PLAY_IT, "code=KH-0000-0005&bots=greedy,random", monkeypatch)
    errs = [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert errs == []
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.get("output_type") == "stream")
    got = json.loads(text.strip().splitlines()[-1])
    assert got["code"] == "KH-0000-0005"
    assert got["players"] == ["You", "Greedy bot", "Random bot"]
    assert got["over"] and got["status"].startswith("Game over") and got["last_error"] is None
    kinds = got["panels"]
    assert len(kinds) == 2, f"two live panels follow the table: {kinds}"
    plot = next((t for t in got["texts"] if "<svg class='sk-tradeoff'" in t), None)
    assert plot is not None, "the trade-off plot is drawn"
    assert all(f"{name}: " in plot for name in got["players"]), "its legend names every player"
    worth = next(t for t in got["texts"] if "sk-tile-worth" in t or "No tile is on offer" in t)
    shown = re.findall(r"<tr data-code='(\w+)'>", worth)
    assert shown == got["registry"], "the worth table lists the registry tiles of the final state"
    groups = next(t for t in got["texts"] if "sk-groups" in t)
    assert all(name in groups for name in got["players"])
    assert got["lagged"] == [], "the groups panel showed another game than the table's after a move, at these turns"


def test_the_notebook_credits_the_designer_and_keeps_its_cells_thin():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    first = nb.cells[0].source
    assert "Richard Breese" in first and "R&D Games" in first and "Rio Grande" in first
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert "KeyHarvestTable.from_query()" in code[0].source
    assert all(len(c.source.splitlines()) <= 12 for c in code)
