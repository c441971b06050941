"""Key Harvest's expert bot and hindsight bound (issue 16, parts 1 and 2; docs/key_harvest.md, "Bots").

The expert plays legal moves only, is deterministic with its seed, reads only what its seat may see,
values any list of legal moves, and beats the greedy bot; the hindsight search finds the true optimum
where exhaustive search is feasible, its moves replay to its score, and it scores at least what the
expert does on the same deals.
"""

from __future__ import annotations

import copy
import math
import random
from itertools import product

import pytest
from key_harvest_util import set_counters

from sheetkit.core.chance import derive_seed
from sheetkit.core.registry import get_game
from sheetkit.games.key_harvest import BOTS, SPEC, KeyHarvestParams, KeyHarvestState, new_game
from sheetkit.games.key_harvest.bots import GreedyBot, RandomBot
from sheetkit.games.key_harvest.determinize import sample
from sheetkit.games.key_harvest.expert import ExpertBot
from sheetkit.games.key_harvest.hindsight import hindsight
from sheetkit.games.key_harvest.moves import Bid, EndTurn, Harvest

QUICK = KeyHarvestParams(end_event=6, final_turns=1)  # the "quick" preset: shorter games for the slow tests


def greedy_until(state: KeyHarvestState, stop) -> KeyHarvestState:
    """Play ``state`` on with greedy bots (checked) until ``stop(state)`` holds at a player's decision."""
    bots = [GreedyBot(seed=q) for q in range(state.num_players)]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
            continue
        p = state.current_players()[0]
        if stop(state):
            return state
        state.apply(p, bots[p].act(state, p))
    raise AssertionError("the game ended before the wanted moment")


def mid_game(players: int = 3, seed: int = 4, turn: int = 9) -> KeyHarvestState:
    """A game at the start of turn ``turn`` (greedy play so far), with counters in every screen."""
    return greedy_until(new_game(players, seed=seed), lambda s: s.turn >= turn and not s.queue and not s.turn_moves)


def play_game(state: KeyHarvestState, bots: list) -> KeyHarvestState:
    """Play to the end, every move checked (``apply`` raises on an illegal move)."""
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
            continue
        p = state.current_players()[0]
        state.apply(p, bots[p].act(state, p))
    return state


def test_expert_is_registered_with_its_hindsight():
    """``expert`` is a Key Harvest bot everywhere bots are listed, slow, with a budget; the spec has the hindsight."""
    assert BOTS["expert"] is ExpertBot and get_game("key-harvest").bots["expert"] is ExpertBot
    bot = BOTS["expert"](seed=3, budget=0.5)
    assert bot.name == "expert" and bot.slow is True
    assert SPEC.hindsight is hindsight


def test_expert_plays_a_whole_game_with_legal_moves_only():
    """A checked 3-player game (every move through ``apply``) with the expert in one seat ends normally."""
    s = new_game(3, seed=21, params=QUICK)
    s = play_game(s, [GreedyBot(seed=0), ExpertBot(seed=1, budget=0.25), RandomBot(seed=2)])
    assert s.is_terminal() and not s.audit()


def test_expert_is_deterministic_with_its_seed():
    """The same seed and state give the same move and the same values, however often asked."""
    s = mid_game()
    p = s.active
    a1 = ExpertBot(seed=5, budget=0.3).act(s, p)
    a2 = ExpertBot(seed=5, budget=0.3).act(s.clone(), p)
    assert a1 == a2
    acts = s.legal_actions(p)[:6]
    assert ExpertBot(seed=5, budget=0.3).evaluate(s, p, acts) == ExpertBot(seed=5, budget=0.3).evaluate(s, p, acts)


def hide_differently(state: KeyHarvestState, player: int) -> KeyHarvestState:
    """A copy differing only in what ``player`` cannot see: the others' screens swapped, the bag reshuffled."""
    other = state.clone()
    a, b = [q for q in range(state.num_players) if q != player][:2]
    other.counters[a], other.counters[b] = state.counters[b], state.counters[a]
    rest = other._bag[other._bag_pos:]
    random.Random(1).shuffle(rest)
    other._bag = other._bag[: other._bag_pos] + rest
    assert other.view(player) == state.view(player)
    assert other.counters != state.counters and other._bag != state._bag
    return other


