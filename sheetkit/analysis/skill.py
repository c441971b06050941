"""How much of a game is luck: the skill share (Borm & van der Genugten's relative skill) on seeded deals.

Three players play the same deals: a **beginner** (the random bot), an **expert** (the game's ``expert``
bot) and **hindsight** (the game's hindsight search, told the whole deal in advance). Then

- learning effect = expert − beginner: what playing well is worth;
- luck effect = hindsight − expert: what knowing the deal would add to good play;
- skill share = learning / (learning + luck) = (expert − beginner) / (hindsight − beginner).

A share near 1: good play gets close to the best the deal allows (a game of skill); near 0: playing well
hardly beats playing at random next to what the cards or dice decide (a lottery). The point estimates are
exact Fractions of the integer scores; the interval is a paired, seeded bootstrap over deals.

Games for 2–4 players (Key Harvest) measure one seat — rotated from deal to deal — against the same
opponents (greedy bots with the same seeds on every deal): its score with a random, an expert and a
hindsight player in it; the opponents play as they would against each.

Until a game has its ``expert`` bot or its hindsight search, a **stand-in** takes the role and every
label says so: the strongest bot it has (Avenue's Monte Carlo planner, otherwise greedy) for the expert,
and the best of K games of that bot on the deal (told nothing) for hindsight. A stand-in hindsight is a
weak bound, so a stand-in's share is an *upper* estimate of the real one.

Deal k is dealt from ``game_seed(seed, k)``, as in every other batch here, so a run depends only on
(game, variant, players, seed, k) and not on who runs it (this process, a process pool or a dask cluster;
``montecarlo.run_chunks``).
"""

from __future__ import annotations

import contextlib
import inspect
import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from sheetkit.analysis.montecarlo import Interval, StopSignal, resolve_variant, run_in_order
from sheetkit.analysis.simulate import game_seed
from sheetkit.core.bots import RecordingBot
from sheetkit.core.chance import derive_seed
from sheetkit.core.play import play_out
from sheetkit.core.protocol import Bot
from sheetkit.core.registry import GameSpec, get_game

__all__ = [
    "ROLES", "Lineup", "SkillBootstrap", "SkillComparison", "SkillShare", "bootstrap_share", "compare_skill",
    "dask_client", "deal_scores", "lineup", "relative_skill", "skill_share",
]

ROLES = ("beginner", "expert", "hindsight")
STANDIN_RUNS = 4   # games of the stand-in expert whose best stands in for hindsight


def relative_skill(beginner: Fraction | int, expert: Fraction | int, hindsight: Fraction | int) -> Fraction | None:
    """learning / (learning + luck) = (expert − beginner) / (hindsight − beginner); None when hindsight ≤ beginner."""
    learning = Fraction(expert) - Fraction(beginner)
    luck = Fraction(hindsight) - Fraction(expert)
    if learning + luck <= 0:
        return None
    return learning / (learning + luck)


# ----- who plays ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Lineup:
    """Who plays each role on a deal, and which roles are stand-ins (labelled as such)."""

    beginner: str = "random"
    expert: str = "expert"
    opponent: str = "greedy"
    expert_standin: bool = False
    hindsight_standin: bool = False
    standin_runs: int = STANDIN_RUNS
    standin_bot: str = "random"
    budget: float = 1.0          # the hindsight search's
    expert_budget: float = 1.0   # the expert bot's (a bot named "expert" takes ``budget=``)

    @property
    def standin(self) -> bool:
        """True when any role is played by a stand-in."""
        return self.expert_standin or self.hindsight_standin

    def label(self, role: str) -> str:
        """The role's player in words, stand-ins named as such."""
        if role == "beginner":
            return f"{self.beginner} bot"
        if role == "expert":
            return f"{self.expert} bot (stand-in for the expert)" if self.expert_standin else f"{self.expert} bot"
        if self.hindsight_standin:
            return (f"best of the expert's game and {self.standin_runs - 1} {self.standin_bot} games "
                    "(stand-in for hindsight, told nothing)")
        return "hindsight search (told the whole deal)"

    def to_json(self) -> dict[str, Any]:
        """Plain dict form (for saved tables)."""
        return {"beginner": self.beginner, "expert": self.expert, "opponent": self.opponent,
                "expert_standin": self.expert_standin, "hindsight_standin": self.hindsight_standin,
                "standin_runs": self.standin_runs, "standin_bot": self.standin_bot, "budget": self.budget,
                "expert_budget": self.expert_budget,
                "labels": {r: self.label(r) for r in ROLES}}


