"""The Kingdom Maps table driven like a user would: clicks on the map and the dice, buttons, uploads.

Every canvas message goes through ipycanvas's one shared manager; ``Recorder`` counts what it
sends, and which canvases and drawing commands each message holds.
"""

from __future__ import annotations

import base64
import html
import json
import re
from typing import Any

import pytest
from canvas_recorder import Recorder
from sheetkit.widgets import KingdomTable, canvas_manager
from sheetkit.widgets.kingdom_maps.panels import dice_roles, die_rect
from sheetkit.widgets.kingdom_maps.table import ME

from sheetkit.core.records import dumps, replay
from sheetkit.games.kingdom_maps import TERRAINS, Announce, Bank, GreedyBot, Pass, Pick, Place, Power
from sheetkit.games.kingdom_maps.titles import solo_title

CODE = "KM-0000-0005"


def ready_table(rec: Recorder, **kw: Any) -> KingdomTable:
    kw.setdefault("code", CODE)
    t = KingdomTable(**kw)
    t.simulate_client_ready()
    rec.clear()
    return t


def layer(t: KingdomTable, name: str) -> Any:
    return t.sheet.canvas[name].canvas


def free_die(t: KingdomTable, value: int) -> int:
    return next(k for k, (v, role, _) in enumerate(dice_roles(t.state, ME)) if v == value and not role)


def do(t: KingdomTable, action: Any) -> None:
    """Play one engine move the way a person would: buttons, dice and hexes."""
    st = t.state
    if isinstance(action, Announce):
        t.terrain_buttons[action.terrain].click()
        t.die_buttons[st.dice.index(action.die)].click()
    elif isinstance(action, Pick):
        t.click_die(free_die(t, action.die))
    elif isinstance(action, Place):
        t.click_hex(action.q, action.r)
    elif isinstance(action, Power):
        (t.plus_button if action.delta > 0 else t.minus_button).click()
    elif isinstance(action, Pass):
        t.pass_button.click()
    elif isinstance(action, Bank):
        t.bank_buttons[action.criterion].click()
    else:
        raise AssertionError(action)


def announce(t: KingdomTable) -> Announce:
    """Announce what the greedy bot would, through the buttons."""
    a = GreedyBot(seed=1).act(t.state, ME)
    assert isinstance(a, Announce)
    do(t, a)
    return a


def play_through(t: KingdomTable, rec: Recorder, spend_powers: bool = True) -> dict[str, list[int]]:
    """Play to the end by clicking (the greedy bot decides); messages sent by each kind of action."""
    per: dict[str, list[int]] = {}
    bot = GreedyBot(seed=1)
    for _ in range(1000):
        st = t.state
        if st.is_terminal():
            break
        rec.clear()
        if not t.confirm_button.disabled:
            t.confirm_button.click()
            kind = "confirm"
        else:
            a = bot.act(st, ME)
            if isinstance(a, Power) and not spend_powers:
                a = next(x for x in st.legal_actions(ME) if isinstance(x, Place | Pass))
            do(t, a)
            kind = type(a).__name__.lower()
        assert t._error is None, (t._error, kind)
        per.setdefault(kind, []).append(rec.count())
    assert t.state.is_terminal()
    return per


def breakdown_rows(t: KingdomTable) -> dict[int, dict[str, Any]]:
    out = {}
    for p, row in re.findall(r"<tr data-player='(\d+)'[^>]*>(.*?)</tr>", t.breakdown.value):
        out[int(p)] = {
            "criteria": {c: int(v) for c, v in re.findall(r"<td data-code='(\w+)'>(-?\d+)</td>", row)},
            "q": int(re.search(r"<td class='sk-q'[^>]*>(-?\d+)</td>", row).group(1)),
            "total": int(re.search(r"<td class='sk-total'>(-?\d+)</td>", row).group(1)),
        }
    return out


# ----- drawing: when, and how many messages ---------------------------------------------------

