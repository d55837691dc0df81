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
import copy
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


def name_uses(fn: ast.AST) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """How often each name is stored, loaded and iterated as a loop's (or comprehension's)
    whole iterable in `fn`: what a pass that rewrites a local's value asks first (perplayer.py
    `by player`, actiongen `distinct_if_any`)."""
    stores: dict[str, int] = {}
    loads: dict[str, int] = {}
    iterated: dict[str, int] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Name):
            counts = loads if isinstance(node.ctx, ast.Load) else stores
            counts[node.id] = counts.get(node.id, 0) + 1
        if isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.iter, ast.Name):
            iterated[node.iter.id] = iterated.get(node.iter.id, 0) + 1
    return stores, loads, iterated


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


def check_to_verdict(stmts: list[ast.stmt], params: int, failing: list[ast.stmt]) -> list[ast.stmt]:
    """A check function's body (`AC_n`: `-1` when legal, `k` for the first failing require,
    `-(i + 2)` for argument `i` outside its domain) for a move known to be in its domains (it
    was offered): its leading domain tests dropped, `return -1` as `break`, any other `return`
    as `failing` then `break`; the statements then run inside a one-pass `while True`."""
    names = {f"p{i}" for i in range(params)}
    while stmts and isinstance(s := stmts[0], ast.If) and not s.orelse and isinstance(s.test, ast.Compare) \
            and isinstance(s.test.left, ast.Name) and s.test.left.id in names \
            and [type(op) for op in s.test.ops] == [ast.NotIn] and len(s.body) == 1 \
            and isinstance(s.body[0], ast.Return) and _negative(s.body[0].value):
        stmts = stmts[1:]
    for lst in _outside_loops(stmts):
        i = 0
        while i < len(lst):
            s = lst[i]
            if isinstance(s, ast.Return):
                brk = ast.copy_location(ast.Break(), s)
                legal = _constant(s.value) == -1
                new = [brk] if legal else [*(located(copy.deepcopy(f), s) for f in failing), brk]
                lst[i:i + 1] = new
                i += len(new) - 1
            i += 1
    return stmts


def _constant(e: ast.expr | None) -> object:
    """The number `e` writes (`-1` is a minus and a constant before folding), else None."""
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub) and isinstance(e.operand, ast.Constant) \
            and type(e.operand.value) is int:
        return -e.operand.value
    return e.value if isinstance(e, ast.Constant) and type(e.value) is int else None


def _negative(e: ast.expr | None) -> bool:
    v = _constant(e)
    return isinstance(v, int) and v < 0


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


def filtered_as_found(stmts: list[ast.stmt]) -> bool:
    """In place, in an any-move search (`AA_n`, after `appends_to_returns`): a parameter's values
    filtered once (actiongen `filter_once`: `if ff is _NOT_YET: ff = []; for p in D: ...;
    ff.append(p)`, then `for p in ff: BODY`) are searched as they are found the first time,
    BODY right after each append, so the search stops at the first move without filtering the
    values after it (`filtered as found`); later rounds walk the kept list as before. The
    filter's tests cannot fail and change nothing, so only the work charged differs, as it
    does for `filter_once` itself; the list is complete whenever a round ends without a
    move, since BODY has no `break` of its own (checked), and BODY reads none of the filter's
    locals (checked: it would see this round's values where it saw the last round's). The
    plain statements between the
    two loops (the rows hoisted ahead of the walk) come first. True when something changed."""
    changed = False
    for lst in list(statement_lists(stmts)):
        i = 0
        while i < len(lst):
            found = _filter_and_walk(lst, i)
            if found is None:
                i += 1
                continue
            j, kept, loop, walk = found
            between = lst[i + 1:j]
            loop.body = loop.body + renamed(walk.body, {})
            lst[i:j + 1] = [*between, lst[i]]
            lst[i + len(between)].orelse = [walk]
            changed = True
            i += len(between) + 1
    return changed


