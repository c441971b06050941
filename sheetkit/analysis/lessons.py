"""The probability lessons' numbers: closed forms, brute-force enumerations and seeded runs of the real engine,
each beside the exact ``Fraction`` answers of ``sheetkit.analysis.exact``. Pictures live in
``sheetkit.widgets.lessons``; the notebooks only call these.

Avenue (``notebooks/lessons/avenue_cards.ipynb``): how long a round lasts, why round 2 depends on round 1,
the chance the farm (or road) you need comes next, and what peeking is worth.
Kingdom Maps (``notebooks/lessons/kingdom_dice.ipynb``): highest / middle / lowest of 3d6, the die left for
a passive player, and why every pair of criteria is equally likely when repeats are rerolled.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from sheetkit.analysis.exact import Dist, avenue_round_length, dice, sorted_dice
from sheetkit.analysis.montecarlo import Results, play_games
from sheetkit.analysis.simulate import game_seed, progress_bar
from sheetkit.core.play import advance, step_table

__all__ = [
    "AvenueDeals", "NeverPeekBot", "PeekFirstBot", "bump_rule", "bump_rule_rolled", "criteria_pairs",
    "dice_rolled", "die_left_for_you",
    "engine_avenue_deals", "engine_kingdom_rolls", "engine_kingdom_turns", "enumerate_round_length",
    "farm_chances", "negative_hypergeometric", "peek_experiment", "reroll_depths", "road_in_round_one",
    "round_two_given_one",
]


def _steps(n: int, what: str) -> Any:
    """range(n) with a progress bar that appears only if the loop takes over a second."""
    return progress_bar(iterable=range(n), total=n, desc=what, unit="game")


# =============================================================================================
# Avenue: the road deck
# =============================================================================================
def negative_hypergeometric(k: int, wanted: int, deck: int) -> Dist[int]:
    """The closed form: the k-th of ``wanted`` cards in a shuffled ``deck`` is card n with probability
    C(n−1, k−1)·C(deck−n, wanted−k) / C(deck, wanted)."""
    total = math.comb(deck, wanted)
    return Dist({n: Fraction(math.comb(n - 1, k - 1) * math.comb(deck - n, wanted - k), total)
                 for n in range(k, deck - wanted + k + 1)})


def enumerate_round_length(k: int, wanted: int, deck: int) -> Dist[int]:
    """Brute force: list every set of places the wanted cards can take (all equally likely) and count where
    the k-th falls. Only for small decks (C(deck, wanted) sets; 42 cards would take C(42, 22) ≈ 5·10¹¹)."""
    if math.comb(deck, wanted) > 250_000:
        raise ValueError(f"C({deck}, {wanted}) = {math.comb(deck, wanted):,} arrangements: too many to list")
    return Dist(Counter(places[k - 1] + 1 for places in itertools.combinations(range(deck), wanted)))


@dataclass(frozen=True)
class AvenueDeals:
    """What the real engine dealt in ``n`` seeded games: each round's length, the farms in order, and which
    road numbers turned up in round 1."""

    lengths: np.ndarray          # (n, rounds) road cards flipped in each round
    farms: tuple[str, ...]       # the farm letters in the order they were flipped, one string per game
    round1_roads: np.ndarray     # (n, 6) True where a road 1..6 card turned up in round 1
    seed: int

    @property
    def n(self) -> int:
        """Games dealt."""
        return int(self.lengths.shape[0])


class _FirstEmptyCell:
    """A player who draws every road in the first empty cell (the sheet fills in order): the deals alone matter."""

    name = "first-empty"

    def __init__(self, draw: Any, cols: int) -> None:
        self.draw, self.cols, self.drawn = draw, cols, 0

    def act(self, state: Any, player: int) -> Any:
        """The next cell in reading order."""
        self.drawn += 1
        return self.draw(*divmod(self.drawn - 1, self.cols))


@lru_cache(maxsize=8)
def engine_avenue_deals(n: int = 3000, seed: int = 0, variant: str = "standard") -> AvenueDeals:
    """Play ``n`` seeded Avenue games through the real engine (one player drawing in the first empty cell)
    and record what the table did: ``apply_chance`` flips every card, exactly as in a played game."""
    from sheetkit.games.avenue import PRESETS, AvenueState, Draw

    params = PRESETS[variant]
    cols = params.layout.cols
    lengths = np.zeros((n, params.rounds), dtype=np.int64)
    roads = np.zeros((n, 6), dtype=bool)
    farms = []
    for g in _steps(n, "Avenue deals"):
        state = AvenueState(params, 1, seed=game_seed(seed, g))
        order = ""
        for step in advance(state, [_FirstEmptyCell(Draw, cols)], fast=True):
            if step.chance and step.entry["chance"] == "farm":
                order += step.entry["card"]
            elif step.chance and step.entry["chance"] == "road":
                lengths[g, state.round - 1] += 1
                if state.round == 1:
                    roads[g, int(step.entry["card"][0]) - 1] = True
        farms.append(order)
    return AvenueDeals(lengths, tuple(farms), roads, seed)


def round_two_given_one(params: Any = None) -> dict[int, Dist[int]]:
    """Round 2's length given each possible length of round 1 (exact; the deck is never reshuffled)."""
    from sheetkit.games.avenue import AvenueParams

    p = params or AvenueParams()
    return {length: avenue_round_length(p, 2, given=[length]) for length in avenue_round_length(p, 1)}


