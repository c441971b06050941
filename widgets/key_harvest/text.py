"""Key Harvest's table in plain words: the status line, the action buttons' reasons, the log, the breakdown.

Pure functions of the engine state (asked, never decided here). The log follows the game's own
record move by move on a private copy of the game and reads the engine's ``journal`` (one plain
dict per thing that happened), so each line can also say why a move matters at that moment
("C4 joins its largest group (5 tiles)").
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sheetkit.core.play import apply_entry
from sheetkit.games.key_harvest import board as B
from sheetkit.games.key_harvest.crops import CROPS, count_words, describe
from sheetkit.games.key_harvest.events import EVENTS
from sheetkit.games.key_harvest.moves import (
    KeyHarvestAction,
    parse_action,
)
from sheetkit.games.key_harvest.reasons import ACTION_KINDS, unfit_reason, why_not
from sheetkit.games.key_harvest.state import SALE_PRICE, KeyHarvestState
from sheetkit.games.key_harvest.workers import WORKERS, Worker

ACTION_LABELS = {"harvest": "Harvest", "worker": "Worker", "buy": "Buy", "bid": "Bid"}
ACTION_HELP = {
    "harvest": "flip one connected group of your unharvested tiles and take its crops",
    "worker": "play a farmhand or a townsfolk onto an empty space (or take one of yours off)",
    "buy": "take up to 2 tiles from stores, paying their bids",
    "bid": "take up to 2 registry tiles into your store with open bids",
}

# What a worker did, told of whoever played it ({they}, {whose}, {their}: that player). The rule's own words
# (workers.py) speak to the player reading them, so a bot's Steward would say "your store"; a worker whose
# effect is a decision or a gain says nothing here: the log line of that decision or gain follows.
WORKER_DONE = {
    "h2a": "the harvested tiles it touches turned back up",
    "h3a": "the tiles in {whose} store cannot be taken by others until {their} next turn",
    "h3b": "this turn {they} may take up to 3 tiles from stores",
    "mayor": "every harvested tile on {whose} board turned back up",
}


def ordinal(n: int) -> str:
    """1 → '1st', 2 → '2nd', 11 → '11th'."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def who(state: Any, p: int) -> str:
    """A player's name as a sentence subject ('You' for the seat named You)."""
    return state.players[p]


def whose(state: Any, p: int) -> str:
    """'your' for the seat named You, else "Ann's"."""
    name = state.players[p]
    return "your" if name == "You" else f"{name}'s"


def their(state: Any, p: int) -> str:
    """'your' for the seat named You, else 'their' (the player was named just before)."""
    return "your" if state.players[p] == "You" else "their"


def verb(state: Any, p: int, third: str, base: str) -> str:
    """The verb agreeing with the player as subject: 'Ann starts', 'You start'."""
    return base if state.players[p] == "You" else third


def pay_words(c: Sequence[int]) -> str:
    """'2 wine + 1 hops' (or 'nothing')."""
    return describe(c).replace(", ", " + ")


# The rules' "why not" words live in the engine (sheetkit.games.key_harvest.reasons); the table shows them.
may_reason = why_not
unfit_words = unfit_reason


def worker_words(w: Worker, spaces: int) -> str:
    """What a worker does, and whether it may go anywhere now: the worker picker's words beside its button."""
    does = f"{w.action[0].upper()}{w.action[1:]}"
    return f"{does} ({spaces} space{'s' if spaces != 1 else ''} now)." if spaces else f"{does} (not now)."


def turn_done(state: KeyHarvestState) -> str:
    """'harvest, bid' — the actions done this turn."""
    return ", ".join(state.turn_actions) or "nothing yet"