def test_nothing_is_drawn_before_a_browser_is_ready_and_everything_after(rec):
    t = KingdomTable(code=CODE)
    a = announce(t)
    t.click_hex(*t.state.legal_hexes(ME)[0])
    assert rec.count() == 0, "drawing before any browser is connected is lost (Voila) and wasted"
    t.sheet.canvas.simulate_client_ready()
    assert rec.count() == 1, "a new browser gets the whole map in one message"
    drawn = rec.canvases()
    for name in ("paper", "highlight", "ink"):
        assert layer(t, name).model_id in drawn
    assert t.state.sheets[ME].cells.count(a.terrain) == 1
    t.dice.canvas.simulate_client_ready()
    assert rec.count() == 2 and rec.canvases() == {t.dice.canvas["dice"].canvas.model_id}


def test_each_new_browser_gets_a_full_redraw_with_the_canvas_named_again(rec):
    t = ready_table(rec)
    t.sheet.canvas.simulate_client_ready()
    t.sheet.canvas.simulate_client_ready()
    assert rec.count() == 2
    assert rec.messages[1][0][0] != "?", "each message starts by naming its canvas"
    assert rec.commands(layer(t, "paper"), 1)["strokePolygon"] >= t.state.board.size, "every printed hex outline"


def test_the_sheet_is_drawn_at_twice_its_fixed_css_size():
    t = KingdomTable(code=CODE)
    assert t.scale == 2
    box = t.sheet.box
    assert (t.sheet.widget.width, t.sheet.widget.height) == (round(2 * box.width), round(2 * box.height))
    assert t.sheet.widget.layout.width == f"{box.width:g}px" and t.sheet.widget.layout.height == f"{box.height:g}px"
    assert box.width <= 700 and box.height <= 560, "the map and the side panel fit a 1280×800 window"


def test_announcing_takes_a_terrain_and_a_die_then_highlights_where_to_draw(rec):
    t = ready_table(rec, bots=())
    st = t.state
    uses = st.sheets[ME].uses[2]
    t.terrain_buttons[2].click()
    assert st.phase == "announce" and "Forests chosen — now take a die" in t.status_text
    assert "sk-chosen" in t.terrain_buttons[2]._dom_classes
    assert rec.count() == 0, "choosing a terrain alone changes no canvas"
    die = max(st.dice)
    t.die_buttons[st.dice.index(die)].click()
    assert st.phase == "draw" and st.terrain == 2 and st.sheets[ME].die == die
    assert st.sheets[ME].uses[2] == uses - 1
    assert rec.count() == 1, "the announcement is one canvas message"
    assert layer(t, "highlight").model_id in rec.canvases()
    assert t.status_text.startswith(f"Draw {die} Forest")
    assert all(b.disabled for b in t.terrain_buttons.values())
    assert t.hook_data()["legal"] == [list(h) for h in st.legal_hexes(ME)]


def test_the_die_first_then_the_terrain_also_announces_and_a_dice_canvas_click_works(rec):
    t = ready_table(rec, bots=())
    st = t.state
    t.click_die(0)
    assert "You hold the" in t.status_text and st.phase == "announce"
    t.terrain_buttons[4].click()
    assert st.phase == "draw" and st.terrain == 4 and st.taken == st.dice[0]
    t.dice.canvas.simulate_click(2, 2)      # between the dice: explained, nothing happens
    assert "Click a die" in t.status_text


def test_a_hex_click_draws_it_in_one_message_touching_only_what_changed(rec):
    t = ready_table(rec)
    a = announce(t)
    rec.clear()
    q, r = t.state.legal_hexes(ME)[0]
    t.click_hex(q, r)
    assert rec.count() == 1
    assert t.state.sheets[ME].cells[t.state.board.index[(q, r)]] == a.terrain
    assert layer(t, "paper").model_id not in rec.canvases(), "the printed sheet is never redrawn after a move"
    assert rec.commands(layer(t, "ink"))["clearRect"] <= 2, "only the score zone is cleared, not the map"
    assert rec.commands(layer(t, "highlight"))["fillPolygon"] == len(t.state.legal_hexes(ME))


