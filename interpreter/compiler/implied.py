"""Whether a require pushed into a domain (pushdown.py) holds for every item of its source
anyway, because the source is a definition that kept exactly the items passing that test.

Khan's `conquer(t, area in placements(TILES[t].shape, layable(t)))` requires `all s in area:
yurt[s] != none or s in neutral or open_river(t, s)`, and `layable(t)` is `list s in Land
where yurt[s] != none or s in neutral or TILES[t].bridge and ...`, `open_river(t, s)`'s body:
the listing's filter of the placements' squares tested it again on each of layable's squares
(about 2% of a random game). The two are compared as trees (spans ignored), the source's item
and the condition's variable taken as one, the definition's parameters as the call's arguments
(in the action's scope), and a call of a definition as its body with its arguments in place.
A test that binds a name of its own (an aggregate, a `let`) is never taken as the same.
"""

from __future__ import annotations

from typing import Any

from ...dsl import ast as A
from ...dsl.check import Model

MAX_DEPTH = 8  # definitions expanded, one inside another
# a name's meaning on one side: ("tok", t), the same on both sides only when equal, or
# ("node", expression, its own scope)
Scope = dict[str, tuple]


def implied(m: Model, source: A.Node, var: str, cond: A.Node, keep: bool, scope: frozenset[str]) -> bool:
    """Whether every item of `source` (a call `D(args)` of a definition `list x in T where W`)
    passes `cond` with `var` bound to it (`keep`: the value that keeps an item), `scope` the
    action's names `cond` and the arguments may read."""
    if not (keep and isinstance(source, A.Call) and source.func in m.defines):
        return False
    d = m.defines[source.func]
    e = d.value
    if not (isinstance(e, A.Aggregate) and e.kind == "list" and e.where is not None and len(source.args) == len(d.params)
            and (e.body is None or isinstance(e.body, A.Name) and e.body.name == e.var)):
        return False
    action: Scope = {n: ("tok", n) for n in scope}
    mine: Scope = {**action, var: ("tok", "#item")}
    theirs: Scope = {q.name: ("node", arg, action) for q, arg in zip(d.params, source.args, strict=True)}
    theirs[e.var] = ("tok", "#item")
    return _same(m, cond, mine, e.where, theirs, 0)


def _same(m: Model, a: Any, sa: Scope, b: Any, sb: Scope, depth: int) -> bool:
    """Whether `a` in scope `sa` is `b` in scope `sb` (see the module docstring)."""
    if depth > MAX_DEPTH:
        return False
    a, sa = _resolved(a, sa)
    b, sb = _resolved(b, sb)
    if isinstance(a, A.Name) and a.name in sa or isinstance(b, A.Name) and b.name in sb:  # tokens
        return isinstance(a, A.Name) and a.name in sa and isinstance(b, A.Name) and b.name in sb \
            and sa[a.name] == sb[b.name]
    if isinstance(a, A.Call) and a.func in m.defines:
        a, sa = _expanded(m, a, sa)
        return a is not None and _same(m, a, sa, b, sb, depth + 1)
    if isinstance(b, A.Call) and b.func in m.defines:
        b, sb = _expanded(m, b, sb)
        return b is not None and _same(m, a, sa, b, sb, depth + 1)
    if isinstance(a, (A.Aggregate, A.LetExpr)) or type(a) is not type(b):
        return False
    if isinstance(a, A.Node):
        return all(_same(m, getattr(a, f), sa, getattr(b, f), sb, depth)
                   for f in a.__dataclass_fields__ if f != "span")
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_same(m, x, sa, y, sb, depth) for x, y in zip(a, b, strict=True))
    return a == b


def _resolved(x: Any, scope: Scope) -> tuple[Any, Scope]:
    """A name bound to an argument's expression, as that expression in its own scope."""
    while isinstance(x, A.Name) and x.name in scope and scope[x.name][0] == "node":
        _kind, x, scope = scope[x.name]
    return x, scope


def _expanded(m: Model, call: A.Call, scope: Scope) -> tuple[A.Node | None, Scope]:
    """A call of a definition as its body, its parameters bound to the call's arguments."""
    d = m.defines[call.func]
    if len(call.args) != len(d.params):
        return None, scope
    return d.value, {q.name: ("node", arg, scope) for q, arg in zip(d.params, call.args, strict=True)}