def test_expert_reads_nothing_its_seat_cannot_see():
    """Two states differing only in others' counters and the bag order give the same samples, moves and values."""
    s = mid_game(players=4, seed=8)
    p = s.active
    t = hide_differently(s, p)
    ws, wt = sample(s, p, random.Random(2)), sample(t, p, random.Random(2))
    assert ws.fingerprint() == wt.fingerprint() and ws._bag == wt._bag
    assert ExpertBot(seed=1, budget=0.3).act(s, p) == ExpertBot(seed=1, budget=0.3).act(t, p)
    acts = s.legal_actions(p)[:5]
    assert ExpertBot(seed=1, budget=0.3).evaluate(s, p, acts) == ExpertBot(seed=1, budget=0.3).evaluate(t, p, acts)


def test_samples_keep_the_rules_and_what_was_seen():
    """A sampled deal keeps every conservation law, the seat's own screen, the stock and the bag's contents."""
    s = mid_game(players=4, seed=8)
    p = s.active
    for k in range(10):
        w = sample(s, p, random.Random(k))
        assert not w.audit()
        assert w.counters[p] == s.counters[p] and w.stock == s.stock
        assert sorted(w._bag[w._bag_pos:]) == sorted(s._bag[s._bag_pos:])
        assert all(min(c) >= 0 for c in w.counters)


def test_evaluate_values_any_list_of_legal_moves():
    """One value per move given (bids of any size included), in points within the score bounds; moves with the
    same effect get the same value, and passing at the start of a turn is worth less than harvesting."""
    s = mid_game()
    p = s.active
    mine = s.counters[p]
    big = Bid(s.registry[0], mine)
    acts = [*s.legal_actions(p), big]
    bot = ExpertBot(seed=2, budget=0.3)
    values = bot.evaluate(s, p, acts)
    lo, hi = s.score_bounds()
    assert len(values) == len(acts) and all(math.isfinite(v) and lo <= v <= hi for v in values)
    # harvesting any tile of one group is the same move
    up = s.harvestable_groups(p)[0]
    if len(up) >= 2:
        va = bot.evaluate(s, p, [Harvest(up[0]), Harvest(up[1])])
        assert va[0] == va[1]
    v_harvest, v_pass = ExpertBot(seed=2).evaluate(s, p, [Harvest(up[0]), EndTurn()])
    assert v_harvest > v_pass
    assert bot.evaluate(s, p, []) == []


def test_expert_beats_greedy_on_average():
    """Smoke test of strength (the full figures: benchmarks/bot_strength.py --game key-harvest): on 6 two-player deals,
    seats alternating, the expert's mean margin over the greedy bot is positive and it wins most games."""
    margins, wins = [], 0
    for g in range(6):
        s = new_game(2, seed=300 + g, params=QUICK)
        seat = g % 2
        bots: list = [GreedyBot(seed=derive_seed(g, "bot", q)) for q in range(2)]
        bots[seat] = ExpertBot(seed=g, budget=0.25)
        sc = play_game(s, bots).scores()
        margins.append(sc[seat] - sc[1 - seat])
        wins += s.placings()[seat] == 1
    assert sum(margins) / len(margins) > 0 and wins >= 4


# ----- hindsight ------------------------------------------------------------------------------------------


def brute_force(state: KeyHarvestState, player: int, bots: list) -> int:
    """The best final score of ``player`` over every sequence of its legal moves — every bid mix of every
    registry tile included — with the other seats played by ``bots`` (copied for each branch)."""
    s = state
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_chance()
            continue
        q = s.current_players()[0]
        if q == player:
            break
        s.apply(q, bots[q].act(s, q))
    if s.is_terminal():
        return s.total(player)
    moves = [a for a in s.legal_actions(player) if not isinstance(a, Bid)]
    codes = dict.fromkeys(a.code for a in s.legal_actions(player) if isinstance(a, Bid))
    moves += [Bid(c, m) for c in codes for m in product(*(range(k + 1) for k in s.counters[player])) if sum(m)]
    best = -1
    for a in moves:
        child = s.clone()
        child.apply(player, a)
        best = max(best, brute_force(child, player, copy.deepcopy(bots)))
    return best


