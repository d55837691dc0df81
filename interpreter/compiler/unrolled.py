"""A quantifier over the lines of a fixed table written out term by term (`lines unrolled`): a
pass over every function of a program, after the copies are made.

Why: tic-tac-toe asks, after every move, `any line in lines_through(s, 3): all t in line:
cell[t] == p`. `nested quantifier` (codegen.py) writes it as two loops,

    for A in T[k]:                 # T: a table worked out when the program was compiled
        for B in A:
            if C(B):
                break
        else:
            X
        ...

and the inner loop pays, for each line, an iterator, a `for` step per square and one more to
end it. When every line the table can give at that depth has the same length n (checked on the
table's values when the program is compiled), the lines are unpacked and the tests written out:

    for B1, ..., Bn in T[k]:
        if not C(B1) and ... and not C(Bn):
            X
        ...

Exact: the terms are tested in the loop's order and stop at the first C that holds, as the
`break` stopped the loop; X runs exactly when no C held, as the `else` did. A table whose lines
differ in length, or are not lists or tuples, is left alone (an unpacking that cannot fail is
the point), as is a loop whose variable is read anywhere else or whose test holds a nested
scope (a comprehension or lambda would capture the loop variable as a closure).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from .pytree import located, renamed, statement_lists

# lines longer than this keep their loop: the terms would cost more code than the loop saves
MAX_TERMS = 6


def lines_unrolled(fn: ast.FunctionDef, tables: dict[str, Any], fixed: Callable[[str], bool],
                   fresh: Callable[[str], str]) -> bool:
    """The pass, in place over `fn`; True when a loop was unrolled. `tables` are the program's
    constants, `fixed(name)` whether one is a table no generated code changes."""
    # the loops of the pattern's shape, found over the statement lists alone (a walk of every
    # node of every function cost Root's compile 5%, for a pattern it does not have)
    found = [(stmts, i) for stmts in statement_lists(fn.body) for i, s in enumerate(stmts) if _nested(s)]
    if not found:
        return False
    loads: dict[str, int] = {}
    for n in ast.walk(fn):
        if type(n) is ast.Name and type(n.ctx) is ast.Load:  # type: ignore[attr-defined]
            loads[n.id] = loads.get(n.id, 0) + 1  # type: ignore[attr-defined]
    done = False
    for stmts, i in found:
        new = _unrolled(stmts[i], tables, fixed, fresh, loads)
        if new is not None:
            stmts[i] = new
            done = True
    return done


def _nested(s: ast.stmt) -> bool:
    """Whether `s` is a loop whose first statement is a loop over its variable."""
    if type(s) is not ast.For or type(s.target) is not ast.Name or not s.body:  # type: ignore[attr-defined]
        return False
    inner = s.body[0]  # type: ignore[attr-defined]
    return type(inner) is ast.For and type(inner.iter) is ast.Name and inner.iter.id == s.target.id  # type: ignore[attr-defined]

def line_length(iter_: ast.expr, tables: dict[str, Any], fixed: Callable[[str], bool]) -> int | None:
    """n when `iter_` is a fixed table indexed d times (`T[k]`, `T[a][b]`) and every value at
    that depth is a list or tuple of lists or tuples of length n; None otherwise."""
    depth = 0
    node = iter_
    while type(node) is ast.Subscript:
        depth += 1
        node = node.value  # type: ignore[attr-defined]
    if type(node) is not ast.Name or not fixed(node.id) or node.id not in tables:  # type: ignore[attr-defined]
        return None
    values = [tables[node.id]]  # type: ignore[attr-defined]
    for _ in range(depth):
        nxt: list[Any] = []
        for v in values:
            if isinstance(v, dict):
                nxt.extend(v.values())
            elif isinstance(v, (list, tuple)):
                nxt.extend(v)
            else:
                return None
        values = nxt
    lengths = set()
    for lines in values:
        if not isinstance(lines, (list, tuple)):
            return None
        for line in lines:
            if not isinstance(line, (list, tuple)):
                return None
            lengths.add(len(line))
    if len(lengths) != 1:
        return None
    n = lengths.pop()
    return n if 1 <= n <= MAX_TERMS else None


def _unrolled(s: ast.stmt, tables: dict[str, Any], fixed: Callable[[str], bool],
              fresh: Callable[[str], str], loads: dict[str, int]) -> ast.For | None:
    """The unrolled form of the outer loop `s`, or None where it does not have the pattern."""
    if type(s) is not ast.For or type(s.target) is not ast.Name or not s.body:
        return None
    inner = s.body[0]
    outer_var = s.target.id  # type: ignore[attr-defined]
    if type(inner) is not ast.For or type(inner.iter) is not ast.Name or inner.iter.id != outer_var \
            or type(inner.target) is not ast.Name or not inner.orelse or len(inner.body) != 1:  # type: ignore[attr-defined]
        return None
    test = inner.body[0]
    if type(test) is not ast.If or test.orelse or len(test.body) != 1 or type(test.body[0]) is not ast.Break:
        return None
    var = inner.target.id  # type: ignore[attr-defined]
    if loads.get(outer_var, 0) != 1:  # read only as the inner loop's domain
        return None
    in_test = 0
    for n in ast.walk(test.test):  # type: ignore[attr-defined]
        if isinstance(n, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            return None
        if isinstance(n, ast.Name) and n.id in (var, outer_var):
            if type(n.ctx) is not ast.Load:
                return None  # rebound in the test
            in_test += n.id == var
    if loads.get(var, 0) != in_test:  # read elsewhere (after the loop, its last value)
        return None
    n_terms = line_length(s.iter, tables, fixed)
    if n_terms is None:
        return None
    terms = [fresh("u") for _ in range(n_terms)]
    conds = [_negated(_renamed(test.test, var, t)) for t in terms]  # type: ignore[attr-defined]
    cond: ast.expr = conds[0] if len(conds) == 1 else ast.BoolOp(ast.And(), conds)
    guard = located(ast.copy_location(ast.If(cond, inner.orelse, []), inner), inner)
    target = ast.Tuple([ast.Name(t, ast.Store()) for t in terms], ast.Store())
    s.target = located(ast.copy_location(target, s.target), s)  # type: ignore[assignment]
    s.body[0] = guard  # in place: a loop of the pattern found further in this body keeps its list
    return s


def _renamed(e: ast.expr, old: str, new: str) -> ast.expr:
    """A copy of `e` with the name `old` read as `new`, at the original's place."""
    return renamed([ast.Expr(e)], {old: new})[0].value  # type: ignore[attr-defined]


# `is` and `in` have exact opposites (`==` has not: a type may define `!=` apart from it)
_OPPOSITE: dict[type, type] = {ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.In: ast.NotIn, ast.NotIn: ast.In}


def _negated(e: ast.expr) -> ast.expr:
    """`not e`, with `not not P` written as `P` and `not a is b` as `a is not b`."""
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
        return e.operand
    if isinstance(e, ast.Compare) and len(e.ops) == 1 and type(e.ops[0]) in _OPPOSITE:
        return ast.copy_location(ast.Compare(e.left, [_OPPOSITE[type(e.ops[0])]()], e.comparators), e)
    return ast.copy_location(ast.UnaryOp(ast.Not(), e), e)
