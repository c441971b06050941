"""Key Harvest invariants over many seeded games (docs/key_harvest.md §Components, §Hidden information; records
replay exactly)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from key_harvest_util import total_counters

from sheetkit.core.chance import derive_seed
from sheetkit.core.errors import BrokenGame
from sheetkit.core.play import play_out
from sheetkit.core.records import replay
from sheetkit.games.key_harvest import BOTS, CODES, new_game
from sheetkit.games.key_harvest.events import EVENTS
from sheetkit.games.key_harvest.params import PRESETS


def tiles_everywhere(s) -> list[str]:
    """Every field tile's code wherever it is: bag, registry, stores, boards, discards."""
    bag = [x for x in s._bag[s._bag_pos:] if x not in EVENTS]
    stores = [c for store in s.stores for c, _, _ in store]
    boards = [c for p in range(s.num_players) for c in s.tiles_of(p)]
    return bag + list(s.registry) + stores + boards + list(s.discards)


def play(players: int, seed: int, bots=("random", "greedy"), check=None, params=None, fast=False):
    """A seeded bot game to its end, ``check(state)`` after every step; ``fast``: the simulations' unchecked path."""
    s = new_game(players, seed=seed, params=params)
    seat = [BOTS[bots[p % len(bots)]](seed=derive_seed(seed, "bot", p)) for p in range(players)]
    apply = s.apply_fast if fast else s.apply
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_chance()
        else:
            p = s.current_players()[0]
            apply(p, seat[p].act(s, p))
        if check is not None:
            check(s)
    return s


def conserved(s) -> None:
    assert total_counters(s) == 60 and min(s.stock) >= 0
    assert all(min(c) >= 0 for c in s.counters)
    if s.phase != "setup":
        where = tiles_everywhere(s)
        assert len(where) == 56 and sorted(where) == sorted(CODES)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_counters_and_tiles_are_conserved_at_every_step(players):
    """docs/key_harvest.md §Components — 60 counters (stock + screens + stores) and 56 tiles, never duplicated or
    lost."""
    for seed in range(6):
        s = play(players, 100 * players + seed, check=conserved)
        assert s.is_terminal() and s.stores == [[] for _ in range(players)]


def test_replay_of_the_record_gives_the_same_state():
    """Records: seed + log replay to the identical state (fingerprint), through real JSON text."""
    for seed in range(8):
        s = play(2 + seed % 3, seed, bots=("greedy",))
        again = replay(json.loads(json.dumps(s.to_record())))
        assert again.fingerprint() == s.fingerprint() and again.scores() == s.scores()


def test_views_hide_other_counters_at_every_step():
    """docs/key_harvest.md §Hidden information — others' counters show only as "hidden"; the bag only as a count."""
    def hidden(s):
        for p in range(s.num_players):
            v = s.view(p)
            assert [c == "hidden" for c in v["counters"]] == [q != p for q in range(s.num_players)]
            text = json.dumps(v)
            assert "_bag" not in text and v["bag_remaining"] == s.bag_remaining()
    play(3, 5, check=hidden)


def test_games_end_by_the_rules_not_by_the_safeguard():
    """docs/key_harvest.md §Game end — games end after the last event's turns or an empty bag."""
    for seed in range(20):
        s = play(2 + seed % 3, 1000 + seed, bots=("greedy",))
        assert "turn limit" not in s.end_reason
        assert s.final_turns_left in (None, 0)


def test_clone_is_independent():
    """Protocol: a clone moves on without touching the original (undo snapshots are not shared)."""
    s = play(3, 9, bots=("greedy",), check=None)
    t = new_game(3, seed=9)
    t.apply_chance()
    u = t.clone()
    bot = BOTS["greedy"](seed=0)
    u.apply(u.active, bot.act(u, u.active))
    assert t.fingerprint() != u.fingerprint() and t.log == [t.log[0]]
    assert s.is_terminal()


@pytest.mark.parametrize("players", [2, 4])
def test_the_listed_buys_are_exactly_the_store_tiles_check_accepts(players):
    """docs/key_harvest.md §Taking tiles from stores: ``legal_actions`` lists a store tile iff buying it passes every
    check (its own fast test
    and the worded one agree at every step of seeded games)."""
    from sheetkit.core.errors import IllegalAction
    from sheetkit.games.key_harvest import Buy

    seen = 0

    def agree(s) -> None:
        nonlocal seen
        for p in s.current_players():
            listed = {a.code for a in s.legal_actions(p) if isinstance(a, Buy)}
            for store in s.stores:
                for code, _, _ in store:
                    try:
                        s.check(p, Buy(code))
                        ok = True
                    except IllegalAction:
                        ok = False
                    assert (code in listed) == ok, (p, code, s.turn)
                    seen += ok
    for seed in range(3):
        play(players, seed, check=agree)
    assert seen > 0, "some buys were possible in these games"


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), preset=st.sampled_from(sorted(PRESETS)),
       bots=st.sampled_from([("random",), ("greedy",), ("random", "greedy")]))
def test_every_state_of_any_game_keeps_its_counters_and_tiles(players, seed, preset, bots):
    """docs/key_harvest.md §Components — the engine's own audit (what every simulation checks at each game's end) finds
    nothing
    at any step of any seeded game, any preset, any bots; and it agrees with this file's independent count."""
    def both(s):
        assert s.audit() == []
        conserved(s)

    play(players, seed, bots, check=both, params=PRESETS[preset], fast=True)


def test_the_audit_names_what_was_lost_or_doubled_and_a_simulation_refuses_the_game():
    """docs/key_harvest.md §Components — a counter or a tile gone missing (a bug, never a move) is named in words, and
    play_out,
    which every simulation uses, raises BrokenGame instead of counting the game's scores."""
    s = new_game(3, seed=4)
    s.apply_chance()
    s.stock = (s.stock[0] - 1, *s.stock[1:])
    places = [s.stock[0], *(screen[0] for screen in s.counters)]
    assert s.audit() == [f"wine: 11 counters in the game (stock, screens, bids: {places}), not 12 with none below 0"]
    with pytest.raises(BrokenGame, match=r"seed 4\) broke a conservation law: wine: 11 counters"):
        play_out(s, [BOTS["greedy"](seed=p) for p in range(3)], fast=True)
    s = new_game(3, seed=4)
    s.apply_chance()
    s.discards.append(s.registry[0])
    assert s.audit() == [f"field tiles: 57 in the game, not 56; twice: {s.registry[0]}"]
    s.discards.pop()
    lost = s.registry.pop()
    assert s.audit() == [f"field tiles: 55 in the game, not 56; lost: {lost}"]
