"""Result codes: a finished game's deal, opponents and the human's choices, packed short enough to read aloud.

A result code looks like ``AV-0000-001A.R1G.8QM7G-209TR-VJN1Z-DFR8K-489YV-3RCR8-C510.A0B6C``:

- the game code of the deal (``AV-0000-001A``, with its variant when not standard);
- ``R1`` (the format version) followed by one letter per bot at the table, in seat order
  (``G`` greedy, ``R`` random, ``M`` montecarlo; nothing after ``R1`` for a solo game); a game in which
  the player asked the table for hints (its Hint button) is written ``H1`` instead of ``R1``, and the
  check characters cover that letter like the rest, so it cannot be changed back unnoticed (codes
  written before hints existed all start ``R1`` and read as before);
- the moves: seat 0's choices (its pending decisions too), each written as the index of the chosen
  action among ``legal_actions(0)`` sorted canonically (by the action's JSON text), packed in mixed
  radix into one integer (a choice among n adds log2(n) bits; a forced move adds nothing), in
  Crockford base32, grouped by 5. A game whose ``legal_actions`` does not list every legal move
  gives its own ``choice_codec`` (``GameSpec``; ``sheetkit.core.protocol.ChoiceCodec``) writing a move
  as a few such digits instead: Key Harvest writes a bid (any mix of counters) as its registry tile
  and the count of each crop (``sheetkit/games/key_harvest/codec.py``);
- a check of 5 characters: 2 from the replayed game itself (a hash of its final state), then 3 (15
  bits of a BLAKE2b hash) over everything else, so a mistyped or missing character is refused before
  any replay, and a code that replays to another game on this computer (a sheetkit whose bots or rules
  changed since) is refused after it, never counted as a different game.

Only seat 0 is written down; the opponents are bots, re-run on decoding exactly as the table runs
them with ``sheetkit.core.play`` (``advance``, ``seat_bots``): the same kinds in the same seats, each seeded
with ``bot_seed(deal seed, seat)``, asked to move whenever seat 0 does not have to — the loop and the
seats every table uses. Chance comes
from the deal's seed. Bots must therefore be deterministic given their seed and the calls made to
them — every sheetkit bot is (their randomness is a seeded ``make_rng``). ``result_code`` replays the
game this way before it writes a code and refuses (asking for the record file instead) when the
replay would not give the same game, so a code that is shown always decodes to the game played.

A game whose moves are not all listed by ``legal_actions`` and that gives no codec, or with more than
``MAX_CHOICES`` listed at one decision, gets no code (``Unpackable``, with the reason): its record
file (Save) is read instead — replayed with the seeded bots and checked the same way.
The score is never in a code or trusted from a file: it is recomputed by replaying the moves.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sheetkit.core.codes import _ALPHABET, _READ_AS, GameCode, make_code, parse_code
from sheetkit.core.errors import IllegalAction, RecordError, SheetkitError
from sheetkit.core.play import advance, bot_kind, bot_names, seat_bots
from sheetkit.core.protocol import ChoiceCodec, GameState
from sheetkit.core.records import parse_json, replay
from sheetkit.core.registry import GameSpec, all_games, get_game

VERSION = 1
PLAIN, HINTED = "R", "H"  # the letter before the version: played alone, or with the table's hints
CHECK_CHARS = 3
GAME_CHARS = 2
GROUP = 5
MAX_CHOICES = 4096        # more legal actions than this at one decision: use the record file
MAX_CODE_CHARS = 600      # one result code (Kingdom Maps' are ~60 characters of moves)
MAX_PASTE_CHARS = 300_000  # a whole paste
MAX_ENTRIES = 500          # codes and files read in one go
MAX_STEPS = 20_000         # table steps and moves in one replayed game (a guard, never reached in play)


# ----- the bots at a class table ---------------------------------------------------------------
class _NoMoreMoves(IndexError):
    """Seat 0 must move again but its moves (a code's, a file's) have run out."""


def _played(state: GameState, choose: Callable[[GameState], Any], bots: Mapping[int, Any]) -> GameState:
    """Play ``state`` to its end as a table does: seat 0's moves by ``choose(state)`` (all of them first at a
    simultaneous step, as a person at a table makes them), the other seats by ``bots``."""
    def seat_zero(now: GameState, _: int) -> Any:
        try:
            return choose(now)
        except StopIteration:      # it would end the play loop quietly: say it
            raise _NoMoreMoves("seat 0's moves ran out") from None

    for n, _ in enumerate(advance(state, bots, people={0}, person_move=seat_zero), start=1):
        if n > MAX_STEPS:
            raise RecordError(f"the game did not end within {MAX_STEPS} steps")
    if not state.is_terminal():
        raise RecordError("the game stopped with nobody to move")
    return state


def play_as_table(game: str, seed: int, student: str = "random", bots: Sequence[str] = (),
                  student_seed: int = 0) -> GameState:
    """A finished game as a table plays it: a ``student`` bot in seat 0, the table's seeded ``bots`` beside it.

    Handy for demonstration codes, and for tests of codes and dashboards (a bot stands in for a student).
    """
    spec = get_game(game)
    state = spec.new_state(spec.default_params(), ["You", *bot_names(bots)], seed=seed)
    me = spec.bots[student](seed=student_seed)
    return _played(state, lambda now: me.act(now, 0), seat_bots(spec.bots, bots, seed))


def bot_letters(spec: GameSpec) -> dict[str, str]:
    """Bot kind → its letter in a result code: the first letter when those are unique, else A, B, C…"""
    kinds = sorted(spec.bots)
    firsts = [k[:1].upper() for k in kinds]
    if len(set(firsts)) == len(kinds) and all(f.isalpha() and f.isascii() for f in firsts):
        return dict(zip(kinds, firsts, strict=True))
    return {k: chr(ord("A") + i) for i, k in enumerate(kinds)}


def _spec_for(prefix: str) -> GameSpec:
    for spec in all_games():
        if spec.code_prefix.upper() == prefix.upper():
            return spec
    raise RecordError(f"no game here has codes starting {prefix[:4]!r}")


def _deal_state(spec: GameSpec, gc: GameCode, kinds: Sequence[str]) -> GameState:
    if gc.preset not in spec.presets:
        raise RecordError(f"unknown variant {gc.preset!r} in the code (known: {', '.join(spec.presets)})")
    return spec.new_state(spec.presets[gc.preset](), ["You", *bot_names(kinds)], seed=gc.seed)


def canonical(actions: Iterable[Any]) -> list[Any]:
    """Legal actions in the order a result code numbers them: by their JSON text."""
    return sorted(actions, key=lambda a: json.dumps(a.to_json(), sort_keys=True))


class Unpackable(RecordError):
    """A game whose moves do not fit a code (not all listed and no codec, or too many): its record file counts."""


class _Listed:
    """The default choice codec: a move is one digit, its index among ``legal_actions`` in canonical order."""

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec

    def _legal(self, state: GameState, player: int) -> list[Any]:
        legal = state.legal_actions(player)
        if not legal:
            raise RecordError("seat 0 must move but has no legal move")
        if len(legal) > MAX_CHOICES:
            raise Unpackable(f"{self.spec.title} has too many choices at one move to pack into a code — "
                             "send the record file (Save) instead")
        return canonical(legal)

    def encode(self, state: GameState, player: int, action: Any) -> list[tuple[int, int]] | None:
        """[(index, number of legal moves)], or None when ``action`` is not listed."""
        legal = self._legal(state, player)
        want = action.to_json()
        return next(([(i, len(legal))] for i, a in enumerate(legal) if a.to_json() == want), None)

    def decode(self, state: GameState, player: int, read: Any) -> Any:
        """The listed move at the index ``read`` gives."""
        legal = self._legal(state, player)
        return legal[read(len(legal))]


def codec_of(spec: GameSpec) -> ChoiceCodec:
    """How a result code writes this game's moves: its own codec, else by index in ``legal_actions``."""
    return spec.choice_codec if spec.choice_codec is not None else _Listed(spec)


