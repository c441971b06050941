"""The Avenue table driven like a user would: clicks on the sheet canvas, buttons, uploads.

Every canvas message goes through ipycanvas's one shared manager; ``Recorder`` counts what it
sends, and which canvases and drawing commands each message holds.
"""

from __future__ import annotations

import base64
import json
import re
from typing import Any

import pytest
from canvas_recorder import Recorder
from sheetkit.widgets import AvenueTable, canvas_manager

from sheetkit.core.records import dumps, replay
from sheetkit.games.avenue import Draw, GreedyBot, Peek, new_game
from sheetkit.games.avenue.titles import title_for

CODE = "AV-0000-001A"


def ready_table(rec: Recorder, **kw: Any) -> AvenueTable:
    kw.setdefault("code", CODE)
    kw.setdefault("bots", ("greedy",))
    t = AvenueTable(**kw)
    t.simulate_client_ready()
    rec.clear()
    return t


def first_free(t: AvenueTable) -> tuple[int, int]:
    d = next(a for a in t.state.legal_actions(0) if isinstance(a, Draw))
    return d.row, d.col


def layer(t: AvenueTable, name: str) -> Any:
    return t.sheet.canvas[name].canvas


# ----- drawing: when, and how many messages ---------------------------------------------------

def test_nothing_is_drawn_before_a_browser_is_ready_and_everything_after(rec):
    t = AvenueTable(code=CODE, bots=("greedy",))
    t.click_cell(*first_free(t))
    t.next_button.click()
    assert rec.count() == 0, "drawing before any browser is connected is lost (Voila) and wasted"
    t.sheet.canvas.simulate_client_ready()
    assert rec.count() == 1, "a new browser gets the whole sheet in one message"
    drawn = rec.canvases()
    for name in ("paper", "print", "ink", "highlight"):
        assert layer(t, name).model_id in drawn
    assert rec.commands(layer(t, "ink"))["stroke"] == 1, "the road drawn before the browser came is drawn now"


def test_each_new_browser_gets_a_full_redraw_with_the_canvas_named_again(rec):
    t = ready_table(rec)
    t.sheet.canvas.simulate_client_ready()
    t.sheet.canvas.simulate_client_ready()
    assert rec.count() == 2
    first = rec.messages[1]
    assert first[0][0] != "?", "each message starts by naming its canvas (a new browser has none selected)"


def test_a_click_draws_the_road_in_one_message_touching_only_what_changed(rec):
    t = ready_table(rec)
    r, c = first_free(t)
    number = t.state.card.number
    t.click_cell(r, c)
    assert rec.count() == 3, "your road, the rest of your sheet, then the bot's sheet"
    assert rec.canvases(0) == {layer(t, "ink").model_id}, "your road leaves first, in a message of its own"
    assert rec.canvases(1) == {layer(t, "ink").model_id}, "then the legal cells' tints go"
    assert t.state.sheets[0].roads[r * 6 + c] == number
    assert layer(t, "paper").model_id not in rec.canvases(None), "the printed sheet is never redrawn after a move"
    assert layer(t, "print").model_id not in rec.canvases(None)
    assert rec.commands(layer(t, "ink"), 0)["stroke"] == 2, "the new road and its last-move corners"
    assert rec.commands(layer(t, "ink"), 1)["stroke"] == 0, "no other road is inked"
    assert "You drew road" in t.status_text


def test_next_card_is_one_message_and_shows_the_new_card(rec):
    t = ready_table(rec)
    t.click_cell(*first_free(t))
    rec.clear()
    t.next_button.click()
    assert rec.count() == 1
    assert t.cards.canvas["cards"].canvas.model_id in rec.canvases()
    assert t.status_text.startswith("Draw road")
    assert rec.commands(layer(t, "ink"))["stroke"] == 0, "no road is redrawn when a card flips"


