"""The skill share of a tiny Avenue, solved completely: every deal, every line of play, exact Fractions.

On a 2 × 3 sheet with two farms and a four-card road deck, everything can be counted (Norvig's way:
count, don't guess) with the engine's own rules:

- **beginner**: the random bot's expected score, averaged over every deal and every one of its choices;
- **expert**: the best any player can expect who sees only what a player sees (the flipped cards, a peek)
  — expectimax over what the unseen cards may be: the optimal strategy, the ceiling of every fair bot;
- **hindsight**: for each deal, the best score of a player told the whole deck order, averaged over deals.

Then skill share = (expert − beginner) / (hindsight − beginner), exactly. The simulation in
``sheetkit.analysis.skill`` estimates the same three numbers with bots on sampled deals; here they are
the true values it can be checked against.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sheetkit.analysis.exact import Dist
from sheetkit.analysis.skill import relative_skill
from sheetkit.core.play import step_table
from sheetkit.games.avenue.cards import RoadCard
from sheetkit.games.avenue.layout import Layout
from sheetkit.games.avenue.params import AvenueParams
from sheetkit.games.avenue.state import AvenueState, Deal

__all__ = ["TINY_LAYOUT", "ExactSkill", "all_deals", "exact_skill", "hindsight_best", "tiny_params"]

# Castles in two corners, farms A and B in the middle column, two grapes of each colour by their castles.
TINY_LAYOUT: dict[str, Any] = {
    "name": "tiny", "title": "Tiny (two farms, six cells: small enough to solve completely)",
    "rows": 2, "cols": 3,
    "map": ["#p  A   gg", "pp  B   #g"],
    "notes": "For the luck-and-skill lesson: every deal and every line of play can be counted.",
}
# (yellow, grey) per road 1..6: a yellow and a grey straight across, a yellow corner top-left, a grey
# corner right-bottom; one yellow card ends a round, so round 1 lasts 1 to 3 cards.
TINY_DECK: tuple[tuple[int, int], ...] = ((1, 0), (0, 0), (0, 1), (0, 0), (1, 1), (0, 0))


def tiny_params(rounds: int = 2, penalty: int = 2) -> AvenueParams:
    """The tiny Avenue: the 2 × 3 sheet above, the four-card deck, one yellow per round."""
    return AvenueParams(rounds=rounds, penalty=penalty, yellows_per_round=1, deck=TINY_DECK,
                        inline_layout=Layout.from_json(TINY_LAYOUT))


def _distinct_orders(cards: Sequence[Any]) -> Iterator[tuple[Any, ...]]:
    """Each distinct order of a multiset of cards once (a shuffle makes each equally likely)."""
    counts = Counter(cards)
    keys = sorted(counts, key=repr)
    n = len(cards)

    def build(prefix: list[Any]) -> Iterator[tuple[Any, ...]]:
        if len(prefix) == n:
            yield tuple(prefix)
            return
        for k in keys:
            if counts[k]:
                counts[k] -= 1
                prefix.append(k)
                yield from build(prefix)
                prefix.pop()
                counts[k] += 1

    yield from build([])


def all_deals(params: AvenueParams) -> list[Deal]:
    """Every distinct deal of the variant (farm order × road order), each equally likely."""
    from sheetkit.games.avenue.cards import build_deck

    farms = sorted(params.layout.farms)
    roads = build_deck(params.deck)
    return [Deal(tuple(f), tuple(r)) for f in itertools.permutations(farms)
            for r in _distinct_orders(roads)]


# ----- the player who sees only what a player sees: expectimax (and the random bot beside it) ---------
def _rest_sorted(cards: Sequence[Any]) -> list[Any]:
    return sorted(cards, key=repr)


def _info_key(s: AvenueState) -> Hashable:
    """What the player knows, and nothing else: the sheet, the score column, the face-up card, the peek,
    and which cards are still unseen (as a multiset — their order is unknown)."""
    roads_left = tuple(_rest_sorted(s.road_deck.order()[s.road_deck._pos:]))
    farms_left = s.farm_deck.order()[s.farm_deck._pos:]
    seen = s.seen_farm[0]
    farm_key = (seen, tuple(sorted(farms_left))) if seen else (None, tuple(sorted(farms_left)))
    return (tuple(s.sheets[0].roads), tuple(s.boxes[0]), tuple(s.round_farms), s.card, s.yellows, s.peeked[0],
            farm_key, s.phase, s._next, s.acted[0] is None, roads_left)


def _with_top(s: AvenueState, road: RoadCard | None, farm: str | None) -> AvenueState:
    """A copy whose unseen cards are in canonical order with ``road`` / ``farm`` on top."""
    t = s.clone()
    if road is not None:
        rest = _rest_sorted(t.road_deck.order()[t.road_deck._pos:])
        rest.remove(road)
        t.road_deck.replace_rest([road, *rest])
    if farm is not None:
        rest = sorted(t.farm_deck.order()[t.farm_deck._pos:])
        rest.remove(farm)
        t.farm_deck.replace_rest([farm, *rest])
    return t


def _outcomes(s: AvenueState) -> list[tuple[Fraction, AvenueState]]:
    """The table's next step from what the player knows: each way it can go, with its probability."""
    roads = Counter(s.road_deck.order()[s.road_deck._pos:])
    farms_left = s.farm_deck.order()[s.farm_deck._pos:]
    fixed_farm = s.seen_farm[0] is not None   # a peeked farm is the next one flipped
    farms = Counter([farms_left[0]] if fixed_farm else farms_left)
    nr, nf = sum(roads.values()), sum(farms.values())
    by_name = sorted(roads.items(), key=lambda x: repr(x[0]))
    road_opts = [(Fraction(c, nr), r) for r, c in by_name] or [(Fraction(1), None)]
    farm_opts = [(Fraction(c, nf), f) for f, c in sorted(farms.items())] or [(Fraction(1), None)]
    merged: dict[Hashable, tuple[Fraction, AvenueState]] = {}
    for pr, r in road_opts:
        for pf, f in farm_opts:
            t = _with_top(s, r, f)
            t.apply_chance()
            key = _info_key(t)
            p0, st = merged.get(key, (Fraction(0), t))
            merged[key] = (p0 + pr * pf, st)
    return list(merged.values())