def status_line(state: KeyHarvestState, viewer: int, *, mode: str | None = None, worker: str | None = None,
                bid_tile: str | None = None, bid: Sequence[int] = (0, 0, 0, 0, 0), handoff: str | None = None,
                auto: bool = True, legal: Sequence[KeyHarvestAction] | None = None) -> str:
    """What to do now, in one sentence (plain text)."""
    if state.is_terminal():
        b = state.breakdown(viewer)
        return (f"Game over: {who(state, viewer)} placed {ordinal(b['placing'])} of {state.num_players} with "
                f"{b['total']} points. Play the same deal again, share the code, or start a new game.").replace(
            "You placed", "you placed")
    if handoff is not None:
        return f"Pass the screen to {handoff} — {handoff}, click “I am {handoff}” when ready."
    current = state.current_players()
    if viewer not in current:
        if not current:
            return "The table moves on…"
        other = state.players[current[0]]
        return f"{other} is to act — press Next step to see the move." if not auto else f"{other} is playing…"
    pend = state.pending
    if pend is not None and pend.kind == "sale" and bid_tile is not None:
        more = SALE_PRICE - sum(bid)
        if more > 0:
            return (f"Land sale: pay {SALE_PRICE} counters for {bid_tile} — click {more} more of your counters "
                    "(the crop buttons), then Confirm payment.")
        return f"Land sale: {bid_tile} for {pay_words(bid)} — Confirm payment, or Clear to change it."
    if pend is not None:
        return f"{pend.prompt}." if not pend.prompt.endswith(".") else pend.prompt
    me = "Your" if state.players[viewer] == "You" else f"{state.players[viewer]}, your"
    if mode == "harvest":
        return "Click one of your unharvested tiles: its whole group (tinted orange) is harvested."
    if mode == "worker":
        if worker is None:
            return "Choose a worker below (or click one of your workers on the board to take it off)."
        w = WORKERS[worker]
        return (f"Click a tinted space for the {w.name} ({w.value}) — it must touch {w.value}+ tiles and no worker "
                f"(press {w.name} again to choose another).")
    if mode == "buy":
        return "Click a tinted tile in a store to take it (you pay its bid)."
    if mode == "bid":
        if bid_tile is None:
            return "Click a registry tile to bid for it."
        if sum(bid) == 0:
            return f"Your bid for {bid_tile}: click your counters (the crop buttons), then Confirm bid."
        return f"Your bid for {bid_tile}: {pay_words(bid)} — Confirm bid, or add more."
    done = state.turn_actions
    if not done:
        return f"{me} turn: choose up to 2 different actions — Harvest, Worker, Buy or Bid — or End turn."
    left = [_next_label(state, k) for k in ACTION_KINDS if may_reason(state, viewer, k, legal) is None]
    if left:
        return f"Done: {turn_done(state)}. Next: {' / '.join(left)} — or End turn."
    return f"Done: {turn_done(state)}. Press End turn."


def _next_label(state: KeyHarvestState, kind: str) -> str:
    """An action still allowed, as the status line offers it: 'Bid for a second tile' right after a bid."""
    moves = state.turn_moves
    if kind in ("bid", "buy") and moves and moves[-1] == kind:
        nth = {1: "second", 2: "third"}.get(moves.count(kind), "another")
        return f"Bid for a {nth} tile" if kind == "bid" else f"Buy a {nth} tile"
    return ACTION_LABELS[kind]


# ----- the log --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class LogLine:
    """One line of the plain-words log; ``kind`` is 'turn', 'move', 'event' or 'end'."""

    kind: str
    text: str


def _group_words(state: KeyHarvestState, p: int, code: str) -> str:
    """Where ``code`` sits in ``p``'s land now: 'joins its largest group (5 tiles)'."""
    groups = state.groups(p)
    for k, g in enumerate(groups):
        if code in g:
            n = len(g)
            if n == 1:
                return "stands alone for now"
            rank = "largest" if k == 0 else "second largest" if k == 1 else "a smaller"
            size = f"{n} tiles"
            return f"joins {'its ' if k < 2 else ''}{rank} group ({size})"
    return ""


def _would_join(f: KeyHarvestState, p: int, code: str) -> str:
    """What ``code`` would do for ``p``'s land: 'it would make a group of 6'."""
    tiles = B.mask_of([*f.tiles_of(p), code])
    n = B.component(B.BIT[code], tiles).bit_count()
    theirs = "your" if f.players[p] == "You" else "their"
    return f"it would make a group of {n}" if n > 1 else f"it touches none of {theirs} tiles yet"