def _drive(spec: GameSpec, gc: GameCode, kinds: Sequence[str], choose: Any) -> GameState:
    """Play the deal: chance from the seed, bots as a table runs them, seat 0's moves by ``choose(state)``."""
    state = _deal_state(spec, gc, kinds)
    return _played(state, choose, seat_bots(spec.bots, kinds, gc.seed))


# ----- writing a code -----------------------------------------------------------------------------
def _b32(value: int) -> str:
    out = []
    while True:
        value, d = divmod(value, 32)
        out.append(_ALPHABET[d])
        if not value:
            return "".join(reversed(out))


def _hash_chars(text: str, n: int) -> str:
    h = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")
    return "".join(_ALPHABET[(h >> (5 * k)) & 31] for k in range(n))


def _check(head: str, digits: str, game: str) -> str:
    return _hash_chars(f"{head}|{digits}|{game}", CHECK_CHARS)


def _game_check(state: GameState) -> str:
    return _hash_chars(state.fingerprint(), GAME_CHARS)


def _moves_by_player(log: Sequence[Mapping[str, Any]]) -> tuple[list[Any], dict[int, list[Any]]]:
    chance = [e for e in log if "chance" in e]
    moves: dict[int, list[Any]] = {}
    for e in log:
        if "player" in e:
            moves.setdefault(int(e["player"]), []).append(e["action"])
    return chance, moves


