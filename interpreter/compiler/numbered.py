"""Rows numbered by position (`numbered rows`): a pass over a listing's or definition's tree.

Why: a board game's listing loops over directions inside its loop over pieces, and reads the
neighbour table's row and the move table's row by direction name (`_row[d]`, after
`hoist_rows`/`loop_rows` took the rows out of the loop). A dict look-up by a text costs CPython
about 115 machine instructions; a list indexed by a small integer about 15. By a measure of
breakthrough's listing over the positions of 40 random games (architecture §17), rows indexed by
a direction's number ran it 1.29× faster, with the state store unchanged.

The pass: a loop `for d in D:` whose body reads rows `r[d]` only (`r` bound once, to
`T[a]` or `T.get(a)` of a complete table `T` whose rows all have the same keys in the same
order) becomes `for d, _i in Dn:`, with `r` bound to the row of `Tn` (the same table with its
rows as lists, in that order) and read as `r[_i]`. `Dn` pairs each value of `D` with its
number: a constant where `D` is a constant list (or a conditional choosing between constant
lists, checkers' directions by piece), else made once where `D` is bound (a local bound once
and only iterated). The loop variable keeps its value, so every other use of it is unchanged.

Sound because the numbered row holds the same values at the numbers of the same keys; a value
of `D` that is not a key (which the static types rule out for a complete table) gets the number
None, and reading a row by it fails where the look-up by name would have failed, with a rule
error either way.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from .pytree import located, statement_lists

Keys = tuple[Any, ...]


class Numbering:
    """The numbered copies of a program's tables, made once per program and shared by every
    function that reads them (so a table is copied once, however many listings number it)."""

    def __init__(self, constants: dict[str, Any], complete: set[str], const: Callable[[Any, str], str]):
        self.constants, self.complete, self.const = constants, complete, const
        self._tables: dict[str, str] = {}
        self._orders: dict[Keys, str] = {}
        self._pairs: dict[tuple[str, tuple[Keys, ...]], str] = {}

    def keys_of(self, table: str) -> Keys | None:
        """The keys every row of `table` has, in order, or None where the rows differ (or are
        not dicts, or the table is not complete: only then is every value of the type a key)."""
        if table not in self.complete:
            return None
        value = self.constants.get(table)
        if not isinstance(value, dict) or not value:
            return None
        keys: Keys | None = None
        for row in value.values():
            if not isinstance(row, dict):
                return None
            k = tuple(row)
            if keys is None:
                keys = k
            elif k != keys:
                return None
        return keys if keys and len(keys) > 1 else None

    def table(self, table: str, keys: Keys) -> str:
        """`table` with every row a list in the order of `keys`."""
        name = self._tables.get(table)
        if name is None:
            rows = {k: [row[key] for key in keys] for k, row in self.constants[table].items()}
            name = self._tables[table] = self.const(rows, "RN")
        return name

    def order(self, keys: Keys) -> str:
        """The constant mapping each key to its number."""
        name = self._orders.get(keys)
        if name is None:
            name = self._orders[keys] = self.const({k: i for i, k in enumerate(keys)}, "KN")
        return name

    def pairs(self, domain: str, orders: tuple[Keys, ...]) -> str | None:
        """The constant list `domain` with each value followed by its numbers, or None where
        `domain` is not a constant list."""
        key = (domain, orders)
        name = self._pairs.get(key)
        if name is None:
            values = self.constants.get(domain)
            if not isinstance(values, (list, tuple)):
                return None
            numbers = [{k: i for i, k in enumerate(keys)} for keys in orders]
            name = self._pairs[key] = self.const([(v, *(n.get(v) for n in numbers)) for v in values], "DN")
        return name


def numbered_rows(fn: ast.FunctionDef, fresh: Callable[[str], str], numbering: Numbering) -> bool:
    """The pass, in place over `fn`; True when a loop's rows were numbered."""
    binds = _row_bindings(fn, numbering)
    if not binds:
        return False
    state = _Pass(fn, fresh, numbering, binds)
    done = False
    for lst in list(statement_lists(fn.body)):
        for loop in [s for s in lst if isinstance(s, ast.For) and isinstance(s.target, ast.Name)]:
            done |= state.number_loop(loop)
    return done


def _row_bindings(fn: ast.FunctionDef, numbering: Numbering) -> dict[str, tuple[ast.Assign, str, Keys]]:
    """The locals bound once, to a row of a table whose rows share their keys: name ->
    (the binding, the table, its rows' keys)."""
    stores = _counts(fn, load=False)
    out: dict[str, tuple[ast.Assign, str, Keys]] = {}
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            continue
        name = node.targets[0].id
        table = _table_of(node.value)
        if table is None or stores.get(name) != 1:
            continue
        keys = numbering.keys_of(table)
        if keys is not None:
            out[name] = (node, table, keys)
    return out


def _table_of(value: ast.expr) -> str | None:
    """`T` of `T[a]` or `T.get(a)` (a row looked up by hoist_rows or loop_rows)."""
    if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name):
        return value.value.id
    if (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "get"
            and isinstance(value.func.value, ast.Name) and len(value.args) == 1 and not value.keywords):
        return value.func.value.id
    return None


