"""`fused kept checks` (interpreter/compiler/machine.py `fused_apply`, game.py `recorded_step`,
`CodeGen.FUSED_KEPT_CHECKS`): a traced fused apply also plays the moves whose checks its block
does not work out (a move whose argument is a list: its state kept for the checks and
explained when the trace is read, or explained at once), opening their step as
`Game._take_recorded` does; and `kept step inline` (compile.py `kept_steps_inline`,
`CodeGen.KEPT_STEP_INLINE`): such a step that keeps state made in the fused apply's own lines;
and `step opened in its branch` (machine.py `_steps_in_branches`, `CodeGen.STEP_IN_BRANCH`):
where the fused apply plays several actions, each move's step opened in its action's branch,
with the slots its checks set. The same moves, games, saves, traces (their checks read back
too), errors and taken-back moves with and without each."""

from __future__ import annotations

import random

import pytest
from playing import compiled_with, same_with_and_without, switches
from regelwerk.interpreter.engine.errors import RuleFailure
from regelwerk.interpreter.engine.game import LeanTracedGame, game_class
from test_lean_apply import _moves_and_errors

FLAG = "FUSED_KEPT_CHECKS"

# `mark` takes a list (not a plain argument: its checks are not worked out in the block);
# `pass_on` does (plain arguments, short checks); a third mark's effect fails
KEPT = """players Ann, Bob

board Square = grid 3 x 3

state
    cell: Square -> Player? = none
    n: int = 0

define empty_ones(p: Player) = list s in Square where cell[s] == none: [s]

action mark(path in empty_ones(current))
    "Mark an empty square, named as a path of one."
    require len(path) == 1 and cell[path[0]] == none else "that square is taken"
    set cell[path[0]] = current
    add 1 to n

action pass_on(k in 1..2)
    "Pass, while few squares are marked."
    require n < 4 else "mark a square"
    add 1 to n

flow
    repeat
        turn
            play mark, pass_on else finish draw
"""
FAILS = KEPT.replace("    set cell[path[0]] = current\n", "    set cell[path[0]] = current\n"
                     "    if n == 2\n        set n = [1][3]\n", 1)
EXPLAINED = (("STATE_KEPT_CHECKS", False),)  # the move explained at once instead


INLINE = "KEPT_STEP_INLINE"
BRANCH = "STEP_IN_BRANCH"
# the step made by the call and opened before the branches (`fused kept checks` alone)
CALLED = (("KEPT_STEP_INLINE", False), ("STEP_IN_BRANCH", False))
# a second action whose checks its step leaves to be worked out from its writes (`deferred checks`)
PUT = KEPT.replace('''action pass_on(k in 1..2)
    "Pass, while few squares are marked."
    require n < 4 else "mark a square"
    add 1 to n
''', '''action put(s in Square)
    "Put a stone on an empty square."
    require cell[s] == none else "that square is taken"
    set cell[s] = current
    add 1 to n
''').replace("play mark, pass_on", "play mark, put")
# two such actions: one keeps state, the other's explain reads the round (explained at once)
TWO = KEPT.replace("state\n", "record Mark(hot: bool)\n\nstate\n    marks: Square -> Mark = Mark(hot: false)\n", 1) \
    .replace("flow\n", """action unmark(path in list s in Square where cell[s] == current: [s])
    "Take a mark back from a square that is not hot, and heat it."
    require not marks[path[0]].hot else "that square is hot"
    clear cell[path[0]]
    set marks[path[0]].hot = true
    add 1 to n

flow
""", 1).replace("play mark, pass_on", "play mark, pass_on, unmark")


def _fused(name: str, text: str | None, on: bool, held: tuple = (), flag: str = FLAG) -> str:
    prog = compiled_with(flag, on, name, text, held).program(True)
    fn = prog.fused_apply
    if fn is None:
        return ""
    with switches(((flag, on), *held)):  # `source` compiles again
        source = prog.source
    return ("\n" + source).split(f"\ndef {fn.__name__}(")[1].split("\ndef ")[0]


