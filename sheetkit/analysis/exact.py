"""Exact probability with fractions: finite distributions, decks and dice (Norvig's style: count, don't guess).

Every answer is a ``fractions.Fraction`` — ``P(event, dist)`` is a ratio a pupil can check by hand.
Distributions compose: ``dice(2).map(sum)``, ``joint(a, b)``, ``d.given(event)``. Deck helpers answer
Avenue's card questions (how long is a round, the chance the card you need comes next); dice helpers
answer Kingdom Maps' (highest/middle/lowest of 3d6, the criteria chosen with rerolled repeats).
"""

from __future__ import annotations

import itertools
import math
import operator
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any, Generic, TypeVar

import numpy as np

T = TypeVar("T")
U = TypeVar("U")

Event = Callable[[Any], bool] | Collection[Any]

__all__ = [
    "Dist", "P", "absorb", "at_least_one", "avenue_round_length", "cards_used", "convolve", "dice", "dice_sum", "die",
    "distinct_dice", "distinct_dice_step", "draws_until_kth", "highest", "hypergeometric", "joint",
    "joint_round_lengths", "lowest", "next_card", "order_statistic", "round_length", "settle", "sorted_dice",
    "such_that", "uniform",
]


def _is_event_fn(event: Event) -> bool:
    return callable(event) and not isinstance(event, Collection)


class Dist(Mapping[T, Fraction], Generic[T]):
    """A finite probability distribution: outcome → exact Fraction, the fractions summing to 1.

    Build it from weights (``Dist({"H": 1, "T": 1})``) or from equally likely outcomes
    (``Dist(range(1, 7))``, repeats count twice); weights are normalised, zero weights dropped.
    """

    __slots__ = ("_p",)

    def __init__(self, weights: Mapping[T, int | Fraction] | Iterable[T]) -> None:
        counts: Mapping[T, int | Fraction] = weights if isinstance(weights, Mapping) else Counter(weights)
        total = Fraction(0)
        for w in counts.values():
            if w < 0:
                raise ValueError("a probability weight cannot be negative")
            total += w
        if total == 0:
            raise ValueError("a distribution needs at least one outcome with a positive weight")
        keys = [k for k, w in counts.items() if w != 0]
        try:
            keys = sorted(keys)  # type: ignore[type-var]
        except TypeError:
            pass
        self._p: dict[T, Fraction] = {k: Fraction(counts[k]) / total for k in keys}

    @classmethod
    def _raw(cls, probs: dict[T, Fraction]) -> Dist[T]:
        """Wrap probabilities known to be normalised (internal fast path)."""
        d = cls.__new__(cls)
        d._p = probs
        return d

    # -- Mapping ---------------------------------------------------------------------------
    def __getitem__(self, outcome: T) -> Fraction:
        return self._p[outcome]

    def __iter__(self) -> Iterator[T]:
        return iter(self._p)

    def __len__(self) -> int:
        return len(self._p)

    def __repr__(self) -> str:
        inner = ", ".join(f"{k!r}: {v}" for k, v in itertools.islice(self._p.items(), 12))
        more = f", … ({len(self._p)} outcomes)" if len(self._p) > 12 else ""
        return f"Dist({{{inner}{more}}})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Dist):
            return self._p == other._p
        return NotImplemented

    def __hash__(self) -> int:
        return hash(frozenset(self._p.items()))

    # -- questions --------------------------------------------------------------------------
    def prob(self, event: Event) -> Fraction:
        """Probability of an event: a predicate on outcomes, or a collection of outcomes."""
        if _is_event_fn(event):
            return sum((p for o, p in self._p.items() if event(o)), Fraction(0))  # type: ignore[operator]
        return sum((self._p.get(o, Fraction(0)) for o in set(event)), Fraction(0))  # type: ignore[arg-type]

    def given(self, event: Event) -> Dist[T]:
        """The distribution conditioned on ``event`` (raises ValueError if the event is impossible)."""
        inside = event if _is_event_fn(event) else set(event).__contains__  # type: ignore[arg-type]
        kept = {o: p for o, p in self._p.items() if inside(o)}  # type: ignore[operator]
        if not kept:
            raise ValueError("cannot condition on an impossible event")
        return Dist(kept)

    def map(self, f: Callable[[T], U]) -> Dist[U]:
        """The distribution of ``f(outcome)`` (outcomes mapping to the same value add up)."""
        out: dict[U, Fraction] = {}
        for o, p in self._p.items():
            y = f(o)
            out[y] = out.get(y, Fraction(0)) + p
        return Dist(out)

    def mean(self) -> Fraction:
        """Expected value of a numeric outcome."""
        return sum((p * o for o, p in self._p.items()), Fraction(0))  # type: ignore[operator]

    def variance(self) -> Fraction:
        """Variance of a numeric outcome, exactly."""
        m = self.mean()
        return sum((p * (o - m) ** 2 for o, p in self._p.items()), Fraction(0))  # type: ignore[operator]

    def stdev(self) -> float:
        """Standard deviation (a float: square roots are rarely fractions)."""
        return math.sqrt(self.variance())

    def cdf(self, x: Any) -> Fraction:
        """P(outcome ≤ x)."""
        return sum((p for o, p in self._p.items() if o <= x), Fraction(0))  # type: ignore[operator]

    def at_least(self, x: Any) -> Fraction:
        """P(outcome ≥ x)."""
        return sum((p for o, p in self._p.items() if o >= x), Fraction(0))  # type: ignore[operator]

    def quantile(self, q: float | Fraction) -> T:
        """The smallest outcome whose cdf reaches ``q`` (0 < q ≤ 1); the median is ``quantile(1/2)``."""
        if not 0 < q <= 1:
            raise ValueError("q must be in (0, 1]")
        acc = Fraction(0)
        for o, p in self._p.items():
            acc += p
            if acc >= q:
                return o
        return next(reversed(self._p))

    def mode(self) -> T:
        """The most likely outcome (the first such, in outcome order)."""
        return max(self._p, key=self._p.__getitem__)

    def support(self) -> list[T]:
        """Outcomes with positive probability, sorted when they can be."""
        return list(self._p)

    def floats(self) -> dict[T, float]:
        """The same table with float probabilities (for plots)."""
        return {o: float(p) for o, p in self._p.items()}

    def table(self) -> list[dict[str, Any]]:
        """Rows ``{outcome, p, cdf, float}`` for a printed or notebook table (cdf only for ordered outcomes)."""
        rows, acc = [], Fraction(0)
        for o, p in self._p.items():
            acc += p
            rows.append({"outcome": o, "p": p, "cdf": acc, "float": float(p)})
        return rows

    def sample(self, rng: np.random.Generator, size: int) -> list[T]:
        """``size`` independent draws with a seeded generator (for checking by simulation)."""
        keys = list(self._p)
        idx = rng.choice(len(keys), size=size, p=[float(p) for p in self._p.values()])
        return [keys[i] for i in idx]


