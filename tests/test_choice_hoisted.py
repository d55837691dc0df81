"""`choice hoisted` (interpreter/compiler/choicehoist.py, `CodeGen.CHOICE_HOISTED`): a conditional
between names and literals, whose test compares with a literal and which reads nothing a loop
binds, is worked out into a local ahead of the loop. The pass on small functions (what it
takes and what it leaves), the code of the board games, the same games with and without."""

from __future__ import annotations

import re

import pytest
from playing import chosen_and_same, source_with
from regelwerk.interpreter.compiler.choicehoist import choice_hoisted
from treepass import passed, run

TABLES = {"_JK": {"a": ["k"], "b": ["k", "k2"]}, "_JB": {"a": ["b1"], "b": []}, "_JW": {"a": ["w1"], "b": ["w2"]}}

SCAN = """def f(p, keys, king):
    out = []
    for s in keys:
        for d in (_JK if king.get(s) is not None else _JB if p == 'Black' else _JW)[s]:
            out.append((s, d, 8 if p == 'Black' else 1))
    return out
"""


def _pass(code: str) -> tuple[str, bool]:
    out, _constants, done = passed(code, TABLES, lambda fn, made: choice_hoisted(fn, made.fresh))
    return out, done


def test_the_owners_choice_is_made_once_ahead_of_the_loop() -> None:
    out, done = _pass(SCAN)
    assert done
    head, loop = out.split("for s in keys:")
    assert "_JB if p == 'Black' else _JW" in head and "8 if p == 'Black' else 1" in head
    assert "p == 'Black'" not in loop and "_JK if king.get(s) is not None else _ch" in loop
    for p in ("Black", "White", None):
        for keys in ([], ["a", "b"], ["b"]):
            for king in ({}, {"a": "Black"}):
                assert run(out, TABLES, p, keys, king) == run(SCAN, TABLES, p, keys, king)


@pytest.mark.parametrize("code", [
    # the name is bound in the loop
    "def f(p, keys):\n    out = []\n    for s in keys:\n        p = s\n        out.append(1 if p == 'a' else 2)\n    return out\n",
    # the test reads the loop's own name
    "def f(p, keys):\n    out = []\n    for s in keys:\n        out.append(1 if s == 'a' else 2)\n    return out\n",
    # a look-up in the test or a branch: it may fail, or change
    "def f(p, keys, m):\n    out = []\n    for s in keys:\n        out.append(1 if m[p] == 'a' else 2)\n    return out\n",
    "def f(p, keys, m):\n    out = []\n    for s in keys:\n        out.append(m[p] if p == 'a' else 2)\n    return out\n",
    # two names compared: no literal to answer for any value
    "def f(p, q, keys):\n    out = []\n    for s in keys:\n        out.append(1 if p == q else 2)\n    return out\n",
    # a local bound only after the loop's start, or only in a branch before it
    "def f(p, keys):\n    out = []\n    if keys:\n        x = p\n    for s in keys:\n        out.append(1 if x == 'a' else 2)\n    return out\n",
    # in a comprehension
    "def f(p, keys):\n    return [[1 if p == 'a' else 2 for s in keys] for t in keys]\n",
    # an assignment expression in it (an explanation's recorded values)
    "def f(p, keys):\n    out = []\n    for s in keys:\n        out.append(1 if (x := p) == 'a' else 2)\n    return out\n",
])
def test_left_alone(code: str) -> None:
    out, done = _pass(code)
    assert not done and "_ch" not in out


def test_a_local_bound_before_the_loop_and_a_global() -> None:
    code = ("def f(G, keys):\n    out = []\n    _mover = G\n    while True:\n        for s in keys:\n"
            "            out.append((_JB if _mover == 'Black' else _JW)[s])\n        break\n    return out\n")
    out, done = _pass(code)
    assert done and "_ch" in out.split("for s in keys")[0]
    assert run(out, TABLES, "White", ["a", "b"]) == run(code, TABLES, "White", ["a", "b"]) == [["w1"], ["w2"]]


def test_the_choice_is_made_in_the_board_games() -> None:
    on = source_with("CHOICE_HOISTED", True, "checkers")
    off = source_with("CHOICE_HOISTED", False, "checkers")
    assert re.search(r"_ch\d+ = ", on) and not re.search(r"_ch\d+ = ", off)
    scan_on, scan_off = (src.split("\ndef D_18(")[1].split("\ndef ")[0] for src in (on, off))
    assert "if p0 == 'Black' else _JR" in scan_off  # the jump scan: the owner's table per piece
    assert "if p0 == 'Black' else _JR" in scan_on.split("for _a")[0] and "else _ch" in scan_on
    assert "'N' if _cur == 'White' else 'S'" in source_with("CHOICE_HOISTED", True, "breakthrough").split("for p0 in")[0]


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same("CHOICE_HOISTED", "choice hoisted", "breakthrough", None, record, "checkers")  # type: ignore[arg-type]
