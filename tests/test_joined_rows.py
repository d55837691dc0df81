"""`joined rows` (interpreter/compiler/joined.py, `CodeGen.JOINED_ROWS`): a loop over a numbered
domain that reads a row by the number and skips None walks, instead, a table made when the
program is compiled of the rounds that pass, with the rows' entries. The pass on small functions
(what it joins and what it leaves), the choices and code on the bundled board games, and the
same games and traces as without it."""

from __future__ import annotations

import ast
import re

import pytest
from playing import chosen_and_same, compiled_with, games_digest, source_with
from regelwerk.interpreter.compiler.joined import Joining, joined_rows
from test_numbered_rows import DIRECTED
from treepass import passed, run

TABLES = {
    "_RN1": {"a": ["b", None, "c"], "b": [None, "a", None], "c": ["a", "b", None]},  # neighbours
    "_RN2": {"a": ["ab", "ax", "ac"], "b": ["bx", "ba", "bx"], "c": ["ca", "cb", "cx"]},  # moves
    "_DN4": [("N", 0), ("E", 1), ("S", 2)],
    "_DN5": [("S", 2), ("N", 0)],
    "_PP6": {"Ann": [("N", 0), ("E", 1)], "Bob": [("S", 2)]},
    "_T7": {"Ann": [("N", 0)], "Bob": [("S", 2)]},  # the same shape, but filled as the game asks: not fixed
}
TABLES["_RP3"] = {k: (TABLES["_RN1"][k], TABLES["_RN2"][k]) for k in TABLES["_RN1"]}  # paired rows
FIXED = re.compile(r"_(RN|RP|DN|PP)\d+")


def _joined(code: str) -> tuple[str, dict, bool]:
    """`code` (one function) after the pass, the constants it made, and its answer."""
    return passed(code, TABLES, lambda fn, made: joined_rows(
        fn, Joining(made.constants, lambda t: FIXED.fullmatch(t) is not None, made.const), made.fresh))


_run = run


PAIRED = """
def f(pieces, cur, taken):
    out = []
    dom = _PP6[cur]
    for p0 in pieces:
        r1, r2 = _RP3[p0]
        for d, n in dom:
            x = r1[n]
            if not x is not None:
                continue
            if x in taken:
                continue
            out.append((d, r2[n], x))
    return out
"""


def test_a_players_domain_is_joined_for_every_player_and_the_rows_are_gone() -> None:
    after, constants, done = _joined(PAIRED)
    assert done
    assert re.search(r"_jn\d+ = _JR\d+\[cur\]", after) and re.search(r"for d, x, _jr\d+ in _jn\d+\[p0\]", after)
    assert "_RP3" not in after and "_PP6" not in after and "r1[n]" not in after  # the look-ups left: none
    table = next(v for k, v in constants.items() if k.startswith("_JR"))
    assert table["Ann"]["a"] == [("N", "b", "ab")] and table["Bob"]["a"] == [("S", "c", "ac")]
    assert table["Ann"]["b"] == [("E", "a", "ba")] and table["Bob"]["b"] == []
    for cur in ("Ann", "Bob"):
        for taken in (set(), {"a"}):
            assert _run(after, constants, ["a", "b", "c"], cur, taken) == \
                _run(PAIRED, TABLES, ["a", "b", "c"], cur, taken)


def test_a_test_on_the_row_itself_and_a_choice_between_constant_domains() -> None:
    code = """
def f(pieces, up):
    out = []
    for p0 in pieces:
        r1 = _RN1.get(p0)
        r2 = _RN2.get(p0)
        for d, n in (_DN4 if up else _DN5):
            if not r1[n] is not None:
                continue
            out.append((d, r1[n], r2[n]))
    return out
"""
    after, constants, done = _joined(code)
    assert done
    assert re.search(r"for d, _jx\d+, _jr\d+ in \(_JR\d+ if up else _JR\d+\)\.get\(p0\)", after)
    for up in (True, False):
        assert _run(after, constants, ["a", "b", "c"], up) == _run(code, TABLES, ["a", "b", "c"], up)
    with pytest.raises(TypeError):  # a key the rows lack: a TypeError either way
        _run(code, TABLES, ["z"], True)
    with pytest.raises(TypeError):
        _run(after, constants, ["z"], True)


def test_a_look_up_the_pass_did_not_leave_unread_stays() -> None:
    code = PAIRED.replace("    dom = _PP6[cur]\n", "    dom = _PP6[cur]\n    unused = _RN1[cur]\n")
    after, _constants, done = _joined(code)
    assert done and "unused = _RN1[cur]" in after and "_PP6" not in after  # it fails where it did


def test_a_key_that_is_no_key_fails_with_a_key_error_either_way() -> None:
    after, constants, _done = _joined(PAIRED)
    for code, consts in ((after, constants), (PAIRED, TABLES)):
        with pytest.raises(KeyError):
            _run(code, consts, ["z"], "Ann", set())


@pytest.mark.parametrize("change, why", [
    (("out.append((d, r2[n], x))", "out.append((d, r2[n], x, n))"), "the number read otherwise"),
    (("        r1, r2 = _RP3[p0]\n", "        r1, r2 = _RP3[p0]\n        q = p0\n"), "fine: not a row"),
    (("out.append((d, r2[n], x))", "out.append((d, _RN2[p0][n], x))"), "a row not bound before the loop"),
    (("dom = _PP6[cur]", "dom = _T7[cur]"), "a domain from a table not fixed"),
    (("            if not x is not None:\n                continue\n", ""), "no test of the row"),
    (("if not x is not None:", "if not x is None:"), "another test"),
    (("            out.append(", "            p0 = 'a'\n            out.append("), "the key bound again"),
    (("        r1, r2 = _RP3[p0]\n", "        r1, r2 = _RP3[p0]\n        p0 = 'a'\n"), "the key bound again before"),
    (("    for p0 in pieces:\n        r1, r2 = _RP3[p0]\n", "    p0 = pieces[0]\n    if True:\n        r1, r2 = _RP3[cur]\n"
      "        cur = 'a'\n"), "a parameter as the key, bound again"),
])
def test_what_is_left_alone(change: tuple[str, str], why: str) -> None:
    code = PAIRED.replace(*change)
    after, _constants, done = _joined(code)
    if why.startswith("fine"):
        assert done
        return
    assert not done, why
    assert after == ast.unparse(ast.parse(code))


@pytest.mark.parametrize("name, kinds", [
    ("breakthrough", {"action step"}),
    ("checkers", {"action step", "define first_jumps", "define jump_paths"}),
])
def test_the_choice_is_made_and_the_code_has_the_form(name: str, kinds: set[str]) -> None:
    on = compiled_with("JOINED_ROWS", True, name)
    for record in (False, True):
        assert {c.rule for c in on.program(record).choices if c.kind == "joined rows"} == kinds
    assert "_JR" in source_with("JOINED_ROWS", True, name)
    assert "_JR" not in source_with("JOINED_ROWS", False, name)


@pytest.mark.parametrize("name", ["breakthrough", "checkers"])
@pytest.mark.parametrize("record", [False, True])
def test_the_same_bundled_games_with_and_without(name: str, record: bool) -> None:
    assert games_digest(compiled_with("JOINED_ROWS", True, name), 2, range(6), record) == \
        games_digest(compiled_with("JOINED_ROWS", False, name), 2, range(6), record)


@pytest.mark.parametrize("record", [False, True])
def test_the_same_moves_and_games_of_a_small_ruleset_with_and_without(record: bool) -> None:
    chosen_and_same("JOINED_ROWS", "joined rows", "directed", DIRECTED, record, bundled="breakthrough")
