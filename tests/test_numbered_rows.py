"""`numbered rows` (interpreter/compiler/numbered.py, `CodeGen.NUMBERED_ROWS`): a loop over a
table's inner keys (directions) reads the rows hoisted before it as lists by the key's number,
not dicts by its name. The pass on small functions (what it numbers and what it leaves), the
choice and its code on the bundled board games, and the same moves, games and traces as
without it."""

from __future__ import annotations

import ast

import pytest
from playing import chosen_and_same, compiled_with, games_digest, source_with
from regelwerk.interpreter.compiler.numbered import Numbering, numbered_rows, rows_ahead
from treepass import passed, run

DIRS = ("N", "E", "S", "W")
TABLES = {
    "_T": {sq: {d: f"{sq}{d}" for d in DIRS} for sq in ("a", "b")},
    "_M": {sq: {d: (sq, d) for d in DIRS} for sq in ("a", "b")},
    "_ODD": {"a": {"N": 1, "E": 2}, "b": {"E": 2, "N": 1}},  # rows in different orders
    "_L": ["N", "S"],
    "_OPP": {"N": "S", "E": "W", "S": "N", "W": "E"},
    "_K": ["E", "W"],
}


def _numbered(code: str, complete: tuple[str, ...] = ("_T", "_M", "_ODD")) -> tuple[str, dict, bool]:
    """`code` (one function) after the pass, the constants it made, and its answer."""
    return passed(code, TABLES, lambda fn, made: numbered_rows(
        fn, made.fresh, Numbering(made.constants, set(complete), made.const)))


_run = run


LISTING = """
def f(pieces, dom):
    out = []
    for p0 in pieces:
        _r1 = _T[p0]
        _r2 = _M[p0]
        for p1 in dom:
            if _r1[p1] is None or p1 == 'S':
                continue
            out.append((_r2[p1], p1))
    return out
"""
# the listing with its domain a local bound once, as a listing's `_dom = _uniq(...)`
BOUND = LISTING.replace("def f(pieces, dom):", "def f(pieces, d):\n    dom = list(d)")


def test_a_local_domain_is_numbered_once_where_it_is_bound() -> None:
    code = BOUND
    after, constants, done = _numbered(code)
    assert done
    assert "for p1, _n" in after and "= [(_v" in after and "for _v" in after
    assert "_r1 = _RN" in after and "_r2 = _RN" in after and "_r1[p1]" not in after
    # the loop variable keeps its name for its other uses
    assert "p1 == 'S'" in after and ", p1))" in after
    for dom in (["N", "E", "S", "W"], ["W", "N"], []):
        assert _run(after, constants, ["a", "b"], dom) == _run(code, TABLES, ["a", "b"], dom)


def test_a_constant_domain_and_a_choice_between_constant_ones_are_constants() -> None:
    code = LISTING.replace("for p1 in dom:", "for p1 in (_L if dom else _K):")
    after, constants, done = _numbered(code)
    assert done
    pairs = [n for n in constants if n.startswith("_DN")]
    assert len(pairs) == 2 and f"{pairs[0]} if dom else {pairs[1]}:" in after
    assert constants[pairs[0]] == [("N", 0), ("S", 2)]
    for dom in (True, False):
        assert _run(after, constants, ["b", "a"], dom) == _run(code, TABLES, ["b", "a"], dom)


def test_a_local_bound_to_a_choice_between_constant_lists_chooses_between_numbered_ones() -> None:
    code = BOUND.replace("dom = list(d)", "dom = _L if d else _K")
    after, constants, done = _numbered(code)
    assert done and "for _v" not in after and " = _DN" in after and " if d else _DN" in after
    for d in (True, False):
        assert _run(after, constants, ["a", "b"], d) == _run(code, TABLES, ["a", "b"], d)


