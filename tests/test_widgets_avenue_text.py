"""The table's words: the status line always says what to do; the log tells the game plainly."""

from __future__ import annotations

import re

from sheetkit.widgets.avenue import text as words
from sheetkit.widgets.landing import games_html, more_html
from sheetkit.widgets.query import dashboard_options, share_query

from sheetkit.core.play import play_out
from sheetkit.games.avenue import Draw, GreedyBot, Peek, RandomBot, new_game
from sheetkit.games.avenue.state import AvenueState, Deal, parse_deal

CODE = "AV-0000-001A"


def started(players=("You", "Greedy bot")) -> AvenueState:
    g = new_game(list(players), code=CODE)
    g.apply_chance()
    g.apply_chance()
    return g


def test_the_status_line_names_the_road_and_offers_a_peek_while_allowed():
    g = started()
    n = g.card.number
    assert words.status_line(g) == f"Draw {words.road_words(n)} in an empty cell — or Peek at the next farm."
    g.apply(0, Peek())
    g.apply(1, Draw(0, 0))
    assert words.status_line(g).startswith("You peeked. Press Next card (or Undo)")
    g.apply_chance()
    assert "or Peek" not in words.status_line(g)


def test_the_status_line_says_when_the_next_card_scores_the_farm():
    g = started(("You",))
    while not g.round_ends_after_this_card():
        g.apply(0, next(a for a in g.legal_actions(0) if isinstance(a, Draw)))
        g.apply_chance()
    g.apply(0, next(a for a in g.legal_actions(0) if isinstance(a, Draw)))
    assert f"press Next card (or Undo) to score farm {g.farm}" in words.status_line(g)


def test_the_status_line_at_the_end_gives_the_placing_and_what_to_do_next():
    g = play_out(new_game(["You", "Greedy bot"], code=CODE), [RandomBot(1), GreedyBot()])
    text = words.status_line(g)
    assert g.total(0) < 0 and "−" in text, "a negative total shows a true minus sign, as on the sheet"
    place = words.ordinal(g.placings()[0])
    assert text.startswith(f"Game over: you placed {place} of 2 with {words.signed(g.total(0))}.")
    assert "same deal again" in text and "code" in text


def test_round_info_shows_the_target_the_yellow_count_and_cards_left():
    g = started()
    info = words.round_info(g)
    assert f"farm <b>{g.farm}</b> needs <b>1+</b> grapes" in info
    assert f"yellow <b>{g.yellows}/4</b>" in info
    assert f"<b>{g.road_deck.remaining()}</b> road cards left" in info


def test_the_log_tells_each_card_each_move_and_each_score_in_plain_words():
    g = play_out(new_game(["You", "Greedy bot"], code=CODE), [GreedyBot(), GreedyBot()])
    lines = words.log_lines(g)
    text = [ln.text for ln in lines]
    assert text[0].startswith(f"Round 1: farm {g.round_farms[0]} is flipped")
    assert re.match(r"Card 1: road \d, (yellow \(1/4\)|grey) — you: (row \d, col \d|peeked) · Greedy bot: ", text[1])
    for k in range(5):
        b = g.breakdown(0)["farms"][k]
        line = f"Round {k + 1}: You: farm {b['farm']} reached {b['grapes']} grape"
        assert any(t.startswith(line) for t in text), line
        assert any(t.startswith(f"Round {k + 1}: Greedy bot: farm {b['farm']}") for t in text)
    assert text[-1] == "Game over."
    assert sum(ln.kind == "card" for ln in lines) == len(g.road_deck.flipped())


def test_score_words_say_beats_or_does_not_beat_and_the_penalty():
    g = new_game(["You"], code=CODE)
    g.round_farms, g.grapes, g.targets, g.boxes = ["D", "A", "C"], [[3, 2, 0]], [[0, 3, 0]], [[3, 0, 0]]
    assert words.score_words(g, 0, 0, 0) == "farm D reached 3 grapes, needed 1 or more → 3"
    assert words.score_words(g, 0, 1, 0) == "farm A reached 2 grapes, does not beat 3 → 0 (−5 at the end)"
    assert words.score_words(g, 0, 2, 0) == "farm C reached 0 grapes, needed 1 or more → 0 (−5 at the end)"


