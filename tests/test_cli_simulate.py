"""`python -m sheetkit simulate` with rule changes, several bots, comparisons on common random numbers and
the per-game table; `replay` as text for every game. (tests/test_cli.py covers the original commands.)"""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sheetkit.analysis.montecarlo import params_with, play_games, play_variants
from sheetkit.analysis.simulate import run_games
from sheetkit.cli import main, parse_sets, parse_value
from sheetkit.core.play import play_out
from sheetkit.core.records import save_record

REPO = Path(__file__).resolve().parents[1]
SIM = ["simulate", "--no-progress"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main([*SIM, *argv] if argv and argv[0] != "replay" else list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def json_lines(out: str) -> list[dict]:
    return [json.loads(line) for line in out.strip().splitlines()]


# ------------------------------------------------------------------------------------- values
@pytest.mark.parametrize(("text", "value"), [
    ("3", 3), ("false", False), ("False", False), ("no", False), ("on", True), ("[4, 3]", [4, 3]),
    ("A1,B2", ["A1", "B2"]), ("default", None), ("null", None), ("standard", "standard"),
    ('"x"', "x"), ("2.5", 2.5),
])
def test_set_values_read_as_json_words_or_lists(text, value):
    assert parse_value(text) == value


def test_set_pairs_and_their_errors():
    assert parse_sets(["penalty=3", "rising=false", "penalty=4"]) == {"penalty": 4, "rising": False}
    assert parse_sets(["deck.5=[4,3]"]) == {"deck.5": [4, 3]}
    for bad in ("penalty", "=3", "penalty="):
        with pytest.raises(Exception, match="KEY=VALUE"):
            parse_sets([bad])


# ------------------------------------------------------------------------- the classic summary line
def test_json_is_still_one_line_with_the_classic_fields(capsys):
    code, out, err = run(capsys, "-n", "40", "--seed", "3", "--json")
    assert code == 0 and err == ""
    (line,) = json_lines(out)
    for key in ("game", "bot", "games", "mean", "stdev", "min", "max", "seconds"):
        assert key in line
    ref = run_games("avenue", "greedy", 40, seed=3).summary()
    for key in ("game", "bot", "games", "players", "seed", "mean", "stdev", "min", "max"):
        assert line[key] == ref[key], key
    assert line["variant"] == "standard"
    assert line["ci_low"] < line["mean"] < line["ci_high"] and line["level"] == 0.95


def test_text_output_keeps_its_first_two_lines(capsys):
    code, out, _ = run(capsys, "-n", "20", "--variant", "gentle", "--bot", "random")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Avenue, gentle rules, bot random, 20 games × 1 player(s), seed 0"
    assert lines[1].startswith("  mean ") and "stdev" in lines[1] and "games/s" in lines[1]
    assert "CI of the mean" in lines[2]


# --------------------------------------------------------------------------- rule changes
def test_set_changes_the_rules_and_plays_the_same_deals(capsys):
    code, out, _ = run(capsys, "-n", "30", "--set", "penalty=3", "--set", "rising=false", "--json")
    assert code == 0
    (line,) = json_lines(out)
    assert line["variant"] == "standard penalty=3 rising=false"
    want = play_games("avenue", 30, variant=params_with("avenue", "standard", {"penalty": 3, "rising": False}),
                      workers=1, progress=False)
    assert line["mean"] == round(want.mean(), 3)


def test_compare_prints_both_rules_and_the_paired_difference(capsys):
    code, out, _ = run(capsys, "-n", "40", "--set", "penalty=3", "--compare", "--json")
    assert code == 0
    old, new, cmp = json_lines(out)
    assert old["variant"] == "standard" and new["variant"] == "standard penalty=3"
    assert cmp["a"] == "standard" and cmp["b"] == "standard penalty=3" and cmp["games"] == 40
    assert cmp["diff"] == pytest.approx(new["mean"] - old["mean"], abs=2e-3)
    assert cmp["ci_low"] <= cmp["diff"] <= cmp["ci_high"]
    # a pure scoring change on the same deals: scores move together, the paired CI is far narrower
    assert cmp["correlation"] > 0.9
    assert cmp["ci_high"] - cmp["ci_low"] < (cmp["unpaired_high"] - cmp["unpaired_low"]) / 2
    ref = play_variants("avenue", {"a": "standard", "b": {"penalty": 3}}, 40, workers=1, progress=False)
    assert cmp["diff"] == pytest.approx(ref.diff("b", "a").mean(), abs=1e-3)


def test_compare_with_a_named_variant_and_text_output(capsys):
    code, out, _ = run(capsys, "-n", "30", "--variant", "norise", "--compare", "standard")
    assert code == 0
    assert "Avenue, standard rules" in out and "Avenue, norise rules" in out
    assert "norise − standard" in out and "paired" in out and "correlation" in out
    assert "the difference shows" in out        # no rising rule: far higher scores, even on 30 deals


def test_several_bots_one_per_seat(capsys):
    code, out, _ = run(capsys, "-n", "25", "--bots", "greedy,random", "--json")
    assert code == 0
    (line,) = json_lines(out)
    assert line["players"] == 2 and line["bot"] == "greedy,random"
    seats = line["seats"]
    assert [s["bot"] for s in seats] == ["greedy", "random"]
    ref = play_games("avenue", 25, bots=["greedy", "random"], workers=1, progress=False)
    assert seats[0]["mean"] == round(ref.mean(seat=0), 3) and seats[1]["mean"] == round(ref.mean(seat=1), 3)
    assert seats[0]["mean"] > seats[1]["mean"]


def test_kingdom_maps_rule_changes(capsys):
    code, out, _ = run(capsys, "--game", "kingdom-maps", "-n", "4", "--bot", "random",
                       "--set", "criteria=A1,A2,B1,B2", "--set", "uses=2", "--json")
    assert code == 0
    (line,) = json_lines(out)
    assert line["game"] == "kingdom-maps" and line["variant"] == "standard criteria=A1,A2,B1,B2 uses=2"


# ---------------------------------------------------------------------------- the per-game table
def test_out_csv_has_one_row_per_game_and_player_with_breakdowns(capsys, tmp_path):
    path = tmp_path / "games.csv"
    code, out, _ = run(capsys, "-n", "12", "--bots", "greedy,random", "--set", "penalty=2", "--compare",
                       "--out", str(path))
    assert code == 0 and f"wrote {12 * 2 * 2} rows" in out
    rows = list(csv.DictReader(io.StringIO(path.read_text())))
    assert len(rows) == 12 * 2 * 2
    header = list(rows[0])
    assert header[:6] == ["game", "variant", "seed", "player", "bot", "score"]
    for col in ("box1", "box5", "castle_purple", "castle_green", "zeros", "penalty", "farms"):
        assert col in header
    for r in rows:
        boxes = sum(int(r[f"box{k}"]) for k in range(1, 6))
        assert int(r["score"]) == boxes + int(r["castle_purple"]) + int(r["castle_green"]) + int(r["penalty"])
        assert int(r["penalty"]) == -(2 if "penalty=2" in r["variant"] else 5) * int(r["zeros"])
    # the same deal under both rules: same seed, same farms in the same order
    first = [r for r in rows if r["game"] == "0" and r["player"] == "0"]
    assert len(first) == 2 and first[0]["seed"] == first[1]["seed"] and first[0]["farms"] == first[1]["farms"]


def test_out_json_has_meta_and_kingdom_criteria_columns(capsys, tmp_path):
    path = tmp_path / "km.json"
    code, _, _ = run(capsys, "--game", "kingdom-maps", "-n", "3", "--bot", "random", "--out", str(path))
    assert code == 0
    doc = json.loads(path.read_text())
    assert doc["meta"]["game"] == "kingdom-maps" and doc["meta"]["games"] == 3
    rows = doc["rows"]
    assert len(rows) == 3
    for r in rows:
        in_play = r["criteria"].split()
        assert len(in_play) == 4
        codes = [f"{g}{k}" for g in "AB" for k in range(1, 7)]
        assert all(r[c] is not None for c in in_play)
        assert all(r[c] is None for c in codes if c not in in_play)
        assert r["score"] == r["criteria_total"] + r["question_total"]
        assert r["criteria_total"] == sum(r[c] for c in in_play)


def test_format_option_overrides_the_file_name(capsys, tmp_path):
    path = tmp_path / "table.txt"
    assert run(capsys, "-n", "3", "--out", str(path), "--format", "json")[0] == 0
    assert json.loads(path.read_text())["rows"][0]["game"] == 0


def test_workers_do_not_change_the_table(capsys, tmp_path):
    one, two = tmp_path / "one.csv", tmp_path / "two.csv"
    assert run(capsys, "-n", "70", "--workers", "1", "--out", str(one))[0] == 0
    assert run(capsys, "-n", "70", "--workers", "2", "--out", str(two))[0] == 0
    assert one.read_text() == two.read_text()


@pytest.mark.slow
def test_a_local_dask_cluster_gives_the_same_numbers(capsys):
    import distributed  # noqa: F401  (the scale extra; a missing install must fail, not skip)
    code, out, _ = run(capsys, "-n", "20", "--dask", "--workers", "2", "--json")
    assert code == 0
    assert json_lines(out)[0]["mean"] == run_games("avenue", "greedy", 20).summary()["mean"]


# ------------------------------------------------------------------------------------- errors
@pytest.mark.parametrize(("argv", "says"), [
    (["--set", "penalti=3"], "unknown field 'penalti'"),
    (["--set", "penalty=lots"], "--set penalty: expected a whole number"),
    (["--set", "penalty=-1"], "out of range"),
    (["--set", "rising=maybe"], "--set rising: expected true or false"),
    (["--set", "penalty"], "KEY=VALUE"),
    (["--set", "deck.9=[1,2]"], "unknown field '9'"),
    (["--set", "penalty.x=1"], "has no fields"),
    (["--set", "yellows_per_round=40"], "out of range"),
    (["--compare"], "--compare without a variant"),
    (["--compare", "nosuch"], "unknown variant 'nosuch'"),
    (["--variant", "{bad json"], "not valid JSON"),
    (["--variant", '{"rounds": 9}'], "out of range"),
    (["--bots", "greedy,nosuch"], "unknown bot 'nosuch'"),
    (["--bots", "greedy,random", "--players", "3"], "--players says 3"),
    (["--bot", "greedy", "--bots", "greedy"], "not both"),
    (["--workers", "0"], "--workers"),
    (["--seat", "3"], "--seat"),
    (["--level", "95"], "--level"),
    (["--game", "nosuch"], "unknown game"),
    (["--game", "kingdom-maps", "--set", "criteria=A1,Z9"], "'Z9' is not one of"),
    (["--seed", "-1"], "--seed must be a whole number from 0"),
    (["--seed", str(10**23)], "--seed must be a whole number from 0"),
    (["--format", "json"], "add --out FILE"),
])
def test_bad_options_exit_2_with_one_plain_line(capsys, argv, says):
    code, out, err = run(capsys, "-n", "5", *argv)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and says in err and err.count("\n") == 1
    assert "Traceback" not in err


def test_no_traceback_from_the_real_command():
    got = subprocess.run([sys.executable, "-m", "sheetkit", "simulate", "-n", "5", "--set", "rising=perhaps"],
                         capture_output=True, text=True, cwd=REPO, timeout=120)
    assert got.returncode == 2
    assert got.stderr.strip() == "error: --set rising: expected true or false, got a text"


# ------------------------------------------------------------------------------------- replay
def test_replay_prints_a_kingdom_maps_breakdown(capsys, tmp_path):
    from sheetkit.games.kingdom_maps import BOTS, new_game

    state = new_game(["Ann", "Bot"], seed=5)
    play_out(state, [BOTS["greedy"](seed=1), BOTS["random"](seed=2)])
    path = save_record(state, tmp_path / "km.json")
    code, out, err = run(capsys, "replay", str(path))
    assert code == 0 and err == ""
    lines = out.splitlines()
    totals = state.scores()
    assert lines[0].startswith(f"Ann: {totals[0]} points — placing")
    assert any(line.startswith(f"Bot: {totals[1]} points") for line in lines)
    for code_ in state.criteria:
        assert sum(line.strip().startswith(code_ + " ") for line in lines) == 2   # one line per player
    assert sum("? hexes banked" in line for line in lines) == 2
    assert any("hexes drawn" in line for line in lines)


def test_replay_solo_kingdom_maps_shows_the_title(capsys, tmp_path):
    from sheetkit.games.kingdom_maps import BOTS, new_game

    state = new_game(1, seed=7)
    play_out(state, [BOTS["greedy"](seed=1)])
    code, out, _ = run(capsys, "replay", str(save_record(state, tmp_path / "solo.json")))
    assert code == 0 and "— title " in out.splitlines()[0]


def test_replay_avenue_text_is_unchanged(capsys, tmp_path):
    from sheetkit.games.avenue import BOTS, new_game

    state = new_game(["You", "Bot"], seed=3)
    play_out(state, [BOTS["greedy"](seed=1), BOTS["greedy"](seed=1)])
    code, out, _ = run(capsys, "replay", str(save_record(state, tmp_path / "av.json")))
    assert code == 0
    lines = out.splitlines()
    b = state.breakdown(0)
    assert lines[0] == f"You: {b['total']} points — placing {b['placing']}"
    assert lines[1].startswith("  round 1: farm ") and "needed more than 0" in lines[1]
    assert lines[6] == f"  castles: purple {b['castles']['purple']}, green {b['castles']['green']}"
    assert lines[7] == f"  zero boxes: {b['zeros']} → {b['penalty']}"


def test_measures_match_between_workers_and_in_process():
    from sheetkit.analysis.measures import breakdown_measure

    m = breakdown_measure("avenue")
    a = play_games("avenue", 6, workers=1, progress=False, measure=m)
    b = play_games("avenue", 6, workers=2, chunk_size=2, progress=False, measure=m)
    assert a.rows() == b.rows() and np.array_equal(a.scores, b.scores)


def test_key_harvest_four_greedy_bots_as_the_issue_writes_it():
    """The command as written in Key Harvest's issue, run as a user runs it: one JSON line, four seats, scores that
    are `run_games` for the same seed (each game audited for its counters and tiles on the way)."""
    from sheetkit.analysis.simulate import run_games

    got = subprocess.run([sys.executable, "-m", "sheetkit", "simulate", "--game", "key-harvest", "--bot", "greedy",
                          "--players", "4", "--json", "-n", "12", "--no-progress"],
                         capture_output=True, text=True, timeout=120)
    assert got.returncode == 0, got.stderr
    line = json.loads(got.stdout)
    assert (line["game"], line["bot"], line["players"], line["games"]) == ("key-harvest", "greedy", 4, 12)
    assert [s["player"] for s in line["seats"]] == [0, 1, 2, 3]
    ref = run_games("key-harvest", "greedy", 12, players=4)
    assert line["mean"] == pytest.approx(float(ref.scores.mean()), abs=1e-3)
    assert (line["min"], line["max"]) == (int(ref.scores.min()), int(ref.scores.max()))
