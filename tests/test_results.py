"""Result codes for class play: round trips, many at once, hostile codes refused, scores recomputed, CSV."""

from __future__ import annotations

import csv
import io
import itertools
import json
import re

import pytest

from sheetkit.analysis import results as R
from sheetkit.analysis.results import ClassDeal, gather, read_record_file, read_result_code, result_code
from sheetkit.core.codes import make_code
from sheetkit.core.errors import RecordError
from sheetkit.core.records import dumps
from sheetkit.core.registry import get_game

GAMES = {"avenue": "AV", "kingdom-maps": "KM"}


def play(game: str, seed: int, student: str = "random", bots: tuple[str, ...] = (), student_seed: int = 0):
    """A finished game as a table plays it: a bot sits in seat 0 as 'the student', the table's bots beside it."""
    spec = get_game(game)
    state = spec.new_state(spec.default_params(), ["You", *R.bot_names(bots)], seed=seed)
    me = spec.bots[student](seed=student_seed)
    others = {p: spec.bots[k](seed=R.bot_seed(seed, p)) for p, k in enumerate(bots, start=1)}
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
        elif 0 in state.current_players():
            state.apply(0, me.act(state, 0))
        else:
            for p in state.current_players():
                state.apply(p, others[p].act(state, p))
    return state


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("bots", [(), ("greedy", "random")])
@pytest.mark.parametrize("seed", [3, 1234, 987_654])
def test_a_code_replays_the_very_game(game, bots, seed):
    """Encode a finished game and decode it: the same state (fingerprint), the same score; short enough to read."""
    for student in ("random", "greedy"):
        state = play(game, seed, student, bots, student_seed=seed + 1)
        code = result_code(state, bots)
        assert code.startswith(make_code(GAMES[game], seed) + ".R1")
        moves = code.split(".")[2].replace("-", "")
        assert len(moves) <= 45, code    # about 5 bits per choice: a whole game in ~40 characters
        got = read_result_code(code, ClassDeal(make_code(GAMES[game], seed), bots))
        assert got.state.fingerprint() == state.fingerprint()
        assert got.score == state.scores()[0]
        assert got.code == code


def test_codes_read_despite_case_spaces_and_look_alike_letters():
    """A code typed in lower case, with spaces, O for 0 and L for 1, still reads."""
    state = play("avenue", 42, "greedy")
    code = result_code(state, [])
    typed = " ".join(code.lower()).replace("0", "o").replace("1", "l")
    assert read_result_code(typed).score == state.scores()[0]


def test_a_code_names_the_bots_and_kingdom_dice_come_from_the_seed():
    """The opponents are letters after R1; a Kingdom Maps game with bots replays its rolls from the seed."""
    state = play("kingdom-maps", 77, "greedy", ("greedy", "random"))
    code = result_code(state, ["greedy", "random"])
    assert ".R1GR." in code
    r = read_result_code(code)
    assert r.bots == ("greedy", "random")
    assert [e for e in r.state.log if "chance" in e] == [e for e in state.log if "chance" in e]


def test_a_code_is_refused_when_the_bots_would_not_replay_the_game():
    """A game whose bots played otherwise than seeded bots would (here: other seeds) gets no code."""
    spec = get_game("avenue")
    state = spec.new_state(spec.default_params(), ["You", "Random bot"], seed=5)
    bots = [spec.bots["greedy"](), spec.bots["random"](seed=999)]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
        for p in state.current_players():
            state.apply(p, bots[p].act(state, p))
    with pytest.raises(RecordError, match="record file"):
        result_code(state, ["random"])


def test_thirty_students_in_one_paste():
    """30 codes in one paste, named or not, mixed with chatter: 30 games read, names kept, order by score."""
    deal = ClassDeal(make_code("AV", 42), ("greedy",))
    lines = ["Here are the codes from today:"]
    want = {}
    for i in range(30):
        state = play("avenue", 42, "random" if i % 3 else "greedy", ("greedy",), student_seed=i)
        code = result_code(state, ["greedy"])
        if i < 20:
            lines.append(f"[10:{i:02d}] Student{i:02d}: {code}")
            want[f"Student{i:02d}"] = state.scores()[0]
        else:
            lines.append(f"{code}   thanks!")
            want[f"student {i - 19}"] = state.scores()[0]
    got = gather("\n".join(lines), expect=deal)
    assert not got.skipped
    assert {r.name: r.score for r in got.results} == want
    board = R.leaderboard(got.results)
    assert [row["score"] for row in board] == sorted(want.values(), reverse=True)
    assert board[0]["rank"] == 1 and all(b["rank"] <= c["rank"] for b, c in itertools.pairwise(board))


