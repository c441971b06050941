"""Avenue's table in plain words: the status line, the round line, the log and the breakdown.

Pure functions of the engine state (asked, never decided here), so they are easy to test.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

from sheetkit.analysis.avenue_review import chance_round_ends_next
from sheetkit.games.avenue.cards import ROAD_NAMES, RoadCard
from sheetkit.games.avenue.moves import Draw, Pass, Peek
from sheetkit.games.avenue.state import AvenueState
from sheetkit.games.avenue.titles import title_for, title_table


def cell_words(row: int, col: int) -> str:
    """A cell as people count it: 'row 3, col 5' (1-based, like the numbers printed on the sheet)."""
    return f"row {row + 1}, col {col + 1}"


def road_words(number: int) -> str:
    """'road 3 (corner right–bottom)'."""
    return f"road {number} ({ROAD_NAMES[number]})"


def signed(n: int) -> str:
    """A score as the sheet prints it: a true minus sign (−25), not a hyphen."""
    return f"−{-n}" if n < 0 else str(n)


def ordinal(n: int) -> str:
    """1 → '1st', 2 → '2nd', 11 → '11th'."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _name(state: AvenueState, p: int, me: int) -> str:
    return "you" if p == me else state.players[p]


def status_line(state: AvenueState, me: int = 0) -> str:
    """What to do now, in one sentence (plain text)."""
    if state.is_terminal():
        place = state.placings()[me]
        n = state.num_players
        total = signed(state.total(me))
        if n == 1:
            return f"Game over: you scored {total}. Play the same deal again, share its code, or start a new game."
        return (f"Game over: you placed {ordinal(place)} of {n} with {total}. Play the same deal again, "
                f"share its code, or start a new game.")
    card = state.card
    if state.phase == "act" and state.acted[me] is None and card is not None:
        acts = state.legal_actions(me)
        scored = just_scored(state, me)
        if acts == [Pass()]:
            return "Your sheet is full and you cannot peek: press Next card." + scored
        text = f"Draw {road_words(card.number)} in an empty cell"
        if Peek() in acts:
            text += " — or Peek at the next farm"
        return text + "." + scored
    if state.is_chance_node():
        if state.round == 0:
            return "Press Next card to flip the first farm and road."
        done = state.acted[me]
        what = ""
        if isinstance(done, Draw):
            what = f"You drew road {card.number} at {cell_words(done.row, done.col)}. " if card else ""
        elif isinstance(done, Peek):
            what = "You peeked. "
        undo = " (or Undo)" if state.can_undo(me) else ""
        if card is not None and state.round_ends_after_this_card():
            return f"{what}That was the round's last card: press Next card{undo} to score farm {state.farm}."
        return f"{what}Press Next card{undo} for the next road."
    return "Waiting for the other players."


def just_scored(state: AvenueState, me: int = 0) -> str:
    """' Round 1 scored: farm D reached 5 grapes, beats 3 → 5. Now farm B.' while the first road card of a
    new round is face up: one Next card scored the last farm and flipped the new farm and road together."""
    if state.round < 2 or state.card is None or len(state.boxes[me]) < state.round - 1:
        return ""
    roads = 0
    for entry in reversed(state.log):   # road cards flipped since this round's farm
        if entry.get("chance") == "farm":
            break
        roads += entry.get("chance") == "road"
    if roads != 1:
        return ""
    k = state.round - 2
    return f" Round {k + 1} scored: {score_words(state, me, k, me)}. Now farm {state.farm}."


def round_info(state: AvenueState, me: int = 0) -> str:
    """'Round 2 of 5 · farm D must beat 3 · yellow 2/4 · 23 road cards left' (HTML, values in bold)."""
    if state.is_terminal():
        return f"All {state.params.rounds} rounds played."
    if state.round == 0:
        return f"{state.params.rounds} rounds · {state.road_deck.remaining()} road cards"
    parts = [f"Round <b>{state.round}</b> of {state.params.rounds}"]
    pv = state.preview(me)["farm"]
    if pv is not None:
        need = f"must beat <b>{pv['target']}</b>" if pv["target"] else "needs <b>1+</b> grapes"
        parts.append(f"farm <b>{pv['farm']}</b> {need}")
    parts.append(f"yellow <b>{state.yellows}/{state.params.yellows_per_round}</b>")
    ends_next = chance_round_ends_next(state)
    if ends_next:
        parts.append(f"next card ends the round: <b>{float(ends_next):.0%}</b>")
    parts.append(f"<b>{state.road_deck.remaining()}</b> road cards left")
    return " · ".join(parts)


def peek_info(state: AvenueState, me: int = 0) -> str:
    """What your peek showed (only your screen shows it), or what peeking would do."""
    seen = state.seen_farm[me]
    if seen is not None and not state.is_terminal():
        return f"You peeked: the next farm is {seen} (only you see this)."
    if state.phase == "act" and state.peeked[me] and not state.is_terminal():
        return "You have peeked this round."
    return ""


def score_words(state: AvenueState, p: int, k: int, me: int) -> str:
    """'farm D reached 5 grapes, beats 3 → 5' for player p's box k (0-based)."""
    farm, got, target, box = state.round_farms[k], state.grapes[p][k], state.targets[p][k], state.boxes[p][k]
    grapes = f"{got} grape{'s' if got != 1 else ''}"
    if box:
        need = f"beats {target}" if target else "needed 1 or more"
        return f"farm {farm} reached {grapes}, {need} → {box}"
    need = f"does not beat {target}" if target else "needed 1 or more"
    return f"farm {farm} reached {grapes}, {need} → 0 (−{state.params.penalty} at the end)"


