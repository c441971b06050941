"""The numbers of the Key Harvest lesson ``notebooks/lessons/key_harvest_bids.ipynb``: "What is a bid worth?".

A bid puts a registry tile in your store with counters on it. On a later turn you may claim it (paying the bid to
the stock) — unless another player buys it first: they pay you the bid, you keep your own counters too, and the tile
is theirs. Seeded games of the real engine and bots say how often that happens, by bid size and player count; the
bag's chances (which crops the registry shows, and what the next draws bring) are counted exactly with ``Fraction``
beside the same games. Pictures live in ``sheetkit.widgets.lessons.key_harvest``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from typing import Any

from sheetkit.analysis.exact import Dist, at_least_one, hypergeometric
from sheetkit.analysis.key_harvest import tile_worth
from sheetkit.analysis.simulate import game_seed, progress_bar
from sheetkit.core.chance import derive_seed
from sheetkit.core.play import advance, step_table
from sheetkit.games.key_harvest import board as B
from sheetkit.games.key_harvest.bots import GreedyBot, pay_from
from sheetkit.games.key_harvest.crops import CROPS
from sheetkit.games.key_harvest.events import events_for
from sheetkit.games.key_harvest.moves import Bid, Buy, Choose
from sheetkit.games.key_harvest.params import KeyHarvestParams
from sheetkit.games.key_harvest.state import KeyHarvestState

__all__ = [
    "OUTCOMES", "OUTCOME_WORDS", "BidFate", "BidStudy", "FixedBidBot", "bid_sizes", "bid_study", "crop_tiles",
    "engine_openings", "events_in_bag", "fixed_bid_study", "match_rows", "matched_worth", "next_draws_check",
    "opening_crop", "play_tracked", "rate_se", "seat_gap",
]

# What became of a bid's tile. "matched": another player bought it (paid the bid to its owner).
OUTCOMES: tuple[str, ...] = ("matched", "claimed", "notary", "lawyer", "deadline", "left")
OUTCOME_WORDS: dict[str, str] = {
    "matched": "bought by another player (paid the owner the bid)",
    "claimed": "claimed by its owner (bid paid to the stock)",
    "notary": "put on its owner's board free by the Notary",
    "lawyer": "taken free by another player's Lawyer (the owner gets the bid back)",
    "deadline": "forced onto its owner's board by the Registry deadline (bid to the stock)",
    "left": "still in the store at the end (discarded; the owner keeps the bid)",
}
DRAWS_KEPT = 12  # bag draws after the setup kept per game for the "next draws" check


@dataclass(frozen=True)
class BidFate:
    """One bid and what became of it. Worths are the points the tile would have added at the moment it left the
    store (``analysis.key_harvest.tile_worth``): to its owner, and for a matched bid to the buyer."""

    game: int
    players: int
    owner: int
    code: str
    k: int                   # counters in the bid
    outcome: str             # one of OUTCOMES
    placed: int              # turn the bid was made
    resolved: int            # turn its fate was decided
    owner_worth: int | None  # matched / claimed: what the tile was worth to its owner then
    buyer_worth: int | None  # matched: what it was worth to the buyer


@dataclass(frozen=True)
class Opening:
    """What one game's setup showed, and the first bag draws after it (tile codes; events as their ids)."""

    players: int
    pairs: tuple[str, ...]       # the starting tiles of every player
    registry: tuple[str, ...]    # the opening registry
    bag: int                     # items (tiles and events) left in the bag after setup
    draws: tuple[str, ...]       # the first draws from it, in order (at most DRAWS_KEPT)


@dataclass(frozen=True)
class BidStudy:
    """Seeded games played with bid tracking: every bid's fate, every game's opening, scores per game."""

    fates: tuple[BidFate, ...]
    openings: tuple[Opening, ...]
    scores: tuple[tuple[int, ...], ...]
    games: dict[int, int]        # players -> games played
    counters_per_point: int
    fixed_k: int | None = None   # seat 0 bid exactly this many counters (None: every seat is the greedy bot)

    def of(self, players: int | None = None, owner: int | None = None) -> list[BidFate]:
        """The fates of bids at tables of ``players``, made by seat ``owner`` (None: any)."""
        return [f for f in self.fates if (players is None or f.players == players)
                and (owner is None or f.owner == owner)]


