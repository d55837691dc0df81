"""`step made at close` (interpreter/compiler/stepclose.py, `CodeGen.STEP_AT_CLOSE`): a traced
fused apply makes its move's step once, where the step closes, from locals, where nothing
between reads it; before `G.finish`, in the effect's handler and in the handlers around it the
step is made as it was first. The same games, traces and saves, and the same game and trace
left behind by a failure, with the switch on and off."""

from __future__ import annotations

import pytest
from playing import chosen_and_same, compiled_with
from test_fused_apply import FAILS, LISTING_FAILS
from test_fused_steps import RUNS_LONG, _fused, _left_by_failure
from test_lean_apply import _moves_and_errors
from test_listing_follows import GRAVITY, TWICE

from regelwerk import BudgetExceeded, RuleFailure

FLAG = "STEP_AT_CLOSE"


def test_tictactoe_and_connect_four_make_the_step_where_it_closes() -> None:
    on, off = _fused(FLAG, True, "tictactoe", True), _fused(FLAG, False, "tictactoe", True)
    opened = "G._step = [key, False, False, action, (), None, (), (), G.phase, _who]"
    assert opened in off and opened not in on and "_jm = len(G.journal)" in on
    assert "G._steps.extend((key, False, False, action, (), range(_jm, len(G.journal)), (), (), _ph, _who))" in on
    # made first where it is read: the end of the game (where `finish at close` does not keep
    # it there itself), the failures
    kept_off = _fused(FLAG, True, "tictactoe", True, (("FINISH_AT_CLOSE", False),))
    assert kept_off.count("G._step = [key, False, False, action, (), None, (), (), _ph, _who]") == 5
    assert on.count("G._step = [key, False, False, action, (), None, (), (), _ph, _who]") == 3
    c4 = _fused(FLAG, True, "connect4", True)
    assert "_sk4 = ()" in c4 and "_sk4 = _ck" in c4 and "G._step[4]" not in c4  # its checks' values
    assert "_jm" not in _fused(FLAG, True, "tictactoe", False)  # untraced: no step
    # no action of tic-tac-toe can be taken back: the way back is never set, so never cleared
    assert "G.abandon = None" not in on


def test_the_same_games_with_and_without() -> None:
    chosen_and_same(FLAG, "step made at close", "twice", TWICE, True, bundled="connect4")
    chosen_and_same(FLAG, "step made at close", "gravity", GRAVITY, True, bundled="tictactoe")


def test_every_way_of_handing_a_move_over_answers_the_same() -> None:
    for name in ("tictactoe", "connect4"):
        on, off = compiled_with(FLAG, True, name), compiled_with(FLAG, False, name)
        for seed in range(4):
            assert _moves_and_errors(on, seed, True) == _moves_and_errors(off, seed, True)


@pytest.mark.parametrize("text,name,moves,budget", [
    (FAILS, "fails", ["a(1)", "a(2)", "a(3)"], None),  # a Python error in the effect
    (LISTING_FAILS, "listing_fails", ["a(1)"], None),  # in the next listing
    (RUNS_LONG, "runs_long", ["go(1)", "go(2)"], 500),  # the work budget, in the effect
])
def test_a_failure_leaves_the_same_game_and_trace(text: str, name: str, moves: list[str], budget: int | None) -> None:
    made = {c.kind for c in compiled_with(FLAG, True, name, text).program(True).choices}
    assert ("step made at close" in made) is (name != "listing_fails")  # its effect reads the step
    assert _left_by_failure(FLAG, True, name, text, moves, True, budget) == \
        _left_by_failure(FLAG, False, name, text, moves, True, budget)
    traces = []
    for on in (True, False):
        g = compiled_with(FLAG, on, name, text).new_game(seed=0, record=True)
        if budget is not None:
            g.work_budget = budget
        with pytest.raises((RuleFailure, BudgetExceeded)):
            for move in moves:
                g.apply(next(m for m in g.legal_actions() if str(m) == move))
        traces.append((g.trace, g._step, g._jmark))
    assert traces[0] == traces[1]
