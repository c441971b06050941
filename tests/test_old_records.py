"""Records written by an older sheetkit still load and replay to the same game (one golden record per game).

``tests/data/records_v1/<game>.json`` are finished games saved as record version 1 by sheetkit at commit
cafd8c5 (before Key Harvest's setup step logged the blind counters); ``expected.json`` holds what that sheetkit
computed for each: scores, placings, the number of log entries and a hash of the final state (its fingerprint
without the log), and the counters Key Harvest's seed dealt. Never regenerate these files: they stand for the
records people already saved.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from sheetkit.core.records import VERSION, dumps, load_record, parse_json, replay
from sheetkit.core.registry import all_games, get_game

DATA = Path(__file__).parent / "data" / "records_v1"
EXPECTED = json.loads((DATA / "expected.json").read_text("utf-8"))


def state_hash(state) -> str:
    """The final state without its log (a replay writes the log in today's form)."""
    fp = json.loads(state.fingerprint())
    fp.pop("log")
    return hashlib.sha256(json.dumps(fp, sort_keys=True).encode()).hexdigest()[:16]


def test_there_is_an_old_record_for_every_game() -> None:
    assert sorted(EXPECTED) == sorted(spec.name for spec in all_games())
    assert VERSION > 1  # the golden files are older than what sheetkit writes now


@pytest.mark.parametrize("game", sorted(EXPECTED))
def test_an_old_record_replays_to_the_same_game(game: str) -> None:
    """A version 1 record loads, replays to the state the old sheetkit reached (scores, placings, every field),
    and its log is today's log as version 1 wrote it."""
    doc = load_record(DATA / f"{game}.json")
    assert doc["version"] == 1 and doc["game"] == game
    want = EXPECTED[game]
    state = replay(doc)
    assert state.is_terminal()
    assert state.scores() == want["scores"] and state.placings() == want["placings"]
    assert state_hash(state) == want["state"]
    assert len(doc["log"]) == len(state.log) == want["moves"]
    spec = get_game(game)
    written = [spec.step_in(e, 1) if spec.step_in and "chance" in e else e for e in state.log]
    assert written == doc["log"]


@pytest.mark.parametrize("game", sorted(EXPECTED))
def test_an_old_record_saved_again_is_a_new_record_of_the_same_game(game: str) -> None:
    """Saving a replayed old record writes today's version, which replays to the identical state."""
    old = replay(load_record(DATA / f"{game}.json"))
    doc = parse_json(dumps(old.to_record()))
    assert doc["version"] == VERSION
    again = replay(doc)
    assert again.fingerprint() == old.fingerprint() and state_hash(again) == EXPECTED[game]["state"]


def test_an_old_key_harvest_record_gains_its_setup_counters_when_saved_again() -> None:
    """docs/key_harvest.md §Setup — the counters the old record's seed dealt are the ones its new form logs."""
    old = replay(load_record(DATA / "key-harvest.json"))
    setup = old.to_record()["log"][0]
    assert setup["chance"] == "setup" and setup["counters"] == EXPECTED["key-harvest"]["setup_counters"]
