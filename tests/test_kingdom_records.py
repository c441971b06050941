"""Kingdom Maps records, deals, game codes, determinism and the command line."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest

from sheetkit.cli import main as cli_main
from sheetkit.core.chance import derive_seed
from sheetkit.core.errors import RecordError
from sheetkit.core.play import play_out
from sheetkit.core.records import dumps, load_record, replay, save_record
from sheetkit.games.kingdom_maps import (
    BOTS,
    PRESETS,
    SPEC,
    Deal,
    GreedyBot,
    KingdomParams,
    KingdomState,
    RandomBot,
    new_game,
    parse_action,
    parse_deal,
)


def played(players: int = 2, seed: int = 7, bot: str = "random", params: KingdomParams | None = None) -> KingdomState:
    """A finished game played with checked moves."""
    state = KingdomState(params or KingdomParams(), players, seed=seed)
    play_out(state, [BOTS[bot](seed=derive_seed(seed, "bot", p)) for p in range(players)])
    return state


@pytest.mark.parametrize(("players", "bot"), [(1, "random"), (2, "greedy"), (3, "random"), (4, "greedy")])
def test_records_replay_to_the_same_state(players: int, bot: str) -> None:
    """docs/kingdom_maps.md §Setup: a game is its setup + its log; replaying the record rebuilds it exactly."""
    state = played(players, seed=players * 13, bot=bot)
    doc = json.loads(dumps(state.to_record()))
    assert doc["game"] == "kingdom-maps" and doc["code"].startswith("KM-")
    assert doc["log"][0]["chance"] == "criteria" and doc["log"][-1] == {"chance": "end"}
    again = replay(doc)
    assert again.fingerprint() == state.fingerprint() and again.scores() == state.scores()


def test_a_deal_record_replays_and_can_continue_from_a_seed() -> None:
    """Records may fix the criteria and the dice (a deal); with a seed in the deal the game rolls on after them."""
    deal = Deal(("A3", "A4", "B2", "B6"), (1, 3, 4, 6, 6, 2), seed=42)
    state = KingdomState(KingdomParams(), ["Ann", "Bob"], deal=deal)
    play_out(state, [RandomBot(1), RandomBot(2)])
    assert state.log[1] == {"chance": "roll", "dice": [1, 3, 4]} and state.log[0]["criteria"] == list(deal.criteria)
    doc = state.to_record()
    assert doc["deal"] == {"criteria": ["A3", "A4", "B2", "B6"], "dice": [1, 3, 4, 6, 6, 2], "seed": 42}
    assert "seed" not in doc and "code" not in doc
    assert replay(json.loads(json.dumps(doc))).fingerprint() == state.fingerprint()


def test_a_hand_written_record_may_leave_out_the_table_steps() -> None:
    """Records: rolls come from the deal when a lesson's record lists only the moves."""
    doc = {"format": "sheetkit-record", "version": 1, "game": "kingdom-maps", "params": {}, "players": ["You"],
           "deal": {"criteria": ["A1", "B1"], "dice": [3, 5, 2, 4, 1]},
           "log": [{"player": 0, "action": {"type": "announce", "terrain": 1, "die": 3}},
                   {"player": 0, "action": {"type": "place", "q": 0, "r": -4}},
                   {"player": 0, "action": {"type": "place", "q": 1, "r": -4}},
                   {"player": 0, "action": {"type": "place", "q": 2, "r": -4}}]}
    state = replay(doc)
    assert state.criterion_scores(0) == {"A1": 6, "B1": 0} and state.next_table_step() == "roll2"


def test_seeded_games_are_deterministic_and_seeds_differ() -> None:
    """Seeded determinism: the same seed and bots give the same game; another seed gives another."""
    a, b, c = played(2, seed=5, bot="greedy"), played(2, seed=5, bot="greedy"), played(2, seed=6, bot="greedy")
    assert a.fingerprint() == b.fingerprint()
    assert a.fingerprint() != c.fingerprint()


