"""A standing fuzz test for every registered game (issue #8): seeded, bounded in time, run in CI.

For each game in ``all_games()`` (a game that registers is picked up with no change here) it plays
random games — random player counts, presets and seeds — and at every step does one random thing:
a legal action; an illegal one (another player's legal action, an action seen in another state or
game, a legal action with one field replaced by junk, something that is not a move, a player who does
not exist, a table step while players must act); an undo (legal or not); a clone moved on on its own; or
a record → JSON → replay. After every step the game's conservation laws hold (``GameState.audit``).
Every refused action must raise ``IllegalAction`` and leave the fingerprint identical; a clone, a
replay and an undo must give exactly the states they promise. Only the
``GameState`` protocol is used (and ``dataclasses.replace`` for junk fields of dataclass actions).

Time: ``SHEETKIT_FUZZ_SECONDS`` per game (default 5); the run stops when it is spent and must have done
at least ``MIN_ACTIONS``. The sequence is fixed by the game's name, so a run is a prefix of the same
sequence on every machine; a failure names the game, its setup and the step. Counts per game (``-rA``
prints them; also ``record_property("fuzz_actions")``), 5 s each on this project's 2-core machine under
load 2.4: avenue 41,658 actions in 186 games, key-harvest 14,386 in 26, kingdom-maps 22,230 in 50
(docs/performance.md, "The standing fuzz test").
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import time
import zlib
from collections import Counter
from typing import Any

import pytest
from test_conformance import NotAMove, player_counts

from sheetkit.core.errors import IllegalAction
from sheetkit.core.protocol import GameState
from sheetkit.core.records import replay
from sheetkit.core.registry import GameSpec, all_games

BUDGET = float(os.environ.get("SHEETKIT_FUZZ_SECONDS", "5"))
MIN_ACTIONS = 300  # a game whose fuzz run does fewer actions than this in the budget fails
MAX_STEPS = 20_000  # per game played (a game that never ends fails here)
JUNK: tuple[Any, ...] = (-1, 10**9, -(10**9), None, "x", "", 2.5, True, False, (), [0], {"q": 0}, float("nan"))
BAD_PLAYERS: tuple[Any, ...] = (-1, 99, None, "0", True, 1.0)


class Fuzz:
    """One game's fuzz run: counters and the pool of actions seen so far (for actions from other states)."""

    def __init__(self, spec: GameSpec, rng: random.Random) -> None:
        self.spec, self.rng = spec, rng
        self.count: Counter[str] = Counter()
        self.pool: list[Any] = []
        self.where = ""

    # ----- helpers ---------------------------------------------------------------------------
    def refused(self, state: GameState, player: Any, action: Any, why: str) -> None:
        """``action`` must be refused with IllegalAction and change nothing."""
        before = state.fingerprint()
        try:
            state.apply(player, action)
        except IllegalAction as e:
            assert str(e) and isinstance(e.code, str) and e.code, f"{self.where}: refusal without a reason"
        else:
            raise AssertionError(f"{self.where}: {why}: {action!r} by player {player!r} was accepted")
        assert state.fingerprint() == before, f"{self.where}: refused {action!r} ({why}) but the state changed"
        self.count["illegal"] += 1

    def try_any(self, state: GameState, player: int, action: Any, why: str) -> None:
        """An action that may or may not be legal: a legal one must be accepted, any other refused cleanly.

        "Legal" is ``legal_actions`` to the letter: an action merely *equal* to a legal one (``True`` for ``1``)
        may be refused; if it is accepted, the record → replay checks that follow must still hold.
        """
        legal = state.legal_actions(player)
        try:
            equal = action in legal
        except Exception:  # an action that cannot even be compared is certainly not legal
            equal = False
        same = equal and any(type(a) is type(action) and repr(a) == repr(action) for a in legal)
        before = state.fingerprint()
        try:
            state.apply(player, action)
        except IllegalAction as e:
            assert not same, f"{self.where}: the legal {action!r} was refused: {e}"
            assert str(e) and isinstance(e.code, str) and e.code, f"{self.where}: refusal without a reason"
            assert state.fingerprint() == before, f"{self.where}: refused {action!r} ({why}) but the state changed"
            self.count["illegal"] += 1
        else:
            assert equal, f"{self.where}: {why}: {action!r} by player {player} was accepted but is not legal"
            self.count["legal"] += 1

    def legal(self, state: GameState, player: int, action: Any) -> None:
        state.apply(player, action)
        self.count["legal"] += 1
        if action not in self.pool:
            self.pool.append(action)
            if len(self.pool) > 400:
                self.pool.pop(self.rng.randrange(len(self.pool)))

    def junk_action(self, action: Any) -> Any:
        """The action with one field replaced by junk (dataclass actions), else something that is no move."""
        if dataclasses.is_dataclass(action) and not isinstance(action, type):
            fields = dataclasses.fields(action)
            if fields:
                f = self.rng.choice(fields)
                try:
                    return dataclasses.replace(action, **{f.name: self.rng.choice(JUNK)})
                except Exception:  # a dataclass that validates its fields: the junk is refused already
                    pass
        return self.rng.choice([NotAMove(), None, "pass", 0, {"type": "place"}])

    # ----- one random step -------------------------------------------------------------------
    def step(self, state: GameState) -> GameState:
        """Do one random thing to ``state``; returns the state to go on with."""
        rng, n = self.rng, state.num_players
        r = rng.random()
        if r < 0.04:  # record → JSON text → replay: the identical state
            again = replay(json.loads(json.dumps(state.to_record())))
            assert again.fingerprint() == state.fingerprint(), f"{self.where}: replay differs"
            self.count["replay"] += 1
            return again if rng.random() < 0.5 else state
        if r < 0.08:  # a clone moved on alone leaves the original untouched
            fp = state.fingerprint()
            twin = state.clone()
            assert twin.fingerprint() == fp, f"{self.where}: clone differs"
            for _ in range(rng.randint(1, 5)):
                if twin.is_terminal():
                    break
                self.random_legal(twin, count=False)
            assert state.fingerprint() == fp, f"{self.where}: moving a clone changed the original"
            self.count["clone"] += 1
            return twin if rng.random() < 0.3 else state
        if r < 0.16:  # undo by anyone: legal undos restore the game, the others are refused
            p = rng.randrange(n)
            before = state.fingerprint()
            if state.can_undo(p):
                state.undo(p)
                self.count["undo"] += 1
            else:
                with pytest.raises(IllegalAction):
                    state.undo(p)
                assert state.fingerprint() == before, f"{self.where}: a refused undo changed the state"
                self.count["illegal"] += 1
            return state
        if state.is_terminal() or state.is_chance_node():
            if r < 0.35 and self.pool:  # nobody may act now
                self.refused(state, rng.randrange(n), rng.choice(self.pool), "a move while the table must act")
                return state
            if state.is_terminal():
                before = state.fingerprint()
                with pytest.raises(IllegalAction):
                    state.apply_chance()
                assert state.fingerprint() == before
                self.count["illegal"] += 1
                return state
            state.apply_chance()
            self.count["chance"] += 1
            return state
        current = state.current_players()
        assert current, f"{self.where}: nobody may act, yet it is neither the table's turn nor the end"
        p = rng.choice(current)
        legal = state.legal_actions(p)
        assert legal, f"{self.where}: player {p} is current but has no legal action"
        if r < 0.60:
            self.legal(state, p, rng.choice(legal))
            return state
        before = state.fingerprint()
        if r < 0.63:
            with pytest.raises(IllegalAction):
                state.apply_chance()
            assert state.fingerprint() == before, f"{self.where}: a refused table step changed the state"
            self.count["illegal"] += 1
        elif r < 0.70:  # a player who may not act now, with someone else's legal action
            idle = [q for q in range(n) if q not in current]
            if idle:
                self.refused(state, rng.choice(idle), rng.choice(legal), "a player who is not to act")
            else:
                self.refused(state, rng.choice(BAD_PLAYERS), rng.choice(legal), "no such player")
        elif r < 0.80 and self.pool:  # an action from another state (or game), legal here or not
            self.try_any(state, p, rng.choice(self.pool), "an action from another state")
        elif r < 0.90:  # a legal action with junk in it
            self.try_any(state, p, self.junk_action(rng.choice(legal)), "a malformed action")
        else:
            self.refused(state, rng.choice(BAD_PLAYERS), rng.choice(legal), "no such player")
        return state

    def random_legal(self, state: GameState, count: bool = True) -> None:
        if state.is_chance_node():
            state.apply_chance()
            return
        p = self.rng.choice(state.current_players())
        a = self.rng.choice(state.legal_actions(p))
        state.apply(p, a)
        if count:
            self.count["legal"] += 1


