"""The Key Harvest table driven like a user would: clicks on the board, the registry and the stores, buttons.

Each test acts through the table's own handlers (simulated canvas clicks and button clicks) and then
asks the engine what happened, so a handler that sends the wrong move — or none — fails.
"""

from __future__ import annotations

import base64
import html
import json
import re
from typing import Any

import ipywidgets as W
import pytest
from sheetkit.widgets import KeyHarvestTable
from sheetkit.widgets.key_harvest import text as words
from sheetkit.widgets.table_base import strip_tags

from sheetkit.core.records import dumps, replay
from sheetkit.games.key_harvest import (
    BOTS,
    CROPS,
    WORKERS,
    Bid,
    Buy,
    Choose,
    EndTurn,
    Harvest,
    PlaceWorker,
    RemoveWorker,
)

CODE = "KH-0000-0001"


def ready(**kw: Any) -> KeyHarvestTable:
    kw.setdefault("code", CODE)
    t = KeyHarvestTable(**kw)
    t.simulate_client_ready()
    return t


def choice_button(t: KeyHarvestTable, value: str) -> Any:
    return next(b for b in t.choice_box.children if f"sk-choice-{value}" in b._dom_classes)


def do(t: KeyHarvestTable, action: Any) -> None:
    """Play one engine move the way a person would: board and town clicks, buttons, the bid composer."""
    st = t.state
    if isinstance(action, Harvest):
        t.click_space(action.code)
    elif isinstance(action, PlaceWorker):
        t.action_buttons["worker"].click()
        if WORKERS[action.worker].townsfolk:
            t.click_town("townsfolk", action.worker)       # a townsfolk can be picked on the town board
        else:
            t.worker_buttons[action.worker].click()
        t.click_space(action.code)
    elif isinstance(action, RemoveWorker):
        t.action_buttons["worker"].click()
        t.click_space(action.code)
    elif isinstance(action, Buy):
        owner = next(o for o, s in enumerate(st.stores) if any(c == action.code for c, *_ in s))
        t.click_town("store", str(owner), action.code)
    elif isinstance(action, Bid):
        t.click_town("registry", action.code)
        compose(t, action.counters)
        t.confirm_bid.click()
    elif isinstance(action, EndTurn):
        t.end_turn_button.click()
    elif isinstance(action, Choose) and action.counters is not None:
        t.click_town("registry", action.value)
        compose(t, action.counters)
        t.confirm_bid.click()
    elif isinstance(action, Choose):
        choice_button(t, action.value).click()
    else:
        raise AssertionError(f"no way to play {action!r}")


def compose(t: KeyHarvestTable, counters: Any) -> None:
    for c, n in enumerate(counters):
        for _ in range(n):
            t.crop_buttons[c].click()


def my_up_tile(t: KeyHarvestTable) -> str:
    return next(c for c, side in t.state.boards[0].items() if side == "up")


def error_text(t: KeyHarvestTable) -> str:
    m = re.search(r"<span class='sk-error'>(.*?)</span>", t.status.value)
    return html.unescape(m.group(1)) if m else ""


# ----- board clicks ----------------------------------------------------------------------------------

def test_clicking_your_unharvested_tile_harvests_its_whole_group_and_logs_it():
    t = ready()
    st = t.state
    assert st.current_players() == [0]
    code = my_up_tile(t)
    group = next(g for g in st.harvestable_groups(0) if code in g)
    before = sum(st.counters[0])
    t.click_space(code)
    assert all(st.boards[0][c] == "harvested" for c in group)
    assert st.turn_actions == ["harvest"]
    assert sum(st.counters[0]) == before + len(group)
    assert error_text(t) == ""
    assert "You harvested" in strip_tags(t.log.value)
    assert t.action_buttons["harvest"].disabled and "✓" in t.action_buttons["harvest"].description


def test_harvest_mode_tints_the_groups_a_harvest_would_flip():
    t = ready()
    t.action_buttons["harvest"].click()
    drawn_legal, drawn_group, _ = t.board._lit      # what the highlight layer shows
    assert sorted(drawn_group) == sorted(c for g in t.state.harvestable_groups(0) for c in g)
    assert drawn_legal == ()
    assert "Click one of your unharvested tiles" in t.status_text