def tiny_endgame(seed: int) -> KeyHarvestState:
    """A 2-player game whose first event ends it (one more turn each), seat 0 to play with one counter."""
    s = new_game(2, seed=seed, params=KeyHarvestParams(end_event=1, final_turns=1))
    s = greedy_until(s, lambda t: t.final_turns_left is not None and t.active == 0 and not t.queue
                     and not t.turn_moves)
    set_counters(s, 0, (1, 0, 0, 0, 0) if s.stock[0] else (0, 1, 0, 0, 0))
    return s


@pytest.mark.parametrize("seed", [5, 7])
def test_hindsight_finds_the_true_optimum_of_a_tiny_game(seed):
    """Where every line can be tried (the last turns of a short game), the hindsight score is exact and equals
    a brute-force enumeration's best."""
    s = tiny_endgame(seed)
    opponents = [None, GreedyBot(seed=1)]
    r = hindsight(s, 0, opponents)
    assert r.exact
    assert r.score == brute_force(s.clone(), 0, [None, GreedyBot(seed=1)])


def replay(state: KeyHarvestState, player: int, actions, opponents: list) -> KeyHarvestState:
    """Play ``actions`` in ``player``'s seat (checked) against ``opponents`` on ``state``'s deal."""
    todo = list(actions)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
            continue
        q = state.current_players()[0]
        state.apply(q, todo.pop(0) if q == player else opponents[q].act(state, q))
    assert not todo
    return state


def test_hindsight_moves_replay_to_its_score_against_the_same_opponents():
    """The hindsight's moves, played on the same deal against fresh copies of the same (random and greedy)
    opponents, are all legal and end at its score; it is not exact on a whole game."""
    s = new_game(3, seed=41, params=QUICK)
    opponents = [RandomBot(seed=7), None, GreedyBot(seed=8)]
    r = hindsight(s, 1, opponents)
    assert not r.exact and r.actions
    end = replay(new_game(3, seed=41, params=QUICK), 1, r.actions, [RandomBot(seed=7), None, GreedyBot(seed=8)])
    assert end.total(1) == r.score


def test_hindsight_scores_at_least_the_expert_on_the_same_deals():
    """On the same deals and against the same greedy opponents, the hindsight score is at least the expert's on
    average (and at least the greedy bot's on every deal: its moves improve on greedy's line)."""
    hs, ex = [], []
    for g in range(3):
        opp = [None, GreedyBot(seed=derive_seed(g, "bot", 1))]
        r = hindsight(new_game(2, seed=500 + g, params=QUICK), 0, opp)
        bots = [ExpertBot(seed=g, budget=0.25), GreedyBot(seed=derive_seed(g, "bot", 1))]
        ex.append(play_game(new_game(2, seed=500 + g, params=QUICK), bots).total(0))
        greedy = play_game(new_game(2, seed=500 + g, params=QUICK),
                           [GreedyBot(seed=0), GreedyBot(seed=derive_seed(g, "bot", 1))]).total(0)
        assert r.score >= greedy
        hs.append(r.score)
    assert sum(hs) >= sum(ex)


def test_hindsight_given_the_experts_game_never_scores_below_it():
    """On this 4-player deal the search alone ends below the expert (14 < 16); told the expert's game as its
    baseline it cannot, and its moves still replay to its score."""
    seat, g = 0, 0

    def table():
        return [None if q == seat else GreedyBot(seed=derive_seed(g, "bot", q)) for q in range(4)]

    bots, moves = table(), []
    bots[seat] = ExpertBot(seed=g, budget=0.25)
    s = new_game(4, seed=700, params=QUICK)
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_chance()
            continue
        q = s.current_players()[0]
        a = bots[q].act(s, q)
        if q == seat:
            moves.append(a)
        s.apply(q, a)
    played = s.total(seat)
    alone = hindsight(new_game(4, seed=700, params=QUICK), seat, table())
    assert alone.score < played  # the case the baseline is for
    seeded = hindsight(new_game(4, seed=700, params=QUICK), seat, table(), baseline=moves)
    assert seeded.score >= played
    assert replay(new_game(4, seed=700, params=QUICK), seat, seeded.actions, table()).total(seat) == seeded.score