def test_an_illegal_hex_explains_itself_and_changes_nothing(rec):
    t = ready_table(rec)
    announce(t)
    first = t.state.legal_hexes(ME)[0]
    t.click_hex(*first)
    far = next(h for h in t.state.board.coords if h not in t.state.legal_hexes(ME) and h != first)
    before = t.state.fingerprint()
    rec.clear()
    t.click_hex(*far)
    assert t.state.fingerprint() == before
    assert rec.count() == 0
    assert "touch the group" in t.status_text
    assert "Draw" in t.status_text, "the status line still says what to do"
    t.click_hex(*first)
    assert "already drawn" in t.status_text
    t.sheet.canvas.simulate_click(t.sheet.box.width - 4, 4)       # the score zone's corner
    assert "Click a hex" in t.status_text and "Traceback" not in t.status.value


def test_a_hex_before_announcing_and_confirm_before_the_group_is_complete_are_refused(rec):
    t = ready_table(rec)
    t.click_hex(0, 0)
    assert "First announce a terrain and take a die" in t.status_text
    a = announce(t)
    rec.clear()
    assert t.confirm_button.disabled
    t.confirm_button.click()
    assert "Not yet" in t.status_text and f"Draw {a.die}" in t.status_text
    assert rec.count() == 0


def test_undo_inside_the_turn_takes_hexes_and_the_announcement_back(rec):
    t = ready_table(rec)
    a = announce(t)
    hexes = []
    for _ in range(min(2, a.die)):
        h = t.state.legal_hexes(ME)[0]
        t.click_hex(*h)
        hexes.append(h)
    rec.clear()
    t.undo_button.click()
    assert rec.count() == 1
    cells = t.state.sheets[ME].cells
    assert cells[t.state.board.index[hexes[-1]]] == 0
    assert rec.commands(layer(t, "ink"))["clearRect"] >= 1
    for _ in hexes[:-1]:
        t.undo_button.click()
    t.undo_button.click()                           # the announcement itself
    assert t.state.phase == "announce" and t.state.sheets[ME].uses[a.terrain] == 3
    assert t.status_text.startswith("Choose a terrain")
    assert t.undo_button.disabled


def test_confirm_after_the_last_hex_rolls_the_next_dice_in_one_message(rec):
    t = ready_table(rec, bots=())
    bot = GreedyBot(seed=1)
    do(t, bot.act(t.state, ME))
    while ME in t.state.current_players():
        do(t, bot.act(t.state, ME))
    assert not t.confirm_button.disabled and "Press Confirm" in t.status_text
    assert t.undo_button.disabled is False, "the drawing can still be taken back"
    rec.clear()
    t.confirm_button.click()
    assert rec.count() == 1
    assert t.state.step == 2 and t.state.turn == 1, "solo: the second roll of two dice"
    assert t.status_text.startswith("Pick the die for the amount")
    assert t.confirm_button.disabled and t.undo_button.disabled


def test_solo_pick_buttons_say_what_each_die_would_draw(rec):
    t = ready_table(rec, bots=())
    play_until(t, lambda st: st.solo and st.step == 2 and st.sheets[ME].die is None)
    st = t.state
    labels = [b.description for b in t.die_buttons[:2]]
    assert [label.split(" → ")[0] for label in labels] == [f"Pick {v}" for v in st.dice]
    other_name = TERRAINS[st.dice[1] - 1]
    assert labels[0].endswith(f"→ {st.dice[0]} {other_name.plural if st.dice[0] != 1 else other_name.name}")
    v = st.dice[0]
    other = st.dice[1]
    assert t.die_buttons[0].tooltip.startswith(f"Draw {v} ")
    t.die_buttons[0].click()
    assert st.terrain == other and st.amount(ME) == v
    roles = [role for _, role, _ in dice_roles(st, ME)]
    assert roles == ["mine", "terrain"]


def play_until(t: KingdomTable, done: Any, spend_powers: bool = True, limit: int = 800) -> None:
    bot = GreedyBot(seed=1)
    for _ in range(limit):
        st = t.state
        if done(st) or st.is_terminal():
            return
        if not t.confirm_button.disabled:
            t.confirm_button.click()
            continue
        a = bot.act(st, ME)
        if isinstance(a, Power) and not spend_powers:
            a = next(x for x in st.legal_actions(ME) if isinstance(x, Place | Pass))
        do(t, a)
    raise AssertionError("never got there")


