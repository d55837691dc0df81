"""A sum's loop unswitched on a test that does not change in it (`unswitched sums`): a pass over
every function of a program, after the copies are made.

Why: a sum over a board whose summand is a conditional on something fixed for the whole loop
tests it again for every item. Root's `rule_strength`-like sums (`sum c in C: if p == Duchy then
citadels[c] + markets[c] else workshops[c]`, the Marquise's crafting pieces) and its buildings
invariant (`all b in CAT_BUILDINGS: on_map_cat(b) <= ...`, whose summand `cat_present(c, b)` is a
chain of five tests of `b` per clearing, after every step that moves wood in a traced game):

    for x in D:                      if T:
        r += (A if T else B)   ->        for x in D:
                                             r += A
                                     else:
                                         for x in D:
                                             r += B

and `(A if T and U else B)` as `if T:` the loop of `(A if U else B)`, else the loop of `B`; each
new loop is unswitched again (a chain of conditionals becomes a chain of `if`s).

Exact: `T` is a comparison (`==`, `!=`, `is`, `is not`) of two names or a name and a literal,
which cannot fail and reads nothing the loop binds (its target, the sum, a name any of its
statements or assignment expressions binds), so it has the same value at every item; it is evaluated once
before the loop's iterable instead of once per item, which only a pure test allows (when `D` is
empty it was not evaluated at all, and nothing observes that). The sum's `+=` must be the last
statement of the loop's body (the statements before it, a filter's `continue`, are
copied into each loop and may bind no name the test reads), and the loop have no `else`.
"""

from __future__ import annotations

import ast
import copy

_TESTS = (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)


def unswitched_sums(fn: ast.FunctionDef) -> bool:
    """The pass, in place over `fn`; True when a loop was unswitched. It walks statement lists
    only (not expressions), so a function without such a loop costs little."""
    return _body(fn.body)


def _body(stmts: list[ast.stmt]) -> bool:
    done = False
    for i, s in enumerate(stmts):
        if isinstance(s, ast.For):
            new = _unswitched(s)
            if new is not None:
                stmts[i] = new
                done = True
                continue
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(s, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                done = _body(inner) or done
        for h in getattr(s, "handlers", ()):
            done = _body(h.body) or done
    return done


def _unswitched(loop: ast.For) -> ast.stmt | None:
    """The `if` that replaces `loop`, or None where it has not the pattern."""
    if loop.orelse or not loop.body or not isinstance(loop.target, ast.Name):
        return None
    s = loop.body[-1]
    if not (isinstance(s, ast.AugAssign) and isinstance(s.op, ast.Add) and isinstance(s.target, ast.Name)
            and isinstance(s.value, ast.IfExp)):
        return None
    value = s.value
    bound = {loop.target.id} | {n.id for part in loop.body for n in ast.walk(part)
                                if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    bound |= {n.target.id for part in loop.body for n in ast.walk(part)
              if isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name)}
    test, then, other = value.test, value.body, value.orelse
    rest = None
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):  # `T and U`: T first
        rest = test.values[1:]
        test = test.values[0]
    if not _fixed_test(test, bound):
        return None
    if rest is not None:
        joined = rest[0] if len(rest) == 1 else ast.copy_location(ast.BoolOp(op=ast.And(), values=rest), rest[0])
        then = ast.copy_location(ast.IfExp(test=joined, body=then, orelse=copy.deepcopy(other)), value)
    branches = []
    for part in (then, other):  # each loop and statement where the original stood (error lines)
        last = ast.copy_location(ast.AugAssign(target=copy.deepcopy(s.target), op=ast.Add(), value=part), s)
        new = ast.copy_location(ast.For(target=copy.deepcopy(loop.target), iter=copy.deepcopy(loop.iter),
                                        body=[*copy.deepcopy(loop.body[:-1]), last], orelse=[]), loop)
        branches.append([_unswitched(new) or new])
    out = ast.copy_location(ast.If(test=test, body=branches[0], orelse=branches[1]), loop)
    ast.fix_missing_locations(out)
    return out


def _fixed_test(test: ast.expr, bound: set[str]) -> bool:
    """A comparison of two names, or a name and a literal, that reads no name in `bound`."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], _TESTS)):
        return False
    sides = (test.left, test.comparators[0])
    if not all(isinstance(x, ast.Name) or isinstance(x, ast.Constant) and isinstance(x.value, (str, int, type(None)))
               for x in sides):
        return False
    return any(isinstance(x, ast.Name) for x in sides) and \
        not any(isinstance(x, ast.Name) and x.id in bound for x in sides)