def test_illegal_click_explains_itself_and_changes_nothing(rec):
    t = ready_table(rec)
    r, c = first_free(t)
    t.click_cell(r, c)
    t.next_button.click()
    rec.clear()
    before = t.state.fingerprint()
    t.click_cell(r, c)                       # that cell has a road now
    assert t.state.fingerprint() == before
    assert rec.count() == 0
    assert "already has a road" in t.status_text
    assert "Draw road" in t.status_text, "the status line still says what to do"
    assert "Traceback" not in t.status.value


def test_clicks_outside_the_grid_and_acting_twice_are_refused_in_words(rec):
    t = ready_table(rec)
    t.sheet.canvas.simulate_click(t.sheet.box.width - 5, 5)       # the score column's corner
    assert "inside the grid" in t.status_text
    free = [(a.row, a.col) for a in t.state.legal_actions(0) if isinstance(a, Draw)]
    t.click_cell(*free[0])
    before = t.state.fingerprint()
    t.click_cell(*free[1])
    assert t.state.fingerprint() == before
    assert "Next card" in t.status_text
    t.peek_button.click()
    assert t.state.fingerprint() == before
    assert rec.count() == 3, "only the legal move drew anything (your road, the rest of your sheet, the bot's sheet)"


def test_next_card_before_acting_says_what_to_do_first(rec):
    t = ready_table(rec)
    before = t.state.fingerprint()
    assert t.next_button.disabled
    t.next_button.click()
    assert t.state.fingerprint() == before
    assert "First draw road" in t.status_text
    assert rec.count() == 0


def test_undo_takes_the_road_back_in_one_message(rec):
    t = ready_table(rec)
    r, c = first_free(t)
    t.click_cell(r, c)
    assert not t.undo_button.disabled
    rec.clear()
    t.undo_button.click()
    assert rec.count() == 1
    assert t.state.sheets[0].roads[r * 6 + c] == 0
    ink = rec.commands(layer(t, "ink"))
    assert ink["clearRect"] >= 1 and ink["stroke"] == 0
    assert t.status_text.startswith("Draw road")
    assert t.undo_button.disabled


def test_peek_shows_the_next_farm_to_you_only_once_per_round(rec):
    t = ready_table(rec)
    nxt = t.state.farm_deck.peek()
    t.peek_button.click()
    assert rec.count() == 1
    assert t.state.peeked[0]
    assert f"next farm is {nxt}" in t.peek_info.value
    assert t.peek_button.disabled
    t.next_button.click()
    assert Peek() not in t.state.legal_actions(0) and t.peek_button.disabled
    assert "or Peek" not in t.status_text


def test_bots_act_on_the_same_card_after_you_and_their_sheets_update_right_after_yours(rec):
    t = ready_table(rec, bots=("greedy", "random"))
    t.click_cell(*first_free(t))
    assert rec.count() == 3, "your road, the rest of your sheet, the bots' sheets"
    assert all(a is not None for a in t.state.acted)
    opp_ink = t.opponents.canvas["ink"].canvas
    drew = sum(isinstance(a, Draw) for a in t.state.acted[1:])
    assert opp_ink.model_id not in rec.canvases(0) | rec.canvases(1), "your road does not wait for the bots"
    assert rec.commands(opp_ink, 2)["stroke"] == drew
    assert "Greedy bot:" in t.log.value and "Random bot:" in t.log.value


def test_auto_next_flips_the_next_card_right_after_your_move(rec):
    t = ready_table(rec, auto_next=True)
    t.click_cell(*first_free(t))
    assert rec.count() == 4, ("your road; the rest of your sheet; then your sheet for the new card; then the card "
                              "and the bot's sheet")
    assert rec.commands(layer(t, "ink"), 0)["stroke"] == 2 and rec.canvases(0) == {layer(t, "ink").model_id}
    assert t.cards.canvas["cards"].canvas.model_id in rec.canvases(3)
    assert t.state.phase == "act" and t.state.acted[0] is None
    assert t.status_text.startswith("Draw road")


