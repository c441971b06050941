"""Analysis on top of the engine: simulations now; exact probability and what-ifs to come."""

from sheetkit.analysis.simulate import SimResult, run_games, summarize

__all__ = ["SimResult", "run_games", "summarize"]
