"""The kept lists of a map looked up once for the writes that follow one another (`kept lists
once`): a pass over every function of a program, after the copies are made.

Why: every write of an entry of a map whose keys are kept by value (`keys moved in place`,
codegen `keys_moved`) looks the map's lists up in the game's carried values first:

    if G._carried:                              if G._carried:
        _kv1 = G._carried.get('=cell')              _kv1 = G._carried.get('=cell')
        ...                                         ...
    _sv1[to] = _sv1[frm]                  ->    _sv1[to] = _sv1[frm]
    if G._carried:                              if G._carried:
        _kv2 = G._carried.get('=cell')              _kv2 = _kv1
        ...                                         ...

Checkers' step writes two entries of `cell`, a jump three or more: a method call on the game's
attribute a write.

Exact: between the two lookups (the first block included) every statement is one that cannot
reach `G._carried` — stores into names, subscripts and attributes other than `_carried`, and no
call but the kept lists' own methods on local names (`get`, `remove`, `append`, `extend`: a dict's
and a list's, which change what they are called on only) and `_insort` — so the carried values are
the same dict with the same entries at the second lookup, and its `get` gives the object the first
gave. Both blocks test `G._carried` alike, so where the second one's body runs the first one's ran
and bound its local, which is bound nowhere else in the function.
"""

from __future__ import annotations

import ast

from .pytree import statements

_METHODS = frozenset({"get", "remove", "append", "extend"})  # a dict's or a list's, on a local
_CALLS = frozenset({"_insort"})  # bisect.insort: moves nothing but the list it is handed


def kept_once(fn: ast.FunctionDef) -> bool:
    """The pass, in place over `fn`; True when a lookup was replaced. Cheap where no key is
    looked up twice (a look at the statements alone, not their expressions)."""
    keys = [found[0] for s in statements(fn.body) if (found := _lookup(s)) is not None]
    if len(keys) == len(set(keys)):  # a first look at the statements alone: no key looked up twice
        return False
    stores: dict[str, int] = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            stores[n.id] = stores.get(n.id, 0) + 1
    return _lists(fn.body, stores)


def _lookup(s: ast.stmt) -> tuple[str, str] | None:
    """(key, local) of `if G._carried:` whose body opens with `local = G._carried.get('key')`."""
    if not (isinstance(s, ast.If) and _is_carried(s.test) and s.body):
        return None
    first = s.body[0]
    if not (isinstance(first, ast.Assign) and len(first.targets) == 1 and isinstance(first.targets[0], ast.Name)):
        return None
    v = first.value
    if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr == "get" \
            and _is_carried(v.func.value) and len(v.args) == 1 and not v.keywords \
            and isinstance(v.args[0], ast.Constant) and isinstance(v.args[0].value, str):
        return v.args[0].value, first.targets[0].id
    return None


def _is_carried(e: ast.expr) -> bool:
    return isinstance(e, ast.Attribute) and e.attr == "_carried" and isinstance(e.value, ast.Name) \
        and e.value.id == "G" and isinstance(e.ctx, ast.Load)


def _safe(node: ast.AST) -> bool:
    """Whether running `node` leaves the carried values as they were (see the module's text)."""
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Name) and f.id in _CALLS:
                continue
            if isinstance(f, ast.Attribute) and f.attr in _METHODS and isinstance(f.value, ast.Name) \
                    and f.value.id != "G":
                continue
            return False
        if isinstance(n, ast.Attribute) and n.attr == "_carried" and not isinstance(n.ctx, ast.Load):
            return False
        if isinstance(n, (ast.Delete, ast.Global, ast.Nonlocal, ast.FunctionDef, ast.Lambda, ast.Yield,
                          ast.YieldFrom, ast.Await, ast.ClassDef)):
            return False
    return True


def _lists(body: list[ast.stmt], stores: dict[str, int]) -> bool:
    """The pass over one statement list and, on their own, the lists nested in it."""
    done = False
    held: dict[str, str] = {}  # key -> the local its lists were looked up into, still the same
    for s in body:
        found = _lookup(s)
        if found is not None:
            key, local = found
            if key in held and stores.get(local) == 1:
                s.body[0].value = ast.copy_location(ast.Name(held[key], ast.Load()), s.body[0].value)  # type: ignore[attr-defined]
                done = True
            elif stores.get(local) != 1:
                held.pop(key, None)
            if not all(_safe(t) for t in s.body[1:]) or s.orelse:
                held = {}
            elif stores.get(local) == 1:
                held.setdefault(key, local)
        elif not _safe(s):
            held = {}
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(s, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                done = _lists(inner, stores) or done
        for handler in getattr(s, "handlers", ()):
            done = _lists(handler.body, stores) or done
    return done
