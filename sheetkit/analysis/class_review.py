"""A class's games on one deal, beside the bots': today's deal, the bots' scores, and where the class chose.

Every game here is replayed from its moves (``sheetkit.analysis.results``); nothing a student typed is
trusted. The bots play the class's deal in seat 0 with the class's opponents, seeded, so the
comparison is with games played on exactly the same cards or dice.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sheetkit.analysis.results import ClassDeal, Result
from sheetkit.core.chance import MAX_SEED, derive_seed
from sheetkit.core.codes import make_code, parse_code
from sheetkit.core.play import advance, bot_label, bot_names, run, seat_bots
from sheetkit.core.protocol import GameState
from sheetkit.core.registry import GameSpec


def todays_deal(spec: GameSpec, day: dt.date | None = None) -> str:
    """The deal of the day for a game: the same code for everyone on that date (UTC when not given)."""
    day = day or dt.datetime.now(dt.UTC).date()
    return make_code(spec.code_prefix, derive_seed(day.toordinal(), "class-deal", spec.name) & MAX_SEED)


@dataclass(frozen=True)
class BotGame:
    """One bot's game in seat 0 on the class's deal."""

    kind: str
    seed: int
    state: GameState

    @property
    def score(self) -> int:
        """Seat 0's final score."""
        return int(self.state.scores()[0])


def bot_games(deal: ClassDeal, plays: int = 5, kinds: Sequence[str] | None = None) -> list[BotGame]:
    """Each bot kind plays the class's deal in seat 0 (``plays`` seeds; once if slow or seed-blind)."""
    spec = deal.spec
    gc = parse_code(deal.deal)
    params = spec.presets[gc.preset]()
    out: list[BotGame] = []
    for kind in kinds if kinds is not None else sorted(spec.bots):
        logs: list[Any] = []
        # A slow bot (the expert) is the class's yardstick, not a spread: one seeded game keeps the page quick.
        for i in range(1 if getattr(spec.bots[kind], "slow", False) else plays):
            seed = derive_seed(gc.seed, "class-bot", kind, i)
            state = spec.new_state(params, [f"{bot_label(kind)} (you)", *bot_names(deal.bots)], seed=gc.seed)
            me = spec.bots[kind](seed=seed)
            run(advance(state, seat_bots(spec.bots, deal.bots, gc.seed), people={0},
                        person_move=lambda now, _, me=me: me.act(now, 0)))     # seat 0 first, as a student
            out.append(BotGame(kind, seed, state))
            logs.append(state.log)
            if i == 1 and logs[0] == logs[1]:   # a seed-blind bot plays one game only: count it once
                out.pop()
                break
    return out


def best_bot(games: Sequence[BotGame]) -> BotGame | None:
    """The bot game with the highest seat-0 score (the first of equals)."""
    return max(games, key=lambda g: g.score, default=None)


# ----- where the class chose, decision by decision -----------------------------------------------
@dataclass(frozen=True)
class Step:
    """One moment of the deal (a card, a roll) and what seat 0 chose there."""

    key: int
    what: str     # 'road 3 (yellow)'
    choice: str   # 'row 2, col 5' / 'peek' / 'Forests × 3'


def _avenue_steps(state: GameState) -> list[Step]:
    steps: list[Step] = []
    card = ""
    for e in state.log:
        if e.get("chance") == "road":
            code = str(e["card"])
            card = f"road {code[:-1]} ({'yellow' if code.endswith('Y') else 'grey'})"
        elif e.get("player") == 0:
            a = e["action"]
            choice = f"row {a['row'] + 1}, col {a['col'] + 1}" if a["type"] == "draw" else str(a["type"])
            steps.append(Step(len(steps) + 1, card, choice))
    return steps


def _kingdom_steps(state: GameState) -> list[Step]:
    from sheetkit.games.kingdom_maps.terrains import terrain_name

    steps: list[Step] = []
    dice: list[int] = []
    terrain: int | None = None
    mine: list[dict[str, Any]] = []

    def close() -> None:
        if not mine:        # seat 0 did not act in this drawing (before the first roll, or the game ended)
            return
        places = sum(1 for a in mine if a["type"] == "place")
        t = terrain
        for a in mine:
            if a["type"] == "pick" and len(dice) == 2:   # solo's second roll: the other die names the terrain
                rest = list(dice)
                rest.remove(a["die"])
                t = rest[0]
        if any(a["type"] == "pass" for a in mine):
            choice = "nothing (no room)"
        else:
            choice = f"{terrain_name(t, plural=True) if t else '?'} × {places}"
        steps.append(Step(len(steps) + 1, "dice " + " ".join(str(d) for d in dice), choice))

    for e in state.log:
        if e.get("chance") == "roll":
            close()
            dice, terrain, mine = list(e["dice"]), None, []
        elif "player" in e:
            a = e["action"]
            if a["type"] == "announce":
                terrain = int(a["terrain"])
            if e["player"] == 0:
                mine.append(a)
    close()
    return steps


def _generic_steps(state: GameState) -> list[Step]:
    steps: list[Step] = []
    for e in state.log:
        if e.get("player") == 0:
            a = e["action"]
            text = " ".join(f"{k}={v}" for k, v in a.items() if k != "type")
            steps.append(Step(len(steps) + 1, f"move {len(steps) + 1}", f"{a.get('type', '?')} {text}".strip()))
    return steps


STEPS: Mapping[str, Callable[[GameState], list[Step]]] = {"avenue": _avenue_steps, "kingdom-maps": _kingdom_steps}
STEP_NAME: Mapping[str, str] = {"avenue": "card", "kingdom-maps": "roll"}


def steps_of(state: GameState) -> list[Step]:
    """Seat 0's choices in a game, one per card (Avenue), per roll (Kingdom Maps) or per move (others)."""
    return STEPS.get(state.game_name, _generic_steps)(state)


def choice_rows(results: Sequence[Result], bot: BotGame | None, top: int = 3) -> list[dict[str, Any]]:
    """Per card / roll: what the bot chose, the class's most common choices, and the share that chose like the bot.

    Decisions are matched by their position in the game (the k-th card, the k-th roll of seat 0),
    which is the same moment for everyone on a deal with the same opponents.
    """
    per: dict[int, Counter[str]] = {}
    what: dict[int, str] = {}
    for r in results:
        for s in steps_of(r.state):
            per.setdefault(s.key, Counter())[s.choice] += 1
            what.setdefault(s.key, s.what)
    bot_steps = {s.key: s for s in steps_of(bot.state)} if bot is not None else {}
    rows = []
    for key in sorted(set(per) | set(bot_steps)):
        counts = per.get(key, Counter())
        n = sum(counts.values())
        b = bot_steps.get(key)
        rows.append({
            "step": key,
            "what": what.get(key) or (b.what if b else ""),
            "bot": b.choice if b else "",
            "class": counts.most_common(top),
            "players": n,
            "same": (counts[b.choice] / n) if (b and n) else None,
        })
    return rows