def test_several_powers_at_once_change_the_amount_and_draw_on_the_sheet(rec):
    t = ready_table(rec, bots=())

    def ready_for_two(st: Any) -> bool:
        s = st.sheets[ME]
        return s.available >= 2 and s.amount is not None and not s.placed and s.amount <= 4 and bool(
            st.legal_hexes(ME))

    play_until(t, ready_for_two, spend_powers=False)
    st = t.state
    s = st.sheets[ME]
    amount, spent = s.amount, s.spent
    assert not t.plus_button.disabled
    rec.clear()
    t.plus_button.click()
    t.plus_button.click()
    assert st.sheets[ME].amount == amount + 2 and st.sheets[ME].spent == spent + 2
    assert rec.count() == 2, "each power is one message (the score zone's power boxes)"
    assert "this die +2" in t.powers.value
    assert t.minus_button.disabled, "+1 and -1 together are refused by the engine: Undo instead"
    t.undo_button.click()
    assert st.sheets[ME].amount == amount + 1


def test_a_question_hex_asks_for_a_criterion_and_banks_it(rec):
    t = ready_table(rec, bots=())
    play_until(t, lambda st: any(isinstance(a, Bank) for a in st.legal_actions(ME)))
    st = t.state
    assert t.bank_box.layout.display == "flex"
    assert "Choose a criterion" in t.status_text
    scores = st.criterion_scores(ME)
    code = st.criteria[-1]
    assert t.bank_buttons[code].description.endswith(f"→ {scores[code]}")
    t.bank_buttons[code].click()
    assert st.sheets[ME].banked[-1] == (code, scores[code])
    assert t.bank_box.layout.display == "none" or any(isinstance(a, Bank) for a in st.legal_actions(ME))


def test_as_a_passive_player_you_pick_from_the_dice_the_bot_left(rec):
    t = ready_table(rec, bots=("greedy",))
    play_until(t, lambda st: st.turn == 2)
    st = t.state
    assert st.active == 1 and st.phase == "draw" and st.taken is not None
    roles = dice_roles(st, ME)
    taken = next(k for k, (_, role, _) in enumerate(roles) if role == "taken")
    assert t.die_buttons[taken].disabled and "taken" in t.die_buttons[taken].description
    before = st.fingerprint()
    x, y, w, h = die_rect(taken)
    t.dice.canvas.simulate_click(x + w / 2, y + h / 2)
    assert st.fingerprint() == before and "already taken" in t.status_text
    k = free_die(t, st.dice[(taken + 1) % 3])
    t.die_buttons[k].click()
    assert st.sheets[ME].die == st.dice[k]
    assert st.sheets[1].placed == [], "the bot draws after you press Confirm"


# ----- whole games ----------------------------------------------------------------------------

def test_a_whole_solo_game_by_clicks_ends_with_the_engines_breakdown_and_title(rec):
    t = ready_table(rec, bots=())
    per = play_through(t, rec)
    st = t.state
    assert set(per["place"]) <= {1, 2}, "a hex click: your map in a message of its own, then what else changed"
    assert all(n == 1 for k in ("confirm", "bank", "power") for n in per.get(k, [])), "a button: one message"
    assert all(1 <= n <= 2 for n in per.get("pick", [])), "a click on a die: the dice first, then your map"
    assert set(per.get("pass", [])) <= {0, 1}
    assert set(per["announce"]) <= {1}
    b = st.breakdown(ME)
    rows = breakdown_rows(t)
    assert rows == {0: {"criteria": {c["code"]: c["score"] for c in b["criteria"]}, "q": b["question_total"],
                        "total": b["total"]}}
    assert b["title"] == solo_title(b["total"]) and html.escape(b["title"]) in t.end_summary.value
    assert t.status_text.startswith("Game over")
    assert t.end_box.layout.display == "flex" and t.controls.layout.display == "none"
    assert replay(t.record()).fingerprint() == st.fingerprint()
    assert "class='sk-download'" in t.download.value
    assert "Game over" in t.log.value and "Turn 1" in t.log.value