def farm_chances(flipped: int, farms: int = 6, rounds: int = 5) -> dict[str, Fraction]:
    """A farm you need has not been flipped after ``flipped`` farms: the chance it is the next one, and the
    chance it is scored at all this game — by listing every order of the farms still in the deck."""
    left = farms - flipped
    if left < 1:
        raise ValueError("no farm left in the deck")
    orders = Dist(itertools.permutations(range(left)))  # farm 0 is the one you need
    return {"next": orders.prob(lambda o: o[0] == 0),
            "scored": orders.prob(lambda o: 0 in o[:max(0, rounds - flipped)]),
            "next_formula": Fraction(1, left), "scored_formula": Fraction(max(0, rounds - flipped), left)}


def road_in_round_one(number: int, params: Any = None) -> Fraction:
    """The chance at least one road ``number`` card is flipped in round 1.

    Given that round 1 lasts L cards, they are ``per_round`` yellow and L − ``per_round`` grey cards, each a
    uniformly random set of its colour: P(no road n) = C(Y−yₙ, k)/C(Y, k) · C(G−gₙ, L−k)/C(G, L−k).
    """
    from sheetkit.games.avenue import AvenueParams

    p = params or AvenueParams()
    y_all, g_all = sum(y for y, _ in p.deck), sum(g for _, g in p.deck)
    yn, gn = p.deck[number - 1]
    k = p.yellows_per_round
    if y_all < k:
        raise ValueError("the deck holds fewer yellow cards than a round needs")
    none = Fraction(0)
    for length, q in avenue_round_length(p, 1).items():
        greys = length - k
        none += q * Fraction(math.comb(y_all - yn, k), math.comb(y_all, k)) * \
            Fraction(math.comb(g_all - gn, greys), math.comb(g_all, greys))
    return 1 - none


class NeverPeekBot:
    """The greedy bot, except that it never peeks: where greedy would peek it draws its best cell anyway."""

    name = "never peeks"

    def __init__(self, seed: int | None = 0) -> None:
        from sheetkit.games.avenue import GreedyBot

        self.greedy = GreedyBot(seed)

    def act(self, state: Any, player: int) -> Any:
        from sheetkit.games.avenue import Pass

        ranked = self.greedy.ranked(state, player)
        return ranked[0][1] if ranked else Pass()


class PeekFirstBot:
    """The greedy bot, but it always peeks at the next farm on the first road card of a round — except in the
    last round, when no farm is left to score."""

    name = "peeks first"

    def __init__(self, seed: int | None = 0) -> None:
        from sheetkit.games.avenue import GreedyBot

        self.greedy = GreedyBot(seed)

    def act(self, state: Any, player: int) -> Any:
        from sheetkit.games.avenue import Peek

        if state.cards_this_round == 1 and state.round < state.params.rounds and state.can_peek(player):
            return Peek()
        return self.greedy.act(state, player)


PEEK_BOTS: tuple[Any, ...] = (NeverPeekBot, "greedy", PeekFirstBot)
PEEK_LABELS = ("never peeks", "greedy (peeks when no cell helps)", "peeks on the first card of rounds 1–4")


@lru_cache(maxsize=4)
def peek_experiment(n: int = 300, seed: int = 0) -> Results:
    """Three peeking habits at one table, seat by seat, on the same ``n`` deals (the real engine and bots).

    Avenue's players never affect each other's score: every seat sees the same cards, so three seats are
    three players on exactly the same deals — common random numbers for free. A progress bar shows once
    the run takes over a second (300 deals take about 3 s, 2,000 about half a minute)."""
    return play_games("avenue", n, seed=seed, bots=list(PEEK_BOTS), workers=1, progress=True)


# =============================================================================================
# Kingdom Maps: the dice
# =============================================================================================
@lru_cache(maxsize=8)
def engine_kingdom_rolls(n: int = 6000, seed: int = 0) -> tuple[np.ndarray, tuple[tuple[str, ...], ...]]:
    """The real engine's table steps in ``n`` seeded 2-player games: the criteria it rolled and its first roll
    of 3 dice. Returns (rolls as an (n, 3) array, criteria per game)."""
    from sheetkit.games.kingdom_maps import KingdomState

    rolls = np.zeros((n, 3), dtype=np.int64)
    crit = []
    for g in range(n):
        state = KingdomState(None, 2, seed=game_seed(seed, g))
        step_table(state)               # the criteria (2 dice for group A, 2 for B, repeats rerolled), then 3 dice
        rolls[g] = state.dice
        crit.append(tuple(state.criteria))
    return rolls, tuple(crit)