class FixedBidBot(GreedyBot):
    """The greedy bot, except that every bid it makes is exactly ``k`` counters (it does not bid with fewer)."""

    name = "bids k"

    def __init__(self, seed: int | None = 0, k: int = 2) -> None:
        super().__init__(seed)
        self.k = k

    def _bid(self, state: KeyHarvestState, player: int) -> tuple[float, Any] | None:
        mine = state.counters[player]
        if sum(mine) < self.k:
            return None
        opt = super()._bid(state, player)
        if opt is None:
            return None
        worth, act = opt
        return worth, Bid(act.code, pay_from(mine, self.k))


def _store_codes(state: KeyHarvestState) -> dict[str, tuple[int, int, int]]:
    """code -> (owner, counters bid, turn placed) for every tile lying in a store."""
    return {code: (o, sum(bid), placed) for o, store in enumerate(state.stores) for code, bid, placed in store}


class _Watched:
    """A bot whose moves are read before they are made: which store tiles a move takes, and what they were worth."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name = bot.name
        self.how = "move"
        self.worths: dict[str, tuple[int | None, int | None]] = {}

    def act(self, state: KeyHarvestState, player: int) -> Any:
        """The bot's move, noted as a match, a claim or a notary's / lawyer's call on the game as it stands."""
        action = self.bot.act(state, player)
        self.how, self.worths = "move", {}
        before = _store_codes(state)
        if isinstance(action, Buy) and action.code in before:
            o = before[action.code][0]
            self.how = "matched" if o != player else "claimed"
            self.worths[action.code] = (tile_worth(state, o, action.code),
                                        tile_worth(state, player, action.code) if o != player else None)
        elif isinstance(action, Choose) and state.queue and state.queue[0]["kind"] in ("notary", "lawyer"):
            self.how = state.queue[0]["kind"]
        return action


def play_tracked(players: int, seed: int, bots: Sequence[Any], params: KeyHarvestParams | None = None,
                 game: int = 0) -> tuple[list[BidFate], Opening, list[int]]:
    """Play one seeded game to the end (fast path) and follow every bid: (fates, opening, final scores)."""
    state = KeyHarvestState(params or KeyHarvestParams(), players, seed=seed)
    watched = [_Watched(b) for b in bots]
    fates: list[BidFate] = []
    draws: list[str] = []
    opening: tuple[Any, ...] = ()
    before = _store_codes(state)
    for step in advance(state, watched, fast=True):
        worths: dict[str, tuple[int | None, int | None]] = {}
        if step.chance:
            how = "table"
            if step.entry["chance"] == "setup":
                pairs = tuple(c for pr in step.entry["pairs"] for c in pr)
                opening = (pairs, tuple(state.registry), state.bag_remaining())
            elif step.entry["chance"] == "draw" and len(draws) < DRAWS_KEPT:
                draws.append(step.entry.get("tile") or step.entry["event"])
            event = step.entry.get("event")
            how = "deadline" if event == "deadline" else "left" if step.entry["chance"] == "end" else how
        else:
            how, worths = watched[step.player].how, watched[step.player].worths
        after = _store_codes(state)
        for code, (o, k, placed) in before.items():
            if code in after:
                continue
            if how not in OUTCOMES:  # a store tile left in a way this lesson does not know: say so loudly
                raise RuntimeError(f"bid on {code} left the store on a {how!r} step")
            ow, bw = worths.get(code, (None, None))
            fates.append(BidFate(game, players, o, code, k, how, placed, state.turn, ow, bw))
        before = after
    pairs, registry, bag = opening
    return fates, Opening(players, pairs, registry, bag, tuple(draws)), [int(s) for s in state.scores()]


def _bid_fates(k: int | None, games: int, players: Sequence[int], seed: int,
               params: KeyHarvestParams | None, bar: Any = None) -> BidStudy:
    fates: list[BidFate] = []
    openings: list[Opening] = []
    scores: list[tuple[int, ...]] = []
    for n in players:
        batch = derive_seed(seed, "players", n)
        for g in range(games):
            s = game_seed(batch, g)
            bots: list[Any] = [GreedyBot(seed=derive_seed(s, "bot", p)) for p in range(n)]
            if k is not None:
                bots[0] = FixedBidBot(seed=derive_seed(s, "bot", 0), k=k)
            f, o, sc = play_tracked(n, s, bots, params, game=g)
            fates += f
            openings.append(o)
            scores.append(tuple(sc))
            if bar is not None:
                bar.update(1)
    cpp = (params or KeyHarvestParams()).counters_per_point
    return BidStudy(tuple(fates), tuple(openings), tuple(scores), {n: games for n in players}, cpp, k)


