"""Resume codes: a game in progress against a table's bots, packed short enough for the page's link.

A resume code looks like a result code (``sheetkit/analysis/results.py``) with ``P`` (in progress) where a result
code has ``R``, and the number of seat 0's moves so far before them: ``AV-0000-001A.P1G.12.8QM7G-209.A0B6C`` is the
deal, the bots, 12 moves, seat 0's choices packed as in a result code, and a check.
Decoding replays the deal exactly as a table plays it (chance from the seed, the bots seeded as the table seeds
them, asked to move whenever seat 0 need not) and stops where seat 0 must choose and its written choices have run
out, or where the game ended. The two check characters of the game are taken of that state, so a code that would
replay to another game (a sheetkit whose rules or bots changed) is refused, never turned into a different game.

The table writes its resume code into the page's link after every move (``widgets/resume.py``): a reload, or a
kernel culled or restarted, opens the same game at the same point with the same bots — the very bot objects of
the replay, whose random streams have moved on exactly as the table's had, so the game goes on as it would have
and its result code at the end still replays.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sheetkit.analysis.results import (
    CHECK_CHARS,
    GAME_CHARS,
    MAX_CODE_CHARS,
    MAX_STEPS,
    VERSION,
    _b32,
    _check,
    _deal_state,
    _digit,
    _game_check,
    _grouped,
    _legal_here,
    _spec_for,
    bot_letters,
    codec_of,
    seat0_game,
)
from sheetkit.core.codes import _ALPHABET, _READ_AS, GameCode, make_code, parse_code
from sheetkit.core.errors import IllegalAction, RecordError
from sheetkit.core.play import advance, seat_bots
from sheetkit.core.protocol import GameState
from sheetkit.core.registry import GameSpec

MARK = "P"   # where a result code has R


@dataclass
class Resumed:
    """A game brought back from its resume code: the state, the bots' kinds and the bots themselves (seats 1…)."""

    code: str
    state: GameState
    kinds: tuple[str, ...]
    bots: dict[int, Any] = field(default_factory=dict)


class _OutOfMoves(Exception):
    """Seat 0 must choose, and the code holds no more of its choices: the game is back where it was."""


def _drive(spec: GameSpec, gc: GameCode, kinds: Sequence[str], choose: Any) -> tuple[GameState, dict[int, Any]]:
    """Play the deal as a table does, seat 0's moves from ``choose``, until the game ends or ``choose`` runs out."""
    state = _deal_state(spec, gc, kinds)
    bots = seat_bots(spec.bots, kinds, gc.seed)
    out_of_moves = False

    def seat_zero(now: GameState, _: int) -> Any:
        nonlocal out_of_moves
        try:
            return choose(now)
        except _OutOfMoves:
            out_of_moves = True
            return None                  # the loop stops here: the game is back where it was

    for n, _ in enumerate(advance(state, bots, people={0}, person_move=seat_zero), start=1):
        if n > MAX_STEPS:
            raise RecordError("the game did not end")
    if not state.is_terminal() and not out_of_moves:
        raise RecordError("the game stopped with nobody to move")
    return state, bots


def _players_moves(log: Sequence[dict[str, Any]]) -> list[tuple[int, Any]]:
    return [(int(e["player"]), e["action"]) for e in log if "player" in e]


def resume_code(state: GameState, bots: Sequence[str]) -> str:
    """The resume code of ``state``, a game in which seat 0 plays against the table's seeded ``bots`` (kinds).

    Raises RecordError with the reason when the game has none: no game code, players that are not seat 0 and
    known bots, or moves that the seeded bots would not have made (a record loaded mid-game).
    """
    gc, spec, kinds, mine = seat0_game(state, bots)
    codec = codec_of(spec)
    value, radix, k = 0, 1, 0

    def choose(now: GameState) -> Any:
        nonlocal value, radix, k
        if k >= len(mine):
            raise _OutOfMoves
        want = mine[k]
        k += 1
        digits = codec.encode(now, 0, spec.parse_action(want, "action"))
        if digits is None:
            if _legal_here(spec, now, want):
                raise RecordError(f"{spec.title}'s moves do not fit a short code")
            raise RecordError("the bots did not play as in this game")
        back = iter(digits)
        got = codec.decode(now, 0, lambda n: _digit(next(back, (-1, -1)), n))
        if got.to_json() != want or next(back, None) is not None:
            raise RecordError("a move does not read back from its code")
        for i, n in digits:
            value += i * radix
            radix *= n
        return got

    again, _ = _drive(spec, gc, kinds, choose)
    # The table may stand a little behind the replay (a card not yet flipped): its moves must be the replay's first.
    if k != len(mine) or _players_moves(again.log)[:len(_players_moves(state.log))] != _players_moves(state.log) \
            or any(p == 0 for p, _ in _players_moves(again.log)[len(_players_moves(state.log)):]):
        raise RecordError("the bots did not play as in this game")
    head = (f"{make_code(gc.prefix, gc.seed, gc.preset)}.{MARK}{VERSION}"
            f"{''.join(bot_letters(spec)[b] for b in kinds)}.{len(mine)}")
    digits = _b32(value)
    game = _game_check(again)
    return f"{head}.{_grouped(digits)}.{game}{_check(head, digits, game)}"