def _counts(fn: ast.FunctionDef, load: bool) -> dict[str, int]:
    """How often each name is read (`load`) or bound in `fn`."""
    out: dict[str, int] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) == load:
            out[node.id] = out.get(node.id, 0) + 1
    return out


class _Pass:
    """One function's numbering: what it reads, and the numbered domains made so far."""

    def __init__(self, fn: ast.FunctionDef, fresh: Callable[[str], str], numbering: Numbering,
                 binds: dict[str, tuple[ast.Assign, str, Keys]]):
        self.fn, self.fresh, self.numbering, self.binds = fn, fresh, numbering, binds
        self.loads, self.stores = _counts(fn, load=True), _counts(fn, load=False)
        self.iterated: dict[str, int] = {}
        for node in ast.walk(fn):
            if isinstance(node, ast.For) and isinstance(node.iter, ast.Name):
                self.iterated[node.iter.id] = self.iterated.get(node.iter.id, 0) + 1
        self.made: dict[tuple[str, tuple[Keys, ...]], str] = {}

    def number_loop(self, loop: ast.For) -> bool:
        """Number the rows `loop` reads by its variable, where every read of each row is one."""
        var = loop.target.id  # type: ignore[union-attr]
        if any(isinstance(n, ast.Name) and n.id == var and not isinstance(n.ctx, ast.Load)
               for s in loop.body + loop.orelse for n in ast.walk(s)):
            return False
        reads: dict[str, list[ast.Subscript]] = {}
        for s in loop.body:
            for node in ast.walk(s):
                if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in self.binds
                        and isinstance(node.slice, ast.Name) and node.slice.id == var):
                    reads.setdefault(node.value.id, []).append(node)
        rows = {r: subs for r, subs in reads.items() if len(subs) == self.loads.get(r, 0)}
        if not rows:
            return False
        orders = tuple(dict.fromkeys(self.binds[r][2] for r in rows))
        domain = self.domain(loop.iter, orders)
        if domain is None:
            return False
        numbers = [self.fresh("n") for _ in orders]
        loop.target = located(ast.Tuple([ast.Name(var, ast.Store()), *(ast.Name(n, ast.Store()) for n in numbers)],
                                        ast.Store()), loop.target)
        loop.iter = located(domain, loop.iter)
        for r, subs in rows.items():
            bind, table, keys = self.binds.pop(r)
            number = numbers[orders.index(keys)]
            for sub in subs:
                sub.slice = located(ast.Name(number, ast.Load()), sub.slice)
            holder = bind.value.value if isinstance(bind.value, ast.Subscript) else bind.value.func.value  # type: ignore[attr-defined]
            holder.id = self.numbering.table(table, keys)
        return True

    def domain(self, it: ast.expr, orders: tuple[Keys, ...]) -> ast.expr | None:
        """The loop's new iterable, each value with its numbers, or None where it cannot be
        made once: a constant list, a conditional between constant ones, or a local bound
        once by an assignment and read only as a loop's iterable (nothing changes it in place)."""
        if isinstance(it, ast.IfExp):
            body, orelse = self.domain(it.body, orders), self.domain(it.orelse, orders)
            if body is None or orelse is None:
                return None
            return ast.IfExp(it.test, body, orelse)
        if not isinstance(it, ast.Name):
            return None
        pairs = self.numbering.pairs(it.id, orders)
        if pairs is None:
            pairs = self.made.get((it.id, orders)) or self._pairs_at_binding(it.id, orders)
        return ast.Name(pairs, ast.Load()) if pairs is not None else None

    def _pairs_at_binding(self, name: str, orders: tuple[Keys, ...]) -> str | None:
        """`Dn = [(v, ORD.get(v), ...) for v in D]` right after `D`'s one binding."""
        if self.stores.get(name) != 1 or self.iterated.get(name, 0) != self.loads.get(name, 0):
            return None
        for lst in statement_lists(self.fn.body):
            for at, s in enumerate(lst):
                if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
                        and s.targets[0].id == name:
                    pairs = self.fresh("dn")
                    made = self.domain(s.value, orders) if isinstance(s.value, ast.IfExp) else None
                    if made is not None:  # a choice between constant lists: between numbered ones
                        lst.insert(at + 1, located(ast.Assign([ast.Name(pairs, ast.Store())], made), s))
                        self.made[(name, orders)] = pairs
                        return pairs
                    v = self.fresh("v")
                    item = ast.Tuple([ast.Name(v, ast.Load()), *(
                        ast.Call(ast.Attribute(ast.Name(self.numbering.order(keys), ast.Load()), "get", ast.Load()),
                                 [ast.Name(v, ast.Load())], []) for keys in orders)], ast.Load())
                    comp = ast.ListComp(item, [ast.comprehension(ast.Name(v, ast.Store()), ast.Name(name, ast.Load()),
                                                                 [], 0)])
                    lst.insert(at + 1, located(ast.Assign([ast.Name(pairs, ast.Store())], comp), s))
                    self.made[(name, orders)] = pairs
                    return pairs
        return None