# ----- a whole game ---------------------------------------------------------------------------

def play_through(t: AvenueTable, rec: Recorder) -> list[tuple[str, int]]:
    """Play to the end by clicking; returns (what was done, the canvas messages it sent) for each action."""
    per_action = []
    bot = GreedyBot()
    for _ in range(200):
        if t.state.is_terminal():
            break
        rec.clear()
        if t.state.is_chance_node():
            t.next_button.click()
            kind = "next"
        else:
            act = bot.act(t.state, 0)
            if isinstance(act, Draw):
                t.click_cell(act.row, act.col)
                kind = "draw"
            else:
                t.peek_button.click()
                kind = "peek"
        per_action.append((kind, rec.count()))
    return per_action


def breakdown_totals(t: AvenueTable) -> dict[int, int]:
    rows = re.findall(r"<tr data-player='(\d+)'[^>]*>(.*?)</tr>", t.breakdown.value)
    return {int(p): int(re.search(r"<td class='sk-total'>(-?\d+)</td>", row).group(1)) for p, row in rows}


def test_a_whole_game_through_the_widget_ends_with_the_engines_breakdown(rec):
    t = ready_table(rec, bots=("greedy",))
    per_action = play_through(t, rec)
    st = t.state
    assert st.is_terminal()
    assert {n for kind, n in per_action if kind != "draw"} == {1}, "every Next card and Peek: one canvas message"
    assert {n for kind, n in per_action if kind == "draw"} == {3}, "each road: yours, your sheet, the bot's"
    assert breakdown_totals(t) == {p: st.breakdown(p)["total"] for p in range(st.num_players)}
    assert t.end_box.layout.display == "flex" and t.play_column.layout.display == "none"
    assert t.status_text.startswith("Game over")
    for p in range(st.num_players):
        for box in st.breakdown(p)["farms"]:
            assert f"<small>{box['farm']}</small> {box['box']}" in t.breakdown.value
    # the same game, replayed from the engine's own record, ends the same
    assert replay(t.record()).fingerprint() == st.fingerprint()
    assert "a.sk-download" not in t.download.value and "class='sk-download'" in t.download.value


def test_a_whole_solo_game_shows_your_total_and_title(rec):
    t = ready_table(rec, bots=())
    play_through(t, rec)
    assert breakdown_totals(t) == {0: t.state.total(0)}
    assert f"Your title: <b>{title_for(t.state.total(0))}</b>" in t.end_summary.value
    assert "Title table" in t.end_summary.value and "provisional" not in t.end_summary.value
    assert t.opponents.widget.layout.display == "none"


def test_play_this_deal_again_deals_the_same_cards_on_a_clean_sheet(rec):
    t = ready_table(rec)
    first_card = t.state.card
    play_through(t, rec)
    t.again_button.click()
    assert not t.state.is_terminal() and t.state.card == first_card
    assert t.state.game_code() == CODE
    assert sum(t.state.sheets[0].roads) == 0
    assert t.end_box.layout.display == "none"


# ----- codes, records, errors ------------------------------------------------------------------

def test_play_code_deals_that_code_and_a_bad_code_says_so(rec):
    t = ready_table(rec, code=None)
    t.code_input.value = "av-0000-0001"
    t.play_code_button.click()
    assert t.state.game_code() == "AV-0000-0001"
    assert t.code.value == "AV-0000-0001"
    before = t.state.fingerprint()
    t.code_input.value = "hello"
    t.play_code_button.click()
    assert t.state.fingerprint() == before
    assert "is not a game code" in t.status_text
    t.code_input.value = ""
    t.play_code_button.click()
    assert "Type a game code" in t.status_text


