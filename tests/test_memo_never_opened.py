"""`memo never opened` (docs/architecture.md §5, `CodeGen.MEMO_UNOPENED`, sharedlocal.py
`memo_unopened`): where no function of a program opens the decision's memo (`shared in block`
dropped every block's), a shared definition's look-up there and its store are dropped: `G._shared`
is None whenever it runs. Pinned: the form (checkers' jump search, on and off), what the pass
leaves alone, that a program that opens the memo keeps them, and the same games, saves, results
and traces with it on and off."""

from __future__ import annotations

import ast
import re
from types import SimpleNamespace

import pytest
from playing import compiled_with, same_with_and_without, switches
from regelwerk.interpreter.compiler.sharedlocal import memo_opened, memo_unopened

SHARED = """def f(G, p0):
    V = G.vars
    _sc = G._shared
    if _sc is not None:
        _key = (18, p0)
        _known = _sc.get(_key, MISSING)
        if _known is not MISSING:
            return _known
    _r = [p0, p0]
    _scv = _r
    if _sc is not None:
        _sc[_key] = _scv
    return _scv
"""

OPENS = """def b(G):
    G._shared = {}
    try:
        x = f(G, 1)
    finally:
        G._shared = None
    return x
"""


def _fns(*codes: str) -> dict[str, ast.FunctionDef]:
    return {fn.name: fn for code in codes for fn in ast.parse(code).body if isinstance(fn, ast.FunctionDef)}


def test_the_look_up_and_the_store_are_dropped() -> None:
    fns = _fns(SHARED)
    assert not memo_opened(fns) and memo_unopened(fns["f"])
    out = ast.unparse(fns["f"])
    assert not re.search(r"\b_sc\b|\b_key\b|_shared", out) and "_scv = _r\n    return _scv" in out
    ns: dict = {}
    exec(compile(out, "<test>", "exec"), ns)  # noqa: S102 - the test's own code
    assert ns["f"](SimpleNamespace(vars={}, _shared=None), 3) == [3, 3]


def test_a_program_that_opens_the_memo_keeps_them() -> None:
    assert memo_opened(_fns(SHARED, OPENS))
    assert memo_opened(_fns(SHARED, "def c(G):\n    setattr(G, '_shared', {})\n"))
    assert not memo_opened(_fns(SHARED, "def c(G):\n    G._shared = None\n"))


@pytest.mark.parametrize("code", [
    SHARED.replace("    return _scv", "    return _scv, _key"),  # the key read elsewhere
    SHARED.replace("    _r = [p0, p0]", "    _r = [p0, _sc]"),  # the memo read elsewhere
    SHARED.replace("    _sc = G._shared\n", ""),  # no look-up
])
def test_left_alone(code: str) -> None:
    fn = _fns(code)["f"]
    before = ast.dump(fn)
    assert not memo_unopened(fn) and ast.dump(fn) == before


@pytest.mark.parametrize("record", [False, True])
def test_checkers_jump_search_looks_nothing_up(record: bool) -> None:
    def source(on: bool) -> tuple[str, list]:
        rules = compiled_with("MEMO_UNOPENED", on, "checkers")
        with switches((("MEMO_UNOPENED", on),)):
            prog = rules.program(record)
            return prog.source, [c.detail for c in prog.choices if c.kind == "memo never opened"]

    (on, chosen), (off, none) = source(True), source(False)
    assert "G._shared = {}" not in on and "G._shared = {}" not in off  # `shared in block` dropped it
    assert "_sc = G._shared" in off and "G._shared" not in on
    assert chosen and not none


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    same_with_and_without("MEMO_UNOPENED", record, {}, bundled="checkers")
