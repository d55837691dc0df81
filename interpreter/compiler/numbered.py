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
Over a constant domain, a local the body binds to a constant table's entry of the variable
(`v = C[d]`, connect four's `opposite(d)`) rides in the pairs too, with its number, so rows read
by it are numbered as well. `rows_ahead` first takes rows of names no round binds out of the
loop (connect four's rays from the square just filled), as hoist_rows and loop_rows do for
parameters and outer loops' variables.

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
# what a numbered domain pairs each value `x` with: `("value", C)`, the constant `C[x]`;
# `("number", C or None, keys)`, the number of `C[x]` (or of `x`) among a row's keys
Column = tuple
Columns = tuple[Column, ...]


class Numbering:
    """The numbered copies of a program's tables, made once per program and shared by every
    function that reads them (so a table is copied once, however many listings number it)."""

    def __init__(self, constants: dict[str, Any], complete: set[str], const: Callable[[Any, str], str]):
        self.constants, self.complete, self.const = constants, complete, const
        self._tables: dict[str, str] = {}
        self._orders: dict[Keys, str] = {}
        self._pairs: dict[tuple[str, Columns], str] = {}

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

    def pairs(self, domain: str, columns: Columns) -> str | None:
        """The constant list `domain` with each value `x` followed by its columns: `C[x]` for
        a column `("value", C)`, the number of `x` (or of `C[x]`) among `keys` for `("number",
        C or None, keys)`; None where `domain` is not a constant list, or a value is no key of C."""
        key = (domain, columns)
        name = self._pairs.get(key)
        if name is None:
            values = self.constants.get(domain)
            if not isinstance(values, (list, tuple)):
                return None
            rows = []
            for v in values:
                row = [v]
                for column in columns:
                    table = self.constants[column[1]] if column[1] is not None else None
                    if table is not None and v not in table:
                        return None
                    of = table[v] if table is not None else v
                    row.append(of if column[0] == "value" else {k: i for i, k in enumerate(column[2])}.get(of))
                rows.append(tuple(row))
            name = self._pairs[key] = self.const(rows, "DN")
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
        self.made: dict[tuple[str, Columns], str] = {}

    def number_loop(self, loop: ast.For) -> bool:
        """Number the rows `loop` reads by its variable (or by a value derived from it, see
        `derived`), where every read of each row is one."""
        var = loop.target.id  # type: ignore[union-attr]
        if any(isinstance(n, ast.Name) and n.id == var and not isinstance(n.ctx, ast.Load)
               for s in loop.body + loop.orelse for n in ast.walk(s)):
            return False
        derived = self.derived(loop, var)
        sources: dict[str, str | None] = {var: None, **{v: table for v, (_s, table) in derived.items()}}
        reads: dict[str, list[tuple[ast.Subscript, str]]] = {}
        for s in loop.body:
            for node in ast.walk(s):
                if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in self.binds
                        and isinstance(node.slice, ast.Name) and node.slice.id in sources):
                    reads.setdefault(node.value.id, []).append((node, node.slice.id))
        rows = {r: subs for r, subs in reads.items() if len(subs) == self.loads.get(r, 0)}
        if not rows:
            return False
        needed = list(dict.fromkeys((src, self.binds[r][2]) for r, subs in rows.items() for _sub, src in subs))
        used = [v for v in derived if any(src == v for src, _keys in needed)]
        read_by = [src for subs in rows.values() for _sub, src in subs]
        kept = [v for v in used if read_by.count(v) < self.loads.get(v, 0)]  # read otherwise too
        columns = (*(("value", derived[v][1]) for v in kept),
                   *(("number", sources[src], keys) for src, keys in needed))
        domain = self.domain(loop.iter, columns)
        if domain is None:
            return False
        numbers = {need: self.fresh("n") for need in needed}
        loop.target = located(ast.Tuple([ast.Name(n, ast.Store()) for n in (var, *kept, *numbers.values())],
                                        ast.Store()), loop.target)
        loop.iter = located(domain, loop.iter)
        gone = {id(derived[v][0]) for v in used}  # bound by the loop itself now
        loop.body = [s for s in loop.body if id(s) not in gone]
        for r, subs in rows.items():
            bind, table, keys = self.binds.pop(r)
            for sub, src in subs:
                sub.slice = located(ast.Name(numbers[(src, keys)], ast.Load()), sub.slice)
            holder = bind.value.value if isinstance(bind.value, ast.Subscript) else bind.value.func.value  # type: ignore[attr-defined]
            holder.id = self.numbering.table(table, keys)
        return True

    def derived(self, loop: ast.For, var: str) -> dict[str, tuple[ast.stmt, str]]:
        """The locals the loop's body binds to a constant table's entry of its variable, `v =
        C[x]` (connect four's `opposite(d)`), which the numbered domain can carry, and with
        them the numbers of their values: `v` bound there only, read only in the loop after
        that statement (so binding it at the loop's head changes no value read)."""
        out: dict[str, tuple[ast.stmt, str]] = {}
        for at, s in enumerate(loop.body):
            if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
                    and isinstance(s.value, ast.Subscript) and isinstance(s.value.value, ast.Name)
                    and isinstance(s.value.slice, ast.Name) and s.value.slice.id == var
                    and isinstance(self.numbering.constants.get(s.value.value.id), dict)):
                continue
            v = s.targets[0].id
            if self.stores.get(v) != 1:
                continue
            before = sum(1 for t in loop.body[:at] for n in ast.walk(t) if isinstance(n, ast.Name) and n.id == v)
            after = sum(1 for t in loop.body[at + 1:] for n in ast.walk(t)
                        if isinstance(n, ast.Name) and n.id == v and isinstance(n.ctx, ast.Load))
            if before == 0 and after == self.loads.get(v, 0):
                out[v] = (s, s.value.value.id)
        return out

    def domain(self, it: ast.expr, columns: Columns) -> ast.expr | None:
        """The loop's new iterable, each value with its columns, or None where it cannot be
        made once: a constant list, a conditional between constant ones, or (for numbers of
        the value itself only) a local bound once by an assignment and read only as a loop's
        iterable (nothing changes it in place)."""
        if isinstance(it, ast.IfExp):
            body, orelse = self.domain(it.body, columns), self.domain(it.orelse, columns)
            if body is None or orelse is None:
                return None
            return ast.IfExp(it.test, body, orelse)
        if not isinstance(it, ast.Name):
            return None
        pairs = self.numbering.pairs(it.id, columns)
        if pairs is None and all(c[0] == "number" and c[1] is None for c in columns):
            pairs = self.made.get((it.id, columns)) or self._pairs_at_binding(it.id, columns)
        return ast.Name(pairs, ast.Load()) if pairs is not None else None

    def _pairs_at_binding(self, name: str, columns: Columns) -> str | None:
        """`Dn = [(v, ORD.get(v), ...) for v in D]` right after `D`'s one binding."""
        if self.stores.get(name) != 1 or self.iterated.get(name, 0) != self.loads.get(name, 0):
            return None
        for lst in statement_lists(self.fn.body):
            for at, s in enumerate(lst):
                if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
                        and s.targets[0].id == name:
                    pairs = self.fresh("dn")
                    made = self.domain(s.value, columns) if isinstance(s.value, ast.IfExp) else None
                    if made is not None:  # a choice between constant lists: between numbered ones
                        lst.insert(at + 1, located(ast.Assign([ast.Name(pairs, ast.Store())], made), s))
                        self.made[(name, columns)] = pairs
                        return pairs
                    v = self.fresh("v")
                    item = ast.Tuple([ast.Name(v, ast.Load()), *(
                        ast.Call(ast.Attribute(ast.Name(self.numbering.order(c[2]), ast.Load()), "get", ast.Load()),
                                 [ast.Name(v, ast.Load())], []) for c in columns)], ast.Load())
                    comp = ast.ListComp(item, [ast.comprehension(ast.Name(v, ast.Store()), ast.Name(name, ast.Load()),
                                                                 [], 0)])
                    lst.insert(at + 1, located(ast.Assign([ast.Name(pairs, ast.Store())], comp), s))
                    self.made[(name, columns)] = pairs
                    return pairs
        return None


