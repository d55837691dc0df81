"""interpreter/compiler/reads.py: which state an invariant reads, and that a traced game checks after a
step only the invariants that read something the step wrote (all of them after a change made
from outside the rules)."""

from __future__ import annotations

import pytest
from regelwerk.interpreter.compiler.reads import state_reads

import regelwerk
from regelwerk import RuleFailure

RULES = """players X, O
state
    a: int = 0
    b: int = 0
    c: int = 0
define twice_a() = a + a
define is_turn_of(p: Player) = current == p
invariant twice_a() < 10 else "a stays small"
invariant b >= 0 else "b is never negative"
invariant c == 0 or is_turn_of(X) or is_turn_of(O) else "c follows the turn"
action grow
    add 1 to a
action shrink
    remove 1 from b
action keep
    set c = c
flow
    repeat
        turn
            play grow, shrink, keep
"""


def test_the_state_an_invariant_reads():
    model = regelwerk.load_text(RULES, "r.rules").model
    reads = [state_reads(model, inv.test) for inv in model.invariants]
    assert reads == [frozenset({"a"}), frozenset({"b"}), None]  # `current`: more than state


def test_a_step_is_checked_against_the_invariants_that_read_what_it_wrote():
    game = regelwerk.load_text(RULES, "r.rules").new_game(record=True)
    for _ in range(4):
        game.apply("grow")
    with pytest.raises(RuleFailure, match="a stays small"):  # a = 5: twice_a() = 10
        game.apply("grow")
    game = regelwerk.load_text(RULES, "r.rules").new_game(record=True)
    with pytest.raises(RuleFailure, match="b is never negative"):
        game.apply("shrink")


def test_only_the_invariants_that_read_a_written_variable_are_looked_at():
    game = regelwerk.load_text(RULES, "r.rules").new_game(record=True)
    game.apply("grow")  # the first decision of a game checks them all
    game.vars["b"] = -1  # broken behind the rules' back, and not said (no invalidate())
    assert len(game.broken_invariants()) == 1
    assert game.broken_invariants(written={"a"}) == []  # b's invariant is not looked at
    assert len(game.broken_invariants(written={"b"})) == 1
    game.apply("grow")  # writes a only: b's invariant is not checked again
    game.invalidate()  # a change from outside the rules, said: the next step checks them all
    with pytest.raises(RuleFailure, match="b is never negative"):
        game.apply("keep")
