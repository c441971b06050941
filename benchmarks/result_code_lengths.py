"""Result-code lengths for class play: N seeded games per table size, a bot in seat 0 as the student.

    .venv/bin/python benchmarks/result_code_lengths.py [game] [N]     # default key-harvest 20

The student and the table's bots are seeded as a class table seeds them; every code is decoded again
and must give the same game. Prints, per row, the characters of the moves part (no dashes) and of
the whole code (median, min–max), seat 0's moves per game and how many of its bids held several
counters.
"""

from __future__ import annotations

import statistics
import sys
import time

from sheetkit.analysis.results import play_as_table, read_result_code, result_code
from sheetkit.core.registry import get_game


def play(game: str, seed: int, student: str, bots: tuple[str, ...], student_seed: int) -> object:
    """A finished game: ``student`` (a bot kind) in seat 0, the table's seeded bots beside it."""
    return play_as_table(game, seed, student, bots, student_seed)


def main(game: str = "key-harvest", n: int = 20) -> None:
    spec = get_game(game)
    sizes = [p for p in (3, 2, 4) if spec.min_players <= p <= spec.max_players] or [spec.min_players]
    rows = [(p, "greedy") for p in sizes] + [(sizes[0], "random")]
    for players, student in rows:
        bots = ("greedy",) * (players - 1)
        moves, whole, decisions, multi = [], [], [], 0
        t0 = time.perf_counter()
        for i in range(n):
            state = play(game, 1000 + i, student, bots, student_seed=i)
            code = result_code(state, bots)
            assert read_result_code(code).state.fingerprint() == state.fingerprint()
            moves.append(len(code.split(".")[2].replace("-", "")))
            whole.append(len(code))
            mine = [e["action"] for e in state.log if e.get("player") == 0]
            decisions.append(len(mine))
            multi += sum(1 for a in mine if a.get("type") == "bid" and sum(a["counters"]) > 1)
        ms = (time.perf_counter() - t0) / n * 1000
        print(f"{players} players, student {student:6s}: moves {statistics.median(moves):.0f} chars "
              f"({min(moves)}–{max(moves)}), whole code {statistics.median(whole):.0f} ({min(whole)}–{max(whole)}); "
              f"seat-0 moves {statistics.median(decisions):.0f}/game, {multi} multi-counter bids; "
              f"{ms:.0f} ms/game to play, encode and decode")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "key-harvest", int(sys.argv[2]) if len(sys.argv) > 2 else 20)
