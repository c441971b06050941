"""Every registered game obeys the GameState protocol: seeded random playthroughs checked at every step."""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from sheetkit.core.errors import IllegalAction
from sheetkit.core.protocol import GameState
from sheetkit.core.records import replay
from sheetkit.core.registry import GameSpec, all_games

SEEDS = (11, 2024, 7, 99, 5, 31)
ROOT = Path(__file__).resolve().parents[1]


class NotAMove:
    """Something no game accepts as an action."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "not-a-move"}


@dataclass
class Playthrough:
    """What one random game did: its steps (None = a table step) and everything it saw."""

    spec: GameSpec
    params: Any
    players: int
    seed: int
    steps: list[tuple[int, Any] | None] = field(default_factory=list)
    seen: list[Any] = field(default_factory=list)  # every action that was ever legal, in first-seen order


def player_counts(spec: GameSpec) -> list[int]:
    return sorted({n for n in (1, 2, 3, 4) if spec.min_players <= n <= spec.max_players})


def cases(spec: GameSpec) -> list[tuple[int, int]]:
    """(players, seed) pairs: the fewest players twice, every count up to 4, then 2 again; each its own seed."""
    counts = player_counts(spec)
    return list(zip([counts[0], *counts, min(2, counts[-1])], SEEDS, strict=False))


def fingerprint_without_log(state: GameState) -> Any:
    """The fast path keeps no log; everything else must match."""
    fp = json.loads(state.fingerprint())
    fp.pop("log", None)
    return fp


def refuses(state: GameState, player: int, action: Any) -> None:
    """An illegal action raises IllegalAction (with a reason) and leaves the state exactly as it was."""
    before = state.fingerprint()
    with pytest.raises(IllegalAction) as e:
        state.apply(player, action)
    assert str(e.value) and isinstance(e.value.code, str) and e.value.code
    assert state.fingerprint() == before, f"refused {action!r} by player {player} but the state changed"


def check_state(state: GameState, pt: Playthrough, rng: random.Random) -> None:
    """Every protocol promise that can be checked on one state, without changing it."""
    fp = state.fingerprint()
    n = state.num_players

    # clone: equal, and moving it leaves the original alone (the other way round: see play_checked)
    twin = state.clone()
    assert twin.fingerprint() == fp
    if not twin.is_terminal():
        advance(twin, rng)
        assert state.fingerprint() == fp, "moving a clone changed the original"

    # record round trip (through real JSON text)
    doc = json.loads(json.dumps(state.to_record()))
    again = replay(doc)
    assert again.fingerprint() == fp, "replaying the record gave another state"
    assert again.scores() == state.scores()

    # every view is JSON; scores stay within the bounds
    for p in range(n):
        json.dumps(state.view(p))
    lo, hi = state.score_bounds()
    assert lo <= hi and all(lo <= s <= hi for s in state.scores()), (state.scores(), (lo, hi))

    # who may act, and what they may do
    current = state.current_players()
    legal = {p: state.legal_actions(p) for p in range(n)}
    for p in range(n):
        for a in legal[p]:
            if a not in pt.seen:
                pt.seen.append(a)
    assert state.legal_actions(n) == [] and state.legal_actions(-1) == []
    if state.is_terminal():
        assert current == [] and not any(legal.values()), "legal actions after the end"
        with pytest.raises(IllegalAction):
            state.apply_chance()
        assert state.fingerprint() == fp
    elif state.is_chance_node():
        assert current == [] and not any(legal.values()), "players may act while the table must move"
        if pt.seen:
            refuses(state, 0, pt.seen[0])
    else:
        assert current, "nobody may act, yet it is not the table's turn and not the end"
        assert len(set(current)) == len(current) and all(0 <= p < n for p in current)
        for p in range(n):
            assert bool(legal[p]) == (p in current), f"player {p}: legal actions disagree with current_players"
            for a in legal[p]:
                state.check(p, a)  # legal_actions is the single source of truth: check agrees
        with pytest.raises(IllegalAction):
            state.apply_chance()
        assert state.fingerprint() == fp
        p = rng.choice(current)
        refuses(state, p, NotAMove())
        refuses(state, n, legal[p][0])
        refuses(state, -1, legal[p][0])
        for q in range(n):
            if q not in current:
                refuses(state, q, legal[p][0])
        stale = [a for a in pt.seen if a not in legal[p]]
        for a in rng.sample(stale, min(4, len(stale))):
            refuses(state, p, a)
    for p in range(n):
        if not state.can_undo(p):
            with pytest.raises(IllegalAction):
                state.undo(p)
            assert state.fingerprint() == fp


def advance(state: GameState, rng: random.Random) -> tuple[int, Any] | None:
    """One random step: a table step, or one random legal action of one random current player."""
    if state.is_chance_node():
        state.apply_chance()
        return None
    p = rng.choice(state.current_players())
    a = rng.choice(state.legal_actions(p))
    state.apply(p, a)
    return p, a


def what_players_see(state: GameState) -> Any:
    """Everything a player or a saved record can observe."""
    n = state.num_players
    return (state.to_record(), [state.view(p) for p in range(n)], [state.legal_actions(p) for p in range(n)],
            state.current_players(), state.is_chance_node(), state.scores())


def play_checked(spec: GameSpec, params: Any, players: int, seed: int) -> tuple[Playthrough, GameState]:
    pt = Playthrough(spec, params, players, seed)
    rng = random.Random(seed)
    state = spec.new_state(params, [f"P{p}" for p in range(players)], seed=seed)
    for _ in range(20_000):
        check_state(state, pt, rng)
        if state.is_terminal():
            break
        before, seen_before = state.fingerprint(), what_players_see(state)
        kept = state.clone()
        step = advance(state, rng)
        pt.steps.append(step)
        assert kept.fingerprint() == before, "moving the original changed its clone"
        if step is None:
            assert not any(state.can_undo(p) for p in range(players)), "undo across a table step"
            continue
        p, a = step
        if state.can_undo(p):
            after = state.fingerprint()
            state.undo(p)
            assert what_players_see(state) == seen_before, f"undo of {a!r} by player {p} did not restore the game"
            state.apply(p, a)
            assert state.fingerprint() == after, "redoing the same action gave another state"
    else:  # pragma: no cover - a game that never ends fails here
        pytest.fail(f"{spec.name} did not end within 20,000 steps")
    return pt, state


def play_again(pt: Playthrough, how: str) -> GameState:
    """The same steps on a fresh state, through ``apply_unchecked`` or the ``apply_fast`` simulation path."""
    state = pt.spec.new_state(pt.params, [f"P{p}" for p in range(pt.players)], seed=pt.seed)
    for step in pt.steps:
        if step is None:
            state.apply_chance()
        else:
            getattr(state, how)(*step)
    return state


REPLAY_SCRIPT = """
import hashlib, json, sys
from sheetkit.core.records import replay
out = []
for doc in json.load(sys.stdin):
    s = replay(doc)
    out.append([hashlib.sha256(s.fingerprint().encode()).hexdigest(), s.scores(), s.is_terminal()])
