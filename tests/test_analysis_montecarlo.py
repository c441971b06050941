"""Monte Carlo what-ifs: same numbers whatever runs them, tidy tables, honest and paired error bars."""

from __future__ import annotations

import csv
import io
import json
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import numpy as np
import pytest

from sheetkit.analysis.montecarlo import (
    Results,
    compare_variants,
    diff_ci,
    mean_ci,
    params_with,
    play_games,
    play_variants,
    resolve_variant,
)
from sheetkit.analysis.simulate import run_games
from sheetkit.games.avenue import PRESETS


def zero_boxes(state: Any, seat: int) -> dict[str, int]:
    """Extra column for the tidy table: how many score boxes were 0."""
    return {"zeros": sum(1 for b in state.boxes[seat] if b == 0), "farm_total": sum(state.boxes[seat])}


@pytest.fixture(scope="module")
def reference() -> Results:
    """Two seats (greedy, random) × two variants, 24 deals, played in this process."""
    return play_variants("avenue", ["standard", "norise"], 24, seed=7, bots=["greedy", "random"], workers=1,
                         progress=False)


# ---------------------------------------------------------------- same numbers whatever runs them
def test_library_and_cli_agree_on_every_game():
    ours = play_games("avenue", 30, seed=3, bots="greedy", players=2, workers=1)  # progress bar on: no effect
    theirs = run_games("avenue", "greedy", 30, seed=3, players=2)
    assert np.array_equal(ours.scores[:, 0, :], theirs.scores)
    gentle = play_games("avenue", 10, variant="gentle", seed=3, workers=1, progress=False)
    assert np.array_equal(gentle.scores[:, 0, :], run_games("avenue", "greedy", 10, seed=3,
                                                            params=PRESETS["gentle"]).scores)


@pytest.mark.parametrize("chunk_size", [1, 5, 24, 100])
def test_chunking_changes_nothing(reference, chunk_size):
    got = play_variants("avenue", ["standard", "norise"], 24, seed=7, bots=["greedy", "random"], workers=1,
                        chunk_size=chunk_size, progress=False)
    assert np.array_equal(got.scores, reference.scores)
    assert got.rows() == reference.rows()


def test_threads_and_processes_give_the_same_table(reference):
    kw = dict(seed=7, bots=["greedy", "random"], progress=False, chunk_size=5)
    with ThreadPoolExecutor(3) as ex:
        threads = play_variants("avenue", ["standard", "norise"], 24, executor=ex, **kw)
    with ProcessPoolExecutor(2) as ex:
        procs = play_variants("avenue", ["standard", "norise"], 24, executor=ex, **kw)
    default_pool = play_variants("avenue", ["standard", "norise"], 24, workers=2, **kw)
    for got in (threads, procs, default_pool):
        assert np.array_equal(got.scores, reference.scores)


def test_a_dask_cluster_gives_the_same_table(reference):
    """Two worker processes (work and results cross process boundaries, as on a real cluster)."""
    import distributed

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        got = play_variants("avenue", ["standard", "norise"], 24, seed=7, bots=["greedy", "random"],
                            executor=client, chunk_size=4, progress=False)
        via_executor = play_variants("avenue", ["standard", "norise"], 24, seed=7, bots=["greedy", "random"],
                                     executor=client.get_executor(), progress=False)
    assert np.array_equal(got.scores, reference.scores)
    assert np.array_equal(via_executor.scores, reference.scores)


# ---------------------------------------------------------------- the tidy table
def test_the_tidy_table_has_one_row_per_deal_variant_and_seat(reference):
    rows = reference.rows()
    assert len(rows) == 24 * 2 * 2
    assert list(rows[0]) == ["variant", "deal", "seed", "seat", "bot", "score"]
    assert {(r["variant"], r["bot"]) for r in rows} == {(v, b) for v in ("standard", "norise")
                                                        for b in ("greedy", "random")}
    # deal k has the same seed under both variants: that is what makes the comparison paired
    seeds = {(r["deal"], r["seed"]) for r in rows}
    assert len(seeds) == 24
    back = list(csv.DictReader(io.StringIO(reference.to_csv())))
    assert [{k: str(v) for k, v in r.items()} for r in rows] == back
    assert json.loads(reference.to_json()) == rows
    doc = json.loads(reference.to_json(meta=True))
    assert doc["meta"]["params"]["norise"]["rising"] is False and doc["meta"]["games"] == 24


def test_files_are_written(tmp_path, reference):
    reference.to_csv(tmp_path / "t.csv")
    reference.to_json(tmp_path / "t.json")
    assert (tmp_path / "t.csv").read_text().startswith("variant,deal,seed,seat,bot,score\n")
    assert len(json.loads((tmp_path / "t.json").read_text())) == 96


