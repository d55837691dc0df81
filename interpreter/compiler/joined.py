"""A numbered domain joined with the rows it reads (`joined rows`): a pass over a listing's or
definition's tree, after `numbered rows`, `paired rows` and `by player`.

Why: after those passes breakthrough's listing walks, for every piece `k`, the directions with
their numbers and reads the neighbour row by the number, skipping the directions that leave
the board:

    r1, r2 = P[k]                    # the rows of k (paired.py)
    for v, n in D:                   # D: constant pairs (numbered.py), or a player's (perplayer.py)
        x = r1[n]
        if not x is not None:
            continue
        BODY                         # reads n only as r1[n] or r2[n]

Everything down to the test is fixed when the program is compiled: for each `k` (and each value
D may take) the list of `(v, r1[n], r2[n])` for the numbers whose `r1[n]` is not None. The loop
walks that list instead, `for v, x, y in J[k]:`, with BODY's `r2[n]` read as `y`: no row look-up,
no index, no test and no round for a direction off the board. Measured on breakthrough's
listing over 1,966 positions of random games (callgrind): 86.4 → 74.3 M instructions.

D may be a constant, a choice between constants (checkers' directions by piece), or a local
bound once to a constant table's entry (`D = T[a]`, `by player`'s `T[_cur]`): the join is made
for every value that table holds, and looked up where D was. Sound because the joined list holds
exactly the rounds that passed the test, with the values BODY read; a `k` that is no key of the
rows' table fails at `J[k]` as at `P[k]` (a KeyError; with `.get`, a TypeError as before).
Only tables made complete when the program is compiled qualify.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from .pytree import located, statement_lists


class Joining:
    """The joined tables of a program, made once and shared by every function that reads them."""

    def __init__(self, constants: dict[str, Any], fixed: Callable[[str], bool], const: Callable[[Any, str], str]):
        self.constants, self.fixed, self.const = constants, fixed, const
        self._made: dict[tuple, str | None] = {}
        # `joined tidy` (CodeGen.JOINED_TIDY, set by CodeGen): each joined table's columns that
        # hold no None, by the table's name (the entries' first item is the domain's value)
        self.tidy = False
        self.never_none: dict[str, tuple[bool, ...]] = {}
        self.by_player: set[str] = set()  # the joined tables made with `by`: a table per value
        self._pruned: dict[tuple[str, tuple[int, ...]], str] = {}

    def joined(self, domain: str | None, rows: tuple[tuple[str, int | None], ...], by: str | None) -> str | None:
        """The constant `k -> [(v, row_0[n], row_1[n], ...) for (v, n) in D if row_0[n] is not
        None]`, where each row is `T[k]` (or `T[k][i]`, a paired table's i-th row) for `rows`'
        (T, i); D the constant `domain`, or, with `by`, `by`'s every value (then the constant
        maps each key of `by` to such a table). None where a table is not fixed or a row's
        entry cannot be read."""
        key = (domain, rows, by)
        if key not in self._made:
            self._made[key] = self._make(domain, rows, by)
        return self._made[key]

    def _make(self, domain: str | None, rows: tuple[tuple[str, int | None], ...], by: str | None) -> str | None:
        tables = [self.constants.get(t) for t, _i in rows]
        if not all(self.fixed(t) and isinstance(v, dict) and v for (t, _i), v in zip(rows, tables, strict=True)) \
                or any(v.keys() != tables[0].keys() for v in tables[1:]):  # type: ignore[union-attr]
            return None
        if by is not None:
            if not self.fixed(by) or not isinstance(self.constants.get(by), dict):
                return None
            domains = self.constants[by]
        else:
            if domain is None or not self.fixed(domain):
                return None
            domains = {None: self.constants.get(domain)}
        out: dict[Any, Any] = {}
        never = [True] * (len(rows) + 1)
        try:
            for which, pairs in domains.items():
                if not isinstance(pairs, (list, tuple)):
                    return None
                table = {}
                for k in tables[0]:  # type: ignore[union-attr]
                    got = [(t[k] if i is None else t[k][i]) for t, (_name, i) in zip(tables, rows, strict=True)]
                    table[k] = [(v, *(r[n] for r in got)) for v, n in pairs if got[0][n] is not None]
                    for entry in table[k]:
                        for c, x in enumerate(entry):
                            never[c] = never[c] and x is not None
                out[which] = table
        except (TypeError, IndexError, KeyError, ValueError):
            return None
        name = self.const(out[None] if by is None else out, "JR")
        self.never_none[name] = tuple(never)
        if by is not None:
            self.by_player.add(name)
        return name

    def pruned(self, name: str, keep: tuple[int, ...]) -> str:
        """The joined table `name` with only the columns `keep` of its entries (one column: the
        value itself, not a tuple of one), made once; `name` itself is left as it is (other
        loops may walk it)."""
        key = (name, keep)
        if key not in self._pruned:
            def rows(table: dict) -> dict:
                if len(keep) == 1:
                    return {k: [e[keep[0]] for e in v] for k, v in table.items()}
                return {k: [tuple(e[c] for c in keep) for e in v] for k, v in table.items()}
            value = self.constants[name]
            made = self.const({w: rows(t) for w, t in value.items()} if name in self.by_player else rows(value), "JR")
            if name in self.by_player:
                self.by_player.add(made)
            self._pruned[key] = made
        return self._pruned[key]


def joined_rows(fn: ast.FunctionDef, joining: Joining, fresh: Callable[[str], str]) -> bool:
    """The pass, in place over `fn`; True when some loop walks a joined table."""
    stores = _stores(fn)
    touched: set[str] = set()  # the row and domain locals the joined loops read no more
    for lst in list(statement_lists(fn.body)):
        for s in [s for s in lst if isinstance(s, ast.For)]:
            touched |= _join(fn, lst, next(i for i, t in enumerate(lst) if t is s), s, joining, fresh, stores)
    if touched:
        drop_unread(fn, touched)
    return bool(touched)


def _stores(fn: ast.FunctionDef) -> dict[str, int]:
    """How often each name is bound in `fn`, a parameter once on entry."""
    out: dict[str, int] = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            out[n.id] = out.get(n.id, 0) + 1
        elif isinstance(n, ast.arg):
            out[n.arg] = out.get(n.arg, 0) + 1
    return out


def _join(fn: ast.FunctionDef, lst: list[ast.stmt], at: int, loop: ast.For, joining: Joining,
          fresh: Callable[[str], str], stores: dict[str, int]) -> set[str]:
    """Join `loop` (see above) where it has the form (`lst[at]` is the loop): the row and
    domain locals it no longer reads, or nothing where it is left as it is."""
    if not (isinstance(loop.target, ast.Tuple) and len(loop.target.elts) == 2
            and all(isinstance(e, ast.Name) for e in loop.target.elts)) or loop.orelse or len(loop.body) < 2:
        return set()
    v, n = (e.id for e in loop.target.elts)  # type: ignore[attr-defined]
    first = loop.body[0]
    if isinstance(first, ast.Assign) and len(first.targets) == 1 and isinstance(first.targets[0], ast.Name) \
            and _skips_none(loop.body[1], ast.Name(first.targets[0].id, ast.Load())):
        x, lead, body = first.targets[0].id, _row_read(first.value, n), loop.body[2:]  # x = r[n]; if x is None: ...
    elif isinstance(first, ast.If) and isinstance(_none_tested(first), ast.Subscript):
        x, lead, body = fresh("jx"), _row_read(_none_tested(first), n), loop.body[1:]  # if r[n] is None: ...
        stores[x] = 1
    else:
        return set()
    if not body:
        return set()
    rows = _row_sources(lst[:at])  # row local -> (key, table, index in a paired table or None, by .get)
    if lead not in rows or any(stores.get(name) != 1 for name in (v, n, x)):
        return set()
    key, _table, _index, get = rows[lead]
    used, reads = [lead], []  # the rows read by n, the lead first; the reads r[n] in the body
    for s in body:
        for node in ast.walk(s):
            if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Name) and node.slice.id == n:
                r = node.value.id if isinstance(node.value, ast.Name) else None
                if r not in rows or rows[r][0] != key or rows[r][3] != get or not isinstance(node.ctx, ast.Load):
                    return set()
                reads.append(node)
                if r not in used:
                    used.append(r)
    if sum(isinstance(node, ast.Name) and node.id == n for s in body for node in ast.walk(s)) != len(reads):
        return set()  # n read other than as a row's index
    if any(stores.get(r) != 1 for r in used) or stores.get(key, 0) > 1 or _bound_in(loop, key):
        return set()
    sources = tuple((rows[r][1], rows[r][2]) for r in used)
    it_before = loop.iter
    table = _joined_domain(fn, loop.iter, sources, joining, fresh, stores)
    if table is None:
        return set()
    names = {lead: x, **{r: fresh("jr") for r in used[1:]}}
    loop.target = located(ast.Tuple([ast.Name(v, ast.Store()), *(ast.Name(names[r], ast.Store()) for r in used)],
                                    ast.Store()), loop.target)
    # `joined tidy`: a subscript even where the row was taken by `.get` (loop_rows' early
    # look-up): the joined loop walks `J[k]` wherever it reaches the loop, and `.get` would give
    # it None to fail on there just the same (a TypeError where this is a KeyError), for a `k`
    # that is no key, which the static types rule out
    look = ast.Call(ast.Attribute(table, "get", ast.Load()), [ast.Name(key, ast.Load())], []) \
        if get and not joining.tidy else ast.Subscript(table, ast.Name(key, ast.Load()), ast.Load())
    loop.iter = located(look, loop.iter)
    loop.body = body
    _replace_reads(loop, {id(node): names[node.value.id] for node in reads})  # type: ignore[attr-defined]
    if joining.tidy:
        _tidy(loop, joining, stores)
    domains = {n.id for n in ast.walk(loop.iter) if isinstance(n, ast.Name)}
    return set(used) | {d for d in _iter_names(it_before) if d not in domains}


def _tidy(loop: ast.For, joining: Joining, stores: dict[str, int]) -> None:
    """`joined tidy`: a joined loop's leading copies `x = t` of a target `t` (x bound nowhere
    else) written as the target itself, `for v, x, ... in J[k]:`, the other reads of `t` read as
    `x` (all after the copy, which led the body: the same value); then a test `x is not None`
    (`is None`) of a target whose column holds no None in every table the loop may walk is
    True (False), and an `and` of it keeps its other operands. The join made the rows' values
    constants; this drops the copies and tests its rewrite left of them."""
    targets = loop.target.elts  # type: ignore[attr-defined]
    names = [e.id for e in targets]
    while loop.body and len(loop.body) > 1:
        s = loop.body[0]
        if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
                and isinstance(s.value, ast.Name) and s.value.id in names[1:] and stores.get(s.targets[0].id) == 1
                and s.targets[0].id not in names):
            break
        t, x = s.value.id, s.targets[0].id
        del loop.body[0]
        targets[names.index(t)] = located(ast.Name(x, ast.Store()), targets[names.index(t)])
        names[names.index(t)] = x
        for node in ast.walk(loop):
            if isinstance(node, ast.Name) and node.id == t:
                node.id = x
    # the joined tables the loop may walk: the iterable is one, or a choice between them (a
    # local bound to a per-player table's entry names none: no test is folded then)
    tables = {n.id for n in ast.walk(loop.iter) if isinstance(n, ast.Name)} & joining.never_none.keys()
    if not tables:
        return
    known = {name for c, name in enumerate(names)
             if all(c < len(joining.never_none[t]) and joining.never_none[t][c] for t in tables)
             and stores.get(name) == 1}
    if known:
        _fold_none_tests(loop, known)


def _fold_none_tests(loop: ast.For, known: set[str]) -> None:
    """`x is not None` as True and `x is None` as False for the names `known` never None in
    `loop`'s body, and an `and` or `or` of such a constant written without it."""

    class Fold(ast.NodeTransformer):
        def visit_Compare(self, node: ast.Compare) -> ast.expr:
            self.generic_visit(node)
            if len(node.ops) == 1 and isinstance(node.left, ast.Name) and node.left.id in known \
                    and isinstance(node.comparators[0], ast.Constant) and node.comparators[0].value is None \
                    and isinstance(node.ops[0], (ast.Is, ast.IsNot)):
                return located(ast.Constant(isinstance(node.ops[0], ast.IsNot)), node)  # type: ignore[return-value]
            return node

        def visit_BoolOp(self, node: ast.BoolOp) -> ast.expr:
            self.generic_visit(node)
            neutral = isinstance(node.op, ast.And)  # True in an `and`, False in an `or`: no effect
            values = [v for v in node.values if not (isinstance(v, ast.Constant) and v.value is neutral)]
            if not values:
                return located(ast.Constant(neutral), node)  # type: ignore[return-value]
            if len(values) == 1:
                return values[0]
            node.values = values
            return node

    loop.body = [Fold().visit(s) for s in loop.body]


