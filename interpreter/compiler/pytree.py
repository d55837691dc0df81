"""Generated code as a tree: every change to emitted code is a pass over Python's `ast`.

The code generator (interpreter/compiler/codegen.py, actiongen.py, machine.py) writes each function as
text once; the program's text is then parsed into one `ast.Module`, and everything that used
to be done by rewriting text is done here on the tree, where a rule's texts are string
constants that no pass can reach and its names never were identifiers: binding what a function
reads at its top (`prologue`), copying an action's effect or listing into the block that offers
it (`expand`, from `__inline__(n)` placeholders the machine writes), a listing's rows looked up
before a loop (`hoist_rows`), and stores of `pc` that nothing reads (`drop_dead_pc`). The tree is
then compiled; its nodes keep the line numbers of the text, whose `# @S<n>` marks say which rule
statement each line belongs to (interpreter/engine/locate.py), also for a statement copied into
another function.
"""

from __future__ import annotations

import ast
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import CodeType
from typing import Any

PLACEHOLDER = "__inline__"


@dataclass
class Inline:
    """What a placeholder `__inline__(n)` stands for: the body of function `source`, changed by
    `kind` ("effect": an action's effect played in place; "enum": its listing, into `legal`;
    "any": its listing stopping at the first move)."""

    kind: str  # also "checks": an explain function's body, its result in `_ck`; "procedure" and
    # "tail": a procedure's body (or its quiet tail form) for its call (CodeGen.procedure_copy)
    source: str
    lists: tuple[str, ...] = ()  # "any": the lists whose `append` means a move was found
    args: tuple[str, ...] = ()  # "procedure", "tail": the call's arguments, names or literals


# CPython 3.11 converts between `ast` objects and its own trees with one recursion counter per
# interpreter, not per thread: a conversion that runs while another thread converts (ours, or
# any library's in the same process, such as a Dask worker's) can end in the spurious
# "SystemError: AST constructor recursion depth mismatch" (python/cpython#106905). Ours take
# turns (AST_LOCK), and one that still meets the error is simply done again: the conversion
# has no side effects, and the error says nothing about the tree.
AST_LOCK = threading.Lock()
_TRIES = 5


def _converted(convert: Callable[[], Any]) -> Any:
    for attempt in range(_TRIES):
        try:
            with AST_LOCK:
                return convert()
        except SystemError as err:
            if "recursion depth mismatch" not in str(err) or attempt == _TRIES - 1:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def parse(text: str) -> ast.Module:
    return _converted(lambda: ast.parse(text, type_comments=False))


def compile_module(module: ast.Module, filename: str) -> CodeType:
    """`compile()` of a generated module (see AST_LOCK)."""
    return _converted(lambda: compile(module, filename, "exec"))


def functions(module: ast.Module) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in module.body if isinstance(n, ast.FunctionDef)}


def names_read(node: ast.AST | list[ast.stmt]) -> set[str]:
    """Every name a piece of code reads or writes (string constants are not names)."""
    out: set[str] = set()
    stack: list = list(node) if isinstance(node, list) else [node]
    while stack:  # ast.walk, without its generic per-node generators: compiling is timed
        n = stack.pop()
        if not isinstance(n, ast.AST):  # a list's plain items: a Global's names, a None default
            continue
        if n.__class__ is ast.Name:
            out.add(n.id)
            continue
        for f in n._fields:
            v = getattr(n, f, None)
            if v.__class__ is list:
                stack.extend(v)
            elif isinstance(v, ast.AST):
                stack.append(v)
    return out


def renamed(stmts: list[ast.stmt], mapping: dict[str, str]) -> list[ast.stmt]:
    """A copy of `stmts` with the names in `mapping` renamed (copy.deepcopy, without its
    memo and its dispatch: a listing is copied into every block that offers it)."""
    return [_clone(s, mapping) for s in stmts]


_SHARED = (ast.expr_context, ast.boolop, ast.operator, ast.unaryop, ast.cmpop)  # stateless singletons


def _clone(node: ast.AST, mapping: dict[str, str]) -> ast.AST:
    if isinstance(node, _SHARED):
        return node
    new = node.__class__.__new__(node.__class__)
    d = new.__dict__
    for k, v in node.__dict__.items():
        if isinstance(v, ast.AST):
            v = _clone(v, mapping)
        elif v.__class__ is list:
            v = [_clone(x, mapping) if isinstance(x, ast.AST) else x for x in v]
        d[k] = v
    if node.__class__ is ast.Name and node.id in mapping:
        d["id"] = mapping[node.id]
    return new