def seat0_game(state: GameState, bots: Sequence[str], no_code_tail: str = "",
               not_bots: str = "the players at this table are not you and known bots",
               ) -> tuple[GameCode, GameSpec, list[str], list[Any]]:
    """A game of seat 0 against seeded ``bots``: its deal, game, bot kinds and seat 0's logged moves (RecordError if
    it has no game code or other players)."""
    code = getattr(state, "game_code", lambda: None)()
    if not code:
        raise RecordError("this deal has no game code" + no_code_tail)
    gc = parse_code(code)
    spec = _spec_for(gc.prefix)
    kinds = list(bots)
    if len(kinds) != state.num_players - 1 or any(k not in spec.bots for k in kinds):
        raise RecordError(not_bots)
    return gc, spec, kinds, [e["action"] for e in state.log if e.get("player") == 0]


def result_code(state: GameState, bots: Sequence[str], hints: bool = False) -> str:
    """The result code of a finished game in which seat 0 played against ``bots`` (kinds, seats 1…).

    ``hints``: the player was shown the expert's move at least once (the code says so: ``H1`` for ``R1``).

    Raises RecordError (with what to do instead) when the game has no code, is not over, or would
    not replay identically from its code (e.g. a record loaded mid-game with bots that had other seeds).
    """
    if not state.is_terminal():
        raise RecordError("the game is not finished yet")
    gc, spec, kinds, mine = seat0_game(state, bots, " — send the record file (Save) instead",
                                       "the players at this table are not seat 0 and known bots — send the record file")
    letters = bot_letters(spec)
    codec = codec_of(spec)
    value, radix, k = 0, 1, 0

    def choose(now: GameState) -> Any:
        nonlocal value, radix, k
        if k >= len(mine):
            raise RecordError("the bots did not play as in this game — send the record file (Save) instead")
        want = mine[k]
        k += 1
        digits = codec.encode(now, 0, spec.parse_action(want, "action"))
        if digits is not None:
            # Read the digits back at once: the code shown is one that decodes to this very move.
            back = iter(digits)
            got = codec.decode(now, 0, lambda n: _digit(next(back, (-1, -1)), n))
            if got.to_json() != want or next(back, None) is not None:
                raise RecordError(f"{spec.title}'s move {str(want.get('type', 'move'))[:20]} does not read back "
                                  "from its code — send the record file (Save) instead")
            for i, n in digits:
                value += i * radix
                radix *= n
            return got
        if _legal_here(spec, now, want):
            raise Unpackable(f"{spec.title}'s moves are not all among a few listed choices (its "
                             f"{str(want.get('type', 'move'))[:20]} moves), so they do not fit a short code — "
                             "send the record file (Save) instead")
        raise RecordError("the bots did not play as in this game — send the record file (Save) instead")

    again = _drive(spec, gc, kinds, choose)
    if k != len(mine) or _moves_by_player(again.log) != _moves_by_player(state.log):
        raise RecordError("the bots did not play as in this game — send the record file (Save) instead")
    head = f"{make_code(gc.prefix, gc.seed, gc.preset)}.{HINTED if hints else PLAIN}{VERSION}" \
           f"{''.join(letters[b] for b in kinds)}"
    digits = _b32(value)
    game = _game_check(again)
    return f"{head}.{_grouped(digits)}.{game}{_check(head, digits, game)}"