def test_a_whole_three_player_game_against_bots(rec):
    t = ready_table(rec, bots=("greedy", "random"))
    assert t.state.players == ["You", "Greedy bot", "Random bot"]
    assert t.opponents.widget.layout.display != "none"
    per = play_through(t, rec)
    st = t.state
    assert set(per["place"]) == {1} and set(per["confirm"]) == {1}
    rows = breakdown_rows(t)
    assert {p: r["total"] for p, r in rows.items()} == {p: st.total(p) for p in range(3)}
    assert "Greedy bot:" in t.log.value and "Random bot:" in t.log.value
    assert "sk-me" in t.breakdown.value and "placed" in t.end_summary.value
    assert all(st.sheets[p].drawn for p in (1, 2)), "the bots drew on their own maps"
    assert replay(t.record()).fingerprint() == st.fingerprint()


def test_confirm_lets_the_bots_draw_and_their_small_maps_update_in_the_same_message(rec):
    t = ready_table(rec, bots=("greedy", "random"))
    play_until(t, lambda st: ME not in st.current_players())
    rec.clear()
    t.confirm_button.click()
    assert rec.count() == 1
    assert t.opponents.canvas["ink"].canvas.model_id in rec.canvases()
    assert all(t.state.sheets[p].drawn for p in (1, 2))


def test_play_these_dice_again_gives_the_same_rolls_on_a_blank_map(rec):
    t = ready_table(rec, bots=())
    first = list(t.state.dice)
    play_through(t, rec)
    t.again_button.click()
    assert not t.state.is_terminal() and t.state.dice == first and t.state.game_code() == CODE
    assert not any(t.state.sheets[ME].cells) and t.end_box.layout.display == "none"


# ----- codes, records, errors ------------------------------------------------------------------

def test_play_code_deals_that_code_and_a_bad_code_says_so(rec):
    t = ready_table(rec, code=None)
    t.code_input.value = "km-0000-0001"
    t.play_code_button.click()
    assert t.state.game_code() == "KM-0000-0001" and t.code.value == "KM-0000-0001"
    before = t.state.fingerprint()
    t.code_input.value = "AV-0000-001A"
    t.play_code_button.click()
    assert t.state.fingerprint() == before and "another game" in t.status_text
    t.code_input.value = ""
    t.play_code_button.click()
    assert "Type a game code" in t.status_text


def test_a_variant_code_gets_a_matching_sheet_drawn_for_the_browser(rec):
    t = ready_table(rec)
    old = t.sheet.widget
    t.code_input.value = "KM-0000-0005-PLAIN"
    t.play_code_button.click()
    assert not t.state.params.powers and t.sheet.widget is not old and t.left.children[0] is t.sheet.widget
    assert [k for k, _ in t.sheet.rows_for(t.state)].count("power") == 0
    assert "no ±1 powers" in t.powers.value
    rec.clear()
    t.sheet.canvas.simulate_client_ready()
    assert rec.count() == 1
    t.code_input.value = "KM-0000-0005-GRAND"
    t.play_code_button.click()
    assert len(t.state.criteria) == 12 and [k for k, _ in t.sheet.rows_for(t.state)].count("crit") == 12
    play_through(t, rec)


def test_new_game_keeps_the_bots_and_asks_twice_during_a_game(rec):
    t = ready_table(rec, bots=("greedy",))
    announce(t)
    before = t.state.fingerprint()
    t.new_button.click()
    assert t.state.fingerprint() == before and "press New game again to confirm" in t.status_text
    t.new_button.click()
    assert t.state.players == ["You", "Greedy bot"] and t.state.game_code() != CODE
    assert not any("player" in e for e in t.state.log)


