"""Kingdom Maps' table in plain words: the status line, the turn line, the log, criteria and breakdown.

Pure functions of the engine state (asked, never decided here), so they are easy to test.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

from sheetkit.core.play import apply_entry
from sheetkit.games.kingdom_maps.criteria import CRITERIA
from sheetkit.games.kingdom_maps.moves import Announce, Bank, Pass, Pick, Place, Power, parse_action
from sheetkit.games.kingdom_maps.phases import TABLE
from sheetkit.games.kingdom_maps.state import KingdomState
from sheetkit.games.kingdom_maps.terrains import TERRAINS, terrain_name
from sheetkit.games.kingdom_maps.titles import PLACING_TITLES, SOLO_TITLES


def ordinal(n: int) -> str:
    """1 → '1st', 2 → '2nd', 11 → '11th'."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def terrain_label(number: int, uses: int | None = None) -> str:
    """'1 ▲ Mountains · 2 left' — a terrain button's words (symbol and name, never colour alone)."""
    t = TERRAINS[number - 1]
    text = f"{t.number} {t.symbol} {t.plural}"
    return text if uses is None else f"{text} · {uses} left"


def awaiting_confirm(state: KingdomState, me: int = 0) -> bool:
    """True when your part of this drawing is done and the table waits for you to press Confirm."""
    return not state.is_terminal() and me not in state.current_players()


def status_line(state: KingdomState, me: int = 0, terrain_choice: int | None = None,
                die_choice: int | None = None) -> str:
    """What to do now, in one sentence (plain text)."""
    if state.is_terminal():
        total = state.total(me)
        if state.num_players == 1:
            head = f"Game over: you scored {total} — {title(state, me)}."
        else:
            head = (f"Game over: you placed {ordinal(state.placings()[me])} of {state.num_players} with {total} "
                    f"— {title(state, me)}.")
        return head + " Play the same dice again, share the code, or start a new game."
    if awaiting_confirm(state, me):
        s = state.sheets[me]
        if s.passed:
            done = "You drew nothing (no room)."
        elif state.terrain:
            done = f"You drew {len(s.placed)} {terrain_name(state.terrain, plural=len(s.placed) != 1)}."
        else:
            done = "Your drawing is done."
        undo = " (or Undo)" if state.can_undo(me) else ""
        if state.phase != TABLE:    # the others are still drawing
            nxt = "let the others draw"
        else:                       # the engine says what the table does next
            nxt = {"end": "end the game and see the scores", "roll2": "roll this turn's second dice"}.get(
                state.next_table_step(), "roll the next dice")
            if state.next_table_step() == "roll2" and s.passed:
                nxt += " (the game ends after this turn)"
        return f"{done} Press Confirm{undo} to {nxt}."
    s = state.sheets[me]
    if state.phase != TABLE and s.die is not None and not s.placed and not s.passed and not s.placed_all() \
            and Pass() in state.legal_actions(me):
        room = power_room(state, me)
        if room:
            name = terrain_name(state.terrain or 1, plural=True)
            fits = " or ".join(str(a) for a in room)
            return (f"No room for {s.amount} {name}, but a +1/-1 power makes room: spend one to draw {fits} "
                    f"(or draw nothing: the game ends after this turn).")
    if state.phase == "announce" and state.active == me:
        dice = ", ".join(str(d) for d in sorted(state.dice))
        if terrain_choice and die_choice is None:
            return f"{terrain_name(terrain_choice, plural=True)} chosen — now take a die ({dice})."
        if die_choice is not None and not terrain_choice:
            return f"You hold the {die_choice} — now choose a terrain."
        return f"Choose a terrain and take a die ({dice})."
    return state.prompt(me)


def title(state: KingdomState, me: int = 0) -> str:
    """Your title at the end, as the engine's breakdown gives it: solo by total, against others by placing."""
    return str(state.breakdown(me)["title"])


def power_room(state: KingdomState, me: int = 0) -> list[int]:
    """The amounts a +1/-1 power would make drawable when the rolled amount has no room (asked on copies)."""
    out = []
    for act in state.legal_actions(me):
        if isinstance(act, Power):
            trial = state.clone()
            trial.apply_fast(me, act)
            if trial.legal_hex_numbers(me):
                out.append(trial.amount(me) or 0)
    return sorted(out)


def off_map_words(state: KingdomState, me: int, part: tuple[str, Any] | None) -> str:
    """What a click beside the map hit, and why it does nothing (the status line then says what to do)."""
    drawing = bool(state.legal_hex_numbers(me))
    banking = any(isinstance(a, Bank) for a in state.legal_actions(me))
    if part is None:
        return "Click a hex of the map to draw there." if drawing else "Nothing to click there."
    if banking:
        return "Click one of the lit criteria boxes (or its button) to bank it for your ? hex."
    if part[0] == "legend":
        t = TERRAINS[part[1] - 1]
        left = state.sheets[me].uses[t.number]
        return f"That is the terrain strip: {t.plural} have {left} use{'s' if left != 1 else ''} left."
    return "That is your score zone: it fills in by itself" + (" — draw on the map." if drawing else ".")


