"""The what-if explorer without a browser: knobs → params, the background run, and the dashboard's
buttons and sliders (results table, Stop, errors, switching games)."""

from __future__ import annotations

import time
from pathlib import Path

import nbformat
import numpy as np
import pytest

from sheetkit.analysis.knobs import (
    describe_changes,
    example,
    knob_values,
    knobs,
    params_from_knobs,
    simulate_command,
)
from sheetkit.analysis.montecarlo import params_with, play_variants
from sheetkit.analysis.whatif import NEW, OLD, WhatIfRun, chunk_for, guide, shutdown_pools, whatif_table
from sheetkit.core.errors import RecordError
from sheetkit.games.avenue import PRESETS as AV
from sheetkit.games.avenue.cards import DEFAULT_DECK
from sheetkit.games.avenue.whatif import avenue_deck
from sheetkit.games.kingdom_maps import PRESETS as KM

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "whatif.ipynb"


@pytest.fixture(scope="module", autouse=True)
def _pools():
    yield
    shutdown_pools()


# ------------------------------------------------------------------------------------------ knobs
def test_the_published_deck_comes_back_from_its_counts():
    assert avenue_deck() == DEFAULT_DECK
    deck = avenue_deck(yellow=30, straights=10)
    assert sum(y + g for y, g in deck) == 42 and sum(y for y, _ in deck) == 30
    assert sum(y + g for y, g in deck[4:]) == 10
    assert all(abs(y - 30 * (y + g) / 42) < 1 for y, g in deck)      # yellow in proportion to each road


def test_knob_values_read_the_presets():
    v = knob_values("avenue", "standard")
    assert v == {"penalty": 5, "rounds": 5, "yellows_per_round": 4, "rising": True, "yellow_cards": 22,
                 "straights": 14}
    assert knob_values("avenue", "norise")["rising"] is False
    km = knob_values("kingdom-maps", "family")
    assert km["criteria"] == KM["family"].criteria and km["uses"] is None and km["powers"] is True
    kinds = {k.key: k.kind for k in knobs("kingdom-maps")}
    assert kinds == {"uses": "choice", "powers": "bool", "questions": "bool", "criteria": "choice"}


def test_params_from_knobs_change_only_what_moved():
    assert params_from_knobs("avenue", "standard", knob_values("avenue", "standard")) == AV["standard"]
    assert params_from_knobs("avenue", "standard", {"rising": False}) == AV["norise"]
    p = params_from_knobs("avenue", "standard", {"penalty": 3, "yellow_cards": 18})
    assert p.penalty == 3 and sum(y for y, _ in p.deck) == 18 and p.rising
    # a custom deck is kept while its knobs stay where they were
    odd = params_with("avenue", "standard", {"deck.1": [7, 0]})
    kept = params_from_knobs("avenue", odd, {**knob_values("avenue", odd), "penalty": 2})
    assert kept.deck == odd.deck and kept.penalty == 2
    assert params_from_knobs("kingdom-maps", "standard", {"powers": False}) == KM["nopowers"]
    assert params_from_knobs("kingdom-maps", "standard", {"criteria": KM["grand"].criteria}) == KM["grand"]


def test_impossible_rules_are_refused_by_the_game():
    with pytest.raises(RecordError, match="yellows_per_round"):
        params_from_knobs("avenue", "standard", {"yellow_cards": 4, "yellows_per_round": 8})
    with pytest.raises(KeyError, match="unknown knob"):
        params_from_knobs("avenue", "standard", {"colour": "red"})


def test_changes_in_words():
    assert describe_changes("avenue", "standard", "norise") == ["rising rule on → off"]
    assert describe_changes("avenue", "standard", "standard") == []
    assert describe_changes("kingdom-maps", "standard", "family") == ["criteria in play rolled each game → family"]


# --------------------------------------------------------------------------------- the runner
def test_a_run_equals_play_variants_and_reports_batches():
    seen: list[int] = []
    done: list[object] = []
    run = WhatIfRun("avenue", "standard", {"penalty": 3}, 30, seed=4, chunk_size=7,
                    on_update=lambda r: seen.append(r.games), on_done=lambda r, e: done.append((r, e)))
    run.start()
    assert run.wait(60) and not run.running
    res = run.results
    ref = play_variants("avenue", {OLD: "standard", NEW: {"penalty": 3}}, 30, seed=4, workers=1, progress=False)
    assert np.array_equal(res.scores, ref.scores)
    assert seen == [7, 14, 21, 28, 30]
    assert done == [(res, None)]
    table = whatif_table(res)
    assert [r["rules"] for r in table["rows"]] == [OLD, NEW]
    assert table["diff"] == pytest.approx(ref.diff(NEW, OLD).mean())
    assert table["diff_low"] < table["diff"] < table["diff_high"] and table["shows"]