def test_a_three_player_game_is_one_choice_and_new_game_away(rec):
    """Issue: a newcomer starts a 3-player game against bots from the dashboard itself, no link to type."""
    t = ready_table(rec)                               # solo
    assert t.opponents_pick.value == ()
    labels = dict(t.opponents_pick.options)
    assert "vs 2 bots" in [label for label, _ in t.opponents_pick.options]
    t.opponents_pick.value = labels["vs 2 bots"]
    t.new_button.click()
    assert t.state.players == ["You", "Greedy bot", "Random bot"]
    assert t.opponents.widget.layout.display != "none" and t.opponents.players == [1, 2]
    assert t.state.sheets[ME].uses[1:] == [2] * 6       # 2 uses each with 3 players (docs/kingdom_maps.md §Setup)


def saved_record(t: KingdomTable) -> dict[str, Any]:
    t.save_button.click()
    m = re.search(r"<a class='sk-download' download='([^']+)' href='data:application/json;base64,([^']+)'",
                  t.download.value)
    assert m, t.download.value
    assert m.group(1).startswith(f"kingdom-maps-{CODE}") and m.group(1).endswith(".json")
    return json.loads(base64.b64decode(m.group(2)))


def upload(t: KingdomTable, data: bytes) -> None:
    """What the browser sends when a file is chosen in the Load button."""
    t.upload.set_state({"value": [{"name": "game.json", "type": "application/json", "size": len(data),
                                   "content": memoryview(data), "last_modified": 0}]})


def test_save_gives_a_record_that_loads_back_and_plays_on(rec):
    t = ready_table(rec, bots=("greedy",))
    play_until(t, lambda st: st.turn == 3)
    doc = saved_record(t)
    assert replay(doc).fingerprint() == t.state.fingerprint()
    other = ready_table(rec, code="KM-0000-0002", bots=())
    upload(other, dumps(doc).encode())
    assert other.state.fingerprint() == t.state.fingerprint()
    assert other.state.players == ["You", "Greedy bot"] and "Record loaded" in other.status_text
    assert other.upload.value == ()
    play_through(other, rec)
    assert other.state.sheets[1].drawn > t.state.sheets[1].drawn, "the greedy bot keeps playing its seat"


@pytest.mark.parametrize("data, words", [
    (b"{not json", "not valid JSON"),
    (b"\xff\xfe", "not a sheetkit record"),
    (json.dumps({"format": "sheetkit-record"}).encode(), "record"),
    (json.dumps({"format": "sheetkit-record", "version": 1, "game": "avenue", "players": ["You"], "seed": 1,
                 "log": []}).encode(), "this table plays Kingdom Maps"),
])
def test_a_bad_record_says_what_is_wrong_and_keeps_the_game(rec, data, words):
    t = ready_table(rec)
    announce(t)
    before = t.state.fingerprint()
    upload(t, data)
    assert t.state.fingerprint() == before
    assert words.lower() in t.status_text.lower() and "Traceback" not in t.status.value


def test_a_record_with_a_fixed_deal_loads_and_starts_with_its_dice():
    doc = {"format": "sheetkit-record", "version": 1, "game": "kingdom-maps", "params": {}, "players": ["You"],
           "deal": {"criteria": ["A1", "A2", "B1", "B2"], "dice": [3, 5, 2, 4, 1]}, "log": []}
    t = KingdomTable(record=doc)
    assert t.state.criteria == ("A1", "A2", "B1", "B2") and t.state.dice == [3, 5, 2]
    assert t.status_text.startswith("Choose a terrain") and "a fixed deal" in t.code.value


def test_an_unexpected_failure_becomes_a_message_and_the_game_is_kept(rec, monkeypatch):
    t = ready_table(rec)
    announce(t)

    def boom(*_: Any) -> None:
        raise RuntimeError("ink spilled")

    monkeypatch.setattr(t.state, "apply", boom)
    t.click_hex(*t.state.legal_hexes(ME)[0])
    assert "Something went wrong" in t.status_text and "ink spilled" in t.status_text
    assert t.last_error and "RuntimeError" in t.last_error


