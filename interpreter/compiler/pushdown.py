"""Per-item requires pushed into a domain of collections drawn from a set (issue 27).

Khan's `conquer(t in sorted(supply), area in placements(TILES[t].shape, layable(t)))` tests
`not (any s in area: ruler_on(s))` and `all s in area: yurt[s] != none or ...` on every
placement, cell by cell. Every element of `placements(shape, R)` is a list of squares of `R`,
so a placement passes both exactly when all its squares are in `[s in R where C(s)]`: the
listing asks `placements(shape, that list)` and skips those requires for the moves it lists.
The order of the moves is the same (placements keep the table's order whatever the allowed
squares). Only a leading run of such requires at the parameter's depth is taken, so no other
precondition is skipped for a binding it would have been tried on; the filtered list is
worked out once per key of what it reads (memo.level_key), and if working it out fails (a
square of `R` that no placement covers can make `C` fail), the listing falls back to the
requires as written. The check and explain functions keep every require.

A later require that no placement passes unless one of its squares has some property is
pushed in too, as squares to touch: Khan's `has_majority(current, area)` is `own(p, area) >= 1
and ...`, `own` a `count s in area where yurt[s] == p`, so the listing asks
`placements_touching(shape, that list, [s in that list where yurt[s] == current])` and never
makes the three placements in four that cover none of the mover's yurts. The require itself is
still tested on every placement found (only a necessary part of it was pushed), and the
requires between it and the leading run are skipped only for placements it rejects anyway, so
each of them must be one that cannot fail to evaluate (total.py): then no rule's error is
hidden. The part found is `any x in area: C`, `count x in area where C >= 1` (or `> 0`), the
first of an `and` (or a later one after parts that cannot fail), and these inside definitions
called with plain names or literals.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...dsl import ast as A
from ...dsl.check import Model
from .hoist import names
from .total import cannot_fail

# library function -> the argument every element's items are drawn from
SUBSET_DOMAINS = {"placements": 1, "placements_touching": 1}
# library function -> the form that also takes squares to touch (its extra argument third)
TOUCHING_FORMS = {"placements": "placements_touching"}
MAX_DEPTH = 8  # definitions looked into, one inside another


@dataclass
class Touch:
    """A require at the parameter's depth that fails for every placement covering no square
    of `[x in allowed where C(x)]`: the listing asks only for placements that cover one."""

    require: A.RequireStmt
    var: str  # C's variable
    cond: A.Node  # C, in the scope of the innermost definition of `calls` (the action's if none)
    # the definitions C lies in, outermost first, each with its arguments (None for one that
    # passes the placement itself): their scopes are bound in turn, as an inlined call's are
    calls: list[tuple[A.DefineDecl, tuple[A.Node | None, ...]]]
    reads: frozenset[str]  # the names of the action's scope that C reads (through arguments)


@dataclass
class Pushed:
    """The requires of one parameter taken into its domain."""

    source: A.Node  # the argument the domain's items are drawn from (`layable(t)`)
    items: list[A.RequireStmt]  # the requires taken, in order
    conds: list[tuple[str, A.Node, bool]]  # per require: its variable, `C`, and the value of C that keeps an item
    touch: Touch | None = field(default=None)  # a later require pushed in as squares to touch


def per_item(s: A.Node, param: str) -> tuple[str, A.Node, bool] | None:
    """`require all x in P: C` or `require not (any x in P: C)`, with `C` not reading `P`:
    (x, C, the value of C that keeps an item). None for any other precondition. `names` sees
    every name read, also below a `let` (A.LetExpr) or an aggregate that binds one anew, so a
    `C` that binds `P`'s name itself is not taken either (no scope is needed to be safe)."""
    if not isinstance(s, A.RequireStmt):
        return None
    e, keep = s.test, True
    if isinstance(e, A.Not):
        e, keep = e.operand, False
    if not (isinstance(e, A.Aggregate) and e.kind == ("all" if keep else "any") and e.where is None
            and e.body is not None and isinstance(e.domain, A.Name) and e.domain.name == param
            and e.var != param and param not in names(e.body)):
        return None
    return e.var, e.body, keep


def pushable(m: Model, p: A.Param, items: list) -> Pushed | None:
    """The leading requires of `items` (the preconditions tested at `p`'s depth) that can be
    pushed into `p`'s domain, when that is a library call whose elements are collections of
    one argument's items, and a later one pushed in as squares to touch (`touching`). None
    when there are none."""
    d = p.domain
    if not (isinstance(d, A.Call) and d.func in SUBSET_DOMAINS and d.func not in m.defines
            and len(d.args) > SUBSET_DOMAINS[d.func]):
        return None
    taken, conds = [], []
    for s in items:
        c = per_item(s, p.name)
        if c is None:
            break
        taken.append(s)
        conds.append(c)
    touch = touching(m, p, items[len(taken):]) if d.func in TOUCHING_FORMS else None
    if not taken and touch is None:
        return None
    return Pushed(d.args[SUBSET_DOMAINS[d.func]], taken, conds, touch)


