"""Key Harvest's scores (docs/key_harvest.md §Scoring): groups, workers, counters, placings.

``Scoring`` is a part of ``KeyHarvestState`` (mixed in).
"""

from __future__ import annotations

from typing import Any

from sheetkit.games.key_harvest import board as B
from sheetkit.games.key_harvest.crops import COUNTERS_PER_CROP
from sheetkit.games.key_harvest.phases import OVER
from sheetkit.games.key_harvest.workers import WORKERS


class Scoring:
    """A player's score in full and in total, the placings, the bounds of a score."""

    def owned_counters(self, player: int) -> int:
        """Counters ``player`` owns: behind the screen plus their bids lying in their store."""
        return sum(self.counters[player]) + sum(sum(b) for _, b, _ in self.stores[player])

    def breakdown(self, player: int) -> dict[str, Any]:
        """The score in full: the two largest groups, the workers, the counters, the total and the placing."""
        prm = self.params
        largest, second = B.two_largest(self._tiles[player])
        group_points = largest * prm.largest_mult + second * prm.second_mult
        workers = sum(WORKERS[w].value for w in self.workers_on[player].values())
        owned = self.owned_counters(player)
        cp = owned // prm.counters_per_point
        return {
            "player": self.players[player], "largest": largest, "second": second, "group_points": group_points,
            "workers": workers, "counters": owned, "counter_points": cp, "total": group_points + workers + cp,
            "tiles": self._tiles[player].bit_count(), "placing": self.placings()[player], "final": self.phase == OVER,
        }

    def total(self, player: int) -> int:
        """``player``'s score as it stands."""
        prm = self.params
        largest, second = B.two_largest(self._tiles[player])
        workers = sum(WORKERS[w].value for w in self.workers_on[player].values())
        return (largest * prm.largest_mult + second * prm.second_mult + workers
                + self.owned_counters(player) // prm.counters_per_point)

    def scores(self) -> list[int]:
        return [self.total(p) for p in range(self.num_players)]

    def placings(self) -> list[int]:
        """1-based placing per player: by score, then by counters owned; still equal, they share it."""
        keys = [(self.total(p), self.owned_counters(p)) for p in range(self.num_players)]
        return [1 + sum(1 for k in keys if k > keys[p]) for p in range(self.num_players)]

    def score_bounds(self) -> tuple[int, int]:
        prm = self.params
        n = len(B.CODES)
        groups = max(a * prm.largest_mult + min(a, n - a) * prm.second_mult for a in range(n + 1))
        workers = sum(w.value for w in WORKERS.values())
        return (0, groups + workers + 5 * COUNTERS_PER_CROP // prm.counters_per_point)

    def _public_score(self, player: int) -> int:
        """What the others can see of a score: groups and workers (counters are secret)."""
        prm = self.params
        largest, second = B.two_largest(self._tiles[player])
        return largest * prm.largest_mult + second * prm.second_mult + sum(
            WORKERS[w].value for w in self.workers_on[player].values())
