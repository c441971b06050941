"""Luck or choices? What a finished game's score owes to the deal and what to the person's decisions.

Three yardsticks, all on the very deal that was played (the same seed: the same cards, dice and bag,
the same opponents' bots seeded as the table seeds them):

- the expert bot playing the person's seat: the gap to the person's score is their *choices*;
- the hindsight search (told the whole deal in advance) on this deal, beside the average hindsight
  best over deals of the same variant (``sheetkit/analysis/data/luck_baselines.json``, made by
  ``benchmarks/luck_baselines.py``): the gap is the *luck of this deal*;
- the decisions that cost most: the game replayed from its record, and at each of the person's
  decisions the expert's ``evaluate`` asked what the played move and its own choice are worth;
  cost = value(best) − value(played), in points.

Everything runs on iteration budgets (never the clock), so the same game gives the same answer.
``analyse`` reports progress and can be cancelled between steps (a running hindsight search or
expert decision finishes first); budgets per game keep the whole panel within its time goal.
"""

from __future__ import annotations

import inspect
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from sheetkit.core.bots import RecordingBot
from sheetkit.core.chance import derive_seed
from sheetkit.core.codes import parse_code
from sheetkit.core.errors import RecordError, SheetkitError
from sheetkit.core.play import advance, apply_entry, bot_kind, seat_bots
from sheetkit.core.protocol import Bot, GameState, HindsightResult
from sheetkit.core.registry import GameSpec, get_game

Progress = Callable[[float, str], None]
MAX_STEPS = 20_000         # table steps and moves in one game (a guard, never reached in play)
BASELINES = "luck_baselines.json"


class Cancelled(SheetkitError):
    """The analysis was stopped before it finished (a new game began)."""


@dataclass(frozen=True)
class LuckBudget:
    """How hard each part searches (1.0 = the bot's documented default); tuned per game to the panel's time goal."""

    expert: float = 1.0        # the expert playing your seat on your deal
    hindsight: float = 1.0     # the hindsight search on your deal
    screen: float = 0.3        # valuing every decision once
    check: float = 1.0         # valuing the costliest again, more carefully
    checked: int = 6           # how many decisions are valued again
    listed: int = 8            # a decision with more legal moves values only the played one and the expert's choice


# Chosen so that the whole panel stays within 10 s (Avenue, Kingdom Maps) and 30 s (Key Harvest) of process
# time on the 2-core machine (docs/analysis.md, "Luck or choices?", with the command that measured it).
BUDGETS: dict[str, LuckBudget] = {
    "avenue": LuckBudget(expert=1.0, hindsight=1.0, screen=0.3, check=1.0),
    # ~80 decisions a game (every hex drawn is one): the screen values only the played move and the expert's
    "kingdom-maps": LuckBudget(expert=0.4, hindsight=0.5, screen=0.1, check=0.5, checked=5, listed=2),
    "key-harvest": LuckBudget(expert=1.0, hindsight=0.5, screen=0.2, check=0.5),
}


@dataclass(frozen=True)
class Decision:
    """One of the person's decisions, valued by the expert: what they played, what it would have played."""

    number: int              # 1 = the person's first decision of the game
    before: GameState        # the game just before it (for drawing the sheet)
    played: Any
    best: Any
    value_played: float      # the expert's estimate of the final score after the played move
    value_best: float

    @property
    def cost(self) -> float:
        """Points the played move gave away, by the expert's estimate (0 when it was the expert's choice)."""
        return max(0.0, self.value_best - self.value_played)


@dataclass(frozen=True)
class Baseline:
    """The average hindsight best over many deals of one variant, and how it was made."""

    mean: float
    sd: float
    deals: int
    how: str


