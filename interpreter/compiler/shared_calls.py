"""Definitions that the listings of one decision share, worked out once per decision (issue 27).

A `play` of several actions lists each action's moves in turn, and listing moves changes no
state. When two of those listings call the same definition with the same arguments, the
second call gives the first one's answer. Checkers' `step` asks `not can_capture(current)`
and its `jump` walks `jump_paths(current)`: with `can_capture(p)` defined as
`jump_paths(p) != []`, one board scan a position instead of two.

The memo (`G._shared`, a dict) exists only while a block lists the moves of such a `play`
(machine.py sets it just before the listings and clears it in a `finally`); everywhere else it
is None and the definitions compute as always. A definition that qualifies looks itself up
there first, keyed by its number and its arguments (compile.py). So a memo can never outlive
the state it was worked out in: the listings of one decision read one state.

A definition qualifies when it is worth remembering (memo.memo_keys: it loops, and neither
draws chance nor runs a device), every parameter is of a plain type (the arguments are the
key), and the listings of at least two actions of one `play` call it with arguments that stay
the same throughout the decision (`current`, constants, named values): in their
preconditions (the leading `require` and `let` lines) or their parameters' domains, or in
definitions called so. A call per binding (Khan's `ruler_on(s)`) would only fill the memo.
Such a definition is called, not inlined, so that the call can look it up.
"""

from __future__ import annotations

from ...dsl import ast as A
from ...dsl.check import Model
from .blocks import action_preconditions
from .memo import memo_keys, plain_type


def _bound(node: A.Node) -> set[str]:
    """The names aggregates and `let`s bind inside `node`."""
    return {n.var if isinstance(n, A.Aggregate) else n.name
            for n in A.iter_nodes(node) if isinstance(n, (A.Aggregate, A.LetExpr))}


def _fixed(m: Model, e: A.Node, fixed: frozenset[str]) -> bool:
    """Whether `e` has one value throughout a decision's listings: it names only `current`,
    constants, options, named values and `fixed` (parameters bound to such values)."""
    for n in A.iter_nodes(e):
        if isinstance(n, (A.Aggregate, A.LetExpr)):
            return False
        if isinstance(n, A.Name) and not (n.name == "current" or n.name in fixed or n.name in m.consts
                                          or n.name in m.options or n.name in m.element_type):
            return False
    return True


def _fixed_calls(m: Model, node: A.Node, fixed: frozenset[str]) -> set[str]:
    """The definitions `node` calls with arguments that have one value throughout a decision."""
    return {n.func for n in A.iter_nodes(node)
            if isinstance(n, A.Call) and n.func in m.defines and all(_fixed(m, a, fixed) for a in n.args)}


def _plays(m: Model) -> list[tuple[str, ...]]:
    """The actions of every `play` that offers more than one, wherever it stands."""
    roots = [m.flow, *m.procedures.values(), *m.actions.values(), *m.triggers, *m.hooks]
    out = []
    for root in roots:
        for n in A.iter_nodes(root):
            if isinstance(n, A.PlayStmt) and len(set(n.actions)) > 1:
                out.append(tuple(dict.fromkeys(n.actions)))
    return out


def _roots(m: Model, action: A.ActionDecl) -> set[str]:
    """The definitions an action's listing calls itself with such arguments: in its
    preconditions and domains (its own parameters change from move to move)."""
    pre, _rest = action_preconditions(action, m)
    out: set[str] = set()
    for node in (*pre, *(p.domain for p in action.params if p.domain is not None)):
        out |= _fixed_calls(m, node, frozenset())
    return out


def _reached(m: Model, todo: set[str], stop: frozenset[str] = frozenset()) -> set[str]:
    """`todo` and the definitions they call with such arguments, transitively (a definition
    called so has its parameters fixed); not beyond those in `stop`."""
    todo, seen = set(todo), set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if name not in stop:
            d = m.defines[name]
            fixed = frozenset(p.name for p in d.params) - _bound(d.value)
            todo |= _fixed_calls(m, d.value, fixed)
    return seen


def shared_definitions(m: Model) -> tuple[frozenset[str], frozenset[tuple[str, ...]]]:
    """The definitions remembered per decision, and the `play`s (their actions) whose
    listings share at least one of them. Of the definitions two listings reach, only those
    reached first (not only through another such definition) are remembered: checkers'
    `jump_paths`, not the `first_jumps` it calls, which stays inlined into it."""
    worth = memo_keys(m)
    plain = {name for name in worth
             if all(p.type is not None and plain_type(m.type_of_decl(p.type)) for p in m.defines[name].params)}
    shared: set[str] = set()
    plays: set[tuple[str, ...]] = set()
    for actions in _plays(m):
        roots = {name: _roots(m, m.actions[name]) for name in actions}
        counts: dict[str, int] = {}
        for name in actions:
            for d in _reached(m, roots[name]):
                counts[d] = counts.get(d, 0) + 1
        common = frozenset(d for d, n in counts.items() if n > 1)
        first: set[str] = set()
        for name in actions:  # walked up to the first common definition on each path
            first |= _reached(m, roots[name], common) & common
        first &= plain
        if first:
            shared |= first
            plays.add(actions)
    return frozenset(shared), frozenset(plays)
