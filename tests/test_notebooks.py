"""The notebooks as Voila runs them: a shared link's deal, a whole game played through the table,
and the analysis panels filling in. (nbval also runs every notebook: see pyproject's pytest table.)"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"

PLAY_IT = """
import ipywidgets as W
from sheetkit.games.avenue import Draw, GreedyBot
table.simulate_client_ready()
bot = GreedyBot()
while not table.state.is_terminal():
    if table.state.is_chance_node():
        table.next_button.click()
    else:
        a = bot.act(table.state, 0)
        table.click_cell(a.row, a.col) if isinstance(a, Draw) else table.peek_button.click()
from ipywidgets.widgets.widget import _instances
panels = [w for w in list(_instances.values()) if isinstance(w, W.VBox) and "sk-live" in w._dom_classes]
print(json.dumps({
    "code": table.state.game_code(), "players": table.state.players, "over": table.state.is_terminal(),
    "status": table.status_text, "last_error": table.last_error,
    "panels": [[type(c).__name__ for c in p.children] for p in panels],
    "texts": [c.value for p in panels for c in p.children if isinstance(c, W.HTML)],
}))
"""


def run(path: Path, extra: str = "", env: dict[str, str] | None = None,
        monkeypatch: pytest.MonkeyPatch | None = None) -> nbformat.NotebookNode:
    nb = nbformat.read(path, as_version=4)
    nb = copy.deepcopy(nb)
    if extra:
        nb.cells.append(nbformat.v4.new_code_cell("import json\n" + extra))
    if monkeypatch is not None:
        for k, v in (env or {}).items():
            monkeypatch.setenv(k, v)      # the kernel inherits it, as under Voila
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    return nb


def errors(nb: nbformat.NotebookNode) -> list[str]:
    out = []
    for cell in nb.cells:
        for o in cell.get("outputs", []):
            if o.get("output_type") == "error" or o.get("name") == "stderr":
                out.append(str(o.get("evalue") or o.get("text"))[:300])
    return out


def last_json(nb: nbformat.NotebookNode) -> dict:
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.get("output_type") == "stream")
    return json.loads(text.strip().splitlines()[-1])


@pytest.mark.slow
def test_avenue_notebook_plays_a_shared_link_to_the_end_and_fills_the_analysis(monkeypatch):
    nb = run(NOTEBOOKS / "avenue.ipynb", PLAY_IT,
             {"QUERY_STRING": "code=AV-0000-001A&bots=greedy,random"}, monkeypatch)
    assert errors(nb) == []
    got = last_json(nb)
    assert got["code"] == "AV-0000-001A"
    assert got["players"] == ["You", "Greedy bot", "Random bot"]
    assert got["over"] and got["status"].startswith("Game over")
    assert got["last_error"] is None
    kinds = got["panels"]
    assert len(kinds) == 3, "three live analysis panels follow the table"
    assert all("Image" in k for k in kinds), f"every panel has drawn its picture: {kinds}"
    texts = " ".join(got["texts"])
    assert "Round 5 ended on card" in texts and "agreed on" in texts


def test_avenue_notebook_shows_the_play_cell_first_and_no_code_in_the_dashboard():
    nb = nbformat.read(NOTEBOOKS / "avenue.ipynb", as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert "AvenueTable.from_query()" in code[0].source
    assert all(len(c.source.splitlines()) <= 12 for c in code), "cells stay thin: the library does the work"
    first = nb.cells[0].source
    assert "Eilif Svensson" in first and "Aporta Games" in first and "2016" in first


def test_index_notebook_lists_the_games_with_dashboard_links():
    nb = run(NOTEBOOKS / "index.ipynb")
    assert errors(nb) == []
    html = "".join(o.get("data", {}).get("text/html", "") for c in nb.cells for o in c.get("outputs", []))
    assert "href='avenue.ipynb'" in html and "href='key_harvest.ipynb'" in html and "sk-coming'>coming" not in html


def test_pytest_runs_the_notebooks_but_not_the_benchmark_or_browser_pages():
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "notebooks", "benchmarks"],
                         cwd=REPO, capture_output=True, text=True, timeout=300)
    listed = out.stdout
    assert "notebooks/avenue.ipynb::" in listed and "notebooks/index.ipynb::" in listed
    assert "minimal_canvas.ipynb" not in listed
    assert not list((REPO / "tests" / "browser").glob("*.ipynb")) or "tests/browser" not in listed