# -- Norvig-style module helpers ---------------------------------------------------------------
def P(event: Event, dist: Dist[Any]) -> Fraction:
    """Probability of ``event`` (predicate or outcomes) under ``dist``."""
    return dist.prob(event)


def such_that(event: Event, dist: Dist[T]) -> Dist[T]:
    """``dist`` restricted to ``event`` and renormalised (conditioning)."""
    return dist.given(event)


def uniform(outcomes: Iterable[T]) -> Dist[T]:
    """Equally likely outcomes (each distinct outcome once)."""
    return Dist(dict.fromkeys(outcomes, 1))


def joint(*dists: Dist[Any]) -> Dist[tuple[Any, ...]]:
    """Independent outcomes side by side: the distribution of tuples."""
    out: dict[tuple[Any, ...], Fraction] = {(): Fraction(1)}
    for d in dists:
        out = {(*t, o): p * q for t, p in out.items() for o, q in d.items()}
    return Dist._raw(out)


def convolve(a: Dist[Any], b: Dist[Any], op: Callable[[Any, Any], Any] = operator.add) -> Dist[Any]:
    """Distribution of ``op(x, y)`` for independent x ~ a, y ~ b (default: the sum)."""
    out: dict[Any, Fraction] = {}
    for x, p in a.items():
        for y, q in b.items():
            z = op(x, y)
            out[z] = out.get(z, Fraction(0)) + p * q
    return Dist(out)


# -- decks -------------------------------------------------------------------------------------------
def _check_deck(wanted: int, deck: int) -> None:
    if deck < 0 or not 0 <= wanted <= deck:
        raise ValueError(f"a deck of {deck} cards cannot hold {wanted} wanted cards")


def next_card(wanted: int, remaining: int) -> Fraction:
    """The chance the next card is one you want: ``wanted`` of the ``remaining`` face-down cards."""
    _check_deck(wanted, remaining)
    if remaining == 0:
        raise ValueError("the deck is empty")
    return Fraction(wanted, remaining)