def test_a_failure_while_drawing_drops_the_half_batch_and_the_next_move_redraws(rec, monkeypatch):
    from sheetkit.widgets.kingdom_maps import art as kingdom_art

    t = ready_table(rec)
    a = announce(t)
    real = kingdom_art.terrain_hex

    def broken(*_: Any, **__: Any) -> None:
        raise RuntimeError("pencil broke")

    monkeypatch.setattr(kingdom_art, "terrain_hex", broken)
    rec.clear()
    t.click_hex(*t.state.legal_hexes(ME)[0])
    assert "pencil broke" in t.status_text and rec.count() == 0
    assert canvas_manager()._caching is False
    monkeypatch.setattr(kingdom_art, "terrain_hex", real)
    if a.die > 1:
        rec.clear()
        t.click_hex(*t.state.legal_hexes(ME)[0])
        assert rec.count() <= 2 and t._error is None
        assert rec.canvases(0) <= {layer(t, name).model_id for name in ("paper", "highlight", "ink")}


# ----- the dashboard link ---------------------------------------------------------------------

def test_the_dashboard_reads_code_and_bots_from_the_query_string(monkeypatch):
    monkeypatch.setenv("QUERY_STRING", f"code={CODE}&bots=greedy,random")
    t = KingdomTable.from_query()
    assert t.state.game_code() == CODE and t.state.players == ["You", "Greedy bot", "Random bot"]


def test_no_link_plays_solo_and_a_bad_link_explains_itself(monkeypatch):
    monkeypatch.delenv("QUERY_STRING", raising=False)
    t = KingdomTable.from_query()
    assert t.state.players == ["You"] and t.state.game_code()
    assert t.opponents.widget.layout.display == "none"
    t = KingdomTable.from_query("code=ZZ-nope&bots=greedy,wizard")
    assert t.state.players == ["You", "Greedy bot"]
    assert "not a game code" in t.status_text and "wizard" in t.status_text
    assert "Choose a terrain" in t.status_text or "Pick" in t.status_text


def test_players_fills_the_other_seats_with_greedy_bots():
    t = KingdomTable(seed=3, players=4, bots=("random",))
    assert t.state.players == ["You", "Random bot", "Greedy bot", "Greedy bot 2"]
    assert t.state.uses_each == 1


# ----- geometry the browser tests use -----------------------------------------------------------

