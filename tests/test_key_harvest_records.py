"""Key Harvest records: round trip, game codes, and malformed records refused with a one-line reason."""

from __future__ import annotations

import copy
import json

import pytest

from sheetkit.core.errors import RecordError
from sheetkit.core.play import play_out
from sheetkit.core.records import dumps, parse_json, replay
from sheetkit.games.key_harvest import BOTS, KeyHarvestParams, new_game, parse_action


@pytest.fixture(scope="module")
def record():
    s = new_game(3, seed=21)
    play_out(s, [BOTS["greedy"](seed=p) for p in range(3)])
    return s, s.to_record()


def test_round_trip_through_text(record):
    """A finished game's record replays to the same state and scores."""
    s, doc = record
    again = replay(parse_json(dumps(doc)))
    assert again.fingerprint() == s.fingerprint() and again.scores() == s.scores() and again.is_terminal()
    assert doc["game"] == "key-harvest" and doc["code"] == "KH-0000-000N" and doc["seed"] == 21


def test_game_codes():
    """Game codes: KH prefix, presets ride along; other games' codes are refused."""
    assert new_game(2, seed=5).game_code() == "KH-0000-0005"
    assert new_game(2, code="kh-0000-0005-quick").params == KeyHarvestParams(end_event=6, final_turns=1)
    assert new_game(2, seed=5, params=KeyHarvestParams(counters_per_point=4)).game_code() is None
    with pytest.raises(RecordError, match="another game"):
        new_game(2, code="AV-0000-0005")


def mutate(doc, fn):
    d = copy.deepcopy(doc)
    fn(d)
    return d


def _set(path, value):
    def fn(d):
        target = d
        for k in path[:-1]:
            target = target[k]
        target[path[-1]] = value
    return fn


def _first_action(doc, kind):
    return next(i for i, e in enumerate(doc["log"]) if "action" in e and e["action"]["type"] == kind)


BAD = [
    ("players-1", lambda d: d.__setitem__("players", ["Solo"]), "takes 2 to 4 players"),
    ("params", _set(["params"], {"counters_per_point": 0}), "out of range"),
    ("params-unknown", _set(["params"], {"keys": 3}), "unknown field 'keys'"),
    ("deal", lambda d: (d.pop("seed"), d.__setitem__("deal", {})), "no fixed deal"),
    ("code", _set(["code"], "KH-0000-0006"), "does not match"),
]


@pytest.mark.parametrize("name,fn,words", BAD, ids=[b[0] for b in BAD])
def test_malformed_envelopes_are_refused(record, name, fn, words):
    """Malformed records fail with one plain line naming the problem."""
    _, doc = record
    with pytest.raises(RecordError) as e:
        replay(mutate(doc, fn))
    assert words in str(e.value) and "\n" not in str(e.value)


def test_malformed_log_entries_are_refused(record):
    """Bad moves: unknown type, bad fields, impossible moves, tampered table steps — one line each."""
    _, doc = record
    k = _first_action(doc, "bid")
    cases = [
        (_set(["log", k, "action"], {"type": "steal"}), "is not one of"),
        (_set(["log", k, "action", "counters"], [1, 0, 0]), "expected exactly 5 items"),
        (_set(["log", k, "action", "counters"], [0, 0, 0, 0, 0]), "at least one counter"),
        (_set(["log", k, "action", "counters"], [40, 0, 0, 0, 0]), "do not have"),
        (_set(["log", k, "action", "code"], "Q9"), "no space"),
        (_set(["log", k, "player"], 9), "out of range"),
        (_set(["log", 0], {"chance": "setup", "pairs": [], "counters": [[3, 0, 0, 0, 0]] * 3, "registry": [],
                           "start": 0}), "the record says"),
        (_set(["log", k, "action"], {"type": "choose", "value": "wine"}), "nothing to choose"),
    ]
    for fn, words in cases:
        with pytest.raises(RecordError) as e:
            replay(mutate(doc, fn))
        assert words in str(e.value) and "\n" not in str(e.value), (words, str(e.value))
        assert "record.log[" in str(e.value)


