"""The state of one Avenue game: shared cards, every player's sheet and score column."""

from __future__ import annotations

import json
import operator
from dataclasses import dataclass
from typing import Any, ClassVar

from sheetkit.core.chance import Deck, make_rng
from sheetkit.core.errors import IllegalAction, RecordError
from sheetkit.core.records import RecordedGame
from sheetkit.core.schema import expect_dict, expect_list, expect_str
from sheetkit.games.avenue.cards import ROAD_NAMES, RoadCard, build_deck
from sheetkit.games.avenue.moves import AvenueAction, Draw, Pass, Peek
from sheetkit.games.avenue.params import PRESETS, AvenueParams
from sheetkit.games.avenue.sheet import Geometry, Sheet, geometry

# Phases: players act on a face-up card ("act"); or the table must move on ("table").
ACT, TABLE, OVER = "act", "table", "over"


@dataclass(frozen=True)
class Deal:
    """A fixed card order (top first) for both decks, as a record or a lesson may give it."""

    farms: tuple[str, ...]
    roads: tuple[RoadCard, ...]

    def to_json(self) -> dict[str, Any]:
        return {"farms": list(self.farms), "roads": [c.code for c in self.roads]}


def parse_deal(data: Any, params: AvenueParams, path: str = "deal") -> Deal:
    """Validate a fixed deal against the variant's farms and road deck (same cards, any order)."""
    d = expect_dict(data, path, required=["farms", "roads"])
    letters = sorted(params.layout.farms)
    farms = expect_list(d["farms"], f"{path}.farms", len(letters), len(letters))
    for i, f in enumerate(farms):
        expect_str(f, f"{path}.farms[{i}]", 1, letters)
    if sorted(farms) != letters:
        raise RecordError(f"the farm deck must hold each of {', '.join(letters)} exactly once", f"{path}.farms")
    want = build_deck(params.deck)
    roads_raw = expect_list(d["roads"], f"{path}.roads", len(want), len(want))
    roads = []
    for i, code in enumerate(roads_raw):
        text = expect_str(code, f"{path}.roads[{i}]", 2)  # its own RecordError already names the path
        try:
            roads.append(RoadCard.parse(text))
        except ValueError as e:
            raise RecordError(str(e), f"{path}.roads[{i}]") from None
    if sorted(roads) != sorted(want):
        have = {c.code: roads.count(c) for c in set(roads)}
        need = {c.code: want.count(c) for c in set(want)}
        diff = sorted(k for k in set(have) | set(need) if have.get(k, 0) != need.get(k, 0))
        k = diff[0]
        raise RecordError(f"wrong card counts: {have.get(k, 0)} × {k}, the deck has {need.get(k, 0)}",
                          f"{path}.roads")
    return Deal(tuple(farms), tuple(roads))