def rows_ahead(fn: ast.FunctionDef, fresh: Callable[[str], str], complete: set[str]) -> bool:
    """Inside a loop, a complete table's row of a name the loop does not bind (`T[s][d]` with
    `s` bound before it: connect four's `ray(s, d)` for the square just filled) is looked up
    once, right before the loop, as `hoist_rows` and `loop_rows` do for parameters and outer
    loops' variables; `numbered_rows` may then number it. The row is taken with `.get`: the
    loop may run no round, or reach the look-up only behind a test, where the late look-up
    would not have run. In place; True when a row moved."""
    tables = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id in complete}
    if not tables or any(isinstance(n, ast.Name) and n.id in tables and not isinstance(n.ctx, ast.Load)
                         for n in ast.walk(fn)):
        return False
    moved = False
    for lst in list(statement_lists(fn.body)):
        at = 0
        while at < len(lst):
            loop = lst[at]
            at += 1
            if not isinstance(loop, ast.For):
                continue
            bound = {n.id for s in [loop.target, *loop.body, *loop.orelse] for n in ast.walk(s)
                     if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
            rows: dict[tuple[str, str], str] = {}
            sites: list[ast.Subscript] = []
            for s in [*loop.body, *loop.orelse]:
                for node in ast.walk(s):
                    if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Subscript)
                            and isinstance(node.value.value, ast.Name) and node.value.value.id in tables
                            and isinstance(node.value.slice, ast.Name) and node.value.slice.id not in bound):
                        key = (node.value.value.id, node.value.slice.id)
                        if key not in rows:
                            rows[key] = fresh("row")
                        sites.append(node)
            if not rows:
                continue
            for node in sites:
                key = (node.value.value.id, node.value.slice.id)  # type: ignore[attr-defined]
                node.value = located(ast.Name(rows[key], ast.Load()), node.value)
            head = [located(ast.Assign([ast.Name(row, ast.Store())], ast.Call(
                ast.Attribute(ast.Name(table, ast.Load()), "get", ast.Load()), [ast.Name(k, ast.Load())], [])), loop)
                for (table, k), row in rows.items()]
            lst[at - 1:at - 1] = head
            at += len(head)
            moved = True
    return moved
