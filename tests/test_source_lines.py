"""A program's text by line (`_SOURCE_LINES`, interpreter/compiler/codegen.py `lines_of_text`)
is the text its code was compiled from, line for line: error locations read a failing line's
`# @S<n>` mark there (interpreter/engine/locate.py), and a line made of two (a device roll's
draw tests with their sound tests, once put in as one line with a newline inside) shifted every
later function's lines in Shogun, so a failure there would have named another statement."""

from __future__ import annotations

import dis
import re
import types

import pytest
from bundled import BUNDLED

import regelwerk

WORD = re.compile(r"[a-z_]{3,}")


@pytest.mark.parametrize("name", sorted(BUNDLED))
@pytest.mark.parametrize("record", [False, True])
def test_every_generated_function_starts_at_its_def_line(name: str, record: bool) -> None:
    ns = regelwerk.load(BUNDLED[name]).program(record).block_fns[0].__globals__
    texts = ns["_SOURCE_LINES"]
    functions = [f for f in ns.values() if isinstance(f, types.FunctionType)
                 and f.__code__.co_filename.startswith("<regelwerk:")]
    assert functions
    for f in functions:
        line = f.__code__.co_firstlineno
        assert texts[line - 1].startswith(f"def {f.__name__}("), (f.__name__, line, texts[line - 1])


@pytest.mark.parametrize("name", ["shogun", "root", "checkers"])
def test_a_line_s_code_is_that_line_s_text(name: str) -> None:
    """Each text constant a function loads (a field's name, a variable's, a kind) is on the
    line whose text has it: Shogun's tower (a device roll with its sound tests at its top) and
    every function after it."""
    ns = regelwerk.load(BUNDLED[name]).program(False).block_fns[0].__globals__
    texts = ns["_SOURCE_LINES"]
    checked = 0
    for f in ns.values():
        if not (isinstance(f, types.FunctionType) and f.__code__.co_filename.startswith("<regelwerk:")):
            continue
        for ins in dis.get_instructions(f):
            at = ins.positions
            if ins.opname == "LOAD_CONST" and type(ins.argval) is str and WORD.fullmatch(ins.argval) \
                    and at.lineno and at.lineno == at.end_lineno and at.lineno > f.__code__.co_firstlineno:
                # (a function's bindings at its top have no line of their own: skipped)
                assert repr(ins.argval) in texts[ins.positions.lineno - 1], (f.__name__, ins.positions.lineno)
                checked += 1
    assert checked > 10