def test_the_numbered_table_is_made_once_and_holds_the_rows_in_key_order() -> None:
    code = LISTING.replace("for p1 in dom:", "for p1 in _L:") + LISTING.replace("def f", "def g").replace(
        "for p1 in dom:", "for p1 in _K:")
    tree = ast.parse(code)
    constants = dict(TABLES)
    names = iter(range(100, 1000))

    def const(value: object, prefix: str = "C") -> str:
        name = f"_{prefix}{next(names)}"
        constants[name] = value
        return name

    numbering = Numbering(constants, {"_T", "_M"}, const)
    for fn in tree.body:
        assert numbered_rows(fn, lambda prefix="t": f"_{prefix}{next(names)}", numbering)  # type: ignore[arg-type]
    tables = [n for n in constants if n.startswith("_RN")]
    assert len(tables) == 2  # one copy of each table for both functions
    assert constants[tables[0]]["a"] == ["aN", "aE", "aS", "aW"]


LEFT_ALONE = {
    "a domain the pass cannot make once (a parameter)": LISTING,
    "the loop's variable rebound in the loop": BOUND.replace(
        "if _r1[p1] is None or p1 == 'S':", "p1 = p1.lower()\n            if _r1[p1] is None:"),
    "a row of a table whose rows differ in their keys": BOUND.replace("_r1 = _T[p0]", "_r1 = _ODD[p0]").replace(
        "_r2 = _M[p0]", "_r2 = _ODD[p0]"),
    "a domain read as something else than a loop's iterable": BOUND.replace(
        "dom = list(d)", "dom = list(d)\n    dom.sort()"),
    "a domain bound twice": BOUND.replace("dom = list(d)", "dom = list(d)\n    dom = dom[1:]"),
}


@pytest.mark.parametrize("why", sorted(LEFT_ALONE))
def test_what_is_left_alone(why: str) -> None:
    code = LEFT_ALONE[why]
    assert code != BOUND or why.startswith("a domain the pass")
    after, _constants, done = _numbered(code)
    assert not done and "_RN" not in after and "for p1, _n" not in after, why


def test_a_row_read_by_something_else_than_the_loops_variable_stays_a_dict() -> None:
    code = BOUND.replace("out.append((_r2[p1], p1))", "out.append((_r2[p1], _r2['N']))")
    after, constants, done = _numbered(code)
    assert done and "_r1 = _RN" in after and "_r2 = _M[p0]" in after and "_r2[p1], _r2['N']" in after
    assert _run(after, constants, ["a", "b"], ["E", "N"]) == _run(code, TABLES, ["a", "b"], ["E", "N"])


def test_rows_of_a_table_not_made_for_every_key_are_left_alone() -> None:
    after, _constants, done = _numbered(BOUND, complete=())
    assert not done and "_RN" not in after
    assert _numbered(BOUND)[2]  # the same code, its tables complete


def test_a_value_that_is_no_key_fails_as_a_rule_error_would() -> None:
    code = BOUND
    after, constants, _done = _numbered(code)
    with pytest.raises(KeyError):
        _run(code, TABLES, ["a"], ["X"])
    with pytest.raises(TypeError):  # both are rule errors (engine/errors.py RULE_ERRORS)
        _run(after, constants, ["a"], ["X"])


AHEAD = """
def f(s, dom):
    out = []
    for d in dom:
        if d == 'W':
            continue
        out.append(_T[s][d])
        for e in _T[s][d]:
            out.append(e)
    return out
"""


def test_a_row_of_a_name_the_loop_does_not_bind_is_looked_up_ahead_of_it() -> None:
    tree = ast.parse(AHEAD)
    names = iter(range(100))
    assert rows_ahead(tree.body[0], lambda prefix="t": f"_{prefix}{next(names)}", {"_T"})  # type: ignore[arg-type]
    after = ast.unparse(tree)
    assert after.count("_T.get(s)") == 1 and "_T[s]" not in after
    assert after.index("_T.get(s)") < after.index("for d in dom")
    for s, dom in (("a", ["N", "W", "E"]), ("b", []), (None, ["W"])):  # no round reads the row: no failure
        assert _run(after, TABLES, s, dom) == _run(AHEAD, TABLES, s, dom)
    with pytest.raises(TypeError):  # a row that is not there fails where it is read, a rule error
        _run(after, TABLES, None, ["N"])


