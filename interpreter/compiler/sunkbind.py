"""`bindings sunk` (CodeGen.BINDINGS_SUNK, docs/architecture.md §5): a block function's prologue
binds every state map (`_sv<i> = V[...]`) and constant (`_kc<i> = K[...]`) any of its segments
reads, at each entry; an entry runs from its `pc` to the next decision, a few of the segments.
A binding read only inside segments (`if pc == k:` under the `while True:` dispatch, through its
`if pc < n:` groups) is made in each segment that reads it instead, just ahead of the first
statement that reads it, inside the branch of an `if` that reads it (`_sink`). The maps a block
binds are the ones no statement replaces (CodeGen.prologue, `stable`) and constants never
change, so a binding made later in the same entry is the same object."""

from __future__ import annotations

import ast
import copy

from . import pytree


def _pc_test(test: ast.expr, op: type) -> bool:
    """`pc <op> <int>`: the dispatch's own tests."""
    return isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "pc" \
        and len(test.ops) == 1 and isinstance(test.ops[0], op) and isinstance(test.comparators[0], ast.Constant)


def segments(fn: ast.FunctionDef) -> tuple[list[ast.If | ast.FunctionDef], list[ast.AST]] | None:
    """The dispatch's segments of a block function (`pc = F[1]` then one `while True:`) and the
    code outside them (the rest of the body, the dispatch's tests); None for another shape."""
    loops = [s for s in fn.body if isinstance(s, ast.While)]
    if len(loops) != 1 or not (isinstance(loops[0].test, ast.Constant) and loops[0].test.value is True):
        return None
    segs: list[ast.If | ast.FunctionDef] = []
    outside: list[ast.AST] = [s for s in fn.body if s is not loops[0]]

    def walk(stmts: list[ast.stmt]) -> None:
        for s in stmts:
            if isinstance(s, ast.If) and not s.orelse and _pc_test(s.test, ast.Eq):
                segs.append(s)
            elif isinstance(s, ast.If) and not s.orelse and _pc_test(s.test, ast.Lt):
                outside.append(s.test)
                walk(s.body)
            else:
                outside.append(s)

    walk(loops[0].body)
    return (segs, outside) if segs else None


def sunk_bindings(fn: ast.FunctionDef, bindings: dict[str, ast.stmt]) -> dict[str, ast.stmt]:
    """Put each of `bindings` (name -> its prologue statement) read only inside `fn`'s segments
    at the top of each segment that reads it; return those left for the prologue."""
    found = segments(fn)
    segs, outside = found if found is not None else ([fn], [])  # a function without a dispatch: one segment
    top = pytree.names_read(outside)
    left = {n: b for n, b in bindings.items() if n in top}
    for seg in segs:
        read = pytree.names_read(seg.body)
        for n, b in bindings.items():
            if n not in left and n in read:
                _sink(seg.body, n, b)
    return left


def _sink(body: list[ast.stmt], name: str, binding: ast.stmt) -> None:
    """`binding` of `name` put in `body` just ahead of the first statement that reads it, or,
    where that is the one statement reading it and an `if` whose test does not, in each of its
    branches that reads it (a move's branch and its listing's read different maps). Only `if`s
    are entered, never loops: the binding runs once where the segment's statements do."""
    reading = [i for i, st in enumerate(body) if name in pytree.names_read(st)]
    first = body[reading[0]]
    if len(reading) == 1 and isinstance(first, ast.If) and name not in pytree.names_read(first.test):
        for branch in (first.body, first.orelse):
            if branch and name in pytree.names_read(branch):
                _sink(branch, name, binding)
        return
    body.insert(reading[0], pytree.located(copy.deepcopy(binding), first))