@pytest.mark.parametrize("name,text", [("kept", KEPT), ("checkers", None)])
def test_the_traced_fused_apply_opens_such_a_moves_step_as_take_recorded(name: str, text: str | None) -> None:
    prog = compiled_with(FLAG, True, name, text).program(True)
    assert any(c.kind == "fused kept checks" for c in prog.choices)
    cls = game_class(prog)
    assert issubclass(cls, LeanTracedGame) and cls.apply is prog.fused_apply
    on = _fused(name, text, True, CALLED)
    assert "G._step = _RECORDED_STEP(G, action, _who)" in on and "G._recorded and action[0] == " in on
    # off: the decision has no traced fused apply, its moves go the lean traced class's way
    off = compiled_with(FLAG, False, name, text).program(True)
    assert off.fused_apply is None and game_class(off) is LeanTracedGame
    assert not any(c.kind == "fused kept checks" for c in off.choices)
    # untraced programs do not change
    assert compiled_with(FLAG, True, name, text).program(False).source == \
        compiled_with(FLAG, False, name, text).program(False).source


def test_the_kept_move_goes_through_the_fused_apply_not_take_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    from regelwerk.interpreter.engine.game import Game

    rules = compiled_with(FLAG, True, "kept", KEPT)
    calls: list = []
    real = Game._take_recorded
    monkeypatch.setattr(Game, "_take_recorded", lambda g, a, ca: calls.append(a) or real(g, a, ca))
    g = rules.new_game(seed=3, record=True)
    rnd = random.Random(3)
    marks = 0
    while not g.is_over:
        move = rnd.choice(g.legal_actions())
        marks += move[0] == "mark"
        g.apply(move)
    assert marks and not calls


@pytest.mark.parametrize("held", [(), EXPLAINED])
def test_the_same_games_with_and_without(held: tuple) -> None:
    same_with_and_without(FLAG, True, {"kept": KEPT}, bundled="checkers", held=held)


@pytest.mark.parametrize("held", [(), EXPLAINED])
def test_every_way_of_handing_a_move_over_answers_the_same(held: tuple) -> None:
    on, off = compiled_with(FLAG, True, "kept", KEPT, held), compiled_with(FLAG, False, "kept", KEPT, held)
    for seed in range(6):
        assert _moves_and_errors(on, seed, True) == _moves_and_errors(off, seed, True)


def _failure(on: bool, held: tuple, flag: str = FLAG) -> tuple:
    g = compiled_with(flag, on, "fails", FAILS, held).new_game(seed=0, record=True)
    try:
        while True:
            g.apply(next(m for m in g.legal_actions() if m[0] == "mark"))
    except RuleFailure as err:
        return str(err), str(err.span), err.rule, g.step_no, g.trace


@pytest.mark.parametrize("held", [(), EXPLAINED])
def test_a_kept_move_failing_in_its_effect_fails_the_same(held: tuple) -> None:
    assert _failure(True, held) == _failure(False, held)
    assert _failure(True, held, INLINE) == _failure(False, held, INLINE)


def test_traces_read_back_the_same_checks_after_undo_and_clone() -> None:
    def run(on: bool) -> list:
        rules = compiled_with(FLAG, on, "checkers", None)
        g = rules.new_game(seed=5, record=True)
        rnd = random.Random(5)
        out = []
        for n in range(60):
            if g.is_over:
                break
            g.apply(rnd.choice(g.legal_actions()))
            if n % 7 == 3:
                g.undo()
                out.append(g.clone().trace)
                g.apply(rnd.choice(g.legal_actions()))
        out.append(g.trace)
        return out

    assert run(True) == run(False)


@pytest.mark.parametrize("name,text", [("kept", KEPT), ("checkers", None)])
def test_the_kept_step_is_made_in_line(name: str, text: str | None) -> None:
    prog = compiled_with(INLINE, True, name, text).program(True)
    assert any(c.kind == "kept step inline" for c in prog.choices)
    on, off = _fused(name, text, True, flag=INLINE), _fused(name, text, False, flag=INLINE)
    assert "_RECORDED_STEP" not in on and "_STATE_KEPT, action, (G.current, _kv['cell'].copy()" in on
    assert "G._step = _RECORDED_STEP(G, action, _who)" in off and "_STATE_KEPT" not in off
    # nothing kept (the checks explained at once): the call stays
    assert "G._step = _RECORDED_STEP(G, action, _who)" in _fused(name, text, True, EXPLAINED, flag=INLINE)


