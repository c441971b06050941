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
    return R.play_as_table(game, seed, student, bots, student_seed)


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
    """30 codes in one paste, named or not, mixed with chatter: 30 games read, names kept, order by score;
    the chatter line is listed as holding no code."""
    deal = ClassDeal(make_code("AV", 42), ("greedy",))
    lines = ["Here are the codes from today:"]
    want = {}
    for i in range(30):
        # the greedy bot ignores its seed: one greedy 'student', the others random, so 30 different games
        state = play("avenue", 42, "random" if i else "greedy", ("greedy",), student_seed=i)
        code = result_code(state, ["greedy"])
        if i < 20:
            lines.append(f"[10:{i:02d}] Student{i:02d}: {code}")
            want[f"Student{i:02d}"] = state.scores()[0]
        else:
            lines.append(f"{code}   thanks!")
            want[f"student {i - 19}"] = state.scores()[0]
    got = gather("\n".join(lines), expect=deal)
    assert [(s.line, s.kind, s.text) for s in got.skipped] == [(1, R.NO_CODE, "Here are the codes from today:")]
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
    other_game = result_code(play("avenue", 42, "random", ("greedy",), student_seed=5), ["greedy"])
    text = "\n".join([f"Ann: {good}", f"Ben: {other_deal}", f"Cy: {good[:-2]}", f"Di: {other_bots}",
                      f"Ed: {km}", f"Flo: {other_game}"])
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


def test_a_game_pasted_twice_or_under_two_names_counts_once():
    """5 games pasted as 8 entries (one twice under its name, one under two names, one as a code and its
    record file): 5 results, the 3 copies skipped, each saying whose game it repeats; the per-card
    shares and the CSV count 5 too."""
    from sheetkit.analysis.class_review import choice_rows

    deal = ClassDeal(make_code("AV", 42), ("greedy",))
    games = [play("avenue", 42, "random", ("greedy",), student_seed=i) for i in range(5)]
    codes = [result_code(g, ["greedy"]) for g in games]
    text = "\n".join([f"Ann: {codes[0]}", f"Ben: {codes[1]}", f"Ann: {codes[0]}", f"Cy: {codes[2]}",
                      f"Di: {codes[3]}", f"Eve: {codes[2].lower()}", f"Fay: {codes[4]}"])
    got = gather(text, [("fay.json", dumps(games[4].to_record()).encode())], expect=deal)
    assert [r.name for r in got.results] == ["Ann", "Ben", "Cy", "Di", "Fay"]
    copies = [(s.line, s.name, s.kind) for s in got.skipped]
    assert copies == [(3, "Ann", R.COPY), (6, "Eve", R.COPY), (0, "fay.json", R.COPY)]
    reasons = [s.reason for s in got.skipped]
    assert "Ann's game again" in reasons[0] and "line 1" in reasons[0] and "counted once" in reasons[0]
    assert "same game as Cy's on line 4" in reasons[1]
    assert "same game as Fay's on line 7" in reasons[2]
    assert got.count(R.COPY) == 3
    assert all(r["players"] == 5 for r in choice_rows(got.results, None) if r["step"] == 1)
    rows = list(csv.DictReader(io.StringIO(R.results_csv(got.results, got.skipped))))
    assert sum(1 for r in rows if r["score"]) == 5
    assert [r["line"] for r in rows if not r["score"]] == ["3", "6", ""]


def test_every_line_without_a_code_is_listed_whole():
    """2,000 random characters, a chat line and a line of digits between the codes: each non-blank line
    that holds no code is skipped with its line number, its text whole (the CSV too, never cut with …)."""
    import random

    deal = ClassDeal(make_code("AV", 42), ("greedy",))
    rng = random.Random(7)
    junk = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789 .-:=") for _ in range(2000))
    good = good_code()
    text = "\n".join([f"Ann: {good}", "", junk, "see you tomorrow!", "   ", "12345", good.split(".")[0] + " zz"])
    got = gather(text, expect=deal)
    assert [r.name for r in got.results] == ["Ann"]
    assert [(s.line, s.kind) for s in got.skipped] == [(3, R.NO_CODE), (4, R.NO_CODE), (6, R.NO_CODE),
                                                        (7, R.REFUSED)]
    assert got.skipped[0].text == junk and got.skipped[1].text == "see you tomorrow!"
    assert "no result code on this line" in got.skipped[0].reason and "AV-0000-001A.R1" in got.skipped[0].reason
    assert "deal code without moves" in got.skipped[3].reason
    rows = list(csv.DictReader(io.StringIO(R.results_csv(got.results, got.skipped))))
    skipped = [r for r in rows if not r["score"]]
    assert skipped[0]["code"].lstrip("'") == junk and "…" not in skipped[0]["code"]
    assert [r["line"] for r in skipped] == ["3", "4", "6", "7"]