class AvenueState(RecordedGame, code_prefix="AV", presets=PRESETS):
    """An Avenue game in progress. All players act on the same card at the same time."""

    game_name: ClassVar[str] = "avenue"

    def __init__(self, params: AvenueParams | None = None, players: list[str] | int = 1,
                 seed: int | None = None, deal: Deal | None = None) -> None:
        self.params = params or AvenueParams()
        if isinstance(players, int):
            players = ["You"] + [f"Player {i + 1}" for i in range(1, players)] if players > 0 else []
        if not players:
            raise ValueError("Avenue needs at least one player")
        self.players: list[str] = list(players)
        if (seed is None) == (deal is None):
            raise ValueError("give exactly one of seed or deal")
        self.seed, self.deal = seed, deal
        self.geo: Geometry = geometry(self.params.layout)
        if deal is not None:
            self.farm_deck: Deck[str] = Deck(deal.farms)
            self.road_deck: Deck[RoadCard] = Deck(deal.roads)
        else:
            rng = make_rng(seed)
            self.farm_deck = Deck.shuffled(sorted(self.params.layout.farms), rng)
            self.road_deck = Deck.shuffled(build_deck(self.params.deck), rng)
        n = len(self.players)
        self.sheets = [Sheet(self.geo) for _ in range(n)]
        self.round_farms: list[str] = []     # farm letter of each round so far
        self.grapes: list[list[int]] = [[] for _ in range(n)]  # grapes reached at each round's scoring
        self.boxes: list[list[int]] = [[] for _ in range(n)]   # number written in each score box
        self.targets: list[list[int]] = [[] for _ in range(n)]  # the number each box had to beat
        self.card: RoadCard | None = None
        self.yellows = 0                     # yellow cards flipped this round
        self.cards_this_round = 0
        self.acted: list[AvenueAction | None] = [None] * n
        self.peeked: list[bool] = [False] * n   # peeked this round
        self.seen_farm: list[str | None] = [None] * n  # what a peek showed, until that farm is flipped
        self.phase = TABLE
        self._next = "farm"                  # the next table step: farm, road, score
        self._undo: list[tuple[Any, ...] | None] = [None] * n
        self.log: list[dict[str, Any]] = []

    # ----- protocol basics -------------------------------------------------------------
    @property
    def round(self) -> int:
        """Current round, 1-based (0 before the first farm is flipped)."""
        return len(self.round_farms)

    @property
    def farm(self) -> str | None:
        """The farm scored at the end of this round."""
        return self.round_farms[-1] if self.round_farms else None

    def current_players(self) -> list[int]:
        if self.phase != ACT:
            return []
        return [p for p in range(self.num_players) if self.acted[p] is None]

    def is_chance_node(self) -> bool:
        return self.phase == TABLE

    def is_terminal(self) -> bool:
        return self.phase == OVER

    # ----- the table's steps -----------------------------------------------------------
    def apply_chance(self) -> dict[str, Any]:
        """Move the table on by one step: score a finished round and flip a farm, or flip a road."""
        if self.phase != TABLE:
            self.check_table_step()
        self._undo = [None] * self.num_players
        if self._next == "score":
            self._score_round()
            if self.round >= self.params.rounds:
                self.phase = OVER
                self.card = None
                entry: dict[str, Any] = {"chance": "end"}
                self.log.append(entry)
                return entry
            self._next = "farm"
        if self._next == "farm":
            farm = self.farm_deck.flip()
            self.round_farms.append(farm)
            self.yellows = self.cards_this_round = 0
            self.peeked = [False] * self.num_players
            self.seen_farm = [None] * self.num_players
            self.card = None
            self._next = "road" if self.road_deck.remaining() else "score"
            entry = {"chance": "farm", "card": farm}
        else:
            card = self.road_deck.flip()
            self.card = card
            self.yellows += card.yellow
            self.cards_this_round += 1
            self.acted = [None] * self.num_players
            self.phase = ACT
            entry = {"chance": "road", "card": card.code}
        self.log.append(entry)
        return entry

    def _score_round(self) -> None:
        farm = self.farm
        assert farm is not None
        for p, sheet in enumerate(self.sheets):
            got = sheet.farm_grapes(farm)
            target = self.boxes[p][-1] if self.boxes[p] else 0
            ok = got > target if self.params.rising else got > 0
            self.grapes[p].append(got)
            self.targets[p].append(target if self.params.rising else 0)
            self.boxes[p].append(got if ok else 0)

    def round_ends_after_this_card(self) -> bool:
        """True when the face-up card closes the round (the last yellow, or no cards left)."""
        return self.yellows >= self.params.yellows_per_round or self.road_deck.remaining() == 0

    # ----- players' actions ------------------------------------------------------------
    def can_peek(self, player: int) -> bool:
        """Peeking is allowed once per round while the farm deck is not empty."""
        return not self.peeked[player] and self.farm_deck.remaining() > 0

    def legal_actions(self, player: int) -> list[AvenueAction]:
        if self.phase != ACT or not 0 <= player < self.num_players or self.acted[player] is not None:
            return []
        cols, roads = self.geo.cols, self.sheets[player].roads
        acts: list[AvenueAction] = [Draw(*divmod(i, cols)) for i in range(self.geo.size) if not roads[i]]
        if self.can_peek(player):
            acts.append(Peek())
        return acts or [Pass()]

    def check_table_step(self) -> None:
        """Raise ``IllegalAction`` (in words) when the table may not move on now (flip or score)."""
        if self.phase == ACT:
            card = f"road {self.card.number}" if self.card is not None else "this card"
            raise IllegalAction(f"first draw {card} in an empty cell, or peek: players still have to act on this "
                                "card", "not-table")
        if self.phase == OVER:
            raise IllegalAction("the game is over", "not-table")

    def check(self, player: int, action: Any) -> None:
        try:
            index = operator.index(player)
        except TypeError:
            index = -1
        if isinstance(player, bool) or not 0 <= index < self.num_players:
            who = "only player 0" if self.num_players == 1 else f"players 0 to {self.num_players - 1}"
            raise IllegalAction(f"there is no player {player!r} in this game (it has {who})", "no-player")
        if self.phase == OVER:
            raise IllegalAction("the game is over", "over")
        if self.phase == TABLE:
            raise IllegalAction("wait for the next card to be flipped", "not-your-turn")
        if self.acted[player] is not None:
            raise IllegalAction("you have already acted on this card — undo first to change it", "acted")
        if isinstance(action, Draw):
            try:
                if isinstance(action.row, bool) or isinstance(action.col, bool):
                    raise TypeError("True/False is not a row or column")
                r, c = operator.index(action.row), operator.index(action.col)
            except TypeError:
                raise IllegalAction(f"a cell is given by whole-number row and column, not "
                                    f"({action.row!r}, {action.col!r})", "bad-cell") from None
            if not (0 <= r < self.geo.rows and 0 <= c < self.geo.cols):
                raise IllegalAction(f"cell ({r}, {c}) is off the sheet (rows 0–{self.geo.rows - 1}, "
                                    f"columns 0–{self.geo.cols - 1})", "off-sheet")
            if self.sheets[player].roads[r * self.geo.cols + c]:
                raise IllegalAction(f"the cell at row {r + 1}, col {c + 1} already has a road", "occupied")
        elif isinstance(action, Peek):
            if self.peeked[player]:
                raise IllegalAction("you have already peeked this round", "peeked")
            if not self.farm_deck.remaining():
                raise IllegalAction("the farm deck is empty — there is nothing to peek at", "no-farms")
        elif isinstance(action, Pass):
            if self.sheets[player].free or self.can_peek(player):
                raise IllegalAction("you can only pass when your sheet is full and you cannot peek", "pass")
        else:
            raise IllegalAction(f"{action!r} is not an Avenue move (draw, peek or pass)", "bad-action")

    def apply_unchecked(self, player: int, action: AvenueAction) -> None:
        sheet = self.sheets[player]
        self._undo[player] = (sheet.copy(), self.peeked[player], self.seen_farm[player], len(self.log))
        if isinstance(action, Draw):
            sheet.place(action.row * self.geo.cols + action.col, self.card.number)  # type: ignore[union-attr]
        elif isinstance(action, Peek):
            self.peeked[player] = True
            self.seen_farm[player] = self.farm_deck.peek()
        self.acted[player] = action
        self.log.append({"player": player, "action": action.to_json()})
        if all(a is not None for a in self.acted):
            self.phase = TABLE
            self._next = "score" if self.round_ends_after_this_card() else "road"

    def apply_fast(self, player: int, action: AvenueAction) -> None:
        """The simulation path: no checks, no undo snapshot, no log line (the record is not kept)."""
        if isinstance(action, Draw):
            self.sheets[player].place(action.row * self.geo.cols + action.col, self.card.number)  # type: ignore[union-attr]
        elif isinstance(action, Peek):
            self.peeked[player] = True
            self.seen_farm[player] = self.farm_deck.peek()
        self.acted[player] = action
        if all(a is not None for a in self.acted):
            self.phase = TABLE
            self._next = "score" if self.round_ends_after_this_card() else "road"

    def can_undo(self, player: int) -> bool:
        return (0 <= player < self.num_players and self.phase in (ACT, TABLE) and self.acted[player] is not None
                and self._undo[player] is not None)

    def undo(self, player: int) -> None:
        """Take back your draw or peek on the face-up card (never once the next card is flipped)."""
        if not self.can_undo(player):
            raise IllegalAction("nothing to undo: you can only take back your move on the face-up card",
                                "no-undo")
        sheet, peeked, seen, _ = self._undo[player]  # type: ignore[misc]
        self.sheets[player] = sheet
        self.peeked[player], self.seen_farm[player] = peeked, seen
        self.acted[player] = None
        self._undo[player] = None
        self._drop_last_entry(player)  # the player's entry for the face-up card
        self.phase = ACT
        # While players act on a road card the next table step is always another road; the last
        # mover's apply had already decided it, so put it back for an exact, fingerprint-equal undo.
        self._next = "road"

    # ----- scores ----------------------------------------------------------------------
    def castle_scores(self, player: int) -> dict[str, int]:
        """What each castle scores on the sheet now (counted at the end of the game)."""
        s = self.sheets[player]
        return {"purple": s.castle_score("purple"), "green": s.castle_score("green")}

    def total(self, player: int) -> int:
        """Farm boxes + castles − penalty per zero box (castles count as they stand now)."""
        boxes = self.boxes[player]
        zeros = sum(1 for b in boxes if b == 0)
        return sum(boxes) + sum(self.castle_scores(player).values()) - self.params.penalty * zeros

    def score_bounds(self) -> tuple[int, int]:
        pur, grn = self.params.layout.total_grapes()
        return (-self.params.penalty * self.params.rounds, self.params.rounds * (pur + grn) + pur + grn)

    def placings(self) -> list[int]:
        """1-based placing per player; ties broken by the single highest farm score box, else shared.

        docs/avenue.md §Winner and ties: between equal totals the higher single farm box wins — the score
        boxes are the farm boxes of the score column (castle scores are not boxes).
        """
        keys = [(self.total(p), max(self.boxes[p], default=0)) for p in range(self.num_players)]
        return [1 + sum(1 for k in keys if k > keys[p]) for p in range(self.num_players)]

    def preview(self, player: int) -> dict[str, Any]:
        """What the current round's farm and the castles would score if counted now."""
        farm = self.farm
        out: dict[str, Any] = {"castles": self.castle_scores(player), "farm": None}
        if farm is not None and self.phase != OVER and len(self.boxes[player]) < self.round:
            got = self.sheets[player].farm_grapes(farm)
            target = self.boxes[player][-1] if (self.boxes[player] and self.params.rising) else 0
            ok = got > target
            out["farm"] = {"farm": farm, "grapes": got, "target": target, "box": got if ok else 0, "beats": ok}
        return out

    def breakdown(self, player: int) -> dict[str, Any]:
        """The score column in full: each farm box, castles, penalties, total and placing."""
        boxes, zeros = self.boxes[player], sum(1 for b in self.boxes[player] if b == 0)
        castles = self.castle_scores(player)
        return {
            "player": self.players[player],
            "farms": [{"round": k + 1, "farm": self.round_farms[k], "grapes": self.grapes[player][k],
                       "target": self.targets[player][k], "box": boxes[k]} for k in range(len(boxes))],
            "castles": castles,
            "farm_total": sum(boxes),
            "zeros": zeros,
            "penalty": -self.params.penalty * zeros,
            "total": self.total(player),
            "placing": self.placings()[player],
            "final": self.phase == OVER,
        }

    # ----- views, copies, records ------------------------------------------------------
    def view(self, player: int) -> dict[str, Any]:
        """What one player may see: every sheet (they are public), never the decks' order."""
        card = self.card
        return {
            "game": "avenue",
            "player": player,
            "players": list(self.players),
            "round": self.round,
            "rounds": self.params.rounds,
            "farm": self.farm,
            "card": None if card is None else {"number": card.number, "colour": card.colour,
                                               "road": ROAD_NAMES[card.number]},
            "yellows": self.yellows,
            "yellows_per_round": self.params.yellows_per_round,
            "road_cards_left": self.road_deck.remaining(),
            "farms_left": self.farm_deck.remaining(),
            "phase": self.phase,
            "acted": self.acted[player] is not None,
            "peeked": self.peeked[player],
            "peeked_farm": self.seen_farm[player],
            "sheets": [s.grid() for s in self.sheets],
            "boxes": [list(b) for b in self.boxes],
            "round_farms": list(self.round_farms),
            "scores": self.scores(),
        }

    def solo_clone(self, player: int) -> AvenueState:
        """A one-player copy holding only ``player``'s sheet (bots plan on it; others don't matter)."""
        new = self.clone()
        for name in ("sheets", "grapes", "boxes", "targets", "acted", "peeked", "seen_farm", "_undo", "players"):
            setattr(new, name, [getattr(new, name)[player]])
        new.log = []
        return new

    def clone(self) -> AvenueState:
        new = AvenueState.__new__(AvenueState)
        new.__dict__.update(self.__dict__)
        new.farm_deck, new.road_deck = self.farm_deck.copy(), self.road_deck.copy()
        new.sheets = [s.copy() for s in self.sheets]
        new.round_farms = list(self.round_farms)
        new.grapes = [list(x) for x in self.grapes]
        new.boxes = [list(x) for x in self.boxes]
        new.targets = [list(x) for x in self.targets]
        new.acted, new.peeked, new.seen_farm = list(self.acted), list(self.peeked), list(self.seen_farm)
        new._undo = [None if u is None else (u[0].copy(), *u[1:]) for u in self._undo]
        new.log = [dict(e) for e in self.log]
        new.players = list(self.players)
        return new

    def fingerprint(self) -> str:
        return json.dumps({
            "sheets": [s.roads for s in self.sheets],
            "round_farms": self.round_farms, "grapes": self.grapes, "boxes": self.boxes,
            "targets": self.targets, "card": None if self.card is None else self.card.code,
            "yellows": self.yellows, "acted": [None if a is None else a.to_json() for a in self.acted],
            "peeked": self.peeked, "seen": self.seen_farm, "phase": self.phase, "next": self._next,
            "decks": [self.farm_deck.remaining(), self.road_deck.remaining()], "log": self.log,
        }, sort_keys=True)