@dataclass(frozen=True)
class LuckReport:
    """What ``analyse`` found about one finished game, for one seat."""

    game: str
    variant: str
    player: int
    score: int
    expert_score: int | None                 # None: no expert for this game, or the table cannot be re-run
    hindsight: HindsightResult | None
    baseline: Baseline | None
    decisions: tuple[Decision, ...]          # the costliest first (at most ``top``), each with cost > 0
    considered: int                          # decisions valued (those with a real choice)
    seconds: Mapping[str, float] = field(default_factory=dict)   # process time per part
    notes: tuple[str, ...] = ()

    @property
    def choices(self) -> int | None:
        """Expert on this deal minus your score: what your choices cost (negative: you beat the expert)."""
        return None if self.expert_score is None else self.expert_score - self.score

    @property
    def best(self) -> int | None:
        """The best score known on this deal: the hindsight search's, or the expert's game when that scored more
        (both are games really played on this deal, so its best is at least either)."""
        if self.hindsight is None:
            return None
        return max(self.hindsight.score, self.expert_score if self.expert_score is not None else self.hindsight.score)

    @property
    def luck(self) -> float | None:
        """This deal's hindsight best minus the average deal's: positive, a kind deal."""
        if self.hindsight is None or self.baseline is None:
            return None
        return self.hindsight.score - self.baseline.mean


# ----- the deal, the bots at the table ---------------------------------------------------------------
def variant_of(state: GameState) -> str:
    """The variant name of a game (from its game code); 'custom' for a fixed deal or rules without a code."""
    code = getattr(state, "game_code", lambda: None)()
    return parse_code(code).preset if code else "custom"


def fresh_deal(state: GameState) -> GameState:
    """The same deal, from its start: same rules, players, seed and fixed deal."""
    deal = getattr(state, "deal", None)      # Key Harvest has no fixed-deal form: its seed is the whole deal
    return type(state)(state.params, list(state.players), seed=state.seed, deal=deal)  # type: ignore[attr-defined]


def table_bots(spec: GameSpec, state: GameState, kinds: Mapping[int, str]) -> dict[int, Bot]:
    """The opponents as a table seats them: each kind seeded with the table's seed for its seat."""
    return seat_bots(spec.bots, kinds, getattr(state, "seed", None))


def _play(spec: GameSpec, state: GameState, player: int, me: Bot, kinds: Mapping[int, str],
          cancel: Callable[[], bool] | None, tick: Callable[[], None] | None = None) -> GameState:
    """Play the deal from its start: ``me`` in ``player``'s seat, the table's bots in the others."""
    seats = {**table_bots(spec, state, kinds), player: me}
    for n, step in enumerate(advance(state, seats), start=1):
        if n > MAX_STEPS:
            raise RecordError("the game did not end")
        if cancel is not None and cancel():
            raise Cancelled("stopped")
        if step.player == player and tick is not None:
            tick()
    return state


# ----- the person's decisions ------------------------------------------------------------------------
def moves_of(state: GameState, player: int) -> list[Any]:
    """Every move ``player`` made in the game, in order (forced ones too), read from its record."""
    spec = get_game(state.game_name)
    return [spec.parse_action(e["action"], "action") for e in state.log
            if "chance" not in e and int(e["player"]) == player]


def decisions_of(state: GameState, player: int = 0) -> list[tuple[GameState, Any, list[Any]]]:
    """(the game just before, the move played, the legal moves) at each of ``player``'s real choices.

    The record is replayed from the deal's start; a move with no alternative (a forced pass) is left out.
    A move that ``legal_actions`` does not list (a Key Harvest bid of several crops) is added to the list.
    """
    spec = get_game(state.game_name)
    follow = fresh_deal(state)
    out: list[tuple[GameState, Any, list[Any]]] = []
    for entry in state.log:
        if "chance" in entry:
            apply_entry(follow, entry)
            continue
        p = int(entry["player"])
        action = spec.parse_action(entry["action"], "action")
        if p == player:
            legal = follow.legal_actions(p)
            listed = [a for a in legal if a.to_json() != action.to_json()]
            if listed:
                out.append((follow.clone(), action, [action, *listed]))
        apply_entry(follow, entry, action)
    return out


def _candidates(factory: Callable[..., Any], seed: int, number: int, budget: float, before: GameState, player: int,
                played: Any, legal: list[Any], listed: int) -> list[Any]:
    """The moves to value (the played one first): every legal one when there are few, else the played move and the
    expert's own choice."""
    if len(legal) <= listed:
        return legal
    choice = factory(seed=derive_seed(seed, "luck-decision", number), budget=budget).act(before.clone(), player)
    return [played] + ([choice] if choice.to_json() != played.to_json() else [])


