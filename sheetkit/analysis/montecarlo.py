"""Monte Carlo what-ifs: seeded bot games of any registered game, in parallel, with honest error bars.

Game k of a batch is dealt from ``game_seed(seed, k)`` (the same seed ``run_games`` and the CLI use) and
every bot's seed derives from that, so a result depends only on (game, variant, bots, seed, k): never on
the executor, the number of workers or the chunk size. Variants played side by side share their deals
(common random numbers), so ``compare_variants`` sees a small rule change with few games.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import statistics
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from sheetkit.analysis.simulate import game_seed, progress_bar
from sheetkit.core.chance import derive_seed
from sheetkit.core.play import play_out
from sheetkit.core.protocol import Bot, GameState
from sheetkit.core.registry import GameSpec, get_game

__all__ = [
    "GAME_TABLE", "BotSpec", "Comparison", "Interval", "Results", "StopSignal", "compare_variants", "diff_ci",
    "mean_ci", "params_with", "play_games", "play_one", "play_variants", "resolve_variant", "run_chunks",
]

# A seat's bot: a registered name ("greedy"), a name with options (("montecarlo", {"rollouts": 4})),
# or a picklable factory called as factory(seed=...) -> Bot.
BotSpec = str | tuple[str, Mapping[str, Any]] | Callable[..., Bot]
# measure(state, seat) -> extra columns for that seat's row (must be a picklable module-level function).
Measure = Callable[[GameState, int], Mapping[str, Any]]
# A threading.Event (or anything with is_set) or a function returning True to stop.
StopSignal = threading.Event | Callable[[], bool]

CUSTOM = "custom"
# Column names of the per-game table the CLI writes (``results.rows(GAME_TABLE)``): one row per game × player.
GAME_TABLE: dict[str, str] = {"deal": "game", "seat": "player"}


# ---------------------------------------------------------------------------------------------
# variants and bots
# ---------------------------------------------------------------------------------------------
def _params_json(params: Any) -> Any:
    to_json = getattr(params, "to_json", None)
    if to_json is None:
        raise TypeError(f"{type(params).__name__} has no to_json(); pass a params object of the game")
    return to_json()


def resolve_variant(game: str, variant: Any = None) -> tuple[str, Any]:
    """(label, params) for a variant given as None (default rules), a preset name, a JSON dict or a params object."""
    spec = get_game(game)
    if variant is None:
        params = spec.default_params()
    elif isinstance(variant, str):
        if variant not in spec.presets:
            raise KeyError(f"unknown variant {variant!r} for {spec.title}; choose from {', '.join(spec.presets)}")
        return variant, spec.presets[variant]()
    elif isinstance(variant, Mapping):
        params = spec.parse_params(dict(variant), "variant")
    else:
        params = variant
    for name, make in spec.presets.items():
        if make() == params:
            return name, params
    return CUSTOM, params


def params_with(game: str, base: Any = None, changes: Mapping[str, Any] | None = None, path: str = "variant") -> Any:
    """A variant's params with some JSON fields changed and validated, e.g. ``params_with("avenue", "standard",
    {"penalty": 3})`` (what the CLI's ``--set penalty=3`` builds).

    A dotted key changes one field inside another (``{"deck.5": [4, 3]}``); a value of None removes the
    field, so the game's default applies (``{"uses": None}``). Bad fields raise RecordError naming ``path``.
    """
    spec = get_game(game)
    _, params = resolve_variant(game, base)
    if not changes:
        return params
    doc = json.loads(json.dumps(_params_json(params)))  # a deep copy
    for key, value in changes.items():
        *outer, last = str(key).split(".")
        target = doc
        for k, part in enumerate(outer):
            inner = target.get(part) if isinstance(target, dict) else None
            if not isinstance(inner, dict):
                from sheetkit.core.errors import RecordError

                raise RecordError(f"{'.'.join(outer[:k + 1])!r} has no fields to change", path)
            target = inner
        if value is None:
            target.pop(last, None)
        else:
            target[last] = value
    return spec.parse_params(doc, path)


def _bot_label(bot: BotSpec) -> str:
    if isinstance(bot, str):
        return bot
    if isinstance(bot, tuple):
        return str(bot[0])
    return str(getattr(bot, "name", None) or getattr(bot, "__name__", type(bot).__name__))


def _is_one_bot(bots: Any) -> bool:
    """A single BotSpec (for every seat) rather than a list with one per seat."""
    if isinstance(bots, str) or (callable(bots) and not isinstance(bots, (list, tuple))):
        return True
    return isinstance(bots, tuple) and len(bots) == 2 and isinstance(bots[0], str) and isinstance(bots[1], Mapping)


def _make_bot(spec: GameSpec, bot: BotSpec, seed: int) -> Bot:
    if isinstance(bot, str):
        return spec.bots[bot](seed=seed)
    if isinstance(bot, tuple):
        name, options = bot
        return spec.bots[name](seed=seed, **dict(options))
    return bot(seed=seed)


def _check_bots(spec: GameSpec, bots: Sequence[BotSpec]) -> None:
    for b in bots:
        name = b if isinstance(b, str) else (b[0] if isinstance(b, tuple) else None)
        if name is not None and name not in spec.bots:
            raise KeyError(f"unknown bot {name!r} for {spec.title}; choose from {', '.join(spec.bots)}")
        if name is None and not callable(b):
            raise TypeError(f"a bot must be a name, (name, options) or a factory, not {b!r}")


# ---------------------------------------------------------------------------------------------
# the work: one game, one chunk
# ---------------------------------------------------------------------------------------------
def play_one(game: str, params: Any, bots: Sequence[BotSpec], seed: int, k: int,
             measure: Measure | None = None) -> tuple[list[int], list[dict[str, Any]] | None]:
    """Play deal ``k`` of batch ``seed`` to the end: (score per seat, extra columns per seat or None)."""
    spec = get_game(game)
    s = game_seed(seed, k)
    state = spec.new_state(params, [f"{_bot_label(b)} {p + 1}" for p, b in enumerate(bots)], seed=s)
    players = [_make_bot(spec, b, derive_seed(s, "bot", p)) for p, b in enumerate(bots)]
    play_out(state, players, fast=True)
    extras = [dict(measure(state, p)) for p in range(len(bots))] if measure is not None else None
    return [int(x) for x in state.scores()], extras


@dataclass(frozen=True)
class _Job:
    game: str
    params: tuple[Any, ...]
    bots: tuple[BotSpec, ...]
    seed: int
    start: int
    stop: int
    measure: Measure | None


@dataclass
class _Chunk:
    start: int
    scores: np.ndarray                        # (games, variants, seats)
    extras: list[list[list[dict[str, Any]]]] | None
    seconds: float


def _run_chunk(job: _Job) -> _Chunk:
    """Play deals start..stop-1 under every variant (runs in a worker)."""
    t0 = time.perf_counter()
    n, v, s = job.stop - job.start, len(job.params), len(job.bots)
    scores = np.zeros((n, v, s), dtype=np.int64)
    extras: list[list[list[dict[str, Any]]]] | None = [] if job.measure is not None else None
    for i, k in enumerate(range(job.start, job.stop)):
        per_variant = []
        for j, params in enumerate(job.params):
            sc, ex = play_one(job.game, params, job.bots, job.seed, k, job.measure)
            scores[i, j] = sc
            per_variant.append(ex or [])
        if extras is not None:
            extras.append(per_variant)
    return _Chunk(job.start, scores, extras, time.perf_counter() - t0)


# ---------------------------------------------------------------------------------------------
# confidence intervals
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Interval:
    """An estimate with a confidence interval."""

    estimate: float
    low: float
    high: float
    level: float
    n: int
    method: str

    @property
    def half_width(self) -> float:
        """Half the interval's width (the ± figure)."""
        return (self.high - self.low) / 2

    def contains(self, x: float) -> bool:
        """True when ``x`` lies inside the interval."""
        return self.low <= x <= self.high

    def excludes_zero(self) -> bool:
        """True when the interval lies wholly above or below 0 (a difference that shows)."""
        return not self.contains(0.0)

    def to_json(self) -> dict[str, Any]:
        """Plain dict form."""
        return {"estimate": self.estimate, "low": self.low, "high": self.high, "level": self.level,
                "n": self.n, "method": self.method}

    def __str__(self) -> str:
        return (f"{self.estimate:.3f} ± {self.half_width:.3f} ({self.level:.0%} CI {self.low:.3f} to "
                f"{self.high:.3f}, n={self.n}, {self.method})")


def _z(level: float) -> float:
    if not 0 < level < 1:
        raise ValueError("level must be between 0 and 1, e.g. 0.95")
    return statistics.NormalDist().inv_cdf(0.5 + level / 2)


def _boot_means(values: np.ndarray, resamples: int, rng: np.random.Generator) -> np.ndarray:
    n = len(values)
    out = np.empty(resamples)
    batch = max(1, 2_000_000 // max(n, 1))
    for i in range(0, resamples, batch):
        m = min(batch, resamples - i)
        out[i:i + m] = values[rng.integers(0, n, size=(m, n))].mean(axis=1)
    return out


def mean_ci(values: Sequence[float] | np.ndarray, level: float = 0.95, method: str = "normal",
            resamples: int = 2000, seed: int = 0) -> Interval:
    """CI for the mean of ``values``: ``"normal"`` (mean ± z·s/√n) or ``"bootstrap"`` (seeded percentile)."""
    x = np.asarray(values, dtype=float)
    n = len(x)
    if n < 2:
        raise ValueError("a confidence interval needs at least 2 values")
    z, m = _z(level), float(x.mean())
    if method == "normal":
        se = float(x.std(ddof=1)) / math.sqrt(n)
        return Interval(m, m - z * se, m + z * se, level, n, "normal")
    if method == "bootstrap":
        means = _boot_means(x, resamples, np.random.default_rng(seed))
        lo, hi = np.quantile(means, [(1 - level) / 2, (1 + level) / 2])
        return Interval(m, float(lo), float(hi), level, n, "bootstrap")
    raise ValueError("method must be 'normal' or 'bootstrap'")


def diff_ci(b: Sequence[float] | np.ndarray, a: Sequence[float] | np.ndarray, paired: bool = True,
            level: float = 0.95, method: str = "normal", resamples: int = 2000, seed: int = 0) -> Interval:
    """CI for mean(b) − mean(a): paired (game by game, same deals) or unpaired (Welch, as if independent)."""
    xb, xa = np.asarray(b, dtype=float), np.asarray(a, dtype=float)
    if paired:
        if len(xa) != len(xb):
            raise ValueError("paired samples must have the same length")
        got = mean_ci(xb - xa, level, method, resamples, seed)
        return Interval(got.estimate, got.low, got.high, level, got.n, f"paired {got.method}")
    if min(len(xa), len(xb)) < 2:
        raise ValueError("a confidence interval needs at least 2 values per sample")
    est = float(xb.mean() - xa.mean())
    if method == "normal":
        se = math.sqrt(xb.var(ddof=1) / len(xb) + xa.var(ddof=1) / len(xa))
        z = _z(level)
        return Interval(est, est - z * se, est + z * se, level, min(len(xa), len(xb)), "unpaired normal")
    if method == "bootstrap":
        rng = np.random.default_rng(seed)
        d = _boot_means(xb, resamples, rng) - _boot_means(xa, resamples, rng)
        lo, hi = np.quantile(d, [(1 - level) / 2, (1 + level) / 2])
        return Interval(est, float(lo), float(hi), level, min(len(xa), len(xb)), "unpaired bootstrap")
    raise ValueError("method must be 'normal' or 'bootstrap'")


# ---------------------------------------------------------------------------------------------
# results: a tidy table
# ---------------------------------------------------------------------------------------------
@dataclass
class Results:
    """Scores of a batch: ``scores[k, v, p]`` is seat p's score on deal k under variant v.

    ``rows()`` is the tidy table (one row per deal × variant × seat); ``to_csv``/``to_json`` write it.
    """

    game: str
    variants: tuple[str, ...]
    params: tuple[Any, ...]
    bots: tuple[str, ...]
    seed: int
    scores: np.ndarray
    requested: int
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    stopped: bool = False
    extras: list[list[list[dict[str, Any]]]] | None = field(default=None, repr=False)

    @property
    def games(self) -> int:
        """Deals played (fewer than ``requested`` when stopped early)."""
        return int(self.scores.shape[0])

    def _v(self, variant: str | int | None) -> int:
        if variant is None:
            if len(self.variants) > 1:
                raise ValueError(f"say which variant: one of {', '.join(self.variants)}")
            return 0
        if isinstance(variant, int):
            return variant
        return self.variants.index(variant)

    def values(self, variant: str | int | None = None, seat: int | None = None) -> np.ndarray:
        """One number per deal: that seat's score, or the mean over all seats (seat=None)."""
        s = self.scores[:, self._v(variant), :]
        return s[:, seat].astype(float) if seat is not None else s.mean(axis=1)

    def mean(self, variant: str | int | None = None, seat: int | None = None) -> float:
        """Mean score per deal."""
        return float(self.values(variant, seat).mean())

    def ci(self, variant: str | int | None = None, seat: int | None = None, level: float = 0.95,
           method: str = "normal", resamples: int = 2000, seed: int = 0) -> Interval:
        """Confidence interval for the mean score (deals are the independent units)."""
        return mean_ci(self.values(variant, seat), level, method, resamples, seed)

    def diff(self, b: str | int, a: str | int, seat: int | None = None) -> np.ndarray:
        """Per-deal paired differences, variant b minus variant a."""
        return self.values(b, seat) - self.values(a, seat)

    def diff_ci(self, b: str | int, a: str | int, seat: int | None = None, paired: bool = True,
                level: float = 0.95, method: str = "normal", resamples: int = 2000, seed: int = 0) -> Interval:
        """CI for mean(b) − mean(a); ``paired=False`` ignores the shared deals (for comparison)."""
        return diff_ci(self.values(b, seat), self.values(a, seat), paired, level, method, resamples, seed)

    def seat_diff_ci(self, b: int, a: int, variant: str | int | None = None, level: float = 0.95,
                     method: str = "normal") -> Interval:
        """CI for seat b's mean minus seat a's on the same deals (two bots side by side in one game:
        in a game where seats do not interact, such as Avenue, the fairest comparison of two bots)."""
        return diff_ci(self.values(variant, b), self.values(variant, a), True, level, method)

    def columns(self, names: Mapping[str, str] | None = None) -> list[str]:
        """Column names of the tidy table (renamed by ``names``, as in ``iter_rows``)."""
        if names:
            cols = [names.get(c, c) for c in ("deal", "variant", "seed", "seat", "bot", "score")]
        else:
            cols = ["variant", "deal", "seed", "seat", "bot", "score"]
        if self.extras:
            for per_variant in self.extras[:1]:
                for per_seat in per_variant:
                    for ex in per_seat:
                        cols += [c for c in ex if c not in cols]
        return cols

    def iter_rows(self, names: Mapping[str, str] | None = None) -> Iterator[dict[str, Any]]:
        """Rows one at a time (deal-major, then variant, then seat); ``names`` renames the first columns
        (``GAME_TABLE`` gives the CLI's table: game, variant, seed, player, bot, score, then breakdowns)."""
        order = ("deal", "variant", "seed", "seat", "bot", "score") if names else \
            ("variant", "deal", "seed", "seat", "bot", "score")
        keys = [(names or {}).get(c, c) for c in order]
        for k in range(self.games):
            s = game_seed(self.seed, k)
            for v, label in enumerate(self.variants):
                for p, bot in enumerate(self.bots):
                    base = {"variant": label, "deal": k, "seed": s, "seat": p, "bot": bot,
                            "score": int(self.scores[k, v, p])}
                    row: dict[str, Any] = {key: base[c] for key, c in zip(keys, order, strict=True)}
                    if self.extras is not None:
                        row.update(self.extras[k][v][p])
                    yield row

    def rows(self, names: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
        """The tidy table as a list of dicts (``pandas.DataFrame(results.rows())`` if you have pandas)."""
        return list(self.iter_rows(names))

    def meta(self) -> dict[str, Any]:
        """How the table was made: enough to make it again."""
        params = {}
        for label, p in zip(self.variants, self.params, strict=True):
            try:
                params[label] = _params_json(p)
            except TypeError:
                params[label] = repr(p)
        return {"game": self.game, "variants": list(self.variants), "params": params, "bots": list(self.bots),
                "seed": self.seed, "games": self.games, "requested": self.requested, "stopped": self.stopped,
                "seconds": round(self.seconds, 3)}

    def to_csv(self, path: str | Path | None = None, names: Mapping[str, str] | None = None) -> str:
        """The tidy table as CSV text (also written to ``path`` if given)."""
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=self.columns(names), lineterminator="\n", extrasaction="ignore")
        w.writeheader()
        for row in self.iter_rows(names):
            w.writerow(row)
        text = buf.getvalue()
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text

    def to_json(self, path: str | Path | None = None, meta: bool = False,
                names: Mapping[str, str] | None = None) -> str:
        """The tidy table as a JSON list of rows, or ``{"meta": ..., "rows": [...]}`` with ``meta=True``."""
        doc: Any = {"meta": self.meta(), "rows": self.rows(names)} if meta else self.rows(names)
        text = json.dumps(doc)
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text

    def summary(self, level: float = 0.95) -> list[dict[str, Any]]:
        """One line per variant: games, mean, stdev and the mean's CI."""
        out = []
        for v, label in enumerate(self.variants):
            x = self.values(v)
            row: dict[str, Any] = {"variant": label, "games": self.games,
                                   "mean": round(float(x.mean()), 3) if len(x) else None,
                                   "stdev": round(float(x.std(ddof=1)), 3) if len(x) > 1 else None}
            if len(x) > 1:
                ci = mean_ci(x, level)
                row.update(ci_low=round(ci.low, 3), ci_high=round(ci.high, 3))
            out.append(row)
        return out


@dataclass
class Comparison:
    """Variant b against variant a on the same deals: the paired difference and its CI."""

    results: Results
    a: str
    b: str
    seat: int | None = None
    level: float = 0.95
    method: str = "normal"

    @property
    def difference(self) -> Interval:
        """mean(b) − mean(a), paired deal by deal (common random numbers)."""
        return self.results.diff_ci(self.b, self.a, self.seat, True, self.level, self.method)

    @property
    def unpaired(self) -> Interval:
        """The same difference as if the games were independent (wider: what pairing saves)."""
        return self.results.diff_ci(self.b, self.a, self.seat, False, self.level, self.method)

    def correlation(self) -> float:
        """Correlation of a's and b's scores over the shared deals."""
        xa, xb = self.results.values(self.a, self.seat), self.results.values(self.b, self.seat)
        if xa.std() == 0 or xb.std() == 0:
            return float("nan")
        return float(np.corrcoef(xa, xb)[0, 1])

    def summary(self) -> dict[str, Any]:
        """One JSON-able line: both means, the paired difference and CI, the unpaired CI for contrast."""
        d, u = self.difference, self.unpaired
        return {"game": self.results.game, "a": self.a, "b": self.b, "games": self.results.games,
                "mean_a": round(self.results.mean(self.a, self.seat), 3),
                "mean_b": round(self.results.mean(self.b, self.seat), 3),
                "diff": round(d.estimate, 3), "ci_low": round(d.low, 3), "ci_high": round(d.high, 3),
                "unpaired_low": round(u.low, 3), "unpaired_high": round(u.high, 3),
                "correlation": round(self.correlation(), 3), "level": self.level}

    def __str__(self) -> str:
        return f"{self.b} − {self.a}: {self.difference} [unpaired ±{self.unpaired.half_width:.3f}]"


# ---------------------------------------------------------------------------------------------
# running batches
# ---------------------------------------------------------------------------------------------
def _stop_requested(stop: StopSignal | None) -> bool:
    if stop is None:
        return False
    is_set = getattr(stop, "is_set", None)
    return bool(is_set()) if is_set is not None else bool(stop())  # type: ignore[operator]


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


# Below this many games (deals × variants) a default run stays in this process: a pool costs more than it saves.
SMALL_RUN = 64


def _open(executor: Any, workers: int | None, games: int) -> tuple[Executor | None, bool, int]:
    """(executor or None for in-process, whether we must shut it down, parallel slots)."""
    if executor is None:
        if workers is None and games < SMALL_RUN:
            return None, False, 1
        w = min(workers if workers is not None else _cores(), games)
        if w <= 1:
            return None, False, 1
        return ProcessPoolExecutor(max_workers=w), True, w
    if isinstance(executor, Executor):
        slots = workers or getattr(executor, "_max_workers", None) or _cores()
        return executor, False, int(slots)
    if hasattr(executor, "get_executor") and hasattr(executor, "nthreads"):  # a dask.distributed Client
        slots = workers or sum(executor.nthreads().values()) or 1
        return executor.get_executor(pure=False), False, int(slots)
    raise TypeError("executor must be a concurrent.futures.Executor or a dask.distributed Client")


def run_chunks(work: Callable[[Any], Any], jobs: Callable[[int], Iterable[Any]], games: int, *,
               executor: Any = None, workers: int | None = None, stop: StopSignal | None = None,
               on_chunk: Callable[[Any], None] | None = None) -> bool:
    """Run ``work(job)`` for every job of ``jobs(slots)``, here or in parallel; True when stopped early.

    The one worker pool of every batch here (``play_variants``, the skill share): ``executor`` None (a local
    process pool of ``workers``, default all cores; this process for ``workers=1`` or under 64 games), any
    ``concurrent.futures.Executor``, or a ``dask.distributed.Client``. ``jobs(slots)`` is told how many
    run at once (to size its chunks); ``work`` must be a picklable module-level function. ``on_chunk`` gets
    each result as it finishes (in any order); ``stop`` is checked between chunks.
    """
    ex, owned, slots = _open(executor, workers, games)
    todo = iter(jobs(slots))
    stopped = False
    try:
        if ex is None:
            for job in todo:
                if _stop_requested(stop):
                    stopped = True
                    break
                got = work(job)
                if on_chunk is not None:
                    on_chunk(got)
        else:
            pending: set[Future[Any]] = set()
            window = max(2, 2 * slots)
            more = True
            try:
                while True:
                    while more and not stopped and len(pending) < window:
                        nxt = next(todo, None)
                        if nxt is None:
                            more = False
                            break
                        pending.add(ex.submit(work, nxt))
                    if not pending:
                        break
                    finished, pending = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
                    for f in finished:
                        if not f.cancelled() and on_chunk is not None:
                            on_chunk(f.result())
                    if not stopped and _stop_requested(stop):
                        stopped = True
                        for f in pending:
                            f.cancel()
            except BaseException:
                for f in pending:
                    f.cancel()
                raise
    finally:
        if owned and ex is not None:
            ex.shutdown(wait=True, cancel_futures=True)
    return stopped


def run_in_order(work: Callable[[Any], Any], jobs: Callable[[int], Iterable[Any]], n: int, variants: int, *,
                 executor: Any = None, workers: int | None = None, stop: StopSignal | None = None,
                 on_prefix: Callable[[list[Any]], None] | None = None,
                 desc: str | None = None) -> tuple[list[Any], bool]:
    """``run_chunks`` over ``n`` deals cut into chunks, the chunks put back in deal order: (prefix, stopped).

    Each chunk has ``start`` (its first deal) and ``scores`` (a row per deal). ``on_prefix(prefix)`` is called
    whenever more leading deals are done; ``desc`` shows a progress bar with that title. ``stopped`` is True
    only when the stop left deals unplayed.
    """
    done: dict[int, Any] = {}
    prefix: list[Any] = []
    end = 0  # deals 0..end-1 are done
    bar = progress_bar(total=n, unit="deal", desc=desc) if desc is not None and n else None

    def collect(chunk: Any) -> None:
        nonlocal end
        done[chunk.start] = chunk
        if bar is not None:
            bar.update(chunk.scores.shape[0])
        grew = False
        while end in done:
            c = done.pop(end)
            prefix.append(c)
            end += c.scores.shape[0]
            grew = True
        if grew and on_prefix is not None:
            on_prefix(prefix)

    try:
        stopped = run_chunks(work, jobs, n * variants, executor=executor, workers=workers, stop=stop,
                             on_chunk=collect)
    finally:
        if bar is not None:
            bar.close()
    return prefix, stopped and end < n


def _assemble(base: dict[str, Any], chunks: list[_Chunk], with_extras: bool, stopped: bool,
              seconds: float) -> Results:
    v, s = len(base["params"]), len(base["bots"])
    scores = np.concatenate([c.scores for c in chunks]) if chunks else np.zeros((0, v, s), dtype=np.int64)
    extras = [e for c in chunks for e in (c.extras or [])] if with_extras else None
    return Results(scores=scores, extras=extras, stopped=stopped, seconds=seconds,
                   cpu_seconds=sum(c.seconds for c in chunks), **base)


def play_variants(game: str, variants: Mapping[str, Any] | Sequence[Any], n: int, *, seed: int = 0,
                  bots: BotSpec | Sequence[BotSpec] = "greedy", players: int | None = None,
                  executor: Any = None, workers: int | None = None, chunk_size: int | None = None,
                  progress: bool = True, stop: StopSignal | None = None,
                  on_chunk: Callable[[Results], None] | None = None, measure: Measure | None = None) -> Results:
    """Play ``n`` seeded deals under each variant (common random numbers), optionally in parallel.

    ``variants``: {label: variant} or a list of variants (preset names, JSON dicts or params objects).
    ``bots``: one bot for every seat (with ``players``), or one per seat. ``executor``: None (a local
    process pool of ``workers``, default all cores; this process for ``workers=1`` or under 64 games),
    any ``concurrent.futures.Executor``, or a ``dask.distributed.Client``. Deals are chunked by index
    and reassembled in order, so the table is identical whatever runs it. ``stop`` (an Event or a function)
    is checked between chunks; the result then holds the first deals only, ``stopped=True``.
    ``on_chunk(partial)`` is called whenever more leading deals are done (live dashboards).
    ``progress`` shows a tqdm bar once a run has taken more than a second.
    """
    spec = get_game(game)
    if isinstance(variants, Mapping):
        labels = list(variants)
        resolved = [resolve_variant(spec.name, v)[1] for v in variants.values()]
    else:
        pairs = [resolve_variant(spec.name, v) for v in variants]
        labels = [lab for lab, _ in pairs]
        resolved = [p for _, p in pairs]
        if len(set(labels)) < len(labels):
            labels = [f"{lab}#{i}" if labels.count(lab) > 1 else lab for i, lab in enumerate(labels)]
    if not resolved:
        raise ValueError("give at least one variant")
    seat_bots: list[BotSpec]
    if _is_one_bot(bots):
        seat_bots = [bots] * (players if players is not None else 1)  # type: ignore[list-item]
    else:
        seat_bots = list(bots)  # type: ignore[arg-type]
        if players is not None and players != len(seat_bots):
            raise ValueError(f"{len(seat_bots)} bots given for {players} players")
    if not spec.min_players <= len(seat_bots) <= spec.max_players:
        raise ValueError(f"{spec.title} takes {spec.min_players} to {spec.max_players} players")
    _check_bots(spec, seat_bots)
    if n < 0:
        raise ValueError("n must be ≥ 0")
    base = {"game": spec.name, "variants": tuple(labels), "params": tuple(resolved),
            "bots": tuple(_bot_label(b) for b in seat_bots), "seed": seed, "requested": n}

    t0 = time.perf_counter()

    def jobs(slots: int) -> Iterator[_Job]:
        size = chunk_size or max(1, min(64, math.ceil(n / (slots * 8))))
        for k in range(0, n, size):
            yield _Job(spec.name, tuple(resolved), tuple(seat_bots), seed, k, min(n, k + size), measure)

    def partial(prefix: list[_Chunk]) -> None:
        if on_chunk is not None:
            on_chunk(_assemble(base, prefix, measure is not None, False, time.perf_counter() - t0))

    prefix, stopped = run_in_order(_run_chunk, jobs, n, len(resolved), executor=executor, workers=workers,
                                   stop=stop, on_prefix=partial,
                                   desc=f"{spec.title} × {len(resolved)} variant(s)" if progress else None)
    return _assemble(base, prefix, measure is not None, stopped, time.perf_counter() - t0)


def play_games(game: str, n: int, *, variant: Any = None, seed: int = 0,
               bots: BotSpec | Sequence[BotSpec] = "greedy", players: int | None = None, executor: Any = None,
               workers: int | None = None, chunk_size: int | None = None, progress: bool = True,
               stop: StopSignal | None = None, on_chunk: Callable[[Results], None] | None = None,
               measure: Measure | None = None) -> Results:
    """Play ``n`` seeded games of one variant; see ``play_variants`` for every option."""
    label, params = resolve_variant(game, variant)
    return play_variants(game, {label: params}, n, seed=seed, bots=bots, players=players, executor=executor,
                         workers=workers, chunk_size=chunk_size, progress=progress, stop=stop,
                         on_chunk=on_chunk, measure=measure)


def compare_variants(game: str, a: Any, b: Any, n: int, *, seed: int = 0,
                     bots: BotSpec | Sequence[BotSpec] = "greedy", players: int | None = None,
                     seat: int | None = None, level: float = 0.95, method: str = "normal",
                     executor: Any = None, workers: int | None = None, chunk_size: int | None = None,
                     progress: bool = True, stop: StopSignal | None = None,
                     on_chunk: Callable[[Results], None] | None = None) -> Comparison:
    """Variant b against variant a on the same ``n`` deals: paired difference of mean scores with its CI."""
    la, pa = resolve_variant(game, a)
    lb, pb = resolve_variant(game, b)
    if la == lb:
        la, lb = f"a:{la}", f"b:{lb}"
    res = play_variants(game, {la: pa, lb: pb}, n, seed=seed, bots=bots, players=players, executor=executor,
                        workers=workers, chunk_size=chunk_size, progress=progress, stop=stop, on_chunk=on_chunk)
    return Comparison(res, la, lb, seat, level, method)