def test_replay_is_deterministic_across_processes(tmp_path) -> None:
    """Seeded determinism: another Python process replays a saved record to the same fingerprint."""
    state = played(3, seed=21, bot="greedy")
    path = save_record(state, tmp_path / "km.json")
    code = ("import hashlib, sys, sheetkit.games.kingdom_maps; from sheetkit.core.records import load_record, replay;"
            "s = replay(load_record(sys.argv[1])); print(hashlib.sha256(s.fingerprint().encode()).hexdigest())")
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True)
    import hashlib

    assert out.stdout.strip() == hashlib.sha256(state.fingerprint().encode()).hexdigest()
    play = ("import sys, sheetkit.games.kingdom_maps as km; from sheetkit.core.play import play_out;"
            "s = km.KingdomState(km.KingdomParams(), 2, seed=77); play_out(s, [km.GreedyBot(), km.RandomBot(3)]);"
            "print(s.scores(), len(s.log))")
    runs = {subprocess.run([sys.executable, "-c", play], capture_output=True, text=True, check=True).stdout
            for _ in range(2)}
    here = KingdomState(KingdomParams(), 2, seed=77)
    play_out(here, [GreedyBot(), RandomBot(3)])
    assert runs == {f"{here.scores()} {len(here.log)}\n"}


def base_doc() -> dict:
    """A small valid record to break in different ways."""
    return played(2, seed=3).to_record()


def _set(doc: dict, path: list, value) -> dict:
    d = copy.deepcopy(doc)
    node = d
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    return d


def _first_place(doc: dict) -> int:
    return next(i for i, e in enumerate(doc["log"]) if e.get("action", {}).get("type") == "place")


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: _set(d, ["params", "uses"], 0), r"record\.params\.uses: 0 is out of range"),
    (lambda d: _set(d, ["params", "map"], "atlantis"), r"record\.params\.map: 'atlantis' is not one of"),
    (lambda d: _set(d, ["params", "criteria"], ["A1", "A1"]), "a criterion is listed twice"),
    (lambda d: _set(d, ["params", "criteria"], ["C1"]), r"'C1' is not one of"),
    (lambda d: _set(d, ["params", "colour"], True), "unknown field 'colour'"),
    (lambda d: _set(d, ["players"], ["a", "b", "c", "d", "e"]), "Kingdom Maps takes 1 to 4 players"),
    (lambda d: _set(d, ["log", 1], {"chance": "roll", "dice": [9, 9, 9]}), "the record says .* but the deal gives"),
    (lambda d: _set(d, ["log", 0], {"chance": "criteria", "criteria": ["A1", "A2", "B1", "B2"]}),
     "the record says"),
    (lambda d: _set(d, ["log", 2, "action"], {"type": "jump"}),
     r"record\.log\[2\]\.action\.type: 'jump' is not one of"),
    (lambda d: _set(d, ["log", 2, "action"], {"type": "announce", "terrain": 7, "die": 1}),
     r"record\.log\[2\]\.action\.terrain: 7 is out of range \(1 to 6\)"),
    (lambda d: _set(d, ["log", 2, "action"], {"type": "power", "delta": 0}), "by \\+1 or -1, not 0"),
    (lambda d: _set(d, ["log", 2, "action"], {"type": "place", "q": "0", "r": 0}), "expected a whole number"),
    (lambda d: _set(d, ["log", 2, "action"], {"type": "place", "q": 0, "r": 0}),
     r"record\.log\[2\]: player \d cannot do that: first announce a terrain"),
])
def test_malformed_records_are_rejected_with_clear_errors(change, message) -> None:
    """Records: every bad field is refused with a RecordError naming where it is and what is wrong."""
    with pytest.raises(RecordError, match=message):
        replay(change(base_doc()))


def test_a_doubly_drawn_hex_in_a_record_names_the_hex() -> None:
    """Records: an illegal move in the log is reported in the words a player would get."""
    doc = base_doc()
    k = _first_place(doc)
    bad = copy.deepcopy(doc)
    bad["log"].insert(k + 1, copy.deepcopy(doc["log"][k]))
    q, r = doc["log"][k]["action"]["q"], doc["log"][k]["action"]["r"]
    with pytest.raises(RecordError, match=rf"cannot do that: hex \({q}, {r}\) is already drawn"):
        replay(bad)


