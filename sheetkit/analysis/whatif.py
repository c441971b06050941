"""A what-if run for dashboards: old rules against new on the same deals, in the background, stoppable,
reporting as batches of games finish.

``WhatIfRun(...).start()`` plays ``play_variants`` on a thread (so a notebook stays responsive), calls
``on_update(results)`` whenever more leading deals are done and ``on_done(results, error)`` at the end;
``stop()`` ends it between batches (the result then holds the first deals only, ``stopped=True``).
``whatif_table(results)`` is the summary a dashboard shows: each rule set's mean with its CI, and the
paired difference (common random numbers) beside the unpaired one. ``guide(game)`` is what the page says
around it — the game's first question, how to read the answer, questions to try — every game-specific word
from the game's own ``WhatIfSpec``.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from sheetkit.analysis.background import BackgroundRun
from sheetkit.analysis.knobs import example, simulate_command, whatif_spec
from sheetkit.analysis.montecarlo import BotSpec, Results, mean_ci, play_variants
from sheetkit.analysis.skill import ROLES, SkillComparison, compare_skill
from sheetkit.core.knobs import Try

__all__ = ["NEW", "OLD", "Guide", "SkillRun", "WhatIfRun", "chunk_for", "guide", "process_pool", "seconds_per_game",
           "shutdown_pools", "skill_table", "whatif_table"]

OLD, NEW = "old rules", "new rules"

# Rough seconds per game and seat on one core (benchmarks/engine_bench.py, docs/performance.md);
# used only to size batches so a dashboard updates about 4 times a second and Stop answers quickly.
_COST: dict[tuple[str, str], float] = {
    ("avenue", "random"): 0.0008, ("avenue", "greedy"): 0.0016, ("avenue", "montecarlo"): 0.7,
    ("kingdom-maps", "random"): 0.0015, ("kingdom-maps", "greedy"): 0.0045,
    ("key-harvest", "random"): 0.012, ("key-harvest", "greedy"): 0.005,
}


def seconds_per_game(game: str, bots: Sequence[str]) -> float:
    """A rough cost of one game with these bots (one per seat), for sizing batches and warning of long runs."""
    return sum(_COST.get((game, b), 0.01) for b in bots)


def chunk_for(game: str, bots: Sequence[str], variants: int, n: int, target: float = 0.25) -> int:
    """Deals per batch: about ``target`` seconds of work, and at least ~20 updates over the run."""
    per_deal = max(seconds_per_game(game, bots) * variants, 1e-6)
    return max(1, min(64, int(target / per_deal), math.ceil(n / 20)))


_POOLS: dict[int, ProcessPoolExecutor] = {}
_POOL_LOCK = threading.Lock()


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A process pool kept for the whole session (started once, reused by every run).

    It uses the ``forkserver`` start method: forking a kernel that runs threads (a dashboard's run, the
    widget comms) is unsafe, and a fresh server process is not.
    """
    import multiprocessing as mp

    with _POOL_LOCK:
        pool = _POOLS.get(workers)
        if pool is None:
            ctx = mp.get_context("forkserver")
            ctx.set_forkserver_preload(["sheetkit.analysis.montecarlo", "sheetkit.games"])
            pool = _POOLS[workers] = ProcessPoolExecutor(max_workers=workers, mp_context=ctx)
        return pool


def shutdown_pools() -> None:
    """Stop the session's pools (tests; a kernel does it at exit anyway)."""
    with _POOL_LOCK:
        for pool in _POOLS.values():
            pool.shutdown(wait=True, cancel_futures=True)
        _POOLS.clear()


class WhatIfRun(BackgroundRun[Results]):
    """Old rules against new on ``n`` shared deals, on a background thread (``results`` as they come)."""

    thread_name = "sheetkit-whatif"

    def __init__(self, game: str, old: Any, new: Any, n: int, *, seed: int = 0,
                 bots: BotSpec | Sequence[BotSpec] = "greedy", players: int | None = None, workers: int = 1,
                 executor: Executor | Any = None, chunk_size: int | None = None,
                 on_update: Callable[[Results], None] | None = None,
                 on_done: Callable[[Results | None, BaseException | None], None] | None = None,
                 labels: tuple[str, str] = (OLD, NEW)) -> None:
        super().__init__(on_update, on_done)
        self.game, self.n, self.seed = game, n, seed
        self.variants: Mapping[str, Any] = {labels[0]: old, labels[1]: new}
        self.labels = labels
        self.bots, self.players, self.workers = bots, players, workers
        self.executor = executor
        names = [bots] * (players or 1) if isinstance(bots, str) else [b if isinstance(b, str) else "?" for b in bots]
        self.chunk_size = chunk_size or chunk_for(game, names, 2, n)

    @property
    def results(self) -> Results | None:
        """The results so far (None before the first batch)."""
        return self.outcome

    def _play(self) -> Results:
        executor = self.executor
        if executor is None and self.workers > 1:
            executor = process_pool(self.workers)
        return play_variants(self.game, self.variants, self.n, seed=self.seed, bots=self.bots,
                             players=self.players, executor=executor,
                             workers=self.workers if executor is not None else 1,
                             chunk_size=self.chunk_size, progress=False, stop=self._stop,
                             on_chunk=self._partial)