def _digit(digit: tuple[int, int], radix: int) -> int:
    """A digit being read back, checked to be the one written (same radix, in range)."""
    i, n = digit
    if n != radix or not 0 <= i < n:
        raise RecordError("a move's digits do not read back — send the record file (Save) instead")
    return i


def _legal_here(spec: GameSpec, state: GameState, action_json: Any) -> bool:
    """True when a logged move is legal now although ``legal_actions`` did not list it."""
    try:
        state.check(0, spec.parse_action(action_json, "action"))
    except SheetkitError:
        return False
    return True


def _grouped(digits: str) -> str:
    return "-".join(digits[i:i + GROUP] for i in range(0, len(digits), GROUP))


# ----- reading codes ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Result:
    """One student's game, replayed from a result code or a record file (the score recomputed)."""

    name: str
    code: str                # the canonical result code
    deal: str                # the deal's game code
    bots: tuple[str, ...]    # bot kinds in seats 1…
    state: GameState = field(repr=False, compare=False)
    source: str = "code"
    hints: bool = False      # the player used the table's Hint button (the code starts H1, not R1)

    @property
    def game(self) -> str:
        """The game's registry name."""
        return self.state.game_name

    @property
    def score(self) -> int:
        """Seat 0's final score, from the replayed game."""
        return int(self.state.scores()[0])

    @property
    def placing(self) -> int:
        """Seat 0's placing at its table (1 = best; everyone shares 1 solo)."""
        scores = self.state.scores()
        placings = getattr(self.state, "placings", None)
        return int(placings()[0]) if callable(placings) else 1 + sum(s > scores[0] for s in scores)


# Why an entry did not count: it could not be read or was refused, it repeats a game already counted,
# or it is a line of the paste holding no result code at all.
REFUSED, COPY, NO_CODE = "refused", "copy", "no code"


@dataclass(frozen=True)
class Skipped:
    """An entry that did not count, and why (one line). ``text`` is what was read, whole: screens shorten it."""

    name: str
    text: str
    reason: str
    line: int = 0         # its line in the paste (0: a record file, or the paste as a whole)
    kind: str = REFUSED   # REFUSED, COPY or NO_CODE


@dataclass(frozen=True)
class ClassDeal:
    """What a class plays: a game's deal and the bots at every student's table."""

    deal: str
    bots: tuple[str, ...] = ()

    @property
    def spec(self) -> GameSpec:
        """The game of this deal."""
        return _spec_for(parse_code(self.deal).prefix)


def shorten(text: str, n: int = 40) -> str:
    """Text for one line: whitespace runs as one space, cut with an ellipsis after ``n`` characters."""
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1] + "…"


