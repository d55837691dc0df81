"""`lines unrolled` (interpreter/compiler/unrolled.py, `CodeGen.LINES_UNROLLED`): `any line in
T[k]: all t in line: ...` over a fixed table whose lines all have one length, the lines unpacked
and the tests written out. The same answers for every board, left alone where the table or the
loop does not allow it, the same games with and without."""

from __future__ import annotations

import itertools
import re

import pytest
from playing import chosen_and_same, source_with
from regelwerk.interpreter.compiler.unrolled import line_length, lines_unrolled
from treepass import passed, run

# two loops as `nested quantifier` writes them: `any line in T[k]: all t in line: m[t] == p`
# (X), and `all line in T[k]: any t in line: m[t] == p` (Y, the `else: continue` form)
WIN = """def f(m, k, p):
    x = False
    for a in T[k]:
        for b in a:
            if not m[b] == p:
                break
        else:
            x = True
            break
    y = True
    for a2 in T[k]:
        for b2 in a2:
            if m[b2] == p:
                break
        else:
            continue
        y = False
        break
    return x, y
"""

SQUARES = ["s0", "s1", "s2", "s3"]
LINES = {"s0": [("s0", "s1", "s2"), ("s0", "s3", "s2")], "s1": [("s1", "s2", "s3")],
         "s2": [], "s3": [["s3", "s0", "s1"]]}


def _pass(code: str, tables: dict, fixed: bool = True) -> tuple[str, bool]:
    out, _c, done = passed(code, tables, lambda fn, made: lines_unrolled(fn, made.constants, lambda _n: fixed, made.fresh))
    return out, done


def test_both_forms_answer_as_the_loops_on_every_board() -> None:
    code, done = _pass(WIN, {"T": LINES})
    assert done and "for a in" not in code and "for b in" not in code and code.count("for (_u") + code.count("for _u") == 2
    for marks in itertools.product([None, "X", "O"], repeat=len(SQUARES)):
        m = dict(zip(SQUARES, marks, strict=True))
        for k, p in itertools.product(SQUARES, ["X", "O"]):
            assert run(code, {"T": LINES}, m, k, p) == run(WIN, {"T": LINES}, m, k, p), (m, k, p)


INSIDE = """def f(m, k, p):
    x = 0
    for a in T[k]:
        for b in a:
            if not m[b] == p:
                break
        else:
            x += 1
        for a3 in T[k]:
            for b3 in a3:
                if m[b3] == p:
                    break
            else:
                x += 10
    return x
"""


def test_a_loop_of_the_pattern_inside_one_unrolled_is_unrolled_too() -> None:
    code, done = _pass(INSIDE, {"T": LINES})
    assert done and not re.search(r"for (\w+) in \w+\[k\]:\n\s+for \w+ in \1:", code)
    for marks in itertools.product([None, "X", "O"], repeat=len(SQUARES)):
        m = dict(zip(SQUARES, marks, strict=True))
        for k in SQUARES:
            assert run(code, {"T": LINES}, m, k, "X") == run(INSIDE, {"T": LINES}, m, k, "X"), (m, k)


def test_the_terms_stop_at_the_first_miss_as_the_loop_did() -> None:
    code, _done = _pass(WIN, {"T": LINES})
    asked: list[str] = []

    class Board(dict):
        def __getitem__(self, key: str) -> object:
            asked.append(key)
            return dict.__getitem__(self, key)

    board = Board(s0="X", s1="O", s2="X", s3="X")
    run(code, {"T": LINES}, board, "s0", "X")
    unrolled = list(asked)
    asked.clear()
    run(WIN, {"T": LINES}, board, "s0", "X")
    assert unrolled == asked


def test_a_missing_key_fails_as_before() -> None:
    code, _done = _pass(WIN, {"T": LINES})
    with pytest.raises(KeyError):
        run(code, {"T": LINES}, {}, "s0", "X")
    with pytest.raises(KeyError):
        run(code, {"T": LINES}, {s: None for s in SQUARES}, "zz", "X")


@pytest.mark.parametrize("tables", [
    {"T": {"s0": [("s0", "s1"), ("s0", "s1", "s2")]}},  # lines of two lengths
    {"T": {"s0": ["s0s1"]}},  # a line that is a text, not a list
    {"T": {"s0": [tuple("abcdefg")]}},  # longer than MAX_TERMS
    {},  # not a constant of the program
])
def test_left_alone_where_the_table_does_not_allow_it(tables: dict) -> None:
    code, done = _pass(WIN, tables)
    assert not done and "for a in T[k]" in code


def test_left_alone_for_a_table_that_is_not_fixed() -> None:
    assert not _pass(WIN, {"T": LINES}, fixed=False)[1]


@pytest.mark.parametrize(("code", "kept"), [
    (WIN.replace("    return x, y", "    return x, y, b"), ["for a in T[k]"]),  # the inner variable read after the loop
    (WIN.replace("    return x, y", "    return x, y, a"), ["for a in T[k]"]),  # the line read after the loop
    (WIN.replace("if not m[b] == p:", "if not any(m[c] == p for c in (b,)):")  # a nested scope
        .replace("if m[b2] == p:", "if any(m[c] == p for c in (b2,)):"), ["for a in T[k]", "for a2 in T[k]"]),
    (WIN.replace("            if not m[b] == p:\n", "            if not m[b] == p:\n                y = 1\n")
        .replace("            if m[b2] == p:\n", "            if m[b2] == p:\n                y = 1\n"),
     ["for a in T[k]", "for a2 in T[k]"]),  # more than the break under the test
])
def test_left_alone_where_the_loop_differs(code: str, kept: list[str]) -> None:
    out, done = _pass(code, {"T": LINES})
    assert all(loop in out for loop in kept)
    assert done == (len(kept) == 1)


def test_line_length_reads_every_value_at_the_depth_indexed() -> None:
    import ast
    deep = {"T": {"a": {"x": [(1, 2)], "y": [[3, 4]]}, "b": {"x": []}}}
    assert line_length(ast.parse("T[i][j]", mode="eval").body, deep, lambda _n: True) == 2
    assert line_length(ast.parse("T[i]", mode="eval").body, deep, lambda _n: True) is None


def test_the_choice_is_made_in_tic_tac_toe() -> None:
    on = source_with("LINES_UNROLLED", True, "tictactoe")
    off = source_with("LINES_UNROLLED", False, "tictactoe")
    loop_in_loop = r"for (\w+) in _T\d+\[\w+\]:\n\s+for \w+ in \1:"  # a line's squares walked
    assert "for _u" in on and "for _a14 in" not in on and not re.search(loop_in_loop, on)
    assert "for _u" not in off and re.search(loop_in_loop, off)


ROWS = """game "Rows"
players Ann, Bob
board Square = grid 4 x 4
state
    mark: Square -> Player? = none
    moves: int = 0
define three(p: Player, s: Square) = any line in lines_through(s, 3): all t in line: mark[t] == p
define blocked(s: Square) = all line in lines_through(s, 3): any t in line: mark[t] != none
action put(s in Square)
    "Mark an empty square."
    require mark[s] == none else "taken"
    set mark[s] = current
    add 1 to moves
    if three(current, s)
        finish winner current
    elif moves == 16 or (moves >= 10 and blocked(s))
        finish draw
flow
    repeat
        turn
            play put
"""


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same("LINES_UNROLLED", "lines unrolled", "rows", ROWS, record, "tictactoe")
