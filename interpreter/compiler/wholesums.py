"""`whole sums` (issue 27): a sum's loop over every value of a finite type that adds a state
map's entry at each, `for x in _E: r += m[x]`, as `r += sum(m.values())`: one pass in C.

Exact when the map's keys are the type's values and nothing else, as they always are here:
a state map over a board's or enum's values is made with an entry for each (values.materialize),
a save's is refused unless it has exactly those (values._decode_map), and a statement that
writes it writes one entry, under a key of that type: the map (or the row, for `m[K][x]`) must
be one no statement replaces as a whole (`CodeGen.shallow`, from every place a statement
writes, the scenarios' too). Its values are ints (the map's declared type), whose sum does not depend on
the order. The loop's one statement is the `+=`, so it charges no work and reads no other
entry; its variable is read nowhere else in the function but in such loops (a `for` leaves it
bound)."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any

from ...dsl.types import INT, Elem, MapOf


def whole_sums(fn: ast.FunctionDef, constants: Mapping[str, Any], elements: Mapping[str, Any],
               var_index: Mapping[str, int], var_types: Mapping[str, Any], shallow: Mapping[str, int]) -> bool:
    """The pass over `fn`'s final tree (before its prologue: a map is `_sv<i>`, the variable's
    index, or a fixed row `_fr = _sv<i>[key]` bound at the top); True when a loop changed."""
    by_sv = {f"_sv{i}": n for n, i in var_index.items()}
    rows: dict[str, str] = {}  # fixed rows (pytree.fixed_rows) -> their variable
    for s in fn.body:
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
                and isinstance(s.value, ast.Subscript) and isinstance(s.value.value, ast.Name) \
                and s.value.value.id in by_sv and not isinstance(s.value.slice, ast.Slice):
            rows[s.targets[0].id] = by_sv[s.value.value.id]
    loads: dict[str, int] = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.Name):
            loads[n.id] = loads.get(n.id, 0) + 1

    def key_type(m: str) -> str | None:
        """The key type of map `m` when its keys are that type's values, always; else None."""
        if m in by_sv:  # the map itself: no write of it whole
            var, t, depth = by_sv[m], var_types.get(by_sv[m]), 1
        elif m in rows:  # a row of it: no write of it whole or of a row
            var, t, depth = rows[m], var_types.get(rows[m]), 2
            t = t.val if isinstance(t, MapOf) else None
        else:
            return None
        if shallow.get(var, depth) < depth or not (isinstance(t, MapOf) and t.val == INT and isinstance(t.key, Elem)):
            return None
        return t.key.name

    found: list[tuple[list[ast.stmt], int, str, str, str]] = []
    for lst in _statement_lists(fn):
        for i, s in enumerate(lst):
            m = _summed(s)
            if m is None:
                continue
            x, r, mp = m
            kt = key_type(mp)
            if kt is not None and kt in elements and constants.get(s.iter.id) == list(elements[kt]):  # type: ignore[attr-defined]
                found.append((lst, i, x, r, mp))
    # a loop's variable read nowhere but in loops that bind it (`unswitched sums` copies a loop
    # with it): no read after the loop sees the value it left
    inside: dict[str, int] = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.For) and isinstance(n.target, ast.Name):
            x = n.target.id
            parts = [n.target, *n.body, *n.orelse]  # not its iterable: read before the loop binds
            inside[x] = inside.get(x, 0) + sum(isinstance(k, ast.Name) and k.id == x for p in parts for k in ast.walk(p))
    done = False
    for lst, i, x, r, mp in found:
        if loads.get(x) != inside.get(x):  # (a loop nested in one over the same name: counted twice, refused)
            continue
        values = ast.Call(ast.Attribute(ast.Name(mp, ast.Load()), "values", ast.Load()), [], [])
        new = ast.AugAssign(ast.Name(r, ast.Store()), ast.Add(), ast.Call(ast.Name("sum", ast.Load()), [values], []))
        lst[i] = ast.fix_missing_locations(ast.copy_location(new, lst[i]))
        done = True
    return done


def _summed(s: ast.stmt) -> tuple[str, str, str] | None:
    """`for x in E: r += m[x]` as (x, r, m), E and m names; else None."""
    if not (isinstance(s, ast.For) and isinstance(s.target, ast.Name) and isinstance(s.iter, ast.Name)
            and not s.orelse and len(s.body) == 1):
        return None
    b = s.body[0]
    if isinstance(b, ast.AugAssign) and isinstance(b.op, ast.Add) and isinstance(b.target, ast.Name) \
            and isinstance(b.value, ast.Subscript) and isinstance(b.value.value, ast.Name) \
            and isinstance(b.value.slice, ast.Name) and b.value.slice.id == s.target.id \
            and b.target.id not in (s.target.id, b.value.value.id):
        return s.target.id, b.target.id, b.value.value.id
    return None


def _statement_lists(fn: ast.FunctionDef) -> list[list[ast.stmt]]:
    """Every statement list in `fn`, the function's own body first."""
    out = []
    for node in ast.walk(fn):
        for field in ("body", "orelse", "finalbody"):
            lst = getattr(node, field, None)
            if isinstance(lst, list) and lst and isinstance(lst[0], ast.stmt):
                out.append(lst)
        for h in getattr(node, "handlers", ()):
            out.append(h.body)
    return out