def test_illegal_clicks_explain_themselves_and_change_nothing():
    t = ready()
    st = t.state
    empty = next(c for c in t.hook_data()["board"] if c not in st.boards[0] and c not in st.workers_on[0])
    before = st.fingerprint()
    t.click_space(empty)
    assert "is an empty space" in error_text(t)
    assert st.fingerprint() == before
    code = my_up_tile(t)
    t.click_space(code)                       # harvest: fine
    t.click_space(code)                       # now harvested: explained
    assert "harvested already" in error_text(t)
    t.board.canvas.simulate_click(2, 2)       # the corner: no space there
    assert "Click a space of your board" in error_text(t)
    assert t.status_text.startswith("⚠") is False and "Click a space" in t.status_text


def test_buy_is_refused_after_a_bid_in_the_same_turn_with_the_engines_reason():
    t = ready()
    st = t.state
    reg = st.registry[0]
    crop = next(c for c in range(5) if st.counters[0][c])
    t.click_town("registry", reg)
    t.crop_buttons[crop].click()
    t.confirm_bid.click()
    assert st.turn_actions == ["bid"]
    assert t.action_buttons["buy"].disabled
    assert "cannot take tiles from stores after bidding" in t.action_buttons["buy"].tooltip
    t.action_buttons["buy"].click()
    assert "Buy is not possible now" in error_text(t)
    assert "after bidding" in strip_tags(t.why.value)


def test_two_different_actions_then_only_end_turn():
    t = ready()
    st = t.state
    t.click_space(my_up_tile(t))
    reg = st.registry[0]
    crop = next(c for c in range(5) if st.counters[0][c])
    t.click_town("registry", reg)
    t.crop_buttons[crop].click()
    t.confirm_bid.click()
    assert st.turn_actions == ["harvest", "bid"]
    assert t.action_buttons["worker"].disabled and t.action_buttons["harvest"].disabled
    assert not t.end_turn_button.disabled
    assert "End turn" in t.status_text


# ----- the bid composer ------------------------------------------------------------------------------

def test_the_bid_composer_builds_a_multiset_from_your_screen_and_confirms_it():
    t = ready()
    st = t.state
    mine = st.counters[0]
    reg = st.registry[1]
    t.confirm_bid.click()
    assert "First click a registry tile" in error_text(t)
    t.click_town("registry", reg)
    assert t.status_text.startswith(f"Your bid for {reg}")
    assert not t.confirm_bid.layout.display == "none" and t.confirm_bid.disabled
    crop = next(c for c in range(5) if mine[c])
    for _ in range(mine[crop]):
        t.crop_buttons[crop].click()
    t.crop_buttons[crop].click()              # one more than you have
    assert f"only {mine[crop]} {CROPS[crop]}" in error_text(t)
    assert f"{mine[crop]} {CROPS[crop]}" in strip_tags(t.bid_line.value)
    t.clear_bid.click()
    assert t.composer.bid == [0, 0, 0, 0, 0] and "nothing yet" in strip_tags(t.bid_line.value)
    t.crop_buttons[crop].click()
    t.confirm_bid.click()
    bid = tuple(1 if c == crop else 0 for c in range(5))
    assert [(c, b) for c, b, _ in st.stores[0]] == [(reg, bid)]
    assert st.counters[0][crop] == mine[crop] - 1
    assert reg not in st.registry
    assert "You bid 1" in strip_tags(t.log.value)


def test_buying_a_bots_store_tile_pays_the_bot_its_bid():
    t = ready()
    st = t.state
    me = BOTS["greedy"](seed=2)
    for _ in range(400):     # play on until a bot's store holds a tile you can pay for
        buys = [a for a in st.legal_actions(0) if isinstance(a, Buy)
                and any(c == a.code for o in range(1, st.num_players) for c, *_ in st.stores[o])]
        if buys:
            break
        do(t, me.act(st, 0))
    else:
        pytest.fail("no bot store tile became affordable")
    code = buys[0].code
    owner = next(o for o in range(1, st.num_players) if any(c == code for c, *_ in st.stores[o]))
    bid = next(b for c, b, _ in st.stores[owner] if c == code)
    assert code in t.hook_data()["buy"]
    mine, theirs = st.counters[0], st.counters[owner]
    t.click_town("store", str(owner), code)
    assert error_text(t) == ""
    assert code in st.boards[0]
    assert st.counters[owner] == tuple(x + 2 * b for x, b in zip(theirs, bid, strict=True)), \
        "the owner keeps the bid and gets the payment"
    assert st.counters[0] == tuple(x - b for x, b in zip(mine, bid, strict=True))
    line = f"You bought {code} from {st.players[owner]}'s store for {words.pay_words(bid)}"
    assert line in html.unescape(strip_tags(t.log.value))


