"""The generated program's text read as code: its string literals and comments set apart.

The code generator writes Python source, and a few passes then look for or rename generated
identifiers in it (which bindings a function needs, `_cur` renamed where a body is inlined, a
table's row looked up ahead of a loop). User text reaches that source only as string literals
written with repr() (names of squares, enum members and players, log and require messages) and
in comments (an action's name after `#`). A pass that searched the whole text would see a
user's enum member `K` as the constants binding `K`, or rename `_cur` inside a log message; so
every pass looks at the code between literals and comments only, through these two functions.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# What repr() makes of a str (one line, quotes and backslashes escaped), or a comment to the
# end of the line. A `#` inside a literal is part of the literal: the scan goes left to right.
_LITERAL = re.compile(r"""'[^'\\\n]*(?:\\.[^'\\\n]*)*'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"|\#[^\n]*""")


def code_only(text: str) -> str:
    """`text` with every string literal and comment replaced by one space: what a search for
    generated identifiers may look at."""
    return _LITERAL.sub(" ", text)


def sub_code(pattern: re.Pattern[str], repl: str | Callable[[re.Match[str]], str], text: str) -> str:
    """`pattern.sub(repl, text)` on the code only: literals and comments are kept as written."""
    out: list[str] = []
    at = 0
    for lit in _LITERAL.finditer(text):
        out.append(pattern.sub(repl, text[at:lit.start()]))
        out.append(lit[0])
        at = lit.end()
    out.append(pattern.sub(repl, text[at:]))
    return "".join(out)
