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
same of the rest. Only where `v` is a name or a constant, `x` and `v` are not bound again in the
loop, and nothing in it writes `m` (the pass runs on functions that change no state: listings
and definitions). An equal value for the entry itself: comparisons, keys and texts are the same.
"""

from __future__ import annotations

import ast

from .pytree import located, statement_lists


def known_entries(fn: ast.FunctionDef) -> bool:
    """The pass, in place over `fn`; True when some entry was replaced by its known value."""
    done = False
    for lst in list(statement_lists(fn.body)):
        for loop in [s for s in lst if isinstance(s, ast.For) and isinstance(s.target, ast.Name)]:
            known = _known(loop)
            if known is None:
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
    if len(cmp.ops) != 1 or not isinstance(cmp.ops[0], ast.Eq):
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
