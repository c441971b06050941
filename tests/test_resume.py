"""Resume codes (issue 15, part 2: a reload loses nothing): a game in progress comes back exactly, bots and all."""

from __future__ import annotations

import pytest

from sheetkit.analysis.results import result_code
from sheetkit.analysis.resume import read_resume_code, resume_code
from sheetkit.core.errors import RecordError
from sheetkit.core.play import bot_names, bot_seed
from sheetkit.core.registry import get_game

CASES = [("avenue", 26, ("greedy",)), ("key-harvest", 1, ("greedy", "random")), ("kingdom-maps", 5, ("greedy",))]


def play(game: str, seed: int, bots: tuple[str, ...], my_moves: int, table_bots: dict[int, object] | None = None,
         state: object = None, student_seed: int = 3) -> tuple[object, dict[int, object]]:
    """A table's game: a random student in seat 0 (``my_moves`` of its moves, then it must move), seeded bots."""
    spec = get_game(game)
    if state is None:
        state = spec.new_state(spec.default_params(), ["You", *bot_names(bots)], seed=seed)
    me = spec.bots["random"](seed=student_seed)
    others = table_bots or {p: spec.bots[k](seed=bot_seed(seed, p)) for p, k in enumerate(bots, start=1)}
    made = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
        elif 0 in state.current_players():
            if made == my_moves:
                break
            state.apply(0, me.act(state, 0))
            made += 1
        else:
            for p in state.current_players():
                state.apply(p, others[p].act(state, p))
    return state, others


@pytest.mark.parametrize(("game", "seed", "bots"), CASES)
def test_a_game_in_progress_comes_back_where_it_was(game, seed, bots):
    state, _ = play(game, seed, bots, my_moves=9)
    code = resume_code(state, bots)
    back = read_resume_code(code, game=game)
    assert back.state.fingerprint() == state.fingerprint()
    assert back.state.scores() == state.scores() and back.state.current_players() == state.current_players()
    assert back.kinds == bots and len(code) < 80, code


@pytest.mark.parametrize(("game", "seed", "bots"), CASES)
def test_after_a_resume_the_bots_play_on_as_they_would_have_and_the_result_code_still_replays(game, seed, bots):
    """The resumed bots' random streams stand where the table's stood: the rest of the game is the same game."""
    whole, _ = play(game, seed, bots, my_moves=10_000)
    half, _ = play(game, seed, bots, my_moves=6)
    back = read_resume_code(resume_code(half, bots), game=game)
    # the same student goes on: replay its remaining moves from the whole game, the resumed bots answer
    mine = [e["action"] for e in whole.log if e.get("player") == 0][6:]
    spec, state = get_game(game), back.state
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance()
        elif 0 in state.current_players():
            state.apply(0, spec.parse_action(mine.pop(0), "action"))
        else:
            for p in state.current_players():
                state.apply(p, back.bots[p].act(state, p))
    assert state.fingerprint() == whole.fingerprint()
    assert result_code(state, bots) == result_code(whole, bots)


def test_a_damaged_or_foreign_code_is_refused_in_words():
    state, _ = play("avenue", 26, ("greedy",), my_moves=5)
    code = resume_code(state, ("greedy",))
    head, tail = code[:-1], code[-1]
    with pytest.raises(RecordError, match="check"):
        read_resume_code(head + ("Z" if tail != "Z" else "Y"))
    with pytest.raises(RecordError, match="not of this game"):
        read_resume_code(code, game="key-harvest")
    with pytest.raises(RecordError):
        read_resume_code("AV-0000-001A.R1G.8QM7G.A0B6C")
    with pytest.raises(RecordError, match="bots did not play"):
        resume_code(state, ("random",))     # the seeded random bot would have played otherwise