class LogFollower:
    """Follows a game's record on a private copy and turns the engine's journal into log lines."""

    def __init__(self) -> None:
        self._state: KeyHarvestState | None = None
        self._key: Any = None
        self._seen = 0
        self.lines: list[LogLine] = []

    def lines_for(self, state: KeyHarvestState) -> list[LogLine]:
        """The whole log of ``state`` (incremental: only new record entries are followed)."""
        key = (state.seed, tuple(state.players), state.params)
        log = state.log
        if self._state is None or key != self._key or len(self._state.log) > len(log) or \
                self._state.log != log[:len(self._state.log)]:
            self._state = KeyHarvestState(state.params, list(state.players), seed=state.seed)
            self._key = key
            self._seen = 0
            self.lines = []
        f = self._state
        try:
            for entry in log[len(f.log):]:
                action = None if "chance" in entry else parse_action(entry["action"])
                apply_entry(f, entry, action, f.apply_unchecked)
                self._read_journal(f)
        except Exception:
            # The record does not replay (a state changed by hand, as in a lesson): say what the
            # live game's journal says, read against the game as it is now.
            self._state = None
            self.lines = [ln for j in state.journal if (ln := describe_journal(state, j)) is not None]
        return self.lines

    def _read_journal(self, f: KeyHarvestState) -> None:
        new = f.journal[self._seen:]
        self._seen = len(f.journal)
        for j in new:
            line = describe_journal(f, j)
            if line is not None:
                self.lines.append(line)


def describe_journal(f: KeyHarvestState, j: dict[str, Any]) -> LogLine | None:
    """One journal entry in plain words (``f`` is the game just after it); None for ones the log skips."""
    what = j.get("what")
    p = j.get("player", 0)
    name = who(f, p) if "player" in j else ""
    if what == "setup":
        pairs = "; ".join(f"{who(f, q)} {' & '.join(pr)}" for q, pr in enumerate(j["pairs"]))
        start = j["start"]
        return LogLine("turn", f"Starting tiles: {pairs}. {who(f, start)} {verb(f, start, 'starts', 'start')}.")
    if what == "harvest":
        gained = pay_words(j["gained"])
        short = " (the stock had too few of those crops left)" if sum(j["gained"]) < len(j["codes"]) else ""
        return LogLine("move", f"{name} harvested {len(j['codes'])} tile{'s' if len(j['codes']) != 1 else ''} "
                               f"({', '.join(j['codes'])}) and took {gained}{short}.")
    if what == "worker":
        w = WORKERS[j["worker"]]
        extra = f", sending the {WORKERS[j['replaced']].name} home" if j.get("replaced") else ""
        they = "you" if f.players[p] == "You" else "they"
        done = WORKER_DONE.get(w.id, "").format(they=they, whose=whose(f, p), their=their(f, p))
        return LogLine("move", f"{name} played the {w.name} ({w.value}) on {j['code']}{extra}"
                               f"{': ' + done if done else ''} — worth {w.value} point{'s' if w.value != 1 else ''} "
                               "while it stays.")
    if what == "remove":
        w = WORKERS[j["worker"]]
        if j.get("source") in EVENTS:
            return LogLine("move", f"{whose(f, p).capitalize()} {w.name} ({w.value}) went home from {j['code']}"
                                   f"{_by(j)}.")
        return LogLine("move", f"{name} took the {w.name} off {j['code']} (back to "
                               f"{'town' if w.townsfolk else 'the farmhands'}).")
    if what == "gain":
        if sum(j["counters"]):
            return LogLine("move", f"{name} took {pay_words(j['counters'])}{_by(j)}.")
        crops = "that crop" if j["source"] == "vintage" else "those crops"
        return LogLine("move", f"{name} took nothing: the stock had none of {crops} left{_by(j)}.")
    if what == "give":
        if sum(j["counters"]):
            return LogLine("move", f"{name} gave {pay_words(j['counters'])} to the stock{_by(j)}.")
        return LogLine("move", f"{name} had no counters to give{_by(j)}.")
    if what == "stored":
        return LogLine("move", f"{name} put {j['code']} from {their(f, p)} store on {their(f, p)} board; its bid "
                               f"({pay_words(j['bid'])}) went to the stock{_by(j)}.")
    if what == "buy":
        code, o, paid = j["code"], j["from"], j["paid"]
        place = _group_words(f, p, code)
        if o == p:
            return LogLine("move", f"{name} took {code} from {their(f, p)} own store, "
                                   f"paying the bid ({pay_words(paid)}) to the stock; {code} {place}.")
        owner = f.players[o]
        keep = "you keep" if owner == "You" else f"{owner} keeps"
        return LogLine("move", f"{name} bought {code} from {whose(f, o)} store for {pay_words(paid)}: {keep} "
                               f"the bid and the payment; {code} {place}.")
    if what == "bid":
        return LogLine("move", f"{name} bid {pay_words(j['counters'])} for {j['code']} (now in {whose(f, p)} "
                               f"store; {_would_join(f, p, j['code'])}): anyone may buy it for that on their turn.")
    if what == "choose":
        return _choose_line(f, j, name)
    if what == "displaced":
        w = WORKERS[j["worker"]]
        return LogLine("move", f"{whose(f, p).capitalize()} {w.name} left {j['code']}: the field tile {j['code']} "
                               "arrived there.")
    if what == "pass":
        return LogLine("move", f"{name} passed {j['code']} to {who(f, j['to'])}.")
    if what == "event":
        e = EVENTS[j["event"]]
        n, end = j["number"], f.params.end_event
        count = f"Event {n} of {end}" if n <= end else f"Event {n} (the last turns are already on)"
        return LogLine("event", f"{count}: {e.name} — {e.effect}.")
    if what == "end-triggered":
        return LogLine("event", f"That was the {ordinal(f.params.end_event)} event: every player takes "
                                f"{f.params.final_turns} more turns, then the game ends.")
    if what == "end-turn":
        done = ", ".join(j.get("actions") or []) or "passed"
        return LogLine("endturn", f"{whose(f, p).capitalize()} turn — {done}:")
    if what == "end":
        return LogLine("end", f"Game over: {j.get('reason') or 'the game ended'}. Unclaimed store tiles are "
                              "discarded; their bids go back to their owners.")
    return None