# ----- workers and pending decisions ------------------------------------------------------------------

def test_a_worker_goes_on_a_tinted_space_and_its_crop_choice_is_a_button():
    t = ready()
    st = t.state
    t.action_buttons["worker"].click()
    assert "h1a" in t.worker_buttons
    t.worker_buttons["h1a"].click()
    legal, _ = t._targets()
    assert legal == st.legal_spaces(0, "h1a") and legal
    bad = next(c for c in t.hook_data()["board"] if c not in legal and c not in st.boards[0])
    t.click_space(bad)
    assert error_text(t), "a space the Gleaner may not use is explained"
    t.click_space(legal[0])
    assert st.workers_on[0] == {legal[0]: "h1a"}
    assert st.pending is not None and st.pending.kind == "crop"
    assert t.status_text.startswith("Gleaner: choose a crop")
    crop = CROPS[0]
    before = st.counters[0][0]
    choice_button(t, crop).click()
    assert st.counters[0][0] == before + 1 and st.pending is None


def test_undo_takes_back_your_move():
    t = ready()
    st = t.state
    code = my_up_tile(t)
    t.click_space(code)
    assert not t.undo_button.disabled
    t.undo_button.click()
    assert st.boards[0][code] == "up" and st.turn_actions == []


# ----- bots, stepping, pass-and-play ----------------------------------------------------------------

def test_next_step_shows_one_bot_move_at_a_time_when_auto_is_off():
    t = ready(auto=False)
    st = t.state
    while st.current_players() != [0]:   # the deal may start with a bot: step until you
        t.next_button.click()
    t.end_turn_button.click()
    assert st.current_players() != [0]
    assert "press Next step" in t.status_text
    n = len(st.log)
    t.next_button.click()
    bot_moves = [e for e in st.log[n:] if "player" in e]
    assert len(bot_moves) == 1
    t.auto.value = True
    assert st.current_players() == [0] or st.is_terminal()


def test_pass_and_play_hides_the_screen_until_the_next_person_is_ready():
    t = ready(code=None, seed=11, humans=["Ann", "Bob"], bots=())
    st = t.state
    assert st.players == ["Ann", "Bob"]
    assert t.bots == {}, "nobody is played by a bot"
    first = st.current_players()[0]
    assert t._handoff == first, "even the first person says they are at the screen before it opens"
    t.ready_button.click()
    p = t.viewer
    t.end_turn_button.click()
    other = 1 - p
    assert t._handoff == other
    assert "Pass the screen to" in t.status_text
    assert all(b.layout.display == "none" for b in t.crop_buttons), "the counters are hidden"
    assert "Screen closed" in t.screen_words.value
    assert t.hook_data()["counters"] is None
    t.click_space(next(iter(st.boards[other])))
    assert "first pass the screen" in error_text(t).lower()
    t.ready_button.click()
    assert t.viewer == other and t._handoff is None
    mine = st.counters[other]
    assert [b.description for b in t.crop_buttons] == [f"{CROPS[c]} {mine[c]}" for c in range(5)]
    title = "BOB'S COUNTRY BOARD" if other == 1 else "ANN'S COUNTRY BOARD"
    assert title in json.dumps(t.board._drawn)


def test_a_whole_game_against_bots_through_clicks_ends_with_the_breakdown_and_a_replayable_record():
    t = ready()
    st = t.state
    me = BOTS["greedy"](seed=5)
    kinds: set[str] = set()
    for _ in range(2000):
        if st.is_terminal():
            break
        assert st.current_players() == [0], "the table waits only for you"
        action = me.act(st, 0)
        kinds.add(type(action).__name__)
        n = len(st.log)
        do(t, action)
        assert error_text(t) == "", (action, error_text(t))
        assert st.log[n].get("action") == action.to_json(), f"{action} was played as {st.log[n]}"
    assert st.is_terminal()
    assert {"Harvest", "Bid", "EndTurn"} <= kinds
    assert t.status_text.startswith("Game over")
    assert t.end_box.layout.display == "flex"
    rows = re.findall(r"<td class='sk-total(?: sk-me)?' data-player='(\d)'>(\d+)</td>", t.breakdown.value)
    assert [(int(p), int(v)) for p, v in rows] == [(p, st.total(p)) for p in range(st.num_players)]
    again = replay(json.loads(dumps(t.record())))
    assert again.fingerprint() == st.fingerprint()
    log = strip_tags(t.log.value)
    assert "Greedy bot" in log and "Game over" in log


