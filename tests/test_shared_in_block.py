"""`shared in block` (interpreter/compiler/sharedlocal.py, `CodeGen.SHARED_IN_BLOCK`): the calls
of shared definitions that a block's listings write with fixed arguments are kept in locals,
made the first time; the decision's memo `G._shared` is dropped where nothing else the listings
run reaches a shared definition, and kept where something does. The same answers, the same
number of calls made, and the same games with and without."""

from __future__ import annotations

import ast
from types import SimpleNamespace

import pytest
from playing import chosen_and_same, source_with
from regelwerk.interpreter.compiler.sharedlocal import call_graph, memo_users, shared_in_block
from test_shared_calls import SHARED
from treepass import Made

MODULE = '''def D_1(G, p0):
    _sc = G._shared
    if _sc is not None:
        _known = _sc.get((1, p0), MISSING)
        if _known is not MISSING:
            return _known
    G.calls.append(p0)
    _v = [p0] * 2
    if _sc is not None:
        _sc[(1, p0)] = _v
    return _v

def D_2(G, p0):
    return D_1(G, p0) != []

def D_3(G, p0):
    return len(p0)

def B_0(G, legal):
    _mover = G.current
    G._shared = {}
    try:
        if D_1(G, _mover) != []:
            legal.append(1)
        for x in D_1(G, _mover):
            legal.append(D_3(G, x))
        legal.append(len(D_1(G, 'Ann')))
        OTHER
    finally:
        G._shared = None
    return legal
'''


def _block(other: str = "pass", head: str = "") -> tuple[str, bool, dict]:
    """The module with `OTHER` replaced, after the pass over B_0; its code, the pass's answer,
    and its namespace to run."""
    text = MODULE.replace("OTHER", other).replace("    _mover = G.current\n", "    _mover = G.current\n" + head)
    tree = ast.parse(text)
    fns = {fn.name: fn for fn in tree.body if isinstance(fn, ast.FunctionDef)}
    done = shared_in_block(fns["B_0"], memo_users(fns), call_graph(fns), Made({}).fresh)
    code = ast.unparse(tree)
    ns: dict = {"MISSING": object()}
    exec(compile(code, "<test>", "exec"), ns)  # noqa: S102 - the test's own code
    return code, done, ns


def _run(ns: dict, current: str = "Bob") -> tuple[list, list]:
    g = SimpleNamespace(current=current, _shared=None, calls=[])
    return ns["B_0"](g, []), g.calls


def test_memo_users_are_the_definitions_that_look_themselves_up() -> None:
    tree = ast.parse(MODULE.replace("OTHER", "pass"))
    fns = {fn.name: fn for fn in tree.body if isinstance(fn, ast.FunctionDef)}
    assert memo_users(fns) == {"D_1"}
    assert call_graph(fns)["D_2"] == {"D_1"} and call_graph(fns)["B_0"] == {"D_1", "D_3"}


def test_calls_kept_in_a_local_and_the_memo_dropped_when_nothing_else_reaches_it() -> None:
    code, done, ns = _block()
    body = code.split("def B_0")[1]
    assert done and "G._shared" not in body and "try:" not in body
    assert body.count(":= D_1(G, _mover)") == 2 and "is not MISSING" in body
    assert "D_1(G, 'Ann')" in body and ":= D_1(G, 'Ann')" not in body  # asked once: a plain call
    assert _run(ns) == ([1, 3, 3, 2], ["Bob", "Ann"])  # one call per argument, in the same order
    _code, _done, plain = _block()
    before = {"MISSING": object()}
    exec(compile(MODULE.replace("OTHER", "pass"), "<test>", "exec"), before)  # noqa: S102
    assert _run(before) == _run(plain)


@pytest.mark.parametrize("other", [
    "legal.append(D_2(G, _mover))",  # a function that calls a shared one
    "legal.append([D_1(G, _mover) for _ in (1,)])",  # in a comprehension: not rewritten, reaches
    "legal.append(D_1(G, legal[0]))",  # an argument that is not fixed
])
def test_the_memo_kept_where_something_else_reaches_a_shared_definition(other: str) -> None:
    code, done, ns = _block(other)
    body = code.split("def B_0")[1]
    assert done and "G._shared = {}" in body and "G._shared = None" in body
    assert body.count(":= D_1(G, _mover)") == 2
    result, calls = _run(ns)
    before = {"MISSING": object()}
    exec(compile(MODULE.replace("OTHER", other), "<test>", "exec"), before)  # noqa: S102
    assert (result, calls) == _run(before) and calls.count("Bob") == 1  # the memo answers the rest


def test_left_alone_where_the_current_player_name_is_bound_to_something_else() -> None:
    code, done, _ns = _block(head="    _mover = legal\n")
    body = code.split("def B_0")[1]
    assert ":= D_1(G, _mover)" not in body  # `_mover` is not G.current throughout
    assert not done and "G._shared = {}" in body  # the calls left reach D_1: the memo stays


def test_no_memo_nothing_done() -> None:
    tree = ast.parse("def B_0(G):\n    return D_1(G, G.current)\n")
    fn = tree.body[0]
    assert isinstance(fn, ast.FunctionDef)
    assert not shared_in_block(fn, {"D_1"}, {"B_0": {"D_1"}, "D_1": set()}, Made({}).fresh)


def test_the_choice_is_made_in_checkers_block() -> None:
    on = source_with("SHARED_IN_BLOCK", True, "checkers")
    off = source_with("SHARED_IN_BLOCK", False, "checkers")
    # the block alone (the fused apply that follows it copies its section: `fused apply`)
    block_on, block_off = (src.split("\ndef B_0")[1].split("\ndef ")[0] for src in (on, off))
    assert "G._shared = {}" in block_off and "G._shared" not in block_on
    assert block_on.count("is not MISSING else (_sh") == 2


# shared_calls' ruleset, four rounds long: its two listings share `spare(current)`
SPARE = SHARED.replace("    repeat\n", "    repeat 4 times\n", 1)


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same("SHARED_IN_BLOCK", "shared in block", "spare", SPARE, record, "checkers")
