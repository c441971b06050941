"""A slow bot never freezes the table: it thinks on a worker thread, the status line says so, clicks meanwhile are
refused politely and change nothing, and its move is applied on the kernel's thread once it is ready.

The slow bot is tests/slow_bots.py (greedy, slowed down, ``slow = True`` as the expert bots declare), registered
in the game's BOTS for the test only.
"""

from __future__ import annotations

import asyncio
import html
import json
import re
import threading

import slow_bots
from sheetkit.widgets.avenue.table import AvenueTable
from sheetkit.widgets.key_harvest.table import KeyHarvestTable
from sheetkit.widgets.kingdom_maps.table import KingdomTable

from sheetkit.core.play import bot_seed
from sheetkit.games import avenue, key_harvest, kingdom_maps
from sheetkit.games.avenue import Draw


def _hooks(t: KeyHarvestTable) -> dict:
    """The hidden state the page publishes for drivers."""
    return json.loads(html.unescape(re.search(r'data-state="([^"]*)"', t.hooks.value).group(1)))


def _first_draw(t: AvenueTable) -> Draw:
    return next(a for a in t.state.legal_actions(0) if isinstance(a, Draw))


def test_avenue_slow_bot_thinks_while_the_table_stays_live(monkeypatch):
    """Your road shows at once; "Slow bot is thinking…"; Next card and another cell are refused; then its road."""
    gate = threading.Event()
    slow = slow_bots.register(avenue.BOTS, avenue.GreedyBot, monkeypatch, gate=gate)
    t = AvenueTable(bots=("slow",), seed=3)
    assert t.state.players == ["You", "Slow bot"]
    assert t.bot_thinking is None and t.status_text.startswith("Draw road")
    mine = _first_draw(t)
    t.click_cell(mine.row, mine.col)                    # returns while the bot still thinks
    assert slow.started.wait(5)
    assert t.bot_thinking == "Slow bot"
    assert "Slow bot is thinking…" in t.status_text
    assert t.state.sheets[0].roads[mine.row * t.state.geo.cols + mine.col]     # your road is in
    log = list(t.state.log)

    t.next_button.click()                               # refused, politely
    assert "Not yet: wait for the bot's move. Slow bot is thinking…" in t.status_text
    other = next(a for a in t.state.legal_actions(0) if isinstance(a, Draw)) if t.state.legal_actions(0) else mine
    t.click_cell(other.row, other.col)
    assert t.state.log == log and t.bot_thinking == "Slow bot"
    assert "Traceback" not in t.status_text

    gate.set()
    t.wait_for_bots()
    assert t.bot_thinking is None
    assert "thinking" not in t.status_text and "Next card" in t.status_text
    last = t.state.log[-1]
    assert last["player"] == 1 and len(t.state.log) == len(log) + 1
    # the move is the greedy bot's with the table's seed for seat 1, on the same game
    twin = t.state.clone()
    twin.undo(1)
    assert avenue.GreedyBot(seed=bot_seed(3, 1)).act(twin, 1).to_json() == last["action"]
    assert slow.threads and all(name != threading.main_thread().name for name in slow.threads)
    t.next_button.click()                               # and the table goes on
    assert t.status_text.startswith("Draw road")


def test_fast_bots_still_move_at_once():
    """The greedy bot is not slow: its move is made within your click, no thread, nothing to wait for."""
    t = AvenueTable(bots=("greedy",), seed=3)
    mine = _first_draw(t)
    t.click_cell(mine.row, mine.col)
    assert t.bot_thinking is None
    assert t.state.log[-1]["player"] == 1 and "Next card" in t.status_text


def test_a_new_game_while_the_bot_thinks_drops_its_move(monkeypatch):
    """New game (pressed twice) is not refused: the old game's thought is dropped, never applied to the new one."""
    gate = threading.Event()
    slow_bots.register(avenue.BOTS, avenue.GreedyBot, monkeypatch, gate=gate)
    t = AvenueTable(bots=("slow",), seed=3)
    mine = _first_draw(t)
    t.click_cell(mine.row, mine.col)
    assert t.bot_thinking == "Slow bot"
    t.opponents_pick.value = ("slow",)
    t.new_button.click()
    t.new_button.click()
    assert t.bot_thinking is None
    fresh = t.state
    gate.set()
    t.wait_for_bots()
    assert t.state is fresh and not any("player" in e for e in fresh.log)


def test_the_kernels_event_loop_applies_the_move_on_its_own_thread(monkeypatch):
    """In a kernel (an asyncio loop is running) nobody waits: the worker hands the move to the loop's thread."""
    slow_bots.register(avenue.BOTS, avenue.GreedyBot, monkeypatch, delay=0.2)
    applied_on: list[int] = []

    loop_thread: list[int] = []

    async def play() -> AvenueTable:
        loop_thread.append(threading.get_ident())
        t = AvenueTable(bots=("slow",), seed=5)
        t.on_change(lambda event: applied_on.append(threading.get_ident()) if event == "move" else None)
        mine = _first_draw(t)
        t.click_cell(mine.row, mine.col)
        assert t.bot_thinking == "Slow bot"
        for _ in range(200):
            await asyncio.sleep(0.05)
            if t.bot_thinking is None:
                break
        return t

    # A thread of its own stands for the kernel: the browser tests' Playwright keeps a loop running on this one.
    done: list[AvenueTable] = []
    kernel = threading.Thread(target=lambda: done.append(asyncio.run(play())))
    kernel.start()
    kernel.join(30)
    t = done[0]
    assert t.bot_thinking is None and t.state.log[-1]["player"] == 1
    assert applied_on and set(applied_on) == set(loop_thread), "the move is applied on the loop's thread only"


