"""Key Harvest in the what-if explorer: its knobs start at the rules, round-trip through the game's params, change
the scores they should, and the explorer and the CLI play old against new rules on the same deals."""

from __future__ import annotations

import json
from dataclasses import fields

import numpy as np
import pytest

from sheetkit.analysis.knobs import describe_changes, example, knob_values, knobs, params_from_knobs
from sheetkit.analysis.montecarlo import play_variants
from sheetkit.analysis.whatif import NEW, OLD, shutdown_pools
from sheetkit.cli import main
from sheetkit.core.errors import RecordError
from sheetkit.core.play import play_out
from sheetkit.games.key_harvest import PRESETS, GreedyBot, KeyHarvestParams, KeyHarvestState

GAME = "key-harvest"


@pytest.fixture(scope="module", autouse=True)
def _pools():
    yield
    shutdown_pools()


def test_every_knob_starts_at_the_rules():
    rules = KeyHarvestParams()
    values = knob_values(GAME, "standard")
    assert values == {"largest_mult": 1, "second_mult": 2, "counters_per_point": 3, "events": True,
                      "start_counters": 3, "store_size": 2, "registry_size": 6, "end_event": 10, "final_turns": 2}
    names = {f.name for f in fields(KeyHarvestParams)}
    for k in knobs(GAME):
        assert k.key in names and values[k.key] == getattr(rules, k.key)
        if k.kind == "int":
            assert k.low <= values[k.key] <= k.high, f"{k.key}: the rules' value is on its slider"


@pytest.mark.parametrize("preset", list(PRESETS))
def test_knobs_round_trip_through_the_games_params(preset):
    values = knob_values(GAME, preset)
    assert params_from_knobs(GAME, preset, values) == PRESETS[preset]
    changed = {**values, "second_mult": 3, "counters_per_point": 4, "events": not values["events"]}
    p = params_from_knobs(GAME, preset, changed)
    assert knob_values(GAME, p) == changed
    assert p.second_mult == 3 and p.counters_per_point == 4


def test_presets_are_named_and_changes_said_in_words():
    assert params_from_knobs(GAME, "standard", {"events": False}) == PRESETS["noevents"]
    assert params_from_knobs(GAME, "standard", {"second_mult": 1}) == PRESETS["flat"]
    assert describe_changes(GAME, "standard", "flat") == ["points per tile, 2nd group 2 → 1"]
    assert describe_changes(GAME, "standard", "noevents") == ["event tiles on → off"]
    assert example(GAME)[0] == {"second_mult": 1}


def test_rules_that_cannot_score_are_refused():
    with pytest.raises(RecordError, match="largest_mult and second_mult"):
        params_from_knobs(GAME, "standard", {"largest_mult": 0, "second_mult": 0})


def test_a_changed_multiplier_changes_the_scores_of_a_seeded_game():
    def play(params: KeyHarvestParams) -> KeyHarvestState:
        state = KeyHarvestState(params, 3, seed=11)
        play_out(state, [GreedyBot(seed=p) for p in range(3)], fast=True)
        return state

    base = play(KeyHarvestParams())
    new = play(params_from_knobs(GAME, "standard", {"second_mult": 4}))
    assert new.scores() != base.scores()
    for p in range(3):  # the knob reached the score: 1 point per tile of the largest group, 4 of the second
        bd = new.breakdown(p)
        assert bd["group_points"] == bd["largest"] + 4 * bd["second"]


def test_a_higher_second_group_multiplier_raises_scores_on_the_same_deals():
    res = play_variants(GAME, {OLD: "standard", NEW: params_from_knobs(GAME, "standard", {"second_mult": 4})}, 20,
                        bots="greedy", players=2, workers=1, progress=False)
    assert res.diff(NEW, OLD).mean() > 0


@pytest.fixture
def explorer():
    from sheetkit.widgets.whatif import WhatIf

    w = WhatIf(game=GAME, bot="greedy", workers=1, live=False)
    yield w
    if w.run is not None:
        w.run.stop()
        w.wait(30)