def _after(s: AvenueState, action: Any) -> list[tuple[Fraction, AvenueState]]:
    """The player's move; a peek shows each unseen farm with its chance."""
    from sheetkit.games.avenue.moves import Peek

    if isinstance(action, Peek):
        farms = Counter(s.farm_deck.order()[s.farm_deck._pos:])
        n = sum(farms.values())
        out = []
        for f, c in sorted(farms.items()):
            t = _with_top(s, None, f)
            t.apply_fast(0, action)
            out.append((Fraction(c, n), t))
        return out
    t = s.clone()
    t.apply_fast(0, action)
    return [(Fraction(1), t)]


class _Solver:
    """Expected final score of the optimal strategy and of the random bot, per information state."""

    def __init__(self) -> None:
        self.memo: dict[Hashable, tuple[Fraction, Fraction]] = {}
        self.nodes = 0

    def value(self, s: AvenueState) -> tuple[Fraction, Fraction]:
        key = _info_key(s)
        got = self.memo.get(key)
        if got is not None:
            return got
        self.nodes += 1
        if s.is_terminal():
            v = Fraction(s.total(0))
            out = (v, v)
        elif s.is_chance_node():
            best = rand = Fraction(0)
            for p, t in _outcomes(s):
                b, r = self.value(t)
                best += p * b
                rand += p * r
            out = (best, rand)
        else:
            qs = []
            for a in s.legal_actions(0):
                b = r = Fraction(0)
                for p, t in _after(s, a):
                    vb, vr = self.value(t)
                    b += p * vb
                    r += p * vr
                qs.append((b, r))
            out = (max(b for b, _ in qs), sum((r for _, r in qs), Fraction(0)) / len(qs))
        self.memo[key] = out
        return out


# ----- the player told the deal -------------------------------------------------------------------------
def hindsight_best(params: AvenueParams, deal: Deal) -> int:
    """The best final score on ``deal`` for a player who knows the whole deck order (exhaustive search)."""
    memo: dict[Hashable, int] = {}

    def best(s: AvenueState) -> int:
        step_table(s)
        if s.is_terminal():
            return s.total(0)
        key = (tuple(s.sheets[0].roads), tuple(s.boxes[0]), s.road_deck._pos, s.peeked[0])
        if key in memo:
            return memo[key]
        out = max(best(_after_known(s, a)) for a in s.legal_actions(0))
        memo[key] = out
        return out

    return best(AvenueState(params, ["hindsight"], deal=deal))


def _after_known(s: AvenueState, action: Any) -> AvenueState:
    t = s.clone()
    t.apply_fast(0, action)
    return t


@dataclass(frozen=True)
class ExactSkill:
    """The exact beginner, expert and hindsight means of a small Avenue, and its skill share."""

    deals: int
    beginner: Fraction
    expert: Fraction
    hindsight: Fraction
    hindsight_scores: Dist[int]   # the hindsight best over the equally likely deals

    @property
    def learning(self) -> Fraction:
        """expert − beginner."""
        return self.expert - self.beginner

    @property
    def luck(self) -> Fraction:
        """hindsight − expert."""
        return self.hindsight - self.expert

    @property
    def share(self) -> Fraction | None:
        """The exact skill share learning / (learning + luck)."""
        return relative_skill(self.beginner, self.expert, self.hindsight)

    def row(self) -> dict[str, Any]:
        """One JSON-able line, the fractions written out and rounded."""
        share = self.share
        return {"deals": self.deals, "beginner": str(self.beginner), "expert": str(self.expert),
                "hindsight": str(self.hindsight), "learning": str(self.learning), "luck": str(self.luck),
                "share": None if share is None else str(share),
                "share_float": None if share is None else round(float(share), 4),
                "beginner_mean": round(float(self.beginner), 4), "expert_mean": round(float(self.expert), 4),
                "hindsight_mean": round(float(self.hindsight), 4)}


def exact_skill(params: AvenueParams | None = None) -> ExactSkill:
    """Solve a small Avenue variant completely (the tiny one by default): a few seconds on one core."""
    params = params or tiny_params()
    deals = all_deals(params)
    if len(deals) > 5000:
        raise ValueError(f"{len(deals):,} deals: too many to solve completely (this is for tiny variants)")
    start = AvenueState(params, ["you"], deal=deals[0])
    # Forget the deal's order: the solver branches over the unseen cards itself.
    start.road_deck.replace_rest(_rest_sorted(start.road_deck.order()))
    start.farm_deck.replace_rest(sorted(start.farm_deck.order()))
    expert, beginner = _Solver().value(start)
    best = [hindsight_best(params, d) for d in deals]
    return ExactSkill(len(deals), beginner, expert, Fraction(sum(best), len(best)), Dist(best))
