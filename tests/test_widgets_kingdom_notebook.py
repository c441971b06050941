"""notebooks/kingdom_maps.ipynb as Voila runs it: a shared link's game, played to the end through the
table, with the analysis panels filling in; and the landing page's links to it."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient
from sheetkit.widgets.landing import GAMES, games_html, more_html

REPO = Path(__file__).resolve().parents[1]
NOTEBOOK = REPO / "notebooks" / "kingdom_maps.ipynb"

PLAY_IT = """
import json
import ipywidgets as W
from sheetkit.games.kingdom_maps import GreedyBot, Announce, Pick, Place, Power, Pass, Bank
from sheetkit.widgets.kingdom_maps.panels import dice_roles
table.simulate_client_ready()
bot = GreedyBot(seed=1)
while not table.state.is_terminal():
    st = table.state
    if not table.confirm_button.disabled:
        table.confirm_button.click()
        continue
    a = bot.act(st, 0)
    if isinstance(a, Announce):
        table.terrain_buttons[a.terrain].click()
        table.die_buttons[st.dice.index(a.die)].click()
    elif isinstance(a, Pick):
        table.click_die(next(k for k, (v, r, _) in enumerate(dice_roles(st, 0)) if v == a.die and not r))
    elif isinstance(a, Place):
        table.click_hex(a.q, a.r)
    elif isinstance(a, Power):
        (table.plus_button if a.delta > 0 else table.minus_button).click()
    elif isinstance(a, Pass):
        table.pass_button.click()
    else:
        table.bank_buttons[a.criterion].click()
from ipywidgets.widgets.widget import _instances
panels = [w for w in list(_instances.values()) if isinstance(w, W.VBox) and "sk-live" in w._dom_classes]
print(json.dumps({
    "code": table.state.game_code(), "players": table.state.players, "over": table.state.is_terminal(),
    "status": table.status_text, "last_error": table.last_error,
    "panels": [[type(c).__name__ for c in p.children] for p in panels],
    "texts": [c.value for p in panels for c in p.children if isinstance(c, W.HTML)],
}))
"""


def run(extra: str, env: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> nbformat.NotebookNode:
    nb = copy.deepcopy(nbformat.read(NOTEBOOK, as_version=4))
    nb.cells.append(nbformat.v4.new_code_cell(extra))
    for k, v in env.items():
        monkeypatch.setenv(k, v)      # the kernel inherits it, as under Voila
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    return nb


def problems(nb: nbformat.NotebookNode) -> list[str]:
    out = []
    for cell in nb.cells:
        for o in cell.get("outputs", []):
            if o.get("output_type") == "error" or o.get("name") == "stderr":
                out.append(str(o.get("evalue") or o.get("text"))[:300])
    return out


@pytest.mark.slow
@pytest.mark.parametrize("query, players", [
    ("code=KM-0000-0005", ["You"]),
    ("code=KM-0000-0005&bots=greedy,random", ["You", "Greedy bot", "Random bot"]),
])
def test_the_notebook_plays_a_shared_link_to_the_end_and_fills_the_analysis(monkeypatch, query, players):
    nb = run(PLAY_IT, {"QUERY_STRING": query}, monkeypatch)
    assert problems(nb) == []
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.get("output_type") == "stream")
    got = json.loads(text.strip().splitlines()[-1])
    assert got["code"] == "KM-0000-0005" and got["players"] == players
    assert got["over"] and got["status"].startswith("Game over") and got["last_error"] is None
    assert len(got["panels"]) == 2, "two live analysis panels follow the table"
    assert "Image" in got["panels"][0], "your criteria beside the bot's: a chart"
    texts = " ".join(got["texts"])
    assert "three-dice roll" in texts and "you drew the lowest" in texts
    assert ("played your very dice alone" in texts) == (len(players) == 1)


def test_the_notebook_is_thin_credits_the_designer_and_plays_from_the_link():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert "KingdomTable.from_query()" in code[0].source
    assert all(len(c.source.splitlines()) <= 12 for c in code), "cells stay thin: the library does the work"
    first = nb.cells[0].source
    assert "Martín Oddino" in first and "RunDOS Studio" in first and "2020" in first
    checked = [c for c in code if "NBVAL_CHECK_OUTPUT" in c.source]
    assert checked and all(c.outputs for c in checked), "checked cells keep their expected output"
    assert all(not c.outputs for c in code if c not in checked), "no stale widget outputs are stored"


def test_the_landing_page_links_kingdom_maps_the_explorer_and_the_lessons():
    page = games_html() + more_html()
    assert "href='kingdom_maps.ipynb'" in page and "href='kingdom_maps.ipynb?bots=greedy'" in page
    assert "Martín Oddino" in page
    assert "href='whatif.ipynb'>What-if explorer" in page
    # Each lesson links to its own dashboard (a folder link showed a file listing, not a lesson).
    assert "href='lessons/avenue_cards.ipynb'" in page and "href='lessons/kingdom_dice.ipynb'" in page
    assert "tree/" not in page
    labels = [label for g in GAMES for label, _ in g.links]
    assert len(labels) == len(set(labels)), "every link label is unique (the browser test clicks them by name)"


def test_every_lesson_notebook_is_linked_from_the_landing_page_and_every_link_is_a_notebook():
    notebooks = REPO / "notebooks"
    lessons = sorted(p.relative_to(notebooks).as_posix() for p in (notebooks / "lessons").glob("*.ipynb"))
    hrefs = re.findall(r"class='sk-more-link' href='([^']+)'", more_html())
    assert lessons and set(lessons) <= set(hrefs)
    assert all((notebooks / h).is_file() for h in hrefs), "every link opens a notebook next to index.ipynb"
