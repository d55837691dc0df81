"""`distinct if any` (actiongen `distinct_if_any`, `CodeGen.DISTINCT_IF_ANY`): a listing's
hoisted domain `D = _uniq(X)`, walked as it is, is `D = (t := X) and _uniq(t)`: an empty X is
walked without the call and its copy. The form on a small ruleset, checkers' jumps, the same
games with and without; a domain `by player` works out per player is left to it.
The tree pass on small functions: what it takes and what it leaves."""

from __future__ import annotations

import re

import pytest
from playing import chosen_and_same, compiled_with, source_with
from regelwerk.interpreter.compiler.actiongen import distinct_if_any
from treepass import passed, run

PICK = """game "Pick"
players Ann, Bob
state
    bag: Player -> list int = [1, 2, 2, 3]
    score: Player -> int = 0
action take(x in bag[current])
    "Take a number from your bag (the same number twice is one move)."
    require x <= 3 else "too big"
    remove x from bag[current]
    add x to score[current]
action pass_turn
    "Pass when the bag is empty."
    require bag[current] == [] else "take first"
    if score[current] >= 8
        finish winner current
flow
    repeat
        turn
            play take, pass_turn
"""


def test_an_empty_domain_is_walked_without_the_call() -> None:
    on, off = source_with("DISTINCT_IF_ANY", True, "pick", PICK), source_with("DISTINCT_IF_ANY", False, "pick", PICK)
    assert re.search(r"_dom\d+ = \(_du\d+ := _sv\d+\[_cur\]\) and _uniq\(_du\d+\)", on)
    assert re.search(r"_dom\d+ = _uniq\(_sv\d+\[_cur\]\)", off) and "_du" not in off
    # the membership test of a move played from outside keeps its form
    assert "not in _uniq(" in on


def test_checkers_jumps() -> None:
    on = source_with("DISTINCT_IF_ANY", True, "checkers")
    assert re.search(r"_dom\d+ = \(_du\d+ := \(_sh\d+ if _sh\d+ is not MISSING else \(_sh\d+ := D_\d+\(G, _mover\)\)\)\) "
                     r"and _uniq\(_du\d+\)", on)
    assert "_du" not in source_with("DISTINCT_IF_ANY", False, "checkers")


def test_moves_and_their_order() -> None:
    for on in (True, False):
        g = compiled_with("DISTINCT_IF_ANY", on, "pick", PICK).new_game(seed=1)
        assert [str(m) for m in g.legal_actions()] == ["take(1)", "take(2)", "take(3)"]


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same("DISTINCT_IF_ANY", "distinct if any", "pick", PICK, record, "checkers")


LISTING = """def f(G, out, xs):
    _dom1 = _uniq(xs)
    for p0 in _dom1:
        out.append(p0)
    return out
"""


def _pass(code: str) -> tuple[str, bool]:
    out, _constants, done = passed(code, {}, lambda fn, made: distinct_if_any(fn, made.fresh))
    return out, done


def test_the_pass_keeps_the_items_and_their_order() -> None:
    from regelwerk.interpreter.engine.runtime import _uniq

    out, done = _pass(LISTING)
    assert done and "_dom1 = (_du100 := xs) and _uniq(_du100)" in out
    for xs in ([], [3], [2, 2, 1], [[1], [1], [2]], ()):
        assert run(out, {"_uniq": _uniq}, None, [], xs) == run(LISTING, {"_uniq": _uniq}, None, [], xs)


@pytest.mark.parametrize("code", [
    # read other than as a loop's iterable, or bound twice, or not at the top
    LISTING.replace("    return out", "    return _dom1"),
    LISTING.replace("    return out", "    _dom1 = []\n    return out"),
    "def f(G, out, xs):\n    if xs:\n        _dom1 = _uniq(xs)\n        for p0 in _dom1:\n            out.append(p0)\n",
])
def test_left_alone(code: str) -> None:
    out, done = _pass(code)
    assert not done and "_du" not in out


def test_a_domain_worked_out_per_player_is_left_to_by_player() -> None:
    on = compiled_with("DISTINCT_IF_ANY", True, "breakthrough")
    kinds = [c.kind for c in on.program(False).choices]
    assert "by player" in kinds and "distinct if any" not in kinds