def end_reason(state: KingdomState, me: int = 0) -> str:
    """Why the game ended, in the engine's words, with your name as 'you' ('you could not draw the amount')."""
    reason = state.end_reason or ""
    mine = state.players[me] + " "
    return "you " + reason[len(mine):] if reason.startswith(mine) and state.players[me] == "You" else reason


def turn_info(state: KingdomState, me: int = 0) -> str:
    """'Turn 4 · drawing 2 of 2 · Greedy bot announces · 23 hexes empty' (HTML, values in bold)."""
    s = state.sheets[me]
    empty = state.board.size - s.drawn
    if state.is_terminal():
        return (f"Game over after <b>{state.turn}</b> turns · {html.escape(end_reason(state, me))} · "
                f"<b>{empty}</b> {'hex' if empty == 1 else 'hexes'} left empty")
    if state.turn == 0:
        return "The game is about to start."
    parts = [f"Turn <b>{state.turn}</b>"]
    if state.solo:
        parts.append(f"drawing <b>{state.step}</b> of 2")
    else:
        who = "you" if state.active == me else html.escape(state.players[state.active])
        parts.append(f"active: <b>{who}</b>")
    if state.terrain:
        amount = state.amount(me)
        what = html.escape(terrain_name(state.terrain, plural=True))
        parts.append(f"terrain <b>{what}</b>" + (f" × <b>{amount}</b>" if amount else ""))
    if state.params.powers:
        parts.append(f"±1 powers <b>{s.available}</b>")
    parts.append(f"<b>{empty}</b> hexes empty")
    return " · ".join(parts)


# ----- the log -------------------------------------------------------------------------------

@dataclass(frozen=True)
class LogLine:
    """One line of the plain-words log; ``kind`` is 'setup', 'turn', 'move' or 'end'."""

    kind: str
    text: str


def _replayer(state: KingdomState) -> KingdomState:
    """A fresh copy of the game's setup, to follow its log step by step (the engine says what each move did)."""
    return KingdomState(state.params, list(state.players), seed=state.seed, deal=state.deal)


_DREW = "\0drew"  # where a drawing's summary goes in a player's line


def log_lines(state: KingdomState, me: int = 0) -> list[LogLine]:
    """The game so far in plain words, oldest first: one line per roll, one per player per drawing."""
    out: list[LogLine] = []
    follow = _replayer(state)
    doing: dict[int, list[str]] = {}
    drawn: dict[int, list[int]] = {}

    def who(p: int) -> str:
        return "You" if p == me else state.players[p]

    def flush() -> None:
        for p in sorted(doing, key=lambda q: (q != me, q)):
            parts = list(doing[p])
            hexes = drawn.get(p, [])
            if hexes:
                t = follow.terrain or 1
                extra = [("a +1/-1 hex" if follow.board.printed(i) == "power" else "a ? hex")
                         for i in hexes if follow.board.printed(i) != "plain"]
                text = f"drew {len(hexes)} {terrain_name(t, plural=len(hexes) != 1)}" + (
                    f" (on {', '.join(extra)})" if extra else "")
                parts = [text if x == _DREW else x for x in parts]
            out.append(LogLine("move", f"{who(p)}: " + ", ".join(parts)))
        doing.clear()
        drawn.clear()

    for entry in state.log:
        if "chance" in entry:
            flush()
            kind = entry["chance"]
            apply_entry(follow, entry)      # the lines below read the game just after the step
            if kind == "criteria":
                names = ", ".join(f"{c} {CRITERIA[c].name}" for c in entry["criteria"])
                out.append(LogLine("setup", f"Criteria in play: {names}."))
            elif kind == "roll":
                dice = " · ".join(str(d) for d in entry["dice"])
                if follow.solo and follow.step == 2:
                    out.append(LogLine("turn", f"Turn {follow.turn}, second roll: {dice}"))
                else:
                    act = "" if follow.solo else (" — your turn" if follow.active == me
                                                  else f" — {state.players[follow.active]}'s turn")
                    out.append(LogLine("turn", f"Turn {follow.turn}: the dice show {dice}{act}"))
            else:
                out.append(LogLine("end", "Game over" + (f": {state.end_reason}." if state.end_reason else ".")))
            continue
        p = entry["player"]
        action = apply_entry(follow, entry, parse_action(entry["action"]), follow.apply_fast).action
        frag = doing.setdefault(p, [])
        if isinstance(action, Announce):
            frag.append(f"announced {terrain_name(action.terrain, plural=True)}, took the {action.die}")
        elif isinstance(action, Pick):
            if follow.solo:
                frag.append(f"took the {action.die} as the amount — the other die names "
                            f"{terrain_name(follow.terrain or 1, plural=True)}")
            else:
                frag.append(f"picked the {action.die}")
        elif isinstance(action, Power):
            frag.append(f"spent a power ({action.delta:+d})")
        elif isinstance(action, Place):
            if p not in drawn:
                frag.append(_DREW)
            drawn.setdefault(p, []).append(follow.board.index[(action.q, action.r)])
        elif isinstance(action, Pass):
            frag.append("had no room and drew nothing")
        elif isinstance(action, Bank):
            code, pts = follow.sheets[p].banked[-1]
            frag.append(f"banked {code} for its ? → {pts}")
    flush()
    return out