def test_a_failing_run_reports_its_error_instead_of_dying_on_its_thread():
    got = []
    run = WhatIfRun("avenue", "standard", "norise", 10, bots="nosuch", on_done=lambda r, e: got.append(e))
    run.start()
    assert run.wait(30)
    assert isinstance(run.error, KeyError) and got == [run.error]


def test_batches_are_sized_by_cost():
    assert chunk_for("avenue", ["greedy"], 2, 1000) == 50       # cheap games: 20 updates over the run
    assert chunk_for("avenue", ["greedy"], 2, 100_000) == 64     # never more than 64 deals a batch
    assert chunk_for("kingdom-maps", ["greedy"], 2, 100) == 5    # 20 updates (~0.06 s of work a batch)
    assert chunk_for("kingdom-maps", ["greedy"], 2, 10_000) == 27  # ~0.25 s of work a batch
    assert chunk_for("avenue", ["montecarlo"], 2, 100) == 1
    assert chunk_for("avenue", ["random"], 2, 60) == 3      # at least ~20 updates


# ------------------------------------------------------------------------------- the dashboard
@pytest.fixture
def explorer():
    from sheetkit.widgets.whatif import WhatIf

    w = WhatIf(game="avenue", bot="greedy", workers=1, live=False)   # Run by hand; live runs have their own test
    yield w
    if w.run is not None:
        w.run.stop()
        w.wait(30)


def test_the_explorer_starts_with_old_equal_new_and_says_what_a_run_costs(explorer):
    assert set(explorer.knob_widgets) == {k.key for k in knobs("avenue")}
    assert explorer.knob_widgets["penalty"].value == 5 and explorer.knob_widgets["rising"].value is True
    assert "new rules = old rules" in explorer.changes.value
    assert explorer.status.value.startswith("Press Run: 1,000 deals")
    assert "Eilif Svensson" in explorer.credit.value and "Aporta Games" in explorer.credit.value


def test_slider_then_run_fills_the_table_with_the_library_numbers(explorer):
    explorer.knob_widgets["penalty"].value = 3
    explorer.knob_widgets["rising"].value = False
    assert "penalty per 0 box 5 → 3" in explorer.changes.value and "rising rule on → off" in explorer.changes.value
    explorer.games_box.value = 50
    explorer.seed_box.value = 2
    explorer.run_button.click()
    assert explorer.wait(120)
    res = explorer.results
    ref = play_variants("avenue", {OLD: "standard", NEW: {"penalty": 3, "rising": False}}, 50, seed=2, workers=1,
                        progress=False)
    assert np.array_equal(res.scores, ref.scores) and not res.stopped
    s = explorer.summary
    assert s["rows"][0]["mean"] == pytest.approx(ref.mean(OLD)) and s["rows"][1]["mean"] == pytest.approx(ref.mean(NEW))
    html = explorer.table.value
    assert "data-rules='old rules'" in html and "data-rules='difference'" in html and "as if independent" in html
    assert f"{ref.diff(NEW, OLD).mean():+.2f}" in html
    assert explorer.plot.value[:4] == b"\x89PNG"
    assert explorer.progress.value == explorer.progress.max == 50
    assert explorer.status.value.startswith("Done: 50 deals")
    assert not explorer.run_button.disabled and explorer.stop_button.disabled


def test_stop_ends_a_long_run_with_the_first_deals(explorer):
    explorer.knob_widgets["penalty"].value = 2
    explorer.games_box.value = 10000
    explorer.run_button.click()
    assert explorer.run.running and not explorer.stop_button.disabled and explorer.run_button.disabled
    t0 = time.perf_counter()
    while (explorer.results is None or explorer.results.games < 20) and time.perf_counter() - t0 < 60:
        time.sleep(0.02)
    explorer.stop_button.click()
    assert explorer.wait(30), "the run stops within a batch"
    res = explorer.results
    assert res.stopped and 20 <= res.games < 10000
    ref = play_variants("avenue", {OLD: "standard", NEW: {"penalty": 2}}, res.games, seed=0, workers=1,
                        progress=False)
    assert np.array_equal(res.scores, ref.scores), "a stopped run holds exactly the first deals"
    assert explorer.status.value.startswith(f"Stopped after {res.games:,} of 10,000 deals")
    assert explorer.progress.value == res.games
    assert not explorer.run_button.disabled and explorer.stop_button.disabled


def test_rules_that_cannot_be_played_disable_run_and_say_why(explorer):
    explorer.knob_widgets["yellow_cards"].value = 4
    explorer.knob_widgets["yellows_per_round"].value = 8
    assert explorer.run_button.disabled
    assert "cannot be played" in explorer.changes.value and "yellows_per_round" in explorer.changes.value
    explorer.start()
    assert explorer.run is None and "sk-error" in explorer.status.value
    explorer.reset_button.click()
    assert not explorer.run_button.disabled and explorer.knob_widgets["yellow_cards"].value == 22