def read_resume_code(text: str, game: str | None = None) -> Resumed:
    """The game of a resume code, back where it was (with its bots); RecordError with a one-line reason if not.

    With ``game`` (a registry name such as 'avenue'), a code of another game is refused.
    """
    raw = str(text)
    if len(raw) > MAX_CODE_CHARS:
        raise RecordError("far too long for a resume code")
    parts = "".join(raw.split()).upper().split(".")
    if len(parts) != 5:
        raise RecordError("not a resume code (it has five parts: deal, bots, moves made, moves, check)")
    gc = parse_code(parts[0])
    spec = _spec_for(gc.prefix)
    if game is not None and spec.name != game:
        raise RecordError(f"a resume code of {spec.title}, not of this game")
    version = parts[1][:1] + "".join(_READ_AS.get(ch, ch) for ch in parts[1][1:2]) + parts[1][2:]
    m = re.fullmatch(rf"{MARK}(\d)([A-Z]*)", version)
    if not m or int(m.group(1)) != VERSION:
        raise RecordError("not a resume code of this sheetkit version")
    if not parts[2].isdigit() or len(parts[2]) > 5:
        raise RecordError("a resume code's count of moves is damaged")
    moves = int(parts[2])
    kind_of = {v: k for k, v in bot_letters(spec).items()}
    try:
        kinds = [kind_of[ch] for ch in m.group(2)]
    except KeyError as e:
        raise RecordError(f"unknown bot letter {e.args[0]!r}") from None
    digits = "".join(_READ_AS.get(ch, ch) for ch in parts[3].replace("-", ""))
    check = "".join(_READ_AS.get(ch, ch) for ch in parts[4])
    if not digits or len(check) != GAME_CHARS + CHECK_CHARS or any(ch not in _ALPHABET for ch in digits + check):
        raise RecordError("a resume code's moves or check are damaged")
    head = f"{make_code(gc.prefix, gc.seed, gc.preset)}.{MARK}{VERSION}{m.group(2)}.{moves}"
    game_chars, check = check[:GAME_CHARS], check[GAME_CHARS:]
    if check != _check(head, digits.lstrip("0") or "0", game_chars):
        raise RecordError("wrong check characters: the code is damaged")
    value = 0
    for ch in digits:
        value = value * 32 + _ALPHABET.index(ch)
    codec = codec_of(spec)
    left = {"value": value, "moves": moves}

    def read(radix: int) -> int:
        if radix < 1:
            raise RecordError("seat 0 must move but has no legal move")
        left["value"], i = divmod(left["value"], radix)
        return i

    def choose(now: GameState) -> Any:
        if left["moves"] == 0:
            raise _OutOfMoves
        left["moves"] -= 1
        return codec.decode(now, 0, read)

    try:
        state, bots = _drive(spec, gc, kinds, choose)
    except (IllegalAction, KeyError, ValueError, IndexError) as e:
        raise RecordError(f"could not be replayed ({str(e)[:80]})") from None
    if left["value"] or left["moves"]:
        raise RecordError("damaged: it holds more moves than the game has")
    if _game_check(state) != game_chars:
        raise RecordError("it replays to another game here (made by another sheetkit version?)")
    return Resumed(f"{head}.{_grouped(digits.lstrip('0') or '0')}.{game_chars}{check}", state, tuple(kinds), bots)