print(json.dumps(out))
"""


@pytest.mark.parametrize("spec", all_games(), ids=lambda s: s.name)
def test_game_conforms_to_the_protocol(spec: GameSpec) -> None:
    """OpenSpiel-style: random legal play (and chance) for several seeds, player counts and variants."""
    presets = ["standard", *sorted(set(spec.presets) - {"standard"})]
    records, expected = [], []
    for k, (players, seed) in enumerate(cases(spec)):
        preset = presets[k % len(presets)]
        params = spec.presets[preset]()
        pt, state = play_checked(spec, params, players, seed)
        assert state.is_terminal() and state.legal_actions(0) == [] and state.current_players() == []
        assert len(state.scores()) == players

        unchecked = play_again(pt, "apply_unchecked")
        assert unchecked.fingerprint() == state.fingerprint(), "apply_unchecked differs from apply"
        fast = play_again(pt, "apply_fast")
        assert fast.is_terminal() and fast.scores() == state.scores(), f"fast path differs ({preset})"
        assert fingerprint_without_log(fast) == fingerprint_without_log(state)
        assert [fast.view(p) for p in range(players)] == [state.view(p) for p in range(players)]

        records.append(state.to_record())
        expected.append([hashlib.sha256(state.fingerprint().encode()).hexdigest(), state.scores(), True])

    # replay determinism across two processes (with another hash seed)
    env = {**os.environ, "PYTHONHASHSEED": "977"}
    out = subprocess.run([sys.executable, "-c", REPLAY_SCRIPT], input=json.dumps(records), capture_output=True,
                         text=True, timeout=120, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout) == expected


@pytest.mark.parametrize("spec", all_games(), ids=lambda s: s.name)
def test_undo_restores_the_exact_state(spec: GameSpec) -> None:
    """Undo leaves no trace: the fingerprint after undo equals the one before the move (and the record's replay)."""
    for players in player_counts(spec):
        rng = random.Random(players)
        state = spec.new_state(spec.default_params(), players, seed=players)
        while not state.is_terminal():
            before = state.fingerprint()
            step = advance(state, rng)
            if step is not None and state.can_undo(step[0]):
                state.undo(step[0])
                assert state.fingerprint() == before, f"undo of {step[1]!r} left a trace ({players} players)"
                assert replay(state.to_record()).fingerprint() == before
                state.apply(*step)
