"""Why a move is illegal: the checks behind ``KingdomState.check``, each refusal in a player's words."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sheetkit.core.errors import IllegalAction
from sheetkit.games.kingdom_maps.moves import Announce, Bank, Pass, Pick, Place, Power
from sheetkit.games.kingdom_maps.phases import ANNOUNCE, OVER, TABLE
from sheetkit.games.kingdom_maps.placement import can_draw, empty_patches, touches_drawn
from sheetkit.games.kingdom_maps.sheet import Sheet
from sheetkit.games.kingdom_maps.terrains import terrain_name

if TYPE_CHECKING:
    from sheetkit.games.kingdom_maps.state import KingdomState

def word_list(values: list[Any], word: str = "or") -> str:
    """'1, 3 or 4' — a list of values for a message."""
    words = [str(v) for v in values]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {word} " + words[-1]


def check_move(state: KingdomState, player: int, action: Any) -> None:
    """Raise IllegalAction, in a player's words, unless ``action`` is legal for ``player`` now."""
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < state.num_players:
        raise IllegalAction(f"there is no player {player} in this game (players 0–{state.num_players - 1})",
                            "no-player")
    if state.phase == OVER:
        raise IllegalAction("the game is over", "over")
    if state.phase == TABLE:
        raise IllegalAction("wait for the dice to be rolled", "not-your-turn")
    if not isinstance(action, (Announce, Pick, Power, Place, Pass, Bank)):
        raise IllegalAction(f"{action!r} is not a Kingdom Maps move (announce, pick, power, place, pass or bank)",
                            "bad-action")
    _check_fields(action)
    if state.phase == ANNOUNCE:
        _check_announce(state, player, action)
        return
    s = state.sheets[player]
    if isinstance(action, Announce):
        if state.solo:
            raise IllegalAction("in the second drawing, pick the die that gives the amount — the other die "
                                "names the terrain", "announced")
        raise IllegalAction("the terrain is already announced this turn", "announced")
    if s.finished(state.bank_now):
        raise IllegalAction("you have finished this drawing — wait for the others", "done")
    if s.die is None:
        _check_pick(state, player, action)
        return
    if isinstance(action, Pick):
        raise IllegalAction(f"you have already taken the {s.die} this turn", "picked")
    if s.placed_all():
        _check_bank(state, s, action)
        return
    amount = s.amount
    assert amount is not None
    if isinstance(action, Bank):
        raise IllegalAction(f"draw your {amount - len(s.placed)} remaining hex(es) first, then score your ?",
                            "not-drawn")
    if isinstance(action, Power):
        _check_power(state, s, action)
    elif isinstance(action, Pass):
        if s.placed:
            raise IllegalAction("you have started drawing — finish the group", "started")
        if can_draw(state.board, s.cells, amount):
            raise IllegalAction(f"you can still draw {s.amount} hexes — drawing nothing is only for when "
                                "there is no room", "can-draw")
    elif isinstance(action, Place):
        _check_place(state, s, action)

def _check_fields(action: Any) -> None:
    """Every field a whole number (not True/False), a criterion a text: anything else is refused, never crashes."""
    if isinstance(action, Bank):
        if not isinstance(action.criterion, str):
            raise IllegalAction(f"a criterion is named by its code (A1…B6), not {action.criterion!r}", "bad-action")
        return
    for name, value in vars(action).items():
        if not isinstance(value, int) or isinstance(value, bool):
            raise IllegalAction(f"{name} must be a whole number, not {value!r}", "bad-action")


def _check_announce(state: KingdomState, player: int, action: Any) -> None:
    active = state.players[state.active]
    if player != state.active:
        raise IllegalAction(f"wait for {active} to announce the terrain", "not-your-turn")
    if not isinstance(action, Announce):
        raise IllegalAction("first announce a terrain and take a die", "announce-first")
    t, v = action.terrain, action.die
    if not 1 <= t <= 6:
        raise IllegalAction(f"there is no terrain {t} (terrains are 1–6)", "no-terrain")
    if state.sheets[player].uses[t] <= 0:
        raise IllegalAction(f"you have no {terrain_name(t)} uses left", "no-uses")
    if v not in state.dice:
        raise IllegalAction(f"no die shows {v} (the dice show {word_list(sorted(state.dice), 'and')})",
                            "no-die")

def _check_pick(state: KingdomState, player: int, action: Any) -> None:
    options = state.pick_options(player)
    if not isinstance(action, Pick):
        raise IllegalAction(f"first pick a die: {word_list(options)}", "pick-first")
    if action.die not in options:
        if state.taken is not None:
            raise IllegalAction(f"you can pick {word_list(options)} — {state.players[state.active]} took the "
                                f"{state.taken}", "no-die")
        raise IllegalAction(f"no die shows {action.die}: pick {word_list(options)}", "no-die")

def _check_power(state: KingdomState, s: Sheet, action: Power) -> None:
    amount = s.amount
    assert amount is not None
    if not state.params.powers:
        raise IllegalAction("+1/-1 powers are not used in this variant", "no-powers")
    if action.delta not in (1, -1):
        raise IllegalAction("a power changes the die by +1 or -1", "bad-power")
    if s.placed:
        raise IllegalAction("powers are spent before you start drawing", "started")
    if s.available <= 0:
        raise IllegalAction("you have no +1/-1 powers to spend", "no-power")
    if action.delta > 0 and amount >= 6:
        raise IllegalAction("a die can't go above 6", "range")
    if action.delta < 0 and amount <= 1:
        raise IllegalAction("a die can't go below 1", "range")
    if action.delta * s.shift < 0:
        raise IllegalAction("you already changed this die the other way — undo that instead", "opposite")

def _check_place(state: KingdomState, s: Sheet, action: Place) -> None:
    where = f"({action.q}, {action.r})"
    i = state.board.index.get((action.q, action.r))
    if i is None:
        raise IllegalAction(f"hex {where} is not on the map", "off-map")
    if s.cells[i]:
        raise IllegalAction(f"hex {where} is already drawn", "drawn")
    if s.placed:
        if not any(b in s.placed for b in state.board.nbrs[i]):
            raise IllegalAction("that hex doesn't touch the group you are drawing", "not-touching-group")
        return
    if any(s.cells) and not touches_drawn(state.board, s.cells, i):
        raise IllegalAction("your first hex must touch a hex already drawn on your map", "not-touching-map")
    room = empty_patches(state.board, s.cells)[i]
    if room < (s.amount or 0):
        raise IllegalAction(f"there is no room for {s.amount} hexes there: that empty patch holds only {room}",
                            "no-room")

def _check_bank(state: KingdomState, s: Sheet, action: Any) -> None:
    if not isinstance(action, Bank):
        raise IllegalAction("now choose a criterion to score for your ? hex", "bank-first")
    if action.criterion not in state.criteria:
        raise IllegalAction(f"criterion {action.criterion} is not in play (in play: {', '.join(state.criteria)})",
                            "not-in-play")