def test_measure_adds_columns():
    res = play_variants("avenue", {"standard": "standard", "gentle": "gentle"}, 20, seed=1, workers=1,
                        measure=zero_boxes, progress=False)
    rows = res.rows()
    assert res.columns() == ["variant", "deal", "seed", "seat", "bot", "score", "zeros", "farm_total"]
    std = {r["deal"]: r for r in rows if r["variant"] == "standard"}
    for r in rows:
        if r["variant"] == "gentle":  # the greedy bot ignores the penalty: same sheet, 3 points back per zero
            assert r["score"] - std[r["deal"]]["score"] == 3 * r["zeros"] == 3 * std[r["deal"]]["zeros"]


# ---------------------------------------------------------------- error bars and paired comparisons
def test_normal_and_bootstrap_intervals():
    rng = np.random.default_rng(0)
    x = rng.normal(10, 2, size=400)
    normal, boot = mean_ci(x), mean_ci(x, method="bootstrap", seed=1)
    assert normal.contains(10) and normal.half_width == pytest.approx(1.96 * x.std(ddof=1) / 20, rel=1e-3)
    assert boot.half_width == pytest.approx(normal.half_width, rel=0.15)
    assert mean_ci(x, method="bootstrap", seed=1) == boot  # seeded: the same interval every time
    assert mean_ci(x, level=0.99).half_width > normal.half_width
    with pytest.raises(ValueError):
        mean_ci([1.0])
    with pytest.raises(ValueError):
        mean_ci(x, method="guess")


def test_common_random_numbers_make_a_rule_change_visible_with_few_games():
    cmp = compare_variants("avenue", "standard", "norise", 120, seed=11, workers=1, progress=False)
    paired, unpaired = cmp.difference, cmp.unpaired
    assert paired.estimate == pytest.approx(unpaired.estimate)
    assert paired.half_width < 0.75 * unpaired.half_width
    assert cmp.correlation() > 0.5
    assert paired.low > 0  # dropping the rising rule scores more
    s = cmp.summary()
    assert s["diff"] == pytest.approx(s["mean_b"] - s["mean_a"], abs=2e-3) and s["games"] == 120
    boot = cmp.results.diff_ci("norise", "standard", method="bootstrap")
    assert boot.half_width == pytest.approx(paired.half_width, rel=0.25)


def test_paired_interval_of_identical_variants_is_a_point():
    cmp = compare_variants("avenue", "standard", PRESETS["standard"], 10, workers=1, progress=False)
    assert (cmp.a, cmp.b) == ("a:standard", "b:standard")
    assert cmp.difference.half_width == 0 and cmp.difference.estimate == 0
    assert diff_ci([1, 2, 3], [1, 2, 3], paired=False).half_width > 0


# ---------------------------------------------------------------- stopping early and live updates
@pytest.mark.parametrize("workers", [1, 2])
def test_stopping_early_keeps_the_first_deals(workers):
    full = play_games("avenue", 40, seed=5, workers=1, progress=False)
    stop = threading.Event()
    seen: list[int] = []

    def on_chunk(partial: Results) -> None:
        seen.append(partial.games)
        if partial.games >= 8:
            stop.set()

    part = play_games("avenue", 40, seed=5, workers=workers, chunk_size=4, stop=stop, on_chunk=on_chunk,
                      progress=False)
    assert part.stopped and 8 <= part.games < 40 and part.requested == 40
    assert np.array_equal(part.scores, full.scores[: part.games])
    assert seen == sorted(seen) and seen[-1] == part.games


def test_a_stop_function_before_the_start_plays_nothing():
    res = play_games("avenue", 10, workers=1, stop=lambda: True, progress=False)
    assert res.games == 0 and res.stopped and res.rows() == []


# ---------------------------------------------------------------- variants and mistakes
def test_variants_by_name_json_or_params():
    assert resolve_variant("avenue", None)[0] == "standard"
    assert resolve_variant("avenue", {"penalty": 2}) == ("gentle", PRESETS["gentle"])
    assert params_with("avenue", "standard", {"penalty": 2}) == PRESETS["gentle"]
    label, params = resolve_variant("avenue", PRESETS["standard"].with_changes(penalty=3, rounds=4))
    assert label == "custom" and params.penalty == 3


def test_mistakes_are_reported_before_anything_runs():
    with pytest.raises(KeyError, match="unknown bot"):
        play_games("avenue", 5, bots="clever", workers=1)
    with pytest.raises(KeyError, match="unknown variant"):
        play_games("avenue", 5, variant="hard", workers=1)
    with pytest.raises(ValueError):
        play_games("avenue", 5, bots=["greedy", "random"], players=3, workers=1)
    with pytest.raises(TypeError):
        play_games("avenue", 5, executor=object())
    with pytest.raises(Exception, match="penalty"):
        params_with("avenue", "standard", {"penalty": -1})
