"""Every place a person picks a bot lists the game's BOTS: a bot registered now (as `expert` will be) is offered by
every table's "New game against…" menu, the CLI's --bot, the what-if explorer and class play's opponents and
"the class beside the bots" — with no list to edit. The bot here is tests/slow_bots.py's, registered for the test.
"""

from __future__ import annotations

import json
import threading

import pytest
import slow_bots
from sheetkit.widgets.avenue.table import AvenueTable
from sheetkit.widgets.classroom import Classroom
from sheetkit.widgets.key_harvest.table import KeyHarvestTable
from sheetkit.widgets.kingdom_maps.table import KingdomTable
from sheetkit.widgets.whatif import WhatIf

from sheetkit.analysis.class_review import bot_games
from sheetkit.analysis.results import ClassDeal
from sheetkit.cli import main
from sheetkit.games import avenue, key_harvest, kingdom_maps

GAMES = [(AvenueTable, avenue), (KingdomTable, kingdom_maps), (KeyHarvestTable, key_harvest)]


@pytest.fixture
def fast_slow_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    """"slow" in every game's BOTS, with no delay (the lists matter here, not the waiting)."""
    for _, game in GAMES:
        slow_bots.register(game.BOTS, game.GreedyBot, monkeypatch, delay=0.0)


@pytest.mark.parametrize(("table", "game"), GAMES, ids=[g.__name__.rsplit(".", 1)[-1] for _, g in GAMES])
def test_every_tables_opponent_menu_offers_a_newly_registered_bot(fast_slow_bot, table, game):
    """The menu gains "vs slow bot"; choosing it and pressing New game seats a "Slow bot" that plays."""
    t = table(seed=4)
    options = dict(t.opponents_pick.options)
    assert options.get("vs slow bot") == ("slow",)
    for kind in game.BOTS:                               # and every kind already there
        assert (kind,) in options.values()
    labels = [label for label, _ in t.opponents_pick.options]
    assert labels[0] in ("solo", "people only") and labels.index("vs slow bot") < labels.index("vs 2 bots")
    t.opponents_pick.value = ("slow",)
    t.new_button.click()
    t.new_button.click()
    t.wait_for_bots()
    assert "Slow bot" in t.state.players and t.bot_kinds == ["slow"]


def test_the_menu_of_a_table_without_the_bot_does_not_offer_it():
    """Nothing registered, nothing offered (the test above is not passing by accident)."""
    labels = [label for label, _ in AvenueTable(seed=4).opponents_pick.options]
    assert "vs slow bot" not in labels and "vs montecarlo bot" in labels and "vs random bot" in labels


def test_a_shared_link_may_name_the_new_bot(fast_slow_bot):
    """?bots=slow is understood by the dashboards (they check names against BOTS)."""
    t = KingdomTable.from_query("code=KM-0000-0005&bots=slow")
    t.wait_for_bots()
    assert t.state.players == ["You", "Slow bot"] and "only the bots" not in t.status_text


def test_the_cli_plays_the_new_bot(fast_slow_bot, capsys):
    """python -m sheetkit simulate --bot slow."""
    code = main(["simulate", "--no-progress", "--game", "kingdom-maps", "--bot", "slow", "-n", "2", "--json",
                 "--workers", "1"])
    out, err = capsys.readouterr()
    assert code == 0, err
    line = json.loads(out.strip().splitlines()[0])
    assert line["bot"] == "slow" and line["games"] == 2


def test_the_cli_refuses_an_unknown_bot_naming_the_registered_ones(fast_slow_bot, capsys):
    """The refusal lists the bots there are, the new one among them."""
    code = main(["simulate", "--no-progress", "--bot", "nobody", "-n", "2"])
    _, err = capsys.readouterr()
    assert code != 0 and "slow" in err and "greedy" in err


def test_the_whatif_explorer_offers_the_new_bot(fast_slow_bot):
    """The explorer's bot choice lists BOTS, for every game."""
    w = WhatIf(game="avenue", bot="slow", n=10, live=False)
    assert "slow" in w.bot_box.options and w.bot_box.value == "slow"
    w.game_box.value = "key-harvest"
    assert "slow" in w.bot_box.options


def test_class_play_offers_the_new_bot_and_sets_the_class_beside_it(fast_slow_bot):
    """Class play: "vs slow bot" among the opponents, and the slow bot plays the class's deal beside the class."""
    c = Classroom(game="kingdom-maps", plays=1)
    assert ("slow",) in [kinds for _, kinds in c.opponents_pick.options]
    kinds = {g.kind for g in bot_games(ClassDeal("KM-0000-0005", ()), plays=1)}
    assert "slow" in kinds and kinds >= set(kingdom_maps.BOTS) - {"slow"}


def test_a_bot_registered_later_than_the_table_was_built_is_offered_by_the_next_table(monkeypatch):
    """The menu is read from BOTS when a table is made, not frozen at import."""
    before = [label for label, _ in AvenueTable(seed=1).opponents_pick.options]
    slow_bots.register(avenue.BOTS, avenue.GreedyBot, monkeypatch, gate=threading.Event())
    after = [label for label, _ in AvenueTable(seed=1).opponents_pick.options]
    assert "vs slow bot" not in before and "vs slow bot" in after
