"""Entries known from the keys walked (`known entries`): a pass over a listing's or
definition's tree.

Why: a loop over the keys whose entry has a value (carry.key_test, `cell[s] == current`, the
game's kept lists) reads that entry again in its body: checkers' `ways(s)` asks `cell[s] ==
Black` of every piece it walks, a dict look-up by the square's name (about 115 machine
instructions, architecture §17) whose answer the loop already knows. Inside

    for x in KEYS:                  # KEYS = _keys_with(G, '=m', 'm', v, DOM) or kept
        if UNKEPT:
            if not m[x] == v:
                continue
        BODY

every `m[x]` BODY reads is `v`, which this pass writes instead: the keys walked are those whose
entry equals `v`, and when the list could not be kept (UNKEPT) the test right above says the
same of the rest. Only a loop over such a list, `KEYS = _keys_with(..., v, DOM)` with `UNKEPT =
KEYS is DOM` and `v` bound at most once, is taken for one. Only where `v` is a name or a constant, `x` and `v` are not bound again in the
loop, and nothing in it writes `m` (the pass runs on functions that change no state: listings
and definitions). An equal value for the entry itself: comparisons, keys and texts are the same.
"""

from __future__ import annotations

import ast

from .pytree import located, statement_lists


def known_entries(fn: ast.FunctionDef) -> bool:
    """The pass, in place over `fn`; True when some entry was replaced by its known value."""
    done = False
    kept = _kept_lists(fn)
    for lst in list(statement_lists(fn.body)):
        for loop in [s for s in lst if isinstance(s, ast.For) and isinstance(s.target, ast.Name)]:
            known = _known(loop)
            if known is None or not _walks_kept(loop, known[1], kept):
                continue
            m, v = known
            x = loop.target.id  # type: ignore[union-attr]
            body = loop.body[1:]
            bound = {n.id for s in body for n in ast.walk(s) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
            if x in bound or (isinstance(v, ast.Name) and v.id in bound) or m in bound or _writes(body, m):
                continue
            for s in body:
                for node in ast.walk(s):
                    for field, child in ast.iter_fields(node):
                        if _is_entry(child, m, x):
                            setattr(node, field, located(_copy(v), child))
                            done = True
                        elif isinstance(child, list):
                            for i, item in enumerate(child):
                                if _is_entry(item, m, x):
                                    child[i] = located(_copy(v), item)
                                    done = True
    return done


def _kept_lists(fn: ast.FunctionDef) -> dict[str, tuple[str, ast.expr, str]]:
    """The locals bound, once, to the keys kept by value and the guard of each: `K =
    _keys_with(G, '=m', 'm', v, DOM)` (carry.key_test's code) with `U = K is DOM` -> K: (U, v,
    DOM). A local bound more than once (v among them) is none of these."""
    values: dict[str, list[ast.expr]] = {}  # a local -> what `local = ...` binds it to
    count: dict[str, int] = {}  # a local -> how often anything binds it (a parameter once)
    for n in ast.walk(fn):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            values.setdefault(n.targets[0].id, []).append(n.value)
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            count[n.id] = count.get(n.id, 0) + 1
        elif isinstance(n, ast.arg):
            count[n.arg] = count.get(n.arg, 0) + 1
    out = {}
    for guard, bound in values.items():
        if count.get(guard) != 1 or not isinstance(bound[0], ast.Compare):
            continue
        c = bound[0]
        if not (isinstance(c.left, ast.Name) and len(c.ops) == 1 and isinstance(c.ops[0], ast.Is)
                and isinstance(c.comparators[0], ast.Name)):
            continue
        keys, dom = c.left.id, c.comparators[0].id
        calls = [e for e in values.get(keys, []) if isinstance(e, ast.Call) and isinstance(e.func, ast.Name)
                 and e.func.id == "_keys_with" and len(e.args) == 5]
        if calls and isinstance(calls[-1].args[4], ast.Name) and calls[-1].args[4].id == dom:
            v = calls[-1].args[3]
            if isinstance(v, ast.Name) and count.get(v.id, 0) > 1:
                continue
            # the kept list taken for the same value: `K = kept.get(v) if kept is not None else None`
            gets = [n for e in values[keys] for n in ast.walk(e) if isinstance(n, ast.Call)
                    and isinstance(n.func, ast.Attribute) and n.func.attr == "get"]
            if any(not g.args or ast.dump(g.args[0]) != ast.dump(v) for g in gets):
                continue
            out[keys] = (guard, v, dom)
    return out


def _walks_kept(loop: ast.For, v: ast.expr, kept: dict[str, tuple[str, ast.expr, str]]) -> bool:
    """Whether `loop` walks a kept key list, guarded by its own `U`, for the value `v`."""
    if not isinstance(loop.iter, ast.Name) or loop.iter.id not in kept:
        return False
    guard, value, _dom = kept[loop.iter.id]
    test = loop.body[0].test  # type: ignore[attr-defined]
    return isinstance(test, ast.Name) and test.id == guard and ast.dump(value) == ast.dump(v)


def _known(loop: ast.For) -> tuple[str, ast.expr] | None:
    """(the map's local, the value) where `loop` begins with the kept keys' guard (above)."""
    if not loop.body or not isinstance(loop.body[0], ast.If):
        return None
    guard = loop.body[0]
    if guard.orelse or len(guard.body) != 1 or not isinstance(guard.test, ast.Name):
        return None
    test = guard.body[0]
    if not (isinstance(test, ast.If) and not test.orelse and len(test.body) == 1
            and isinstance(test.body[0], ast.Continue)):
        return None
    cond = test.test
    if not (isinstance(cond, ast.UnaryOp) and isinstance(cond.op, ast.Not) and isinstance(cond.operand, ast.Compare)):
        return None
    cmp = cond.operand
    if len(cmp.ops) != 1 or not isinstance(cmp.ops[0], (ast.Eq, ast.Is)):  # `is`: names by identity
        return None
    entry, v = cmp.left, cmp.comparators[0]
    if not (isinstance(entry, ast.Subscript) and isinstance(entry.value, ast.Name) and isinstance(entry.slice, ast.Name)
            and entry.slice.id == loop.target.id and isinstance(v, (ast.Name, ast.Constant))):  # type: ignore[union-attr]
        return None
    return entry.value.id, v


def _is_entry(node: object, m: str, x: str) -> bool:
    return (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name)
            and node.value.id == m and isinstance(node.slice, ast.Name) and node.slice.id == x)


def _writes(body: list[ast.stmt], m: str) -> bool:
    """Whether `body` stores into `m` (the functions the pass runs on change no state otherwise)."""
    for s in body:
        for n in ast.walk(s):
            if isinstance(n, ast.Subscript) and not isinstance(n.ctx, ast.Load) \
                    and isinstance(n.value, ast.Name) and n.value.id == m:
                return True
    return False


def _copy(v: ast.expr) -> ast.expr:
    return ast.Name(v.id, ast.Load()) if isinstance(v, ast.Name) else ast.Constant(v.value)  # type: ignore[attr-defined]