def test_bots_peeks_stay_secret_in_the_log():
    g = started()
    seen = g.farm_deck.peek()
    g.apply(0, Draw(0, 0))
    g.apply(1, Peek())
    line = words.log_lines(g)[-1].text
    assert line.endswith("Greedy bot: peeked")
    assert f"farm {seen}" not in line
    assert words.peek_info(g, 0) == ""
    assert seen in words.peek_info(g, 1)


def test_breakdown_html_has_a_row_per_player_with_the_total_cell():
    g = play_out(new_game(["You", "Greedy bot", "Random bot"], code=CODE), [GreedyBot(), GreedyBot(), RandomBot(2)])
    html = words.breakdown_html(g)
    rows = re.findall(r"<tr data-player='(\d)'", html)
    assert rows == ["0", "1", "2"]
    totals = re.findall(r"<td class='sk-total'>(-?\d+)</td>", html)
    assert [int(t) for t in totals] == g.scores()
    assert "<tr data-player='0' class='sk-me'>" in html


def test_a_fixed_deal_game_shows_no_code_but_plays():
    g0 = new_game(["You"], code=CODE)
    deal = Deal(tuple(g0.farm_deck.order()), tuple(g0.road_deck.order()))
    g = AvenueState(g0.params, ["You"], deal=parse_deal(deal.to_json(), g0.params))
    assert g.game_code() is None
    g.apply_chance()
    g.apply_chance()
    assert words.status_line(g).startswith("Draw road")


def test_query_options_parse_codes_and_bots_and_explain_problems():
    assert dashboard_options("code=AV-0000-001A&bots=greedy,random").bots == ("greedy", "random")
    assert dashboard_options("?code=AV-0000-001A").code == CODE
    assert dashboard_options("").bots is None and dashboard_options("").code is None
    assert dashboard_options("bots=none").bots == ()
    opts = dashboard_options("bots=greedy,greedy,random,montecarlo,ghost")
    assert opts.bots == ("greedy", "greedy", "random")
    assert any("ghost" in p for p in opts.problems) and any("at most 3" in p for p in opts.problems)
    assert share_query(CODE, ["greedy", "random"]) == "code=AV-0000-001A&bots=greedy,random"
    assert dashboard_options(share_query(CODE, [])).bots == ()


def test_the_landing_page_links_every_game_and_nothing_is_coming():
    page = games_html()
    assert "href='avenue.ipynb'" in page and "href='avenue.ipynb?bots=greedy'" in page
    assert "href='kingdom_maps.ipynb'" in page and "href='kingdom_maps.ipynb?bots=greedy'" in page
    assert "href='key_harvest.ipynb'" in page and "href='key_harvest.ipynb?bots=greedy,greedy'" in page
    assert "'sk-coming'>coming</span>" not in page


def test_the_landing_page_links_the_whatif_explorer_and_the_lessons():
    more = more_html()
    assert "href='whatif.ipynb'" in more and "lessons" in more


def test_the_log_shows_the_newest_line_first_and_your_score_before_the_bots():
    g = play_out(new_game(["You", "Greedy bot"], code=CODE), [GreedyBot(), GreedyBot()])
    html = words.log_html(g)
    first = re.findall(r"<div class='sk-log-(\w+)'>([^<]*)</div>", html)[:3]
    assert first[0] == ("end", "Game over.")
    assert first[1][0] == "score" and "Round 5: You:" in first[1][1]
    assert "Round 5: Greedy bot:" in first[2][1]


def test_the_first_card_of_a_new_round_says_what_the_last_round_scored():
    """One Next card scores the farm, flips the next farm and the first road: the status line says all three."""
    g = started(("You",))
    while g.round == 1:
        assert "scored" not in words.status_line(g)
        g.apply(0, next(a for a in g.legal_actions(0) if isinstance(a, Draw)))
        while g.is_chance_node() and (g.round == 1 or g.card is None):
            g.apply_chance()
    text = words.status_line(g)
    assert text.startswith(f"Draw road {g.card.number}"), "the line still starts with what to do"
    box = g.boxes[0][0]
    assert f"Round 1 scored: farm {g.round_farms[0]} reached {g.grapes[0][0]} grape" in text
    assert f"→ {box}" in text and text.endswith(f"Now farm {g.farm}.")
    g.apply(0, next(a for a in g.legal_actions(0) if isinstance(a, Draw)))
    g.apply_chance()
    assert "scored" not in words.status_line(g), "only while the round's first card is face up"
