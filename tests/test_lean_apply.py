"""`lean apply` (interpreter/engine/game.py `LeanGame`, compile.py `Program.lean`,
`CodeGen.LEAN_APPLY`): the games of an untraced program without hidden state or
`simultaneously` take `apply` and `legal_actions` straight to the offered moves, without the
tests for a part's window, a chance node and a player named. Which programs are lean, and the
same moves, games, saves, errors and taken-back moves with and without it."""

from __future__ import annotations

import random

import pytest
from playing import chosen_and_same, compiled_with, same_with_and_without
from regelwerk.interpreter.engine.errors import IllegalAction
from regelwerk.interpreter.engine.game import (
    Game,
    LeanGame,
    LeanTracedGame,
    SecretsGame,
    game_class,
)
from test_carried_values import WALLS

import regelwerk

# a `simultaneously` (its action writes nothing, so no state need be hidden): a part's window
# opens, so its games keep Game's apply
PARTS = """\
players Ann, Bob
state
    rounds: int = 0
action offer(n in 0..3)
    "Offer."
    require n >= 0 else "never"
flow
    repeat 3 times
        simultaneously for p in players
            play offer
        add 1 to rounds
"""
# the same with a bid each player sees alone: hidden state
BIDS = PARTS.replace("    rounds: int = 0\n", "    rounds: int = 0\n    bid: Player -> int = 0 hidden except owner\n") \
    .replace('    require n >= 0 else "never"\n', "    set bid[current] = n\n")


def test_which_programs_are_lean() -> None:
    walls = compiled_with("LEAN_APPLY", True, "walls", WALLS)
    # a subclass of its own where the program has a fused apply (tests/test_fused_apply.py)
    assert issubclass(game_class(walls.program(False)), LeanGame) and type(walls.new_game()) is game_class(walls.program(False))
    assert game_class(walls.program(True)) is LeanTracedGame  # traced: `lean traced apply`
    assert game_class(compiled_with("LEAN_APPLY", False, "walls", WALLS).program(False)) is Game
    parts = regelwerk.load_text(PARTS, "parts.rules").program(False)
    assert not parts.hidden and game_class(parts) is Game
    assert game_class(regelwerk.load_text(BIDS, "bids.rules").program(False)) is SecretsGame
    ttt = compiled_with("LEAN_APPLY", True, "tictactoe")
    g = ttt.new_game(seed=3)
    assert isinstance(g, LeanGame) and type(g.clone()) is type(g)
    assert type(ttt.load_game(g.to_json())) is type(g)


def _moves_and_errors(rules: regelwerk.Ruleset, seed: int, record: bool = False) -> list:
    """A random game played every way a caller can hand a move over: the offered object, its
    text, the deciding player named, another player named, an illegal move; and what each
    answered (bluff's refusal takes a move back: `abandoned` then filters the offered moves)."""
    g = rules.new_game(seed=seed, record=record)
    rnd = random.Random(seed)
    out: list = []
    n = 0
    while not g.is_over and n < 200:
        n += 1
        moves = g.legal_actions()
        who = g.decision_player()
        others = [p for p in g.players if p != who]
        out.append(([str(m) for m in moves], g.legal_actions(others[0]) if others else None, dict(g.abandoned)))
        try:
            g.apply("place(z9)")
        except IllegalAction as err:
            out.append(str(err))
        if others:
            try:
                g.apply(moves[0], others[0])
            except IllegalAction as err:
                out.append(str(err))
        way = rnd.randrange(3)
        move = rnd.choice(moves)
        if way == 0:
            g.apply(move)
        elif way == 1:
            g.apply(str(move))
        else:
            g.apply(move, who)
    out.append((g.result, g.to_json()))
    if record:
        out.append(g.trace)
    return out


@pytest.mark.parametrize("record", [False, True])
def test_every_way_of_handing_a_move_over_answers_the_same(record: bool) -> None:
    on = compiled_with("LEAN_APPLY", True, "walls", WALLS)
    off = compiled_with("LEAN_APPLY", False, "walls", WALLS)
    assert type(on.new_game(record=record)) is game_class(on.program(record))
    assert issubclass(game_class(on.program(record)), LeanTracedGame if record else LeanGame)
    taken_back = 0
    for seed in range(8):
        a, b = _moves_and_errors(on, seed, record), _moves_and_errors(off, seed, record)
        assert a == b
        taken_back += sum(1 for x in a if isinstance(x, tuple) and len(x) == 3 and x[2])
    assert taken_back > 0  # the taken-back path ran


def test_a_game_over_offers_nothing_and_takes_nothing() -> None:
    g = compiled_with("LEAN_APPLY", True, "tictactoe").new_game(seed=1)
    while not g.is_over:
        last = g.legal_actions()[0]
        g.apply(last)
    assert g.legal_actions() == []
    with pytest.raises(IllegalAction, match="the game is over"):
        g.apply(last)


def test_the_same_moves_and_games_with_and_without() -> None:
    chosen_and_same("LEAN_APPLY", "lean apply", "walls", WALLS, False, bundled="checkers")


def test_traced_programs_are_lean_traced() -> None:
    choices = compiled_with("LEAN_APPLY", True, "walls", WALLS).program(True).choices
    assert not any(c.kind == "lean apply" for c in choices) and any(c.kind == "lean traced apply" for c in choices)
    same_with_and_without("LEAN_APPLY", True, {"walls": WALLS}, bundled="tictactoe")


def test_which_traced_programs_are_lean_traced() -> None:
    assert game_class(regelwerk.load_text(PARTS, "parts.rules").program(True)) is Game  # a window
    assert game_class(regelwerk.load_text(BIDS, "bids.rules").program(True)) is SecretsGame
    guarded = WALLS.replace("\nflow", "\ninvariant turns >= 0 else \"never below zero\"\n\nflow", 1)
    assert game_class(regelwerk.load_text(guarded, "guarded.rules").program(True)) is Game  # invariants
    for name in ("tictactoe", "connect4", "breakthrough", "checkers"):
        g = compiled_with("LEAN_APPLY", True, name).new_game(record=True, seed=1)
        # a subclass of its own where the program has a fused apply (tests/test_fused_apply.py)
        assert isinstance(g, LeanTracedGame) and type(g.clone()) is type(g)
        assert type(compiled_with("LEAN_APPLY", True, name).load_game(g.to_json(), record=True)) is type(g)


@pytest.mark.parametrize("chance", ["explicit", "history"])
def test_a_lean_traced_game_that_tracks_goes_game_s_way(chance: str) -> None:
    """Explicit chance or a kept history: nothing is recorded in the block (`_recorded_here`
    empty), so every move takes `Game.apply`'s path, with the same games as Game's."""
    kw = {"chance": "explicit"} if chance == "explicit" else {"history": True}
    on = compiled_with("LEAN_APPLY", True, "walls", WALLS)
    off = compiled_with("LEAN_APPLY", False, "walls", WALLS)
    out = []
    for rules in (on, off):
        g = rules.new_game(seed=2, record=True, **kw)
        assert not g._recorded_here
        rnd = random.Random(2)
        while not g.is_over:
            g.apply(rnd.choice(g.legal_actions()))
        out.append((type(g).__name__, g.to_json(), list(g.trace)))
    assert out[0][0] == "LeanTracedGame" and out[0][1:] == out[1][1:]  # the class's name, fused or not
