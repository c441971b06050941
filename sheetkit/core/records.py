"""Versioned, schema-checked JSON game records: save, share, validate and replay.

A record is data only — it is parsed with ``json`` and checked field by field; nothing in it is
ever executed (no pickle, no eval).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from sheetkit.core.chance import MAX_SEED
from sheetkit.core.codes import make_code, parse_code
from sheetkit.core.errors import IllegalAction, RecordError
from sheetkit.core.params import preset_of
from sheetkit.core.protocol import GameState
from sheetkit.core.registry import GameSpec, get_game
from sheetkit.core.schema import expect_dict, expect_int, expect_list, expect_str

FORMAT = "sheetkit-record"
VERSION = 2  # the version this sheetkit writes (2: Key Harvest's setup step logs the blind counters)
OLDEST = 1  # the oldest version it still reads; an older record replays to the same game
MAX_BYTES = 2_000_000
MAX_LOG = 20_000
MAX_PLAYERS = 16
MAX_NAME = 60  # characters in a player's name


def make_record(
    game: str, params: dict[str, Any], players: list[str], log: list[dict[str, Any]],
    seed: int | None = None, deal: dict[str, Any] | None = None, code: str | None = None,
) -> dict[str, Any]:
    """Assemble a record document (used by each game's ``to_record``)."""
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION, "game": game, "params": params,
                           "players": list(players)}
    if seed is not None:
        doc["seed"] = seed
    if deal is not None:
        doc["deal"] = deal
    if code:
        doc["code"] = code
    doc["log"] = list(log)
    return doc


class RecordedGame(GameState):
    """A game that is its params, players, seed (or fixed ``deal``) and log: its record and game code follow."""

    code_prefix: ClassVar[str]  # the game code's letters (``AV``, ``KM``, ``KH``)
    presets: ClassVar[Mapping[str, Any]]  # the named variants a game code can carry
    params: Any
    players: list[str]
    seed: int | None
    log: list[dict[str, Any]]

    def game_code(self) -> str | None:
        """The short code for this deal (``KH-XXXX-XXXX``, say), when it came from a seed and a preset variant."""
        preset = preset_of(self.params, self.presets)
        if self.seed is None or preset is None:
            return None
        return make_code(self.code_prefix, self.seed, preset)

    def to_record(self) -> dict[str, Any]:
        deal = getattr(self, "deal", None)
        return make_record(self.game_name, self.params.to_json(), self.players, self.log, seed=self.seed,
                           deal=None if deal is None else deal.to_json(), code=self.game_code())


def parse_json(text: str | bytes) -> Any:
    """Parse record text with size limits and plain-words errors."""
    if len(text) > MAX_BYTES:
        raise RecordError(f"the file is too large ({len(text):,} bytes; a record is at most {MAX_BYTES:,})")
    try:
        return json.loads(text, parse_constant=_reject_constant, parse_int=_bounded_int)
    except RecordError:
        raise
    except (ValueError, RecursionError) as e:
        raise RecordError(f"not valid JSON ({str(e)[:120]})") from None


def _bounded_int(digits: str) -> int:
    # No number in a record needs more than 30 digits; refusing longer ones early also avoids
    # Python's own "exceeds the limit" error text, which means nothing to a player.
    if len(digits.lstrip("-")) > 30:
        raise RecordError(f"a number with {len(digits.lstrip('-')):,} digits is far too large for a record")
    return int(digits)


def _reject_constant(name: str) -> Any:
    raise RecordError(f"{name} is not allowed in a record")


def check_record(doc: Any) -> tuple[GameSpec, Any, dict[str, Any]]:
    """Validate the envelope and the game's params; returns (spec, params, doc)."""
    doc = expect_dict(doc, "record", required=["format", "version", "game", "params", "players", "log"],
                      optional=["seed", "deal", "code", "meta"])
    if doc["format"] != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, got {str(doc['format'])[:40]!r}", "record.format")
    version = expect_int(doc["version"], "record.version", 0, 10**9)
    if not OLDEST <= version <= VERSION:
        raise RecordError(f"version {version} is not supported (this sheetkit reads versions {OLDEST} to {VERSION})",
                          "record.version")
    name = expect_str(doc["game"], "record.game", 40)
    try:
        spec = get_game(name)
    except KeyError as e:
        raise RecordError(str(e.args[0]), "record.game") from None
    params = spec.parse_params(doc["params"], "record.params")
    players = expect_list(doc["players"], "record.players", MAX_PLAYERS, 1)
    for i, p in enumerate(players):
        expect_str(p, f"record.players[{i}]", MAX_NAME)
    if not spec.min_players <= len(players) <= spec.max_players:
        raise RecordError(f"{spec.title} takes {spec.min_players} to {spec.max_players} players, "
                          f"the record has {len(players)}", "record.players")
    if ("seed" in doc) == ("deal" in doc):
        raise RecordError("a record needs exactly one of 'seed' or 'deal'", "record")
    if "seed" in doc:
        expect_int(doc["seed"], "record.seed", 0, MAX_SEED)
    if "code" in doc:
        expect_str(doc["code"], "record.code", 60)
    if "meta" in doc:
        expect_dict(doc["meta"], "record.meta", optional=["created", "by", "note", "app"])
        for k, v in doc["meta"].items():
            expect_str(v, f"record.meta.{k}", 500)
    expect_list(doc["log"], "record.log", MAX_LOG)
    return spec, params, doc