@pytest.mark.parametrize("code, why", [
    (AHEAD.replace("    for d in dom:", "    for d in dom:\n        s = d"), "the name is bound in the loop"),
    (AHEAD.replace("_T[s][d]", "_T[d][s]"), "the row is of the loop's own variable"),
    (AHEAD.replace("    out = []", "    out = []\n    _T = {}"), "the table is bound in the function"),
])
def test_rows_that_are_not_the_same_in_every_round_stay_in_the_loop(code: str, why: str) -> None:
    tree = ast.parse(code)
    names = iter(range(100))
    assert not rows_ahead(tree.body[0], lambda prefix="t": f"_{prefix}{next(names)}", {"_T"}), why  # type: ignore[arg-type]


DERIVED = """
def f(s):
    out = []
    _r1 = _T.get(s)
    for d in _L:
        a = _r1[d]
        o = _OPP[d]
        out.append((a, _r1[o]))
    return out
"""


def test_a_table_entry_of_the_loops_variable_rides_in_the_numbered_domain() -> None:
    after, constants, done = _numbered(DERIVED)
    assert done and "_OPP" not in after and "o = " not in after and "_r1[o]" not in after
    pairs = next(n for n in constants if n.startswith("_DN"))
    assert constants[pairs] == [("N", 0, 2), ("S", 2, 0)]  # each direction, its number, its opposite's
    for s in ("a", "b"):
        assert _run(after, constants, s) == _run(DERIVED, TABLES, s)
    read_too = DERIVED.replace("out.append((a, _r1[o]))", "out.append((a, _r1[o], o))")
    after, constants, done = _numbered(read_too)
    assert done and "o = " not in after and ", o, _n" in after  # still bound: read otherwise too
    assert _run(after, constants, "a") == _run(read_too, TABLES, "a")
    # read before its binding in a round (the previous round's value there): left as it is
    read_before = DERIVED.replace("        a = _r1[d]\n", "        a = o if d == 'S' else _r1[d]\n")
    assert "o = _OPP[d]" in _numbered(read_before)[0]


@pytest.mark.parametrize("name, kinds", [
    ("breakthrough", {"action step"}),
    ("checkers", {"action step", "define first_jumps", "define jump_paths"}),
    ("connect4", {"action drop", "define four_through"}),
])
def test_the_choice_is_made_and_the_code_has_the_form(name: str, kinds: set[str]) -> None:
    on = compiled_with("NUMBERED_ROWS", True, name)
    for record in (False, True):
        assert {c.rule for c in on.program(record).choices if c.kind == "numbered rows"} == kinds
    source = source_with("JOINED_ROWS", False, name)  # the form before joined.py takes the rows into its tables
    assert ", _n" in source and ("= _RN" in source or "= _RP" in source)  # rows paired after (paired.py)
    off = source_with("NUMBERED_ROWS", False, name)
    assert "_RN" not in off and ", _n" not in off


@pytest.mark.parametrize("name", ["breakthrough", "connect4"])
@pytest.mark.parametrize("record", [False, True])
def test_the_same_bundled_games_with_and_without(name: str, record: bool) -> None:
    assert games_digest(compiled_with("NUMBERED_ROWS", True, name), 2, range(6), record) == \
        games_digest(compiled_with("NUMBERED_ROWS", False, name), 2, range(6), record)


DIRECTED = """game "Directed"
players Ann, Bob
board Square = grid 4 x 4
state
    cell: Square -> Player? = none
    moved: int = 0
procedure set_up
    set cell[a1] = Ann
    set cell[b1] = Ann
    set cell[c4] = Bob
    set cell[d4] = Bob
define ways(p: Player) = if p == Ann then [N, NE, E] else [S, SW, W]
define reach(p: Player) = count s in Square where cell[s] == p and (any d in ways(p): neighbour(s, d) != none)
action go(from: Square, d in ways(current))
    "A piece moves one square its way."
    require cell[from] == current else "not yours"
    let to = neighbour(from, d)
    require to != none else "off the board"
    require cell[to] == none or cell[to] != current else "your own piece"
    set cell[to] = current
    clear cell[from]
    add 1 to moved
    if moved >= 20 or reach(other(current)) == 0
        finish draw
flow
    do set_up
    repeat
        turn
            if possible(go)
                play go
            else
                finish draw
"""


@pytest.mark.parametrize("record", [False, True])
def test_the_same_moves_and_games_with_and_without(record: bool) -> None:
    chosen_and_same("NUMBERED_ROWS", "numbered rows", "directed", DIRECTED, record, bundled="checkers")