def good_code() -> str:
    return result_code(play("avenue", 42, "greedy", ("greedy",)), ["greedy"])


@pytest.mark.parametrize("mangle, reason", [
    (lambda c: c[: len(c) - 12], "check characters|cut short"),          # truncated in the moves
    (lambda c: c.rsplit(".", 1)[0], "cut short"),                         # check part lost
    (lambda c: c.split(".")[0], "deal code without moves"),               # only the deal
    (lambda c: c[:-1] + ("A" if c[-1] != "A" else "B"), "check characters"),  # wrong checksum
    (lambda c: c.replace(".R1G.", ".R1.", 1), "check characters"),        # bots removed
    (lambda c: c.replace(".R1G.", ".R9G.", 1), "another sheetkit version"),
    (lambda c: c.replace(".R1G.", ".R1Q.", 1), "unknown bot letter"),
    (lambda c: c + "-" + "Z" * 2000, "far too long"),                     # huge
    (lambda c: "hello teacher", "not a result code"),                     # garbage
    (lambda c: c.replace("-", "*", 3), "not a result code"),
    (lambda c: c.replace(".", "!", 2), "not a result code"),
])
def test_hostile_codes_are_refused_with_a_reason(mangle, reason):
    """Truncated, wrong checksum, other version, huge, garbage: each refused with a one-line reason."""
    with pytest.raises(RecordError, match=reason) as e:
        read_result_code(mangle(good_code()), ClassDeal(make_code("AV", 42), ("greedy",)))
    assert "\n" not in str(e.value) and len(str(e.value)) < 200


def test_a_code_of_another_deal_or_other_bots_is_named_and_skipped_nothing_else_lost():
    """In a paste, the code of another deal and a damaged one are skipped with reasons; the good ones count."""
    deal = ClassDeal(make_code("AV", 42), ("greedy",))
    good = good_code()
    other_deal = result_code(play("avenue", 43, "greedy", ("greedy",)), ["greedy"])
    other_bots = result_code(play("avenue", 42, "greedy"), [])
    km = result_code(play("kingdom-maps", 42, "greedy"), [])
    text = "\n".join([f"Ann: {good}", f"Ben: {other_deal}", f"Cy: {good[:-2]}", f"Di: {other_bots}",
                      f"Ed: {km}", f"Flo: {good}"])
    got = gather(text, expect=deal)
    assert [r.name for r in got.results] == ["Ann", "Flo"]
    reasons = {s.name: s.reason for s in got.skipped}
    assert "another deal (AV-0000-001B)" in reasons["Ben"]
    assert "check characters" in reasons["Cy"]
    assert "other bots" in reasons["Di"]
    assert "another deal (KM-0000-001A)" in reasons["Ed"]


def test_a_huge_paste_is_refused_not_read():
    """A paste of megabytes is refused whole with a reason (no replay runs)."""
    got = gather("AV-0000-001A.R1." + "Z" * (R.MAX_PASTE_CHARS + 10))
    assert not got.results and "too long" in got.skipped[0].reason


def test_an_edited_score_cannot_cheat():
    """A record file whose score-like fields are edited still counts the score its moves give."""
    state = play("avenue", 42, "random", ("greedy",), student_seed=3)
    doc = state.to_record()
    doc["meta"] = {"note": "score: 999"}
    doc["players"][0] = "Mallory"
    deal = ClassDeal(make_code("AV", 42), ("greedy",))
    got = gather(files=[("mallory.json", dumps(doc).encode())], expect=deal)
    assert [(r.name, r.score) for r in got.results] == [("Mallory", state.scores()[0])]
    assert state.scores()[0] != 999
    # A move the rules forbid (a second road in a cell already drawn) is refused, not scored.
    mine = [i for i, e in enumerate(doc["log"]) if e.get("player") == 0 and e["action"]["type"] == "draw"]
    doc["log"][mine[1]] = {"player": 0, "action": dict(doc["log"][mine[0]]["action"])}
    got = gather(files=[("mallory.json", dumps(doc).encode())], expect=deal)
    assert not got.results and "already has a road" in got.skipped[0].reason