def log_html(state: KingdomState, me: int = 0, limit: int = 80) -> str:
    """The log as HTML, newest turn first (so the latest is always in view); the record keeps it all."""
    lines = log_lines(state, me)
    if not lines:
        return "<div class='sk-small'>The log fills in as the dice are rolled.</div>"
    groups: list[list[LogLine]] = []
    for ln in lines:
        if groups and ln.kind == "move":
            groups[-1].append(ln)
        else:
            groups.append([ln])
    rows = [f"<div class='sk-log-{ln.kind}'>{html.escape(ln.text)}</div>" for g in reversed(groups) for ln in g]
    return "".join(rows[:limit])


# ----- criteria, breakdown, the end ------------------------------------------------------------

def criteria_html(state: KingdomState, me: int = 0, bankable: bool = False) -> str:
    """The criteria in play: code, name, the one-sentence rule and what it scores on your map now."""
    if not state.criteria:
        return "<div class='sk-small'>The criteria are rolled at the start.</div>"
    scores = state.criterion_scores(me)
    rows = []
    for c in state.criteria:
        crit = CRITERIA[c]
        cls = "sk-crit sk-bankable" if bankable else "sk-crit"
        rows.append(f"<div class='{cls}' data-code='{c}'><b>{c} {html.escape(crit.name)}</b> "
                    f"<span class='sk-crit-score'>{'final' if state.is_terminal() else 'now'} "
                    f"<b>{scores[c]}</b></span><br><span class='sk-small'>{html.escape(crit.rule)}</span></div>")
    return "".join(rows)


def bank_label(state: KingdomState, code: str, me: int = 0) -> str:
    """'B1 Colourful border → 14' — a bank button's words (what the ? would bank now)."""
    return f"{code} {CRITERIA[code].name} → {state.criterion_scores(me)[code]}"


def breakdown_html(state: KingdomState, me: int = 0) -> str:
    """The end-of-game table: ``tr[data-player]`` rows; ``td[data-code]``, ``td.sk-q``, ``td.sk-total`` cells."""
    rows = [state.breakdown(p) for p in range(state.num_players)]
    codes = [c["code"] for c in rows[0]["criteria"]] if rows else []
    head = "".join(f"<th title='{html.escape(CRITERIA[c].name)}'>{c}</th>" for c in codes)
    out = [f"<table><thead><tr><th>Player</th>{head}<th>? banked</th><th>Total</th><th>Place</th>"
           "<th>Title</th></tr></thead><tbody>"]
    for p, b in enumerate(rows):
        cells = [f"<td class='sk-name'>{html.escape(b['player'])}</td>"]
        for c in b["criteria"]:
            cells.append(f"<td data-code='{c['code']}'>{c['score']}</td>")
        detail = ", ".join(f"{q['criterion']} {q['score']}" for q in b["questions"]) or "none"
        cells.append(f"<td class='sk-q' title='{html.escape(detail)}'>{b['question_total']}</td>")
        cells.append(f"<td class='sk-total'>{b['total']}</td><td class='sk-place'>{ordinal(b['placing'])}</td>")
        cells.append(f"<td class='sk-title'>{html.escape(title(state, p))}</td>")
        me_cls = " class='sk-me'" if p == me else ""
        out.append(f"<tr data-player='{p}'{me_cls}>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    mine = rows[me]["questions"] if rows else []
    if mine:
        out.append("<div class='sk-small'>Your ? box: " + html.escape(
            ", ".join(f"{q['criterion']} {q['score']}" for q in mine)) + "</div>")
    return "".join(out)


def end_summary(state: KingdomState, me: int = 0) -> str:
    """Placing, total and (solo) title after the game (HTML)."""
    b = state.breakdown(me)
    total = b["total"]
    if state.solo:
        ladder = " · ".join(f"{title} {low}+" for low, title in SOLO_TITLES if low)
        return (f"<h3>You scored {total}: <span class='sk-km-title'>{html.escape(b['title'])}</span></h3>"
                f"<div class='sk-small'>Solo titles (sheetkit's own, set from the greedy bot's games): "
                f"{html.escape(ladder)}.</div>")
    n = state.num_players
    ladder = " · ".join(f"{ordinal(k)} {name}" for k, name in enumerate(PLACING_TITLES[:n], start=1))
    return (f"<h3>You placed {ordinal(b['placing'])} of {n}, with {total} point{'s' if total != 1 else ''}: "
            f"<span class='sk-km-title'>{html.escape(title(state, me))}</span></h3>"
            f"<div class='sk-small'>{html.escape(end_reason(state, me).capitalize())}. "
            f"Titles by placing (equal totals share one): {html.escape(ladder)}.</div>")


def pick_preview(state: KingdomState, me: int, value: int) -> tuple[int | None, int | None]:
    """What picking ``value`` would mean, asked of the engine on a copy: (amount, terrain)."""
    trial = state.clone()
    trial.apply_fast(me, Pick(value))
    return trial.amount(me), trial.terrain
