"""Where an action's listing after one of its own moves is the listing before it, with only the
move just played tested again (`listing follows the move`: machine.py `fused_apply`, and a
block's listing after a move it picked itself in a playout, `pick_in_place`).

Tic-tac-toe's `place(s)` requires `cell[s] == none` and its effect writes `cell[s]`; connect
four's `drop(col)` reads the squares of `column_squares(col)` (inside `lowest_free(col)`) and
writes `cell[lowest_free(col)]`, one of them. Either way a move changes no other move's test, so
the moves offered next are the ones offered before, tested again for the move just played alone.
Listing them again walks nine squares (or seven columns) a move, and carry.py's kept listing
keeps a write log and an index from key to value to find the column; here the writes are known
when the program is compiled and nothing is logged or looked up: the fused apply (or the block,
after a pick) copies the list the move came from and drops the move when its own test now fails.

It holds when the action has one parameter whose values are known now (a board's squares, a
named type's values, a constant range); every leading `require` and `let` depends on that
parameter and they read state only at keys that are the parameter itself or items of a
state-free function of it (carry.py's `KeySearch`: no `current`, no bare variable, no set, no
chance); the keys each value's tests read, worked out now for every value (library functions on
the board), are disjoint from every other value's; and the effect writes those maps only at a key
that is, for each value, among that value's own keys: the parameter, or an item the value's own
keys are drawn from (`first t in column_squares(col) where ...` through `let`s and definitions).
Never the whole map, no `do`, decision, turn or phase, the parameter's name never bound again.
What runs between the move and the next listing besides the effect (triggers, hooks, other flow)
is the caller's to rule out (`MachineBuilder.straight`).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ...dsl import ast as A
from ...dsl.types import NONE, Opt
from ..stdlib.library import LIBRARY
from .actiongen import known_values
from .blocks import action_preconditions, names_in
from .carry import PARAM, KeySearch
from .reads import state_reads

_RUNS_RULES = (A.DoStmt, A.PlayStmt, A.ChooseStmt, A.TurnStmt, A.PhaseStmt, A.GotoStmt, A.SimultaneousStmt)
_MAX_VALUES = 4096  # parameter values whose keys are worked out now; more: not followed
_MAX_DEPTH = 8  # definitions inside definitions followed
_ITEM_KINDS = ("first", "argmax", "argmin")  # aggregates whose value is one of the domain's items


def listing_follows(g: Any, a: A.ActionDecl) -> bool:
    """Whether the listing of `a` after a move of `a` is the listing before it with only the
    move played tested again (see above). `g`: the CodeGen (its model, boards and elements)."""
    m = g.m
    if len(a.params) != 1:
        return False
    p = a.params[0]
    x = p.name
    if p.domain is not None and state_reads(m, p.domain) != frozenset():
        return False
    pre, rest = action_preconditions(a, m)
    if not any(isinstance(s, A.RequireStmt) for s in pre) or not _all_on_parameter(pre, x):
        return False
    values = known_values(g, p)  # as the move table has them
    if not values or len(values) > _MAX_VALUES or not all(isinstance(v, Hashable) for v in values):
        return False
    found = KeySearch(m)
    if not found.walk(tuple(pre), {x: (PARAM, frozenset({x}))}, 0):
        return False
    lets: dict[str, A.Node] = {}
    scoped: set[str] = set()  # names bound in a loop, a quantifier or a `let` expression
    for n in A.iter_nodes(tuple(a.body)):
        if isinstance(n, _RUNS_RULES):
            return False
        if isinstance(n, A.LetStmt):
            if n.name in lets:
                return False  # a name bound twice: which value a write's key has is not known here
            lets[n.name] = n.value
        elif isinstance(n, (A.ForStmt, A.Aggregate, A.LetExpr)):
            scoped.add(n.name if isinstance(n, A.LetExpr) else n.var)
    if x in scoped or x in lets or scoped & lets.keys():  # a name bound anew: `v[x]` there is another entry
        return False
    keys = _keys_by_value(g, values, found.sources)
    if keys is None or not _disjoint(keys.values()):
        return False
    for n in A.iter_nodes(tuple(rest)):
        if isinstance(n, A.Target) and n.root in found.maps:
            first = n.steps[0] if n.steps else None
            if not isinstance(first, A.Node):
                return False
            for v in values:
                drawn = _drawn(g, first, frozenset({x}), v, lets, 0)
                if drawn is None or not drawn <= keys[v] | {None}:
                    return False
    return True


def _all_on_parameter(pre: list[A.Node], x: str) -> bool:
    """Every precondition depends on the parameter, directly or through a `let` that does:
    none is worked out once for the whole listing (a traced listing keeps those for explain)."""
    on = {x}
    for s in pre:
        if not (names_in(s) & on):
            return False
        if isinstance(s, A.LetStmt):
            on.add(s.name)
    return True


def _keys_by_value(g: Any, values: tuple, sources: list) -> dict[Any, set] | None:
    """Each value -> the keys its tests read: itself where a test reads `v[x]`, the items of
    each state-free source (`column_squares(col)`) worked out for it."""
    out: dict[Any, set] = {}
    for v in values:
        keys: set = set()
        for source, aliases in sources:
            if source is PARAM:
                keys.add(v)
                continue
            items = _evaluate(g, source, aliases, v)
            if not isinstance(items, (list, tuple)) or not all(isinstance(k, Hashable) for k in items):
                return None
            keys.update(items)
        out[v] = keys
    return out


def _disjoint(key_sets: Any) -> bool:
    seen: set = set()
    for keys in key_sets:
        if keys & seen:
            return False
        seen |= keys
    return True


def _evaluate(g: Any, e: A.Node, aliases: frozenset[str], v: Any) -> Any:
    """The value of a state-free expression (carry `KeySearch.stands_for_parameter`'s kind) with
    the parameter's aliases standing for `v`; `_NOT_NOW` when it cannot be worked out now."""
    if isinstance(e, A.Name):
        if e.name in aliases:
            return v
        return e.name if e.name in g.m.element_type else _NOT_NOW
    if isinstance(e, A.IntLit):
        return e.value
    if isinstance(e, A.Call) and e.func in LIBRARY and e.func not in g.m.defines and e.func not in g.m.devices \
            and LIBRARY[e.func].kind not in ("chance", "game") and g.boards is not None:
        args = [_evaluate(g, arg, aliases, v) for arg in e.args]
        if any(arg is _NOT_NOW for arg in args):
            return _NOT_NOW
        try:
            return LIBRARY[e.func].bind(g.boards)(*args)
        except Exception:  # out of this function's reach: not known now
            return _NOT_NOW
    return _NOT_NOW


_NOT_NOW = object()


def _drawn(g: Any, e: A.Node, aliases: frozenset[str], v: Any, lets: dict[str, A.Node], depth: int) -> set | None:
    """The values a write's key `e` can have when the parameter is `v` (None: any value): the
    parameter itself, a named value, a `let`'s value, or an item of a state-free domain that a
    `first`/`argmax`/`argmin` (or a definition whose value is one) picks (or none)."""
    if depth > _MAX_DEPTH:
        return None
    if isinstance(e, A.Name):
        if e.name in aliases:
            return {v}
        if e.name in lets and e.name not in g.m.vars:
            return _drawn(g, lets[e.name], aliases, v, {}, depth + 1)  # a let's value reads no later let
        value = _evaluate(g, e, aliases, v)
        return None if value is _NOT_NOW else {value}
    if isinstance(e, A.Aggregate) and e.kind in _ITEM_KINDS and not (e.kind == "first" and e.body is not None):
        items = _evaluate(g, e.domain, aliases - {e.var}, v)
        if not isinstance(items, (list, tuple)) or not all(isinstance(k, Hashable) for k in items):
            return None
        return set(items) | {None}
    if isinstance(e, A.Call) and e.func in g.m.defines:
        d = g.m.defines[e.func]
        if len(d.params) != len(e.args) or not all(isinstance(arg, A.Name) and arg.name in aliases for arg in e.args):
            return None  # an argument other than the parameter: not followed
        return _drawn(g, d.value, frozenset(q.name for q in d.params), v, {}, depth + 1)
    return None


def taken_by_its_move(g: Any, a: A.ActionDecl) -> bool:
    """Whether a move of `a` (one whose listing follows the move) surely fails its own test once
    played, so the listing after it always drops it (offeredat.py, `removed where offered`): a
    leading `require m[x] == none`, `x` the parameter, and among the effect's top statements an
    unconditional `set m[x] = e` whose value is never none, the only write of `m` in the effect
    (tic-tac-toe's `place(s)` fills the square it requires empty; connect four's `drop(col)`
    fills its column's lowest free square, which leaves the column open but for the last)."""
    if len(a.params) != 1:
        return False
    x = a.params[0].name
    pre, rest = action_preconditions(a, g.m)

    def on_parameter(e: A.Node) -> str | None:
        """The map `m` of `m[x]`, else None."""
        if isinstance(e, A.Index) and isinstance(e.base, A.Name) and e.base.name in g.m.vars \
                and isinstance(e.key, A.Name) and e.key.name == x:
            return e.base.name
        return None

    required = {on_parameter(s.test.left) for s in pre if isinstance(s, A.RequireStmt)
                and isinstance(s.test, A.Compare) and s.test.op == "==" and isinstance(s.test.right, A.NoneLit)}
    for s in rest:
        if not (isinstance(s, A.SetStmt) and s.target.root in required and len(s.target.steps) == 1):
            continue
        key = s.target.steps[0]
        t = g.static_type(s.value)
        if not (isinstance(key, A.Name) and key.name == x) or isinstance(t, Opt) or t == NONE:
            continue
        writes = [n for n in A.iter_nodes(tuple(rest)) if isinstance(n, A.Target) and n.root == s.target.root]
        return writes == [s.target]
    return False
