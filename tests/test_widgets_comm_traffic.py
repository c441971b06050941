"""What a click costs on the wire, counted on a recording comm (the kernel side of every widget).

Every widget, and ipycanvas's shared canvas manager, talks through a ``comm``; here each one is a
``RecordingComm`` that keeps every message it would send to the browser. A click must send the
canvas clicked first, in a message of its own (the changed cells only), then at most one more canvas
message for the other canvases that changed, a handful of small text updates, and nothing else.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import comm
import pytest
from comm.base_comm import BaseComm
from sheetkit.widgets import AvenueTable, KingdomTable, canvas_manager

from sheetkit.games.avenue import Draw

SENT: list[dict[str, Any]] = []


class RecordingComm(BaseComm):
    """A comm that records what it would publish: message type, method, and size in bytes."""

    def publish_msg(self, msg_type: str, data: Any = None, metadata: Any = None, buffers: Any = None,
                    **keys: Any) -> None:
        size = len(json.dumps(data, default=str)) + sum(len(memoryview(b).cast("B")) for b in buffers or ())
        method = (data or {}).get("method") if isinstance(data, dict) else None
        first = bytes(memoryview(buffers[0]).cast("B")) if buffers else b""
        SENT.append({"comm": self.comm_id, "type": msg_type, "method": method, "bytes": size, "data": data,
                     "commands": first})


@pytest.fixture
def wire(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, Any]]]:
    monkeypatch.setattr(comm, "create_comm", lambda *a, **kw: RecordingComm(*a, **kw))
    manager = canvas_manager()
    monkeypatch.setattr(manager, "comm", RecordingComm(comm_id=manager.model_id, target_name="jupyter.widget",
                                                       primary=False))
    SENT.clear()
    yield SENT
    SENT.clear()


def canvas_messages(sent: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in sent if m["comm"] == canvas_manager().model_id and m["method"] == "custom"]


def updates(sent: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in sent if m["method"] == "update"]


def drawn_on(message: dict[str, Any]) -> set[str]:
    """The model ids of the canvases a canvas message draws on (its switchCanvas commands)."""
    from ipycanvas.canvas import COMMANDS

    commands = json.loads(message["commands"])
    commands = commands if commands and isinstance(commands[0], list) else [commands]
    return {c[1][0].removeprefix("IPY_MODEL_") for c in commands if c[0] == COMMANDS["switchCanvas"]}


def layer_ids(view: Any) -> set[str]:
    return {layer.canvas.model_id for layer in view.canvas.layers.values()}


def assert_clicked_canvas_first(sent: list[dict[str, Any]], clicked: Any, flips: bool = False) -> list[dict[str, Any]]:
    """The clicked canvas's drawing comes first, on that canvas only (the clicked spot, maybe then the rest of it in
    a second message); at most one canvas message follows for the others (``flips``: the table flips the next card
    at once, so the next card's drawing follows too)."""
    click = canvas_messages(sent)
    mine = 0
    while mine < len(click) and drawn_on(click[mine]) <= layer_ids(clicked):
        mine += 1
    assert 1 <= mine <= (3 if flips else 2), "the canvas clicked first: the spot, then the rest of that canvas"
    assert sent[0] is click[0], "the drawing where the player clicked leaves before anything else"
    assert len(click) - mine <= (2 if flips else 1), "then at most one message for the others"
    if not flips:
        assert all(not drawn_on(m) & layer_ids(clicked) for m in click[mine:]), "the clicked canvas is not drawn again"
    return click


def test_an_avenue_click_sends_one_small_canvas_message_and_a_few_text_updates(wire):
    t = AvenueTable(code="AV-0000-001A", bots=("greedy", "random"))
    wire.clear()
    t.simulate_client_ready()
    full = sum(m["bytes"] for m in canvas_messages(wire))
    assert len(canvas_messages(wire)) == 3            # one full redraw per canvas: sheet, cards, opponents
    wire.clear()
    d = next(a for a in t.state.legal_actions(0) if isinstance(a, Draw))
    t.click_cell(d.row, d.col)
    click = assert_clicked_canvas_first(wire, t.sheet)
    assert len(click) == 3, "your road, the rest of your sheet, then the bots' sheets (they drew on the same card)"
    assert click[0]["bytes"] < 1_000, "your road alone: a few hundred bytes"
    assert sum(m["bytes"] for m in click) < full / 4, "a click sends the changed cells, not the whole sheet again"
    assert 1 <= len(updates(wire)) <= 8, [m["data"]["state"].keys() for m in updates(wire)]
    assert all(m["type"] == "comm_msg" for m in wire), "a click opens or closes no widget"
    assert sum(m["bytes"] for m in wire) < 20_000


def test_next_card_sends_one_canvas_message(wire):
    t = AvenueTable(code="AV-0000-001A", bots=("greedy",))
    t.simulate_client_ready()
    d = next(a for a in t.state.legal_actions(0) if isinstance(a, Draw))
    t.click_cell(d.row, d.col)
    wire.clear()
    t.next_button.click()
    assert 1 <= len(canvas_messages(wire)) <= 2
    assert all(m["type"] == "comm_msg" for m in wire)


def test_a_kingdom_hex_click_sends_one_canvas_message(wire):
    t = KingdomTable(code="KM-0000-0005")
    t.simulate_client_ready()
    announce = next(a for a in t.state.legal_actions(0) if type(a).__name__ == "Announce")
    t._on_terrain(announce.terrain)
    t._on_die(list(t.state.dice).index(announce.die))
    wire.clear()
    q, r = t.state.legal_hexes(0)[0]
    t.click_hex(q, r)
    assert_clicked_canvas_first(wire, t.sheet)
    assert all(m["type"] == "comm_msg" for m in wire)
    assert sum(m["bytes"] for m in wire) < 40_000


def widget_states() -> dict[str, dict[str, Any]]:
    """Every open widget's synced state, by comm id (what the browser holds)."""
    from ipywidgets.widgets.widget import _instances

    return {mid: json.loads(json.dumps(w.get_state(), default=str)) for mid, w in list(_instances.items())}


def changed_keys(before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]]) -> set[tuple[str, str]]:
    return {(mid, k) for mid, st in after.items() if mid in before
            for k, v in st.items() if before[mid].get(k) != v}


