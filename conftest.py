"""Repository-wide pytest setup: nbval runs every notebook on a fixed deal.

The game notebooks read their deal from Voila's QUERY_STRING (a link's ``?code=…&bots=…``); with
none they deal a fresh random game, so nbval would run a different game every time. Each kernel
inherits the environment of this process when it starts, so the query is set just before the
first cell of each notebook runs.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# What a dashboard link would say for each notebook under nbval (notebooks not listed get none).
NOTEBOOK_QUERIES = {
    "avenue.ipynb": "code=AV-0000-001A&bots=greedy",
    "kingdom_maps.ipynb": "code=KM-0000-0005",
    "key_harvest.ipynb": "code=KH-0000-0001&bots=greedy,greedy",
    "whatif.ipynb": "deals=200&seed=1",
    "classroom.ipynb": "game=avenue&code=AV-0000-001A&bots=none",
}


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    if type(item).__name__ != "IPyNbCell":
        return
    query = NOTEBOOK_QUERIES.get(Path(str(item.fspath)).name)
    if query is None:
        os.environ.pop("QUERY_STRING", None)
    else:
        os.environ["QUERY_STRING"] = query


def pytest_sessionfinish(session: pytest.Session) -> None:
    os.environ.pop("QUERY_STRING", None)
