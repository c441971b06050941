"""Seeded batches of bot games for any registered game, with summary statistics."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sheetkit.core.chance import derive_seed
from sheetkit.core.play import play_out
from sheetkit.core.registry import get_game


def progress_bar(**kwargs: Any) -> Any:
    """A tqdm bar that shows after a second: a widget in notebooks (kept when done), text on terminals.

    A finished notebook bar is kept on purpose: a closed bar widget would show "Error displaying
    widget: model not found" in a Voila page, which runs the notebook before the browser connects.
    A terminal bar is erased when done, so the summary lines that follow stand alone.
    """
    from tqdm.auto import tqdm
    from tqdm.std import tqdm as text_tqdm

    kwargs.setdefault("delay", 1.0)
    return tqdm(leave=tqdm is not text_tqdm, **kwargs)


@dataclass
class SimResult:
    """Scores of a batch of games: ``scores[g][p]`` is player p's final score in game g."""

    game: str
    bot: str
    seed: int
    players: int
    scores: np.ndarray
    seconds: float
    extra: dict[str, Any] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        """One JSON-able line: game, bot, games, mean, stdev, min, max, seconds."""
        return summarize(self)


def game_seed(seed: int, k: int) -> int:
    """The seed of game k in a batch (independent of how the batch is split)."""
    return derive_seed(seed, k)


def run_games(game: str, bot: str, n: int, seed: int = 0, players: int = 1, params: Any = None,
              progress: bool = False, bot_options: dict[str, Any] | None = None) -> SimResult:
    """Play ``n`` seeded games with every seat taken by ``bot``; the fast path, no records kept."""
    spec = get_game(game)
    if bot not in spec.bots:
        raise KeyError(f"unknown bot {bot!r} for {spec.title}; choose from {', '.join(spec.bots)}")
    params = params if params is not None else spec.default_params()
    make_bot = spec.bots[bot]
    scores = np.zeros((n, players), dtype=np.int64)
    bar = None
    if progress:
        bar = progress_bar(total=n, unit="game", desc=f"{spec.title} · {bot}")
    t0 = time.perf_counter()
    for k in range(n):
        s = game_seed(seed, k)
        state = spec.new_state(params, [f"{bot} {p + 1}" for p in range(players)], seed=s)
        bots = [make_bot(seed=derive_seed(s, "bot", p), **(bot_options or {})) for p in range(players)]
        play_out(state, bots, fast=True)
        scores[k] = state.scores()
        if bar is not None:
            bar.update(1)
    seconds = time.perf_counter() - t0
    if bar is not None:
        bar.close()
    return SimResult(spec.name, bot, seed, players, scores, seconds)


def summarize(result: SimResult) -> dict[str, Any]:
    """Mean, spread and range of every seat's scores pooled together."""
    flat = [int(x) for x in result.scores.ravel()]
    return {
        "game": result.game,
        "bot": result.bot,
        "games": int(result.scores.shape[0]),
        "players": result.players,
        "seed": result.seed,
        "mean": round(statistics.fmean(flat), 3) if flat else None,
        "stdev": round(statistics.stdev(flat), 3) if len(flat) > 1 else 0.0,
        "min": min(flat) if flat else None,
        "max": max(flat) if flat else None,
        "seconds": round(result.seconds, 3),
    }