@lru_cache(maxsize=512)
def hypergeometric(draws: int, wanted: int, deck: int) -> Dist[int]:
    """How many wanted cards turn up in the next ``draws`` cards of a shuffled deck (no replacement)."""
    _check_deck(wanted, deck)
    if not 0 <= draws <= deck:
        raise ValueError(f"cannot draw {draws} cards from {deck}")
    total = math.comb(deck, draws)
    return Dist._raw({j: Fraction(math.comb(wanted, j) * math.comb(deck - wanted, draws - j), total)
                      for j in range(max(0, draws - (deck - wanted)), min(wanted, draws) + 1)})


def at_least_one(draws: int, wanted: int, deck: int) -> Fraction:
    """The chance at least one wanted card turns up in the next ``draws`` cards."""
    _check_deck(wanted, deck)
    return 1 - Fraction(math.comb(deck - wanted, draws), math.comb(deck, draws))


@lru_cache(maxsize=4096)
def draws_until_kth(k: int, wanted: int, deck: int) -> Dist[int]:
    """Cards flipped up to and including the k-th wanted card (negative hypergeometric).

    If the deck holds fewer than ``k`` wanted cards, the whole deck is flipped (Avenue: the round
    ends when the road deck runs out). Computed card by card, not from the closed form.
    """
    _check_deck(wanted, deck)
    if k < 1:
        raise ValueError("k must be at least 1")
    if wanted < k:
        return Dist._raw({deck: Fraction(1)})
    out: dict[int, Fraction] = {}
    # layer[j] = P(j wanted cards among the first t flipped, and the k-th not reached earlier)
    layer = {0: Fraction(1)}
    for t in range(deck):
        nxt: dict[int, Fraction] = {}
        left = deck - t
        for j, p in layer.items():
            hit = p * Fraction(wanted - j, left)
            miss = p - hit
            if hit:
                if j + 1 == k:
                    out[t + 1] = out.get(t + 1, Fraction(0)) + hit
                else:
                    nxt[j + 1] = nxt.get(j + 1, Fraction(0)) + hit
            if miss:
                nxt[j] = nxt.get(j, Fraction(0)) + miss
        layer = nxt
        if not layer:
            break
    return Dist._raw(dict(sorted(out.items())))


def _round_step(state: tuple[int, int], per_round: int) -> Iterator[tuple[int, tuple[int, int], Fraction]]:
    """(length, next state, probability) of one round from (yellow left, grey left)."""
    y, g = state
    if y + g == 0:
        yield 0, (0, 0), Fraction(1)
        return
    for length, p in draws_until_kth(per_round, y, y + g).items():
        used_y = min(per_round, y)
        yield length, (y - used_y, g - (length - used_y)), p


def _after_observed(yellow: int, grey: int, per_round: int, given: Sequence[int]) -> tuple[int, int]:
    state = (yellow, grey)
    for r, length in enumerate(given, start=1):
        for got, nxt, _ in _round_step(state, per_round):
            if got == length:
                state = nxt
                break
        else:
            raise ValueError(f"round {r} cannot last {length} cards with {state[0]} yellow and {state[1]} grey left")
    return state


def round_length(yellow: int, grey: int, per_round: int, round: int = 1, given: Sequence[int] = ()) -> Dist[int]:
    """Cards flipped in round ``round`` (1-based) of a shared deck, each round ending at its ``per_round``-th
    yellow (or when the deck runs out), given the lengths ``given`` of the rounds already played."""
    if yellow < 0 or grey < 0 or per_round < 1:
        raise ValueError("card counts must be ≥ 0 and per_round ≥ 1")
    if not len(given) < round:
        raise ValueError(f"round {round} is already among the {len(given)} rounds given")
    states = {_after_observed(yellow, grey, per_round, given): Fraction(1)}
    for _ in range(len(given) + 1, round):
        nxt: dict[tuple[int, int], Fraction] = {}
        for s, p in states.items():
            for _length, s2, q in _round_step(s, per_round):
                nxt[s2] = nxt.get(s2, Fraction(0)) + p * q
        states = nxt
    out: dict[int, Fraction] = {}
    for s, p in states.items():
        for length, _s2, q in _round_step(s, per_round):
            out[length] = out.get(length, Fraction(0)) + p * q
    return Dist(out)