@dataclass(frozen=True)
class LogLine:
    """One line of the plain-words log; ``kind`` is 'round', 'card', 'score' or 'end'."""

    kind: str
    text: str


def log_lines(state: AvenueState, me: int = 0) -> list[LogLine]:
    """The game so far in plain words, oldest first, from the engine's log (bots' peeks stay secret)."""
    out: list[LogLine] = []
    rnd = 0
    card_no = 0
    yellows = 0
    current: list[str] | None = None   # the face-up card's line, filled as players act

    def close_card() -> None:
        nonlocal current
        if current is not None:
            out.append(LogLine("card", current[0] + (" — " + " · ".join(current[1:]) if len(current) > 1 else "")))
            current = None

    def scores(k: int) -> None:
        for p in ([me] + [q for q in range(state.num_players) if q != me]):
            if k < len(state.boxes[p]):
                who = "You" if p == me else state.players[p]
                out.append(LogLine("score", f"Round {k + 1}: {who}: {score_words(state, p, k, me)}"))

    for entry in state.log:
        if entry.get("chance") == "farm":
            close_card()
            if rnd:
                scores(rnd - 1)
            rnd += 1
            yellows = 0
            out.append(LogLine("round", f"Round {rnd}: farm {entry['card']} is flipped — it scores when the "
                                        f"{ordinal(state.params.yellows_per_round)} yellow card comes."))
        elif entry.get("chance") == "road":
            close_card()
            card = RoadCard.parse(entry["card"])
            card_no += 1
            yellows += card.yellow
            colour = f"yellow ({yellows}/{state.params.yellows_per_round})" if card.yellow else "grey"
            current = [f"Card {card_no}: road {card.number}, {colour}"]
        elif entry.get("chance") == "end":
            close_card()
            if rnd:
                scores(rnd - 1)
            out.append(LogLine("end", "Game over."))
        elif "player" in entry:
            p, act = entry["player"], entry["action"]
            who = _name(state, p, me)
            if act["type"] == "draw":
                what = f"{who}: {cell_words(act['row'], act['col'])}"
            elif act["type"] == "peek":
                what = f"{who}: peeked"
            else:
                what = f"{who}: passed"
            if current is None:
                current = ["(card)"]
            current.append(what)
    close_card()
    return out


def log_html(state: AvenueState, me: int = 0, limit: int = 80) -> str:
    """The log as HTML, newest line first (so the latest is always in view); the record keeps it all."""
    lines = log_lines(state, me)[-limit:]
    if not lines:
        return "<div class='sk-small'>The log fills in as cards are flipped.</div>"
    # Newest first, but a round's score lines keep their order (yours first).
    groups: list[list[LogLine]] = []
    for ln in lines:
        if groups and ln.kind == "score" and groups[-1][-1].kind == "score":
            groups[-1].append(ln)
        else:
            groups.append([ln])
    rows = [f"<div class='sk-log-{ln.kind}'>{html.escape(ln.text)}</div>" for g in reversed(groups) for ln in g]
    return "".join(rows)


def breakdown_rows(state: AvenueState) -> list[dict[str, Any]]:
    """The engine's breakdown of every player (what the table shows)."""
    return [state.breakdown(p) for p in range(state.num_players)]


def breakdown_html(state: AvenueState, me: int = 0) -> str:
    """The end-of-game table: one ``tr[data-player]`` per player, the total in ``td.sk-total``."""
    rows = breakdown_rows(state)
    rounds = max((len(b["farms"]) for b in rows), default=0)
    head = ["Player"] + [f"R{k + 1}" for k in range(rounds)] + ["Purple", "Green", "Zeros", "Total", "Place"]
    out = ["<table><thead><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in head) + "</tr></thead><tbody>"]
    for p, b in enumerate(rows):
        cells = [f"<td class='sk-name'>{html.escape(b['player'])}</td>"]
        for f in b["farms"]:
            cls = " class='sk-zero'" if f["box"] == 0 else ""
            cells.append(f"<td{cls} title='{f['grapes']} grapes, had to beat {f['target']}'>"
                         f"<small>{f['farm']}</small> {f['box']}</td>")
        cells.append(f"<td>{b['castles']['purple']}</td><td>{b['castles']['green']}</td>")
        cells.append(f"<td>{b['penalty'] if b['zeros'] else 0}</td>")
        cells.append(f"<td class='sk-total'>{b['total']}</td><td class='sk-place'>{ordinal(b['placing'])}</td>")
        me_cls = " class='sk-me'" if p == me else ""
        out.append(f"<tr data-player='{p}'{me_cls}>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def end_summary(state: AvenueState, me: int = 0) -> str:
    """Placing and title after the last round (HTML)."""
    total = state.total(me)
    title = title_for(total)
    n = state.num_players
    head = (f"You scored {signed(total)}" if n == 1
            else f"You placed {ordinal(state.placings()[me])} of {n}, with {signed(total)} "
                 f"point{'s' if total != 1 else ''}")
    return (f"<h3>{head}</h3>"
            f"<div>Your title: <b>{html.escape(title)}</b></div>" + _titles_html(title))


def _titles_html(mine: str) -> str:
    """The par table from the bots' score distributions, the earned title marked."""
    me = " class='sk-me'"
    rows = "".join(f"<tr{me if t == mine else ''}><td>{html.escape(r)}</td><td><b>{html.escape(t)}</b>"
                   f"</td><td class='sk-small'>{html.escape(m)}</td></tr>" for r, t, m in title_table())
    return (f"<details class='sk-titles'><summary>Title table (set from 1,000 bot games)</summary>"
            f"<table>{rows}</table></details>")
