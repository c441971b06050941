"""A scripted Key Harvest game on a fixed seed, with its final scores worked out by hand.

Seed 25, 2 players, rules with ``end_event=1, final_turns=1`` (the first event starts the end and
each player then takes one more turn) so the whole game fits on a page. The deal (from the seed):
player 0 owns F3 (wine) and G1 (hops) with 2 wine + 1 hops; player 1 owns C3 (wheat) and E2 (wine)
with 2 hops + 1 vegetables; the registry is E8 F2 B4 A6 C8 B3; player 0 starts; the bag begins
with the Tithe event, then A2.
"""

from __future__ import annotations

from sheetkit.core.records import replay
from sheetkit.games.key_harvest import Bid, Buy, Choose, EndTurn, Harvest, KeyHarvestParams, PlaceWorker, new_game

PARAMS = KeyHarvestParams(end_event=1, final_turns=1)


def test_scripted_two_player_game():
    """docs/key_harvest.md §Setup, §A turn, §Worker actions, §Events, §Game end, §Scoring — a whole game, step by
    step."""
    s = new_game(["Ann", "Ben"], seed=25, params=PARAMS)
    assert s.apply_chance() == {"chance": "setup", "pairs": [["F3", "G1"], ["C3", "E2"]],
                                "counters": [[2, 1, 0, 0, 0], [0, 2, 0, 1, 0]],
                                "registry": ["E8", "F2", "B4", "A6", "C8", "B3"], "start": 0}
    assert s.counters == [(2, 1, 0, 0, 0), (0, 2, 0, 1, 0)]

    # Turn 1, Ann: bid 1 wine for F2 (it would join F3 and G1), then harvest F3 (+1 wine).
    s.apply(0, Bid("F2", (1, 0, 0, 0, 0)))
    s.apply(0, Harvest("F3"))
    assert s.counters[0] == (2, 1, 0, 0, 0) and s.boards[0] == {"F3": "harvested", "G1": "up"}
    s.apply(0, EndTurn())
    # Refill: the Tithe (1st event: the end begins; each gives 1 of their most-held crop), then A2.
    assert s.apply_chance() == {"chance": "draw", "event": "tithe"}
    assert s.final_turns_left == 2
    assert s.counters == [(1, 1, 0, 0, 0), (0, 1, 0, 1, 0)]
    assert s.apply_chance() == {"chance": "draw", "tile": "A2"}
    assert s.active == 1 and s.registry == ["E8", "B4", "A6", "C8", "B3", "A2"]

    # Turn 2, Ben: the Gleaner on D2 (touches C3 and E2) takes a wine; he pays it for Ann's F2.
    s.apply(1, PlaceWorker("h1a", "D2"))
    s.apply(1, Choose("wine"))
    s.apply(1, Buy("F2"))
    assert s.counters == [(3, 1, 0, 0, 0), (0, 1, 0, 1, 0)]  # Ann keeps her bid and gets Ben's wine
    assert s.tiles_of(1) == ["C3", "E2", "F2"]
    s.apply(1, EndTurn())  # the registry is full: no draw; Ann's last turn
    assert s.active == 0 and s.final_turns_left == 1

    # Turn 3, Ann: harvest G1 (+1 hops), then the Waterer on F2 turns F3 and G1 back up.
    s.apply(0, Harvest("G1"))
    s.apply(0, PlaceWorker("h2a", "F2"))
    assert s.boards[0] == {"F3": "up", "G1": "up"} and s.counters[0] == (3, 2, 0, 0, 0)
    s.apply(0, EndTurn())
    assert s.phase == "end" and s.apply_chance() == {"chance": "end"} and s.is_terminal()

    # By hand: Ann — groups {F3} {G1}: 1×1 + 1×2 = 3; Waterer 2; 5 counters → 1 point: 6.
    #          Ben — groups {E2, F2} {C3}: 2×1 + 1×2 = 4; Gleaner 1; 2 counters → 0 points: 5.
    assert s.breakdown(0) == {"player": "Ann", "largest": 1, "second": 1, "group_points": 3, "workers": 2,
                              "counters": 5, "counter_points": 1, "total": 6, "tiles": 2, "placing": 1,
                              "final": True}
    assert s.breakdown(1) == {"player": "Ben", "largest": 2, "second": 1, "group_points": 4, "workers": 1,
                              "counters": 2, "counter_points": 0, "total": 5, "tiles": 3, "placing": 2,
                              "final": True}
    assert s.scores() == [6, 5] and s.placings() == [1, 2]
    assert replay(s.to_record()).fingerprint() == s.fingerprint()