def test_save_makes_a_download_of_the_record_and_load_restores_the_game():
    t = ready()
    t.click_space(my_up_tile(t))
    t.end_turn_button.click()
    t.save_button.click()
    m = re.search(r"download='([^']+)' href='data:application/json;base64,([^']+)'", t.download.value)
    assert m and m.group(1).startswith(f"key-harvest-{CODE}-turn")
    data = base64.b64decode(m.group(2))
    record = json.loads(data)
    assert record["game"] == "key-harvest" and record["players"] == ["You", "Greedy bot", "Greedy bot 2"]
    t2 = ready(code=None, seed=99)
    t2._load(data)
    assert t2.state.fingerprint() == t.state.fingerprint()
    assert "Record loaded" in t2.status_text
    assert t2.hook_data()["mine"] == (t.state.current_players() == [0])


def test_a_game_needs_two_players_so_a_lone_player_gets_a_bot():
    t = ready(code=None, seed=3, bots=())
    assert t.state.num_players == 2 and t.state.players[1] == "Greedy bot"


@pytest.mark.parametrize("kind", words.ACTION_KINDS)
def test_each_action_button_explains_itself_when_it_is_not_your_turn(kind: str):
    t = ready(auto=False)
    while t.state.current_players() == [0]:
        t.end_turn_button.click()
    t.action_buttons[kind].click()
    assert error_text(t).startswith("Wait: Greedy bot is to act — press Next step")


def test_the_land_sale_is_paid_through_the_bid_composer():
    t = ready()
    st = t.state
    # the Land sale event asks you (test setup: the decision is queued the way the event queues it)
    st.counters[0] = (1, 1, 1, 0, 0)
    st.queue.insert(0, {"player": 0, "kind": "sale", "source": "land_sale"})
    t._render([], full=True)
    assert t.status_text.startswith("Land sale")
    assert [b.description for b in t.choice_box.children] == ["Decline"]
    code = st.registry[0]
    t.click_town("registry", code)
    assert t.confirm_bid.description == "Confirm payment"
    assert t.status_text.startswith(f"Land sale: pay 3 counters for {code} — click 3 more"), "the status moves on"
    for c in (0, 1):
        t.crop_buttons[c].click()
    assert "click 1 more" in t.status_text
    t.confirm_bid.click()                      # 2 counters: not one of the choices
    assert "not one of the choices" in error_text(t) and code in st.registry
    t.crop_buttons[2].click()
    t.confirm_bid.click()
    assert st.boards[0][code] == "up" and st.counters[0] == (0, 0, 0, 0, 0) and st.pending is None


def test_a_link_with_people_seats_them_for_pass_and_play():
    t = KeyHarvestTable.from_query("code=KH-0000-0005&people=Ann,Bob&bots=none")
    assert t.state.players == ["Ann", "Bob"] and t.bots == {}
    t2 = KeyHarvestTable.from_query("code=KH-0000-0005&people=Ann,Bob,Cy&bots=greedy")
    assert t2.state.players == ["Ann", "Bob", "Cy", "Greedy bot"] and list(t2.bots) == [3]


def test_while_the_screen_is_passed_only_the_ready_button_is_offered():
    t = ready(code=None, seed=11, humans=["Ann", "Bob"], bots=())
    if t._handoff is None:
        t.end_turn_button.click()
    assert t._handoff is not None
    assert t.actions.layout.display == "none" and t.handoff.layout.display == "flex"
    assert t.ready_button.description == f"I am {t.state.players[t._handoff]} — show my screen"
    t.ready_button.click()
    assert t.actions.layout.display == "flex" and t.handoff.layout.display == "none"


def test_the_turn_summary_says_what_the_bots_did_since_your_last_turn():
    t = ready()
    st = t.state
    t.end_turn_button.click()
    assert st.current_players() == [0]
    ends = [i for i, j in enumerate(st.journal) if j["what"] == "end-turn"]
    mine = max(i for i in ends if st.journal[i]["player"] == 0)
    bots = [st.journal[i]["player"] for i in ends if i > mine]
    text = t.summary.value
    assert text.startswith("Since your last turn: ")
    for p in bots:
        assert f"{st.players[p]}:" in html.unescape(text)
    t.click_space(my_up_tile(t))
    assert t.summary.layout.display == "none", "the summary gives way once you act"