def test_new_game_keeps_the_bots_and_deals_fresh_cards(rec):
    t = ready_table(rec, bots=("greedy", "random"))
    t.new_button.click()
    assert t.state.players == ["You", "Greedy bot", "Random bot"]
    assert t.state.game_code() != CODE
    assert t.status_text.startswith("Draw road")


def test_new_game_plays_against_the_bots_chosen_beside_it(rec):
    t = ready_table(rec, bots=("greedy", "random"))
    assert t.opponents_pick.value == ("greedy", "random")      # preselected: the table's own bots
    t.opponents_pick.value = ()
    t.new_button.click()
    assert t.state.players == ["You"] and t.opponents.widget.layout.display == "none"
    assert t.status_text.startswith("Draw road")


def saved_record(t: AvenueTable) -> dict[str, Any]:
    t.save_button.click()
    m = re.search(r"<a class='sk-download' download='([^']+)' href='data:application/json;base64,([^']+)'",
                  t.download.value)
    assert m, t.download.value
    assert m.group(1).endswith(".json") and CODE in m.group(1)
    return json.loads(base64.b64decode(m.group(2)))


def upload(t: AvenueTable, data: bytes) -> None:
    """What the browser sends when a file is chosen in the Load button."""
    t.upload.set_state({"value": [{"name": "game.json", "type": "application/json", "size": len(data),
                                   "content": memoryview(data), "last_modified": 0}]})


def test_save_gives_a_record_that_loads_back_to_the_same_game(rec):
    t = ready_table(rec, bots=("greedy",))
    for _ in range(3):
        t.click_cell(*first_free(t))
        t.next_button.click()
    doc = saved_record(t)
    assert replay(doc).fingerprint() == t.state.fingerprint()
    other = ready_table(rec, code="AV-0000-0002", bots=("random",))
    upload(other, dumps(doc).encode())
    assert other.state.fingerprint() == t.state.fingerprint()
    assert other.state.players == ["You", "Greedy bot"]
    assert "Record loaded" in other.status_text
    assert other.upload.value == ()
    other.click_cell(*first_free(other))                      # and play on from there
    assert other.state.acted[1] is not None, "the greedy bot keeps playing its seat"


@pytest.mark.parametrize("data, words", [
    (b"{not json", "Not valid JSON"),
    (b"\xff\xfe", "not a sheetkit record"),
    (json.dumps({"format": "sheetkit-record"}).encode(), "Record: missing field 'version'"),
])
def test_a_bad_record_says_what_is_wrong_and_keeps_the_game(rec, data, words):
    t = ready_table(rec)
    t.click_cell(*first_free(t))
    before = t.state.fingerprint()
    upload(t, data)
    assert t.state.fingerprint() == before
    assert words in t.status_text
    assert "Traceback" not in t.status.value


def test_a_record_whose_moves_break_the_rules_is_refused():
    game = new_game(["You"], code=CODE)
    game.apply_chance()
    game.apply_chance()
    game.apply(0, Draw(0, 0))
    doc = game.to_record()
    doc["log"].append({"player": 0, "action": {"type": "draw", "row": 0, "col": 0}})
    t = AvenueTable(code=CODE, bots=())
    before = t.state.fingerprint()
    upload(t, json.dumps(doc).encode())
    assert t.state.fingerprint() == before
    assert "cannot do that" in t.status_text


def test_an_unexpected_failure_becomes_a_message_and_the_game_is_kept(rec, monkeypatch):
    t = ready_table(rec)

    def boom(*_: Any) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(t.state, "apply", boom)
    t.click_cell(*first_free(t))
    assert "Something went wrong" in t.status_text and "disk on fire" in t.status_text
    assert t.last_error and "RuntimeError" in t.last_error


# ----- the dashboard link ---------------------------------------------------------------------

def test_the_dashboard_reads_code_and_bots_from_the_query_string(monkeypatch):
    monkeypatch.setenv("QUERY_STRING", f"code={CODE}&bots=greedy,random")
    t = AvenueTable.from_query()
    assert t.state.game_code() == CODE
    assert t.state.players == ["You", "Greedy bot", "Random bot"]
    assert t.status_text.startswith("Draw road")


