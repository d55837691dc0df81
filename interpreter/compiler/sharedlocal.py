"""The shared calls of a block's listings kept in locals (`shared in block`): a pass over a
block function, after the listings are copied into it.

Why: a `play` of several actions whose listings call the same definition (shared_calls.py) has
its block open a memo around them, `G._shared = {}` in a `try` whose `finally` sets it back to
None, and the definition looks itself up there: a key tuple, a dict probe and a store on the
first call, the call itself and the probe again on the second. Checkers' `step` asks `not
can_capture(current)` and its `jump` walks `jump_paths(current)`, one call of `D_n(G, _mover)`
in each listing copied into the block; the memo around them was 3% of a random game's
instructions, and the second call 2.4% more.

Here each call of a shared definition written in the region, with `G` and arguments that keep
one value through the listings (constants, and `_cur`/`_mover` where the function binds them
only to `G.current`, which listing never changes), is kept in a local made the first time the
call is evaluated:

    D_n(G, _mover)   ->   (_sh if _sh is not MISSING else (_sh := D_n(G, _mover)))

with `_sh = MISSING` ahead of the region: the memo's own answers, in the same order, with the
same work charged (a memo hit charges none either). When nothing else the region runs can
reach a shared definition (the module's functions named in it, and what those name in turn,
none of them shared), the memo is idle and is dropped with its `try`; otherwise it stays and
serves the calls the pass cannot see. A call inside a comprehension or lambda is left as it
is (`:=` would bind there or is not allowed), and counts as a call that reaches.

An argument an explanation records, `(_x0 := _mover)` (`explained inline` writes a kept
check's `can_capture(current)` as `jump_paths(current) != []`), is the value it binds: the
call is the same as the listings' `D_n(G, _mover)`, and its local's test binds the recorded
name first, `((_x0 := _mover) is not MISSING and _sh is not MISSING)`, which holds for any
value the game has (MISSING is the engine's own marker), so the name is bound whether the
local is made there or not.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from .curcompare import CURRENT_NAMES, _is_g_current, _outside_scopes
from .pytree import located

_SCOPES = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp,
           ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def call_graph(fns: dict[str, ast.FunctionDef]) -> dict[str, set[str]]:
    """For each function of the module, the module's functions its body names (a call, or a
    function handed to a helper)."""
    return {name: {n.id for n in ast.walk(fn) if type(n) is ast.Name and n.id in fns} for name, fn in fns.items()}


def memo_users(fns: dict[str, ast.FunctionDef]) -> set[str]:
    """The functions that look themselves up in the decision's memo: `_sc = G._shared` among
    their top statements (compile.py writes it first in a shared definition)."""
    return {name for name, fn in fns.items()
            if any(type(s) is ast.Assign and len(s.targets) == 1 and type(s.targets[0]) is ast.Name
                   and s.targets[0].id == "_sc" and _is_memo(s.value) for s in fn.body)}


def reached(graph: dict[str, set[str]], start: set[str]) -> set[str]:
    """The functions `start` names, and what those name, transitively."""
    seen: set[str] = set()
    todo = [n for n in start if n in graph]
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        seen.add(n)
        todo.extend(graph[n] - seen)
    return seen


def _is_memo_open(s: ast.stmt) -> bool:
    """`G._shared = {}`"""
    return (type(s) is ast.Assign and len(s.targets) == 1 and _is_memo(s.targets[0])
            and type(s.value) is ast.Dict and not s.value.keys)


def _is_memo_close(s: ast.stmt) -> bool:
    """`G._shared = None`"""
    return (type(s) is ast.Assign and len(s.targets) == 1 and _is_memo(s.targets[0])
            and type(s.value) is ast.Constant and s.value.value is None)


def _is_memo(t: ast.expr) -> bool:
    return type(t) is ast.Attribute and t.attr == "_shared" and type(t.value) is ast.Name and t.value.id == "G"


def _current_only(fn: ast.FunctionDef) -> set[str]:
    """The names of CURRENT_NAMES that `fn` binds only by `name = G.current` (never a
    parameter, a loop target or another value)."""
    plain: set[int] = set()
    other: set[str] = {a.arg for a in ast.walk(fn.args) if type(a) is ast.arg}
    for node in ast.walk(fn):
        if type(node) is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name \
                and _is_g_current(node.value):
            plain.add(id(node.targets[0]))
    for node in ast.walk(fn):
        if type(node) is ast.Name and type(node.ctx) is not ast.Load and id(node) not in plain:
            other.add(node.id)
    return set(CURRENT_NAMES) - other


def _regions(fn: ast.FunctionDef) -> list[tuple[list[ast.stmt], int]]:
    """Each (statement list, index) where `G._shared = {}` stands right before a `try` whose
    only `finally` statement is `G._shared = None` (machine.py's memo around the listings)."""
    out = []
    for node in ast.walk(fn):
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(node, field, None)
            if not isinstance(stmts, list):
                continue
            for i, s in enumerate(stmts[:-1]):
                t = stmts[i + 1]
                if _is_memo_open(s) and type(t) is ast.Try and not t.handlers and not t.orelse \
                        and len(t.finalbody) == 1 and _is_memo_close(t.finalbody[0]):
                    out.append((stmts, i))
    return out


def shared_in_block(fn: ast.FunctionDef, shared: set[str], graph: dict[str, set[str]],
                    fresh: Callable[[str], str]) -> bool:
    """The pass, in place over the block `fn` (`shared`: the names of the shared definitions'
    functions, `graph`: `call_graph` of the module); True when it changed something."""
    if not shared:
        return False
    regions = _regions(fn)
    if not regions:
        return False
    fixed = _current_only(fn)
    changed = False
    for stmts, i in reversed(regions):  # from the last, so the earlier indices hold
        changed = _one_region(stmts, i, shared, graph, fixed, fresh) or changed
    return changed


def _one_region(stmts: list[ast.stmt], i: int, shared: set[str], graph: dict[str, set[str]],
                fixed: set[str], fresh: Callable[[str], str]) -> bool:
    opened, tried = stmts[i], stmts[i + 1]
    assert isinstance(tried, ast.Try)
    seen = _outside_scopes(tried.body)
    seen_ids = {id(n) for n in seen}
    groups: dict[str, list[ast.Call]] = {}
    for node in seen:
        if type(node) is ast.Call and type(node.func) is ast.Name and node.func.id in shared \
                and not node.keywords and node.args and type(node.args[0]) is ast.Name \
                and node.args[0].id == "G" and all(_fixed_arg(_recorded_value(a), fixed) for a in node.args[1:]):
            groups.setdefault(ast.dump(ast.Call(node.func, [_recorded_value(a) for a in node.args], [])), []).append(node)
    kept = {k: calls for k, calls in groups.items() if len(calls) > 1}
    replaced = {id(c.func) for calls in groups.values() for c in calls}
    # what else the region may run: every module function it names outside the calls above
    # (inside a comprehension or lambda too), and what the shared calls' own bodies name
    named = {n.id for n in ast.walk(tried) if type(n) is ast.Name and n.id in graph
             and not (id(n) in replaced and id(n) in seen_ids)}
    named |= {f for calls in groups.values() for c in calls for f in graph.get(c.func.id, ())}
    drop = not (reached(graph, named) & shared)
    if not kept and not drop:
        return False
    heads: list[ast.stmt] = []
    names: dict[int, str] = {}
    for calls in kept.values():
        local = fresh("sh")
        heads.append(located(ast.Assign([ast.Name(local, ast.Store())], ast.Name("MISSING", ast.Load())), opened))
        for c in calls:
            names[id(c)] = local
    if names:
        _Kept(names).visit(tried)
    if drop:
        stmts[i:i + 2] = [*heads, *tried.body]
    else:
        stmts[i + 1:i + 1] = heads
    return True


def _recorded_value(a: ast.expr) -> ast.expr:
    """An explanation's recorded argument `(_x0 := v)` is `v`; any other argument itself."""
    return a.value if type(a) is ast.NamedExpr and type(a.target) is ast.Name else a


def _fixed_arg(a: ast.expr, fixed: set[str]) -> bool:
    return type(a) is ast.Constant or (type(a) is ast.Name and a.id in fixed)


class _Kept(ast.NodeTransformer):
    """Each call named in `names` (by id) as its local, made the first time."""

    def __init__(self, names: dict[int, str]):
        self.names = names

    def visit_Call(self, node: ast.Call) -> ast.expr:
        local = self.names.get(id(node))
        if local is None:
            self.generic_visit(node)
            return node
        load = ast.Name(local, ast.Load())
        made = ast.NamedExpr(ast.Name(local, ast.Store()), node)
        test: ast.expr = ast.Compare(ast.Name(local, ast.Load()), [ast.IsNot()], [ast.Name("MISSING", ast.Load())])
        recorded = [a for a in node.args if type(a) is ast.NamedExpr]
        if recorded:  # an explanation's recorded arguments are bound whether the local is made or not
            test = ast.BoolOp(ast.And(), [*(ast.Compare(ast.NamedExpr(a.target, a.value), [ast.IsNot()],
                                                        [ast.Name("MISSING", ast.Load())]) for a in recorded), test])
        return located(ast.copy_location(ast.IfExp(test, load, made), node), node)  # type: ignore[return-value]


def memo_opened(fns: dict[str, ast.FunctionDef]) -> bool:
    """Whether some function of the module may open the decision's memo: stores into
    `G._shared` anything but None (machine.py's `G._shared = {}`), or names `_shared` otherwise
    than to read it or set it back."""
    for fn in fns.values():
        for node in ast.walk(fn):
            if type(node) is ast.Assign and any(_is_memo(t) for t in node.targets) and not _is_memo_close(node):
                return True
            if type(node) in (ast.AugAssign, ast.AnnAssign) and _is_memo(node.target):  # type: ignore[attr-defined]
                return True
            if type(node) is ast.Constant and node.value == "_shared":  # setattr(G, '_shared', ...)
                return True
    return False


def memo_unopened(fn: ast.FunctionDef) -> bool:
    """`memo never opened`, in place over a shared definition `fn` of a module where no
    function opens the decision's memo (`memo_opened` false): `G._shared` is None whenever it
    runs (the game starts with None, a clone copies it, and only generated code sets it), so its
    look-up there and its store, `_sc = G._shared` and each `if _sc is not None:` at its top
    level, are dropped. True when they were; left as it is where `_sc` or the look-up's `_key` is
    read anywhere else."""
    body = fn.body
    heads = [i for i, s in enumerate(body) if type(s) is ast.Assign and len(s.targets) == 1
             and type(s.targets[0]) is ast.Name and s.targets[0].id == "_sc" and _is_memo(s.value)]
    tests = [i for i, s in enumerate(body) if type(s) is ast.If and not s.orelse and _is_sc_set(s.test)]
    if len(heads) != 1 or not tests:
        return False
    dropped = [body[i] for i in (*heads, *tests)]
    inside = {id(n) for s in dropped for n in ast.walk(s)}
    if any(type(n) is ast.Name and n.id in ("_sc", "_key") and id(n) not in inside for n in ast.walk(fn)):
        return False
    fn.body = [s for i, s in enumerate(body) if i not in heads and i not in tests] or [ast.Pass()]
    return True


def _is_sc_set(t: ast.expr) -> bool:
    """`_sc is not None`"""
    return (type(t) is ast.Compare and type(t.left) is ast.Name and t.left.id == "_sc" and len(t.ops) == 1
            and type(t.ops[0]) is ast.IsNot and type(t.comparators[0]) is ast.Constant
            and t.comparators[0].value is None)