def replay(doc: Any) -> GameState:
    """Validate a record and replay it; raises RecordError naming the first bad entry."""
    spec, params, doc = check_record(doc)
    deal = spec.parse_deal(doc["deal"], params, "record.deal") if "deal" in doc else None
    state = spec.new_state(params, list(doc["players"]), seed=doc.get("seed"), deal=deal)
    if "code" in doc:
        _check_code(state, doc["code"])
    for i, entry in enumerate(doc["log"]):
        path = f"record.log[{i}]"
        if not isinstance(entry, dict):
            raise RecordError("each log entry must be an object", path)
        if "chance" in entry:
            _replay_chance(state, spec, entry, path, doc["version"])
            continue
        expect_dict(entry, path, required=["player", "action"])
        player = expect_int(entry["player"], f"{path}.player", 0, state.num_players - 1)
        action = spec.parse_action(entry["action"], f"{path}.action")
        # A hand-written record may leave out the table's steps; take them from the seed.
        while state.is_chance_node() and not state.is_terminal():
            state.apply_chance()
        try:
            state.apply(player, action)
        except IllegalAction as e:
            raise RecordError(f"player {player} cannot do that: {e}", path) from None
    return state


def _replay_chance(state: GameState, spec: GameSpec, entry: dict[str, Any], path: str, version: int) -> None:
    if not state.is_chance_node() or state.is_terminal():
        raise RecordError("a table step here is out of order (players still have to act)", path)
    if spec.check_step is not None:
        spec.check_step(state, entry, version, path)
    got = state.apply_chance()
    if spec.step_in is not None:
        got = spec.step_in(got, version)
    if got != entry:
        where, said, dealt = _difference(entry, got, path)
        raise RecordError(f"the record says {_short(said)} but the deal gives {_short(dealt)}", where)


def _difference(said: Any, got: Any, path: str) -> tuple[str, Any, Any]:
    """Where two table steps of the same kind first differ (a field, an item), and the two values there.

    Steps of different kinds, or with different fields, are shown whole; a list of plain values is one value.
    """
    if isinstance(said, dict) and isinstance(got, dict):
        if set(said) != set(got) or said.get("chance") != got.get("chance"):
            return path, said, got
        key = next(k for k in got if said[k] != got[k])
        return _difference(said[key], got[key], f"{path}.{key}")
    if (isinstance(said, list) and isinstance(got, list) and len(said) == len(got)
            and any(isinstance(x, (dict, list)) for x in got)):
        i = next(i for i, (a, b) in enumerate(zip(said, got, strict=True)) if a != b)
        return _difference(said[i], got[i], f"{path}[{i}]")
    return path, said, got


def _short(value: Any) -> str:
    """At most 80 characters of a JSON value, for messages (never fails, whatever the value)."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = "a value that is not plain JSON"
    return text if len(text) <= 80 else text[:79] + "…"


def _check_code(state: GameState, code: str) -> None:
    """A record's game code is only a label, but it must name the record's own deal and rules."""
    try:
        given = parse_code(code)
    except RecordError as e:
        raise RecordError(e.reason, "record.code") from None
    made = getattr(state, "game_code", lambda: None)()
    if made is None:
        raise RecordError(f"{_short(code)} cannot be this game's code: the record uses a fixed deal or rules "
                          "that no game code can name", "record.code")
    if parse_code(made) != given:
        raise RecordError(f"{_short(code)} does not match the record's seed and rules (they make {made})",
                          "record.code")


def load_record(path: str | Path) -> dict[str, Any]:
    """Read and validate a record file (replaying is separate: see ``replay``)."""
    p = Path(path)
    try:
        if p.is_dir():
            raise RecordError(f"{p} is a folder, not a record file")
        with p.open("rb") as f:  # bounded: a huge file (or /dev/zero) is refused, not read to the end
            data = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise RecordError(f"cannot read {p}: {e.strerror or e}") from None
    if len(data) > MAX_BYTES:
        raise RecordError(f"{p} is too large (more than {MAX_BYTES:,} bytes; a record is at most {MAX_BYTES:,})")
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark left by some editors is fine
    except UnicodeDecodeError:
        raise RecordError(f"{p} is not a text (UTF-8) file") from None
    doc = parse_json(text)
    check_record(doc)
    return doc


def save_record(state: GameState, path: str | Path) -> Path:
    """Write ``state.to_record()`` as pretty JSON."""
    p = Path(path)
    p.write_text(dumps(state.to_record()), encoding="utf-8")
    return p


def dumps(doc: dict[str, Any]) -> str:
    """Canonical pretty JSON of a record: log entries one per line, for readable diffs."""
    head = {k: v for k, v in doc.items() if k != "log"}
    lines = json.dumps(head, indent=2, sort_keys=False)[:-2]
    log = ",\n    ".join(json.dumps(e, separators=(", ", ": ")) for e in doc.get("log", []))
    return f'{lines},\n  "log": [\n    {log}\n  ]\n}}\n' if log else f'{lines},\n  "log": []\n}}\n'
