"""Game records: versioned JSON that replays to the identical game, and refuses anything else with a clear path."""

from __future__ import annotations

import ast
import builtins
import copy
import inspect
import json
import pickle
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sheetkit.core.records as records_module
import sheetkit.core.schema as schema_module
from sheetkit.core.chance import MAX_SEED, derive_seed
from sheetkit.core.errors import RecordError
from sheetkit.core.play import play_out, step_table
from sheetkit.core.records import (
    FORMAT,
    MAX_BYTES,
    MAX_LOG,
    MAX_NAME,
    MAX_PLAYERS,
    VERSION,
    check_record,
    dumps,
    load_record,
    parse_json,
    replay,
    save_record,
)
from sheetkit.core.registry import all_games
from sheetkit.games.avenue import BOTS, PRESETS, AvenueParams, AvenueState, Deal, Draw, Peek, new_game
from sheetkit.games.avenue.cards import DEFAULT_DECK, build_deck

Doc = dict[str, Any]


def finished(seed: int = 5, players: int = 2, bot: str = "greedy", variant: str = "standard") -> AvenueState:
    """A finished Avenue game played with checked moves."""
    g = new_game(players, seed=seed, variant=variant)
    play_out(g, [BOTS[bot](seed=derive_seed(seed, "bot", p)) for p in range(players)])
    return g


@cache
def _finished_doc() -> str:
    return dumps(finished().to_record())


def good_doc() -> Doc:
    """A fresh copy of a finished two-player record, as read back from its JSON text."""
    return json.loads(_finished_doc())


def first_action_index(doc: Doc, player: int = 0) -> int:
    return next(i for i, e in enumerate(doc["log"]) if e.get("player") == player)


def roundtrip(state: Any) -> Any:
    return replay(json.loads(dumps(state.to_record())))


# ----- round trips ---------------------------------------------------------------------------


@pytest.mark.parametrize(("seed", "players", "bot", "variant"), [
    (1, 1, "greedy", "standard"), (2, 2, "random", "norise"), (3, 3, "greedy", "short"),
    (4, 4, "random", "gentle"), (5, 2, "greedy", "quick"), (MAX_SEED, 1, "random", "standard"),
])
def test_a_finished_game_replays_from_its_json_to_the_identical_state(seed: int, players: int, bot: str,
                                                                       variant: str) -> None:
    g = finished(seed, players, bot, variant)
    again = roundtrip(g)
    assert again.fingerprint() == g.fingerprint()
    assert again.scores() == g.scores() and again.is_terminal()
    assert [again.breakdown(p) for p in range(players)] == [g.breakdown(p) for p in range(players)]
    assert again.to_record() == g.to_record()


def test_a_record_is_versioned_and_names_its_game_deal_and_players() -> None:
    doc = good_doc()
    assert doc["format"] == FORMAT == "sheetkit-record" and doc["version"] == VERSION == 2
    assert doc["game"] == "avenue" and doc["players"] == ["You", "Player 2"]
    assert doc["seed"] == 5 and doc["code"] == "AV-0000-0005"
    assert AvenueParams.from_json(doc["params"]) == PRESETS["standard"]
    assert list(doc) == ["format", "version", "game", "params", "players", "seed", "code", "log"]


def test_the_log_holds_every_table_step_and_move_in_order() -> None:
    """docs/avenue.md §A round: 5 rounds, each a farm flip then road flips everyone acts on; then the end."""
    log = good_doc()["log"]
    assert log[0]["chance"] == "farm" and log[1]["chance"] == "road" and log[-1] == {"chance": "end"}
    assert sum(1 for e in log if e.get("chance") == "farm") == 5
    roads = sum(1 for e in log if e.get("chance") == "road")
    assert sum(1 for e in log if "player" in e) == 2 * roads  # both players act on every road card
    assert set().union(*map(set, log)) <= {"chance", "card", "player", "action"}