def _filter_and_walk(lst: list[ast.stmt], i: int) -> tuple[int, str, ast.For, ast.For] | None:
    """`(j, ff, filter loop, walk)` when `lst[i]` fills `ff` once and `lst[j]` walks it, with
    only plain assignments between that read neither the list nor the parameter."""
    s = lst[i]
    if not (isinstance(s, ast.If) and not s.orelse and isinstance(s.test, ast.Compare)
            and isinstance(s.test.left, ast.Name) and len(s.test.ops) == 1 and isinstance(s.test.ops[0], ast.Is)
            and isinstance(s.test.comparators[0], ast.Name) and s.test.comparators[0].id == "_NOT_YET"
            and len(s.body) == 2 and isinstance(s.body[1], ast.For)):
        return None
    kept, loop = s.test.left.id, s.body[1]
    first = s.body[0]
    if not (isinstance(first, ast.Assign) and len(first.targets) == 1 and isinstance(first.targets[0], ast.Name)
            and first.targets[0].id == kept and isinstance(first.value, ast.List) and not first.value.elts):
        return None
    if not (isinstance(loop.target, ast.Name) and not loop.orelse and loop.body):
        return None
    param, last = loop.target.id, loop.body[-1]
    if not (isinstance(last, ast.Expr) and isinstance(last.value, ast.Call) and isinstance(last.value.func, ast.Attribute)
            and last.value.func.attr == "append" and isinstance(last.value.func.value, ast.Name)
            and last.value.func.value.id == kept and len(last.value.args) == 1
            and isinstance(last.value.args[0], ast.Name) and last.value.args[0].id == param):
        return None
    stored = _stored([s])
    for j in range(i + 1, len(lst)):
        t = lst[j]
        if isinstance(t, ast.For):
            if not (isinstance(t.target, ast.Name) and t.target.id == param and isinstance(t.iter, ast.Name)
                    and t.iter.id == kept and not t.orelse):
                return None
            if kept in _stored(t.body) or any(isinstance(b, ast.Break) for lst2 in _outside_loops(t.body) for b in lst2):
                return None
            if names_read(t.body) & (stored - {param}):  # it would read the filter's values of this round
                return None
            return j, kept, loop, t
        if not (isinstance(t, ast.Assign) and all(isinstance(x, ast.Name) for x in t.targets)
                and not names_read(t) & stored):
            return None
    return None


def joined_walked(fn: ast.FunctionDef, fresh: Callable[[str], str]) -> bool:
    """In place: a `for` whose iterable is `_joined(G, a, b, span)` — or a conditional with
    such a join as a branch (Root's `links(from)`: `sorted(tunnels) if from == burrow else
    _joined(G, adjacent, [burrow] if from in tunnels else [], span)`) — works the list out as
    statements right before the loop, as CodeGen.joined writes a join: `[*a, *b]`, then its
    length charged to the work budget and `G.out_of_work(span)` when it runs out, exactly what
    runtime._joined does, without its call (`joined walked`). The conditional becomes an `if`
    that evaluates its test once and one branch, as before. True when something changed."""
    changed = False
    for lst in list(statement_lists(fn.body)):
        i = 0
        while i < len(lst):
            s = lst[i]
            if isinstance(s, ast.For) and _has_join(s.iter):
                local = fresh("jw")
                head = _join_statements(s.iter, local)
                s.iter = located(ast.Name(local, ast.Load()), s.iter)
                head = [located(h, s) for h in head]
                lst[i:i] = head
                i += len(head)
                changed = True
            i += 1
    return changed


def _is_join(e: ast.expr) -> bool:
    return isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "_joined" \
        and len(e.args) == 4 and not e.keywords and isinstance(e.args[0], ast.Name) and e.args[0].id == "G" \
        and not any(isinstance(a, ast.Starred) for a in e.args)


def _has_join(e: ast.expr) -> bool:
    if _is_join(e):
        return True
    return isinstance(e, ast.IfExp) and (_has_join(e.body) or _has_join(e.orelse))


def _join_statements(e: ast.expr, local: str) -> list[ast.stmt]:
    """Statements that bind `local` to `e`'s value, joins written out (`joined_walked`)."""
    if _is_join(e):
        _g, a, b, span = e.args
        work = ast.Attribute(ast.Name("G", ast.Load()), "work", ast.Load())
        return [
            ast.Assign([ast.Name(local, ast.Store())], ast.List([ast.Starred(a, ast.Load()), ast.Starred(b, ast.Load())], ast.Load())),
            ast.AugAssign(ast.Attribute(ast.Name("G", ast.Load()), "work", ast.Store()), ast.Sub(),
                          ast.Call(ast.Name("len", ast.Load()), [ast.Name(local, ast.Load())], [])),
            ast.If(ast.Compare(work, [ast.Lt()], [ast.Constant(0)]),
                   [ast.Expr(ast.Call(ast.Attribute(ast.Name("G", ast.Load()), "out_of_work", ast.Load()), [span], []))], []),
        ]
    if isinstance(e, ast.IfExp) and _has_join(e):
        return [ast.If(e.test, _join_statements(e.body, local), _join_statements(e.orelse, local))]
    return [ast.Assign([ast.Name(local, ast.Store())], e)]