def die_left_for_you(taken: str) -> Dist[int]:
    """The best die a passive player can pick when the active player took the ``taken`` one
    ("highest", "middle" or "lowest") of 3 dice: the higher of the two left — by enumeration of 216 rolls."""
    index = {"lowest": 0, "middle": 1, "highest": 2}[taken]
    return sorted_dice(3).map(lambda r: max(r[:index] + r[index + 1:]))


@lru_cache(maxsize=4)
def engine_kingdom_turns(games: int = 12, seed: int = 0) -> list[dict[str, Any]]:
    """Two greedy bots play ``games`` seeded games with the real engine; for every turn: the dice, the die the
    active bot took (and whether it was the highest, middle or lowest), the die the passive bot picked and the
    best die it could have picked."""
    from sheetkit.games.kingdom_maps import BOTS, Announce, KingdomState, Pick

    out: list[dict[str, Any]] = []
    for g in _steps(games, "Kingdom Maps games"):
        s = game_seed(seed, g)
        state = KingdomState(None, ["A", "B"], seed=s)
        bots = [BOTS["greedy"](seed=s + p) for p in range(2)]
        turn: dict[str, Any] = {}
        for step in advance(state, bots, fast=True):
            if step.chance:
                if turn.get("picked") is not None:
                    out.append(turn)
                turn = {"game": g, "dice": tuple(sorted(state.dice)), "taken": None, "picked": None}
            elif isinstance(step.action, Announce):
                d = turn["dice"]
                turn["taken"] = step.action.die
                turn["rank"] = ("lowest", "middle", "highest")[max(i for i, v in enumerate(d) if v == step.action.die)]
                rest = list(d)
                rest.remove(step.action.die)
                turn["best_left"] = max(rest)
            elif isinstance(step.action, Pick):
                turn["picked"] = step.action.die
    return out


def criteria_pairs(crit: Sequence[Sequence[str]]) -> tuple[Counter[tuple[int, int]], int]:
    """Count the pairs of numbers rolled for each group (A and B pooled): (counts, pairs seen)."""
    counts: Counter[tuple[int, int]] = Counter()
    for chosen in crit:
        for group in ("A", "B"):
            nums = sorted(int(c[1]) for c in chosen if c[0] == group)
            counts[(nums[0], nums[1])] += 1
    return counts, 2 * len(crit)


def reroll_depths(depths: int = 5, reroll: str = "repeats") -> list[dict[str, Any]]:
    """Follow the criteria roll for at most d rerolls (d = 0..depths−1), listing every way it can go: the
    probability of each of the 15 pairs (the same for all) and the chance it is still being rerolled."""
    from sheetkit.analysis.exact import distinct_dice_step, settle

    rows = []
    for d in range(depths):
        done, pending = settle(sorted_dice(2), distinct_dice_step(2, 6, reroll), d)
        values = set(done.values())
        rows.append({"rerolls": d, "pairs": len(done), "each": values.pop() if len(values) == 1 else None,
                     "all_equal": len(set(done.values())) == 1, "pending": pending,
                     "formula": (1 - Fraction(1, 6) ** (d + 1)) / 15})
    return rows


@lru_cache(maxsize=16)
def dice_rolled(n: int, rolls: int = 6000, seed: int = 0) -> np.ndarray:
    """``rolls`` seeded rolls of ``n`` dice through the engine's ``Dice`` (an (rolls, n) array)."""
    from sheetkit.core.chance import Dice, make_rng

    dice_ = Dice(make_rng(game_seed(seed, n)))
    return np.array([dice_.roll(n) for _ in range(rolls)], dtype=np.int64).reshape(rolls, n)


@lru_cache(maxsize=4)
def bump_rule_rolled(rolls: int = 6000, seed: int = 0) -> dict[tuple[int, int], float]:
    """The bump rule on seeded dice: each pair's share of ``rolls`` (beside ``bump_rule``'s exact chances)."""
    counts: Counter[tuple[int, int]] = Counter()
    for a, b in dice_rolled(2, rolls, seed).tolist():
        if a == b:
            b = a % 6 + 1
        counts[(min(a, b), max(a, b))] += 1
    return {pair: c / rolls for pair, c in counts.items()}


def bump_rule() -> Dist[tuple[int, int]]:
    """A rule that is *not* fair, for contrast: roll 2 dice; on a repeat, turn the second die up by one
    (6 becomes 1). Neighbouring pairs get an extra 1/36 — by enumeration of the 36 rolls."""
    def pair(roll: tuple[int, ...]) -> tuple[int, int]:
        a, b = roll
        if a == b:
            b = a % 6 + 1
        lo, hi = sorted((a, b))
        return lo, hi

    return dice(2).map(pair)
