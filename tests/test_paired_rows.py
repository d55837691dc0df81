"""`paired rows` (interpreter/compiler/paired.py, `CodeGen.PAIRED_ROWS`): consecutive rows of
fixed tables with the same keys, looked up by the same name, looked up once as a tuple. The pass
on small functions (what it pairs and what it leaves), the choice and its code on the bundled
board games, and the same games and traces as without it."""

from __future__ import annotations

import ast

import pytest
from playing import compiled_with, games_digest, source_with
from regelwerk.interpreter.compiler.paired import Pairing, paired_rows
from treepass import passed, run

TABLES = {
    "_N": {"a": ["b", None], "b": [None, "a"]},
    "_M": {"a": [("a", 0), ("a", 1)], "b": [("b", 0), ("b", 1)]},
    "_X": {"a": 1},  # other keys
    "_F": {"a": 5, "b": 6},  # filled as the game asks: not fixed
}
FIXED = ("_N", "_M", "_X")


def _paired(code: str) -> tuple[str, dict, bool]:
    """`code` (one function) after the pass, the constants it made, and its answer."""
    return passed(code, TABLES, lambda fn, made: paired_rows(fn, Pairing(made.constants, FIXED.__contains__,
                                                                          made.const)))


_run = run


LISTING = """
def f(pieces):
    out = []
    for p0 in pieces:
        _r1 = _N[p0]
        _r2 = _M[p0]
        for i in (0, 1):
            if _r1[i] is None:
                continue
            out.append(_r2[i])
    return out
"""


def test_two_rows_of_one_square_are_one_look_up() -> None:
    after, constants, done = _paired(LISTING)
    assert done
    assert "_r1, _r2 = _RP100[p0]" in after and "_N[p0]" not in after and "_M[p0]" not in after
    assert constants["_RP100"] == {"a": (["b", None], [("a", 0), ("a", 1)]),
                                   "b": ([None, "a"], [("b", 0), ("b", 1)])}
    assert _run(after, constants, ["a", "b", "a"]) == _run(LISTING, TABLES, ["a", "b", "a"]) == \
        [("a", 0), ("b", 1), ("a", 0)]


def test_rows_looked_up_with_get_are_none_together_for_a_missing_key() -> None:
    code = LISTING.replace("_N[p0]", "_N.get(p0)").replace("_M[p0]", "_M.get(p0)").replace(
        "        for i in (0, 1):", "        if _r1 is None and _r2 is None:\n            out.append('none')\n"
                                     "            continue\n        for i in (0, 1):")
    after, constants, done = _paired(code)
    assert done and "_r1, _r2 = _RP100.get(p0, (None, None))" in after
    assert _run(after, constants, ["a", "z"]) == _run(code, TABLES, ["a", "z"]) == [("a", 0), "none"]


def test_a_key_that_is_no_key_fails_with_the_same_error() -> None:
    after, constants, _done = _paired(LISTING)
    for code, consts in ((after, constants), (LISTING, TABLES)):
        with pytest.raises(KeyError) as err:
            _run(code, consts, ["a", "z"])
        assert err.value.args == ("z",)


@pytest.mark.parametrize("change, why", [
    (("_M[p0]", "_X[p0]"), "tables with other keys"),
    (("_M[p0]", "_F[p0]"), "a table not made complete when the program is compiled"),
    (("_M[p0]", "_M.get(p0)"), "one by subscript, one by get"),
    (("_M[p0]", "_M[p1]"), "another key"),
    (("        _r2 = _M[p0]\n", "        x = 1\n        _r2 = _M[p0]\n"), "not consecutive"),
    (("        _r2 = _M[p0]\n", "        p0 = _M[p0]\n"), "the second binds the key itself"),
    (("_r2 = _M[p0]", "_r1 = _M[p0]"), "the same target twice"),
])
def test_what_is_left_alone(change: tuple[str, str], why: str) -> None:
    code = LISTING.replace(*change)
    after, _constants, done = _paired(code)
    assert not done, why
    assert ast.unparse(ast.parse(code)) == after


def test_the_paired_table_is_made_once_for_the_same_tables() -> None:
    code = LISTING + LISTING.replace("def f(", "def g(")
    constants = dict(TABLES)
    made = []

    def const(value: object, prefix: str = "C") -> str:
        made.append(value)
        name = f"_{prefix}{len(made)}"
        constants[name] = value
        return name

    pairing = Pairing(constants, FIXED.__contains__, const)
    tree = ast.parse(code)
    assert all(paired_rows(fn, pairing) for fn in tree.body)  # type: ignore[arg-type]
    assert len(made) == 1 and ast.unparse(tree).count("= _RP1[p0]") == 2


@pytest.mark.parametrize("name, kinds", [
    ("breakthrough", {"action step"}),
    ("checkers", {"action step", "define first_jumps", "define jump_paths"}),
])
def test_the_choice_is_made_and_the_code_has_the_form(name: str, kinds: set[str]) -> None:
    on = compiled_with("PAIRED_ROWS", True, name)
    for record in (False, True):
        assert {c.rule for c in on.program(record).choices if c.kind == "paired rows"} == kinds
    assert "= _RP" in source_with("JOINED_ROWS", False, name)  # before joined.py takes the rows into its tables
    assert "_RP" not in source_with("PAIRED_ROWS", False, name)


@pytest.mark.parametrize("name", ["breakthrough", "checkers"])
@pytest.mark.parametrize("record", [False, True])
def test_the_same_bundled_games_with_and_without(name: str, record: bool) -> None:
    assert games_digest(compiled_with("PAIRED_ROWS", True, name), 2, range(6), record) == \
        games_digest(compiled_with("PAIRED_ROWS", False, name), 2, range(6), record)