def value_decision(factory: Callable[..., Any], seed: int, number: int, before: GameState, player: int,
                   played: Any, moves: Sequence[Any], budget: float) -> tuple[Any, float, float, list[float]]:
    """(the expert's best move, its value, the played move's value, every value) — ``moves[0]`` is the played one.

    A fresh expert per decision, seeded by the deal and the decision's number, so a decision's value does
    not depend on which others were valued before it.
    """
    expert = factory(seed=derive_seed(seed, "luck-decision", number), budget=budget)
    values = [float(v) for v in expert.evaluate(before.clone(), player, list(moves))]
    k = max(range(len(values)), key=lambda i: (values[i], i == 0))   # a tie goes to the played move
    return moves[k], values[k], values[0], values


# ----- the average deal ------------------------------------------------------------------------------
@cache
def _baselines() -> list[dict[str, Any]]:
    try:
        text = resources.files("sheetkit.analysis").joinpath("data", BASELINES).read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return []
    data = json.loads(text)
    return list(data.get("baselines", []))


def baseline(game: str, variant: str, kinds: Sequence[str]) -> Baseline | None:
    """The stored average hindsight best for this game, variant and opponents (None when none was made).

    An entry without ``bots`` stands for any opponents: the game's opponents cannot change your score
    (Avenue: everyone draws the same cards on their own sheet).
    """
    for b in _baselines():
        if b["game"] != game or b["variant"] != variant:
            continue
        if b.get("bots") is None or list(b["bots"]) == list(kinds):
            return Baseline(float(b["mean"]), float(b["sd"]), int(b["deals"]), str(b["how"]))
    return None