def _replace_reads(loop: ast.For, by_id: dict[int, str]) -> None:
    for node in ast.walk(loop):
        for field, child in ast.iter_fields(node):
            if isinstance(child, ast.AST) and id(child) in by_id:
                setattr(node, field, located(ast.Name(by_id[id(child)], ast.Load()), child))
            elif isinstance(child, list):
                for i, item in enumerate(child):
                    if isinstance(item, ast.AST) and id(item) in by_id:
                        child[i] = located(ast.Name(by_id[id(item)], ast.Load()), item)


def _row_read(e: ast.expr, n: str) -> str | None:
    """`r` of `r[n]`."""
    if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name) and isinstance(e.slice, ast.Name) \
            and e.slice.id == n and isinstance(e.ctx, ast.Load):
        return e.value.id
    return None


def _skips_none(s: ast.stmt, x: ast.expr) -> bool:
    """Whether `s` is `if not x is not None: continue` or `if x is None: continue`, x a name."""
    tested = _none_tested(s)
    return isinstance(tested, ast.Name) and isinstance(x, ast.Name) and tested.id == x.id


def _none_tested(s: ast.stmt) -> ast.expr | None:
    """`e` of `if not e is not None: continue` or `if e is None: continue`."""
    if not (isinstance(s, ast.If) and not s.orelse and len(s.body) == 1 and isinstance(s.body[0], ast.Continue)):
        return None
    t = s.test
    negated = isinstance(t, ast.UnaryOp) and isinstance(t.op, ast.Not)
    if negated:
        t = t.operand  # type: ignore[attr-defined]
    if (isinstance(t, ast.Compare) and len(t.ops) == 1 and isinstance(t.ops[0], ast.IsNot if negated else ast.Is)
            and isinstance(t.comparators[0], ast.Constant) and t.comparators[0].value is None):
        return t.left
    return None