def joint_round_lengths(yellow: int, grey: int, per_round: int, rounds: int) -> Dist[tuple[int, ...]]:
    """Joint distribution of the lengths of the first ``rounds`` rounds (keep rounds ≤ 3 for speed)."""
    paths: dict[tuple[tuple[int, ...], tuple[int, int]], Fraction] = {((), (yellow, grey)): Fraction(1)}
    for _ in range(rounds):
        nxt: dict[tuple[tuple[int, ...], tuple[int, int]], Fraction] = {}
        for (lengths, s), p in paths.items():
            for length, s2, q in _round_step(s, per_round):
                key = ((*lengths, length), s2)
                nxt[key] = nxt.get(key, Fraction(0)) + p * q
        paths = nxt
    return Dist._raw({lengths: p for (lengths, _), p in paths.items()})


def cards_used(yellow: int, grey: int, per_round: int, rounds: int) -> Dist[int]:
    """Total cards flipped over ``rounds`` rounds (the deck is never reshuffled)."""
    states: dict[tuple[int, int], Fraction] = {(yellow, grey): Fraction(1)}
    for _ in range(rounds):
        nxt: dict[tuple[int, int], Fraction] = {}
        for s, p in states.items():
            for _length, s2, q in _round_step(s, per_round):
                nxt[s2] = nxt.get(s2, Fraction(0)) + p * q
        states = nxt
    return Dist({yellow + grey - y - g: p for (y, g), p in states.items()})


def avenue_round_length(params: Any, round: int = 1, given: Sequence[int] = ()) -> Dist[int]:
    """Avenue: road cards flipped in ``round`` under ``params`` (an AvenueParams), given earlier rounds' lengths."""
    yellow = sum(y for y, _ in params.deck)
    grey = sum(g for _, g in params.deck)
    return round_length(yellow, grey, params.yellows_per_round, round, given)


# -- dice -------------------------------------------------------------------------------------------
@lru_cache(maxsize=64)
def die(sides: int = 6) -> Dist[int]:
    """One fair die."""
    if sides < 1:
        raise ValueError("a die needs at least one side")
    return uniform(range(1, sides + 1))


@lru_cache(maxsize=64)
def dice(n: int, sides: int = 6) -> Dist[tuple[int, ...]]:
    """``n`` fair dice as ordered tuples (all sides**n rolls equally likely)."""
    return joint(*[die(sides)] * n)


@lru_cache(maxsize=64)
def sorted_dice(n: int, sides: int = 6) -> Dist[tuple[int, ...]]:
    """``n`` dice read lowest to highest (the multiset on the table)."""
    return dice(n, sides).map(lambda r: tuple(sorted(r)))


@lru_cache(maxsize=64)
def dice_sum(n: int, sides: int = 6) -> Dist[int]:
    """Sum of ``n`` dice."""
    out: Dist[int] = Dist._raw({0: Fraction(1)})
    for _ in range(n):
        out = convolve(out, die(sides))
    return out


@lru_cache(maxsize=256)
def order_statistic(n: int, k: int, sides: int = 6) -> Dist[int]:
    """The k-th lowest of ``n`` dice (k=1 lowest, k=n highest), from the binomial closed form.

    P(k-th lowest ≤ x) = Σ_{j=k..n} C(n, j) F^j (1−F)^(n−j), with F = x/sides.
    """
    if not 1 <= k <= n:
        raise ValueError(f"k must be between 1 and {n}")

    def cdf(x: int) -> Fraction:
        f = Fraction(x, sides)
        return sum((math.comb(n, j) * f**j * (1 - f) ** (n - j) for j in range(k, n + 1)), Fraction(0))

    return Dist({x: cdf(x) - cdf(x - 1) for x in range(1, sides + 1)})


def highest(n: int, sides: int = 6) -> Dist[int]:
    """The highest of ``n`` dice."""
    return order_statistic(n, n, sides)


def lowest(n: int, sides: int = 6) -> Dist[int]:
    """The lowest of ``n`` dice."""
    return order_statistic(n, 1, sides)


