"""The review behind the notebook's analysis cells, and the plots that show it."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from sheetkit.widgets.avenue import plots as avenue_plots
from sheetkit.widgets.avenue import text as words

from sheetkit.analysis import avenue_review as review
from sheetkit.analysis.exact import avenue_round_length
from sheetkit.core.chance import derive_seed
from sheetkit.core.play import play_out
from sheetkit.games.avenue import BOTS, Draw, GreedyBot, RandomBot, new_game
from sheetkit.games.avenue.titles import TITLES, title_for, title_table

REPO = Path(__file__).resolve().parents[1]

CODE = "AV-0000-001A"


def finished(bots=None, players=("You", "Greedy bot")):
    return play_out(new_game(list(players), code=CODE), list(bots or (GreedyBot(), GreedyBot())))


def test_round_lengths_add_up_to_the_cards_flipped():
    g = finished()
    lengths = review.round_lengths(g)
    assert len(lengths) == 5
    assert sum(lengths) == len(g.road_deck.flipped())


def test_each_round_is_compared_with_its_exact_distribution_given_the_earlier_rounds():
    g = finished()
    ends = review.round_ends(g)
    lengths = review.round_lengths(g)
    assert [e.length for e in ends] == lengths and all(e.finished for e in ends)
    for k, e in enumerate(ends):
        assert e.dist == avenue_round_length(g.params, round=k + 1, given=lengths[:k])
        assert 0 < e.p_length <= e.p_at_most <= 1
    assert ends[0].mean == Fraction(172, 23)


def test_a_round_in_play_has_no_length_yet():
    g = new_game(["You"], code=CODE)
    g.apply_chance()
    g.apply_chance()
    (e,) = review.round_ends(g)
    assert not e.finished and e.length is None and e.flipped == 1 and e.p_length is None


def test_round_length_table_is_the_negative_hypergeometric_of_the_fourth_yellow():
    rows = review.round_length_table()
    assert rows[0] == (4, Fraction(209, 3198))
    assert sum(p for _, p in rows) == 1


def test_same_deck_scores_put_you_beside_each_bot_playing_the_same_cards_alone():
    g = finished((RandomBot(3), GreedyBot()))
    rows = review.same_deck_scores(g, bots=("random", "greedy"))
    assert sorted(r["kind"] for r in rows) == ["greedy", "random", "you"]
    you = next(r for r in rows if r["kind"] == "you")
    assert you["total"] == g.total(0)
    solo = play_out(new_game(["Greedy bot"], seed=g.seed), [GreedyBot()])
    assert next(r for r in rows if r["kind"] == "greedy")["total"] == solo.total(0)
    assert [r["total"] for r in rows] == sorted((r["total"] for r in rows), reverse=True)


def test_greedy_agrees_with_itself_on_every_card():
    g = finished()
    rows = review.greedy_hindsight(g, player=0)
    assert rows and all(r["agree"] and r["gap"] == 0 for r in rows)
    assert len(rows) == sum(1 for e in g.log if e.get("player") == 0)


def test_greedy_hindsight_finds_where_a_random_player_differed():
    g = finished((RandomBot(5), GreedyBot()))
    rows = review.greedy_hindsight(g, player=0)
    assert any(not r["agree"] for r in rows)
    assert all(r["gap"] >= 0 for r in rows)


def test_titles_rise_with_the_score_and_sit_on_the_bots_percentiles():
    """docs/avenue.md §Playing solo: a title table built from the bots' score distribution."""
    assert title_for(-10) == "Lost in the vines"
    titles = [title_for(t) for t in (4, 5, 14, 28, 40, 55, 99)]
    assert titles == ["Lost in the vines", "Day tripper", "Grape picker", "Vine dresser", "Vintner", "Grand cru",
                      "Grand cru"]
    stats = json.loads((REPO / "docs/data/avenue_stats_1000.json").read_text())["bots"]
    # the middle title starts at the greedy bot's median game; the top one above montecarlo's p90
    assert dict((t, lo) for lo, t, _ in TITLES)["Grape picker"] == stats["greedy"]["median"]
    assert TITLES[0][0] >= stats["montecarlo"]["p90"]
    assert [r[1] for r in title_table()] == [t for _, t, _ in TITLES] + ["Lost in the vines"]


def test_the_plots_render_for_a_finished_game_and_say_what_to_wait_for_before():
    g = finished((RandomBot(1), GreedyBot()))
    parts = avenue_plots.round_ends(g)
    assert hasattr(parts[0], "savefig") and "Round 5 ended on card" in parts[1]
    assert hasattr(avenue_plots.same_deck(g, bots=("greedy",))[0], "savefig")
    text, fig, worst = avenue_plots.hindsight(g)
    assert "You and the greedy bot agreed on" in text and hasattr(fig, "savefig")
    assert worst.startswith("<ul><li>Card ")
    fresh = new_game(["You"], code=CODE)
    assert "Finish the game" in avenue_plots.same_deck(fresh)[0]
    assert "As you play" in avenue_plots.hindsight(fresh)[0]


def test_the_chance_the_next_card_ends_the_round_counts_the_yellows_still_face_down():
    g = new_game(["You"], code=CODE)
    g.apply_chance()
    g.apply_chance()
    while g.yellows < 3:
        assert g.yellows < 3 and review.chance_round_ends_next(g) == 0
        g.apply(0, next(a for a in g.legal_actions(0) if isinstance(a, Draw)))
        g.apply_chance()
    flipped_yellow = sum(c.yellow for c in g.road_deck.flipped())
    assert review.chance_round_ends_next(g) == Fraction(22 - flipped_yellow, g.road_deck.remaining())
    assert "next card ends the round" in words.round_info(g)
    assert "appears when round 1 ends" in avenue_plots.round_ends(g)[0]


def test_same_deck_scores_include_the_expert_by_default():
    """The review's same-deck bars put the expert bot (the strongest) beside you, on the very same cards."""
    g = finished((RandomBot(3), GreedyBot()))
    rows = review.same_deck_scores(g)
    assert sorted(r["kind"] for r in rows) == ["expert", "greedy", "montecarlo", "random", "you"]
    expert = next(r for r in rows if r["kind"] == "expert")
    bot = BOTS["expert"](seed=derive_seed(g.seed, "review", "expert"))
    solo = play_out(new_game(["Expert bot"], seed=g.seed), [bot])
    assert expert["total"] == solo.total(0) and expert["final"]