def _row_sources(before: list[ast.stmt]) -> dict[str, tuple[str, str, int | None, bool]]:
    """The row locals bound by the statements before a loop (in the same list): `r = T[k]`,
    `r = T.get(k)` or `r1, r2 = P[k]` / `P.get(k, (None, None))` -> (k, T, the index in P's
    tuples or None, by .get)."""
    out: dict[str, tuple[str, str, int | None, bool]] = {}
    for s in before:
        if not (isinstance(s, ast.Assign) and len(s.targets) == 1):
            continue
        got = _table_key(s.value)
        if got is None:
            continue
        table, key, get = got
        t = s.targets[0]
        if isinstance(t, ast.Name):
            out[t.id] = (key, table, None, get)
        elif isinstance(t, ast.Tuple) and all(isinstance(e, ast.Name) for e in t.elts):
            for i, e in enumerate(t.elts):
                out[e.id] = (key, table, i, get)  # type: ignore[attr-defined]
    return out


def _table_key(e: ast.expr) -> tuple[str, str, bool] | None:
    """(T, k, by .get) of `T[k]`, `T.get(k)` or `T.get(k, (None, ...))`."""
    if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name) and isinstance(e.slice, ast.Name):
        return e.value.id, e.slice.id, False
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "get" \
            and isinstance(e.func.value, ast.Name) and e.args and isinstance(e.args[0], ast.Name) and not e.keywords:
        if len(e.args) == 1 or (len(e.args) == 2 and isinstance(e.args[1], ast.Tuple)
                                and all(isinstance(x, ast.Constant) and x.value is None for x in e.args[1].elts)):
            return e.func.value.id, e.args[0].id, True
    return None


