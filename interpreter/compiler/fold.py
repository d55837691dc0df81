"""Constant folding of generated expressions (`CodeGen.FOLD_CONSTANTS`, choice `folded`).

A definition inlined with a literal argument (`current` known to be 'Marquise', a building kind
named in the call) leaves comparisons of two literals in the code: Root's listings tested
`'Marquise' == 'Duchy'` and `'recruiter' == 'sawmill'` on every candidate. Python folds no
comparison, so these are worked out here, on the code text of the operands, and a conditional
or a boolean chain whose test became a literal keeps only the part that runs.

Folding is invisible: a comparison of two literals cannot fail and has one value, which an
explain function records as before (a recorded operand is never literal text: it carries its
walrus). Dropping the branch that does not run is done only outside explain mode, where no
sub-expression of that branch is numbered for a check's record."""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable
from typing import Any

# the code of a literal as CodeGen writes it: a plain text (no quote or escape inside), a whole
# number, a truth value or None
_LITERAL = re.compile(r"'[^'\\]*'|-?\d+|True|False|None")
_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
    ">=": operator.ge, "is": operator.is_, "is not": operator.is_not}


def literal_code(code: str) -> tuple | None:
    """(value,) when `code` is the code of a literal (parentheses around it allowed), else None."""
    while code.startswith("(") and code.endswith(")") and _LITERAL.fullmatch(code[1:-1].strip()):
        code = code[1:-1].strip()
    if not _LITERAL.fullmatch(code):
        return None
    return (ast.literal_eval(code),)


def folded_compare(left: str, op: str, right: str) -> str | None:
    """`True` or `False` for a comparison of two literals of one type (a mixed comparison may
    raise or depend on Python's rules for `bool` as `int`: left as it is), else None."""
    a, b = literal_code(left), literal_code(right)
    if a is None or b is None or op not in _COMPARE or type(a[0]) is not type(b[0]):
        return None
    if op in ("is", "is not") and a[0] is not None:  # identity of equal texts is not guaranteed
        return None
    return repr(bool(_COMPARE[op](a[0], b[0])))


def truth_of(code: str) -> bool | None:
    """The truth value the code of a test stands for when it is the literal True or False (a
    conditional then keeps only the branch that runs); else None."""
    v = literal_code(code)
    return v[0] if v is not None and type(v[0]) is bool else None


def folded_bool(op: str, items: list[str]) -> list[str] | None:
    """`and`/`or` items with leading literal truth values worked out: a deciding one ends the
    chain (`False and x` is False), a neutral one is dropped (`True and x` is x). None when the
    first item is no truth value literal (nothing to fold)."""
    decides = op == "or"  # the truth value that ends the chain
    out = list(items)
    folded = False
    while len(out) > 1:
        v = literal_code(out[0])
        if v is None or type(v[0]) is not bool:
            break
        folded = True
        if v[0] is decides:
            return [out[0]]
        out.pop(0)
    return out if folded else None


def folded_not(operand: str) -> str | None:
    """`not` of a truth value literal, else None."""
    t = truth_of(operand)
    return None if t is None else repr(not t)
