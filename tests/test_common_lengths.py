"""`common lengths` (interpreter/compiler/common_exprs.py, `CodeGen.COMMON_LENGTHS`): `common
expressions` also takes `b_len(x)` of a pure value as pure, counts the runtime's helpers that
only read their lists (`b_len`, `_joined`, `_charged`) as changing nothing, and lets a look-up in
a name lead with its key (`_T[p[b_len(p) - 1]]`): checkers' `last(path)`, worked out three
times a direction in the jump search. The pass on small functions, checkers' code, the same
games with and without."""

from __future__ import annotations

import re

import pytest
from playing import same_with_and_without, source_with
from regelwerk.interpreter.compiler.common_exprs import common_expressions
from treepass import passed, run

TABLES = {"_TA": {"a": {"x": "b"}, "b": {"x": None}}, "_TB": {"a": {"x": "c"}, "b": {"x": "d"}},
          "b_len": len, "D_5": lambda G, p: p[1:]}

SEARCH = """def f(G, p, dirs):
    out = []
    for d in dirs:
        o = _TA[p[b_len(p) - 1]][d]
        t = _TB[p[b_len(p) - 1]][d]
        if o is not None and o not in D_5(G, p):
            out.append(_TB[p[b_len(p) - 1]][d])
    return out
"""


def _pass(code: str, lengths: bool) -> tuple[str, bool]:
    out, _constants, done = passed(code, TABLES, lambda fn, made: common_expressions(fn, made.fresh, lengths))
    return out, done


def test_the_last_item_is_worked_out_once_a_round() -> None:
    out, done = _pass(SEARCH, True)
    assert done
    loop = out.split("for d in dirs:")[1]
    assert loop.count("b_len(p)") == 1 and re.search(r"_ce\d+ = p\[b_len\(p\) - 1\]", loop)
    assert "out.append(t)" in loop  # the whole look-up, kept as `t`
    off, done_off = _pass(SEARCH, False)
    assert off.count("b_len(p)") == 3
    for p in (["a"], ["b", "a"], ["a", "b"]):
        assert run(out, TABLES, None, p, ["x"]) == run(SEARCH, TABLES, None, p, ["x"])


@pytest.mark.parametrize("code", [
    # the list is changed in place between: a method may change its receiver
    "def f(p):\n    a = p[b_len(p) - 1]\n    p.append(1)\n    return a + p[b_len(p) - 1]\n",
    # handed to a call that may change it
    "def f(p, g):\n    a = p[b_len(p) - 1]\n    g(p)\n    return a + p[b_len(p) - 1]\n",
    # bound anew between
    "def f(p):\n    a = p[b_len(p) - 1]\n    p = [5]\n    return a + p[b_len(p) - 1]\n",
])
def test_left_alone(code: str) -> None:
    out, done = _pass(code, True)
    assert not done and out.count("b_len(p)") == 2


def test_checkers_jump_search() -> None:
    on, off = source_with("COMMON_LENGTHS", True, "checkers"), source_with("COMMON_LENGTHS", False, "checkers")
    assert len(re.findall(r"_ce\d+ = p1\[b_len\(p1\) - 1\]", on)) >= 2
    assert not re.search(r"_ce\d+ = p1\[b_len\(p1\) - 1\]", off)


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    same_with_and_without("COMMON_LENGTHS", record, {}, bundled="checkers")
    same_with_and_without("COMMON_LENGTHS", record, {}, bundled="root")