def touching(m: Model, p: A.Param, items: list) -> Touch | None:
    """The first require of `items` that needs a square with some property under every
    placement it passes, when every precondition before it cannot fail to evaluate."""
    for s in items:
        if not isinstance(s, A.RequireStmt):
            return None
        found = _necessary(m, s.test, p.name, None, [], frozenset())
        if found is not None:
            var, cond, calls, env = found
            reads = _reads(cond, var, env, p.name)
            return None if reads is None else Touch(s, var, cond, calls, reads)
        if not cannot_fail(m, s.test):
            return None
    return None


# a definition's scope: each parameter -> (whether it is the placement, the action's names it reads)
Env = dict[str, tuple[bool, frozenset[str]]]
Found = tuple[str, A.Node, list, Env | None]


def _arg(e: A.Node, env: Env | None, param: str) -> tuple[bool, frozenset[str]] | None:
    """What a definition's argument is in the action's terms: a name or a literal only."""
    if isinstance(e, (A.IntLit, A.StrLit, A.BoolLit, A.NoneLit)):
        return False, frozenset()
    if not isinstance(e, A.Name):
        return None
    if env is None:  # the action's own scope
        return e.name == param, frozenset({e.name})
    return env.get(e.name, (False, frozenset()))  # not a parameter: a name of the rules


def _is_placement(e: A.Node, env: Env | None, param: str) -> bool:
    a = _arg(e, env, param) if isinstance(e, A.Name) else None
    return a is not None and a[0]


def _necessary(m: Model, e: A.Node, param: str, env: Env | None, calls: list,
               seen: frozenset[str]) -> Found | None:
    """`(x, C, calls, env)` when `e` holds only if some `x` of the placement has `C`."""
    if isinstance(e, A.Aggregate) and e.kind == "any" and e.where is None and e.body is not None \
            and _is_placement(e.domain, env, param):
        return e.var, e.body, calls, env
    if isinstance(e, A.Compare) and isinstance(e.right, A.IntLit) and (
            e.op == ">=" and e.right.value >= 1 or e.op == ">" and e.right.value >= 0
            or e.op == "!=" and e.right.value == 0):
        return _counted(m, e.left, param, env, calls, seen)
    if isinstance(e, A.BoolOp) and e.op == "and":
        for part in e.items:
            found = _necessary(m, part, param, env, calls, seen)
            if found is not None:
                return found
            if not cannot_fail(m, part):
                return None
        return None
    return _through_call(m, e, param, env, calls, seen, _necessary)


def _counted(m: Model, e: A.Node, param: str, env: Env | None, calls: list,
             seen: frozenset[str]) -> Found | None:
    """`(x, C, ...)` when `e` is `count x in placement where C` (through definitions)."""
    if isinstance(e, A.Aggregate) and e.kind == "count" and _is_placement(e.domain, env, param):
        if e.where is not None and e.body is None:
            return e.var, e.where, calls, env
        if e.where is None and e.body is not None:
            return e.var, e.body, calls, env
        return None
    return _through_call(m, e, param, env, calls, seen, _counted)


def _through_call(m: Model, e: A.Node, param: str, env: Env | None, calls: list,
                  seen: frozenset[str], look) -> Found | None:
    """`look` inside the value of a definition called with plain names or literals."""
    if not (isinstance(e, A.Call) and e.func in m.defines and e.func not in seen and len(seen) < MAX_DEPTH):
        return None
    d = m.defines[e.func]
    args = [_arg(a, env, param) for a in e.args]
    if any(a is None for a in args) or len(args) != len(d.params):
        return None
    inner: Env = {q.name: a for q, a in zip(d.params, args, strict=True) if a is not None}
    passed = tuple(None if a is not None and a[0] else x for x, a in zip(e.args, args, strict=True))
    return look(m, d.value, param, inner, [*calls, (d, passed)], seen | {e.func})


def _reads(cond: A.Node, var: str, env: Env | None, param: str) -> frozenset[str] | None:
    """The names of the action's scope that `cond` reads; None when it reads the placement."""
    found: set[str] = set()
    for n in names(cond) - {var}:
        if env is None:
            if n == param:
                return None
            found.add(n)
        elif n in env:
            is_placement, read = env[n]
            if is_placement:
                return None
            found |= read
    return frozenset(found)


def reads(push: Pushed) -> set[str]:
    """The names the filtered list reads (the source and every condition, without their
    own variables; not the squares to touch: `Touch.reads`)."""
    found = names(push.source)
    for var, cond, _keep in push.conds:
        found |= names(cond) - {var}
    return found
