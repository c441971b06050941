"""Kingdom Maps' table words: status line, turn line, log, criteria, breakdown — all read from the engine."""

from __future__ import annotations

import re

from sheetkit.widgets.kingdom_maps import text as words
from sheetkit.widgets.kingdom_maps.panels import dice_roles

from sheetkit.core.play import play_out, step_table
from sheetkit.games.kingdom_maps import BOTS, CRITERIA, TERRAINS, Announce, Pass, Pick, Power, new_game
from sheetkit.games.kingdom_maps.titles import PLACING_TITLES, SOLO_TITLES, placing_title


def finished(players: list[str], seed: int = 5):
    st = new_game(players, seed=seed)
    play_out(st, [BOTS["greedy"](seed=p) for p in range(len(players))])
    return st


def test_terrain_labels_carry_number_symbol_name_and_uses_never_colour_alone():
    for t in TERRAINS:
        label = words.terrain_label(t.number, 2)
        assert label == f"{t.number} {t.symbol} {t.plural} · 2 left"


def test_the_status_line_follows_a_solo_turn():
    st = new_game(["You"], seed=5)
    step_table(st)
    assert words.status_line(st).startswith("Choose a terrain and take a die (")
    assert words.status_line(st, terrain_choice=2).startswith("Forests chosen — now take a die")
    assert words.status_line(st, die_choice=st.dice[0]) == f"You hold the {st.dice[0]} — now choose a terrain."
    st.apply(0, Announce(2, st.dice[0]))
    assert words.status_line(st) == st.prompt(0)
    bot = BOTS["greedy"](seed=0)
    while 0 in st.current_players():
        st.apply(0, bot.act(st, 0))
    assert words.awaiting_confirm(st)
    line = words.status_line(st)
    # Solo: the first drawing of a turn is followed by the same turn's second roll.
    assert "Press Confirm (or Undo) to roll this turn's second dice" in line and "Forest" in line


def test_the_status_line_at_the_end_names_the_title_or_the_placing():
    solo = finished(["You"])
    assert words.status_line(solo).startswith(f"Game over: you scored {solo.total(0)} — "
                                              f"{solo.breakdown(0)['title']}.")
    duo = finished(["You", "Greedy bot"])
    assert "Game over: you placed" in words.status_line(duo) and "of 2" in words.status_line(duo)


def test_a_game_against_bots_ends_with_the_placing_and_a_title():
    for players in (["You", "Greedy bot"], ["You", "Greedy bot", "Random bot", "Greedy bot 2"]):
        st = finished(players)
        place = st.placings()[0]
        want = placing_title(place)
        assert want == PLACING_TITLES[place - 1]
        line = words.status_line(st)
        assert line.startswith(f"Game over: you placed {words.ordinal(place)} of {len(players)} with "
                               f"{st.total(0)} — {want}.")
        assert [st.breakdown(p)["title"] for p in range(len(players))] == \
            [placing_title(k) for k in st.placings()], "the engine's breakdown names every player's title"
        summary = words.end_summary(st)
        assert f"<span class='sk-km-title'>{want}</span>" in summary
        assert f"1st {PLACING_TITLES[0]}" in summary, "the ladder of titles is shown"
    assert len({placing_title(k) for k in range(1, 5)}) == 4, "each placing earns its own title"


def test_turn_info_says_turn_drawing_terrain_powers_and_room():
    st = new_game(["You", "Greedy bot"], seed=5)
    step_table(st)
    info = words.turn_info(st)
    assert "Turn <b>1</b>" in info and "active: <b>you</b>" in info and "<b>61</b> hexes empty" in info
    over = finished(["You"])
    assert words.turn_info(over).startswith("Game over after")
    assert "· you could not draw the amount ·" in words.turn_info(over), "your name reads 'you' in the middle"


def test_the_log_tells_each_drawing_in_words_with_the_engines_terrain():
    st = finished(["You", "Greedy bot"])
    lines = words.log_lines(st)
    assert lines[0].kind == "setup" and all(c in lines[0].text for c in st.criteria)
    turns = [ln for ln in lines if ln.kind == "turn"]
    assert len(turns) == st.turn
    moves = [ln.text for ln in lines if ln.kind == "move"]
    assert any(m.startswith("You: announced") for m in moves)
    assert any(m.startswith("Greedy bot: picked the") for m in moves)
    assert lines[-1].kind == "end"
    drawn = sum(int(n) for m in moves if m.startswith("You:") for n in re.findall(r"drew (\d+) ", m))
    assert drawn == st.sheets[0].drawn, "the log counts every hex you drew"
    html = words.log_html(st)
    assert html.index("Game over") < html.index("Turn 1:"), "newest first"


def test_the_solo_log_names_the_terrain_the_other_die_gave():
    st = finished(["You"])
    second = [ln.text for ln in words.log_lines(st) if "as the amount" in ln.text]
    assert second and all("the other die names" in t for t in second)


