"""What the checker can see of rules that would never end or never compile.

A rules file that checks clean must not hang or crash the engine. The work budget stops
loops at run time (docs/architecture.md §13); these checks catch earlier what can be seen in
the text: a division by a constant zero (E240), definitions that call themselves without a
declared type (E241), an action whose preconditions ask `possible` of itself (E242), an
aggregate over a number (E243), and nesting deeper than the generated Python can hold (E005).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

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
        facts = _facts(root)
        for right in facts.zero_divisors:
            report("E240", "division by zero: the divisor is always 0", right.span, None)
        for node in facts.aggregates:
            t = type_of(node.domain).base
            if t != ANY and not t.is_collection:
                report("E243", f"'{node.kind}' goes over a list, set, map or range, not {t}",
                       node.domain.span, f"write {node.kind} x in 1..n for the numbers up to n")
        for args in facts.nesting:
            report(*args)
    _recursive_defines(m, report)
    _possible_in_own_preconditions(m, report)


@dataclass(frozen=True)
class _Facts:
    """What these checks need of one declaration, found in one walk. Declarations are
    immutable, and the language server re-parses only the one being edited, so the facts of
    the others are kept (by identity) and a keystroke walks one declaration, not all."""

    zero_divisors: tuple[A.Node, ...]  # right operands of // and % that are a literal 0
    aggregates: tuple[A.Aggregate, ...]  # their domains' types are asked of the whole model
    calls: frozenset[str]  # every function name called
    nesting: tuple[tuple, ...]  # E005 reports


_FACTS: dict[int, tuple[A.Node, _Facts]] = {}
MAX_KEPT_FACTS = 20_000


def _facts(root: A.Node) -> _Facts:
    kept = _FACTS.get(id(root))
    if kept is not None and kept[0] is root:
        return kept[1]
    zero, aggregates, calls = [], [], set()
    for node in _nodes(root):
        if isinstance(node, A.BinOp):
            if node.op in ("//", "%") and _zero(node.right):
                zero.append(node.right)
        elif isinstance(node, A.Aggregate):
            aggregates.append(node)
        elif isinstance(node, A.Call):
            calls.add(node.func)
    nesting: list[tuple] = []
    _nesting(root, lambda *args: nesting.append(args))
    facts = _Facts(tuple(zero), tuple(aggregates), frozenset(calls), tuple(nesting))
    if len(_FACTS) >= MAX_KEPT_FACTS:
        _FACTS.clear()
    _FACTS[id(root)] = (root, facts)
    return facts


def _nodes(node: object) -> Iterator[A.Node]:
    from .ast import iter_nodes

    return (n for n in iter_nodes(node) if isinstance(n, A.Node))


def _zero(e: A.Node) -> bool:
    return isinstance(e, A.IntLit) and e.value == 0


def _calls(node: A.Node, names: dict) -> set[str]:
    return {f for f in _facts(node).calls if f in names}


def recursive_defines(m: object) -> dict[str, list[str]]:
    """The definitions that call themselves, directly or through others: name -> a circle."""
    calls = {name: _calls(d.value, m.defines) for name, d in m.defines.items()}
    return {name: path for name in m.defines if (path := _cycle(name, calls))}


def _recursive_defines(m: object, report: Report) -> None:
    """A definition may call itself, directly or through others, when every definition on the
    circle declares its type (`define f(...): T = ...`): its value's type cannot come from
    itself. At run time each such call costs work, so one that never stops is stopped by the
    work budget or Python's depth limit, with the rules' message (docs/language.md)."""
    for name, path in recursive_defines(m).items():
        untyped = [n for n in dict.fromkeys(path) if m.defines[n].type is None]
        if untyped:
            d = m.defines[name]
            report("E241", f"definition '{name}' calls itself ({' → '.join(path)}) without a declared "
                   f"type", d.span, f"declare the type of '{untyped[0]}' (define {untyped[0]}(...): T = ...) "
                   "to let it call itself, or use an aggregate (count, any, sum, list, ...)")


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
            children = A.bodies(s)
            if children and depth + 1 > MAX_STATEMENT_DEPTH:
                report("E005", f"statements nested deeper than {MAX_STATEMENT_DEPTH} levels", s.span,
                       "move the inner part into a procedure")
                return
            for b in children:
                stmts(b, depth + 1)

    body = getattr(root, "body", None)
    if isinstance(body, tuple):
        stmts(body, 0)
    deep = _too_deep(root)
    if deep is not None:
        report("E005", f"an expression nested deeper than {MAX_EXPRESSION_DEPTH} levels", deep.span,
               "split it with let")


def _too_deep(root: A.Node) -> A.Node | None:
    """`root` if it nests deeper than MAX_EXPRESSION_DEPTH, else the first target part that
    does, else None. Depths are worked out once, bottom-up, on an explicit stack: a node is
    one level more than its deepest child, and a left-leaning chain of one operator (written
    without brackets in Python) counts once. A target's parts are measured on their own."""
    depth: dict[int, int] = {}
    roots = [root]
    for r in roots:  # grows while it is walked: targets met on the way
        stack: list[tuple[A.Node, list | None]] = [(r, None)]
        while stack:
            n, kids = stack.pop()
            if kids is not None:
                best = 1
                for c, same in kids:
                    d = depth[id(c)] + (0 if same else 1)
                    best = d if d > best else best
                depth[id(n)] = best
                continue
            if id(n) in depth:
                continue
            kids = []
            chain = isinstance(n, A.BinOp)
            for name in getattr(n, "__slots__", ()):
                value = getattr(n, name, None)
                for c in value if isinstance(value, tuple) else (value,):
                    for cc in c if isinstance(c, tuple) else (c,):
                        if isinstance(cc, A.Target):
                            roots.append(cc)
                        elif isinstance(cc, A.Node):
                            kids.append((cc, chain and name == "left" and isinstance(cc, A.BinOp)))
            stack.append((n, kids))
            stack.extend((c, None) for c, _same in kids)
        if depth[id(r)] > MAX_EXPRESSION_DEPTH:
            return r
    return None
