"""The what-if explorer's "Skill share": the old and the new rules' skill shares on the same deals, here or on
a dask cluster, equal to the library's numbers."""

from __future__ import annotations

import numpy as np
import pytest

from sheetkit.analysis.skill import compare_skill, skill_share


@pytest.fixture
def explorer():
    from sheetkit.widgets.whatif import WhatIf

    w = WhatIf(game="kingdom-maps", workers=1, live=False)
    w.skill_budget = 0.1       # the real expert and hindsight search, thinking briefly: a quick test
    yield w
    if w.skill_run is not None:
        w.skill_run.stop()
        w.wait_skill(60)


def test_skill_share_button_shows_both_rule_sets_and_their_paired_difference(explorer):
    w = explorer
    w.set_knobs(powers=False)
    assert w.skill_deals_box.value == 10
    w.skill_deals_box.value = 4
    w.skill_button.click()
    assert w.skill_button.description == "Stop skill share", "a running skill share can be stopped"
    w.wait_skill(300)
    # The table holds the library's numbers for the same deals and rules.
    summary = w.skill_summary
    assert summary is not None and summary["deals"] == 4
    want = compare_skill("kingdom-maps", "standard", w.new_params, 4, budget=0.1, expert_budget=0.1, progress=False)
    for row, s in zip(summary["rows"], (want.old, want.new), strict=True):
        assert row["share_exact"] == (None if s.share is None else str(s.share))
        assert row["expert"] == float(s.mean("expert"))
    assert summary["diff"] == pytest.approx(want.difference().estimate, nan_ok=True)
    text = w.skill_out.value
    assert "standard" in text and "powers" in text
    if not np.isnan(summary["diff"]):
        assert "new − old, same deals (paired)" in text
    assert "skill share" in text and "hindsight" in text
    if summary["stand_in"]:
        assert "Stand-in figures" in text
    assert w.skill_status.value.startswith("Done: 4 of 4 deals")
    assert w.skill_button.description == "Skill share"


def test_pressing_skill_share_again_stops_it_with_the_first_deals(explorer):
    w = explorer
    w.start_skill(n=200)
    w.skill_button.click()       # the same button stops it
    w.wait_skill(300)
    assert w.skill_run is not None and not w.skill_run.running
    assert w.skill_summary is None or w.skill_summary["deals"] < 200


def test_a_bad_cluster_address_is_said_not_raised(explorer):
    w = explorer
    w.cluster_box.value = "tcp://127.0.0.1:1"
    w.start_skill(n=4)
    w.wait_skill(120)
    assert "The skill share failed" in w.skill_status.value


@pytest.mark.slow
def test_on_a_dask_cluster_the_numbers_are_the_same():
    distributed = pytest.importorskip("distributed")
    from sheetkit.widgets.whatif import WhatIf

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as c:
        quick = {"budget": 0.1, "expert_budget": 0.1, "progress": False}
        here = skill_share("kingdom-maps", n=3, seed=2, **quick)
        there = skill_share("kingdom-maps", n=3, seed=2, dask=c.scheduler_address, **quick)
        assert np.array_equal(here.scores, there.scores)
        w = WhatIf(game="kingdom-maps", workers=1, live=False, dask=c.scheduler_address)
        w.skill_budget = 0.1
        w.set_knobs(questions=False)
        w.start_skill(n=3)
        assert "dask cluster" in w.skill_status.value
        w.wait_skill(300)
        assert w.skill_summary is not None and w.skill_summary["deals"] == 3
