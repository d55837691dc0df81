"""The generated code reads as a person would write it: no `if not not x:` where an `or`'s
split or a check meets a `not` (interpreter/compiler/pytree.py `drop_double_not`)."""

from __future__ import annotations

import ast

import pytest
from bundled import BUNDLED
from regelwerk.interpreter.compiler import pytree

import regelwerk


def test_a_double_not_is_dropped_where_only_truth_is_asked() -> None:
    fn = ast.parse("def f(x, y):\n    if not not x:\n        y = not not x\n"
                   "    while not not not y:\n        pass\n"
                   "    return [a for a in y if not not a] if not not y else 0\n").body[0]
    pytree.drop_double_not(fn)
    assert ast.unparse(fn).splitlines() == [
        "def f(x, y):", "    if x:", "        y = not not x",  # a value keeps its bool
        "    while not y:", "        pass", "    return [a for a in y if a] if y else 0"]


@pytest.mark.parametrize("name", ["checkers", "khan", "root"])
@pytest.mark.parametrize("record", [False, True])
def test_no_bundled_program_tests_not_not(name: str, record: bool) -> None:
    source = regelwerk.load(BUNDLED[name]).program(record).source
    assert "if not " in source and "not not " not in source