def test_a_long_code_that_cannot_count_is_written_whole_in_the_csv():
    """A damaged code longer than a screen line keeps every character in the CSV."""
    deal = ClassDeal(make_code("AV", 42), ("greedy",))
    long_bad = good_code()[:-5] + "-" + "7" * 90
    got = gather(f"Bo: {long_bad}", expect=deal)
    rows = list(csv.DictReader(io.StringIO(R.results_csv(got.results, got.skipped))))
    assert rows[0]["name"] == "Bo" and rows[0]["code"] == long_bad


def test_find_codes_in_mixed_text():
    """Codes are found in chat lines, after a name, or typed with spaces on a line of their own."""
    good = good_code()
    spaced = " ".join(re.findall(".{1,4}", good.lower()))
    found = R.find_codes(f"hi!\nAnn: {good} ok\nsee {good}.\n{spaced}\n")
    assert [n for n, _ in found] == ["Ann", "", ""]
    assert [read_result_code(c).code for _, c in found[:2]] == [good, good]
    assert len(R.find_codes(spaced)) == 1 and read_result_code(R.find_codes(spaced)[0][1]).code == good


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [11, 4321, 777_777])
def test_key_harvest_codes_replay_the_very_game(players, seed):
    """Key Harvest's bids (any mix of crops, not all listed) and seat 0's pending decisions fit a code:
    decoded, the same game (bids of several counters included) and score; short enough to paste."""
    game = get_game("key-harvest")
    bots = ("greedy", "random", "greedy")[: players - 1]
    several = 0
    for student in ("greedy", "random"):
        state = play(game.name, seed, student, bots, student_seed=seed + 1)
        mine = [e["action"] for e in state.log if e.get("player") == 0]
        several += sum(1 for a in mine if a["type"] == "bid" and sum(a["counters"]) > 1)
        code = result_code(state, bots)
        assert code.startswith(make_code("KH", seed) + ".R1")
        assert len(code.split(".")[2].replace("-", "")) <= 120, code
        got = read_result_code(code, ClassDeal(make_code("KH", seed), bots))
        assert got.state.fingerprint() == state.fingerprint()
        assert _moves_of(got.state, 0) == mine
        assert got.score == state.scores()[0] and got.code == code
    assert several, "these games should hold bids of several counters"


def _moves_of(state, player):
    return [e["action"] for e in state.log if e.get("player") == player]


def test_key_harvest_seat_0_answers_its_pending_decisions_in_the_code():
    """A game where seat 0 had effects' decisions to answer (Choose): they are among the coded moves."""
    for seed in range(40):
        state = play("key-harvest", seed, "greedy", ("greedy",), student_seed=seed)
        if any(a["type"] == "choose" for a in _moves_of(state, 0)):
            break
    else:
        pytest.fail("no seat-0 decision in 40 games")
    got = read_result_code(result_code(state, ["greedy"]))
    assert [a for a in _moves_of(got.state, 0) if a["type"] == "choose"] == \
        [a for a in _moves_of(state, 0) if a["type"] == "choose"]


def _reader(digits):
    """read(radix) over written digits, asserting the reader asks for the radix each was written in."""
    it = iter(digits)

    def read(radix):
        i, n = next(it)
        assert n == radix
        return i
    return read


def test_every_key_harvest_bid_a_player_can_make_reads_back_and_every_digit_is_a_legal_bid():
    """Mid-game, each bid within the counters held (every tile, every mix) encodes and decodes to itself;
    every value of the bid digits decodes to a bid the rules accept; a bid of counters not held has no code."""
    from sheetkit.games.key_harvest.codec import CODEC
    from sheetkit.games.key_harvest.crops import mixes
    from sheetkit.games.key_harvest.moves import Bid

    game = get_game("key-harvest")
    state = game.new_state(game.default_params(), ["You", "Greedy bot"], seed=5)
    bot, other = game.bots["greedy"](seed=1), game.bots["greedy"](seed=2)
    while not (0 in state.current_players() and any(isinstance(a, Bid) for a in state.legal_actions(0))
               and sum(state.counters[0]) >= 3):
        if state.is_chance_node():
            state.apply_chance()
        else:
            p = state.current_players()[0]
            state.apply(p, (bot if p == 0 else other).act(state, p))
    have = state.counters[0]
    bids = [Bid(code, m) for code in state.registry for n in range(1, sum(have) + 1) for m in mixes(n, have)]
    seen = set()
    for b in bids:
        digits = CODEC.encode(state, 0, b)
        assert CODEC.decode(state, 0, _reader(digits)) == b
        seen.add(tuple(digits))
    assert len(seen) == len(bids)                       # one code per bid, no two alike
    _, tiles, mix = next(iter(seen))
    for t in range(tiles[1]):
        for v in range(mix[1]):
            values = iter([len([a for a in state.legal_actions(0) if not isinstance(a, Bid)]), t, v])
            state.check(0, CODEC.decode(state, 0, lambda n, vs=values: next(vs)))
    too_many = tuple(h + 1 if i == max(range(5), key=lambda k: have[k]) else h for i, h in enumerate(have))
    assert CODEC.encode(state, 0, Bid(state.registry[0], too_many)) is None


