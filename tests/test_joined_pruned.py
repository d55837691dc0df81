"""`joined pruned` (interpreter/compiler/joined.py `joined_pruned`, `CodeGen.JOINED_PRUNED`): a
joined loop's columns whose targets nothing in the function reads are dropped from its tables
(new ones: the joined tables stay for other loops); one column left, its values themselves.
The pass on small functions (what it takes and what it leaves), the code on checkers, the same
games with and without it."""

from __future__ import annotations

import re

import pytest
from playing import chosen_and_same, source_with
from regelwerk.interpreter.compiler.joined import Joining, joined_pruned, joined_rows
from test_joined_tidy import FIXED, TABLES  # the same rows and directions, and one more row
from treepass import passed, run

JUMP = """
def f(pieces, up, cell):
    out = []
    for p0 in pieces:
        r1 = _RN1[p0]
        r2 = _RN2[p0]
        for d, n in (_DN4 if cell.get(p0) == 'k' else _DN4 if up else _DN5):
            if not r2[n] is not None:
                continue
            o = r1[n]
            t = r2[n]
            if not (cell.get(o) == 'x' and cell.get(t) is None):
                continue
            out.append(READ)
    return out
"""


def _passed(code: str) -> tuple[str, dict, bool]:
    def run_pass(fn, made):  # noqa: ANN001, ANN202 - treepass's callback
        joining = Joining(made.constants, lambda t: FIXED.fullmatch(t) is not None, made.const)
        joining.tidy = True
        assert joined_rows(fn, joining, made.fresh)
        return joined_pruned(fn, joining)
    return passed(code, TABLES, run_pass)


def _games(code: str, constants: dict) -> list:
    out = []
    for up in (True, False):
        for cell in ({}, {"a": "k", "b": "x", "ca": None}, {"b": "x", "c": "x", "a": None}):
            out.append(run(code, constants, ["a", "b", "c"], up, cell))
    return out


def test_the_unread_column_is_dropped() -> None:
    code = JUMP.replace("READ", "(p0, t)")
    after, constants, done = _passed(code)
    found = re.search(r"for t, o in \((_JR\d+) if cell.get\(p0\) == 'k' else (_JR\d+) if up else (_JR\d+)\)\[p0\]:",
                      after)
    assert done and found, after
    assert all(len(e) == 2 for t in found.groups() for k in "abc" for e in constants[t][k])
    assert _games(after, constants) == _games(code, TABLES)


def test_every_column_read_is_left_alone() -> None:
    after, _constants, done = _passed(JUMP.replace("READ", "(p0, d)"))
    assert not done and re.search(r"for d, t, o in", after)


def test_one_column_left_is_its_values() -> None:
    code = JUMP.replace("READ", "p0").replace("cell.get(o) == 'x' and ", "")
    after, constants, done = _passed(code)
    assert done and re.search(r"for t in \(_JR\d+ if", after), after
    table = constants[re.search(r"for t in \((_JR\d+) if", after).group(1)]  # type: ignore[union-attr]
    assert table["a"] == ["ab", "ac"]
    assert _games(after, constants) == _games(code, TABLES)


@pytest.mark.parametrize("change", [
    # the target read after the loop (a loop's target outlives it)
    lambda c: c.replace("    return out", "    out.append(d)\n    return out"),
])
def test_left_alone(change) -> None:  # noqa: ANN001 - a function of the code
    code = change(JUMP.replace("READ", "t"))
    after, _constants, done = _passed(code)
    assert not done and re.search(r"for d, t, o in", after), after


WALK = """
def f(pieces, up, cell):
    out = []
    ch = _J1 if up else _J2
    for p0 in pieces:
        for d, t in ch[p0]:
            out.append(t)
    return out
"""


@pytest.mark.parametrize("read_ch_again", [False, True])
def test_a_local_choice_between_joined_tables(read_ch_again: bool) -> None:
    tables = {"_J1": {"a": [("N", "x"), ("S", "y")]}, "_J2": {"a": [("E", "z")]}}
    code = WALK.replace("    return out", "    out.append(ch)\n    return out") if read_ch_again else WALK

    def run_pass(fn, made):  # noqa: ANN001, ANN202 - treepass's callback
        joining = Joining(made.constants, lambda _t: True, made.const)
        joining.never_none.update({"_J1": (True, True), "_J2": (True, True)})
        return joined_pruned(fn, joining)
    after, constants, done = passed(code, tables, run_pass)
    assert done != read_ch_again, after  # a local read elsewhere keeps its tables
    if done:
        assert re.search(r"ch = _JR\d+ if up else _JR\d+\n", after) and "for t in ch[p0]:" in after
        for up in (True, False):
            assert run(after, constants, ["a"], up, {}) == run(code, tables, ["a"], up, {})


def test_checkers_walks_no_direction() -> None:
    on = source_with("JOINED_PRUNED", True, "checkers")
    off = source_with("JOINED_PRUNED", False, "checkers")
    scan_on, scan_off = (src.split("\ndef D_18(")[1].split("\ndef ")[0] for src in (on, off))
    assert re.search(r"for _a\d+, _l\d+, _l\d+ in \(_JR", scan_off)
    assert re.search(r"for _l\d+, _l\d+ in \(_JR", scan_on) and not re.search(r"for _a\d+, _l", scan_on)
    assert re.search(r"for _l\d+, _jr\d+ in \(_JR", on.split("\ndef BA_0(")[1])  # the step listing


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same("JOINED_PRUNED", "joined pruned", "checkers", None, record, "breakthrough")
