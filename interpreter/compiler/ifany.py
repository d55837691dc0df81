"""A loop's charge to the work budget made only when its domain has items (`charged if any`): a
pass over every function of a program, after `charged once`.

Why: an aggregate or a listing charges the length of its domain before walking it,

    G.work -= len(_d)                     if _d:
    if G.work < 0:                  ->        G.work -= len(_d)
        G.out_of_work(SPANS[5])               if G.work < 0:
                                                  G.out_of_work(SPANS[5])

and a domain worked out as the game goes is often empty: checkers' jump scan charges the first
jumps it found (none in four positions of five) before following them, `taken(path)` and
`crowned_on_the_way` their ranges over a two-square path's inner squares (none). An empty
domain's charge is fourteen bytecodes that change nothing; the test is two more where it has
items.

Taken only where the domain is worked out in the function itself (`_made`: a range, a list it
makes, or a name for one), where it is often empty. Exact: a domain is a list, tuple, range, set, dict or text (the checker's collection
types), whose truth is its length's; charging nothing leaves the counter as it was, and the
counter is never below zero between statements (every charge is followed by this test, and
`out_of_work` fills it again or raises), so the test that follows a charge of nothing never
calls it.
"""

from __future__ import annotations

import ast

from .pytree import statements


def charged_if_any(fn: ast.FunctionDef) -> bool:
    """The pass, in place over `fn`; True when a charge was put under its domain's test."""
    charged = {d for s in statements(fn.body) if (d := _charged(s, None)) is not None}
    if not charged:  # a first look at the statements alone: no charge of a local's length
        return False
    made = _made(fn, charged)
    return bool(made) and _lists(fn.body, made)


def _made(fn: ast.FunctionDef, charged: set[str]) -> set[str]:
    """The locals every binding of which is a domain worked out here: a `range(...)`, a list
    the function makes (`[]`, then appended to, or a comprehension), or another such local. A
    parameter, a constant's items or a state map's entry is left alone: mostly not empty, its
    test would cost more than it saves (Shogun's provinces of a player). Only the locals that
    lead to a name in `charged` are asked about."""
    binds: dict[str, list[ast.expr | None]] = {}
    stores: dict[str, int] = {}  # every store of a name, not only plain assignments
    for n in ast.walk(fn):
        if isinstance(n, (ast.Global, ast.Nonlocal)):
            return set()
        if isinstance(n, ast.Assign):
            for t in n.targets:
                if isinstance(t, ast.Name):
                    binds.setdefault(t.id, []).append(n.value)
        elif isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            stores[n.id] = stores.get(n.id, 0) + 1
    for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs):
        binds.setdefault(a.arg, []).append(None)
        stores[a.arg] = stores.get(a.arg, 0) + 1
    asked, todo = set(), list(charged)  # the charged locals and the names they are bound to
    while todo:
        name = todo.pop()
        if name not in asked:
            asked.add(name)
            todo.extend(v.id for v in binds.get(name, ()) if isinstance(v, ast.Name))
    binds = {n: v for n, v in binds.items() if n in asked}
    made: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, values in binds.items():
            if name in made or len(values) != stores.get(name, 0) or not values:
                continue
            if all(v is not None and (isinstance(v, ast.ListComp) or isinstance(v, ast.List) and not v.elts
                                      or isinstance(v, ast.Call) and isinstance(v.func, ast.Name)
                                      and v.func.id == "range" or isinstance(v, ast.Name) and v.id in made)
                   for v in values):
                made.add(name)
                changed = True
    return made


def _charged(s: ast.stmt, local: set[str] | None) -> str | None:
    """The local `d` of `G.work -= len(d)` (any name, with `local` None)."""
    if not (isinstance(s, ast.AugAssign) and isinstance(s.op, ast.Sub) and _is_work(s.target)):
        return None
    v = s.value
    if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "len" and len(v.args) == 1 \
            and not v.keywords and isinstance(v.args[0], ast.Name) and (local is None or v.args[0].id in local):
        return v.args[0].id
    return None


def _is_work(e: ast.expr) -> bool:
    return isinstance(e, ast.Attribute) and e.attr == "work" and isinstance(e.value, ast.Name) and e.value.id == "G"


def _tested(s: ast.stmt) -> bool:
    """`if G.work < 0: G.out_of_work(...)`, nothing else."""
    if not (isinstance(s, ast.If) and not s.orelse and len(s.body) == 1 and isinstance(s.test, ast.Compare)):
        return False
    t = s.test
    if not (_is_work(t.left) and len(t.ops) == 1 and isinstance(t.ops[0], ast.Lt)
            and isinstance(t.comparators[0], ast.Constant) and t.comparators[0].value == 0):
        return False
    call = s.body[0]
    return isinstance(call, ast.Expr) and isinstance(call.value, ast.Call) \
        and isinstance(call.value.func, ast.Attribute) and call.value.func.attr == "out_of_work" \
        and isinstance(call.value.func.value, ast.Name) and call.value.func.value.id == "G"


def _lists(body: list[ast.stmt], local: set[str]) -> bool:
    done = False
    i = 0
    while i < len(body):
        s = body[i]
        d = _charged(s, local)
        if d is not None and i + 1 < len(body) and _tested(body[i + 1]):
            guard = ast.If(ast.copy_location(ast.Name(d, ast.Load()), s), [s, body[i + 1]], [])
            body[i:i + 2] = [ast.copy_location(guard, s)]
            done = True
        else:
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(s, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    done = _lists(inner, local) or done
            for handler in getattr(s, "handlers", ()):
                done = _lists(handler.body, local) or done
        i += 1
    return done
