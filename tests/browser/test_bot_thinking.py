"""A slow bot in Voila: the page never freezes while it thinks (issue 16, part 1).

A notebook made for the test registers tests/slow_bots.py's bot (greedy, 4 s a move, ``slow = True`` as the
expert bots declare) and shows an Avenue table against it. After your road the status line says "Slow bot is
thinking…" and your road is on the sheet; a second road is refused at once (the kernel answers while the bot
thinks), and the bot's move arrives by itself, applied on the kernel's thread, with no click. By mouse at
1280 px and by touch on a phone (390 px).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from avenue_driver import NEXT, AvenueDriver
from voila_harness import REPO, assert_no_traceback

pytestmark = pytest.mark.browser

DELAY = 4.0
THINKING = re.compile(r"Slow bot is thinking…")
REFUSED = re.compile(r"Not yet: wait for the bot's move\. Slow bot is thinking…")
CELLS = [
    "import sys\n"
    f"sys.path.insert(0, {str(REPO / 'tests')!r})\n"
    "import slow_bots\n"
    "from sheetkit.games import avenue\n"
    f"_ = slow_bots.register(avenue.BOTS, avenue.GreedyBot, delay={DELAY})",
    "from sheetkit.widgets import AvenueTable\n"
    "AvenueTable.from_query(default_bots=('slow',))",
]


@pytest.fixture(scope="module")
def slow_server(voila_factory: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Voila serving a folder with one notebook: the Avenue table against the slow bot."""
    folder = tmp_path_factory.mktemp("slowbot")
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": c}
                    for c in CELLS],
          "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
          "nbformat": 4, "nbformat_minor": 5}
    (folder / "slow_avenue.ipynb").write_text(json.dumps(nb))
    return voila_factory(Path(folder))


def _play_against_the_slow_bot(server: Any, page_fixture: Any, touch: bool, shot: Path) -> None:
    p = page_fixture.page
    d = AvenueDriver(code="AV-0000-001A", touch=touch)
    p.goto(server.url("slow_avenue.ipynb", d.query), timeout=180_000)
    d.wait_ready(p)
    legal = d.wait_my_turn(p)
    assert len(legal) >= 2
    first, second = legal[0], legal[-1]
    before = d.status(p)
    d.click_cell(p, *first)
    clicked = time.monotonic()
    d.wait_status(p, THINKING, previous=before, timeout=15_000)
    assert d.road_cells(p) == {first}, "your road shows while the bot thinks"

    # The kernel is not blocked: a second road is refused at once, long before the bot's 4 s are up.
    thinking = d.status(p)
    d.click_cell(p, *second)
    d.wait_status(p, REFUSED, previous=thinking, timeout=15_000)
    refused_after = time.monotonic() - clicked
    assert refused_after < DELAY - 0.5, f"the refusal took {refused_after:.1f} s: the kernel waited for the bot"
    assert THINKING.search(d.status(p))
    assert d.road_cells(p) == {first}, "a click while the bot thinks draws nothing"
    p.screenshot(path=str(shot))

    # The bot's move comes by itself: the table asks for Next card, its log names the bot's road.
    d.wait_status(p, NEXT, timeout=30_000)
    assert time.monotonic() - clicked >= DELAY - 0.5
    assert "thinking" not in d.status(p)
    assert "Slow bot" in p.locator(".sk-log").inner_text()
    assert d.road_cells(p) == {first}
    d.press_next(p)
    assert d.wait_my_turn(p)
    assert_no_traceback(p)
    assert not [e for e in page_fixture.errors if "pageerror" in e], page_fixture.errors


def test_a_slow_bot_thinks_while_the_page_stays_live_by_mouse(slow_server: Any, page: Any, artifacts: Path) -> None:
    _play_against_the_slow_bot(slow_server, page, touch=False, shot=artifacts / "bot-thinking-1280.png")


@pytest.mark.parametrize("size", [(390, 844)])
def test_a_slow_bot_thinks_while_the_page_stays_live_by_touch(slow_server: Any, touch_page: Any, size: Any,
                                                             artifacts: Path) -> None:
    _play_against_the_slow_bot(slow_server, touch_page, touch=True, shot=artifacts / "bot-thinking-390.png")