def _by(j: dict[str, Any]) -> str:
    """' (Gleaner)', ' (Tithe)': the worker or event behind a journal entry, or ''."""
    src = j.get("source") or ""
    return f" ({WORKERS[src].name})" if src in WORKERS else f" ({EVENTS[src].name})" if src in EVENTS else ""


def _choose_line(f: KeyHarvestState, j: dict[str, Any], name: str) -> LogLine | None:
    k, v = j["kind"], j["value"]
    by = _by(j)
    p = j["player"]
    if v == "decline":
        what = {"give": f"kept {their(f, p)} counters", "replace": "left the displaced worker at home",
                "sale": "bought nothing"}.get(k, "took no tile" if k in ("notary", "lawyer", "bailiff", "census")
                                             else "did nothing more" if k == "foreman" else "declined")
        return LogLine("move", f"{name} {what}{by}.")
    if k in ("crop", "substitute", "take"):
        return LogLine("move", f"{name} took {count_words(1, v)}{by}.")
    if k == "miller":
        return LogLine("move", f"{name} took {count_words(2, v)}{by}.")
    if k == "give":
        return LogLine("move", f"{name} gave {count_words(1, v)} to the stock{by}.")
    if k == "foreman":
        return None   # the harvest line that follows says it all
    if k == "replace":
        return LogLine("move", f"{name} put the displaced worker back on {v}.")
    if k == "frost":
        return LogLine("move", f"{name} turned {v} over (Late frost).")
    if k == "pass":
        return None   # the 'pass' journal line says it
    if k in ("notary", "lawyer", "bailiff", "census", "sale"):
        paid = f" for {pay_words(j['counters'])}" if j.get("counters") else ""
        return LogLine("move", f"{name} took {v}{paid}{by}; {v} {_group_words(f, p, v)}.")
    return LogLine("move", f"{name} chose {v}{by}.")