@pytest.mark.parametrize(("deal", "message"), [
    ({"dice": [1, 2, 3]}, "missing field 'criteria'"),
    ({"criteria": []}, "expected 1 to 12 items"),
    ({"criteria": ["A1", "B9"]}, "'B9' is not one of"),
    ({"criteria": ["A1"], "dice": [1, 7]}, r"deal\.dice\[1\]: 7 is out of range"),
    ({"criteria": ["A1"], "dice": "123"}, "expected a list"),
    ({"criteria": ["A1"], "seed": -1}, "out of range"),
    ({"criteria": ["A1"], "extra": 1}, "unknown field 'extra'"),
])
def test_malformed_deals_are_rejected(deal, message) -> None:
    """Deals: criteria must be known and distinct, dice 1–6, nothing else."""
    with pytest.raises(RecordError, match=message):
        parse_deal(deal, KingdomParams(), "deal")


def test_a_deal_must_agree_with_a_variants_fixed_criteria() -> None:
    """Deals: a variant that fixes the criteria (family) refuses a deal with other criteria."""
    with pytest.raises(RecordError, match="the variant plays with A2, A3, B1, B2"):
        parse_deal({"criteria": ["A1"]}, PRESETS["family"])


def test_actions_round_trip_through_json() -> None:
    """Moves: every action serialises to a small JSON object and reads back equal."""
    state = played(2, seed=9)
    for e in state.log:
        if "action" in e:
            assert parse_action(e["action"]).to_json() == e["action"]
    with pytest.raises(RecordError, match="an action must be an object"):
        parse_action([1, 2])


def test_params_round_trip_and_presets() -> None:
    """Variants: params round-trip through JSON; every preset is valid and named in its game code."""
    for name, p in PRESETS.items():
        assert KingdomParams.from_json(p.to_json()) == p
        p.validate()
        state = KingdomState(p, 2, seed=1234)
        code = state.game_code()
        assert code is not None and code.startswith("KM-")
        assert (code.endswith(name.upper())) == (name != "standard")
    assert SPEC.presets["plain"]() == PRESETS["plain"]


def test_game_codes_replay_the_same_deal() -> None:
    """Game codes: KM-XXXX-XXXX[-VARIANT] gives the same dice and criteria; other games' codes are refused."""
    a = new_game(2, seed=123456, variant="family")
    code = a.game_code()
    b = new_game(2, code=code.lower())
    assert b.params == PRESETS["family"] and b.seed == 123456
    assert [a.apply_chance() for _ in range(2)] == [b.apply_chance() for _ in range(2)]
    with pytest.raises(RecordError, match="Kingdom Maps codes start KM"):
        new_game(1, code="AV-0000-0001")
    with pytest.raises(RecordError, match="unknown variant"):
        new_game(1, code="KM-0000-0001-HUGE")
    assert new_game(1, deal=Deal(("A1",), (1, 2, 3, 4, 5))).deal is not None


def test_cli_replay_validate_and_simulate(tmp_path, capsys) -> None:
    """CLI: `python -m sheetkit replay/validate/simulate --game kingdom-maps` work with the registered game."""
    state = played(2, seed=4, bot="greedy")
    path = save_record(state, tmp_path / "game.json")
    assert load_record(path)["game"] == "kingdom-maps"
    assert cli_main(["validate", str(path)]) == 0
    assert "ok: kingdom-maps record" in capsys.readouterr().out
    assert cli_main(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scores"] == state.scores() and out["final"] and len(out["breakdown"]) == 2
    assert cli_main(["replay", str(path)]) == 0
    assert "points — placing" in capsys.readouterr().out
    for bot in ("random", "greedy"):
        assert cli_main(["simulate", "--game", "kingdom-maps", "--bot", bot, "-n", "3", "--players", "2",
                         "--json", "--no-progress"]) == 0
        summary = json.loads(capsys.readouterr().out)
        assert summary["game"] == "kingdom-maps" and summary["games"] == 3
    assert cli_main(["simulate", "--game", "kingdom-maps", "--players", "5", "-n", "1"]) == 2
    bad = tmp_path / "bad.json"
    doc = state.to_record()
    doc["log"][1] = {"chance": "roll", "dice": [7, 7, 7]}
    bad.write_text(json.dumps(doc))
    assert cli_main(["validate", str(bad)]) == 2
    assert "record.log[1]" in capsys.readouterr().err