def test_a_link_without_a_code_deals_fresh_and_a_bad_link_explains_itself(monkeypatch):
    monkeypatch.delenv("QUERY_STRING", raising=False)
    t = AvenueTable.from_query()
    assert t.state.game_code() and t.state.players == ["You", "Greedy bot"]
    t = AvenueTable.from_query("code=ZZ-nope&bots=greedy,wizard")
    assert t.state.players == ["You", "Greedy bot"]
    assert "not a game code" in t.status_text and "wizard" in t.status_text
    assert "Draw road" in t.status_text
    solo = AvenueTable.from_query("bots=none")
    assert solo.state.players == ["You"]


# ----- geometry the browser tests use ---------------------------------------------------------

def test_the_click_point_of_each_cell_lands_on_that_cell_through_the_canvas_event(rec):
    t = ready_table(rec, bots=())
    assert t.scale == 2
    assert t.sheet.widget.width == 2 * t.sheet.box.width
    assert t.sheet.widget.layout.width == f"{t.sheet.box.width:g}px"
    r, c = 4, 3
    x, y = t.cell_click_point(r, c)          # canvas pixels, as ipycanvas reports clicks
    top = t.sheet.widget[len(t.sheet.canvas.layers) - 1]
    top._handle_frontend_event(None, {"event": "mouse_down", "x": x, "y": y}, [])
    assert t.state.acted[0] == Draw(r, c)


def test_a_variant_code_with_fewer_rounds_gets_a_matching_sheet_drawn_for_the_browser(rec):
    t = ready_table(rec)
    old_sheet = t.sheet.widget
    t.code_input.value = "AV-0000-001A-SHORT"
    t.play_code_button.click()
    assert t.state.params.rounds == 3
    assert t.sheet.widget is not old_sheet and t.left.children[0] is t.sheet.widget   # the one shown
    assert [k for k, _ in t.sheet.box.score_rows(3)].count("farm") == 3
    rec.clear()
    t.sheet.canvas.simulate_client_ready()
    assert rec.count() == 1
    play_through(t, rec)
    assert t.state.is_terminal() and len(t.state.boxes[0]) == 3


def test_a_failure_while_drawing_drops_the_half_batch_and_the_next_move_redraws_cleanly(rec, monkeypatch):
    from sheetkit.widgets.avenue import art as avenue_art

    t = ready_table(rec)
    real_road = avenue_art.road

    def broken(*a: Any, **k: Any) -> None:
        raise RuntimeError("pencil broke")

    monkeypatch.setattr(avenue_art, "road", broken)
    t.click_cell(*first_free(t))
    assert "pencil broke" in t.status_text
    assert rec.count() == 0, "nothing half-drawn is sent"
    assert canvas_manager()._caching is False and canvas_manager()._commands_cache == []
    monkeypatch.setattr(avenue_art, "road", real_road)
    t.next_button.click()
    assert rec.count() == 1
    assert rec.commands(layer(t, "ink"))["stroke"] == 1, "the road that failed to draw is drawn now"


def test_new_game_during_a_game_asks_for_a_second_press_so_a_slip_loses_nothing(rec):
    t = ready_table(rec)
    t.click_cell(*first_free(t))
    before = t.state.fingerprint()
    t.new_button.click()
    assert t.state.fingerprint() == before
    assert "press New game again to confirm" in t.status_text
    t.next_button.click()                        # doing anything else cancels the question
    t.new_button.click()
    assert "again to confirm" in t.status_text and t.state.round_farms
    t.new_button.click()
    assert t.state.game_code() != CODE and not any("player" in e for e in t.state.log)
    t.click_cell(*first_free(t))
    t.code_input.value = "AV-0000-0007"
    t.play_code_button.click()
    assert "Playing AV-0000-0007 ends the game in progress" in t.status_text
    t.play_code_button.click()
    assert t.state.game_code() == "AV-0000-0007"