def sent_keys(sent: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(m["comm"], k) for m in updates(sent) for k in m["data"]["state"]]


@pytest.mark.parametrize("auto_next", [False, True])
def test_a_click_sends_one_canvas_message_and_one_update_per_widget_that_changed(wire, auto_next):
    t = AvenueTable(code="AV-0000-001A", bots=("greedy",), auto_next=auto_next)
    t.simulate_client_ready()
    for _ in range(3):                        # a few clicks, a round end on the way with auto_next
        before = widget_states()
        wire.clear()
        d = next(a for a in t.state.legal_actions(0) if isinstance(a, Draw))
        t.click_cell(d.row, d.col)
        sent = sent_keys(wire)
        assert_clicked_canvas_first(wire, t.sheet, flips=auto_next)
        assert set(sent) == changed_keys(before, widget_states()), "an update for each change, none for the rest"
        assert len({comm for comm, _ in sent}) == len(updates(wire)), "one update per widget that changed"
        if not auto_next:
            t.next_button.click()


def test_a_button_whose_state_did_not_change_sends_nothing(wire):
    t = AvenueTable(code="AV-0000-001A", bots=("greedy",), auto_next=True)
    t.simulate_client_ready()
    buttons = {b.model_id: name for name, b in (("peek", t.peek_button), ("undo", t.undo_button),
                                                 ("next", t.next_button))}
    d = next(a for a in t.state.legal_actions(0) if isinstance(a, Draw))
    wire.clear()
    t.click_cell(d.row, d.col)                # draws, the bot plays, the next card flips: buttons as before
    assert t.peek_button.disabled is False and t.undo_button.disabled and t.next_button.disabled
    assert [buttons[m["comm"]] for m in updates(wire) if m["comm"] in buttons] == []
    taken = next(i for i, r in enumerate(t.state.sheets[0].roads) if r)
    wire.clear()
    t.click_cell(*divmod(taken, t.state.geo.cols))   # refused (the cell has a road): only the status line
    assert "already has a road" in t.status_text
    assert canvas_messages(wire) == [], "a refused click draws nothing"
    assert [m["comm"] for m in updates(wire)] == [t.status.model_id]


