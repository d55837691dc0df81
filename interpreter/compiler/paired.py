"""Rows of one key looked up once (`paired rows`): a pass over a listing's or definition's tree.

Why: after `hoist rows` and `numbered rows`, breakthrough's listing looks up two rows of the
square it walks, `r1 = N[s]` (its neighbours) and `r2 = M[s]` (its moves), each a dict look-up
by the square's name: about 115 machine instructions each (architecture §17), twice per piece
and decision. Where consecutive statements bind rows of several fixed tables by the same name
(`r1 = T1[k]`, `r2 = T2[k]`, or all with `.get(k)`), and the tables have the same keys, one
constant table holding each key's rows together is looked up once instead: `r1, r2 = P[k]`
(`.get(k, (None, None))` for `.get`).

Sound because `P[k]` holds exactly `(T1[k], T2[k])`; a `k` that is no key fails at `P[k]`
with the same KeyError `T1[k]` raised first, and `.get` gives None to each row as before. Only
tables made complete when the program is compiled qualify: a table filled as the game asks
(`_memo`) could gain a key in one and not yet in the other.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from .pytree import located, statement_lists


class Pairing:
    """The paired tables of a program, made once and shared by every function that reads them."""

    def __init__(self, constants: dict[str, Any], fixed: Callable[[str], bool], const: Callable[[Any, str], str]):
        self.constants, self.fixed, self.const = constants, fixed, const
        self._made: dict[tuple[str, ...], str | None] = {}

    def paired(self, tables: tuple[str, ...]) -> str | None:
        """The constant holding each key's rows of `tables` together, or None where the
        tables are not all fixed dicts with the same keys."""
        if tables not in self._made:
            values = [self.constants.get(t) for t in tables]
            ok = all(self.fixed(t) and isinstance(v, dict) and v for t, v in zip(tables, values, strict=True)) \
                and all(v.keys() == values[0].keys() for v in values[1:])  # type: ignore[union-attr]
            self._made[tables] = self.const({k: tuple(v[k] for v in values) for k in values[0]}, "RP") \
                if ok else None  # type: ignore[union-attr]
        return self._made[tables]


def paired_rows(fn: ast.FunctionDef, pairing: Pairing) -> bool:
    """The pass, in place over `fn`; True when some rows were paired."""
    done = False
    for lst in list(statement_lists(fn.body)):
        at = 0
        while at < len(lst):
            run = _run(lst, at)
            if len(run) < 2:
                at += 1
                continue
            tables = tuple(table for _target, table, _key, _get in run)
            name = pairing.paired(tables)
            if name is None:
                at += len(run)
                continue
            key, get = run[0][2], run[0][3]
            target = ast.Tuple([ast.Name(t, ast.Store()) for t, *_ in run], ast.Store())
            if get:
                value: ast.expr = ast.Call(ast.Attribute(ast.Name(name, ast.Load()), "get", ast.Load()),
                                           [ast.Name(key, ast.Load()),
                                            ast.Tuple([ast.Constant(None)] * len(run), ast.Load())], [])
            else:
                value = ast.Subscript(ast.Name(name, ast.Load()), ast.Name(key, ast.Load()), ast.Load())
            lst[at:at + len(run)] = [located(ast.Assign([target], value), lst[at])]
            done = True
            at += 1
    return done


def _run(lst: list[ast.stmt], at: int) -> list[tuple[str, str, str, bool]]:
    """The consecutive row bindings from `lst[at]` on with the same key and form: each as
    (target, table, key, by .get)."""
    out: list[tuple[str, str, str, bool]] = []
    for s in lst[at:]:
        row = _row_binding(s)
        if row is None or (out and (row[2], row[3]) != (out[0][2], out[0][3])) \
                or row[0] == row[2] or any(row[0] == t for t, *_ in out):
            break
        out.append(row)
    return out


def _row_binding(s: ast.stmt) -> tuple[str, str, str, bool] | None:
    """`r = T[k]` or `r = T.get(k)`, names all: (r, T, k, by .get); None otherwise."""
    if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)):
        return None
    v = s.value
    if isinstance(v, ast.Subscript) and isinstance(v.value, ast.Name) and isinstance(v.slice, ast.Name):
        return s.targets[0].id, v.value.id, v.slice.id, False
    if (isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr == "get"
            and isinstance(v.func.value, ast.Name) and len(v.args) == 1 and isinstance(v.args[0], ast.Name)
            and not v.keywords):
        return s.targets[0].id, v.func.value.id, v.args[0].id, True
    return None