def read_result_code(text: str, expect: ClassDeal | None = None, name: str = "") -> Result:
    """Decode and replay one result code; RecordError with a one-line reason if it cannot count.

    Forgiving of spaces, case and the letters I/L/O/U (read as 1, 1, 0, V) like game codes. With
    ``expect``, a code of another deal or other bots is refused.
    """
    raw = str(text)
    if len(raw) > MAX_CODE_CHARS:
        raise RecordError(f"far too long for a result code ({len(raw):,} characters)")
    compact = "".join(raw.split()).upper()
    if not compact:
        raise RecordError("empty")
    parts = compact.split(".")
    try:
        gc = parse_code(parts[0])
    except RecordError:
        raise RecordError(f"{shorten(raw)!r} is not a result code — it starts like AV-0000-001A.R1") from None
    if not any(g.code_prefix.upper() == gc.prefix for g in all_games()):
        raise RecordError(f"{shorten(raw)!r} is not a result code — it starts like AV-0000-001A.R1")
    if len(parts) == 1:
        raise RecordError("a deal code without moves — a result code goes on with .R1… (copy it from the end "
                          "of the game)")
    if len(parts) > 4:
        raise RecordError("not a result code — it has too many dots")
    # The version is one digit (I, L and O read as 1, 1 and 0 there too), the bots' letters follow it.
    version = parts[1][:1] + "".join(_READ_AS.get(ch, ch) for ch in parts[1][1:2]) + parts[1][2:]
    m = re.fullmatch(r"([RH])(\d)([A-Z]*)", version)
    if not m:
        raise RecordError("not a result code — after the deal it should go on with .R1")
    hinted, ver, letters = m.group(1) == HINTED, m.group(2), m.group(3)
    if int(ver) != VERSION:
        raise RecordError(f"made by another sheetkit version (R{ver}; this one reads R{VERSION})")
    if len(parts) < 4 or len(parts[3]) < GAME_CHARS + CHECK_CHARS:
        raise RecordError("cut short — the check characters at the end are missing")
    spec = _spec_for(gc.prefix)
    kind_of = {v: k for k, v in bot_letters(spec).items()}
    try:
        kinds = [kind_of[ch] for ch in letters]
    except KeyError as e:
        raise RecordError(f"unknown bot letter {e.args[0]!r} (letters: "
                          f"{', '.join(f'{v} {k}' for k, v in bot_letters(spec).items())})") from None
    digits = "".join(_READ_AS.get(ch, ch) for ch in parts[2].replace("-", ""))
    check = "".join(_READ_AS.get(ch, ch) for ch in parts[3])
    bad = [ch for ch in digits + check if ch not in _ALPHABET]
    if bad or not digits:
        raise RecordError(f"{bad[0]!r} is not a code character" if bad else "the moves are missing")
    head = f"{make_code(gc.prefix, gc.seed, gc.preset)}.{m.group(1)}{VERSION}{letters}"
    game, check = check[:GAME_CHARS], check[GAME_CHARS:]
    if check != _check(head, digits.lstrip("0") or "0", game):
        raise RecordError("wrong check characters — a character is mistyped, or the code is cut short")
    deal = make_code(gc.prefix, gc.seed, gc.preset)
    _check_expected(gc, kinds, expect)
    value = 0
    for ch in digits:
        value = value * 32 + _ALPHABET.index(ch)

    codec = codec_of(spec)

    def read(radix: int) -> int:
        nonlocal value
        if radix < 1:
            raise RecordError("seat 0 must move but has no legal move")
        value, i = divmod(value, radix)
        return i

    try:
        state = _drive(spec, gc, kinds, lambda now: codec.decode(now, 0, read))
    except (IllegalAction, KeyError, ValueError, IndexError) as e:
        raise RecordError(f"could not be replayed ({shorten(str(e), 80)})") from None
    if value:
        raise RecordError("damaged — it holds more moves than the game has")
    if _game_check(state) != game:
        raise RecordError("it replays to another game here — made by another sheetkit version? "
                          "Send the record file (Save) instead")
    return Result(name, f"{head}.{_grouped(digits.lstrip('0') or '0')}.{game}{check}", deal, tuple(kinds), state,
                  hints=hinted)


def read_record_file(data: bytes | str, expect: ClassDeal | None = None, name: str = "") -> Result:
    """Read a saved record file: replayed, checked to be the class's game, and turned into its result code.

    The record's bots' moves must be what the bots play (the game is re-played with the seeded bots), so
    an edited record cannot change the opponents' moves or the score. A game whose moves do not fit a
    code (``Unpackable``) counts from its file alone, with no code.
    """
    text = data.decode("utf-8-sig") if isinstance(data, bytes) else data
    state = replay(parse_json(text))
    if not state.is_terminal():
        raise RecordError("the game in this file is not finished")
    code = getattr(state, "game_code", lambda: None)()
    if not code:
        raise RecordError("this game's deal has no code, so it cannot be compared with the class")
    gc = parse_code(code)
    spec = _spec_for(gc.prefix)
    kinds = []
    for who in state.players[1:]:
        kind = bot_kind(who, spec.bots)
        if kind is None:
            raise RecordError(f"{shorten(who, 30)!r} is not a sheetkit bot — class games are played "
                              "solo or against bots")
        kinds.append(kind)
    who = state.players[0] if state.players[0] not in ("You", "") else name
    try:
        return read_result_code(result_code(state, kinds), expect, name=who or name)
    except Unpackable:
        pass
    _check_expected(gc, kinds, expect)
    mine = iter([spec.parse_action(e["action"], "action") for e in state.log if e.get("player") == 0])
    try:
        again = _drive(spec, gc, kinds, lambda _state: next(mine))
    except _NoMoreMoves:
        raise RecordError("the bots' moves in this file are not what the bots play on this deal") from None
    if _moves_by_player(again.log) != _moves_by_player(state.log):
        raise RecordError("the bots' moves in this file are not what the bots play on this deal")
    return Result(who or name, "", make_code(gc.prefix, gc.seed, gc.preset), tuple(kinds), again)


