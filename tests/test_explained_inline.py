"""`explained inline` (codegen `explained_inline`, `CodeGen.EXPLAINED_INLINE`): in an
explanation, a call of a small one-expression definition that reads each parameter once and
wherever it is evaluated is written as its expression, the arguments' recorded code in place of
the parameters; the call's value is recorded as before. With `shared in block`, whose local
then takes an explanation's recorded argument (`(_x0 := _mover)`), checkers' traced block keeps
`jump_paths(current)` in a local and drops the decision's memo. The form, the explanations of
legal and illegal moves, the same traced games with and without."""

from __future__ import annotations

import ast
import re

import pytest
from playing import chosen_and_same, compiled_with
from regelwerk.interpreter.compiler.sharedlocal import shared_in_block

COUNT = """game "Count"
players Ann, Bob
state
    score: Player -> int = 0
define room(p: Player, n: int) = score[p] + n <= 10
define twice(p: Player) = score[p] + score[p]
define either(p: Player, n: int) = n > 3 or score[p] > 5
action add(n in 1..3)
    "Add one to three."
    require room(current, n) else "too much"
    require twice(current) < 30 else "never"
    require either(current, n) or n < 4 else "never either"
    add n to score[current]
    if score[current] >= 10
        finish winner current
flow
    repeat
        turn
            play add
"""


def _traced(flag_on: bool, name: str, text: str | None = None) -> str:
    from regelwerk.interpreter.compiler.codegen import CodeGen

    rules = compiled_with("EXPLAINED_INLINE", flag_on, name, text)
    before = CodeGen.EXPLAINED_INLINE
    CodeGen.EXPLAINED_INLINE = flag_on
    try:
        return rules.program(True).source
    finally:
        CodeGen.EXPLAINED_INLINE = before


def test_a_definition_read_once_per_parameter_is_written_out() -> None:
    on, off = _traced(True, "count", COUNT), _traced(False, "count", COUNT)
    room = re.search(r"\(_x(\d+) := \(_sv\d+\[\(_x(\d+) := _cur\)\] \+ \(_x(\d+) := p0\) <= 10\)\)", on)
    assert room and int(room.group(1)) > int(room.group(3)) > int(room.group(2))
    assert re.search(r"D_\d+\(G, \(_x\d+ := _cur\), \(_x\d+ := p0\)\)", off)
    # a parameter read twice (twice), or only sometimes (either: behind an `or`): a call
    assert len(re.findall(r"D_\d+\(G, \(_x\d+ := _cur\)\)", on)) == len(re.findall(r"D_\d+\(G, \(_x\d+ := _cur\)\)", off)) > 0
    assert re.search(r"D_\d+\(G, \(_x\d+ := _cur\), \(_x\d+ := p0\)\)", on)


def test_explanations_are_the_same() -> None:
    for record in (False, True):
        seen = []
        for on in (True, False):
            g = compiled_with("EXPLAINED_INLINE", on, "count", COUNT).new_game(seed=1, record=record)
            out = []
            for _ in range(8):
                for n in (1, 2, 3):
                    out.append(g.explain(f"add({n})"))
                if g.is_over:
                    break
                g.apply(g.legal_actions()[-1])
            seen.append(out)
        assert seen[0] == seen[1]
        assert any(not e.legal and e.reason == "too much" for e in seen[0])


def test_checkers_traced_block_drops_its_memo() -> None:
    on, off = _traced(True, "checkers"), _traced(False, "checkers")
    block_on, block_off = (("\n" + s).split("\ndef B_0(")[1] for s in (on, off))
    assert "G._shared = {}" in block_off and "G._shared = {}" not in block_on
    assert re.search(r"\(_sh\d+ if \(_x0 := _mover\) is not MISSING and _sh\d+ is not MISSING "
                     r"else \(_sh\d+ := D_\d+\(G, \(_x0 := _mover\)\)\)\) != \[\]", block_on)


def test_a_recorded_argument_is_bound_either_way() -> None:
    code = """def B(G):
    G._shared = {}
    try:
        _mover = G.current
        v = (_x1 := (D_1(G, (_x0 := _mover)) != []))
        out = (_x0, _x1, D_1(G, _mover))
    finally:
        G._shared = None
    return out
"""
    fn = ast.parse(code).body[0]
    assert isinstance(fn, ast.FunctionDef)
    names = iter(range(100))
    assert shared_in_block(fn, {"D_1"}, {"B": {"D_1"}, "D_1": set()}, lambda p: f"_{p}{next(names)}")
    src = ast.unparse(ast.fix_missing_locations(fn))
    assert "_shared" not in src
    calls = []

    class Game:
        current = "Ann"

    def d1(g: object, p: str) -> list:
        calls.append(p)
        return [p]

    ns = {"D_1": d1, "MISSING": object()}
    exec(compile(src, "<test>", "exec"), ns)  # noqa: S102 - the test's own code
    assert ns["B"](Game()) == ("Ann", True, ["Ann"]) and calls == ["Ann"]


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same("EXPLAINED_INLINE", "explained inline", "count", COUNT, record, "checkers")
