"""`memo dropped` (docs/architecture.md §5): a listing's memo of a definition's calls
(memo.py, `CodeGen.remembered`) that can never be hit, made straight.

A listing remembers a definition's call by its arguments in a table of its own, made empty at
its top: `T[k] if k in T else T.setdefault(k, call)`. Where that look-up is the table's only
use, keyed by the variable of a loop at the function's top level over a constant of distinct
values, and no loop lies between the two, each key is looked up once per run of the listing:
every look-up misses, and the table costs a test, a method call and an insertion per value and
a dict per listing for nothing (Root's `take_move` and `cat_move` key `rules(current, from)` by
`from`, the outer loop over the clearings: some 580 look-ups a game). The look-up becomes the
call, and the table's making goes. The call is made exactly as often as before, with the same
arguments in the same order: the same values, the same work charged.
"""

from __future__ import annotations

import ast
from typing import Any

_LOOPS = (ast.For, ast.While, ast.AsyncFor, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp,
          ast.Lambda, ast.FunctionDef)


def _memo_lookup(node: ast.AST) -> tuple[str, str, ast.expr] | None:
    """`(table, key, call)` when `node` is `T[k] if k in T else T.setdefault(k, call)` with `T`
    and `k` plain names."""
    if not isinstance(node, ast.IfExp):
        return None
    test, body, other = node.test, node.body, node.orelse
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.In)
            and isinstance(test.left, ast.Name) and isinstance(test.comparators[0], ast.Name)):
        return None
    key, table = test.left.id, test.comparators[0].id
    if not (isinstance(body, ast.Subscript) and isinstance(body.value, ast.Name) and body.value.id == table
            and isinstance(body.slice, ast.Name) and body.slice.id == key):
        return None
    if not (isinstance(other, ast.Call) and isinstance(other.func, ast.Attribute) and other.func.attr == "setdefault"
            and isinstance(other.func.value, ast.Name) and other.func.value.id == table and not other.keywords
            and len(other.args) == 2 and isinstance(other.args[0], ast.Name) and other.args[0].id == key):
        return None
    return table, key, other.args[1]


def _bound(stmts: list[ast.stmt]) -> set[str]:
    """The names `stmts` bind (assignments, loop targets, `:=`, `del`)."""
    return {n.id for s in stmts for n in ast.walk(s) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}


def _distinct_constant(it: ast.expr, constants: dict[str, Any]) -> bool:
    """Whether `it` names a program constant that is a list or tuple of distinct hashable values."""
    if not isinstance(it, ast.Name) or it.id not in constants:
        return False
    value = constants[it.id]
    if type(value) not in (list, tuple):
        return False
    try:
        return len(set(value)) == len(value)
    except TypeError:
        return False


class _Straight(ast.NodeTransformer):
    """Each of the chosen look-ups replaced by its call."""

    def __init__(self, chosen: dict[int, ast.expr]):
        self.chosen = chosen

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:  # noqa: N802 - the visitor's protocol
        call = self.chosen.get(id(node))
        if call is not None:
            return self.visit(call)
        self.generic_visit(node)
        return node


def memo_dropped(fn: ast.FunctionDef, constants: dict[str, Any]) -> list[str]:
    """In place (`memo dropped`, the module's doc): the memos of `fn` that no look-up can hit
    made straight calls, their tables' making dropped. The functions so called, by their
    loops' variables (`D_4 by p0`); empty when nothing changed."""
    made = {s.targets[0].id: s for s in fn.body
            if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
            and isinstance(s.value, ast.Dict) and not s.value.keys}
    if not made:
        return []
    uses: dict[str, int] = {}
    stores: dict[str, int] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and node.id in made:
            counts = uses if isinstance(node.ctx, ast.Load) else stores
            counts[node.id] = counts.get(node.id, 0) + 1
    chosen: dict[int, ast.expr] = {}
    dropped: set[str] = set()
    called: list[str] = []
    for loop in fn.body:  # loops at the top level: each runs once per call of the listing
        if not (isinstance(loop, ast.For) and isinstance(loop.target, ast.Name)
                and _distinct_constant(loop.iter, constants)):
            continue
        var = loop.target.id
        if var in _bound(loop.body):
            continue  # the loop's variable bound again inside: not one key per round
        stack: list[ast.AST] = list(loop.body)
        while stack:  # the loop's body, not entering nested loops (a key would repeat there)
            node = stack.pop()
            if isinstance(node, _LOOPS):
                continue
            found = _memo_lookup(node)
            if found is not None:
                table, key, call = found
                if key == var and table in made and stores.get(table) == 1 and uses.get(table) == 3 \
                        and table not in dropped:
                    chosen[id(node)] = call
                    dropped.add(table)
                    called.append(f"{ast.unparse(call.func)} by {var}")
                    continue
            stack.extend(ast.iter_child_nodes(node))
    if not chosen:
        return []
    _Straight(chosen).visit(fn)
    fn.body[:] = [s for s in fn.body if not (s in made.values() and s.targets[0].id in dropped)]
    return called
