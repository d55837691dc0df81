"""What the checker can see of rules that would never end or never compile.

A rules file that checks clean must not hang or crash the engine. The work budget stops
loops at run time (docs/architecture.md §13); these checks catch earlier what can be seen in
the text: a division by a constant zero (E240), definitions that call themselves (E241), an
action whose preconditions ask `possible` of itself (E242), an aggregate over a number (E243),
and nesting deeper than the generated Python can hold (E005).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from . import ast as A
from .types import ANY, Type

MAX_STATEMENT_DEPTH = 12  # blocks inside blocks: each may become loops inside loops in Python
MAX_EXPRESSION_DEPTH = 60  # operators inside operators (a chain of + counts once)

Report = Callable[[str, str, A.Span, str | None], None]


def check_runaway(model: object, report: Report, type_of: Callable[[A.Node], Type]) -> None:
    m = model
    bodies: list[tuple[str, A.Node]] = [(f"action {n}", a) for n, a in m.actions.items()]
    bodies += [(f"procedure {n}", p) for n, p in m.procedures.items()]
    bodies += [("a trigger", t) for t in m.triggers] + [("a hook", h) for h in m.hooks]
    if m.flow is not None:
        bodies.append(("the flow", m.flow))
    roots: list[A.Node] = [node for _w, node in bodies] + list(m.defines.values()) + list(m.consts.values())
    roots += [*m.devices.values(), *m.scenarios, *m.invariants]
    if m.scoring is not None:
        roots.append(m.scoring)
    for root in roots:
        for node in _nodes(root):
            if isinstance(node, A.BinOp) and node.op in ("//", "%") and _zero(node.right):
                report("E240", "division by zero: the divisor is always 0", node.right.span, None)
            elif isinstance(node, A.Aggregate):
                t = type_of(node.domain).base
                if t != ANY and not t.is_collection:
                    report("E243", f"'{node.kind}' goes over a list, set, map or range, not {t}",
                           node.domain.span, f"write {node.kind} x in 1..n for the numbers up to n")
    _recursive_defines(m, report)
    _possible_in_own_preconditions(m, report)
    for root in roots:
        _nesting(root, report)


def _nodes(node: object) -> Iterator[A.Node]:
    from .ast import iter_nodes

    return (n for n in iter_nodes(node) if isinstance(n, A.Node))


def _zero(e: A.Node) -> bool:
    return isinstance(e, A.IntLit) and e.value == 0


def _calls(node: A.Node, names: dict) -> set[str]:
    return {n.func for n in _nodes(node) if isinstance(n, A.Call) and n.func in names}


def _recursive_defines(m: object, report: Report) -> None:
    """A definition that calls itself, directly or through others, never ends when it is
    evaluated by expanding; rules express repetition with aggregates and loops instead."""
    calls = {name: _calls(d.value, m.defines) for name, d in m.defines.items()}
    for name, d in m.defines.items():
        path = _cycle(name, calls)
        if path:
            report("E241", f"definition '{name}' calls itself: {' → '.join(path)}", d.span,
                   "a definition may not depend on itself; use an aggregate (count, any, sum, ...)")


def _cycle(start: str, calls: dict[str, set[str]]) -> list[str] | None:
    stack = [(start, [start])]
    seen: set[str] = set()
    while stack:
        here, path = stack.pop()
        for nxt in sorted(calls.get(here, ())):
            if nxt == start:
                return [*path, start]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, [*path, nxt]))
    return None


def _possible_in_own_preconditions(m: object, report: Report) -> None:
    """`possible(a)` lists a's moves, so inside a's own preconditions it would ask itself."""
    define_calls = {name: _calls(d.value, m.defines) for name, d in m.defines.items()}
    for name, a in m.actions.items():
        pre = []
        for s in a.body:
            if not isinstance(s, (A.RequireStmt, A.LetStmt)):
                break
            pre.append(s)
        for p in a.params:
            if p.domain is not None:
                pre.append(p.domain)
        todo = list(pre)
        seen: set[str] = set()
        while todo:
            node = todo.pop()
            for n in _nodes(node):
                if isinstance(n, A.Call) and n.func == "possible" and n.args and \
                        isinstance(n.args[0], A.Name) and n.args[0].name == name:
                    report("E242", f"the preconditions of '{name}' ask possible({name}): "
                           f"that would ask itself without end", n.span, None)
                    todo = []
                    break
                if isinstance(n, A.Call) and n.func in define_calls and n.func not in seen:
                    seen.add(n.func)
                    todo.append(m.defines[n.func].value)


def _nesting(root: A.Node, report: Report) -> None:
    """Statements inside statements, and operators inside operators, no deeper than the
    generated Python can hold (CPython allows 20 nested blocks and 200 nested brackets)."""
    def stmts(body: tuple, depth: int) -> None:
        for s in body:
            children = _child_bodies(s)
            if children and depth + 1 > MAX_STATEMENT_DEPTH:
                report("E005", f"statements nested deeper than {MAX_STATEMENT_DEPTH} levels", s.span,
                       "move the inner part into a procedure")
                return
            for b in children:
                stmts(b, depth + 1)

    body = getattr(root, "body", None)
    if isinstance(body, tuple):
        stmts(body, 0)
    depth: dict[int, int] = {}
    for n in _nodes(root):
        if id(n) not in depth:  # the root, and what hangs below a target
            _depths(n, depth)
        if depth[id(n)] > MAX_EXPRESSION_DEPTH:
            report("E005", f"an expression nested deeper than {MAX_EXPRESSION_DEPTH} levels", n.span,
                   "split it with let")
            return


def _child_bodies(s: A.Node) -> list[tuple]:
    if isinstance(s, A.IfStmt):
        return [b for _t, b in s.branches] + ([s.orelse] if s.orelse else [])
    body = getattr(s, "body", None)
    return [body] if isinstance(body, tuple) and isinstance(s, A.Node) and not isinstance(
        s, (A.ActionDecl, A.ProcedureDecl)) else []


def _children(n: A.Node) -> Iterator[tuple[A.Node, bool]]:
    """Each child expression of `n`, and whether it continues a left-leaning chain of one
    operator (written without brackets in Python, so it counts once)."""
    chain = isinstance(n, A.BinOp)
    for name in getattr(n, "__slots__", ()):
        value = getattr(n, name, None)
        for c in value if isinstance(value, tuple) else (value,):
            for cc in c if isinstance(c, tuple) else (c,):
                if isinstance(cc, A.Node) and not isinstance(cc, A.Target):
                    yield cc, chain and name == "left" and isinstance(cc, A.BinOp)


def _depths(root: A.Node, depth: dict[int, int]) -> None:
    """The nesting depth below every node of `root` into `depth` (by id), worked out once
    bottom-up: a node is one level more than its deepest child, a chain link none."""
    stack: list[tuple[A.Node, bool]] = [(root, False)]
    while stack:
        n, done = stack.pop()
        if done:
            best = 1
            for c, same in _children(n):
                best = max(best, depth[id(c)] + (0 if same else 1))
            depth[id(n)] = best
        elif id(n) not in depth:
            stack.append((n, True))
            stack.extend((c, False) for c, _same in _children(n))