# -- processes that repeat until they settle (rerolls) ------------------------------------------
def settle(start: Dist[T], step: Callable[[T], Dist[T] | None], rerolls: int) -> tuple[dict[T, Fraction], Fraction]:
    """Follow a reroll process for at most ``rerolls`` rerolls, by enumeration.

    ``step(outcome)`` is None when the outcome is kept, else the distribution the reroll lands on.
    Returns (probability of each kept outcome so far, probability still being rerolled).
    """
    done: dict[T, Fraction] = {}
    pending: dict[T, Fraction] = dict(start.items())
    for depth in range(rerolls + 1):
        nxt: dict[T, Fraction] = {}
        for o, p in pending.items():
            d = step(o)
            if d is None:
                done[o] = done.get(o, Fraction(0)) + p
            elif depth < rerolls:
                for o2, q in d.items():
                    nxt[o2] = nxt.get(o2, Fraction(0)) + p * q
            else:
                nxt[o] = nxt.get(o, Fraction(0)) + p
        pending = nxt
    return done, sum(pending.values(), Fraction(0))


def absorb(start: Dist[T], step: Callable[[T], Dist[T] | None], max_states: int = 400) -> Dist[T]:
    """Where a reroll process ends, exactly: solves the absorbing Markov chain with fractions.

    ``step`` as in ``settle``. Raises ValueError if some reachable outcome can never be kept.
    """
    trans: dict[T, Dist[T]] = {}
    todo = list(start)
    seen = set(todo)
    while todo:
        o = todo.pop()
        d = step(o)
        if d is None:
            continue
        trans[o] = d
        for o2 in d:
            if o2 not in seen:
                seen.add(o2)
                todo.append(o2)
        if len(trans) > max_states:
            raise ValueError(f"more than {max_states} rerollable outcomes; use settle() to enumerate instead")
    transient = list(trans)
    index = {o: i for i, o in enumerate(transient)}
    kept = [o for o in seen if o not in trans]
    kidx = {o: j for j, o in enumerate(kept)}
    n, m = len(transient), len(kept)
    # (I − Q) X = R, X[i][j] = P(end at kept j | at transient i)
    a = [[Fraction(int(i == j)) for j in range(n)] + [Fraction(0)] * m for i in range(n)]
    for o, d in trans.items():
        i = index[o]
        for o2, q in d.items():
            if o2 in index:
                a[i][index[o2]] -= q
            else:
                a[i][n + kidx[o2]] += q
    for c in range(n):
        piv = next((r for r in range(c, n) if a[r][c] != 0), None)
        if piv is None:
            raise ValueError("the process can reroll forever without keeping anything")
        a[c], a[piv] = a[piv], a[c]
        inv = 1 / a[c][c]
        a[c] = [x * inv for x in a[c]]
        for r in range(n):
            if r != c and a[r][c] != 0:
                f = a[r][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c], strict=True)]
    out: dict[T, Fraction] = {}
    for o, p in start.items():
        if o in index:
            row = a[index[o]]
            for j, k in enumerate(kept):
                if row[n + j]:
                    out[k] = out.get(k, Fraction(0)) + p * row[n + j]
        else:
            out[o] = out.get(o, Fraction(0)) + p
    return Dist(out)


def _distinct_step(k: int, sides: int, reroll: str) -> Callable[[tuple[int, ...]], Dist[tuple[int, ...]] | None]:
    def step(roll: tuple[int, ...]) -> Dist[tuple[int, ...]] | None:
        kept = tuple(sorted(set(roll)))
        if len(kept) == k:
            return None
        if reroll == "all":
            return sorted_dice(k, sides)
        return sorted_dice(k - len(kept), sides).map(lambda new: tuple(sorted(kept + new)))

    return step


@lru_cache(maxsize=64)
def distinct_dice(k: int = 2, sides: int = 6, reroll: str = "repeats") -> Dist[tuple[int, ...]]:
    """``k`` different numbers from dice, rerolling repeats: the set chosen, lowest first.

    ``reroll="repeats"`` rerolls only the dice showing a number already taken (Kingdom Maps'
    criteria); ``"all"`` rerolls every die whenever any two match. Either way every set of k
    different numbers is equally likely — ``absorb`` solves the process exactly.
    """
    if reroll not in ("repeats", "all"):
        raise ValueError("reroll must be 'repeats' or 'all'")
    if not 1 <= k <= sides:
        raise ValueError(f"cannot show {k} different numbers on {sides}-sided dice")
    return absorb(sorted_dice(k, sides), _distinct_step(k, sides, reroll))


def distinct_dice_step(k: int = 2, sides: int = 6,
                       reroll: str = "repeats") -> Callable[[tuple[int, ...]], Dist[tuple[int, ...]] | None]:
    """The one-reroll step of ``distinct_dice`` (for ``settle``: watch the process converge)."""
    return _distinct_step(k, sides, reroll)