# ----- what goes to the browser -----------------------------------------------------------------------

def test_nothing_is_drawn_before_a_browser_and_each_click_is_one_canvas_message(monkeypatch):
    from canvas_recorder import Recorder

    rec = Recorder(monkeypatch)
    t = KeyHarvestTable(code=CODE)
    assert rec.count() == 0, "drawing before any browser is connected is lost (Voila) and wasted"
    t.simulate_client_ready()
    assert rec.count() == 3, "a new browser gets each canvas (board, town, others' boards) in one message"
    rec.clear()
    t.click_space(my_up_tile(t))
    assert rec.count() == 1, "a harvest is one canvas message"
    assert t.board.canvas["tiles"].canvas.model_id in rec.canvases()
    assert t.board.canvas["paper"].canvas.model_id not in rec.canvases(), "the printed board is never redrawn"
    rec.clear()
    crop = next(c for c in range(5) if t.state.counters[0][c])
    t.click_town("registry", t.state.registry[0])
    assert rec.count() == 1 and rec.canvases() == {t.town.canvas["lit"].canvas.model_id}, \
        "choosing a tile to bid for moves its ring only (the tiles, townsfolk and stores stay)"
    rec.clear()
    t.crop_buttons[crop].click()
    assert rec.count() == 0, "adding a counter to the bid changes no canvas"
    t.confirm_bid.click()
    rec.clear()
    t.end_turn_button.click()                  # the bots play their turns: still one message
    assert rec.count() == 1


# ----- issue #15 part 4: found by playing to the end --------------------------------------------------------------

def log_rows(t: KeyHarvestTable) -> list[tuple[str, str]]:
    return [(k, html.unescape(v)) for k, v in re.findall(r"<div class='sk-log-(\w+)'>(.*?)</div>", t.log.value)]


def test_your_turn_in_progress_heads_the_log_with_its_newest_line_first():
    t = ready()
    st = t.state
    t.click_space(my_up_tile(t))
    crop = next(c for c in range(5) if st.counters[0][c])
    t.click_town("registry", st.registry[0])
    t.crop_buttons[crop].click()
    t.confirm_bid.click()
    rows = log_rows(t)
    assert rows[0] == ("now", "Your turn, so far:")
    assert rows[1][1].startswith("You bid ") and rows[2][1].startswith("You harvested "), rows[:3]
    t.end_turn_button.click()                  # the bots play; your new turn has no moves yet
    rows = log_rows(t)
    assert rows[0][0] in ("now", "endturn") and rows[1][0] != "endturn"


def test_choosing_a_registry_tile_brings_your_counters_into_view(monkeypatch):
    """On a phone the town lies far below your counters: the first counter you can add takes the focus, which
    scrolls it into view (the browser test checks the scrolling at 390 px)."""
    focused: list[Any] = []
    monkeypatch.setattr(W.Button, "focus", lambda self: focused.append(self))
    t = ready()
    st = t.state
    t.click_town("registry", st.registry[0])
    first = next(b for c, b in enumerate(t.crop_buttons) if st.counters[0][c])
    assert focused == [first] and not first.disabled
    assert "then Confirm bid" in t.status_text and "below" not in t.status_text


def test_picking_a_worker_brings_your_board_into_view(monkeypatch):
    """The next step after picking a worker is a tinted space of your board (far above the picker on a phone)."""
    t = ready()
    focused: list[Any] = []
    monkeypatch.setattr(type(t.board.canvas), "focus", lambda self: focused.append(self))
    t.action_buttons["worker"].click()
    t.worker_buttons["h1a"].click()
    assert focused == [t.board.canvas]
    assert "sk-picked" in t.worker_box._dom_classes, "on a phone the list folds to the picked worker (KH_CSS)"
    t.worker_buttons["h1a"].click()                  # a second press puts it back: the whole list again
    assert t.composer.worker is None and "sk-picked" not in t.worker_box._dom_classes
    assert t.status_text.startswith("Choose a worker")


