"""A loop whose body opens with a guard on a flag fixed for the loop, unswitched (`guard
unswitched`): a pass over every function of a program, after the copies are made.

Why: `keys by value` (codegen `keys_by_value`) walks the kept keys of a map's entries equal to a
value, and where they could not be kept (a key missing from a map changed from outside) walks
the whole domain with its first test, so every round asks first which of the two it walks:

    _ku = _ks is _E33                    _ku = _ks is _E33
    for x in _ks:                        if _ku:
        if _ku:                              for x in _ks:
            if not T(x):           ->            if not T(x):
                continue                             continue
        REST                                     REST
                                         else:
                                             for x in _ks:
                                                 REST

Checkers' jump scan and step listing asked it for every own piece at every decision (some
1,400 bytecodes a game of 79 k); the flag is almost never set.

Exact: the flag is a local bound once in the function, by a plain assignment of an `is` or
`is not` comparison (a bool: its truth cannot fail or call anything), at an earlier place in the
statement list that holds the loop; so at the loop it is bound, and no round can change it. Its
test moves from every round to once before the loop, which only reading a local allows (when
the loop runs no round it was not read at all, and nothing observes that). The loop where the
flag holds runs the guard's body in every round, as it did; the other is a copy without it, its
`else` copied too; every statement keeps its lines.
"""

from __future__ import annotations

import ast
import copy

# a loop body copied larger than this many nodes is left as it is (the copy's code size)
MAX_NODES = 400


def guard_unswitched(fn: ast.FunctionDef) -> bool:
    """The pass, in place over `fn`; True when a loop was unswitched. It walks statement lists
    only (not expressions), so a function without such a loop costs little."""
    flags = _flags(fn)
    return bool(flags) and _body(fn.body, flags)


def _flags(fn: ast.FunctionDef) -> set[str]:
    """The locals bound exactly once in `fn`, by `x = a is b` or `x = a is not b`."""
    stores: dict[str, int] = {a.arg: 1 for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    for extra in (fn.args.vararg, fn.args.kwarg):
        if extra is not None:
            stores[extra.arg] = 1
    compared: set[str] = set()
    for n in ast.walk(fn):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            stores[n.id] = stores.get(n.id, 0) + 1
        elif isinstance(n, (ast.Global, ast.Nonlocal)):
            for name in n.names:
                stores[name] = 2
        elif isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                and isinstance(n.value, ast.Compare) and len(n.value.ops) == 1 \
                and isinstance(n.value.ops[0], (ast.Is, ast.IsNot)):
            compared.add(n.targets[0].id)
    return {x for x in compared if stores.get(x) == 1}


def _body(stmts: list[ast.stmt], flags: set[str]) -> bool:
    done = False
    for i, s in enumerate(stmts):
        if isinstance(s, ast.For):
            new = _unswitched(s, _set_before(stmts[:i], flags))
            if new is not None:
                stmts[i] = new
                done = True
                s = new.orelse[0]  # the copy without the guard: its inner loops too
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(s, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                done = _body(inner, flags) or done
        for h in getattr(s, "handlers", ()):
            done = _body(h.body, flags) or done
    return done


def _set_before(before: list[ast.stmt], flags: set[str]) -> set[str]:
    """The flags bound by a statement of `before` itself (not inside one of its parts)."""
    return {s.targets[0].id for s in before if isinstance(s, ast.Assign) and len(s.targets) == 1
            and isinstance(s.targets[0], ast.Name) and s.targets[0].id in flags
            and isinstance(s.value, ast.Compare)}


def _unswitched(loop: ast.For, flags: set[str]) -> ast.If | None:
    """The `if` that replaces `loop`, or None where it has not the pattern."""
    if len(loop.body) < 2:
        return None
    guard = loop.body[0]
    if not (isinstance(guard, ast.If) and isinstance(guard.test, ast.Name) and guard.test.id in flags
            and not guard.orelse):
        return None
    if sum(1 for _ in ast.walk(loop)) > MAX_NODES:
        return None
    plain = ast.copy_location(ast.For(target=copy.deepcopy(loop.target), iter=copy.deepcopy(loop.iter),
                                      body=copy.deepcopy(loop.body[1:]), orelse=copy.deepcopy(loop.orelse)), loop)
    loop.body[:1] = guard.body  # where the flag holds, its guard holds in every round
    out = ast.copy_location(ast.If(test=ast.copy_location(ast.Name(guard.test.id, ast.Load()), guard.test),
                                   body=[loop], orelse=[plain]), loop)
    ast.fix_missing_locations(out)
    return out