def statement_lists(stmts: list[ast.stmt]) -> Iterator[list[ast.stmt]]:
    """`stmts` and every statement list nested in it (bodies, else parts, handlers)."""
    yield stmts
    for s in stmts:
        for name in ("body", "orelse", "finalbody"):
            inner = getattr(s, name, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                yield from statement_lists(inner)
        for h in getattr(s, "handlers", ()):
            yield from statement_lists(h.body)


def _outside_loops(stmts: list[ast.stmt]) -> Iterator[list[ast.stmt]]:
    """The statement lists of `stmts` not inside a loop (a `break` there leaves an outer one)."""
    yield stmts
    for s in stmts:
        if isinstance(s, ast.If):
            yield from _outside_loops(s.body)
            yield from _outside_loops(s.orelse)
        elif isinstance(s, ast.Try):
            yield from _outside_loops(s.body)
            for h in s.handlers:
                yield from _outside_loops(h.body)


def has_bare_return(stmts: list[ast.stmt]) -> bool:
    return any(isinstance(s, ast.Return) and s.value is None for lst in _outside_loops(stmts) for s in lst)


def returns_to_breaks(stmts: list[ast.stmt]) -> None:
    """In place: a bare `return` outside the loops of `stmts` becomes `break` (the statements
    then run inside a one-pass `while True`)."""
    for lst in _outside_loops(stmts):
        for i, s in enumerate(lst):
            if isinstance(s, ast.Return) and s.value is None:
                lst[i] = ast.copy_location(ast.Break(), s)


def value_returns_to_breaks(stmts: list[ast.stmt], name: str) -> None:
    """In place: `return x` outside the loops of `stmts` becomes `name = x` and `break` (just
    `break` for `return name`): a function's result, its body run inside a one-pass `while True`."""
    for lst in _outside_loops(stmts):
        i = 0
        while i < len(lst):
            s = lst[i]
            if isinstance(s, ast.Return) and s.value is not None:
                brk = ast.copy_location(ast.Break(), s)
                if isinstance(s.value, ast.Name) and s.value.id == name:
                    lst[i:i + 1] = [brk]
                else:
                    lst[i:i + 1] = [located(ast.Assign([ast.Name(name, ast.Store())], s.value), s), brk]
                    i += 1
            i += 1


def drop_kept_checks(stmts: list[ast.stmt]) -> None:
    """In place: `x = G._xpre[name] = ...` becomes `x = ...`. A traced listing keeps the checks
    of its requires that need no parameter for the move it offers (actiongen._shared_checks);
    `possible(action, player)` asks the same search for another player, whose values must not
    replace the ones the offered moves are explained with."""
    for lst in statement_lists(stmts):
        for s in lst:
            if isinstance(s, ast.Assign) and len(s.targets) > 1:
                s.targets = [t for t in s.targets if not (
                    isinstance(t, ast.Subscript) and isinstance(t.value, ast.Attribute) and t.value.attr == "_xpre")]


def _is_append(s: ast.stmt, lists: tuple[str, ...]) -> bool:
    return (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call)
            and isinstance(s.value.func, ast.Attribute) and s.value.func.attr in ("append", "extend")
            and isinstance(s.value.func.value, ast.Name) and s.value.func.value.id in lists)


def appends_to_returns(stmts: list[ast.stmt], lists: tuple[str, ...]) -> None:
    """In place: `out.append(move)` (or a row list's append, or `out.extend(moves)` of a row
    known not to be empty) becomes `return True`: the first legal move answers whether there
    is one."""
    for lst in statement_lists(stmts):
        for i, s in enumerate(lst):
            if _is_append(s, lists):
                lst[i] = located(ast.Return(ast.Constant(True)), s)


def drop_double_not(fn: ast.FunctionDef) -> None:
    """`if not not x:` (an `or`'s first part tested where the part is a `not`, a check of a
    `not` by `if not ...`) written `if x:`: the same test wherever only truth is asked, and
    what a reader of the generated code expects."""
    for node in ast.walk(fn):
        if isinstance(node, (ast.If, ast.While, ast.IfExp)):
            node.test = _without_double_not(node.test)
        elif isinstance(node, ast.comprehension):
            node.ifs = [_without_double_not(t) for t in node.ifs]


