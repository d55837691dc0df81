"""The first statements of a loop that runs at least once worked out before it when every round
would work out the same (`heads hoisted`): a pass over every function of a program.

Why: a definition inlined in a loop over directions leaves, at the top of the loop's body, what
depends on the definition's other arguments alone: checkers' `series_from` and `goes_on` walk
`ways(path[0])`, two or four directions, and work `last(path)` out in every round:

    for d in (_L1 if ... else _L2):           _it = (_L1 if ... else _L2)
        _ce = path[b_len(path) - 1]    ->     _ce = path[b_len(path) - 1]
        ...                                   for d in _it:
                                                  ...

Exact: the loop's domain is one of the program's constant lists (or a choice between them), none
of them empty, so the loop runs at least once and its first round works the statements out right
after the domain, as here; a statement taken is `x = e` with `e` made of names, constants,
look-ups, arithmetic and `b_len` (it calls nothing else, so it can fail only as it would have in
the first round, on the same line), reading no name the loop binds and nothing the function may
change in place (common_exprs' may-point-to analysis), and `x` is bound nowhere else; so every
round would have bound `x` to the same value. The loop's target, which the first round bound
before such a failure, is read by nothing after it: the pass leaves functions with a `try` alone.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from .common_exprs import _changed
from .pytree import statements

# a function larger than this many nodes is left alone: the may-point-to analysis of a large
# block (Root's) costs more compile time than its loops' heads save
MAX_NODES = 3000

_PURE = (ast.Name, ast.Constant, ast.Subscript, ast.BinOp, ast.UnaryOp, ast.Load, ast.operator, ast.unaryop,
         ast.Call)  # a call: `b_len` alone (`_pure`)


def heads_hoisted(fn: ast.FunctionDef, constants: dict[str, Any], fresh: Callable[[str], str]) -> bool:
    """The pass, in place over `fn`; True when a loop's head was hoisted."""
    fors = []  # a first look at the statements alone: a loop over a constant list, no `try`
    for s in statements(fn.body):
        if isinstance(s, (ast.Try, ast.Global, ast.Nonlocal)):
            return False
        if isinstance(s, ast.For) and _constant_domain(s.iter, constants):
            fors.append(s)
    if not fors:
        return False
    stores: dict[str, int] = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            stores[n.id] = stores.get(n.id, 0) + 1
    for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs):
        stores[a.arg] = stores.get(a.arg, 0) + 1

    def nonempty(e: ast.expr) -> bool:
        if isinstance(e, ast.IfExp):
            return nonempty(e.body) and nonempty(e.orelse)
        if isinstance(e, ast.Name) and e.id not in stores:
            v = constants.get(e.id)
            return isinstance(v, (list, tuple)) and len(v) > 0
        return False

    loops = [n for n in fors if nonempty(n.iter) and _heads(n, stores, set())]  # a head, were nothing changed
    if not loops or sum(1 for _ in ast.walk(fn)) > MAX_NODES:
        return False
    for loop in loops:
        loop._nonempty = True  # type: ignore[attr-defined]
    changed = _changed(fn, lengths=True)  # the may-point-to analysis: only where a head may go
    return _lists(fn.body, stores, changed, fresh)


def _constant_domain(e: ast.expr, constants: dict[str, Any]) -> bool:
    """Whether `e` names only the program's constant lists, none empty (a name the function
    binds is ruled out afterwards)."""
    if isinstance(e, ast.IfExp):
        return _constant_domain(e.body, constants) and _constant_domain(e.orelse, constants)
    v = constants.get(e.id) if isinstance(e, ast.Name) else None
    return isinstance(v, (list, tuple)) and len(v) > 0


def _pure(e: ast.expr) -> bool:
    for n in ast.walk(e):
        if isinstance(n, ast.Call):
            if not (isinstance(n.func, ast.Name) and n.func.id == "b_len" and len(n.args) == 1 and not n.keywords):
                return False
        elif not isinstance(n, _PURE):
            return False
    return True


def _heads(loop: ast.For, stores: dict[str, int], changed: set[str]) -> int:
    """How many of the loop's first statements can be worked out before it."""
    bound = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
    for s in loop.body:
        for n in ast.walk(s):
            if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
                bound.add(n.id)
    taken = 0
    for s in loop.body[:-1] if loop.body else []:  # the body keeps a statement
        if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
                and stores.get(s.targets[0].id) == 1 and s.targets[0].id not in changed and _pure(s.value)):
            break
        reads = {n.id for n in ast.walk(s.value) if isinstance(n, ast.Name)}
        earlier = {t.targets[0].id for t in loop.body[:taken]}  # type: ignore[attr-defined]
        if reads & (bound - earlier) or reads & changed:
            break
        taken += 1
    return taken


def _lists(body: list[ast.stmt], stores: dict[str, int], changed: set[str],
           fresh: Callable[[str], str]) -> bool:
    done = False
    i = 0
    while i < len(body):
        s = body[i]
        for field in ("body", "orelse"):
            inner = getattr(s, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                done = _lists(inner, stores, changed, fresh) or done
        if isinstance(s, ast.For) and _nonempty_marked(s):
            n = _heads(s, stores, changed)
            if n:
                it = fresh("it")
                made = ast.copy_location(ast.Assign([ast.copy_location(ast.Name(it, ast.Store()), s)], s.iter), s)
                heads, s.body = s.body[:n], s.body[n:]
                s.iter = ast.copy_location(ast.Name(it, ast.Load()), s.iter)
                body[i:i] = [made, *heads]
                i += 1 + n
                done = True
        i += 1
    return done


def _nonempty_marked(s: ast.For) -> bool:
    return getattr(s, "_nonempty", False)