def test_the_screen_invites_a_bid_only_while_a_bid_is_allowed():
    t = ready()
    st = t.state
    assert "click a registry tile to bid" in t.screen_words.value
    t.click_space(my_up_tile(t))
    while words.may_reason(st, 0, "bid") is None:       # bid until the turn allows no more (tiles or counters)
        crop = next(c for c in range(5) if st.counters[0][c])
        t.click_town("registry", st.registry[0])
        t.crop_buttons[crop].click()
        t.confirm_bid.click()
        if words.may_reason(st, 0, "bid") is None:
            assert "Next: Bid for a second tile" in t.status_text, t.status_text
    assert "bid" in st.turn_actions
    assert "click a registry tile to bid" not in t.screen_words.value


def test_the_worker_picker_says_what_each_worker_does_and_greys_the_ones_you_cannot_play():
    t = ready()
    st = t.state
    t.action_buttons["worker"].click()
    assert set(t.worker_buttons) == set(st.workers_available(0))
    unfit = 0
    for wid, b in t.worker_buttons.items():
        w = WORKERS[wid]
        says = html.unescape(t._worker_says[wid].value)
        assert w.action[1:] in says, (wid, says)          # on the page, not only in a tooltip
        if st.legal_spaces(0, wid):
            assert not b.disabled and "sk-unfit" not in b._dom_classes and says.endswith("now).")
        else:
            unfit += 1
            assert b.disabled and "sk-unfit" in b._dom_classes and b.button_style == "", wid
            assert says.endswith("(not now).")
    assert unfit, "at the start no townsfolk fits a two-tile board"
    assert "Dashed: fits no space" in t.worker_note.value and t.worker_note.layout.display is None


def test_pass_and_play_names_nobodys_store_yours_while_the_screen_is_passed(monkeypatch):
    from canvas_recorder import Recorder

    rec = Recorder(monkeypatch)
    t = ready(code=None, seed=11, humans=["Ann", "Bob"], bots=())
    st = t.state
    assert t._handoff == st.current_players()[0] and all(b.layout.display == "none" for b in t.crop_buttons), \
        "the first person's counters wait for their “I am ready”, as everyone's do"
    t.ready_button.click()
    rec.clear()
    t.end_turn_button.click()
    assert t._handoff is not None
    drawn = [a[0] for m in rec.drawn for cid, name, a in m
             if name == "fillText" and cid == t.town.canvas["ink"].canvas.model_id]
    assert "Ann's store" in drawn and "Bob's store" in drawn, drawn
    assert not any("(yours)" in text for text in drawn), drawn
    rec.clear()
    t.ready_button.click()
    drawn = [a[0] for m in rec.drawn for cid, name, a in m if name == "fillText"]
    assert f"{st.players[t.viewer]}'s store (yours)" in drawn


def test_a_panel_following_turns_hears_of_every_turn():
    """The groups panel once showed the starting tiles at turn 7: a turn that passes without a registry refill
    (an End turn with the registry full) told the panels nothing."""
    from sheetkit.widgets import live

    from sheetkit.analysis.key_harvest import group_rows

    t = ready()
    st = t.state
    panel = live(t, lambda s: ",".join(str(g.tiles) for g in group_rows(s)), events=("turn",), defer=False)
    me = BOTS["greedy"](seed=5)
    checked = 0
    while not st.is_terminal():
        do(t, me.act(st, 0))
        if st.current_players() == [0] and not st.turn_actions and st.pending is None:
            assert panel.children[-1].value == ",".join(str(g.tiles) for g in group_rows(st)), f"turn {st.turn}"
            checked += 1
    assert checked > 10


def test_widgets_that_never_change_their_layout_or_style_share_one_that_refuses_a_change():
    """Each Layout and style is a model the page loads: plain words and buttons share theirs (a crop button keeps its
    own colour), and a shared one refuses a change, which would move or hide every widget sharing it."""
    t = ready()
    assert t.status.layout is t.info.layout is t.log.layout
    assert t.status.style is t.why.style is t.log.style
    assert t.end_turn_button.style is t.undo_button.style is t.new_button.style
    assert len({id(b.style) for b in t.crop_buttons}) == len(CROPS)
    with pytest.raises(AttributeError, match="shared"):
        t.status.layout.display = "none"
    with pytest.raises(AttributeError, match="shared"):
        t.undo_button.style.button_color = "red"
    assert t.status.layout.display is None and t.undo_button.style.button_color is None