@lru_cache(maxsize=8)
def bid_study(games: int = 100, players: tuple[int, ...] = (2, 3, 4), seed: int = 0,
              progress: bool = True) -> BidStudy:
    """``games`` seeded games at each table size, every seat the greedy bot, every bid followed to its fate.
    A progress bar shows once the run takes over a second (100 games per size: about 3 s on one core)."""
    bar = progress_bar(total=games * len(players), desc="Key Harvest games", unit="game") if progress else None
    try:
        return _bid_fates(None, games, players, seed, None, bar)
    finally:
        if bar is not None:
            bar.close()


_FIXED: dict[tuple[int, int, tuple[int, ...], int], BidStudy] = {}


def bid_sizes(ks: Sequence[int] = (1, 2, 3, 4, 5), games: int = 40, players: tuple[int, ...] = (2, 3, 4),
              seed: int = 0, progress: bool = True) -> dict[int, BidStudy]:
    """The controlled experiment: seat 0 bids exactly k counters every time, the other seats are greedy bots —
    on the same deals for every k (common random numbers), so bid sizes are compared deal by deal. Results are
    kept per (k, games, players, seed): a live slider pays for each k once. One progress bar for the whole sweep."""
    players = tuple(players)
    todo = [k for k in ks if (k, games, players, seed) not in _FIXED]
    bar = None
    if progress and todo:
        bar = progress_bar(total=len(todo) * games * len(players), desc="Key Harvest games", unit="game")
    try:
        for k in todo:
            _FIXED[(k, games, players, seed)] = _bid_fates(k, games, players, seed, None, bar)
    finally:
        if bar is not None:
            bar.close()
    return {k: _FIXED[(k, games, players, seed)] for k in ks}


def fixed_bid_study(k: int, games: int = 40, players: tuple[int, ...] = (2, 3, 4), seed: int = 0,
                    progress: bool = False) -> BidStudy:
    """``bid_sizes`` for one bid size ``k``."""
    return bid_sizes((k,), games, players, seed, progress)[k]


def seat_gap(study: BidStudy, players: int | None = None) -> tuple[float, float, int]:
    """Seat 0's score minus the mean of the other seats, per game: (mean, standard error, games)."""
    gaps = [s[0] - sum(s[1:]) / (len(s) - 1) for s in study.scores if players is None or len(s) == players]
    n = len(gaps)
    if n < 2:
        return (gaps[0] if gaps else 0.0), 0.0, n
    m = sum(gaps) / n
    sd = math.sqrt(sum((g - m) ** 2 for g in gaps) / (n - 1))
    return m, sd / math.sqrt(n), n


def rate_se(hits: int, n: int) -> tuple[float, float]:
    """A proportion and its standard error √(p(1−p)/n) (0, 0 for no trials)."""
    if n == 0:
        return 0.0, 0.0
    p = hits / n
    return p, math.sqrt(p * (1 - p) / n)


def match_rows(fates: Iterable[BidFate], ks: Sequence[int] | None = None) -> list[dict[str, Any]]:
    """One row per (players, bid size k): bids, how many ended each way, and the matched and claimed rates with
    their standard errors. Bids of ``max(ks)`` counters or more share the last row ("k+")."""
    fates = list(fates)
    ks = sorted(ks or {f.k for f in fates})
    top = ks[-1] if ks else 0
    out = []
    for n in sorted({f.players for f in fates}):
        for k in ks:
            sel = [f for f in fates if f.players == n and (f.k == k or (k == top and f.k > top))]
            counts = {o: sum(f.outcome == o for f in sel) for o in OUTCOMES}
            m, m_se = rate_se(counts["matched"], len(sel))
            c, c_se = rate_se(counts["claimed"], len(sel))
            out.append({"players": n, "k": k, "label": f"{k}+" if k == top and any(f.k > top for f in sel) else str(k),
                        "bids": len(sel), **counts, "matched_rate": m, "matched_se": m_se,
                        "claimed_rate": c, "claimed_se": c_se})
    return out