def _short(state: KeyHarvestState, j: dict[str, Any], viewer: int) -> str | None:
    """A move in a few words, for the turn summary."""
    what = j.get("what")
    if what == "harvest":
        return f"harvested {len(j['codes'])}"
    if what == "worker":
        w = WORKERS[j["worker"]]
        return f"{w.name} ({w.value}) on {j['code']}"
    if what == "remove":
        return f"took the {WORKERS[j['worker']].name} off"
    if what == "buy":
        src = f"{whose(state, j['from'])} store" if j["from"] != j["player"] else "own store"
        return f"took {j['code']} from {src} for {pay_words(j['paid'])}"
    if what == "bid":
        return f"bid {sum(j['counters'])} for {j['code']}"
    return None


def since_last_turn(state: KeyHarvestState, viewer: int) -> str:
    """The turn summary: what happened since ``viewer``'s last turn ended, in one line (plain text)."""
    entries: list[dict[str, Any]] = []
    for j in reversed(state.journal):
        if j.get("what") == "setup" or (j.get("what") == "end-turn" and j.get("player") == viewer):
            break
        entries.append(j)
    entries.reverse()
    parts: list[str] = []
    doing: list[str] = []
    drawn: list[str] = []
    for j in entries:
        what = j.get("what")
        if what == "end-turn":
            parts.append(f"{who(state, j['player'])}: " + (", ".join(doing) if doing else "passed"))
            doing = []
        elif what == "event":
            parts.append(f"event {EVENTS[j['event']].name}")
        elif what == "draw":
            drawn.append(j["tile"])
        elif j.get("player") != viewer:
            short = _short(state, j, viewer)
            if short is not None:
                doing.append(short)
    if not parts:
        return ""
    mine = "your" if state.players[viewer] == "You" else f"{state.players[viewer]}'s"
    out = f"Since {mine} last turn: " + "; ".join(parts)
    if drawn:
        out += f" · new in the registry: {', '.join(drawn)}"
    return out + "."


def turn_heading(state: KeyHarvestState) -> str | None:
    """The heading of the turn being played, for its moves so far in the log ("Your turn, so far:"); None when
    no turn is being played."""
    if state.is_terminal() or state.phase == "setup":
        return None
    if state.phase == "refill":      # the turn has ended; the registry refills (an event may be asking)
        return f"After {whose(state, state.active)} turn:"
    return f"{whose(state, state.active).capitalize()} turn, so far:"


def log_html(lines: Sequence[LogLine], limit: int = 60, now: str | None = None) -> str:
    """The log as HTML, newest first throughout — the newest turn on top, and in each turn its newest line
    first under the turn's heading — so the latest line is always in view. ``now``: the heading of the turn
    in progress (its moves since the last turn ended)."""
    if not lines:
        return "<div class='sk-small'>The log fills in as the game is played.</div>"
    groups: list[list[LogLine]] = []
    cur: list[LogLine] = []
    for ln in lines:
        if ln.kind == "endturn":      # the turn's heading goes above its moves
            groups.append([ln, *reversed(cur)])
            cur = []
        else:
            cur.append(ln)
    if cur:
        head = [LogLine("now", now)] if now and any(ln.kind in ("move", "event") for ln in cur) else []
        groups.append([*head, *reversed(cur)])
    rows = [f"<div class='sk-log-{ln.kind}'>{html.escape(ln.text)}</div>" for g in reversed(groups) for ln in g]
    return "".join(rows[:limit])


# ----- screen, info, breakdown -----------------------------------------------------------------------

def turn_info(state: KeyHarvestState, viewer: int) -> str:
    """'Turn 7 · Ann's turn · events 3/10 · 31 in the bag' (HTML, values in bold)."""
    if state.phase == "setup":
        return "Setting up…"
    if state.is_terminal():
        return (f"Game over after <b>{state.turn}</b> turns · <b>{len(state.events_placed)}</b> events · "
                f"{html.escape(state.end_reason or '')}")
    act = "your" if state.players[state.active] == "You" else html.escape(state.players[state.active]) + "'s"
    ev = len(state.events_placed)
    end = ""
    if state.final_turns_left is not None and not state.is_terminal():
        end = f" · <b>{state.final_turns_left}</b> turns left"
    return (f"Turn <b>{state.turn}</b> · <b>{act}</b> turn · events <b>{ev}</b>/"
            f"{state.params.end_event}{end} · <b>{state.bag_remaining()}</b> in the bag")