def fixed_rows(fn: ast.FunctionDef, fresh: Callable[[str], str], keys: dict[str, tuple[frozenset, bool]]) -> bool:
    """In place, in a function that changes no state (a listing, before its copies; a
    definition, an aggregate's helper, an invariant): the row of a state map under a fixed
    key, `_sv0['Marquise']` or `_sv0[_cur]`, indexed again inside a loop (`_sv0['Marquise'][c]`
    in a sum over clearings), is looked up once at the function's top, `_fr = _sv0['Marquise']`,
    and read from there (`fixed rows`). The map is bound once per function (the prologue) and
    the key a value of its key type that every game has (`keys`: a map's named values, its
    fixed players, whether `_cur` is one): a state map keyed by a type of named values has an
    entry for each, so the early look-up cannot fail; nothing changes the map while the
    function runs, so every later look-up would give the same row. True when something
    changed."""
    if not keys:
        return False
    stored = _stored(fn.body)
    rows: dict[tuple[str, object], str] = {}
    for loop in ast.walk(fn):
        if not isinstance(loop, (ast.For, ast.While)):
            continue
        for part in [*loop.body, *loop.orelse]:
            for node in ast.walk(part):
                if isinstance(node, (ast.Subscript, ast.Attribute)) and not (
                        isinstance(node, ast.Attribute) and node.attr != "get"):
                    key = _fixed_row(node.value, stored, keys)
                    if key is not None and key not in rows:
                        rows[key] = fresh("fr")
    if not rows:
        return False
    _FixedRows(rows, stored, keys).visit(fn)
    head = []
    for (table, key), local in rows.items():
        k = ast.Name(key[1], ast.Load()) if key[0] == "name" else ast.Constant(key[1])
        head.append(located(ast.Assign([ast.Name(local, ast.Store())], ast.Subscript(ast.Name(table, ast.Load()), k, ast.Load())), fn.body[0]))
    fn.body[:0] = head
    return True


def _fixed_row(node: ast.AST, stored: set[str], keys: dict[str, tuple[frozenset, bool]]) -> tuple[str, tuple[str, str]] | None:
    """`(map, key)` when `node` is `_svN[K]`, the map not bound in the function and K one of
    its keys every game has: a text constant among them, or `_cur` (not bound in the function)."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name)
            and node.value.id in keys and node.value.id not in stored):
        return None
    s, (texts, cur) = node.slice, keys[node.value.id]
    if isinstance(s, ast.Constant) and isinstance(s.value, str) and s.value in texts:
        return node.value.id, ("text", s.value)
    if cur and isinstance(s, ast.Name) and s.id == "_cur" and "_cur" not in stored:
        return node.value.id, ("name", "_cur")
    return None


class _FixedRows(ast.NodeTransformer):
    """`_svN[K]` -> `_fr` wherever it is read, for the rows `fixed_rows` looks up at the top."""

    def __init__(self, rows: dict, stored: set[str], keys: dict[str, tuple[frozenset, bool]]):
        self.rows, self.stored, self.keys = rows, stored, keys

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:  # noqa: N802 - the visitor's protocol
        key = _fixed_row(node, self.stored, self.keys)
        if key is not None and key in self.rows:
            return ast.copy_location(ast.Name(self.rows[key], ast.Load()), node)
        self.generic_visit(node)
        return node


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


def returns_after(fn: ast.FunctionDef, after: str, more: tuple[str, int] | None = None) -> None:
    """In place: in a fused `apply` (machine.py `fused_apply`), each `return True` / `return
    False` of the block lines copied into it (waiting at a decision or done; the block left)
    becomes `return after(G, ...)`, which runs the game on as the game class's `apply` does
    after the block returned that; `more` (a local's name and a constant) is passed after it
    (`decision kept`: the frame and the op it stayed at)."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Constant) and type(node.value.value) is bool:
            extra: list[ast.expr] = [] if more is None else [ast.Name(more[0], ast.Load()), ast.Constant(more[1])]
            call = ast.Call(ast.Name(after, ast.Load()), [ast.Name("G", ast.Load()), node.value, *extra], [])
            for part in (call, call.func, call.args[0], *extra):
                ast.copy_location(part, node.value)
            node.value = call


def drop_dead_pc(fn: ast.FunctionDef) -> None:
    """In place: `pc = k` followed at once by another `pc = j` is dropped (a move's round trip
    passes through several ops' ends): nothing between reads it."""
    for lst in statement_lists(fn.body):
        lst[:] = [s for i, s in enumerate(lst) if not (_pc_store(s) and i + 1 < len(lst) and _pc_store(lst[i + 1]))]


def hoist_rows(fn: ast.FunctionDef, params: int, fresh: Callable[[str], str], complete: set[str],
               chains: bool = False) -> bool:
    """Inside the loop over parameter i, a table indexed first by an outer parameter
    (`_T13[p0][p1]`: breakthrough's neighbour table; `_M14[p0][p1]`: the moves) has the same row
    in every round: it is looked up once, before the loop. Only `complete` tables qualify (made
    for every value of their arguments' types, so every value of the parameter is a key).
    With `chains` (`rows of rows`), a row indexed by several outer parameters, `_M7[p0][p1]`
    inside the loop over p2, is looked up whole before that loop, and a row read by `.get`
    too (a partial move table's last level, `_M7[p0][p1].get(p2)`); the loop over p1 then
    takes `_M7[p0]` out in turn. In place; True when something moved."""
    moved = False
    for i in range(params - 1, 0, -1):
        found = _loop_over(fn.body, f"p{i}")
        if found is None:
            continue
        lst, at, loop = found
        outer = {f"p{j}" for j in range(i)}
        outer -= _stored([loop])  # not one the loop binds itself (`for p1, p2 in rows:` of keyed rows)
        rows: dict[tuple[str, tuple[str, ...]], str] = {}
        _rows_in(loop, outer, complete, chains, rows, fresh)
        if not rows:
            continue

        _Rows(rows, outer, complete, chains).visit(loop)
        head = []
        for (table, keys), row in rows.items():
            value: ast.expr = ast.Name(table, ast.Load())
            for k in keys:
                value = ast.Subscript(value, ast.Name(k, ast.Load()), ast.Load())
            head.append(_assign(row, value, loop))
        lst[at:at] = head
        moved = True
    return moved


def _rows_in(node: ast.AST, outer: set[str], complete: set[str], chains: bool,
             rows: dict[tuple[str, tuple[str, ...]], str], fresh: Callable[[str], str]) -> None:
    """The rows `node` indexes again (`table[param][...]`: the row of an outer parameter) into
    `rows`, each with a fresh name; not the shorter rows inside one found (`_Rows` replaces
    the longest)."""
    key = _indexed_row(node, outer, complete, chains)
    if key is not None:
        if key not in rows:
            rows[key] = fresh("row")
        if isinstance(node, ast.Subscript):
            _rows_in(node.slice, outer, complete, chains, rows, fresh)
        return
    for child in ast.iter_child_nodes(node):
        _rows_in(child, outer, complete, chains, rows, fresh)


def _indexed_row(node: ast.AST, outer: set[str], complete: set[str], chains: bool) -> tuple[str, tuple[str, ...]] | None:
    """The row `node` indexes again (`row[x]`; with `chains`, also `row.get(x)`), when it is a
    row of a complete table by outer parameters (`_row_of`); with `chains` the longest such
    row, so `_M7[p0][p1][p2]` in the loop over p2 gives `(_M7, (p0, p1))`."""
    if isinstance(node, ast.Subscript) or (chains and isinstance(node, ast.Attribute) and node.attr == "get"):
        return _row_of(node.value, outer, complete, chains)
    return None


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
                    rows: dict[tuple[str, tuple[str, ...]], str] = {}
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
                            for (table, (param,)), row in rows.items()]
                    body[at - 1:at - 1] = head
                    at += len(head)
                    moved = True
    return moved