def direct_possible(fn: ast.FunctionDef, any_fns: dict[str, str]) -> None:
    """`c_possible(G, 'a', None)` (`possible(a)` for the current player) as a call of the
    action's any-move search, `AA_n(G)`: what `library.game_possible` calls, without its
    call, the look-up of the action and the save and restore of a current player it does not
    change (Root's Marquise asks `possible` of five actions at every step of her turn)."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "c_possible" \
                and len(node.args) == 3 and isinstance(node.args[1], ast.Constant) \
                and node.args[1].value in any_fns and isinstance(node.args[2], ast.Constant) \
                and node.args[2].value is None and not node.keywords:
            node.func = located(ast.Name(any_fns[node.args[1].value], ast.Load()), node.func)
            node.args = node.args[:1]


def _without_double_not(test: ast.expr) -> ast.expr:
    while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) \
            and isinstance(test.operand, ast.UnaryOp) and isinstance(test.operand.op, ast.Not):
        test = test.operand.operand
    return test


def _pc_store(s: ast.stmt) -> bool:
    return (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
            and s.targets[0].id == "pc" and isinstance(s.value, ast.Constant))


def drop_dead_pc(fn: ast.FunctionDef) -> None:
    """In place: `pc = k` followed at once by another `pc = j` is dropped (a move's round trip
    passes through several ops' ends): nothing between reads it."""
    for lst in statement_lists(fn.body):
        lst[:] = [s for i, s in enumerate(lst) if not (_pc_store(s) and i + 1 < len(lst) and _pc_store(lst[i + 1]))]


def hoist_rows(fn: ast.FunctionDef, params: int, fresh: Callable[[str], str], complete: set[str]) -> bool:
    """Inside the loop over parameter i, a table indexed first by an outer parameter
    (`_T13[p0][p1]`: breakthrough's neighbour table; `_M14[p0][p1]`: the moves) has the same row
    in every round: it is looked up once, before the loop. Only `complete` tables qualify (made
    for every value of their arguments' types, so every value of the parameter is a key).
    In place; True when something moved."""
    moved = False
    for i in range(params - 1, 0, -1):
        found = _loop_over(fn.body, f"p{i}")
        if found is None:
            continue
        lst, at, loop = found
        outer = {f"p{j}" for j in range(i)}
        rows: dict[tuple[str, str], str] = {}
        for node in ast.walk(loop):  # `table[param][...]`: the row of an outer parameter, indexed again
            key = _row_of(node.value, outer, complete) if isinstance(node, ast.Subscript) else None
            if key is not None and key not in rows:
                rows[key] = fresh("row")
        if not rows:
            continue

        _Rows(rows, outer, complete).visit(loop)
        head = [_assign(row, ast.Subscript(ast.Name(table, ast.Load()), ast.Name(param, ast.Load()), ast.Load()), loop)
                for (table, param), row in rows.items()]
        lst[at:at] = head
        moved = True
    return moved


def loop_rows(fn: ast.FunctionDef, fresh: Callable[[str], str], complete: set[str]) -> bool:
    """Inside a loop nested in a `for x in ...` loop, a complete table indexed first by `x`
    (`_T13[s][d]`: checkers' jump table, per own piece and direction) has the same row in every
    round of the inner loop: it is looked up once per round of the outer one, right before the
    inner loop, as hoist_rows does for an action's parameters. `x` must be bound by its `for`
    alone. The row is taken with `.get`: the inner loop may run no round, or look the row up
    only behind a test (`x != none`), so the early look-up must not fail where the late one
    would not have run; where it does run, `x` is a key (the table has every value of its type).
    In place; True when something moved."""
    moved = False
    bound: set[str] | None = None  # the names the function binds, worked out when first needed
    for lst in list(statement_lists(fn.body)):
        for outer in [s for s in lst if isinstance(s, ast.For) and isinstance(s.target, ast.Name)]:
            x = outer.target.id
            if x in _stored(outer.body):
                continue
            for body in list(statement_lists(outer.body)):
                at = 0
                while at < len(body):
                    inner = body[at]
                    at += 1
                    if not isinstance(inner, ast.For):
                        continue
                    rows: dict[tuple[str, str], str] = {}
                    for part in inner.body:
                        for node in ast.walk(part):
                            key = _row_of(node.value, {x}, complete) if isinstance(node, ast.Subscript) else None
                            if key is None or key in rows:
                                continue
                            if bound is None:
                                bound = _stored(fn.body)
                            if key[0] not in bound:
                                rows[key] = fresh("row")
                    if not rows:
                        continue
                    rower = _Rows(rows, {x}, complete)
                    inner.body = [rower.visit(part) for part in inner.body]
                    head = [_assign(row, located(ast.Call(ast.Attribute(ast.Name(table, ast.Load()), "get", ast.Load()),
                                                          [ast.Name(param, ast.Load())], []), inner), inner)
                            for (table, param), row in rows.items()]
                    body[at - 1:at - 1] = head
                    at += len(head)
                    moved = True
    return moved


def _stored(stmts: list[ast.stmt]) -> set[str]:
    """The names `stmts` bind (assignments, loop targets, `:=`, `del`)."""
    return {n.id for s in stmts for n in ast.walk(s) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}


class _Rows(ast.NodeTransformer):
    """`table[param][...]` -> `row[...]` for the rows looked up before the loop."""

    def __init__(self, rows: dict[tuple[str, str], str], outer: set[str], complete: set[str]):
        self.rows, self.outer, self.complete = rows, outer, complete

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:  # noqa: N802 - the visitor's protocol
        self.generic_visit(node)
        key = _row_of(node.value, self.outer, self.complete)
        if key is not None and key in self.rows:
            node.value = ast.copy_location(ast.Name(self.rows[key], ast.Load()), node.value)
        return node


def _row_of(node: ast.AST, outer: set[str], complete: set[str]) -> tuple[str, str] | None:
    """`(table, param)` when `node` is `table[param]` of a complete table and an outer parameter."""
    if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in complete
            and isinstance(node.slice, ast.Name) and node.slice.id in outer):
        return node.value.id, node.slice.id
    return None


