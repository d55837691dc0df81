"""A choice between fixed values made once ahead of a loop (`choice hoisted`): a pass over
every function of a program, after the copies are made.

Why: checkers' `ways(s)` is `[NE, NW, SE, SW]` for a king, else the man's two directions by
his owner; inlined in the jump scan and the step listing, joined with the rows, it reads

    for s in keys:
        for d, over, to in (JK if king[s] is not None else JB if p == 'Black' else JW)[s]:

and the owner's choice, `JB if p == 'Black' else JW`, is worked out again for every piece
though nothing in the loop changes `p`. Here a conditional expression in a `for` loop's body
whose test compares names or literals (`==`, `!=`, `is`, `is not`, a literal on one side) and
whose branches are names, literals or such conditionals again, none of its names bound in the
loop, is worked out into a local right before the loop:

    _ch = JB if p == 'Black' else JW
    for s in keys:
        for d, over, to in (JK if king[s] is not None else _ch)[s]:

Sound because such an expression cannot fail (a comparison with a literal of a text, a number
or None answers for any value; names are read) and reads nothing the loop changes, so the
value is the one each round would make; each name it reads is bound before the loop (a
parameter never bound again, a global the function never binds, or a local bound by a plain
assignment that comes before the loop in it or in the statements around it). The loop running
no round costs one test. Not inside a comprehension or lambda, nor a conditional with an
assignment expression in it (the explain functions' recorded values).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from .pytree import located

_SCOPES = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp,
           ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_TESTS = (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)


def choice_hoisted(fn: ast.FunctionDef, fresh: Callable[[str], str]) -> bool:
    """The pass, in place over `fn`; True when a choice was taken out of a loop."""
    loops = choices = False  # one walk decides for most functions (compiling is timed: Root's)
    for n in ast.walk(fn):
        kind = type(n)
        if kind is ast.For:
            loops = True
        elif kind is ast.IfExp and not choices:
            choices = _choice(n)  # type: ignore[arg-type]
    if not (loops and choices):
        return False
    params = {a.arg for a in ast.walk(fn.args) if type(a) is ast.arg}
    bound = {n.id for n in ast.walk(fn) if type(n) is ast.Name and type(n.ctx) is not ast.Load}
    fixed = params - bound  # parameters never bound again
    return _lists(fn.body, fixed, params | bound, fresh)


def _lists(stmts: list[ast.stmt], known: set[str], local: set[str], fresh: Callable[[str], str]) -> bool:
    """Hoist out of the loops of `stmts` (and the lists within): `known` holds the local names
    bound before `stmts` starts, `local` every name the function binds."""
    changed = False
    known = set(known)
    i = 0
    while i < len(stmts):
        s = stmts[i]
        if type(s) is ast.For:
            heads = _hoist(s, known, local, fresh)
            if heads:
                stmts[i:i] = heads
                i += len(heads)
                changed = True
        for field in ("body", "orelse", "finalbody"):
            sub = getattr(s, field, None)
            if isinstance(sub, list) and sub and isinstance(sub[0], ast.stmt):
                inner = known | _targets(s.target) if type(s) is ast.For and field == "body" else known
                changed = _lists(sub, inner, local, fresh) or changed
        for h in getattr(s, "handlers", ()):
            changed = _lists(h.body, known, local, fresh) or changed
        if type(s) is ast.Assign:
            for t in s.targets:
                known |= _targets(t)
        i += 1
    return changed


def _targets(t: ast.expr) -> set[str]:
    if type(t) is ast.Name:
        return {t.id}
    if type(t) in (ast.Tuple, ast.List):
        return {n for e in t.elts for n in _targets(e)}  # type: ignore[attr-defined]
    return set()


def _hoist(loop: ast.For, known: set[str], local: set[str], fresh: Callable[[str], str]) -> list[ast.stmt]:
    """The assignments of the loop's fixed choices to their locals, each replaced in the loop."""
    changing: set[str] | None = None  # the names the loop binds, worked out at its first choice
    heads: list[ast.stmt] = []

    def ready(e: ast.expr) -> bool:
        nonlocal changing
        if not _choice(e):
            return False
        if changing is None:
            changing = {n.id for n in ast.walk(loop) if type(n) is ast.Name and type(n.ctx) is not ast.Load}
        return all(n.id not in changing and (n.id in known or n.id not in local)
                   for n in ast.walk(e) if type(n) is ast.Name)

    def visit(node: ast.AST) -> None:
        for field, value in ast.iter_fields(node):
            if isinstance(value, list):
                for j, item in enumerate(value):
                    if isinstance(item, ast.expr) and ready(item):
                        value[j] = take(item)
                    elif isinstance(item, ast.AST) and not isinstance(item, _SCOPES):
                        visit(item)
            elif isinstance(value, ast.expr) and ready(value):
                setattr(node, field, take(value))
            elif isinstance(value, ast.AST) and not isinstance(value, _SCOPES):
                visit(value)

    def take(e: ast.expr) -> ast.expr:
        name = fresh("ch")
        heads.append(located(ast.Assign([ast.Name(name, ast.Store())], e), loop))
        return located(ast.Name(name, ast.Load()), e)  # type: ignore[return-value]

    for s in loop.body:
        visit(s)
    return heads


def _choice(e: ast.expr) -> bool:
    """A conditional whose test compares names or literals with a literal among them and
    whose branches are names, literals or such conditionals."""
    if type(e) is not ast.IfExp:
        return False
    t = e.test
    if not (type(t) is ast.Compare and len(t.ops) == 1 and type(t.ops[0]) in _TESTS):
        return False
    sides = (t.left, t.comparators[0])
    if not all(type(x) in (ast.Name, ast.Constant) for x in sides) or not any(
            type(x) is ast.Constant and type(x.value) in (str, int, bool, type(None)) for x in sides):
        return False
    return all(type(b) in (ast.Name, ast.Constant) or _choice(b) for b in (e.body, e.orelse))
