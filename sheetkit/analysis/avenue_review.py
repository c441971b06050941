"""Looking back at one Avenue game: how likely each round's end was, the bots on the same deck,
and where the greedy bot would have drawn your cards. Pure engine code; the notebook draws it."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sheetkit.analysis.exact import Dist, avenue_round_length, next_card
from sheetkit.core.chance import derive_seed
from sheetkit.core.play import apply_entry, bot_label, play_out
from sheetkit.games.avenue.bots import BOTS, GreedyBot
from sheetkit.games.avenue.moves import Draw, Peek, parse_action
from sheetkit.games.avenue.params import AvenueParams
from sheetkit.games.avenue.state import AvenueState


def round_lengths(state: AvenueState) -> list[int]:
    """Road cards flipped in each round so far (the last entry is the round in play, if any)."""
    out: list[int] = []
    for entry in state.log:
        if entry.get("chance") == "farm":
            out.append(0)
        elif entry.get("chance") == "road" and out:
            out[-1] += 1
    return out


@dataclass(frozen=True)
class RoundEnd:
    """One round's length against its exact distribution (given the lengths of earlier rounds)."""

    round: int
    length: int | None          # cards the round took; None while it is still being played
    flipped: int                # cards flipped in it so far
    dist: Dist[int]
    finished: bool

    @property
    def p_length(self) -> Fraction | None:
        """P(the round takes exactly the cards it took)."""
        return None if self.length is None else self.dist.get(self.length, Fraction(0))

    @property
    def p_at_most(self) -> Fraction | None:
        """P(the round is over within the cards it took)."""
        return None if self.length is None else self.dist.cdf(self.length)

    @property
    def mean(self) -> Fraction:
        """Expected length before the round started."""
        return self.dist.mean()


def round_ends(state: AvenueState) -> list[RoundEnd]:
    """Every round played or in play: its length and the exact chance of ending on each card."""
    lengths = round_lengths(state)
    finished = len(state.boxes[0])
    out = []
    for k, n in enumerate(lengths):
        done = k < finished
        dist = avenue_round_length(state.params, round=k + 1, given=lengths[:k])
        out.append(RoundEnd(k + 1, n if done else None, n, dist, done))
    return out


def chance_round_ends_next(state: AvenueState) -> Fraction:
    """The chance the next road card ends this round, from what everyone has seen (the flipped cards);
    0 when the face-up card already ends it."""
    if state.is_terminal() or state.round == 0 or (state.card is not None and state.round_ends_after_this_card()):
        return Fraction(0)
    left = state.road_deck.remaining()
    if left == 0:
        return Fraction(0)
    needed = state.params.yellows_per_round - state.yellows
    if needed > 1:
        return Fraction(1) if left == 1 else Fraction(0)
    yellow_total = sum(y for y, _ in state.params.deck)
    yellow_left = yellow_total - sum(1 for c in state.road_deck.flipped() if c.yellow)
    return next_card(yellow_left, left) if left > 1 else Fraction(1)


def round_length_table(params: AvenueParams | None = None, round: int = 1) -> list[tuple[int, Fraction]]:
    """(cards, exact probability) that round ``round`` of a fresh game ends on that card."""
    dist = avenue_round_length(params or AvenueParams(), round=round)
    return [(k, dist[k]) for k in dist]


def _fresh(state: AvenueState, players: list[str]) -> AvenueState:
    """A new game on the same deal (same seed or fixed deal, same rules)."""
    return AvenueState(state.params, players, seed=state.seed, deal=state.deal)


SAME_DECK_BOTS = ("random", "greedy", "montecarlo", "expert")


def same_deck_scores(state: AvenueState, bots: tuple[str, ...] = SAME_DECK_BOTS,
                     player: int = 0) -> list[dict[str, Any]]:
    """Your score beside each bot playing the same deck alone (the expert too: a few seconds); best first."""
    rows = [{"who": state.players[player] if state.players[player] != "You" else "You", "kind": "you",
             "total": state.total(player), "boxes": list(state.boxes[player]),
             "castles": state.castle_scores(player), "final": state.is_terminal()}]
    base = state.seed if state.seed is not None else 0
    for name in bots:
        label = bot_label(name)
        sim = _fresh(state, [label])
        play_out(sim, [BOTS[name](seed=derive_seed(base, "review", name))])
        rows.append({"who": label, "kind": name, "total": sim.total(0), "boxes": list(sim.boxes[0]),
                     "castles": sim.castle_scores(0), "final": True})
    rows.sort(key=lambda r: -r["total"])
    return rows


def greedy_hindsight(state: AvenueState, player: int = 0) -> list[dict[str, Any]]:
    """For each of your moves: what you did, what the greedy bot would have done on your sheet then,
    and how much better greedy rated its choice (0 when you agree)."""
    sim = _fresh(state, list(state.players))
    bot = GreedyBot()
    out: list[dict[str, Any]] = []
    card_no = 0
    for entry in state.log:
        if "chance" in entry:
            apply_entry(sim, entry)
            card_no += entry["chance"] == "road"
            continue
        p = entry["player"]
        action = parse_action(entry["action"])
        if p == player and sim.card is not None:
            ranked = bot.ranked(sim, p)
            value = {a: v for v, a in ranked}
            best = bot.act(sim, p)
            best_v = value.get(best, 0.0) if isinstance(best, Draw) else 0.0
            mine_v = value.get(action, 0.0) if isinstance(action, Draw) else 0.0
            rank = 1 + sum(1 for v, _ in ranked if v > mine_v) if isinstance(action, Draw) else None
            out.append({
                "card": card_no, "round": sim.round, "road": sim.card.number, "yellow": sim.card.yellow,
                "yours": _move(action), "greedy": _move(best), "agree": action == best,
                "gap": round(max(0.0, best_v - mine_v), 2), "rank": rank, "choices": len(ranked),
            })
        apply_entry(sim, entry, action)
    return out


def _move(action: Any) -> tuple[int, int] | str:
    if isinstance(action, Draw):
        return (action.row, action.col)
    return "peek" if isinstance(action, Peek) else "pass"