def test_of_two_such_actions_the_one_that_keeps_state_is_made_in_line() -> None:
    prog = compiled_with(INLINE, True, "two", TWO).program(True)
    assert prog.actions["mark"].state_kept == ("cell",) and prog.actions["unmark"].state_kept is None
    # the steps opened before the branches: a test of the action's name, the call for the other
    held = (("STEP_IN_BRANCH", False),)
    on = _fused("two", TWO, True, held, flag=INLINE)
    assert "if action[0] == 'mark':\n                _kv = G.vars\n                G._step = ['action:mark', False, _STATE_KEPT" in on
    assert "else:\n                G._step = _RECORDED_STEP(G, action, _who)" in on
    # in each action's branch: that action's step alone
    on = _fused("two", TWO, True, flag=INLINE)
    assert "if action[0] == 'mark':\n                        _kv = G.vars\n                        G._step = ['action:mark'" in on
    assert "elif action[0] == 'unmark':\n                        G._step = _RECORDED_STEP(G, action, _who)" in on
    assert on.count("_STATE_KEPT") == 1 and on.count("_RECORDED_STEP") == 1


@pytest.mark.parametrize("name,text", [("kept", KEPT), ("two", TWO)])
def test_the_same_games_with_and_without_the_step_in_line(name: str, text: str) -> None:
    same_with_and_without(INLINE, True, {name: text}, bundled="checkers")
    on, off = compiled_with(INLINE, True, name, text), compiled_with(INLINE, False, name, text)
    for seed in range(4):
        assert _moves_and_errors(on, seed, True) == _moves_and_errors(off, seed, True)


def test_each_moves_step_is_opened_in_its_branch() -> None:
    on, off = _fused("checkers", None, True, flag=BRANCH), _fused("checkers", None, False, flag=BRANCH)
    assert any(c.kind == "step opened in its branch" for c in compiled_with(BRANCH, True, "checkers").program(True).choices)
    assert "if G._recorded_here and F[1] == 2:" in on and "G._recorded_here.get(" not in on
    # the listing's kept entries made the step's checks at its open, or the step opened plain
    assert """if xp is not None and len(xp) >= 1:
                            G._step = ['action:step', False, False, action, xp[0], None, (), (), G.phase, _who]
                        else:
                            G._step = ['action:step', False, None, action, (), None, (), (), G.phase, _who]""" in on
    assert "_dst" not in on and "elif action[0] == 'jump':\n                        _kv = G.vars" in on
    assert "key = G._recorded_here.get(action[0])" in off and "_dst = G._step" in off
    # a deferred move's mark made with its step
    on = _fused("put", PUT, True, flag=BRANCH)
    assert "G._step = ['action:put', False, False, action, (), None, (), (), G.phase, _who]" in on
    assert "G._step[2]" not in on
    # one action: unchanged
    assert _fused("tictactoe", None, True, flag=BRANCH) == _fused("tictactoe", None, False, flag=BRANCH)


@pytest.mark.parametrize("name,text", [("kept", KEPT), ("two", TWO), ("put", PUT)])
def test_the_same_games_with_and_without_the_step_in_its_branch(name: str, text: str) -> None:
    same_with_and_without(BRANCH, True, {name: text}, bundled="checkers")
    on, off = compiled_with(BRANCH, True, name, text), compiled_with(BRANCH, False, name, text)
    for seed in range(4):
        assert _moves_and_errors(on, seed, True) == _moves_and_errors(off, seed, True)
    assert _failure(True, (), BRANCH) == _failure(False, (), BRANCH)


def test_a_move_not_kept_as_itself_is_recorded_as_take_recorded_records_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # recorded_step's last branch (bindings and a decision record made now), which no bundled
    # action reaches: the move's arguments taken as not kept, in both programs alike
    on, off = compiled_with(FLAG, True, "kept", KEPT, EXPLAINED), compiled_with(FLAG, False, "kept", KEPT, EXPLAINED)
    for rules in (on, off):
        monkeypatch.setattr(rules.program(True).actions["mark"], "kept_args", False)
    for seed in range(4):
        assert _moves_and_errors(on, seed, True) == _moves_and_errors(off, seed, True)
        a, b = on.new_game(seed=seed, record=True), off.new_game(seed=seed, record=True)
        rnd = random.Random(seed)
        while not a.is_over:
            move = rnd.choice(a.legal_actions())
            a.apply(move)
            b.apply(next(m for m in b.legal_actions() if str(m) == str(move)))
        assert a.trace == b.trace and any(s["rule"] == "mark" and s["bindings"] for s in a.trace if "rule" in s)