def _check_expected(gc: GameCode, kinds: Sequence[str], expect: ClassDeal | None) -> None:
    """Refuse a game of another deal or against other bots than the class's."""
    if expect is None:
        return
    want = parse_code(expect.deal)
    if (gc.prefix, gc.seed, gc.preset) != (want.prefix, want.seed, want.preset):
        raise RecordError(f"a code of another deal ({make_code(gc.prefix, gc.seed, gc.preset)}); "
                          f"the class plays {expect.deal}")
    if tuple(kinds) != tuple(expect.bots):
        raise RecordError(f"played against other bots ({', '.join(kinds) or 'solo'}); the class plays "
                          f"{', '.join(expect.bots) or 'solo'}")


# ----- many at once -------------------------------------------------------------------------------
# A result code in running text: a deal code, a dot, R and the version, then code characters, dashes and
# dots (the finder is loose on purpose: the reader gives the reason when what it found is damaged).
_FIND = re.compile(r"[A-Za-z]{2}-[0-9A-Za-z]{4}-?[0-9A-Za-z]{4}(?:-[A-Za-z][A-Za-z0-9]*)?(?:\.[0-9A-Za-z-]*)*")
_NAME_CUT = re.compile(r"[:\]\)>|]")


@dataclass(frozen=True)
class PastedLine:
    """One non-blank line of a paste, or one result code in it: ``code`` is None when the line holds none."""

    line: int             # 1-based line number in the paste
    name: str
    code: str | None
    text: str             # the whole line


def _game_prefixes() -> set[str]:
    return {g.code_prefix.upper() for g in all_games()}


def read_paste(text: str) -> list[PastedLine]:
    """Every non-blank line of a paste: one entry per result code found in it, or one with ``code=None``.

    A name is what stands right before the code followed by a colon ('Anna: AV-…'); a line holding
    only a code written with spaces ('av 0000 001a.r1 3kd9q …') is read whole. Only codes that start
    with a game's prefix count as found, so a line of random characters is one line with no code,
    not a handful of 'codes' cut out of it.
    """
    prefixes = _game_prefixes()
    found: list[PastedLine] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        hits = [h for h in _FIND.finditer(line) if h.group(0)[:2].upper() in prefixes]
        if not hits:
            body = line.split(":", 1)[1] if ":" in line else line
            if re.search(r"\.\s*[RrHh]\s*\d", body) and re.match(r"\s*[A-Za-z]{2}\W", body):
                name = line.split(":", 1)[0] if ":" in line else ""
                found.append(PastedLine(number, shorten(name, 40).strip(), body.strip(), line))
            else:
                found.append(PastedLine(number, "", None, line))
            continue
        for h in hits:
            before = line[: h.start()].rstrip()
            name = ""
            if before.endswith(":"):
                name = _NAME_CUT.split(before[:-1])[-1].strip()
            found.append(PastedLine(number, shorten(name, 40), h.group(0).rstrip(".-"), line))
    return found


def find_codes(text: str) -> list[tuple[str, str]]:
    """(name, code text) for every result code in a paste: one per line or in mixed text (``read_paste``)."""
    return [(p.name, p.code) for p in read_paste(text) if p.code is not None]


@dataclass
class Gathered:
    """What a paste and a pile of files gave: the games that count, and the entries skipped with reasons."""

    results: list[Result] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)

    def count(self, kind: str) -> int:
        """How many entries were skipped for this reason (REFUSED, COPY or NO_CODE)."""
        return sum(1 for s in self.skipped if s.kind == kind)


def _no_code_reason(expect: ClassDeal | None) -> str:
    example = f"{expect.deal}.R1…" if expect is not None else "AV-0000-001A.R1…"
    return f"no result code on this line (a result code starts like {example})"


def _copy_reason(name: str, first: Result, first_line: int) -> str:
    """Why a game already counted is skipped: pasted twice, or the same game under another name."""
    where = f" on line {first_line}" if first_line else f" ({first.source})" if first.source != "code" else ""
    if name and name.casefold() == first.name.casefold():
        return f"{name}'s game again — the same code{where}, counted once"
    return f"the same game as {first.name}'s{where} (same moves, same code) — counted once"