def test_the_explorer_offers_key_harvest_at_the_rules(explorer):
    assert (GAME in [v for _, v in explorer.game_box.options]) and explorer.game_box.value == GAME
    assert set(explorer.knob_widgets) == {k.key for k in knobs(GAME)}
    assert {k: w.value for k, w in explorer.knob_widgets.items()} == knob_values(GAME, "standard")
    assert explorer.players_box.value >= 2, "Key Harvest needs two players at least"
    assert "new rules = old rules" in explorer.changes.value
    assert "Richard Breese" in explorer.credit.value


def test_the_explorer_plays_old_against_new_on_the_same_deals(explorer):
    explorer.players_box.value = 3
    summary = explorer.try_rules(n=12, events=False, counters_per_point=2)
    assert "event tiles on → off" in explorer.changes.value and "counters per point 3 → 2" in explorer.changes.value
    ref = play_variants(GAME, {OLD: "standard", NEW: {"events": False, "counters_per_point": 2}}, 12,
                        bots="greedy", players=3, workers=1, progress=False)
    assert np.array_equal(explorer.results.scores, ref.scores)
    assert summary["games"] == 12


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_shows_real_knob_values(explorer, preset):
    explorer.base_box.value = preset
    assert explorer._read_knobs() == knob_values(GAME, preset)
    assert explorer.new_params == PRESETS[preset] and "new rules = old rules" in explorer.changes.value


def test_the_cli_compares_key_harvest_rules(capsys):
    code = main(["simulate", "--no-progress", "--game", GAME, "--players", "2", "-n", "10", "--set", "second_mult=1",
                 "--compare", "--json"])
    out, _ = capsys.readouterr()
    assert code == 0
    old, new, cmp = (json.loads(line) for line in out.strip().splitlines())
    assert old["game"] == GAME and new["variant"] == "standard second_mult=1"
    ref = play_variants(GAME, {"a": "standard", "b": {"second_mult": 1}}, 10, bots="greedy", players=2, workers=1,
                        progress=False)
    assert cmp["diff"] == pytest.approx(ref.diff("b", "a").mean(), abs=1e-3) and cmp["diff"] < 0


def page_words(w) -> str:
    """Every word the explorer shows: its texts, the knobs' labels and tips, the dropdowns' choices."""
    import html as H
    import re

    texts = [w.credit.value, w.changes.value, w.status.value, w.question.value, w.guide.value, w.table.value]
    for k in w.knob_widgets.values():
        texts += [k.description, k.tooltip or "", *(str(o[0] if isinstance(o, tuple) else o)
                                                  for o in getattr(k, "options", ()))]
    texts += [str(o) for o in w.base_box.options]
    return H.unescape(re.sub(r"<[^>]+>", " ", " ".join(texts))).lower()


def test_the_key_harvest_page_asks_and_explains_in_key_harvest_words():
    """whatif.ipynb?game=key-harvest: the first question is Key Harvest's (answered on its own deals), and
    nothing on the page speaks of Avenue's 0 boxes, penalties or yellow cards (issue 15 §5)."""
    from sheetkit.widgets.whatif import WhatIf

    w = WhatIf.from_query("game=key-harvest")
    assert w.players_box.value == 3
    assert "what if the second largest group scored 1 point per tile instead of 2?" in w.question.value
    summary = w.example()
    assert "Answered below:" in w.question.value and "(100 deals, played in this kernel)" in w.question.value
    assert summary["games"] == 100 and summary["diff"] < 0
    assert "points per tile, 2nd group 2 → 1" in w.table.value
    ref = play_variants(GAME, {OLD: "standard", NEW: {"second_mult": 1}}, 100, bots="greedy", players=3, workers=1,
                        progress=False)
    assert np.array_equal(w.results.scores, ref.scores)
    text = page_words(w)
    for word in ("0 box", "penalty", "penalties", "yellow", "farm", "road", "rising", "dice", "terrain"):
        assert word not in text, word
    assert "reading the answer" in text and "the same field tiles and events drawn from the bag" in text
    assert "python -m sheetkit simulate --game key-harvest --players 3 -n 100 --set second_mult=1 --compare" in text
    w.game_box.value = "avenue"          # another game chosen on the page: its own words, not Key Harvest's
    assert "0 box cost 3 points instead of 5" in w.question.value and "A first question" in w.question.value
    assert "bag" not in page_words(w) and "penalty" in page_words(w)