def test_criteria_html_shows_each_rule_and_the_live_score():
    st = finished(["You"])
    out = words.criteria_html(st)
    scores = st.criterion_scores(0)
    for c in st.criteria:
        assert f"data-code='{c}'" in out and CRITERIA[c].rule.split()[0] in out
        assert f"final <b>{scores[c]}</b>" in out
    assert words.bank_label(st, st.criteria[0]) == f"{st.criteria[0]} {CRITERIA[st.criteria[0]].name} → " \
                                                   f"{scores[st.criteria[0]]}"


def test_breakdown_html_is_the_engines_breakdown():
    st = finished(["You", "Greedy bot", "Random bot"])
    out = words.breakdown_html(st)
    for p in range(3):
        b = st.breakdown(p)
        row = re.search(rf"<tr data-player='{p}'[^>]*>(.*?)</tr>", out).group(1)
        assert f"<td class='sk-total'>{b['total']}</td>" in row
        assert f"<td class='sk-place'>{words.ordinal(b['placing'])}</td>" in row
        for c in b["criteria"]:
            assert f"<td data-code='{c['code']}'>{c['score']}</td>" in row
        # against bots too, every player ends with a title: the one their placing earns
        assert f"<td class='sk-title'>{placing_title(b['placing'])}</td>" in row
    solo = finished(["You"])
    assert f"<td class='sk-title'>{solo.breakdown(0)['title']}</td>" in words.breakdown_html(solo)
    summary = words.end_summary(solo)
    assert solo.breakdown(0)["title"] in summary and all(t in summary for _, t in SOLO_TITLES[:-1])


def test_dice_roles_mark_the_active_players_die_yours_and_the_terrain_die():
    st = new_game(["You", "Greedy bot"], seed=5)
    step_table(st)
    st.apply(0, Announce(1, st.dice[0]))
    roles = dice_roles(st, 0)
    assert [r for _, r, _ in roles].count("mine") == 1 and roles[0][2] == "you took"
    roles_bot = dice_roles(st, 1)
    assert roles_bot[0][1] == "taken" and roles_bot[0][2] == "You took"
    st.apply(1, Pick(st.pick_options(1)[0]))
    assert [r for _, r, _ in dice_roles(st, 1)].count("mine") == 1


def test_pick_preview_asks_the_engine_without_touching_the_game():
    st = new_game(["You"], seed=5)
    bot = BOTS["greedy"](seed=0)
    while not (st.step == 2 and st.sheets[0].die is None):
        if st.is_chance_node():
            st.apply_chance()
        else:
            st.apply(0, bot.act(st, 0))
    before = st.fingerprint()
    a, b = st.dice
    assert words.pick_preview(st, 0, a) == (a, b)
    assert st.fingerprint() == before


def _random_games(players: list[str], seeds: range):
    """Every position where you (player 0) must act, over random games: (state, legal actions)."""
    for seed in seeds:
        st = new_game(players, seed=seed)
        bots = [BOTS["random"](seed=seed + p) for p in range(len(players))]
        while not st.is_terminal():
            if st.is_chance_node():
                st.apply_chance()
                continue
            for p in st.current_players():
                if p == 0:
                    yield st, st.legal_actions(0)
                st.apply(p, bots[p].act(st, p))
                if p == 0 and words.awaiting_confirm(st) and st.is_chance_node():
                    yield st, []


def test_no_room_offers_the_powers_when_a_power_makes_room_and_says_draw_nothing_only_when_none_does():
    seen = {"room": 0, "none": 0}
    for st, acts in _random_games(["You"], range(40)):
        if Pass() not in acts:
            continue
        line = words.status_line(st)
        fits = []
        for power in (a for a in acts if isinstance(a, Power)):
            trial = st.clone()
            trial.apply(0, power)
            if trial.legal_hexes(0):
                fits.append(trial.amount(0))
        if fits:
            seen["room"] += 1
            assert "a +1/-1 power makes room: spend one to draw " + " or ".join(map(str, sorted(fits))) in line
        else:
            seen["none"] += 1
            assert line.startswith(f"No room for {st.amount(0)} ") and "draw nothing" in line
            assert "power" not in line
        if seen["room"] and seen["none"] >= 1 and sum(seen.values()) > 3:
            break
    assert seen["room"] and seen["none"], seen


def test_confirm_after_the_last_drawing_says_it_ends_the_game_not_that_it_rolls():
    ends = 0
    for players in (["You"], ["You", "Random bot"]):
        for st, acts in _random_games(players, range(12)):
            if acts or not words.awaiting_confirm(st):
                continue
            line = words.status_line(st)
            step = st.next_table_step()
            if step == "end":
                ends += 1
                assert "Press Confirm" in line and "to end the game" in line and "roll" not in line
            else:
                assert "end the game and see the scores" not in line
    assert ends >= 2