def gather(text: str = "", files: Sequence[tuple[str, bytes]] = (), expect: ClassDeal | None = None) -> Gathered:
    """Read every result code in ``text`` and every (filename, bytes) record file; nothing is lost to one bad entry.

    Every entry ends up either counted or skipped with its reason: a line holding no code, a code that
    cannot count, a game already counted (the same code pasted twice, or under two names: one game
    counts once). Students without a name are numbered ('student 1', …) in the order they came.
    """
    out = Gathered()
    if len(text) > MAX_PASTE_CHARS:
        out.skipped.append(Skipped("paste", text, f"the paste is too long ({len(text):,} characters; "
                                   f"at most {MAX_PASTE_CHARS:,}) — paste fewer codes at a time"))
        text = ""
    # (name, code text or the whole line, record file bytes, line, whether a code was found), in paste order
    entries: list[tuple[str, str, bytes | None, int, bool]] = [
        (p.name, p.code if p.code is not None else p.text, None, p.line, p.code is not None) for p in read_paste(text)]
    entries += [(fname, "", data, 0, True) for fname, data in files]
    seen: dict[str, tuple[Result, int]] = {}
    unnamed = read = 0
    for name, code, data, line, is_code in entries:
        if not is_code:   # a line without a code is listed in its place, never silently dropped
            out.skipped.append(Skipped("", code, _no_code_reason(expect), line, NO_CODE))
            continue
        shown = "record file" if data is not None else code
        read += 1
        if read > MAX_ENTRIES:
            out.skipped.append(Skipped(name, shown, f"not read: at most {MAX_ENTRIES} codes and files are read "
                                       "in one go — read the rest separately", line))
            continue
        try:
            if data is None:
                r = read_result_code(code, expect, name)
            else:
                r = read_record_file(data, expect, name="")
                r = replace(r, name=r.name or name, source=name)
        except SheetkitError as e:
            reason = e.reason if isinstance(e, RecordError) else str(e)
            out.skipped.append(Skipped(name, shown, reason, line))
            continue
        except Exception as e:  # a hostile file must cost only itself, never the rest of the class
            out.skipped.append(Skipped(name, shown, f"cannot be read ({type(e).__name__})", line))
            continue
        key = r.code or r.state.fingerprint()
        if key in seen:
            first, first_line = seen[key]
            out.skipped.append(Skipped(r.name, shown, _copy_reason(r.name, first, first_line), line, COPY))
            continue
        if not r.name:
            unnamed += 1
            r = replace(r, name=f"student {unnamed}")
        seen[key] = (r, line)
        out.results.append(r)
    return out


def leaderboard(results: Sequence[Result]) -> list[dict[str, Any]]:
    """Rows best first: rank (ties share it), name, score, placing at the table, code, source, hints used."""
    ordered = sorted(results, key=lambda r: -r.score)
    rows = []
    for r in ordered:
        rank = 1 + sum(1 for o in ordered if o.score > r.score)
        rows.append({"rank": rank, "name": r.name, "score": r.score, "placing": r.placing,
                     "deal": r.deal, "bots": ",".join(r.bots) or "solo", "code": r.code, "source": r.source,
                     "hints": r.hints})
    return rows


CSV_FIELDS = ("rank", "name", "score", "placing", "deal", "bots", "code", "source", "line", "hints")


def results_csv(results: Sequence[Result], skipped: Sequence[Skipped] = ()) -> str:
    """The leaderboard as CSV, names kept; then every skipped entry (score empty), its text whole, its reason
    in 'source' and its line in the paste."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=CSV_FIELDS, lineterminator="\n")
    w.writeheader()
    for row in leaderboard(results):
        w.writerow({k: _cell(v) for k, v in row.items()} | {"hints": "yes" if row["hints"] else ""})
    for s in skipped:
        w.writerow({"rank": "", "name": _cell(s.name), "score": "", "placing": "", "deal": "", "bots": "",
                    "code": _cell(s.text), "source": _cell(f"skipped: {s.reason}"),
                    "line": s.line or ""})
    return buf.getvalue()


def _cell(value: Any) -> Any:
    """A text a student typed never starts a spreadsheet formula (it is written with a ' in front)."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value
