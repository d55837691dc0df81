"""`folded` (interpreter/compiler/fold.py, `CodeGen.FOLD_CONSTANTS`): a comparison of two literals
left by a definition inlined with a literal argument is worked out when the code is written,
and a conditional or `and`/`or` whose test became a literal keeps only the part that runs
(Root's listings tested `'Marquise' == 'Duchy'` on every candidate). The same moves, games and
traces as without it, and no comparison whose outcome Python's rules for mixed types decide."""

from __future__ import annotations

import pytest
from playing import compiled_with, same_with_and_without, source_with
from regelwerk.interpreter.compiler.fold import (
    folded_bool,
    folded_compare,
    folded_not,
    literal_code,
    truth_of,
)

SIDES = """game "Sides"
players Ann, Bob
enum Kind = stone, wood
state
    stock: Player -> Kind -> int = {Ann: {stone: 2, wood: 2}, Bob: {stone: 2, wood: 2}}
    moves: int = 0
define worth(p: Player, k: Kind): int =
    if p == Ann and k == stone then 3 else if k == wood or p == Bob then 1 else 0
define open(p: Player, k: Kind): bool = not (p == Bob) or stock[p][k] > 1
action take(k: Kind)
    "Take a piece."
    require stock[current][k] > 0 and open(Ann, k) else "none left"
    require worth(Ann, stone) + worth(Bob, k) > 1 else "not worth it"
    set stock[current][k] = stock[current][k] - 1
    add 1 to moves
    if moves == 6
        finish draw
flow
    repeat
        turn
            play take
"""
TEXTS = {"sides": SIDES}


def test_literals_are_worked_out_and_mixed_or_unknown_ones_left() -> None:
    assert literal_code("'Duchy'") == ("Duchy",) and literal_code("(3)") == (3,) and literal_code("True") == (True,)
    assert literal_code("p0") is None and literal_code("'a' + 'b'") is None and literal_code("('a', 'b')") is None
    assert folded_compare("'Marquise'", "==", "'Duchy'") == "False"
    assert folded_compare("'recruiter'", "==", "('recruiter')") == "True"
    assert folded_compare("2", "<", "3") == "True" and folded_compare("2", ">=", "3") == "False"
    assert folded_compare("True", "==", "1") is None  # bool against int: left to Python
    assert folded_compare("'a'", "<", "1") is None  # would raise: left to fail as it would
    assert folded_compare("p0", "==", "'Duchy'") is None
    assert truth_of("True") is True and truth_of("(False)") is False
    assert truth_of("(x == 1)") is None and truth_of("1") is None  # a number is no truth value
    assert folded_bool("and", ["False", "x"]) == ["False"] and folded_bool("and", ["True", "x"]) == ["x"]
    assert folded_bool("or", ["True", "x"]) == ["True"] and folded_bool("or", ["False", "x", "y"]) == ["x", "y"]
    assert folded_bool("and", ["x", "False"]) is None  # `x` runs first (it may fail): kept
    assert folded_not("True") == "False" and folded_not("x") is None


def test_the_choice_is_made_and_the_code_has_no_comparison_of_literals() -> None:
    on = compiled_with("FOLD_CONSTANTS", True, "sides", SIDES).program(False)
    assert {c.detail for c in on.choices if c.kind == "folded"} >= {"comparisons of literals", "conditional of a literal"}
    off = source_with("FOLD_CONSTANTS", False, "sides", SIDES)
    assert "('Ann' == 'Ann')" in off or "'Ann' == 'Ann'" in off
    assert "'Ann' == 'Ann'" not in on.source and "'Bob' == 'Ann'" not in on.source
    root = source_with("FOLD_CONSTANTS", True, "root")
    assert "'Marquise' == 'Duchy'" not in root and "'recruiter' == 'sawmill'" not in root
    assert "'Marquise' == 'Duchy'" in source_with("FOLD_CONSTANTS", False, "root")


@pytest.mark.parametrize("record", [False, True])
def test_the_same_moves_and_games_with_and_without(record: bool) -> None:
    same_with_and_without("FOLD_CONSTANTS", record, TEXTS)