def test_late_in_a_game_a_click_still_sends_only_a_few_kilobytes(wire):
    """The log box shows a few lines: a click in the last round re-sends the latest 30 lines, not the whole game."""
    t = AvenueTable(code="AV-0000-001A", bots=("greedy",), auto_next=True)
    t.simulate_client_ready()
    while t.state.round < t.state.params.rounds:         # into the last round: the log holds the whole game
        d = next(a for a in t.state.legal_actions(0) if isinstance(a, Draw))
        t.click_cell(d.row, d.col)
    assert not t.state.is_terminal()
    wire.clear()
    d = next(a for a in t.state.legal_actions(0) if isinstance(a, Draw))
    t.click_cell(d.row, d.col)
    from sheetkit.widgets.avenue import text as words

    log_update = [m for m in updates(wire) if m["comm"] == t.log.model_id]
    assert log_update and t.log.value.count("<div") <= 30
    whole = words.log_html(t.state, 0, limit=10_000)
    assert whole.count("<div") > 30 and len(whole) > len(t.log.value), "the game's log is longer than what is sent"
    assert sum(m["bytes"] for m in wire) < 10_000, [(m["method"], m["bytes"]) for m in wire]


def test_a_key_harvest_harvest_sends_one_update_per_widget_that_changed(wire):
    """The Harvest button changes its state, label, tip and look at once: one update, not four."""
    from sheetkit.widgets import KeyHarvestTable

    from sheetkit.games.key_harvest import Harvest

    t = KeyHarvestTable(code="KH-0000-0001", bots=("greedy", "greedy"))
    t.simulate_client_ready()
    before = widget_states()
    wire.clear()
    t.click_space(next(a for a in t.state.legal_actions(0) if isinstance(a, Harvest)).code)
    assert_clicked_canvas_first(wire, t.board)
    sent = sent_keys(wire)
    assert set(sent) == changed_keys(before, widget_states())
    per_widget = [m["comm"] for m in updates(wire)]
    assert len(per_widget) == len(set(per_widget)), "a widget sent more than one update for one click"


@pytest.mark.parametrize("make", ["avenue", "key-harvest"])
def test_the_status_line_is_the_last_update_of_a_move(wire, make):
    """Whoever waits for the status line to change (a player, a browser test) finds the rest already updated."""
    from sheetkit.widgets import KeyHarvestTable

    from sheetkit.games.key_harvest import Harvest

    if make == "avenue":
        t = AvenueTable(code="AV-0000-001A", bots=("greedy",))
        t.simulate_client_ready()
        wire.clear()
        t.peek_button.click()
    else:
        t = KeyHarvestTable(code="KH-0000-0001", bots=("greedy", "greedy"))
        t.simulate_client_ready()
        wire.clear()
        t.click_space(next(a for a in t.state.legal_actions(0) if isinstance(a, Harvest)).code)
    sent = [m["comm"] for m in updates(wire)]
    assert len(sent) >= 3 and sent[-1] == t.status.model_id, "the status line must come last"


def test_the_status_line_is_the_last_update_of_a_refused_move_too(wire):
    """A refusal re-renders the text (the hidden state for drivers moves on): its error comes last as well, so
    a test or driver that waits for the error reads the rest already up to date."""
    t = KingdomTable(code="KM-0000-0005")
    t.simulate_client_ready()
    hooks = t.hooks.value
    wire.clear()
    t.click_hex(0, 0)                             # before announcing: refused in words
    assert "First announce a terrain" in t.status_text
    sent = [m["comm"] for m in updates(wire)]
    assert t.hooks.value != hooks and t.hooks.model_id in sent, "the hidden state moved on with the refusal"
    assert sent[-1] == t.status.model_id, "the status line must come last"


def focus_messages(sent: list[dict[str, Any]]) -> list[str]:
    """The widgets told to take the keyboard focus (ipywidgets' ``focus()``: a custom ``do: focus`` message)."""
    return [m["comm"] for m in sent if m["method"] == "custom" and (m["data"] or {}).get("content") == {"do": "focus"}]


def test_after_next_card_the_focus_goes_to_the_sheet_and_a_click_sends_none(wire):
    """Next card turns disabled once pressed, and the browser drops the focus to the page: the table hands it to
    the sheet, where the next move is (and where ipycanvas would otherwise move it at the next mousedown)."""
    t = AvenueTable(code="AV-0000-001A", bots=("greedy",))
    t.simulate_client_ready()
    d = next(a for a in t.state.legal_actions(0) if isinstance(a, Draw))
    wire.clear()
    t.click_cell(d.row, d.col)
    assert focus_messages(wire) == [], "a click on the sheet: the browser focused it already"
    wire.clear()
    t.next_button.click()
    assert t.next_button.disabled
    top = t.sheet.canvas.layers["print"].canvas
    assert focus_messages(wire) == [top.model_id], "the sheet's canvas that takes the clicks gets the focus"
    assert wire[-1]["method"] == "custom" and (wire[-1]["data"] or {}).get("content") == {"do": "focus"}, \
        "after the table's updates"