def test_a_hostile_key_harvest_code_bidding_counters_not_held_is_refused(monkeypatch):
    """A forged code whose bid digits spell more counters than the student holds (written by a codec that
    counts extra counters, with valid check characters) is refused with the rules' reason, not scored."""
    from sheetkit.games.key_harvest import codec as C

    state = play("key-harvest", 11, "greedy", ("greedy",), student_seed=5)
    deal = make_code("KH", 11)
    head = f"{deal}.R1G"
    # The forger believes seat 0 holds 3 more of each crop than it does, and bids them at its first bid.
    real_held = C.held
    monkeypatch.setattr(C, "held", lambda st, p: tuple(h + 3 for h in real_held(st, p)))
    spec = get_game("key-harvest")
    mine = iter(_moves_of(state, 0))
    value, radix, forged = 0, 1, None

    class Forged(Exception):
        """The forger has written its bid: stop playing."""

    def forge(now):
        nonlocal value, radix, forged
        want = spec.parse_action(next(mine), "action")
        if want.to_json()["type"] == "bid":
            want = type(want)(want.code, tuple(h for h in C.held(now, 0)))   # every counter "held"
            forged = want
        for i, n in C.CODEC.encode(now, 0, want):
            value += i * radix
            radix *= n
        if forged is not None:
            raise Forged
        return want

    with pytest.raises(Forged):
        R._drive(spec, R.parse_code(deal), ["greedy"], forge)
    assert forged is not None
    digits = R._b32(value)
    code = f"{head}.{R._grouped(digits)}.00{R._check(head, digits, '00')}"
    with pytest.raises(RecordError, match=r"could not be replayed \(you do not have \d+ wine, .* behind your") as e:
        read_result_code(code, ClassDeal(deal, ("greedy",)))
    assert "\n" not in str(e.value)


def test_key_harvest_record_files_count_with_their_code_and_edited_bots_are_refused():
    """A Key Harvest record file counts (with its result code); one whose bot move was removed is refused."""
    game = get_game("key-harvest")
    state = play(game.name, 11, "greedy", ("greedy",), student_seed=5)
    deal = ClassDeal(make_code(game.code_prefix, 11), ("greedy",))
    got = gather(files=[("kh.json", dumps(state.to_record()).encode())], expect=deal)
    assert [(r.score, r.code) for r in got.results] == [(state.scores()[0], result_code(state, ["greedy"]))]
    doc = json.loads(dumps(state.to_record()))
    bot_moves = [i for i, e in enumerate(doc["log"]) if e.get("player") == 1]
    doc["log"] = doc["log"][: bot_moves[0]] + doc["log"][bot_moves[0] + 1:]    # drop one bot move
    got = gather(files=[("kh.json", json.dumps(doc).encode())], expect=deal)
    assert not got.results and got.skipped[0].name == "kh.json"


def test_a_game_without_a_codec_whose_moves_are_not_all_listed_still_asks_for_the_record_file(monkeypatch):
    """The generic fallback: Key Harvest without its codec (bids not all listed) gives no code, with the reason."""
    spec = get_game("key-harvest")
    state = play(spec.name, 11, "greedy", ("greedy",), student_seed=5)
    monkeypatch.setattr(R, "codec_of", lambda s: R._Listed(s))
    with pytest.raises(R.Unpackable, match="record file"):
        result_code(state, ["greedy"])


def test_a_code_that_replays_to_another_game_here_is_refused(monkeypatch):
    """Bots changed since the code was made (another sheetkit version): the replay differs, refused, not miscounted."""
    code = good_code()
    spec = get_game("avenue")
    monkeypatch.setitem(spec.bots, "greedy", spec.bots["random"])
    with pytest.raises(RecordError, match="replays to another game"):
        read_result_code(code)