@pytest.mark.parametrize("spec", all_games(), ids=lambda s: s.name)
def test_fuzz_random_legal_and_illegal_actions(spec: GameSpec, record_property: Any) -> None:
    """Refused actions change nothing; undo, clone and record → replay keep their promises, at random points."""
    rng = random.Random(zlib.crc32(spec.name.encode()))
    fz = Fuzz(spec, rng)
    presets = sorted(spec.presets)
    games = 0
    deadline = time.perf_counter() + BUDGET
    while time.perf_counter() < deadline:
        players, preset, seed = rng.choice(player_counts(spec)), rng.choice(presets), rng.randrange(2**31)
        state = spec.new_state(spec.presets[preset](), [f"P{p}" for p in range(players)], seed=seed)
        games += 1
        for k in range(MAX_STEPS):
            if (state.is_terminal() and rng.random() < 0.3) or time.perf_counter() >= deadline:
                break
            fz.where = f"{spec.name} game {games} ({players} players, {preset}, seed {seed}) step {k}"
            state = fz.step(state)
            assert state.audit() == [], f"{fz.where}: {state.audit()}"    # conservation, after anything at all
        else:  # pragma: no cover - a game that never ends
            pytest.fail(f"{fz.where}: the game did not end within {MAX_STEPS} steps")
    actions = sum(fz.count.values())
    summary = ", ".join(f"{k} {v:,}" for k, v in sorted(fz.count.items()))
    print(f"fuzz {spec.name}: {actions:,} actions in {games} games in {BUDGET:.0f} s ({summary})")
    record_property("fuzz_actions", actions)
    assert actions >= MIN_ACTIONS, f"only {actions} actions in {BUDGET} s ({summary})"
    assert fz.count["legal"] and fz.count["illegal"] and fz.count["replay"] and fz.count["clone"]