def stock_words(state: KeyHarvestState) -> str:
    """'stock: wine 11, hops 9, …' — the counters left in the general stock."""
    return "stock: " + ", ".join(f"{CROPS[c]} {n}" for c, n in enumerate(state.stock))


def score_lines(state: KeyHarvestState, p: int) -> tuple[str, str]:
    """What everyone may see of a player's standing, in two short lines (their counters are hidden)."""
    b = state.breakdown(p)
    nw = len(state.workers_on[p])
    return (f"{b['tiles']} tiles · groups {b['largest']}+{b['second']}",
            f"{nw} worker{'s' if nw != 1 else ''} · counters hidden")


def breakdown_html(state: KeyHarvestState, viewer: int) -> str:
    """The end-of-game table, a column per player and a row per part: total and place first, then the groups,
    the workers and the counters. Every cell is ``td.<part>[data-player]`` (``td.sk-total``, ``td.sk-place``,
    ``td.sk-largest`` … ``td.sk-counter-points``); your column's cells carry ``sk-me``. Columns, not rows, per
    player, so that four players fit a phone's width and the side column of a laptop."""
    prm = state.params
    bs = [state.breakdown(p) for p in range(state.num_players)]
    me = [" sk-me" if p == viewer else "" for p in range(state.num_players)]
    parts: list[tuple[str, str, str, Any]] = [
        ("sk-total", "Total", "the score", lambda b: b["total"]),
        ("sk-place", "Place", "ties go to the most counters owned", lambda b: ordinal(b["placing"])),
        ("sk-largest", "Largest group", "tiles in the largest group", lambda b: b["largest"]),
        ("sk-second", "Second group", "tiles in the second largest group", lambda b: b["second"]),
        ("sk-groups", f"Group points<br><span class='sk-small'>{prm.largest_mult}·largest + {prm.second_mult}·second"
                      "</span>", f"{prm.largest_mult} per tile of the largest + {prm.second_mult} per tile of the "
                      "second largest", lambda b: b["group_points"]),
        ("sk-workers", "Workers", "the numbers of the workers on the board", lambda b: b["workers"]),
        ("sk-counters", "Counters", "counters owned: behind the screen and bid in the store", lambda b: b["counters"]),
        ("sk-counter-points", f"Counters ÷ {prm.counters_per_point}", f"1 point per {prm.counters_per_point} "
                              "counters", lambda b: b["counter_points"]),
    ]
    head = "<tr><th></th>" + "".join(f"<th class='sk-name{me[p]}' data-player='{p}'>{html.escape(b['player'])}</th>"
                                     for p, b in enumerate(bs)) + "</tr>"
    rows = [f"<tr class='{cls}'><th title='{title}'>{label}</th>"
            + "".join(f"<td class='{cls}{me[p]}' data-player='{p}'>{value(b)}</td>" for p, b in enumerate(bs))
            + "</tr>" for cls, label, title, value in parts]
    return f"<table><thead>{head}</thead><tbody>{''.join(rows)}</tbody></table>"


def end_summary(state: KeyHarvestState, viewer: int) -> str:
    """Placing and total after the game (HTML)."""
    b = state.breakdown(viewer)
    name = state.players[viewer]
    subject = "You" if name == "You" else html.escape(name)
    return (f"<h3>{subject} placed {ordinal(b['placing'])} of {state.num_players}, with {b['total']} points</h3>"
            f"<div class='sk-small'>{html.escape((state.end_reason or 'the game ended').capitalize())}. Ties go to "
            "the most counters owned.</div>")


def screen_html(state: KeyHarvestState, p: int, bid: Sequence[int] = (0, 0, 0, 0, 0)) -> str:
    """Your counters behind your screen, as words (the clickable ones are buttons beside)."""
    mine = state.counters[p]
    left = [m - b for m, b in zip(mine, bid, strict=True)]
    total = sum(mine)
    held = f"{total} counter{'s' if total != 1 else ''}"
    stored = sum(sum(b) for _, b, _ in state.stores[p])
    extra = f" · {stored} more lie on your store tiles" if stored else ""
    if sum(bid):
        return f"Behind your screen: {held} ({sum(left)} left after this bid){extra}"
    return f"Behind your screen: {held}{extra}"