def test_a_game_in_progress_replays_and_then_continues_identically() -> None:
    g = new_game(["Ann", "Bob"], seed=77)
    bots = [BOTS["random"](seed=1), BOTS["random"](seed=2)]
    for _ in range(15):
        step_table(g)
        for p in g.current_players():
            g.apply(p, bots[p].act(g, p))
    g.apply_chance()
    again = roundtrip(g)
    assert again.fingerprint() == g.fingerprint() and not again.is_terminal()
    moves = [Draw(*divmod(i, 6)) for i in range(42)]
    for s in (g, again):
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_chance()
                continue
            for p in s.current_players():
                s.apply(p, next(m for m in moves if m in s.legal_actions(p)))
    assert again.fingerprint() == g.fingerprint()


def test_save_and_load_through_a_file(tmp_path: Path) -> None:
    g = finished(9, 2)
    path = save_record(g, tmp_path / "game.json")
    text = path.read_text("utf-8")
    assert text == dumps(g.to_record()) and text.endswith("}\n")
    assert text.count("\n    {") == len(g.log)  # one log entry per line: readable diffs
    doc = load_record(path)
    assert doc == g.to_record()
    assert replay(doc).fingerprint() == g.fingerprint()


def test_a_byte_order_mark_from_an_editor_is_accepted(tmp_path: Path) -> None:
    p = tmp_path / "bom.json"
    p.write_bytes(b"\xef\xbb\xbf" + _finished_doc().encode())
    assert replay(load_record(p)).fingerprint() == replay(good_doc()).fingerprint()


def test_a_fixed_deal_record_replays_and_has_no_seed_or_code() -> None:
    roads = tuple(sorted(build_deck(DEFAULT_DECK), key=lambda c: (c.number * 7) % 11))
    g = AvenueState(AvenueParams(), ["Ann", "Bob"], deal=Deal(tuple("CAFEBD"), roads))
    play_out(g, [BOTS["greedy"](seed=0), BOTS["greedy"](seed=1)])
    doc = json.loads(dumps(g.to_record()))
    assert "seed" not in doc and "code" not in doc
    assert doc["deal"] == {"farms": list("CAFEBD"), "roads": [c.code for c in roads]}
    assert doc["log"][0] == {"chance": "farm", "card": "C"} and doc["log"][1] == {"chance": "road",
                                                                                   "card": roads[0].code}
    assert replay(doc).fingerprint() == g.fingerprint()


def test_a_hand_written_record_may_leave_out_the_table_steps() -> None:
    """The cards come from the seed: a log of moves alone replays the same game."""
    g = finished(12, 2)
    doc = g.to_record()
    doc["log"] = [e for e in doc["log"] if "chance" not in e]
    again = replay(doc)
    step_table(again)
    assert again.fingerprint() == g.fingerprint()


def test_every_table_new_game_accepts_can_be_saved_and_replayed() -> None:
    """The biggest table and the longest names a record allows still round-trip."""
    g = new_game(["é" * MAX_NAME] * MAX_PLAYERS, seed=1)
    step_table(g)
    assert replay(json.loads(dumps(g.to_record()))).fingerprint() == g.fingerprint()


