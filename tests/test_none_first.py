"""`none first` (interpreter/compiler/nonefirst.py, `CodeGen.NONE_FIRST`): a comparison of names
where one side may be none tests none and identity first, so CPython never compares a text with
None (its slow, unspecialised path). The forms are exact for every pair of names and none,
whatever the static types say; the same moves, games and traces as without them."""

from __future__ import annotations

import itertools
import re

import pytest
from playing import compiled_with, same_with_and_without, source_with, switches
from regelwerk.interpreter.compiler.nonefirst import none_first

# names compared by value: `names by identity` (test_canonical.py) writes these comparisons as
# `is` before this pass would
BY_VALUE = (("NAMES_BY_IDENTITY", False),)

MARKS = """game "Marks"
players Ann, Bob
board Square = grid 3 x 2
state
    mark: Square -> Player? = none
    seen: int = 0
    matched: int = 0
procedure set_up
    for s in Square
        if mark[s] == current
            add 1 to seen
        if current != mark[s]
            add 1 to matched
define mine(s: Square): bool = mark[s] == current
define others(s: Square): bool = mark[s] != current and mark[s] != none
action put(s in Square)
    "Mark a free square."
    require mark[s] == none else "taken"
    require not mine(s) else "yours"
    set mark[s] = current
    if (count t in Square where mine(t)) >= 2 and (any t in Square: others(t))
        finish winner current
    elif (count t in Square where mark[t] == none) == 0
        finish draw
flow
    do set_up
    repeat
        turn
            play put
"""
TEXTS = {"marks": MARKS}


def _names(code: str, **values: object) -> object:
    return eval(code, {}, dict(values))  # noqa: S307 - the test's own forms, no user text


@pytest.mark.parametrize("op", ["==", "!="])
def test_the_forms_answer_as_python_does_for_every_pair_of_names_and_none(op: str) -> None:
    a, also_a = "Ann", "".join(["A", "nn"])  # equal, not the same object: `is` alone would fail
    assert a == also_a and a is not also_a
    values = [None, a, also_a, "Bob"]
    for x_opt, y_opt in [(True, False), (False, True), (True, True)]:
        code = none_first("x", op, "y", x_opt, y_opt)
        assert code is not None
        for x, y in itertools.product(values, values):
            assert _names(code, x=x, y=y) == (x == y if op == "==" else x != y), (code, x, y)
    literal = none_first("x", op, "'Ann'", True, False)
    assert literal is not None and " is 'Ann'" not in literal and " is not 'Ann'" not in literal
    for x in values:
        assert _names(literal, x=x) == (x == "Ann" if op == "==" else x != "Ann")


@pytest.mark.parametrize("x_opt", [True, False])
def test_against_current_a_square_found_empty_answers_in_one_test(x_opt: bool) -> None:
    a, also_a = "Ann", "".join(["A", "nn"])
    code = none_first("x", "!=", "y", x_opt, not x_opt, other_never_none=True) if x_opt else \
        none_first("y", "!=", "x", False, True, other_never_none=True)
    assert code == "(x is None or x is not y and x != y)"
    for x, y in itertools.product([None, a, also_a, "Bob"], [a, also_a, "Bob"]):  # y never None
        assert _names(code, x=x, y=y) == (x != y), (code, x, y)
    # `==` keeps its form (identity first), and so does `!=` where both sides may be none
    assert none_first("x", "==", "y", True, False, True) == "(x is y or x is not None and x == y)"
    assert none_first("x", "!=", "y", True, True, True) == "(x is not y and (x is None or x != y))"


def test_it_is_left_alone_where_it_cannot_pay_or_cannot_be_written() -> None:
    assert none_first("x", "==", "y", False, False) is None  # neither may be none
    assert none_first("x", "<", "y", True, False) is None
    assert none_first("f(x)", "==", "y", True, False) is None  # a call: twice is not free
    assert none_first("x", "==", "m[k]", True, False) is None  # the other side twice
    assert none_first("m[k]", "==", "y", True, False) is None  # a look-up: the extra tests cost more


def test_the_choice_is_made_and_the_code_has_the_form() -> None:
    on = compiled_with("NONE_FIRST", True, "breakthrough", held=BY_VALUE).program(False)
    assert any(c.kind == "none first" for c in on.choices)
    # `require cell[to] != current`: the square is often empty, and `current` never None
    # (a look-up kept by `current compared`, curcompare.py, is `_cq<n>`: not this pass's)
    one_test = r"\b(?!_cq)(\w+) is None or \(\1 is not _cur and \1 != _cur\)"
    assert re.search(one_test, source_with("NONE_FIRST", True, "breakthrough", held=BY_VALUE))
    off = source_with("NONE_FIRST", False, "breakthrough", held=BY_VALUE)
    assert "is not _cur and (" not in off and not re.search(one_test, off)
    # explain functions record the comparison as written (a check's values are unchanged)
    with switches(BY_VALUE):  # `source` compiles again
        traced = compiled_with("NONE_FIRST", True, "breakthrough", held=BY_VALUE).program(True).source
    assert "== (_x" in traced or "!= (_x" in traced


def test_set_up_compares_as_before() -> None:
    on = compiled_with("NONE_FIRST", True, "marks", MARKS, held=BY_VALUE)
    off = compiled_with("NONE_FIRST", False, "marks", MARKS, held=BY_VALUE)
    assert any(c.kind == "none first" for c in on.program(False).choices)
    g, h = on.new_game(seed=1), off.new_game(seed=1)
    assert (g.vars["seen"], g.vars["matched"]) == (h.vars["seen"], h.vars["matched"])
    assert g.vars["seen"] == 0 and g.vars["matched"] == 6  # the first player is current, every square empty


@pytest.mark.parametrize("record", [False, True])
def test_the_same_moves_and_games_with_and_without(record: bool) -> None:
    same_with_and_without("NONE_FIRST", record, TEXTS, bundled="khan", held=BY_VALUE)