def _bound_in(loop: ast.For, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load) for n in ast.walk(loop))


def _joined_domain(fn: ast.FunctionDef, it: ast.expr, sources: tuple[tuple[str, int | None], ...],
                   joining: Joining, fresh: Callable[[str], str], stores: dict[str, int]) -> ast.expr | None:
    """The joined table(s) for the loop's iterable `it`: a constant, a choice between
    constants, or a local `D` bound once in the function to a constant table's entry `T[a]`:
    then `J = JT[a]` is bound right after `D`, JT holding the join for each of T's values, and
    `D`'s binding is dropped where nothing else reads it."""
    if isinstance(it, ast.IfExp):
        body = _joined_domain(fn, it.body, sources, joining, fresh, stores)
        orelse = _joined_domain(fn, it.orelse, sources, joining, fresh, stores)
        return None if body is None or orelse is None else ast.IfExp(it.test, body, orelse)
    if not isinstance(it, ast.Name):
        return None
    if it.id in joining.constants:
        name = joining.joined(it.id, sources, None)
        return None if name is None else ast.Name(name, ast.Load())
    if stores.get(it.id) != 1:
        return None
    for lst in statement_lists(fn.body):
        for at, s in enumerate(lst):
            if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
                    and s.targets[0].id == it.id:
                v = s.value
                if not (isinstance(v, ast.Subscript) and isinstance(v.value, ast.Name) and isinstance(v.slice, ast.Name)
                        and stores.get(v.slice.id, 0) <= 1):
                    return None
                name = joining.joined(None, sources, v.value.id)
                if name is None:
                    return None
                local = fresh("jn")
                lst.insert(at + 1, located(ast.Assign([ast.Name(local, ast.Store())], ast.Subscript(
                    ast.Name(name, ast.Load()), ast.Name(v.slice.id, ast.Load()), ast.Load())), s))
                stores[local] = 1
                return ast.Name(local, ast.Load())
    return None