def test_after_end_turn_the_focus_goes_to_the_board_where_your_next_turn_starts(wire):
    """End turn stays enabled (a turn may be passed at once), so the browser keeps the focus on it; the bots move
    and your next turn starts with a harvest on your board, so the table hands the focus there. A press that
    does not end the turn (choosing an action) leaves the focus where it is."""
    from sheetkit.widgets import KeyHarvestTable

    from sheetkit.games.key_harvest import Harvest

    t = KeyHarvestTable(code="KH-0000-0001", bots=("greedy", "greedy"))
    t.simulate_client_ready()
    wire.clear()
    t.action_buttons["bid"].click()
    assert focus_messages(wire) == [], "choosing an action is not a new turn"
    t.action_buttons["bid"].click()
    t.click_space(next(a for a in t.state.legal_actions(0) if isinstance(a, Harvest)).code)
    assert focus_messages(wire) == [], "a click on the board: the browser focused it already"
    turn = t.state.turn
    wire.clear()
    t.end_turn_button.click()
    assert t.state.turn > turn and t.state.current_players() == [0] and not t.end_turn_button.disabled
    assert any(isinstance(a, Harvest) for a in t.state.legal_actions(0)), "this deal offers a harvest next turn"
    top = t.board.canvas.layers[list(t.board.canvas.layers)[-1]].canvas
    assert focus_messages(wire) == [top.model_id], "the board's canvas that takes the clicks gets the focus"
    assert wire[-1]["method"] == "custom" and (wire[-1]["data"] or {}).get("content") == {"do": "focus"}, \
        "after the table's updates"


def _end_turns_until_a_decision(t: Any) -> None:
    """Harvest when you can and end the turn, until a turn of yours starts with a decision to make."""
    from sheetkit.games.key_harvest import Harvest

    for _ in range(60):
        st = t.state
        assert not st.is_terminal() and st.current_players() == [0]
        harvests = [a for a in st.legal_actions(0) if isinstance(a, Harvest)]
        if harvests and "harvest" not in st.turn_actions:
            t.click_space(harvests[0].code)
            continue
        t.wire.clear()
        t.end_turn_button.click()
        if t.state.pending is not None:
            return
    raise AssertionError("no turn of yours started with a decision")


@pytest.mark.parametrize(("code", "kind", "where"), [("KH-0000-0002", "pass", "board"),
                                                     ("KH-0000-0011", "sale", "town"),
                                                     ("KH-0000-0005", "give", "button")])
def test_a_turn_that_starts_with_a_decision_hands_the_focus_to_where_it_is_answered(wire, code, kind, where):
    """An event's decision at the start of your turn disables End turn: the focus goes to where the decision is
    answered (your board, the town, or the first of its buttons), not to the page; once a button answers it (the
    buttons go away), the focus goes on to where the turn goes on."""
    from sheetkit.widgets import KeyHarvestTable

    t = KeyHarvestTable(code=code, bots=("greedy", "greedy"))
    t.simulate_client_ready()
    t.wire = wire
    _end_turns_until_a_decision(t)
    assert t.state.pending.kind == kind and t.end_turn_button.disabled
    target = {"board": lambda: t.board.canvas.layers[list(t.board.canvas.layers)[-1]].canvas,
              "town": lambda: t.town.canvas.layers[list(t.town.canvas.layers)[-1]].canvas,
              "button": lambda: t.choice_box.children[0]}[where]()
    assert focus_messages(wire) == [target.model_id]
    if where == "button":               # the market: give a crop, then take one for it, then harvest
        for _ in range(3):
            wire.clear()
            first = t.choice_box.children[0]
            first.click()
            assert first.comm is None, "the decision's buttons went away"
            if t.state.pending is None:
                break
            assert focus_messages(wire) == [t.choice_box.children[0].model_id], "the next decision's first button"
        assert t.state.pending is None and t._next_click_view() is t.board, "this deal offers a harvest next"
        top = t.board.canvas.layers[list(t.board.canvas.layers)[-1]].canvas
        assert focus_messages(wire) == [top.model_id], "the decision answered, your board is next"