def whatif_table(res: Results, seat: int | None = None, level: float = 0.95,
                 labels: tuple[str, str] = (OLD, NEW)) -> dict[str, Any]:
    """The summary of old against new: per rule set games, mean, sd and CI; the paired difference and its CI;
    the unpaired CI (as if the games were independent); the correlation; and whether the difference shows."""
    a, b = labels
    n = res.games
    out: dict[str, Any] = {"games": n, "requested": res.requested, "stopped": res.stopped, "level": level,
                           "seconds": res.seconds, "seat": seat, "rows": []}
    for label in labels:
        x = res.values(label, seat)
        row: dict[str, Any] = {"rules": label, "games": n, "mean": float(x.mean()) if n else None,
                               "sd": float(x.std(ddof=1)) if n > 1 else None, "low": None, "high": None}
        if n > 1:
            ci = mean_ci(x, level)
            row.update(low=ci.low, high=ci.high)
        out["rows"].append(row)
    if n > 1:
        d = res.diff_ci(b, a, seat, True, level)
        u = res.diff_ci(b, a, seat, False, level)
        xa, xb = res.values(a, seat), res.values(b, seat)
        corr = float("nan")
        if xa.std() > 0 and xb.std() > 0:
            import numpy as np

            corr = float(np.corrcoef(xa, xb)[0, 1])
        out.update(diff=d.estimate, diff_low=d.low, diff_high=d.high, unpaired_low=u.low, unpaired_high=u.high,
                   correlation=corr, shows=d.excludes_zero())
    return out


class SkillRun(BackgroundRun[SkillComparison]):
    """The skill share of the old and the new rules on the same deals (``skill.compare_skill``), on a thread.

    ``dask`` is a scheduler address: the deals are then played on that cluster instead of this machine.
    ``on_update(comparison)`` is called as leading deals finish; ``on_done(comparison, error)`` at the end.
    """

    thread_name = "sheetkit-skill"

    def __init__(self, game: str, old: Any, new: Any, n: int, *, seed: int = 0, players: int | None = None,
                 workers: int = 1, dask: str | None = None, budget: float = 1.0,
                 on_update: Callable[[SkillComparison], None] | None = None,
                 on_done: Callable[[SkillComparison | None, BaseException | None], None] | None = None,
                 labels: tuple[str, str] = (OLD, NEW)) -> None:
        super().__init__(on_update, on_done)
        self.game, self.old, self.new, self.n, self.seed = game, old, new, n, seed
        self.players, self.workers, self.dask, self.budget, self.labels = players, workers, dask, budget, labels

    @property
    def result(self) -> SkillComparison | None:
        """The comparison so far (None before the first deals finish)."""
        return self.outcome

    def _play(self) -> SkillComparison:
        executor = process_pool(self.workers) if self.workers > 1 and not self.dask else None
        return compare_skill(self.game, self.old, self.new, self.n, seed=self.seed, players=self.players,
                             budget=self.budget, expert_budget=self.budget, executor=executor,
                             workers=self.workers if executor is not None else 1, dask=self.dask,
                             chunk_size=1, progress=False, stop=self._stop, on_chunk=self._partial,
                             labels=self.labels)


def skill_table(c: SkillComparison, level: float = 0.95) -> dict[str, Any]:
    """Each rule set's three means, learning and luck effects and skill share (with its interval), and
    the paired difference of the shares (new − old) with its interval."""
    out: dict[str, Any] = {"deals": c.old.deals, "requested": c.old.requested, "stopped": c.old.stopped,
                           "level": level, "rows": [], "lineup": c.old.lineup.to_json(),
                           "stand_in": c.old.lineup.standin}
    if not c.old.deals:
        return out
    for s in (c.old, c.new):
        share = s.share
        row: dict[str, Any] = {"rules": s.variant, **{r: float(s.mean(r)) for r in ROLES},
                               "learning": float(s.learning), "luck": float(s.luck),
                               "share": None if share is None else float(share),
                               "share_exact": None if share is None else str(share), "low": None, "high": None}
        if s.deals > 1:
            b = s.bootstrap(level)
            row.update(low=b.share.low, high=b.share.high)
        out["rows"].append(row)
    if c.old.deals > 1:
        d = c.difference(level)
        out.update(diff=d.estimate, diff_low=d.low, diff_high=d.high,
                   shows=not (math.isnan(d.low) or d.contains(0.0)))
    return out


# ----- what the page says around the numbers ----------------------------------------------------------
@dataclass(frozen=True)
class Guide:
    """The explorer page's words for one game (plain text; ``**bold**``, ``*italic*``, ```code``` marked)."""

    question: str              # 'what if a 0 box cost 3 points instead of 5?'
    deals: int                 # the deals the first question is asked on
    reading: tuple[str, ...]   # 'Reading the answer', one bullet each
    tries: tuple[Try, ...]     # questions to try, with their answers
    command: str               # the first question from a terminal


def guide(game: str) -> Guide:
    """What the explorer says of ``game``: its first question, how to read the answer, questions to try.

    The frame (common random numbers, when a difference shows, how the CI narrows) holds for every game;
    what a deal shares, how the game's changes pair up and the questions are the game's own words.
    """
    spec = whatif_spec(game)
    if spec is None:
        raise KeyError(f"{game!r} has no what-if knobs")
    _, deals = example(game)
    reading = (
        f"**Common random numbers.** Deal *k* is dealt from the same seed under both rule sets — "
        f"{spec.same_deal} — and the bots get the same seeds too. A deal that is hard under the old rules is "
        "hard under the new ones, so the difference is measured deal by deal. Its confidence interval is far "
        "narrower than comparing two independent batches (the table's last row): the variance of a "
        "difference is var(old) + var(new) − 2·cov(old, new), and the covariance is large when the deals "
        "stay alike.",
        "**The difference shows** when its 95% CI excludes 0.",
        *spec.pairing,
    )
    tries = (*spec.tries, Try(
        "Run 50 deals, then 1,000, of the same change. How does the CI's width change?",
        "It shrinks like 1/√n: 20 times the deals gives an interval about 4.5 times narrower."))
    return Guide(spec.question, deals, reading, tries, simulate_command(game))
