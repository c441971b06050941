"""The compact town board: every click target lies inside the canvas, apart from the others, and a click on
it names it (registry tiles, both slots of every store for 2–4 players, the six townsfolk)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from sheetkit.widgets.key_harvest import town as T

from sheetkit.games.key_harvest.workers import TOWNSFOLK

FULL_BID = (1, 1, 1, 1, 1)      # every crop bid: the most chips a store slot shows


def full_town(players: int) -> SimpleNamespace:
    codes = iter(f"{r}{c}" for r in "ABCDEFG" for c in range(1, 10))
    return SimpleNamespace(registry=[next(codes) for _ in range(6)], num_players=players, active=0,
                           stores=[[(next(codes), FULL_BID), (next(codes), FULL_BID)] for _ in range(players)],
                           townsfolk_in_town=[w.id for w in TOWNSFOLK])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_town_target_is_inside_the_canvas_and_a_click_on_it_names_it(players: int) -> None:
    st = full_town(players)
    hits = [("registry", c) for c in st.registry]
    hits += [("store", str(p), c) for p in range(players) for c, _ in st.stores[p]]
    hits += [("townsfolk", w) for w in st.townsfolk_in_town]
    height = T.town_height(players)
    points = []
    for hit in hits:
        x, y = T.TownBoard.point_of(None, st, hit)  # type: ignore[arg-type]
        r = T.REG_R if hit[0] == "registry" else T.STORE_R if hit[0] == "store" else T.TF_S / 2
        assert r <= x <= T.WIDTH - r and r <= y <= height - r, (hit, x, y)
        assert T.TownBoard.hit(None, st, x, y) == hit  # type: ignore[arg-type]
        points.append((x, y, r))
    for i, (x, y, r) in enumerate(points):        # no two targets overlap
        for x2, y2, r2 in points[i + 1:]:
            assert abs(x - x2) >= r + r2 or abs(y - y2) >= r + r2, (x, y, x2, y2)


def test_a_store_slot_leaves_room_for_five_chips_before_the_next_slot() -> None:
    for k in range(4):
        x, _, w, _ = T.store_rect(k)
        first, second = T.store_slot_centre(k, 0), T.store_slot_centre(k, 1)
        chips_end = first[0] + T.STORE_R + 4 + T.CHIP_DX + 30          # two chip columns, "×n" ≈ 30 px
        assert chips_end <= second[0] - T.STORE_R
        assert second[0] + T.STORE_R + 4 + T.CHIP_DX + 30 <= x + w


def test_the_town_fits_under_the_board_on_a_1024x768_screen() -> None:
    # the table starts ~94 px down the page (the notebook's title), the board is 324 px, a 6 px gap
    assert 94 + 324 + 6 + T.town_height(4) <= 768