def test_parse_action_round_trip():
    """Every move kind reads back from its own JSON."""
    s = new_game(3, seed=1)
    seen = set()
    s.apply_chance()
    for a in s.legal_actions(s.active):
        assert parse_action(json.loads(json.dumps(a.to_json()))) == a
        seen.add(a.to_json()["type"])
    assert {"harvest", "place", "bid", "end"} <= seen
    from sheetkit.games.key_harvest import Choose

    assert parse_action({"type": "choose", "value": "C4", "counters": [1, 1, 1, 0, 0]}) == Choose("C4", (1, 1, 1, 0, 0))
    with pytest.raises(RecordError):
        parse_action({"type": "bid", "code": "C4", "counters": [1, 0, 0, 0, True]})


def test_the_setup_step_logs_each_players_blind_counters(record):
    """docs/key_harvest.md §Setup — the record's setup step says which counters each player drew blind, so the
    record alone accounts for every counter: the stock after setup is 12 of each crop minus those."""
    _, doc = record
    setup = doc["log"][0]
    fresh = new_game(3, seed=21)
    fresh.apply_chance()
    assert setup["chance"] == "setup" and setup["counters"] == [list(c) for c in fresh.counters]
    assert all(sum(c) == 3 for c in setup["counters"]) and doc["version"] == 2
    assert list(fresh.stock) == [12 - sum(c[k] for c in setup["counters"]) for k in range(5)]


def _other_draw(drawn):
    """Three counters, not the ones drawn."""
    return [0, 0, 0, 0, 3] if drawn == [3, 0, 0, 0, 0] else [3, 0, 0, 0, 0]


COUNTER_CASES = [
    ("another-draw", lambda d: d["log"][0]["counters"].__setitem__(1, _other_draw(d["log"][0]["counters"][1])),
     "record.log[0].counters[1]", "the record says [", "but the deal gives ["),
    ("missing", lambda d: d["log"][0].pop("counters"), "record.log[0]", "missing field 'counters'", ""),
    ("players", lambda d: d["log"][0]["counters"].pop(), "record.log[0].counters", "expected exactly 3 items, got 2",
     ""),
    ("crops", lambda d: d["log"][0]["counters"][2].pop(), "record.log[0].counters[2]", "expected exactly 5 items", ""),
    ("sum", _set(["log", 0, "counters", 2], [1, 1, 1, 1, 1]), "record.log[0].counters[2]",
     "each player draws 3 counters at setup; player 2 has 5", ""),
    ("text", _set(["log", 0, "counters", 0, 0], "2"), "record.log[0].counters[0][0]", "expected a whole number", ""),
    ("negative", _set(["log", 0, "counters", 0, 0], -1), "record.log[0].counters[0][0]", "out of range", ""),
    ("version-1", _set(["version"], 1), "record.log[0].counters", "a version 1 record has no setup counters", ""),
]


@pytest.mark.parametrize("name,fn,path,words,more", COUNTER_CASES, ids=[c[0] for c in COUNTER_CASES])
def test_setup_counters_that_disagree_with_the_seed_or_the_schema_are_refused(record, name, fn, path, words, more):
    """docs/key_harvest.md §Records — the seed deals the blind counters; the logged ones must be that deal, in
    shape (a list of 5 crop counts per player, adding up to 3) and in value: a mismatch is refused, naming
    the player."""
    _, doc = record
    with pytest.raises(RecordError) as e:
        replay(mutate(doc, fn))
    assert e.value.path == path and words in e.value.reason and more in e.value.reason, str(e.value)


def test_a_version_1_record_without_counters_still_replays(record):
    """docs/key_harvest.md §Records — an older record's setup step (no counters) replays to the same game."""
    s, doc = record
    old = mutate(doc, lambda d: (d.__setitem__("version", 1), d["log"][0].pop("counters")))
    again = replay(old)
    assert again.fingerprint() == s.fingerprint()
