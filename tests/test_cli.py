"""`python -m sheetkit`: replay, validate and simulate — plain one-line errors, never a traceback."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import struct
import subprocess
import sys
import termios
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from sheetkit.cli import main
from sheetkit.core.chance import derive_seed
from sheetkit.core.play import play_out
from sheetkit.core.records import MAX_BYTES, dumps, save_record
from sheetkit.core.registry import get_game
from sheetkit.games.avenue import BOTS, AvenueState, Peek, new_game

ROOT = Path(__file__).resolve().parents[1]
SUMMARY_KEYS = {"game", "bot", "games", "mean", "stdev", "min", "max", "seconds"}


@cache
def finished_game() -> AvenueState:
    g = new_game(["Ann", "Bob"], seed=5)
    play_out(g, [BOTS["greedy"](seed=derive_seed(5, "bot", 0)), BOTS["random"](seed=derive_seed(5, "bot", 1))])
    return g


@pytest.fixture
def record(tmp_path: Path) -> Path:
    return save_record(finished_game(), tmp_path / "game.json")


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """The CLI in this process: (exit code, stdout, stderr)."""
    try:
        code = main(argv)
    except SystemExit as e:  # argparse's own usage errors
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def run_process(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sheetkit", *args], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env={**os.environ, **(env or {})})


def assert_plain_error(code: int, out: str, err: str, words: str = "") -> None:
    assert code == 2, (code, out, err)
    assert "Traceback" not in err and "Traceback" not in out
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, f"not one line: {err!r}"
    assert err.startswith("error: ") and len(err) < 400
    assert words in err


# ----- replay --------------------------------------------------------------------------------


def test_replay_prints_each_players_breakdown(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/avenue.md §Final score: the five farm boxes, the castles and −5 per zero box make the total."""
    g = finished_game()
    code, out, err = run(["replay", str(record)], capsys)
    assert code == 0 and err == ""
    for p, name in enumerate(g.players):
        b = g.breakdown(p)
        assert f"{name}: {b['total']} points" in out and f"placing {b['placing']}" in out
        for f in b["farms"]:
            grapes = f"{f['grapes']} grape" + ("" if f["grapes"] == 1 else "s")
            assert f"round {f['round']}: farm {f['farm']} reached {grapes}," in out
        assert f"purple {b['castles']['purple']}, green {b['castles']['green']}" in out
        assert f"zero boxes: {b['zeros']} → {b['penalty']}" in out
    assert "stops before the end" not in out