def matched_worth(fates: Iterable[BidFate], counters_per_point: int = 3) -> dict[str, Any]:
    """What the owner of a matched bid gained and lost, in points: the k counters the buyer paid (worth
    k/counters_per_point points) against the tile it lost (its worth to the owner then); and the buyer's side."""
    sel = [f for f in fates if f.outcome == "matched"]
    n = len(sel)
    if not n:
        return {"n": 0}
    got = [f.k / counters_per_point for f in sel]
    lost = [float(f.owner_worth or 0) for f in sel]
    net = [g - lo for g, lo in zip(got, lost, strict=True)]
    bought = [float(f.buyer_worth or 0) - f.k / counters_per_point for f in sel]

    def mean_se(xs: list[float]) -> tuple[float, float]:
        m = sum(xs) / len(xs)
        sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1)) if len(xs) > 1 else 0.0
        return m, sd / math.sqrt(len(xs))

    return {"n": n, "counters": mean_se([float(f.k) for f in sel]), "gained": mean_se(got), "lost": mean_se(lost),
            "net": mean_se(net), "buyer_net": mean_se(bought),
            "owner_ahead": sum(x > 0 for x in net) / n}


# =============================================================================================
# The exact part: the bag
# =============================================================================================
def crop_tiles(exclude: Iterable[str] = ()) -> list[int]:
    """Field tiles of each crop (wine, hops, apples, vegetables, wheat) on the 56 codes, less ``exclude``."""
    gone = set(exclude)
    out = [0] * len(CROPS)
    for code in B.CODES:
        if code not in gone:
            out[B.CROP_OF[code]] += 1
    return out


@lru_cache(maxsize=64)
def opening_crop(crop: int, players: int, registry: int = 6) -> Dist[int]:
    """How many tiles of ``crop`` the opening registry shows — exactly. Given the starting pairs dealt, the registry
    is ``registry`` tiles drawn from the T = 56 − 2·players left (events drawn are put back), so the count is
    hypergeometric; the pairs are a random ``players`` of the 8, so average over every choice of them."""
    weights: dict[int, Fraction] = {}
    choices = list(combinations(B.START_PAIRS, players))
    for chosen in choices:
        left = crop_tiles(c for pr in chosen for c in pr)
        for j, p in hypergeometric(registry, left[crop], sum(left)).items():
            weights[j] = weights.get(j, Fraction(0)) + p / len(choices)
    return Dist(weights)


@lru_cache(maxsize=8)
def engine_openings(n: int = 3000, players: int = 3, seed: int = 0) -> tuple[tuple[int, ...], ...]:
    """The real engine's setup in ``n`` seeded games: tiles of each crop in the opening registry (one tuple a game)."""
    out = []
    for g in range(n):
        state = KeyHarvestState(None, players, seed=game_seed(derive_seed(seed, "openings", players), g))
        step_table(state)          # the setup: starting pairs, the counters, the opening registry
        shown = [0] * len(CROPS)
        for code in state.registry:
            shown[B.CROP_OF[code]] += 1
        out.append(tuple(shown))
    return tuple(out)


def next_draws_check(openings: Iterable[Opening], crop: int, draws: int) -> dict[str, Any]:
    """After setup you can see the registry and the boards; the rest of the bag is shuffled. The chance the next
    ``draws`` draws hold a tile of ``crop``: 1 − C(R−m, d)/C(R, d), with R items left (tiles and events) and m of
    them tiles of that crop — exact for each game; averaged over games beside how often it really happened."""
    exact: list[Fraction] = []
    seen = 0
    for o in openings:
        if len(o.draws) < draws:
            raise ValueError(f"a game drew only {len(o.draws)} items, fewer than {draws}")
        m = crop_tiles([*o.pairs, *o.registry])[crop]
        exact.append(at_least_one(draws, m, o.bag))
        seen += any(c in B.CROP_OF and B.CROP_OF[c] == crop for c in o.draws[:draws])
    n = len(exact)
    mean = sum(exact, Fraction(0)) / n
    # games differ in R and m: the count seen is a sum of independent Bernoullis with these chances
    se = math.sqrt(float(sum(p * (1 - p) for p in exact))) / n
    one = {(o.bag, crop_tiles([*o.pairs, *o.registry])[crop]) for o in openings}
    return {"crop": CROPS[crop], "draws": draws, "games": n, "exact": mean, "seen": seen / n, "se": se,
            "cases": sorted(one)}


def events_in_bag(players: int) -> int:
    """Event tiles in the bag (12 with 2–3 players, 14 with 4)."""
    return len(events_for(players))