def test_old_rules_dropdown_resets_the_knobs(explorer):
    explorer.base_box.value = "short"
    assert explorer.knob_widgets["rounds"].value == 3
    explorer.knob_widgets["rounds"].value = 5
    assert "rounds 3 → 5" in explorer.changes.value and "“standard” preset" in explorer.changes.value


def test_switching_to_kingdom_maps_rebuilds_the_knobs_and_runs(explorer):
    explorer.game_box.value = "kingdom-maps"
    assert set(explorer.knob_widgets) == {"uses", "powers", "questions", "criteria"}
    assert "Martín Oddino" in explorer.credit.value
    assert explorer.games_box.value == 1000   # the greedy bot is fast enough for 1,000 deals in ~6 s
    explorer.bot_box.value = "random"
    explorer.players_box.value = 2
    explorer.knob_widgets["uses"].value = 2
    explorer.knob_widgets["questions"].value = False
    summary = explorer.try_rules(n=50)
    ref = play_variants("kingdom-maps", {OLD: "standard", NEW: {"uses": 2, "questions": False}}, 50,
                        bots="random", players=2, workers=1, progress=False)
    assert np.array_equal(explorer.results.scores, ref.scores)
    assert summary["diff"] < 0, "fewer uses and no ? hexes: lower scores"


@pytest.mark.parametrize("game", ["avenue", "kingdom-maps"])
def test_every_knob_of_every_preset_starts_at_a_real_value_not_a_blank_box(explorer, game):
    from sheetkit.core.registry import get_game

    explorer.game_box.value = game
    for preset in get_game(game).presets:
        explorer.base_box.value = preset
        for key, want in knob_values(game, preset).items():
            w = explorer.knob_widgets[key]
            if hasattr(w, "index"):   # a dropdown: one of its entries is selected, and it is the variant's
                assert w.index is not None and w.label, f"{game} {preset}: {key} shows a blank box"
                assert explorer._read_knobs()[key] == want
        assert explorer.new_params is not None
        assert "new rules = old rules" in explorer.changes.value


def test_kingdom_maps_dropdowns_name_the_rule_and_changing_them_changes_the_rules(explorer):
    explorer.game_box.value = "kingdom-maps"
    assert explorer.knob_widgets["uses"].label.startswith("by player count")
    assert explorer.knob_widgets["criteria"].label.startswith("rolled each game")
    explorer.knob_widgets["criteria"].label = "all 12"
    assert "criteria in play rolled each game → all 12" in explorer.changes.value
    explorer.knob_widgets["criteria"].index = 0
    assert "new rules = old rules" in explorer.changes.value


def test_a_run_with_no_rule_changed_says_so_instead_of_playing(explorer):
    explorer.try_rules(n=20, penalty=3)            # an Avenue run first: live mode then reruns on any change
    done = explorer.run
    explorer.live_box.value = True
    explorer.game_box.value = "kingdom-maps"       # the issue: this played standard against standard
    assert explorer.run is done, "switching games with no rule changed starts no run"
    explorer.results = None
    explorer.table.value, explorer.plot.value = "", b""
    explorer.run_button.click()
    assert explorer.run is done and explorer.results is None, "no games are played"
    assert "New rules = old rules: nothing to compare" in explorer.status.value
    assert explorer.table.value == "" and explorer.plot.value == b""


def test_live_a_rule_change_reruns_and_a_change_during_a_run_restarts_it():
    """A designer moves a knob and the dashboard plays the new rules at once; moving another knob
    mid-run stops that run and plays the newest rules instead (no Run press, no stale table)."""
    from sheetkit.widgets.whatif import WhatIf

    w = WhatIf(game="avenue", bot="greedy", workers=1)
    try:
        assert w.live_box.value and w.run is None          # opening the page starts nothing by itself
        w.set_deals(10000)
        w.knob_widgets["penalty"].value = 3
        first = w.run
        assert first is not None and first.running, "a rule change starts a run"
        t0 = time.perf_counter()
        while (w.results is None or w.results.games < 10) and time.perf_counter() - t0 < 60:
            time.sleep(0.02)
        w.knob_widgets["rising"].value = False
        assert first.wait(30) and first.stopping, "the run of the old knobs stops"
        t0 = time.perf_counter()
        while (w.run is first or w.results is None or w.results.games < 10) and time.perf_counter() - t0 < 60:
            time.sleep(0.02)
        second = w.run
        assert second is not first and "rising rule on → off" in w._new_name and "penalty" in w._new_name
        w.stop()
        assert w.wait(30)
        res = w.results
        ref = play_variants("avenue", {OLD: "standard", NEW: {"penalty": 3, "rising": False}}, res.games, seed=0,
                            workers=1, progress=False)
        assert np.array_equal(res.scores, ref.scores), "the table holds the newest rules' deals"
    finally:
        if w.run is not None:
            w.run.stop()
            w.wait(30)