def _stored(stmts: list[ast.stmt]) -> set[str]:
    """The names `stmts` bind (assignments, loop targets, `:=`, `del`)."""
    return {n.id for s in stmts for n in ast.walk(s) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}


class _Rows(ast.NodeTransformer):
    """`table[param][...]` -> `row[...]` for the rows looked up before the loop."""

    def __init__(self, rows: dict[tuple[str, tuple[str, ...]], str], outer: set[str], complete: set[str],
                 chains: bool = False):
        self.rows, self.outer, self.complete, self.chains = rows, outer, complete, chains

    def _replaced(self, node: ast.Subscript | ast.Attribute) -> ast.AST:
        key = _row_of(node.value, self.outer, self.complete, self.chains)
        if key is not None and key in self.rows:  # (the longest row first: its parts are not visited)
            node.value = ast.copy_location(ast.Name(self.rows[key], ast.Load()), node.value)
            if isinstance(node, ast.Subscript):
                node.slice = self.visit(node.slice)
            return node
        self.generic_visit(node)
        return node

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:  # noqa: N802 - the visitor's protocol
        return self._replaced(node)

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:  # noqa: N802 - the visitor's protocol
        if self.chains and node.attr == "get":
            return self._replaced(node)
        self.generic_visit(node)
        return node


def _row_of(node: ast.AST, outer: set[str], complete: set[str], chains: bool = False) -> tuple[str, tuple[str, ...]] | None:
    """`(table, (param,))` when `node` is `table[param]` of a complete table and an outer
    parameter; with `chains`, `(table, (p0, p1, ...))` for `table[p0][p1]...`, all outer."""
    keys: list[str] = []
    while isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Name) and node.slice.id in outer:
        keys.append(node.slice.id)
        node = node.value
        if not chains:
            break
    if keys and isinstance(node, ast.Name) and node.id in complete:
        return node.id, tuple(reversed(keys))
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


def statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of a statement list and of the lists nested in it, not the expressions:
    a pass's cheap first look at a function (its expressions are most of its nodes)."""
    for s in body:
        yield s
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(s, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                yield from statements(inner)
        for handler in getattr(s, "handlers", ()):
            yield from statements(handler.body)