def test_every_hex_click_point_lands_on_that_hex_through_the_canvas_event(rec):
    t = ready_table(rec, bots=())
    a = announce(t)
    legal = t.state.legal_hexes(ME)
    q, r = legal[len(legal) // 2]
    x, y = t.hex_click_point(q, r)              # canvas pixels, as ipycanvas reports clicks
    top = t.sheet.widget[len(t.sheet.canvas.layers) - 1]
    top._handle_frontend_event(None, {"event": "mouse_down", "x": x, "y": y}, [])
    assert t.state.sheets[ME].cells[t.state.board.index[(q, r)]] == a.terrain


def test_the_hook_data_publishes_legal_hexes_and_the_geometry_in_canvas_pixels(rec):
    t = ready_table(rec)
    announce(t)
    data = json.loads(html.unescape(re.search(r'data-state="([^"]*)"', t.hooks.value).group(1)))
    assert data["legal"] == [list(h) for h in t.state.legal_hexes(ME)]
    g = data["geometry"]
    for q, r in t.state.legal_hexes(ME):
        x = g["x0"] + g["size"] * 3 ** 0.5 * (q + r / 2)
        y = g["y0"] + g["size"] * 1.5 * r
        assert t.hex_click_point(q, r) == pytest.approx((x, y))
    assert data["current"] and not data["confirm"] and not data["over"]


def test_a_record_saved_before_confirm_loads_waiting_for_confirm_and_one_at_a_bots_announcement_moves_on(rec):
    t = ready_table(rec, bots=("greedy",))
    play_until(t, lambda st: ME not in st.current_players())
    doc = t.record()
    loaded = KingdomTable(record=doc)
    assert loaded.state.fingerprint() == t.state.fingerprint()
    assert not loaded.confirm_button.disabled and "Press Confirm" in loaded.status_text
    loaded.confirm_button.click()
    assert loaded.state.turn == 2 and loaded.state.active == 1
    assert ME in loaded.state.current_players(), "the bot announced; now you pick"
    t.confirm_button.click()                         # the same game at the first table: the bot announces
    at_bot = t.state.clone()
    at_bot.undo(1)                                   # back to the bot's announcement still to make
    assert at_bot.phase == "announce" and at_bot.active == 1
    moved = KingdomTable(record=at_bot.to_record())
    assert moved.state.phase == "draw" and ME in moved.state.current_players()
    assert moved.status_text.startswith("Pick a die for")


def _click_css(t: KingdomTable, x: float, y: float) -> None:
    t.sheet.canvas.simulate_click(x, y)


def _centre(rect: tuple[float, float, float, float]) -> tuple[float, float]:
    x, y, w, h = rect
    return x + w / 2, y + h / 2


def test_the_lit_criteria_boxes_of_a_question_hex_bank_when_clicked(rec):
    t = ready_table(rec, bots=())
    play_until(t, lambda st: any(isinstance(a, Bank) for a in st.legal_actions(ME)))
    st = t.state
    rows = [rect for kind, rect in t.sheet.rows_for(st) if kind == "crit"]
    code = st.criteria[1]
    score = st.criterion_scores(ME)[code]
    _click_css(t, *_centre(rows[1]))
    assert st.sheets[ME].banked[-1] == (code, score), "the box lit for the ? choice is a button"
    assert "sk-error" not in t.status.value


def test_clicks_beside_the_map_say_what_was_clicked_not_click_a_hex(rec):
    t = ready_table(rec, bots=())
    st = t.state
    before = st.fingerprint()
    _click_css(t, *_centre(t.sheet.box.legend_box(3)))
    assert "terrain strip" in t.status_text and TERRAINS[2].plural in t.status_text
    assert "Click a hex" not in t.status_text
    score = next(rect for kind, rect in t.sheet.rows_for(st) if kind == "total")
    _click_css(t, *_centre(score))
    assert "score zone" in t.status_text and "Click a hex" not in t.status_text
    crit = next(rect for kind, rect in t.sheet.rows_for(st) if kind == "crit")
    _click_css(t, *_centre(crit))
    assert "score zone" in t.status_text, "a criterion box does nothing while no ? waits"
    assert st.fingerprint() == before


def test_refused_hexes_are_explained_without_coordinates_the_map_does_not_show(rec):
    t = ready_table(rec, bots=())
    play_until(t, lambda st: bool(st.sheets[ME].placed) and bool(st.legal_hexes(ME)))
    t.click_hex(*t.state.board.coords[t.state.sheets[ME].placed[0]])
    assert "already drawn" in t.status_text
    assert not re.search(r"\(-?\d+, -?\d+\)", t.status_text), t.status_text


def test_solo_second_drawing_asks_to_touch_the_map_not_an_earlier_turn(rec):
    t = ready_table(rec, bots=())
    play_until(t, lambda st: st.step == 2 and st.sheets[ME].amount is not None and not st.sheets[ME].placed
               and bool(st.legal_hexes(ME)))
    st = t.state
    s = st.sheets[ME]
    legal = set(st.legal_hexes(ME))
    far = next(h for i, h in enumerate(st.board.coords) if not s.cells[i] and h not in legal
               and not any(s.cells[j] for j in st.board.nbrs[i]))
    t.click_hex(*far)
    assert "touch a hex already drawn on your map" in t.status_text
    assert "earlier turn" not in t.status_text


def test_garbage_in_play_code_shows_what_a_kingdom_maps_code_looks_like(rec):
    t = ready_table(rec)
    before = t.state.fingerprint()
    for typed in ("KM-0000-0001-zz_top", "banana", "KM-0000-00!1"):
        t.code_input.value = typed
        t.play_code_button.click()
        assert "a game code looks like KM-0K3M-Q9ZT" in t.status_text, t.status_text
        assert "variant name" not in t.status_text
        assert t.state.fingerprint() == before, "a bad code leaves the game as it was"