def _iter_names(it: ast.expr) -> set[str]:
    """The locals a loop's iterable names (its domain, or the domains a choice picks from)."""
    return {n.id for n in ast.walk(it) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def drop_unread(fn: ast.FunctionDef, names: set[str]) -> None:
    """Drop the look-ups `x = T[k]`, `r1, r2 = P[k]` (or by `.get`) of `names` that nothing in
    `fn` reads any more: the rows and domains the joined loops no longer read (a look-up left
    unread by anything else stays, to fail where it did)."""
    read = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    touched = names

    def unread(s: ast.stmt) -> bool:
        if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and _table_key(s.value) is not None):
            return False
        t = s.targets[0]
        targets = [t] if isinstance(t, ast.Name) else t.elts if isinstance(t, ast.Tuple) else [None]
        return all(isinstance(e, ast.Name) and e.id not in read and e.id in touched for e in targets)

    for lst in statement_lists(fn.body):
        kept = [s for s in lst if not unread(s)]
        if len(kept) != len(lst):
            lst[:] = kept or [located(ast.Pass(), lst[0])]


def joined_pruned(fn: ast.FunctionDef, joining: Joining) -> bool:
    """`joined pruned`: a joined loop's columns whose target nothing in `fn` reads are dropped
    from its tables (`for v, x, y in J[k]:` with `v` unread walks `J2[k]`, `for x, y in`; one
    column left, the values themselves). Checkers' jump scan never reads the direction, its
    step listing the square stepped to (the move, a column of its own, says it). Exact: the
    target is bound by this loop alone and read nowhere in the function (a loop's target
    outlives it), every table the loop may walk (a joined table, a choice between them, a local
    bound once to such a choice or to a per-player table's entry, read by this loop alone) has
    entries of the target's length, and the pruned ones keep the rest in their order; the
    loop's rounds are the same."""
    loads: dict[str, int] = {}
    stores: dict[str, int] = {}
    binding: dict[str, ast.Assign] = {}
    for n in ast.walk(fn):
        if isinstance(n, ast.Name):
            into = loads if isinstance(n.ctx, ast.Load) else stores
            into[n.id] = into.get(n.id, 0) + 1
        elif isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            binding[n.targets[0].id] = n
    for a in fn.args.args:
        stores[a.arg] = stores.get(a.arg, 0) + 1
    done = False
    for lst in statement_lists(fn.body):
        for loop in [s for s in lst if isinstance(s, ast.For)]:
            done = _pruned(loop, joining, loads, stores, binding) or done
    return done