def test_replay_json_is_one_object_with_the_scores_and_breakdown(record: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    g = finished_game()
    code, out, err = run(["replay", str(record), "--json"], capsys)
    assert code == 0 and err == "" and out.count("\n") == 1
    doc = json.loads(out)
    assert doc["game"] == "avenue" and doc["final"] is True
    assert doc["scores"] == g.scores()
    assert doc["breakdown"] == [g.breakdown(p) for p in range(2)]
    for b in doc["breakdown"]:
        assert b["total"] == b["farm_total"] + sum(b["castles"].values()) + b["penalty"]
        assert b["penalty"] == -5 * b["zeros"]


def test_replay_of_an_unfinished_record_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    g = new_game(["Ann"], seed=8)
    g.apply_chance()
    g.apply_chance()
    g.apply(0, Peek())
    path = save_record(g, tmp_path / "half.json")
    code, out, _ = run(["replay", str(path)], capsys)
    assert code == 0 and "the record stops before the end of the game" in out
    code, out, _ = run(["replay", str(path), "--json"], capsys)
    assert code == 0 and json.loads(out)["final"] is False


def test_replay_works_for_every_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = get_game("kingdom-maps")
    state = spec.new_state(spec.default_params(), 2, seed=3)
    play_out(state, [spec.bots["random"](seed=p) for p in range(2)])
    path = save_record(state, tmp_path / "km.json")
    code, out, err = run(["replay", str(path), "--json"], capsys)
    assert code == 0 and err == ""
    assert json.loads(out)["scores"] == state.scores() and json.loads(out)["game"] == "kingdom-maps"


# ----- validate ------------------------------------------------------------------------------


def test_validate_accepts_a_good_record(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["validate", str(record)], capsys)
    assert code == 0 and err == ""
    assert out == f"ok: avenue record, {len(finished_game().log)} log entries, finished\n"


def good_text() -> str:
    return dumps(finished_game().to_record())


def edited(**changes: Any) -> bytes:
    doc = json.loads(good_text())
    doc.update(changes)
    return json.dumps(doc).encode()


def with_illegal_move() -> bytes:
    doc = json.loads(good_text())
    moves = [i for i, e in enumerate(doc["log"]) if e.get("player") == 0 and e["action"]["type"] == "draw"]
    doc["log"][moves[1]]["action"] = dict(doc["log"][moves[0]]["action"])
    return json.dumps(doc).encode()


HOSTILE: dict[str, tuple[Callable[[], bytes] | None, str]] = {
    "missing file": (None, "cannot read"),
    "empty file": (lambda: b"", "not valid JSON"),
    "not json": (lambda: b"this is my game, trust me", "not valid JSON"),
    "truncated json": (lambda: good_text()[:200].encode(), "not valid JSON"),
    "binary garbage": (lambda: bytes(range(256)) * 20, "not a text (UTF-8) file"),
    "utf-16": (lambda: good_text().encode("utf-16"), "not a text (UTF-8) file"),
    "nul bytes": (lambda: b"\x00" * 1000, "not valid JSON"),
    "huge number": (lambda: good_text().replace('"seed": 5', '"seed": ' + "9" * 25, 1).encode(), "out of range"),
    "unreadable number": (lambda: ("[" + "7" * 50_000 + "]").encode(), "50,000 digits is far too large"),
    "escape in a name": (lambda: edited(players=["\x1b[2JAnn", "Bob"]), "control character"),
    "deep nesting": (lambda: b"[" * 200_000 + b"]" * 200_000, "not valid JSON"),
    "nan": (lambda: good_text().replace('"seed": 5', '"seed": NaN', 1).encode(), "NaN is not allowed"),
    "huge file": (lambda: b" " * (MAX_BYTES + 1), "too large"),
    "wrong version": (lambda: edited(version=99), "record.version: version 99 is not supported"),
    "wrong format": (lambda: edited(format="savegame"), "record.format"),
    "unknown game": (lambda: edited(game="chess"), "record.game: unknown game 'chess'"),
    "list not object": (lambda: b"[1, 2, 3]", "record: expected an object, got a list"),
    "code injection": (lambda: edited(game="__import__('os').system('touch pwned')"), "unknown game"),
    "illegal move": (with_illegal_move, "already has a road"),
    "unknown field": (lambda: edited(__reduce__="os.system"), "unknown field '__reduce__'"),
    "huge log": (lambda: edited(log=[{"chance": "end"}] * 20_001), "record.log: expected 0 to 20000 items"),
}


@pytest.mark.parametrize("command", ["validate", "replay"])
@pytest.mark.parametrize("case", list(HOSTILE))
def test_bad_records_exit_2_with_one_plain_line(case: str, command: str, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    make, words = HOSTILE[case]
    path = tmp_path / "record.json"
    if make is not None:
        path.write_bytes(make())
    code, out, err = run([command, str(path)], capsys)
    assert_plain_error(code, out, err, words)
    assert not (tmp_path / "pwned").exists() and not Path("pwned").exists()


def test_a_folder_or_an_endless_device_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert_plain_error(*run(["validate", str(tmp_path)], capsys), "folder")
    if Path("/dev/zero").exists():
        assert_plain_error(*run(["validate", "/dev/zero"], capsys), "too large")


def test_usage_mistakes_exit_2_without_a_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["validate"], ["fly"], [], ["simulate", "-n", "lots"]):
        code, _, err = run(argv, capsys)
        assert code == 2 and "Traceback" not in err and "usage:" in err


def test_validate_in_a_separate_process(record: Path, tmp_path: Path) -> None:
    ok = run_process("validate", str(record))
    assert ok.returncode == 0 and ok.stdout.startswith("ok: avenue record") and ok.stderr == ""
    for name, data in [("garbage.json", bytes(range(256))), ("v9.json", edited(version=9)),
                       ("deep.json", b"{\"a\":" * 100_000)]:
        bad = tmp_path / name
        bad.write_bytes(data)
        res = run_process("validate", str(bad))
        assert_plain_error(res.returncode, res.stdout, res.stderr)
    res = run_process("replay", str(tmp_path / "nowhere.json"))
    assert_plain_error(res.returncode, res.stdout, res.stderr, "cannot read")


def test_replay_in_a_separate_process_matches_the_game(record: Path) -> None:
    res = run_process("replay", str(record), "--json", env={"PYTHONHASHSEED": "12345"})
    assert res.returncode == 0 and res.stderr == ""
    assert json.loads(res.stdout)["scores"] == finished_game().scores()


# ----- simulate ------------------------------------------------------------------------------


def simulate(capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    code, out, err = run(["simulate", "--bot", "random", "-n", "12", "--json", *extra], capsys)
    assert code == 0, err
    assert err == "", "stderr is not a terminal: no progress bar"
    lines = out.splitlines()
    assert len(lines) == 1, "--json prints exactly one line"
    return json.loads(lines[0])


def without_time(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k != "seconds"}


def test_simulate_json_is_one_line_with_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    s = simulate(capsys, "--seed", "3")
    assert SUMMARY_KEYS <= set(s)
    assert s["game"] == "avenue" and s["bot"] == "random" and s["games"] == 12
    lo, hi = new_game(1, seed=0).score_bounds()
    assert lo <= s["min"] <= s["mean"] <= s["max"] <= hi
    assert s["stdev"] >= 0 and s["seconds"] >= 0


def test_simulate_is_seeded(capsys: pytest.CaptureFixture[str]) -> None:
    a, b = simulate(capsys, "--seed", "3"), simulate(capsys, "--seed", "3")
    assert without_time(a) == without_time(b)
    others = [without_time(simulate(capsys, "--seed", str(s))) for s in (4, 5)]
    assert any(o["mean"] != a["mean"] or o["min"] != a["min"] or o["max"] != a["max"] for o in others)


def test_simulate_more_players_and_another_game(capsys: pytest.CaptureFixture[str]) -> None:
    s = simulate(capsys, "--players", "3", "--seed", "1")
    assert s["players"] == 3 and s["games"] == 12
    k = simulate(capsys, "--game", "kingdom-maps", "--players", "2")
    assert k["game"] == "kingdom-maps" and SUMMARY_KEYS <= set(k)


def test_simulate_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["simulate", "--bot", "greedy", "-n", "5", "--seed", "2"], capsys)
    assert code == 0 and err == ""
    assert out.startswith("Avenue, standard rules, bot greedy, 5 games × 1 player(s), seed 2")
    assert "mean" in out and "stdev" in out


@pytest.mark.parametrize(("argv", "words"), [
    (["--bot", "wizard"], "unknown bot 'wizard'"),
    (["--game", "chess"], "unknown game 'chess'"),
    (["--variant", "hard"], "unknown variant 'hard'"),
    (["-n", "0"], "-n must be between"),
    (["--players", "99"], "takes 1 to 16 players"),
])
def test_simulate_refuses_bad_options_in_one_line(argv: list[str], words: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert_plain_error(*run(["simulate", "-n", "3", *argv], capsys), words)


def test_simulate_in_separate_processes_is_seeded_and_prints_only_json() -> None:
    args = ("simulate", "--bot", "greedy", "-n", "10", "--seed", "7", "--json")
    a, b = run_process(*args), run_process(*args, env={"PYTHONHASHSEED": "99"})
    for res in (a, b):
        assert res.returncode == 0 and res.stderr == ""
        assert len(res.stdout.splitlines()) == 1
    assert without_time(json.loads(a.stdout)) == without_time(json.loads(b.stdout))


class TerminalRun:
    """The CLI started with ``terminal`` ("stderr" or "stdout") on a pseudo-terminal and the other stream piped."""

    def __init__(self, args: list[str], terminal: str) -> None:
        self.terminal = terminal
        self.leader, follower = pty.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a 100-column terminal
        streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, terminal: follower}
        self.proc = subprocess.Popen([sys.executable, "-m", "sheetkit", *args], cwd=ROOT,
                                     stdin=subprocess.DEVNULL, **streams)
        os.close(follower)

    def finish(self) -> tuple[int, str, str]:
        """(exit code, what the terminal showed, what the piped stream got)."""
        seen = b""
        while True:
            try:
                chunk = os.read(self.leader, 4096)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            seen += chunk
        os.close(self.leader)
        pipe = self.proc.stderr if self.terminal == "stdout" else self.proc.stdout
        piped = pipe.read().decode()  # type: ignore[union-attr]
        self.proc.wait(timeout=120)
        return self.proc.returncode, seen.decode(errors="replace"), piped


def test_a_progress_bar_shows_only_on_a_terminal() -> None:
    """Long runs (over a second) show a bar on an interactive terminal; piped output is nothing but the JSON line."""
    args = ["simulate", "--bot", "montecarlo", "-n", "3", "--seed", "1", "--json"]
    on_stderr, on_stdout = TerminalRun(args, "stderr"), TerminalRun(args, "stdout")  # both run at once
    code, terminal, stdout = on_stderr.finish()
    assert code == 0
    assert "deal" in terminal and "%" in terminal, f"no progress bar on the terminal: {terminal!r}"
    assert len(stdout.splitlines()) == 1 and SUMMARY_KEYS <= set(json.loads(stdout))
    code, terminal, stderr = on_stdout.finish()
    assert code == 0 and stderr == "", "a bar was written although stderr is not a terminal"
    assert len(terminal.splitlines()) == 1 and SUMMARY_KEYS <= set(json.loads(terminal))
    assert without_time(json.loads(terminal)) == without_time(json.loads(stdout))