def test_an_edited_record_cannot_change_the_bots_moves():
    """A record whose bot moves were rewritten (legal, but not the bot's) is refused: the class plays the real bots."""
    state = play("kingdom-maps", 42, "greedy", ("greedy",))
    doc = json.loads(dumps(state.to_record()))
    # Replace the bot's last placement by another legal one: the record still replays, but not with the real bot.
    spec = get_game("kingdom-maps")
    replayed = spec.new_state(spec.default_params(), list(doc["players"]), seed=42)
    edited = None
    for i, e in enumerate(doc["log"]):
        if "chance" in e:
            replayed.apply_chance()
            continue
        if e["player"] == 1 and e["action"]["type"] == "place":
            others = [a.to_json() for a in replayed.legal_actions(1) if a.to_json() != e["action"]
                      and a.to_json()["type"] == "place"]
            if others:
                edited = i
                doc["log"][i] = {"player": 1, "action": others[0]}
                doc["log"] = doc["log"][: i + 1]
                break
        replayed.apply(e["player"], spec.parse_action(e["action"]))
    assert edited is not None
    with pytest.raises(RecordError):
        read_record_file(json.dumps(doc))


def test_record_files_count_like_codes_and_bad_files_are_named():
    """Several record files at once: good ones become results (with their code), bad ones are skipped by name."""
    deal = ClassDeal(make_code("AV", 42), ("greedy",))
    a = play("avenue", 42, "greedy", ("greedy",))
    b = play("avenue", 42, "random", ("greedy",), student_seed=8)
    unfinished = a.to_record()
    unfinished["log"] = unfinished["log"][:10]
    files = [("a.json", dumps(a.to_record()).encode()), ("b.json", dumps(b.to_record()).encode()),
             ("half.json", dumps(unfinished).encode()), ("photo.json", b"\x89PNG\r\n"), ("x.json", b"{}")]
    got = gather("", files, expect=deal)
    assert sorted(r.score for r in got.results) == sorted([a.scores()[0], b.scores()[0]])
    assert all(r.code == result_code(r.state, ["greedy"]) for r in got.results)
    assert [s.name for s in got.skipped] == ["half.json", "photo.json", "x.json"]
    assert "not finished" in got.skipped[0].reason


def test_csv_export_holds_the_leaderboard_and_the_skipped():
    """The CSV has one row per game (rank, name, score, code) then the skipped with reasons; no formula injection."""
    deal = ClassDeal(make_code("AV", 42), ("greedy",))
    good = good_code()
    got = gather(f"=SUM: {good}\nBo: {good[:-3]}", expect=deal)
    rows = list(csv.DictReader(io.StringIO(R.results_csv(got.results, got.skipped))))
    assert rows[0]["rank"] == "1" and rows[0]["score"] == str(got.results[0].score)
    assert rows[0]["code"] == good and rows[0]["name"].startswith("'=")
    assert rows[1]["name"] == "Bo" and rows[1]["source"].startswith("skipped: ")


def test_find_codes_in_mixed_text():
    """Codes are found in chat lines, after a name, or typed with spaces on a line of their own."""
    good = good_code()
    spaced = " ".join(re.findall(".{1,4}", good.lower()))
    found = R.find_codes(f"hi!\nAnn: {good} ok\nsee {good}.\n{spaced}\n")
    assert [n for n, _ in found] == ["Ann", "", ""]
    assert [read_result_code(c).code for _, c in found[:2]] == [good, good]
    assert len(R.find_codes(spaced)) == 1 and read_result_code(R.find_codes(spaced)[0][1]).code == good


def test_key_harvest_bids_do_not_fit_a_code_so_its_record_files_count():
    """Key Harvest's bids (any mix of crops) are not listed by legal_actions: no code, with the reason;
    its record files are replayed with the seeded bots and counted, and an edited bot move is refused."""
    game = get_game("key-harvest")
    state = play(game.name, 11, "greedy", ("greedy",), student_seed=5)
    with pytest.raises(R.Unpackable, match="record file"):
        result_code(state, ["greedy"])
    deal = ClassDeal(make_code(game.code_prefix, 11), ("greedy",))
    got = gather(files=[("kh.json", dumps(state.to_record()).encode())], expect=deal)
    assert [(r.score, r.code) for r in got.results] == [(state.scores()[0], "")]
    doc = json.loads(dumps(state.to_record()))
    bot_moves = [i for i, e in enumerate(doc["log"]) if e.get("player") == 1]
    doc["log"] = doc["log"][: bot_moves[0]] + doc["log"][bot_moves[0] + 1:]    # drop one bot move
    got = gather(files=[("kh.json", json.dumps(doc).encode())], expect=deal)
    assert not got.results and got.skipped[0].name == "kh.json"
    assert "not what the bots play" in got.skipped[0].reason    # the file replays, but not with the real bot


def test_a_code_that_replays_to_another_game_here_is_refused(monkeypatch):
    """Bots changed since the code was made (another sheetkit version): the replay differs, refused, not miscounted."""
    code = good_code()
    spec = get_game("avenue")
    monkeypatch.setitem(spec.bots, "greedy", spec.bots["random"])
    with pytest.raises(RecordError, match="replays to another game"):
        read_result_code(code)
