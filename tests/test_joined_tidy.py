"""`joined tidy` (interpreter/compiler/joined.py `_tidy`, `CodeGen.JOINED_TIDY`): after a loop is
joined with its rows, the copies of its targets that lead its body are the targets themselves,
and a test that a target is None, where its column holds no None in the tables the loop walks,
is folded. The pass on small functions, the code on checkers, the same games without it."""

from __future__ import annotations

import re

import pytest
from playing import same_with_and_without, source_with
from regelwerk.interpreter.compiler.joined import Joining, joined_rows
from treepass import passed, run

TABLES = {
    "_RN1": {"a": ["b", None, "c"], "b": [None, "a", None], "c": ["a", "b", "b"]},  # over
    "_RN2": {"a": ["ab", None, "ac"], "b": [None, "ba", None], "c": ["ca", "cb", "cx"]},  # landing
    "_RN3": {"a": ["ab", "ax", "ac"], "b": ["bx", None, "bx"], "c": ["ca", "cb", "cx"]},  # may be None
    "_DN4": [("N", 0), ("E", 1), ("S", 2)],
    "_DN5": [("S", 2), ("N", 0)],
}
FIXED = re.compile(r"_(RN|DN)\d+")

JUMP = """
def f(pieces, up, cell):
    out = []
    for p0 in pieces:
        r1 = _RN1[p0]
        r2 = _RN2[p0]
        r3 = _RN3[p0]
        for d, n in (_DN4 if up else _DN5):
            if not r2[n] is not None:
                continue
            o = r1[n]
            t = r2[n]
            z = r3[n]
            if not (t is not None and o is not None and z is not None and cell.get(o) != 'x' and cell.get(t) is None):
                continue
            out.append((p0, d, t, o, z is None))
    return out
"""


def _joined(code: str, tidy: bool) -> tuple[str, dict, bool]:
    def run_pass(fn, made):  # noqa: ANN001, ANN202 - treepass's callback
        joining = Joining(made.constants, lambda t: FIXED.fullmatch(t) is not None, made.const)
        joining.tidy = tidy
        return joined_rows(fn, joining, made.fresh)
    return passed(code, TABLES, run_pass)


def test_copies_become_the_targets_and_none_tests_of_full_columns_fold() -> None:
    after, constants, done = _joined(JUMP, True)
    untidy, _c, _d = _joined(JUMP, False)
    assert done
    assert re.search(r"for d, t, o, z in \(_JR\d+ if up else _JR\d+\)\[p0\]:", after), after
    assert not re.search(r"\b[ot] = ", after) and "_jx" not in after and "_jr" not in after
    # the landing and the square jumped over are never None in the joined rows; the third row is
    assert "t is not None" not in after and "o is not None" not in after and "z is not None" in after
    assert "t is not None" in untidy and re.search(r"\bo = _jr\d+", untidy)
    for pieces in (["a", "b", "c"], ["c"]):
        for up in (True, False):
            for cell in ({}, {"b": "x"}, {"b": "y", "ab": "x"}):
                assert run(after, constants, pieces, up, cell) == run(JUMP, TABLES, pieces, up, cell)


def test_a_copy_bound_again_is_left() -> None:
    code = JUMP.replace("out.append(", "t = 'moved'\n            out.append(")
    after, constants, done = _joined(code, True)
    assert done and re.search(r"\bt = _jx\d+", after)  # t is bound twice: not the target
    assert run(after, constants, ["a", "b"], True, {}) == run(code, TABLES, ["a", "b"], True, {})


def test_checkers_jump_scan_reads_its_targets() -> None:
    on = source_with("JOINED_TIDY", True, "checkers")
    off = source_with("JOINED_TIDY", False, "checkers")
    assert re.search(r"_l\d+ = _jr\d+", off) and not re.search(r"_l\d+ = _jr\d+", on)
    assert re.search(r"for (_a\d+, )?_l\d+, _l\d+ in ", on)  # (`joined pruned` drops the direction)
    assert on.count("is not None and _l") < off.count("is not None and _l")
    assert re.search(r"\)\.get\(_a\d+\):", off) and not re.search(r"\)\.get\(_a\d+\):", on)


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    same_with_and_without("JOINED_TIDY", record, {}, bundled="checkers")


def test_a_row_taken_by_get_is_joined_by_subscript() -> None:
    code = JUMP.replace("_RN1[p0]", "_RN1.get(p0)").replace("_RN2[p0]", "_RN2.get(p0)").replace("_RN3[p0]", "_RN3.get(p0)")
    after, constants, done = _joined(code, True)
    untidy, _c, _d = _joined(code, False)
    assert done and re.search(r"\)\[p0\]:", after) and re.search(r"\)\.get\(p0\):", untidy)
    assert run(after, constants, ["a", "c"], True, {}) == run(code, TABLES, ["a", "c"], True, {})
    with pytest.raises(KeyError):  # a key the static types rule out fails at the loop either way
        run(after, constants, ["zz"], True, {})
    with pytest.raises(TypeError):
        run(untidy, _c, ["zz"], True, {})
