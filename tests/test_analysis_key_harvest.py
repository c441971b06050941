"""Key Harvest analysis: a tile's worth to a player is exactly what their score would gain with it."""

from __future__ import annotations

from key_harvest_util import table

from sheetkit.analysis.key_harvest import best_split, group_rows, split_curve, tile_table, tile_worth


def test_a_tiles_worth_is_the_score_it_would_add_now():
    s = table(p0=["A1", "A2", "A3", "C5", "C6"], p1=["G1", "G2"])
    for code in [*s.registry, "A4", "B6", "C7", "E1"]:
        for p in (0, 1):
            before = s.total(p)
            tiles = s.tiles_of(p)
            if code in tiles:
                continue
            s.set_board(p, up=[*tiles, code])
            gained = s.total(p) - before
            s.set_board(p, up=tiles)
            assert tile_worth(s, p, code) == gained, (code, p)


def test_growing_the_second_group_beats_growing_the_largest_and_merging_them_can_cost_points():
    s = table(p0=["A1", "A2", "A3", "A6"])        # largest 3, second 1: 3 + 2·1 = 5
    assert tile_worth(s, 0, "A4") == 1             # largest 4: 4 + 2 = 6
    assert tile_worth(s, 0, "A7") == 2             # second 2: 3 + 4 = 7
    s = table(p0=["A1", "A2", "A4", "A5"])        # two groups of 2: 2 + 4 = 6
    assert tile_worth(s, 0, "A3") == -1            # one group of 5: 5 + 0


def test_group_rows_count_tiles_that_score_nothing_and_the_best_split():
    s = table(p0=["A1", "A2", "A3", "C5", "E1"])
    row = group_rows(s)[0]
    assert (row.tiles, row.largest, row.second, row.wasted) == (5, 3, 1, 1)
    assert row.points == 3 + 2 * 1
    assert row.best == best_split(5, 1, 2) == 3 * 1 + 2 * 2
    assert split_curve(4, 1, 2) == [(0, 4), (1, 5), (2, 6)]


def test_the_tile_table_lists_the_registry_then_the_stores():
    s = table()
    rows = tile_table(s)
    assert [r.code for r in rows] == list(s.registry)
    assert all(r.where == "registry" and r.price is None and len(r.worth) == s.num_players for r in rows)