# ----- the whole analysis ----------------------------------------------------------------------------
def analyse(state: GameState, player: int = 0, bots: Mapping[int, str] | Sequence[str] | None = None, *,
            expert: Callable[..., Any] | None = None, hindsight: Callable[..., HindsightResult] | None = None,
            budget: LuckBudget | None = None, top: int = 3, progress: Progress | None = None,
            cancel: Callable[[], bool] | None = None) -> LuckReport:
    """Luck or choices for ``player`` in the finished game ``state``.

    ``bots``: the opponents' kinds by seat (a sequence: seats 1, 2, … as tables write ``bot_kinds``); None
    reads them from the player names. ``expert``/``hindsight``: the game's own (``BOTS['expert']``,
    ``GameSpec.hindsight``) unless given. ``progress(fraction, words)`` is called as parts finish;
    ``cancel()`` returning True stops the work (``Cancelled``).
    """
    if not state.is_terminal():
        raise RecordError("the game is not finished yet")
    spec = get_game(state.game_name)
    kinds = _kinds(spec, state, player, bots)
    factory = expert if expert is not None else spec.bots.get("expert")
    search = hindsight if hindsight is not None else spec.hindsight
    b = budget or BUDGETS.get(spec.name, LuckBudget())
    seed = getattr(state, "seed", None) or 0
    score = int(state.scores()[player])
    variant = variant_of(state)
    notes: list[str] = []
    seconds: dict[str, float] = {}
    say = progress or (lambda _f, _w: None)

    def stop() -> None:
        if cancel is not None and cancel():
            raise Cancelled("stopped")

    found = decisions_of(state, player)
    # Shares of the bar: the expert's game ~ one decision each, the screen ~ one each, the check, the search.
    parts = {"expert": len(found) if factory and kinds is not None else 0,
             "hindsight": 0.25 * max(1, len(found)) if search else 0,
             "screen": len(found) if factory else 0,
             "check": min(b.checked, len(found)) if factory else 0}
    total = sum(parts.values()) or 1.0
    done = 0.0

    def advance(part: str, k: float, words: str) -> None:
        nonlocal done
        done += k
        say(min(1.0, done / total), words)

    # 1. The expert in your seat, on your deal.
    expert_score = None
    expert_moves: list[Any] = []
    t0 = time.process_time()
    if factory is None:
        notes.append(f"{spec.title} has no expert bot yet.")
    elif kinds is None:
        notes.append("Another person played at this table, so neither the expert nor the hindsight search can "
                     "replay the deal.")
    else:
        say(0.0, "The expert plays your deal…")
        me = RecordingBot(factory(seed=derive_seed(seed, "luck-expert"), budget=b.expert), expert_moves)
        steps = max(1, len(found))
        again = _play(spec, fresh_deal(state), player, me, kinds, cancel,
                      tick=lambda: advance("expert", min(1.0, parts["expert"] / steps), "The expert plays your deal…"))
        expert_score = int(again.scores()[player])
    seconds["expert"] = time.process_time() - t0
    done = parts["expert"]

    # 2. The hindsight best on this deal.
    stop()
    found_best = None
    t0 = time.process_time()
    if search is None:
        notes.append(f"{spec.title} has no hindsight search yet.")
    elif kinds is None:
        pass          # the best game on a deal depends on how the others play: people cannot be re-run
    else:
        say(done / total, "Searching the best game on this deal, the whole deal known in advance…")
        seated = table_bots(spec, state, kinds)
        seats = [seated.get(p) for p in range(state.num_players)]
        # The better of the two games played on this deal (the expert's, yours) seeds the search where it
        # takes one, so the best it reports is never below a game really played on the deal.
        given = expert_moves if expert_score is not None and expert_score >= score else moves_of(state, player)
        extra = {"baseline": given} if "baseline" in inspect.signature(search).parameters else {}
        found_best = search(fresh_deal(state), player, seats, budget=b.hindsight, **extra)
        advance("hindsight", parts["hindsight"], "Searched the best game on this deal.")
    seconds["hindsight"] = time.process_time() - t0
    base = baseline(spec.name, variant, [kinds[p] for p in sorted(kinds)] if kinds else [])
    if found_best is not None and base is None:
        notes.append("No average deal is stored for this variant and these opponents yet.")

    # 3. Every decision valued once, the costliest again.
    chosen: list[Decision] = []
    t0 = time.process_time()
    if factory is not None and found:
        screened: list[tuple[float, int, list[Any]]] = []
        for n, (before, played, legal) in enumerate(found, start=1):
            stop()
            moves = _candidates(factory, seed, n, b.screen, before, player, played, legal, b.listed)
            if len(moves) == 1:          # the expert's own choice was the played move: nothing given away
                advance("screen", 1, f"Looking at your decisions: {n} of {len(found)}…")
                continue
            _, v_best, v_played, values = value_decision(factory, seed, n, before, player, played, moves, b.screen)
            ranked = sorted(range(len(moves)), key=lambda i: -values[i])
            shortlist = [moves[0], *[moves[i] for i in ranked if i != 0][:3]]
            screened.append((v_best - v_played, n, shortlist))
            advance("screen", 1, f"Looking at your decisions: {n} of {len(found)}…")
        screened.sort(key=lambda t: (-t[0], t[1]))
        for cost, n, shortlist in screened[: b.checked]:
            stop()
            before, played, _ = found[n - 1]
            if cost <= 0 or len(shortlist) < 2:
                advance("check", 1, "Checking the costliest decisions…")
                continue
            best, v_best, v_played, _ = value_decision(factory, seed, n, before, player, played, shortlist, b.check)
            chosen.append(Decision(n, before, played, best, v_played, v_best))
            advance("check", 1, "Checking the costliest decisions…")
        chosen = [d for d in chosen if d.cost > 0]
        chosen.sort(key=lambda d: (-d.cost, d.number))
    seconds["decisions"] = time.process_time() - t0
    say(1.0, "Done.")
    return LuckReport(spec.name, variant, player, score, expert_score, found_best, base, tuple(chosen[:top]),
                      len(found), seconds, tuple(notes))


def _kinds(spec: GameSpec, state: GameState, player: int,
           bots: Mapping[int, str] | Sequence[str] | None) -> dict[int, str] | None:
    """The opponents' bot kinds by seat; None when a seat is not a known bot (a person, pass-and-play)."""
    others = [p for p in range(state.num_players) if p != player]
    if isinstance(bots, Mapping):
        kinds = dict(bots)
    elif bots is not None:
        kinds = dict(zip(others, bots, strict=False))
    else:
        kinds = {}
        for p in others:
            kind = bot_kind(str(state.players[p]), spec.bots)
            if kind is not None:
                kinds[p] = kind
    if set(kinds) != set(others) or any(k not in spec.bots for k in kinds.values()):
        return None
    return kinds