def highlight_fills(monkeypatch: pytest.MonkeyPatch, t: AvenueTable) -> list[Any]:
    """The fill colours set on the sheet's highlight layer, in every canvas message from now on."""
    from ipycanvas.canvas import _CMD_LIST, Canvas

    target, fills = layer(t, "highlight").model_id, []
    manager = canvas_manager()
    original = manager._send_custom

    def send(command: Any, buffers: Any = None) -> Any:
        current = None
        for c in command if command and isinstance(command[0], list) else [command]:
            name = _CMD_LIST[c[0]]
            if name == "switchCanvas":
                current = c[1][0].replace("IPY_MODEL_", "")
            elif name == "set" and current == target and c[1][0] == Canvas.ATTRS["fill_style"]:
                fills.append(c[1][1])
        return original(command, buffers or [])

    monkeypatch.setattr(manager, "_send_custom", send)
    return fills


def test_the_road_table_highlights_the_face_up_road_in_its_card_colour(rec, monkeypatch):
    from sheetkit.widgets.avenue.sheet import ROAD_GREY, ROAD_YELLOW

    t = ready_table(rec, bots=())
    fills = highlight_fills(monkeypatch, t)
    seen = set()
    while len(seen) < 2 and not t.state.is_terminal():
        t.click_cell(*first_free(t))
        fills.clear()
        t.next_button.click()
        card = t.state.card
        if card is None or card.yellow in seen:
            continue
        seen.add(card.yellow)
        want, other = (ROAD_YELLOW, ROAD_GREY) if card.yellow else (ROAD_GREY, ROAD_YELLOW)
        assert want in fills and other not in fills, (card, fills)
    assert seen == {True, False}, "the deal shows both a grey and a yellow card"


# ----- legal cells: a second cue beside the soft tint -------------------------------------------

def _luminance(colour: str) -> float:
    """WCAG relative luminance of '#RRGGBB'."""
    def lin(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def _over(rgba: str, paper: str) -> str:
    """An 'rgba(r, g, b, a)' tint composited on paper, as '#RRGGBB'."""
    *rgb, a = (float(v) for v in re.findall(r"[\d.]+", rgba))
    base = (int(paper[i:i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(a * c + (1 - a) * p):02X}" for c, p in zip(rgb, base, strict=True))


def _contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_legal_cells_stand_out_by_more_than_a_shade_even_in_greyscale():
    from sheetkit.widgets import theme

    legal, network = _over(theme.LEGAL, theme.PAPER), _over(theme.NETWORK, theme.PAPER)
    assert _contrast(legal, theme.PAPER) < 1.2, "the tint alone is the faint shade the issue measured"
    for ground in (theme.PAPER, legal, network):
        assert _contrast(theme.LEGAL_EDGE, ground) >= 3.0, ground


def test_every_legal_cell_gets_its_outline_and_it_goes_once_you_have_drawn(rec):
    t = AvenueTable(code=CODE, bots=("greedy",))
    t.sheet.canvas.simulate_client_ready()
    legal = [a for a in t.state.legal_actions(0) if isinstance(a, Draw)]
    assert rec.commands(layer(t, "ink"))["strokeRect"] == len(legal) > 0
    rec.clear()
    t.click_cell(legal[0].row, legal[0].col)
    assert rec.commands(layer(t, "ink"))["strokeRect"] == 0
    t.sheet.canvas.simulate_client_ready()
    assert rec.commands(layer(t, "ink"))["strokeRect"] == 0, "no outline while you wait for Next card"
    rec.clear()
    t.next_button.click()
    assert rec.commands(layer(t, "ink"))["strokeRect"] == len(t.state.legal_actions(0)) - (Peek() in
                                                                                          t.state.legal_actions(0))