def _pruned(loop: ast.For, joining: Joining, loads: dict[str, int], stores: dict[str, int],
            binding: dict[str, ast.Assign]) -> bool:
    t = loop.target
    if not (isinstance(t, ast.Tuple) and all(isinstance(e, ast.Name) for e in t.elts)
            and isinstance(loop.iter, ast.Subscript)):
        return False
    names = [e.id for e in t.elts]  # type: ignore[attr-defined]
    if any(stores.get(x) != 1 for x in names):
        return False
    keep = tuple(c for c, x in enumerate(names) if loads.get(x, 0))
    if len(keep) == len(names):
        return False
    keep = keep or (0,)
    leaves: list[tuple[ast.AST, str, str]] = []  # (node holding the name, field, table)
    if not _table_leaves(loop.iter, "value", joining, loads, stores, binding, leaves):
        return False
    for _holder, _field, table in leaves:
        value = joining.constants.get(table)
        tables = value.values() if table in joining.by_player else [value]
        if not all(isinstance(tb, dict) and all(isinstance(e, tuple) and len(e) == len(names)
                                                 for rows in tb.values() for e in rows) for tb in tables):
            return False
    for holder, field, table in leaves:
        old = getattr(holder, field)
        setattr(holder, field, located(ast.Name(joining.pruned(table, keep), ast.Load()), old))
    kept = [t.elts[c] for c in keep]  # type: ignore[attr-defined]
    loop.target = kept[0] if len(kept) == 1 else located(ast.Tuple(kept, ast.Store()), t)
    return True


def _table_leaves(holder: ast.AST, field: str, joining: Joining, loads: dict[str, int], stores: dict[str, int],
                  binding: dict[str, ast.Assign], out: list[tuple[ast.AST, str, str]]) -> bool:
    """The joined tables `getattr(holder, field)` may be (see `joined_pruned`), each with where
    it is named, into `out`; False where it may be anything else."""
    e = getattr(holder, field)
    if isinstance(e, ast.IfExp):
        return _table_leaves(e, "body", joining, loads, stores, binding, out) and \
            _table_leaves(e, "orelse", joining, loads, stores, binding, out)
    if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name) and e.value.id in joining.by_player:
        out.append((e, "value", e.value.id))  # a per-player table's entry
        return True
    if not isinstance(e, ast.Name):
        return False
    if e.id in joining.never_none and e.id not in joining.by_player:
        out.append((holder, field, e.id))
        return True
    if stores.get(e.id) != 1 or loads.get(e.id) != 1 or e.id not in binding:
        return False  # a local: bound once, read by this loop alone
    return _table_leaves(binding[e.id], "value", joining, loads, stores, binding, out)