def lineup(game: str, expert: str | None = None, opponent: str = "greedy", standin_runs: int = STANDIN_RUNS,
           budget: float = 1.0, hindsight: bool = True, expert_budget: float = 1.0) -> Lineup:
    """The players of ``game``'s skill share: its ``expert`` bot and hindsight search, or labelled stand-ins.

    ``expert`` names another bot for the expert's role (then it is a stand-in unless it is "expert");
    ``hindsight=False`` uses the stand-in hindsight even where the real search exists (quick runs).
    The stand-in hindsight is the best of the expert's game and ``standin_runs − 1`` games of a bot that
    varies with its seed (Avenue's Monte Carlo planner, else the random bot) on the same deal.
    """
    spec = get_game(game)
    if expert is None:
        expert = next(b for b in ("expert", "montecarlo", "greedy", "random") if b in spec.bots)
    if expert not in spec.bots:
        raise KeyError(f"unknown bot {expert!r} for {spec.title}; choose from {', '.join(spec.bots)}")
    if opponent not in spec.bots:
        raise KeyError(f"unknown bot {opponent!r} for {spec.title}; choose from {', '.join(spec.bots)}")
    if standin_runs < 1:
        raise ValueError("standin_runs must be at least 1")
    standin_bot = "montecarlo" if "montecarlo" in spec.bots else "random"
    return Lineup("random", expert, opponent, expert != "expert", spec.hindsight is None or not hindsight,
                  standin_runs, standin_bot, budget, expert_budget)


# ----- one deal -------------------------------------------------------------------------------------
def _default_players(spec: GameSpec) -> int:
    return max(1, spec.min_players)


def deal_scores(game: str, params: Any, players: int, who: Lineup, seed: int, k: int) -> tuple[int, int, int, bool]:
    """Deal ``k`` of batch ``seed``: (beginner, expert, hindsight score, hindsight exact) of the measured seat.

    The seat is ``k % players`` (rotated so no seat's advantage is counted); the other seats are the
    opponent bot, seeded from the deal, the same in all three games. A hindsight result below the
    expert's own score on the deal is raised to it: the expert's moves are a line the told player could
    have played, so the best is at least that.
    """
    spec = get_game(game)
    s = game_seed(seed, k)
    seat = k % players
    names = [f"{who.opponent} {p + 1}" for p in range(players)]

    def fresh() -> Any:
        return spec.new_state(params, names, seed=s)

    def table(me: Bot | None) -> list[Any]:
        return [me if p == seat else spec.bots[who.opponent](seed=derive_seed(s, "bot", p)) for p in range(players)]

    def play(bot: str, bot_seed: int, moves: list[Any] | None = None) -> int:
        state = fresh()
        options = {"budget": who.expert_budget} if bot == "expert" and who.expert_budget != 1.0 else {}
        me = spec.bots[bot](seed=bot_seed, **options)
        play_out(state, table(RecordingBot(me, moves) if moves is not None else me), fast=True)
        return int(state.scores()[seat])

    own = derive_seed(s, "bot", seat)
    b = play(who.beginner, own)
    expert_moves: list[Any] = []
    e = play(who.expert, own, expert_moves)
    if who.hindsight_standin or spec.hindsight is None:
        runs = [play(who.standin_bot, derive_seed(s, "hindsight-standin", j)) for j in range(who.standin_runs - 1)]
        h = max([e, *runs])
        return b, e, h, False
    # The expert's game seeds the search where the game's hindsight takes one, so it never ends below it.
    extra = {"baseline": expert_moves} if "baseline" in inspect.signature(spec.hindsight).parameters else {}
    found = spec.hindsight(fresh(), seat, table(None), who.budget, **extra)
    return b, e, max(int(found.score), e), bool(found.exact) and int(found.score) >= e


@dataclass(frozen=True)
class _Job:
    game: str
    params: tuple[Any, ...]
    players: int
    who: Lineup
    seed: int
    start: int
    stop: int


@dataclass
class _Chunk:
    start: int
    scores: np.ndarray    # (deals, variants, 3) beginner, expert, hindsight
    exact: np.ndarray     # (deals, variants) the hindsight score is the true optimum
    seconds: float


def _run_chunk(job: _Job) -> _Chunk:
    """Deals start..stop-1 under every variant (runs in a worker)."""
    t0 = time.process_time()
    n, v = job.stop - job.start, len(job.params)
    scores = np.zeros((n, v, 3), dtype=np.int64)
    exact = np.zeros((n, v), dtype=bool)
    for i, k in enumerate(range(job.start, job.stop)):
        for j, params in enumerate(job.params):
            b, e, h, x = deal_scores(job.game, params, job.players, job.who, job.seed, k)
            scores[i, j] = (b, e, h)
            exact[i, j] = x
    return _Chunk(job.start, scores, exact, time.process_time() - t0)


