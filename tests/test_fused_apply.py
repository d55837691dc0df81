"""`fused apply` (interpreter/compiler/machine.py `fused_apply`, `CodeGen.FUSED_APPLY`): a
lean program (untraced or traced) with one decision whose moves are played in place, and whose
way back to that decision only ends and starts turns, gives its games an `apply` of their own,
with the block's section from the move to the next decision copied into it. The same moves,
games, saves, traces, errors, taken-back moves and playouts with and without it."""

from __future__ import annotations

import random

import pytest
from playing import compiled_with, same_with_and_without
from regelwerk.interpreter.engine.errors import RuleFailure
from regelwerk.interpreter.engine.game import LeanGame, LeanTracedGame, game_class
from test_carried_values import WALLS
from test_lean_apply import _moves_and_errors

FLAG = "FUSED_APPLY"

# a move that fails in its effect (`a(3)`), and one after which the next listing fails (`b`)
FAILS = """players X, O
state
    m: int -> int = 0
    xs: list int = []
    n: int = 0
action a(k in 1..3)
    "A step; the third kind fails."
    add 1 to n
    if k == 3
        set m[1] = xs[3]
flow
    repeat
        turn
            play a
"""
LISTING_FAILS = FAILS.replace('    if k == 3\n        set m[1] = xs[3]\n', '') \
    .replace('    add 1 to n\n', '    require n == 0 or xs[0] == 1 else "never"\n    add 1 to n\n', 1)


@pytest.mark.parametrize("record", [False, True])
def test_the_games_of_such_a_program_have_its_apply(record: bool) -> None:
    base = LeanTracedGame if record else LeanGame
    # traced checkers: its jump's checks are not worked out in the block (`state kept for
    # checks`), its step opened as Game._take_recorded does (`fused kept checks`)
    for name in ("tictactoe", "connect4", "breakthrough", "checkers"):
        rules = compiled_with(FLAG, True, name)
        prog = rules.program(record)
        assert any(c.kind == "fused apply" for c in prog.choices)
        g = rules.new_game(seed=1, record=record)
        cls = game_class(prog)
        assert issubclass(cls, base) and cls is not base and cls.apply is prog.fused_apply
        assert type(g) is cls and type(g.clone()) is cls
        assert type(rules.load_game(g.to_json(), record=record)) is cls
        off = compiled_with(FLAG, False, name)
        assert off.program(record).fused_apply is None and type(off.new_game(record=record)) is base


@pytest.mark.parametrize("record", [False, True])
def test_every_way_of_handing_a_move_over_answers_the_same(record: bool) -> None:
    for name, text in (("walls", WALLS), ("tictactoe", None)):
        on, off = compiled_with(FLAG, True, name, text), compiled_with(FLAG, False, name, text)
        for seed in range(6):
            assert _moves_and_errors(on, seed, record) == _moves_and_errors(off, seed, record)


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    same_with_and_without(FLAG, record, {"walls": WALLS}, bundled="checkers")
    same_with_and_without(FLAG, record, {}, bundled="connect4")


def _failure(text: str, name: str, on: bool, moves: list[str], record: bool) -> tuple:
    g = compiled_with(FLAG, on, name, text).new_game(seed=0, record=record)
    try:
        for move in moves:
            g.apply(next(m for m in g.legal_actions() if str(m) == move))
    except RuleFailure as err:
        return str(err), str(err.span), err.rule, g.step_no, g.trace if record else None
    raise AssertionError("no failure")


@pytest.mark.parametrize("record", [False, True])
@pytest.mark.parametrize("text,name,moves", [(FAILS, "fails", ["a(1)", "a(2)", "a(3)"]),
                                             (LISTING_FAILS, "listing_fails", ["a(1)"])])
def test_a_rule_that_fails_is_reported_the_same(text: str, name: str, moves: list[str], record: bool) -> None:
    assert compiled_with(FLAG, True, name, text).program(record).fused_apply is not None
    on, off = _failure(text, name, True, moves, record), _failure(text, name, False, moves, record)
    assert on == off  # the message, the statement, the rule, the step (and trace)
    assert ":" in on[1] or record and name == "listing_fails"  # a traced listing's failure names no statement


@pytest.mark.parametrize("name", ["tictactoe", "checkers"])
def test_playouts_and_kept_histories_are_the_same(name: str) -> None:
    on, off = compiled_with(FLAG, True, name), compiled_with(FLAG, False, name)
    for seed in range(4):
        games = [rules.new_game(seed=seed) for rules in (on, off)]
        made = [g.playout(random.Random(seed)) for g in games]
        assert made[0] == made[1] and games[0].to_json() == games[1].to_json()
        kept = []
        for rules in (on, off):  # a kept history tracks every move: `LeanGame.apply`'s way
            g = rules.new_game(seed=seed, history=True)
            rnd = random.Random(seed)
            while not g.is_over:
                g.apply(rnd.choice(g.legal_actions()))
            kept.append(g.to_json())
        assert kept[0] == kept[1]
