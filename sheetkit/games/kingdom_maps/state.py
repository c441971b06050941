"""The state of one Kingdom Maps game: the dice on the table, every player's sheet and the turn order.

A turn (docs/kingdom_maps.md §A turn): the table rolls 3 dice; the active player announces a terrain and
takes a die; each passive player picks one of the other two; then everyone draws, hex by hex,
with ``Place`` actions. With 1 player (§Solo play) a turn has two drawings: the second roll of 2
dice is a table step of its own, and ``Pick`` chooses which die is the amount.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from sheetkit.core.errors import IllegalAction
from sheetkit.core.records import RecordedGame
from sheetkit.games.kingdom_maps.board import Board
from sheetkit.games.kingdom_maps.checks import check_move, word_list
from sheetkit.games.kingdom_maps.criteria import CRITERIA, GROUP_A, GROUP_B
from sheetkit.games.kingdom_maps.dice import Deal, DiceSource
from sheetkit.games.kingdom_maps.moves import Announce, Bank, KingdomAction, Pass, Pick, Place, Power
from sheetkit.games.kingdom_maps.params import MAX_PLAYERS, PRESETS, KingdomParams
from sheetkit.games.kingdom_maps.phases import ANNOUNCE, DRAW, OVER, TABLE
from sheetkit.games.kingdom_maps.placement import next_hexes, start_hexes
from sheetkit.games.kingdom_maps.sheet import Sheet
from sheetkit.games.kingdom_maps.terrains import terrain_name

GAME = "kingdom-maps"


class KingdomState(RecordedGame, code_prefix="KM", presets=PRESETS):
    """A Kingdom Maps game in progress, solo or 2–4 players."""

    game_name: ClassVar[str] = GAME

    def __init__(self, params: KingdomParams | None = None, players: list[str] | int = 1,
                 seed: int | None = None, deal: Deal | None = None) -> None:
        self.params = params or KingdomParams()
        if isinstance(players, int):
            players = ["You"] + [f"Player {i + 1}" for i in range(1, players)] if players > 0 else []
        if not 1 <= len(players) <= MAX_PLAYERS:
            raise ValueError(f"Kingdom Maps takes 1 to {MAX_PLAYERS} players, not {len(players)}")
        self.players: list[str] = list(players)
        if (seed is None) == (deal is None):
            raise ValueError("give exactly one of seed or deal")
        if deal is not None and self.params.criteria is not None and deal.criteria != self.params.criteria:
            raise ValueError("the deal's criteria differ from the variant's fixed criteria")
        self.seed, self.deal = seed, deal
        self.board: Board = self.params.board
        self.uses_each = self.params.uses_for(len(self.players))
        self._dice = DiceSource(deal.dice, deal.seed) if deal is not None else DiceSource((), seed)
        self.sheets = [Sheet(self.board.size, self.uses_each) for _ in self.players]
        self.criteria: tuple[str, ...] = ()
        self.turn = 0  # turns started so far
        self.active = 0  # whose turn it is (always 0 solo)
        self.step = 0  # 1: the turn's first drawing; 2: solo's second drawing
        self.dice: list[int] = []  # the dice on the table now
        self.terrain: int | None = None  # the terrain of the current drawing, once known
        self.taken: int | None = None  # the die value the active player took
        self.phase = TABLE
        self.ending = False  # someone could not draw: the game ends with this turn
        self.end_reason: str | None = None
        self._undo: list[list[tuple[Sheet, bool, int]]] = [[] for _ in self.players]
        self.log: list[dict[str, Any]] = []

    # ----- protocol basics -------------------------------------------------------------
    @property
    def solo(self) -> bool:
        """True for a one-player game (two drawings per turn)."""
        return len(self.players) == 1

    @property
    def bank_now(self) -> bool:
        """True when the current drawing is the last of its turn (? hexes are scored at a turn's end)."""
        return not self.solo or self.step == 2

    def current_players(self) -> list[int]:
        if self.phase == ANNOUNCE:
            return [self.active]
        if self.phase != DRAW:
            return []
        bank_now = self.bank_now
        return [p for p, s in enumerate(self.sheets) if not s.finished(bank_now)]

    def is_chance_node(self) -> bool:
        return self.phase == TABLE

    def is_terminal(self) -> bool:
        return self.phase == OVER

    # ----- the table's steps -----------------------------------------------------------
    def next_table_step(self) -> str:
        """What ``apply_chance`` will do: 'criteria', 'roll', 'roll2' (solo) or 'end'."""
        if self.phase == OVER:
            return "over"
        if not self.criteria:
            return "criteria"
        if self.turn == 0:
            return "roll" if self._can_start_turn(self.active) else "end"
        if self.solo and self.step == 1:
            return "roll2"
        if self.ending or any(s.passed for s in self.sheets):
            return "end"
        return "roll" if self._can_start_turn(self._next_active()) else "end"

    def _next_active(self) -> int:
        return (self.active + 1) % self.num_players

    def _can_start_turn(self, player: int) -> bool:
        return any(self.sheets[player].uses[1:]) and self._dice.can_roll(5 if self.solo else 3)

    def apply_chance(self) -> dict[str, Any]:
        """Move the table on by one step: choose the criteria, roll the dice, or end the game."""
        if self.phase != TABLE:
            raise IllegalAction("the game is over" if self.phase == OVER else
                                "the table cannot roll yet: players still have to act", "not-table")
        step = self.next_table_step()
        self._undo = [[] for _ in self.players]
        entry: dict[str, Any]
        if step == "criteria":
            if self.params.criteria is not None:
                chosen = self.params.criteria
            elif self.deal is not None:
                chosen = self.deal.criteria
            else:
                chosen = tuple(sorted(self._dice.roll_criteria()))
            self.criteria = tuple(chosen)
            entry = {"chance": "criteria", "criteria": list(chosen)}
        elif step == "roll2":
            self.ending = self.ending or any(s.passed for s in self.sheets)
            self.step = 2
            self._new_drawing(self._dice.roll(2))
            self.phase = DRAW
            entry = {"chance": "roll", "dice": list(self.dice)}
        elif step == "roll":
            if self.turn > 0:
                self.active = self._next_active()
            self.turn += 1
            self.step = 1
            self._new_drawing(self._dice.roll(3))
            self.phase = ANNOUNCE
            entry = {"chance": "roll", "dice": list(self.dice)}
        else:
            self.end_reason = self._end_reason()
            self.phase = OVER
            self.dice, self.terrain, self.taken = [], None, None
            entry = {"chance": "end"}
        self.log.append(entry)
        return entry

    def _end_reason(self) -> str:
        if self.turn and (self.ending or any(s.passed for s in self.sheets)):
            names = [self.players[p] for p, s in enumerate(self.sheets) if s.passed] or ["a player"]
            return f"{word_list(names, 'and')} could not draw the amount"
        if not self._dice.can_roll(5 if self.solo else 3):
            return "the deal's dice ran out"
        return "terrain uses ran out"

    def _new_drawing(self, dice: list[int]) -> None:
        self.dice, self.terrain, self.taken = dice, None, None
        for s in self.sheets:
            s.new_drawing()

    # ----- what a player may do --------------------------------------------------------
    def pick_options(self, player: int) -> list[int]:
        """The die values ``player`` may pick now (passive: the two the active player left; solo: either)."""
        if self.phase != DRAW or self.sheets[player].die is not None:
            return []
        rest = list(self.dice)
        if self.taken is not None:
            rest.remove(self.taken)
        return sorted(set(rest))

    def pick_terrain(self, die: int) -> int | None:
        """The terrain a ``Pick(die)`` draws: solo, the other die's number (docs/kingdom_maps.md §Solo play);
        otherwise the one announced."""
        if self.solo:
            rest = list(self.dice)
            rest.remove(die)
            return rest[0]
        return self.terrain

    def amount(self, player: int) -> int | None:
        """How many hexes ``player`` draws in this drawing (None before they have a die)."""
        return self.sheets[player].amount

    def start_hexes(self, player: int) -> list[int]:
        """Hex numbers where ``player``'s group may begin now (empty if they have already begun)."""
        s = self.sheets[player]
        if s.amount is None or s.placed or s.passed:
            return []
        return start_hexes(self.board, s.cells, s.amount)

    def legal_hexes(self, player: int) -> list[tuple[int, int]]:
        """The (q, r) hexes ``player`` may draw on right now — what a widget highlights."""
        return [self.board.coords[i] for i in self.legal_hex_numbers(player)]

    def legal_hex_numbers(self, player: int) -> list[int]:
        """The hex numbers ``player`` may draw on right now (``legal_hexes`` as board indices)."""
        if self.phase != DRAW or not 0 <= player < self.num_players:
            return []
        s = self.sheets[player]
        if s.amount is None or s.passed or len(s.placed) >= s.amount:
            return []
        if not s.placed:
            return start_hexes(self.board, s.cells, s.amount)
        return next_hexes(self.board, s.cells, s.placed)

    def legal_actions(self, player: int) -> list[KingdomAction]:
        if not isinstance(player, int) or not 0 <= player < self.num_players:
            return []
        s = self.sheets[player]
        if self.phase == ANNOUNCE:
            if player != self.active:
                return []
            values = sorted(set(self.dice))
            return [Announce(t, v) for t in range(1, 7) if s.uses[t] > 0 for v in values]
        if self.phase != DRAW or s.finished(self.bank_now):
            return []
        if s.die is None:
            return [Pick(v) for v in self.pick_options(player)]
        if s.placed_all():
            return [Bank(c) for c in self.criteria]
        acts: list[KingdomAction] = []
        if not s.placed:
            amount = s.amount
            assert amount is not None
            if self.params.powers and s.available > 0:
                if amount < 6 and s.shift >= 0:
                    acts.append(Power(1))
                if amount > 1 and s.shift <= 0:
                    acts.append(Power(-1))
        hexes = self.legal_hex_numbers(player)
        acts += [Place(*self.board.coords[i]) for i in hexes]
        if not s.placed and not hexes:
            acts.append(Pass())
        return acts

    def check(self, player: int, action: Any) -> None:
        check_move(self, player, action)

    # ----- applying moves ----------------------------------------------------------------
    def apply_unchecked(self, player: int, action: KingdomAction) -> None:
        self._undo[player].append((self.sheets[player].copy(), isinstance(action, Announce), len(self.log)))
        self.log.append({"player": player, "action": action.to_json()})
        self._do(player, action)

    def apply_fast(self, player: int, action: KingdomAction) -> None:
        """The simulation path: no checks, no undo snapshot, no log line (the record is not kept)."""
        self._do(player, action)

    def _do(self, player: int, action: KingdomAction) -> None:
        s = self.sheets[player]
        if isinstance(action, Place):
            i = self.board.index[(action.q, action.r)]
            s.cells[i] = self.terrain or 0
            s.placed.append(i)
            if self.board.is_power[i] and self.params.powers:
                s.powers += 1
            if self.board.is_question[i] and self.params.questions:
                s.questions += 1
        elif isinstance(action, Announce):
            s.uses[action.terrain] -= 1
            self.terrain, self.taken = action.terrain, action.die
            s.die = action.die
            self.phase = DRAW
        elif isinstance(action, Pick):
            s.die = action.die
            self.terrain = self.pick_terrain(action.die)
        elif isinstance(action, Power):
            s.spent += 1
            s.shift += action.delta
        elif isinstance(action, Pass):
            s.passed = True
        elif isinstance(action, Bank):
            s.banked.append((action.criterion, CRITERIA[action.criterion].score(self.board, s.cells)))
            s.questions -= 1
        if self.phase == DRAW:
            bank_now = self.bank_now
            for x in self.sheets:
                if not x.finished(bank_now):
                    break
            else:
                self.phase = TABLE

    def can_undo(self, player: int) -> bool:
        if not isinstance(player, int) or not 0 <= player < self.num_players or self.phase == OVER:
            return False
        stack = self._undo[player]
        if not stack:
            return False
        if stack[-1][1]:  # an announce: only while nobody has acted on it
            return not any(self._undo[p] for p in range(self.num_players) if p != player)
        return True

    def undo(self, player: int) -> None:
        """Take back your own last move of this drawing (an announce only while nobody has acted on it)."""
        if not self.can_undo(player):
            raise IllegalAction("nothing to undo: you can take back your own moves until the next roll"
                                if not (0 <= player < self.num_players and self._undo[player])
                                else "the others have already acted on your announcement", "no-undo")
        sheet, was_announce, _ = self._undo[player].pop()
        self.sheets[player] = sheet
        self._drop_last_entry(player)
        if was_announce:
            self.terrain = self.taken = None
            self.phase = ANNOUNCE
            return
        if self.solo and self.step == 2 and sheet.die is None:
            self.terrain = None
        self.phase = DRAW

    # ----- scores ----------------------------------------------------------------------
    def criterion_scores(self, player: int) -> dict[str, int]:
        """What each criterion in play scores on ``player``'s map now."""
        cells = self.sheets[player].cells
        return {c: CRITERIA[c].score(self.board, cells) for c in self.criteria}

    def total(self, player: int) -> int:
        """The criteria on the map as it stands + the banked ? scores."""
        s = self.sheets[player]
        return sum(self.criterion_scores(player).values()) + sum(pts for _, pts in s.banked)

    def score_bounds(self) -> tuple[int, int]:
        board = self.board
        if self.params.criteria is not None:
            maxes = [CRITERIA[c].max_score(board) for c in self.params.criteria]
        elif self.deal is not None:
            maxes = [CRITERIA[c].max_score(board) for c in self.deal.criteria]
        else:
            maxes = []
            for names in (GROUP_A, GROUP_B):
                maxes += sorted((CRITERIA[c].max_score(board) for c in names), reverse=True)[:2]
        banks = len(board.questions) * max(maxes) if self.params.questions else 0
        return (0, sum(maxes) + banks)

    def placings(self) -> list[int]:
        """1-based placing per player; equal totals share a placing (a shared victory)."""
        totals = self.scores()
        return [1 + sum(1 for t in totals if t > totals[p]) for p in range(self.num_players)]

    def breakdown(self, player: int) -> dict[str, Any]:
        """The score zone in full: each criterion, each banked ?, the total, placing and title."""
        from sheetkit.games.kingdom_maps.titles import placing_title, solo_title

        s = self.sheets[player]
        crit = self.criterion_scores(player)
        out: dict[str, Any] = {
            "player": self.players[player],
            "criteria": [{"code": c, "name": CRITERIA[c].name, "score": v} for c, v in crit.items()],
            "questions": [{"criterion": c, "score": v} for c, v in s.banked],
            "criteria_total": sum(crit.values()),
            "question_total": sum(v for _, v in s.banked),
            "total": self.total(player),
            "placing": self.placings()[player],
            "drawn": s.drawn,
            "empty": self.board.size - s.drawn,
            "final": self.phase == OVER,
        }
        # Solo by total; against others by placing (a total depends on the player count).
        out["title"] = solo_title(out["total"]) if self.solo else placing_title(out["placing"])
        return out

    # ----- views, copies, records ------------------------------------------------------
    def prompt(self, player: int) -> str:
        """One status line answering 'what do I do now?' for ``player``."""
        if self.phase == OVER:
            return f"The game is over — {self.end_reason}."
        if self.phase == TABLE:
            return "Roll the dice." if self.criteria else "Roll for the criteria."
        if self.phase == ANNOUNCE:
            if player != self.active:
                return f"Wait for {self.players[self.active]} to announce a terrain."
            return f"Announce a terrain and take a die ({', '.join(map(str, sorted(self.dice)))})."
        s = self.sheets[player]
        if s.finished(self.bank_now):
            return "Done — wait for the others."
        if s.die is None:
            if self.solo:
                return f"Pick the die for the amount — the other names the terrain ({word_list(self.pick_options(0))})."
            name = terrain_name(self.terrain or 1, plural=True)
            return f"Pick a die for {name}: {word_list(self.pick_options(player))}."
        if s.placed_all():
            return "Choose a criterion to score for your ? hex."
        left = (s.amount or 0) - len(s.placed)
        if not s.placed and not self.legal_hex_numbers(player):
            name = terrain_name(self.terrain or 1, plural=s.amount != 1)
            return f"No room for {s.amount} {name} — draw nothing (the game ends after this turn)."
        name = terrain_name(self.terrain or 1, plural=left != 1)
        return f"Draw {left} {name}" + (" — or spend a +1/-1 power" if not s.placed and s.available and
                                       self.params.powers else "") + "."

    def view(self, player: int) -> dict[str, Any]:
        """What a player may see: everything on the table (all sheets are public), never the dice to come."""
        return {
            "game": GAME,
            "player": player,
            "players": list(self.players),
            "phase": self.phase,
            "turn": self.turn,
            "step": self.step,
            "active": self.active,
            "dice": list(self.dice),
            "terrain": self.terrain,
            "taken": self.taken,
            "criteria": [CRITERIA[c].to_json() for c in self.criteria],
            "amount": self.amount(player) if 0 <= player < self.num_players else None,
            "legal_hexes": [list(h) for h in self.legal_hexes(player)],
            "sheets": [s.to_json() for s in self.sheets],
            "scores": self.scores(),
            "prompt": self.prompt(player) if 0 <= player < self.num_players else "",
            "end_reason": self.end_reason,
        }

    def clone(self) -> KingdomState:
        new = KingdomState.__new__(KingdomState)
        new.__dict__.update(self.__dict__)
        new.players = list(self.players)
        new._dice = self._dice.copy()
        new.sheets = [s.copy() for s in self.sheets]
        new.dice = list(self.dice)
        new._undo = [[(sh.copy(), a, at) for sh, a, at in stack] for stack in self._undo]
        new.log = [dict(e) for e in self.log]
        return new

    def fingerprint(self) -> str:
        return json.dumps({
            "sheets": [s.to_json() for s in self.sheets], "criteria": self.criteria, "turn": self.turn,
            "active": self.active, "step": self.step, "dice": self.dice, "terrain": self.terrain,
            "taken": self.taken, "phase": self.phase, "ending": self.ending, "end": self.end_reason,
            "dice_used": self._dice.used, "log": self.log,
        }, sort_keys=True)