def test_any_number_of_deals_is_played_exactly(explorer):
    summary = explorer.try_rules(n=37, penalty=4)
    assert summary["games"] == 37 and explorer.games_box.value == 37


def test_two_worker_processes_give_the_same_table(explorer):
    summary = explorer.try_rules(n=100, workers=2, penalty=4)
    ref = play_variants("avenue", {OLD: "standard", NEW: {"penalty": 4}}, 100, workers=1, progress=False)
    assert np.array_equal(explorer.results.scores, ref.scores)
    assert summary["games"] == 100


def test_a_link_chooses_the_game_and_bad_parts_are_said():
    from sheetkit.widgets.whatif import WhatIf

    w = WhatIf.from_query("game=kingdom-maps&bot=random&deals=200&seed=3")
    assert (w.game_box.value, w.bot_box.value, w.games_box.value, w.seed_box.value) == \
        ("kingdom-maps", "random", 200, 3)
    bad = WhatIf.from_query("game=chess&deals=many")
    assert bad.game_box.value == "avenue" and "unknown game &#x27;chess&#x27;" in bad.status.value
    assert "deals must be a whole number" in bad.status.value


# Words only one game's page may speak (a what-if page of another game must not).
OWN_WORDS = {
    "avenue": ("0 box", "penalty", "yellow", "road", "farm", "rising", "grape"),
    "kingdom-maps": ("dice", "+1/-1", "? hex", "criteri", "terrain"),
    "key-harvest": ("counter", "tile", "bag", "event", "group"),
}


def guide_text(game: str) -> str:
    g = guide(game)
    return " ".join([g.question, *g.reading, *(t.question + " " + t.answer for t in g.tries), g.command])


@pytest.mark.parametrize("game", list(OWN_WORDS))
def test_every_game_page_speaks_of_its_own_game_only(game):
    """The first question, 'Reading the answer', the questions to try and the terminal line come from the
    chosen game: none of another game's words, and the question is asked with the game's own knobs."""
    text = guide_text(game).lower()
    for other, words in OWN_WORDS.items():
        if other != game:
            assert not [w for w in words if w in text], other
    assert any(w in text for w in OWN_WORDS[game])
    changes, deals = example(game)
    assert changes and set(changes) <= {k.key for k in knobs(game)} and deals >= 20
    assert guide(game).question.startswith("what if") and f"--game {game}" in guide(game).command


@pytest.mark.parametrize("game", list(OWN_WORDS))
def test_the_first_question_from_a_terminal_plays_the_same_rules(game):
    """The command the page shows sets exactly the rules its first question plays."""
    from sheetkit.cli import parse_sets

    command = simulate_command(game).split()
    sets = [command[i + 1] for i, word in enumerate(command) if word == "--set"]
    assert params_with(game, "standard", parse_sets(sets)) == params_from_knobs(game, "standard", example(game)[0])


def test_the_notebook_is_thin_and_speaks_of_no_game_in_particular():
    """The notebook's own words fit every game; the chosen game's credit, question and notes are the widget's."""
    from sheetkit.widgets.whatif import WhatIf

    nb = nbformat.read(NOTEBOOK, as_version=4)
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    assert all(len(src.splitlines()) <= 6 for src in code)
    assert "WhatIf.from_query()" in code[0] and "explorer.example()" in code[-1]
    text = " ".join(c.source for c in nb.cells if c.cell_type == "markdown").lower()
    assert not [w for words in OWN_WORDS.values() for w in words if w in text]
    w = WhatIf(game="kingdom-maps", workers=1, live=False)
    assert "Martín Oddino" in w.credit.value and "RunDOS Studio" in w.credit.value
    w.game_box.value = "avenue"
    assert "Eilif Svensson" in w.credit.value and "Aporta Games" in w.credit.value
    assert "<details>" in w.guide.value and "rising rule" in w.guide.value


def test_ask_it_puts_the_first_question_to_the_old_rules(explorer):
    """Ask it sets the new rules to the game's first question alone (other knobs back to the old rules) and runs
    it; the question line then says it was answered, and a run of other rules brings the question back."""
    explorer.knob_widgets["rising"].value = False
    explorer.ask_button.click()
    explorer.wait(60)
    assert explorer.changes.value == "new rules: penalty per 0 box 5 → 3"
    assert "Answered below:" in explorer.question.value
    assert "0 box cost 3 points instead of 5" in explorer.question.value
    assert explorer.summary["games"] == 200 and explorer.summary["diff"] > 0
    explorer.try_rules(n=20, rising=False)
    assert "A first question" in explorer.question.value