@pytest.mark.parametrize(("players", "words"), [
    (MAX_PLAYERS + 1, "takes 1 to 16 players"), (0, "takes 1 to 16 players"), ([], "takes 1 to 16 players"),
    (["x" * (MAX_NAME + 1)], "at most 60 characters"), (["Ann", 3], "at most 60 characters"),
])
def test_new_game_refuses_tables_a_record_could_not_hold(players: Any, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        new_game(players, seed=1)


# ----- envelope errors -----------------------------------------------------------------------

Mutation = Callable[[Doc], Any]


def setter(*path_and_value: Any) -> Mutation:
    *path, value = path_and_value

    def apply(doc: Doc) -> None:
        target = doc
        for k in path[:-1]:
            target = target[k]
        target[path[-1]] = copy.deepcopy(value)
    return apply


def deleter(key: str) -> Mutation:
    return lambda doc: doc.pop(key)


HOSTILE_LAYOUT = "../../etc/passwd"  # a layout name that tries to climb out: refused (not-a-repo-path)

ENVELOPE_ERRORS: list[tuple[str, Mutation, str, str]] = [
    ("format", setter("format", "sheetkit-save"), "record.format", "format must be 'sheetkit-record'"),
    ("format-type", setter("format", ["x"] * 500), "record.format", "format must be 'sheetkit-record'"),
    ("version-new", setter("version", 3), "record.version", "version 3 is not supported"),
    ("version-0", setter("version", 0), "record.version", "version 0 is not supported"),
    ("version-text", setter("version", "1"), "record.version", "expected a whole number, got a text"),
    ("version-bool", setter("version", True), "record.version", "expected a whole number, got true/false"),
    ("version-huge", setter("version", 10**300), "record.version", "out of range"),
    ("game-unknown", setter("game", "chess"), "record.game", "unknown game 'chess'; known games: avenue"),
    ("game-type", setter("game", {"name": "avenue"}), "record.game", "expected a text, got an object"),
    ("game-long", setter("game", "a" * 5000), "record.game", "text is too long"),
    ("no-log", deleter("log"), "record", "missing field 'log'"),
    ("no-params", deleter("params"), "record", "missing field 'params'"),
    ("typo", setter("seeed", 3), "record", "unknown field 'seeed'"),
    ("players-text", setter("players", "Ann"), "record.players", "expected a list, got a text"),
    ("players-none", setter("players", []), "record.players", "expected 1 to 16 items, got 0"),
    ("players-many", setter("players", ["x"] * 17), "record.players", "got 17"),
    ("player-name-type", setter("players", 1, 7), "record.players[1]", "expected a text, got a whole number"),
    ("player-name-long", setter("players", 0, "x" * 61), "record.players[0]", "text is too long"),
    ("seed-text", setter("seed", "5"), "record.seed", "expected a whole number, got a text"),
    ("seed-float", setter("seed", 5.0), "record.seed", "expected a whole number, got a decimal number"),
    ("seed-negative", setter("seed", -1), "record.seed", "-1 is out of range"),
    ("seed-huge", setter("seed", 10**40), "record.seed", "out of range (0 to 1099511627775)"),
    ("seed-and-deal", setter("deal", {"farms": [], "roads": []}), "record", "exactly one of 'seed' or 'deal'"),
    ("no-seed-no-deal", deleter("seed"), "record", "exactly one of 'seed' or 'deal'"),
    ("code-type", setter("code", 42), "record.code", "expected a text"),
    ("code-bad", setter("code", "not a code"), "record.code", "is not a game code"),
    ("code-other-seed", setter("code", "AV-0000-0006"), "record.code", "does not match"),
    ("code-other-variant", setter("code", "AV-0000-0005-NORISE"), "record.code", "does not match"),
    ("code-other-game", setter("code", "KM-0000-0005"), "record.code", "does not match"),
    ("meta-type", setter("meta", "hi"), "record.meta", "expected an object, got a text"),
    ("meta-field", setter("meta", {"evil": "x"}), "record.meta", "unknown field 'evil'"),
    ("meta-value", setter("meta", {"note": ["x"]}), "record.meta.note", "expected a text, got a list"),
    ("log-type", setter("log", {"0": {}}), "record.log", "expected a list, got an object"),
    ("params-type", setter("params", "standard"), "record.params", "expected an object, got a text"),
    ("params-typo", setter("params", "round", 3), "record.params", "unknown field 'round'"),
    ("params-rounds", setter("params", "rounds", 0), "record.params.rounds", "0 is out of range (1 to 6)"),
    ("params-rounds-many", setter("params", "rounds", 7), "record.params.rounds", "7 is out of range (1 to 6)"),
    ("params-rising", setter("params", "rising", "yes"), "record.params.rising", "expected true or false"),
    ("params-layout", setter("params", "layout", HOSTILE_LAYOUT), "record.params.layout", "is not one of"),
    ("params-deck", setter("params", "deck", {"1": [4, 3]}), "record.params.deck", "missing field '2'"),
    ("params-deck-huge", setter("params", "deck", "1", [10**9, 3]), "record.params.deck.1[0]", "out of range"),
]


@pytest.mark.parametrize(("mutate", "path", "words"), [e[1:] for e in ENVELOPE_ERRORS],
                         ids=[e[0] for e in ENVELOPE_ERRORS])
def test_envelope_errors_name_the_field_and_the_reason(mutate: Mutation, path: str, words: str) -> None:
    doc = good_doc()
    mutate(doc)
    with pytest.raises(RecordError) as e:
        replay(doc)
    assert e.value.path == path
    assert str(e.value).startswith(f"{path}: ")
    assert words in e.value.reason
    assert len(str(e.value)) < 300 and "\n" not in str(e.value)


@pytest.mark.parametrize("value", [None, [], "record", 3, 2.5, True, [good_doc()]])
def test_a_record_must_be_an_object(value: Any) -> None:
    with pytest.raises(RecordError, match=r"^record: expected an object"):
        replay(value)


# ----- huge, broken and hostile JSON -----------------------------------------------------------


@pytest.mark.parametrize(("text", "words"), [
    ("", "not valid JSON"),
    ("{", "not valid JSON"),
    ("{'format': 'sheetkit-record'}", "not valid JSON"),
    ("9" * 5000, "a number with 5,000 digits is far too large"),  # not Python's int-limit jargon
    ("[" * 100_000 + "]" * 100_000, "not valid JSON"),  # nesting too deep
    ('{"seed": NaN}', "NaN is not allowed"),
    ('{"seed": Infinity}', "Infinity is not allowed"),
    ('{"seed": -Infinity}', "-Infinity is not allowed"),
    (" " * (MAX_BYTES + 1), "too large"),
])
def test_broken_or_huge_json_is_refused_in_plain_words(text: str, words: str) -> None:
    with pytest.raises(RecordError) as e:
        parse_json(text)
    assert words in str(e.value) and len(str(e.value)) < 300


def test_a_huge_number_in_a_valid_json_text_is_out_of_range() -> None:
    text = _finished_doc().replace('"seed": 5', '"seed": ' + "9" * 25, 1)
    with pytest.raises(RecordError, match=r"^record\.seed: 9+… is out of range") as e:
        replay(parse_json(text))
    assert len(str(e.value)) < 120


def test_a_number_of_thousands_of_digits_is_refused_while_reading() -> None:
    text = _finished_doc().replace('"seed": 5', '"seed": ' + "9" * 4000, 1)
    with pytest.raises(RecordError, match=r"^a number with 4,000 digits is far too large for a record$"):
        parse_json(text)


@pytest.mark.parametrize("name", ["\x1b[31mEvil", "bell\x07", "nul\x00", "c1\x9b2J"])
def test_control_characters_in_names_are_refused(name: str) -> None:
    """A record's texts reach terminals (CLI replay) and pages: escape sequences never get through."""
    doc = good_doc()
    doc["players"][0] = name
    with pytest.raises(RecordError) as e:
        replay(doc)
    assert e.value.path == "record.players[0]" and "control character" in e.value.reason


def test_a_float_that_overflows_is_not_a_seed() -> None:
    with pytest.raises(RecordError, match=r"^record\.seed: expected a whole number, got a decimal number"):
        replay(parse_json(_finished_doc().replace('"seed": 5', '"seed": 1e999', 1)))


def test_a_log_longer_than_any_game_is_refused_before_replaying() -> None:
    doc = good_doc()
    doc["log"] = [{"player": 0, "action": {"type": "peek"}}] * (MAX_LOG + 1)
    with pytest.raises(RecordError, match=rf"^record\.log: expected 0 to {MAX_LOG} items"):
        check_record(doc)


@pytest.mark.parametrize(("content", "words"), [
    (None, "cannot read"),
    (b"", "not valid JSON"),
    (b"\x80\x81\xfe\xff\x00garbage", "not a text (UTF-8) file"),
    (pickle.dumps({"format": "sheetkit-record"}), "not a text (UTF-8) file"),
    (b"x" * (MAX_BYTES + 10), "too large"),
    (b'{"format": "sheetkit-record"}', "missing field"),
])
def test_load_record_refuses_bad_files_with_a_record_error(tmp_path: Path, content: bytes | None, words: str) -> None:
    p = tmp_path / "r.json"
    if content is not None:
        p.write_bytes(content)
    with pytest.raises(RecordError) as e:
        load_record(p)
    assert words in str(e.value)


def test_load_record_refuses_a_folder_and_an_endless_device(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="folder"):
        load_record(tmp_path)
    if Path("/dev/zero").exists():  # read boundedly: never to the end of an endless file
        with pytest.raises(RecordError, match="too large"):
            load_record("/dev/zero")


# ----- the game's own data: cells, cards, moves, table steps --------------------------------------


def with_action(index_offset: int, action: Any, player: int = 0) -> Mutation:
    """Replace the player's first move after ``index_offset`` moves with ``action``."""
    def apply(doc: Doc) -> None:
        moves = [i for i, e in enumerate(doc["log"]) if e.get("player") == player]
        doc["log"][moves[index_offset]]["action"] = action
    return apply


def drawn_cell(doc: Doc, k: int) -> dict[str, Any]:
    return [e["action"] for e in doc["log"] if e.get("player") == 0 and e["action"]["type"] == "draw"][k]


def test_a_cell_off_the_grid_is_refused_naming_the_step_and_the_sheet_size() -> None:
    for row, col in [(7, 0), (0, 6), (-1, 2), (1000, 1000)]:
        doc = good_doc()
        i = first_action_index(doc)
        doc["log"][i]["action"] = {"type": "draw", "row": row, "col": col}
        with pytest.raises(RecordError) as e:
            replay(doc)
        assert e.value.path == f"record.log[{i}]"
        assert f"cell ({row}, {col}) is off the sheet (rows 0–6, columns 0–5)" in str(e.value)
        assert "player 0 cannot do that" in str(e.value)


@pytest.mark.parametrize(("action", "path_tail", "words"), [
    ({"type": "draw", "row": 10**12, "col": 0}, ".action.row", "out of range"),
    ({"type": "draw", "row": "3", "col": 0}, ".action.row", "expected a whole number, got a text"),
    ({"type": "draw", "row": 3}, ".action", "missing field 'col'"),
    ({"type": "draw", "row": 3, "col": 1, "colour": "red"}, ".action", "unknown field 'colour'"),
    ({"type": "build", "row": 3, "col": 1}, ".action.type", "'build' is not one of"),
    ({"type": "teleport-anywhere", "row": 3}, ".action.type", "'teleport-anywhere' is not one of"),
    ({"type": "peek", "extra": 1}, ".action", "unknown field 'extra'"),
    ([3, 1], ".action", "an action must be an object"),
    ("draw", ".action", "an action must be an object"),
])
def test_malformed_actions_name_their_path(action: Any, path_tail: str, words: str) -> None:
    doc = good_doc()
    i = first_action_index(doc)
    doc["log"][i]["action"] = action
    with pytest.raises(RecordError) as e:
        replay(doc)
    assert e.value.path == f"record.log[{i}]{path_tail}"
    assert words in e.value.reason


@pytest.mark.parametrize(("entry", "path_tail", "words"), [
    ({"player": 2, "action": {"type": "peek"}}, ".player", "2 is out of range (0 to 1)"),
    ({"player": -1, "action": {"type": "peek"}}, ".player", "-1 is out of range"),
    ({"player": "0", "action": {"type": "peek"}}, ".player", "expected a whole number, got a text"),
    ({"player": 0}, "", "missing field 'action'"),
    ({"action": {"type": "peek"}}, "", "missing field 'player'"),
    ({"player": 0, "action": {"type": "peek"}, "time": 3}, "", "unknown field 'time'"),
    ([0, "peek"], "", "each log entry must be an object"),
    ("player 0 peeks", "", "each log entry must be an object"),
])
def test_malformed_log_entries_name_their_index(entry: Any, path_tail: str, words: str) -> None:
    doc = good_doc()
    i = first_action_index(doc)
    doc["log"][i] = entry
    with pytest.raises(RecordError) as e:
        replay(doc)
    assert e.value.path == f"record.log[{i}]{path_tail}" and words in e.value.reason


def test_an_illegal_move_in_the_log_names_the_step_and_the_reason() -> None:
    """docs/avenue.md §Drawing a road: a road goes in an EMPTY cell — drawing twice in one cell is refused."""
    doc = good_doc()
    moves = [i for i, e in enumerate(doc["log"]) if e.get("player") == 0 and e["action"]["type"] == "draw"]
    first = doc["log"][moves[0]]["action"]
    doc["log"][moves[3]]["action"] = dict(first)
    with pytest.raises(RecordError) as e:
        replay(doc)
    assert e.value.path == f"record.log[{moves[3]}]"
    assert e.value.reason == (f"player 0 cannot do that: the cell at row {first['row'] + 1}, col {first['col'] + 1} "
                              "already has a road")


def test_peeking_twice_in_a_round_is_refused_in_a_record() -> None:
    """docs/avenue.md §Peeking: at most one peek per round per player."""
    g = new_game(1, seed=3)
    step_table(g)
    g.apply(0, Peek())
    step_table(g)
    doc = g.to_record()
    doc["log"].append({"player": 0, "action": {"type": "peek"}})
    with pytest.raises(RecordError) as e:
        replay(doc)
    assert e.value.path == f"record.log[{len(doc['log']) - 1}]"
    assert "you have already peeked this round" in e.value.reason


def test_acting_twice_on_one_card_is_refused_in_a_record() -> None:
    """docs/avenue.md §A round: for each card every player does ONE thing."""
    g = new_game(2, seed=3)
    step_table(g)
    doc = g.to_record()
    doc["log"] += [{"player": 0, "action": {"type": "draw", "row": 0, "col": 0}},
                   {"player": 0, "action": {"type": "draw", "row": 0, "col": 1}}]
    with pytest.raises(RecordError, match=r"^record\.log\[3\]: player 0 cannot do that: you have already acted"):
        replay(doc)


def test_passing_is_refused_while_the_sheet_has_room() -> None:
    doc = good_doc()
    with_action(0, {"type": "pass"})(doc)
    with pytest.raises(RecordError, match="you can only pass when your sheet is full"):
        replay(doc)


def test_moves_after_the_end_are_refused() -> None:
    doc = good_doc()
    doc["log"].append({"player": 0, "action": {"type": "peek"}})
    with pytest.raises(RecordError, match=rf"^record\.log\[{len(doc['log']) - 1}\]: .*the game is over"):
        replay(doc)


@pytest.mark.parametrize("which", ["farm", "road"])
def test_a_table_step_that_disagrees_with_the_seed_is_refused(which: str) -> None:
    doc = good_doc()
    i, entry = next((i, e) for i, e in enumerate(doc["log"]) if e.get("chance") == which)
    entry["card"] = {"farm": {"A": "B"}.get(entry["card"], "A"), "road": "6G" if entry["card"] != "6G" else "1Y"}[which]
    with pytest.raises(RecordError) as e:
        replay(doc)
    assert e.value.path == f"record.log[{i}].card"  # the field that differs, with both values
    assert f"the record says {json.dumps(entry['card'])} but the deal gives" in e.value.reason


@pytest.mark.parametrize(("mutate", "words"), [
    (lambda log: log.insert(next(i for i, e in enumerate(log) if "player" in e), {"chance": "road", "card": "1Y"}),
     "out of order (players still have to act)"),
    (lambda log: log.append({"chance": "end"}), "out of order"),
    (lambda log: log.__setitem__(0, {"chance": "end"}), "the deal gives"),
    (lambda log: log.__setitem__(0, {"chance": "farm", "card": log[0]["card"], "extra": 1}), "the deal gives"),
    (lambda log: log.__setitem__(0, {"chance": [[[[[[]]]]]]}), "the deal gives"),
])
def test_table_steps_out_of_place_are_refused(mutate: Callable[[list[Any]], Any], words: str) -> None:
    doc = good_doc()
    mutate(doc["log"])
    with pytest.raises(RecordError, match=r"^record\.log\[\d+\]: ") as e:
        replay(doc)
    assert words in e.value.reason


# ----- fixed deals -------------------------------------------------------------------------------


def deal_doc() -> Doc:
    g = AvenueState(AvenueParams(), ["Ann"], deal=Deal(tuple("ABCDEF"), tuple(build_deck(DEFAULT_DECK))))
    step_table(g)
    g.apply(0, Draw(0, 0))
    return json.loads(dumps(g.to_record()))


@pytest.mark.parametrize(("mutate", "path", "words"), [
    (setter("deal", "roads", 0, "7Y"), "record.deal.roads[0]", "'7Y' is not a road card"),
    (setter("deal", "roads", 0, "3y"), "record.deal.roads[0]", "'3y' is not a road card"),
    (setter("deal", "roads", 0, "6G"), "record.deal.roads", "wrong card counts: 3 × 1Y, the deck has 4"),
    (setter("deal", "roads", ["1Y"] * 42), "record.deal.roads", "wrong card counts"),
    (lambda d: d["deal"]["roads"].pop(), "record.deal.roads", "expected exactly 42 items, got 41"),
    (lambda d: d["deal"]["roads"].append("1Y"), "record.deal.roads", "expected exactly 42 items, got 43"),
    (setter("deal", "farms", 0, "B"), "record.deal.farms", "each of A, B, C, D, E, F exactly once"),
    (setter("deal", "farms", 0, "G"), "record.deal.farms[0]", "'G' is not one of"),
    (lambda d: d["deal"]["farms"].pop(), "record.deal.farms", "expected exactly 6 items, got 5"),
    (setter("deal", "shuffle", True), "record.deal", "unknown field 'shuffle'"),
    (setter("deal", "order"), "record.deal", "expected an object, got a text"),
    (setter("code", "AV-0000-0000"), "record.code", "fixed deal"),
    (lambda d: d["log"].__setitem__(1, {"chance": "road", "card": "6G"}), "record.log[1].card", "the deal gives"),
])
def test_fixed_deals_with_wrong_or_unknown_cards_are_refused(mutate: Mutation, path: str, words: str) -> None:
    doc = deal_doc()
    assert replay(copy.deepcopy(doc)).log == doc["log"]
    mutate(doc)
    with pytest.raises(RecordError) as e:
        replay(doc)
    assert e.value.path == path and words in e.value.reason


def test_a_road_card_of_the_wrong_type_names_its_path_once() -> None:
    doc = deal_doc()
    doc["deal"]["roads"][0] = 3
    with pytest.raises(RecordError) as e:
        replay(doc)
    assert str(e.value) == "record.deal.roads[0]: expected a text, got a whole number"


# ----- records are data, never code ------------------------------------------------------------


@pytest.mark.parametrize("mutate", [
    setter("__reduce__", ["os.system", ["echo pwned"]]),
    setter("params", "__class__", "subprocess.Popen"),
    setter("log", 0, "__reduce__", "os.system"),
    setter("game", "__import__('os').system('echo pwned')"),
    setter("version", "__import__('os').getpid()"),
    setter("meta", {"__builtins__": "eval"}),
    setter("params", "layout", "__import__('os')"),
])
def test_code_shaped_content_is_refused_as_plain_data(mutate: Mutation, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    doc = good_doc()
    mutate(doc)
    with pytest.raises(RecordError):
        replay(doc)
    assert list(tmp_path.iterdir()) == []


def test_code_in_names_and_notes_is_kept_verbatim_and_never_run(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_a: Any, **_k: Any) -> None:
        raise AssertionError("a record must never execute or unpickle anything")

    for name in ("eval", "exec", "compile"):
        monkeypatch.setattr(builtins, name, refuse)
    monkeypatch.setattr(pickle, "loads", refuse)
    monkeypatch.setattr(pickle, "load", refuse)
    doc = good_doc()
    doc["players"] = ["__import__('os').system('rm -rf ~')", "{{7*7}} ${jndi:x}"]
    doc["meta"] = {"note": "exec(open('evil.py').read())", "by": "cos\nsystem\n(S'ls'\ntR."}
    state = replay(json.loads(json.dumps(doc)))
    assert state.players == doc["players"]
    assert state.breakdown(0)["player"] == "__import__('os').system('rm -rf ~')"


FORBIDDEN_MODULES = {"pickle", "cPickle", "marshal", "shelve", "dill", "yaml", "importlib", "subprocess", "os"}
FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__", "globals", "locals", "setattr"}


@pytest.mark.parametrize("module", [records_module, schema_module], ids=lambda m: m.__name__)
def test_the_record_reader_imports_no_deserialiser_and_calls_no_eval(module: Any) -> None:
    tree = ast.parse(inspect.getsource(module))
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {(node.module or "").split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not imported & FORBIDDEN_MODULES
    calls = {node.func.id for node in ast.walk(tree) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}
    assert not calls & FORBIDDEN_CALLS
    if module is records_module:
        assert "json" in imported  # records are read with the json module, and only with it


# ----- fuzzing: whatever the JSON, only RecordError -----------------------------------------------

KEYS = ["format", "version", "game", "params", "players", "seed", "deal", "code", "log", "meta", "player",
        "action", "type", "row", "col", "chance", "card", "farms", "roads", "rounds", "layout", "deck", "dice",
        "criteria", "q", "r", "terrain", "die", "delta", "criterion"]
WORDS = ["sheetkit-record", "avenue", "kingdom-maps", "draw", "peek", "pass", "farm", "road", "end", "roll",
         "announce", "pick", "place", "bank", "power", "A", "F", "3Y", "6G", "default", "AV-0000-0005"]
leaves = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.integers(-3, 8),
                   st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=10), st.sampled_from(WORDS))
json_values = st.recursive(
    leaves, lambda kids: st.one_of(st.lists(kids, max_size=5),
                                   st.dictionaries(st.one_of(st.sampled_from(KEYS), st.text(max_size=6)), kids,
                                                   max_size=6)),
    max_leaves=25)


def only_record_errors(doc: Any) -> None:
    try:
        state = replay(doc)
    except RecordError as e:
        assert str(e) and "\n" not in str(e)
    else:
        assert state.fingerprint() == replay(json.loads(json.dumps(state.to_record()))).fingerprint()


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_random_json_values_only_ever_raise_record_error(doc: Any) -> None:
    only_record_errors(doc)


@settings(max_examples=300, deadline=None)
@given(st.fixed_dictionaries({"format": st.just(FORMAT), "version": st.just(VERSION),
                              "game": st.sampled_from(["avenue", "kingdom-maps"])},
                             optional={k: json_values for k in ["params", "players", "seed", "deal", "code", "log",
                                                                "meta"]}))
def test_random_record_shaped_documents_only_ever_raise_record_error(doc: Doc) -> None:
    only_record_errors(doc)


@cache
def _sample_records() -> tuple[str, ...]:
    out = []
    for spec in all_games():
        for players, seed in [(1, 3), (2, 4)]:
            players = max(players, spec.min_players)  # games of 2+ players (Key Harvest) play 2 twice
            s = spec.new_state(spec.default_params(), players, seed=seed)
            play_out(s, [spec.bots["random"](seed=derive_seed(seed, "bot", p)) for p in range(players)])
            out.append(dumps(s.to_record()))
    out.append(json.dumps(deal_doc()))
    return tuple(out)


def _paths(v: Any, pre: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [pre]
    if isinstance(v, dict):
        for k, x in v.items():
            out += _paths(x, (*pre, k))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            out += _paths(x, (*pre, i))
    return out


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_real_records_only_ever_raise_record_error(data: st.DataObject) -> None:
    """Take a real record (either game) and replace or delete a few random parts of it."""
    doc = json.loads(data.draw(st.sampled_from(_sample_records())))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_paths(doc)))
        if not path:
            continue
        target = doc
        for k in path[:-1]:
            target = target[k]
        if isinstance(target, dict) and data.draw(st.booleans()):
            del target[path[-1]]
        else:
            target[path[-1]] = data.draw(json_values)
    only_record_errors(doc)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=60), st.binary(max_size=60).map(lambda b: b.decode("latin-1"))))
def test_random_text_only_ever_raises_record_error_when_parsed(text: str) -> None:
    try:
        value = parse_json(text)
    except RecordError:
        return
    only_record_errors(value)