# ----- the statistics -------------------------------------------------------------------------------
@dataclass(frozen=True)
class SkillBootstrap:
    """Percentile intervals of a paired bootstrap over deals: the share, the learning and the luck effect."""

    share: Interval
    learning: Interval
    luck: Interval
    undefined: int   # resamples where hindsight ≤ beginner (no share): left out of the share's interval

    def to_json(self) -> dict[str, Any]:
        """Plain dict form."""
        return {"share": self.share.to_json(), "learning": self.learning.to_json(), "luck": self.luck.to_json(),
                "undefined": self.undefined}


def bootstrap_share(scores: np.ndarray, level: float = 0.95, resamples: int = 2000, seed: int = 0) -> SkillBootstrap:
    """Seeded percentile bootstrap of the skill share from per-deal (beginner, expert, hindsight) rows.

    Deals are resampled whole (all three players' scores together), so the pairing on the same deal —
    which makes the differences precise — is kept in every resample.
    """
    x = np.asarray(scores, dtype=float)
    if x.ndim != 2 or x.shape[1] != 3:
        raise ValueError("scores must be one (beginner, expert, hindsight) row per deal")
    n = len(x)
    if n < 2:
        raise ValueError("a bootstrap interval needs at least 2 deals")
    if not 0 < level < 1:
        raise ValueError("level must be between 0 and 1, e.g. 0.95")
    rng = np.random.default_rng(seed)
    means = np.empty((resamples, 3))
    batch = max(1, 1_000_000 // n)
    for i in range(0, resamples, batch):
        m = min(batch, resamples - i)
        means[i:i + m] = x[rng.integers(0, n, size=(m, n))].mean(axis=1)
    learning = means[:, 1] - means[:, 0]
    luck = means[:, 2] - means[:, 1]
    total = learning + luck
    ok = total > 0
    q = [(1 - level) / 2, (1 + level) / 2]
    est = x.mean(axis=0)

    def interval(estimate: float, values: np.ndarray) -> Interval:
        if len(values) == 0:
            return Interval(estimate, math.nan, math.nan, level, n, "paired bootstrap")
        lo, hi = np.quantile(values, q)
        return Interval(estimate, float(lo), float(hi), level, n, "paired bootstrap")

    share = relative_skill(Fraction(est[0]), Fraction(est[1]), Fraction(est[2]))
    return SkillBootstrap(
        share=interval(float(share) if share is not None else math.nan, learning[ok] / total[ok]),
        learning=interval(float(est[1] - est[0]), learning),
        luck=interval(float(est[2] - est[1]), luck),
        undefined=int((~ok).sum()),
    )


@dataclass
class SkillShare:
    """Beginner, expert and hindsight scores of one game and variant on the same deals, and the skill share.

    ``scores[k]`` is deal k's (beginner, expert, hindsight) score of the measured seat; ``exact[k]`` says
    the hindsight score there is the proven optimum (otherwise it is "at least").
    """

    game: str
    variant: str
    params: Any
    players: int
    seed: int
    lineup: Lineup
    scores: np.ndarray
    exact: np.ndarray
    requested: int
    stopped: bool = False
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    _boot: dict[tuple[float, int, int], SkillBootstrap] = field(default_factory=dict, repr=False)

    @property
    def deals(self) -> int:
        """Deals played (fewer than ``requested`` when stopped early)."""
        return int(self.scores.shape[0])

    def values(self, role: str) -> np.ndarray:
        """One score per deal for a role: "beginner", "expert" or "hindsight"."""
        return self.scores[:, ROLES.index(role)]

    def mean(self, role: str) -> Fraction:
        """The role's exact mean score over the deals."""
        if not self.deals:
            raise ValueError("no deals played yet")
        return Fraction(int(self.values(role).sum()), self.deals)

    @property
    def learning(self) -> Fraction:
        """Learning effect: expert − beginner (exact)."""
        return self.mean("expert") - self.mean("beginner")

    @property
    def luck(self) -> Fraction:
        """Luck effect: hindsight − expert (exact)."""
        return self.mean("hindsight") - self.mean("expert")

    @property
    def share(self) -> Fraction | None:
        """Skill share learning / (learning + luck), exact; None when hindsight does not beat the beginner."""
        return relative_skill(self.mean("beginner"), self.mean("expert"), self.mean("hindsight"))

    def bootstrap(self, level: float = 0.95, resamples: int = 2000, seed: int = 0) -> SkillBootstrap:
        """The paired bootstrap intervals (computed once per setting)."""
        key = (level, resamples, seed)
        if key not in self._boot:
            self._boot[key] = bootstrap_share(self.scores, level, resamples, seed)
        return self._boot[key]

    @property
    def exact_share(self) -> float:
        """Share of deals whose hindsight score is the proven optimum."""
        return float(self.exact.mean()) if self.deals else 0.0

    def row(self, level: float = 0.95) -> dict[str, Any]:
        """One JSON-able line: the three means, both effects and the share (exact and rounded), with intervals."""
        share = self.share
        out: dict[str, Any] = {
            "game": self.game, "variant": self.variant, "players": self.players, "deals": self.deals,
            "seed": self.seed, "stand_in": self.lineup.standin,
            **{f"{r}_mean": round(float(self.mean(r)), 3) for r in ROLES},
            "learning": round(float(self.learning), 3), "luck": round(float(self.luck), 3),
            "share": None if share is None else round(float(share), 4),
            "share_exact": None if share is None else str(share),
            "hindsight_exact_deals": round(self.exact_share, 3),
            "lineup": self.lineup.to_json(),
        }
        if self.deals > 1:
            boot = self.bootstrap(level)
            out.update(share_low=_r(boot.share.low), share_high=_r(boot.share.high), level=level,
                       learning_low=_r(boot.learning.low), learning_high=_r(boot.learning.high),
                       luck_low=_r(boot.luck.low), luck_high=_r(boot.luck.high))
        return out

    def __str__(self) -> str:
        share = self.share
        text = "undefined" if share is None else f"{float(share):.3f}"
        if self.deals > 1 and share is not None:
            b = self.bootstrap()
            text += f" (95% CI {b.share.low:.3f} to {b.share.high:.3f})"
        return (f"{self.game} {self.variant}, {self.deals} deals: beginner {float(self.mean('beginner')):.2f}, "
                f"expert {float(self.mean('expert')):.2f}, hindsight {float(self.mean('hindsight')):.2f}; "
                f"skill share {text}{' [stand-in]' if self.lineup.standin else ''}")


def _r(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 4)


@dataclass
class SkillComparison:
    """The skill share of two rule sets on the same deals, and the paired difference of the shares."""

    old: SkillShare
    new: SkillShare

    def difference(self, level: float = 0.95, resamples: int = 2000, seed: int = 0) -> Interval:
        """new share − old share, with a paired bootstrap interval (the same deals resampled for both)."""
        a, b = self.old.scores.astype(float), self.new.scores.astype(float)
        n = len(a)
        sa, sb = self.old.share, self.new.share
        est = math.nan if sa is None or sb is None else float(sb - sa)
        if n < 2:
            return Interval(est, math.nan, math.nan, level, n, "paired bootstrap")
        rng = np.random.default_rng(seed)
        idx = rng.integers(0, n, size=(resamples, n))
        ma, mb = a[idx].mean(axis=1), b[idx].mean(axis=1)
        ta, tb = ma[:, 2] - ma[:, 0], mb[:, 2] - mb[:, 0]
        ok = (ta > 0) & (tb > 0)
        d = (mb[ok, 1] - mb[ok, 0]) / tb[ok] - (ma[ok, 1] - ma[ok, 0]) / ta[ok]
        if not len(d):
            return Interval(est, math.nan, math.nan, level, n, "paired bootstrap")
        lo, hi = np.quantile(d, [(1 - level) / 2, (1 + level) / 2])
        return Interval(est, float(lo), float(hi), level, n, "paired bootstrap")


# ----- running ----------------------------------------------------------------------------------------
@contextlib.contextmanager
def dask_client(address: str | None) -> Iterator[Any]:
    """A dask.distributed Client for ``address`` (closed afterwards), or None when no address is given."""
    if not address:
        yield None
        return
    try:
        from distributed import Client
    except ImportError as e:  # the "scale" extra
        raise RuntimeError("a cluster needs dask.distributed: pip install 'sheetkit-games[scale]'") from e
    client = Client(address, timeout="10s")   # a wrong address is said within 10 s, not 30
    try:
        yield client
    finally:
        client.close()


def _run(game: str, variants: Mapping[str, Any], n: int, *, seed: int, players: int | None, who: Lineup,
         executor: Any, workers: int | None, dask: str | None, chunk_size: int | None, progress: bool,
         stop: StopSignal | None, on_chunk: Callable[[list[SkillShare]], None] | None) -> list[SkillShare]:
    spec = get_game(game)
    seats = players if players is not None else _default_players(spec)
    if not spec.min_players <= seats <= spec.max_players:
        raise ValueError(f"{spec.title} takes {spec.min_players} to {spec.max_players} players")
    if n < 0:
        raise ValueError("n must be ≥ 0")
    labels = list(variants)
    params = tuple(variants.values())
    t0 = time.perf_counter()

    def assemble(prefix: list[_Chunk], stopped: bool) -> list[SkillShare]:
        v = len(params)
        scores = np.concatenate([c.scores for c in prefix]) if prefix else np.zeros((0, v, 3), dtype=np.int64)
        exact = np.concatenate([c.exact for c in prefix]) if prefix else np.zeros((0, v), dtype=bool)
        cpu = sum(c.seconds for c in prefix)
        return [SkillShare(spec.name, label, p, seats, seed, who, scores[:, j, :].copy(), exact[:, j].copy(), n,
                           stopped, time.perf_counter() - t0, cpu)
                for j, (label, p) in enumerate(zip(labels, params, strict=True))]

    def jobs(slots: int) -> Iterator[_Job]:
        size = chunk_size or max(1, min(16, math.ceil(n / (slots * 8))))
        for k in range(0, n, size):
            yield _Job(spec.name, params, seats, who, seed, k, min(n, k + size))

    def partial(prefix: list[_Chunk]) -> None:
        if on_chunk is not None:
            on_chunk(assemble(prefix, False))

    with dask_client(dask) as client:
        prefix, stopped = run_in_order(_run_chunk, jobs, n, len(params), executor=client or executor,
                                       workers=workers, stop=stop, on_prefix=partial,
                                       desc=f"{spec.title} · skill share" if progress else None)
    return assemble(prefix, stopped)


def skill_share(game: str, variant: Any = None, n: int = 100, *, seed: int = 0, players: int | None = None,
                expert: str | None = None, opponent: str = "greedy", standin_runs: int = STANDIN_RUNS,
                budget: float = 1.0, hindsight: bool = True, expert_budget: float = 1.0, executor: Any = None,
                workers: int | None = None, dask: str | None = None, chunk_size: int | None = None,
                progress: bool = True, stop: StopSignal | None = None,
                on_chunk: Callable[[SkillShare], None] | None = None) -> SkillShare:
    """The skill share of one game and variant on ``n`` seeded deals (see the module's words).

    ``players``: seats at the table (default: the game's fewest, 1 for the solo games); ``expert``,
    ``opponent``, ``standin_runs``, ``budget``, ``hindsight``, ``expert_budget``: who plays (``lineup``). ``executor`` /
    ``workers`` as in ``montecarlo.play_variants``; ``dask``: a scheduler address ("tcp://host:8786") to run
    on a cluster instead. ``stop`` and ``on_chunk`` as there (a stopped run holds the first deals).
    """
    label, params = resolve_variant(game, variant)
    who = lineup(game, expert, opponent, standin_runs, budget, hindsight, expert_budget)
    cb = (lambda shares: on_chunk(shares[0])) if on_chunk is not None else None
    return _run(game, {label: params}, n, seed=seed, players=players, who=who, executor=executor, workers=workers,
                dask=dask, chunk_size=chunk_size, progress=progress, stop=stop, on_chunk=cb)[0]


def compare_skill(game: str, old: Any, new: Any, n: int = 100, *, seed: int = 0, players: int | None = None,
                  expert: str | None = None, opponent: str = "greedy", standin_runs: int = STANDIN_RUNS,
                  budget: float = 1.0, hindsight: bool = True, expert_budget: float = 1.0, executor: Any = None,
                  workers: int | None = None, dask: str | None = None, chunk_size: int | None = None,
                  progress: bool = True, stop: StopSignal | None = None,
                  on_chunk: Callable[[SkillComparison], None] | None = None,
                  labels: Sequence[str] = ("old rules", "new rules")) -> SkillComparison:
    """The skill share under two rule sets on the same deals (the what-if explorer's "Skill share")."""
    pa, pb = resolve_variant(game, old)[1], resolve_variant(game, new)[1]
    who = lineup(game, expert, opponent, standin_runs, budget, hindsight, expert_budget)
    cb = (lambda shares: on_chunk(SkillComparison(*shares))) if on_chunk is not None else None
    got = _run(game, {labels[0]: pa, labels[1]: pb}, n, seed=seed, players=players, who=who, executor=executor,
               workers=workers, dask=dask, chunk_size=chunk_size, progress=progress, stop=stop, on_chunk=cb)
    return SkillComparison(*got)