def _loop_over(stmts: list[ast.stmt], var: str) -> tuple[list[ast.stmt], int, ast.For] | None:
    """The first `for var in ...` (or `for var, x in ...`) in `stmts`, with its list and place."""
    for lst in statement_lists(stmts):
        for k, s in enumerate(lst):
            if isinstance(s, ast.For) and var in names_read(s.target):
                return lst, k, s
    return None


def _assign(name: str, value: ast.expr, where: ast.AST) -> ast.Assign:
    return located(ast.Assign([ast.Name(name, ast.Store())], value), where)


def located(node: ast.AST, where: ast.AST) -> ast.AST:
    """`node` and the nodes in it placed at `where`'s line (ast.fix_missing_locations for
    one new statement, not the whole program)."""
    for n in ast.walk(node):
        if "lineno" in n._attributes and not hasattr(n, "lineno"):
            ast.copy_location(n, where)
    return node


def binding(name: str, obj: str, key: object = None, attr: str | None = None) -> ast.Assign:
    """`name = obj.attr` or `name = obj[key]`: a binding of the engine's own, as a node (its
    key, a user's name, is a constant)."""
    base = ast.Name(obj, ast.Load())
    value = ast.Attribute(base, attr, ast.Load()) if attr else ast.Subscript(base, ast.Constant(key), ast.Load())
    return ast.Assign([ast.Name(name, ast.Store())], value)


def expand(fn: ast.FunctionDef, inlines: list[Inline], sources: dict[str, ast.FunctionDef],
           prepare: Callable[[Inline, ast.FunctionDef], list[ast.stmt]]) -> None:
    """In place: each `__inline__(n)` statement of `fn` becomes the statements `prepare` makes
    of the body of `inlines[n].source` (prepare copies it)."""
    for lst in list(statement_lists(fn.body)):
        i = 0
        while i < len(lst):
            s = lst[i]
            n = _placeholder(s)
            if n is None:
                i += 1
                continue
            spec = inlines[n]
            body = prepare(spec, sources[spec.source]) or [located(ast.Pass(), s)]
            lst[i:i + 1] = body
            i += len(body)


def _placeholder(s: ast.stmt) -> int | None:
    if (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Name)
            and s.value.func.id == PLACEHOLDER):
        return s.value.args[0].value
    return None