def test_key_harvest_slow_bot_thinks_on_its_turn_and_your_buttons_wait(monkeypatch):
    """Key Harvest: whenever the slow bot's turn comes, it thinks off the click path; End turn waits for it."""
    gate = threading.Event()
    slow = slow_bots.register(key_harvest.BOTS, key_harvest.GreedyBot, monkeypatch, gate=gate)
    t = KeyHarvestTable(bots=("slow",), seed=2)
    for _ in range(3):                                   # your turns until the bot's comes
        if t.bot_thinking is not None:
            break
        t.end_turn_button.click()
    assert t.bot_thinking == "Slow bot" and slow.started.wait(5)
    assert "Slow bot is thinking…" in t.status_text
    assert _hooks(t)["thinking"] == "Slow bot"            # drivers of the page see it too
    log = list(t.state.log)
    t.end_turn_button.click()
    assert t.state.log == log and "Not yet: wait for the bot's move. Slow bot is thinking…" in t.status_text
    gate.set()
    t.wait_for_bots()
    assert t.bot_thinking is None and len(t.state.log) > len(log) and _hooks(t)["thinking"] is None
    assert any(e.get("player") == 1 for e in t.state.log[len(log):])
    assert t.state.is_terminal() or 0 in t.state.current_players()


def test_kingdom_maps_slow_bot_draws_all_its_hexes_off_the_click_path(monkeypatch):
    """Kingdom Maps: after your Confirm the slow bot draws move by move on the worker, then the next roll comes."""
    slow = slow_bots.register(kingdom_maps.BOTS, kingdom_maps.GreedyBot, monkeypatch, delay=0.0)
    t = KingdomTable(bots=("slow",), seed=4)
    t.wait_for_bots()
    turn = t.state.turn
    for _ in range(40):                                  # play your turn with the engine's first legal moves
        if t.state.turn != turn or t.bot_thinking is not None:
            break
        if 0 in t.state.current_players() and not kingdom_text_awaiting(t):
            t.state.apply(0, t.state.legal_actions(0)[0])
            t._render(["move"])
        else:
            t.confirm_button.click()
    t.wait_for_bots()
    assert t.bot_thinking is None
    assert any(e.get("player") == 1 for e in t.state.log)
    assert slow.threads and threading.main_thread().name not in slow.threads
    assert t.state.is_terminal() or 0 in t.state.current_players()


def kingdom_text_awaiting(t: KingdomTable) -> bool:
    """True when your drawing is done and the table waits for Confirm."""
    from sheetkit.widgets.kingdom_maps import text

    return text.awaiting_confirm(t.state, 0)


def test_the_result_code_is_worked_out_off_the_click_path_with_a_slow_bot(monkeypatch):
    """At the end the code replays the slow bot's game: "working it out…" at once, the code after, worked out on a
    worker thread (no loop runs here, so it shows only once the test takes it)."""
    from sheetkit.analysis.results import ClassDeal, read_result_code

    slow = slow_bots.register(avenue.BOTS, avenue.GreedyBot, monkeypatch, delay=0.0)
    t = AvenueTable(bots=("slow",), seed=8)
    for _ in range(200):
        if t.state.is_terminal():
            break
        if t.state.is_chance_node():
            t.next_button.click()
        else:
            legal = [a for a in t.state.legal_actions(0) if isinstance(a, Draw)]
            t.click_cell(legal[0].row, legal[0].col) if legal else t.next_button.click()
        if t.state.is_terminal():
            break
        t.wait_for_bots()
    assert t.state.is_terminal()
    assert "working it out" in t.result_code.value
    t.wait_for_bots()
    assert "Result code:" in t.result_code.value, t.result_code.value
    code = re.search(r"<code[^>]*>([^<]+)</code>", t.result_code.value).group(1)
    got = read_result_code(code, ClassDeal(t.state.game_code(), ("slow",)))
    assert got.score == t.state.scores()[0]
    assert "sheetkit-avenue-code" in slow.threads


def test_key_harvest_step_by_step_a_slow_bots_move_is_one_step(monkeypatch):
    """With Auto off, the slow bot waits for Next step, then thinks off the click path and makes one move only."""
    slow = slow_bots.register(key_harvest.BOTS, key_harvest.GreedyBot, monkeypatch, delay=0.0)
    t = KeyHarvestTable(bots=("slow",), seed=2, auto=False)
    for _ in range(3):
        if 1 in t.state.current_players():
            break
        t.end_turn_button.click()
    assert 1 in t.state.current_players()
    assert t.bot_thinking is None and not slow.threads          # waiting for Next step, not thinking
    moves = sum("player" in e for e in t.state.log)
    t.next_button.click()
    assert t.bot_thinking == "Slow bot"
    t.wait_for_bots()
    assert sum("player" in e for e in t.state.log) == moves + 1
    assert t.bot_thinking is None and len(slow.threads) == 1
