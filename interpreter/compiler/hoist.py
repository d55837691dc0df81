"""Work done once instead of in every round of a loop: which sub-expressions to hoist.

Listing an action's legal moves runs its preconditions inside nested loops over the
parameters. A part of a precondition that does not depend on the inner parameters
(`one_tile_reservations()`, `TILES[t].form`) is the same in every round; a part written twice
(`protected_by(current, area)` in `x == none or f(x)`) has the same value both times. Both are
computed once into a local. Only parts that are evaluated whenever their precondition is
(not behind an `and`/`or`/`if` that could skip them) are taken, so nothing runs that the
rule would not have run; the rules' expressions have no side effects, so the value is the same.
The preconditions tested at one depth share such parts too (breakthrough's `cell[to]` in two
requires), from the first that always works one out, unless a `let` between them binds one of
the part's names anew.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ...dsl import ast as A
from ...dsl.printer import expr_text

_WORTH = (A.Call, A.Aggregate, A.Index, A.Field)


def always_evaluated(e: A.Node) -> Iterator[A.Node]:
    """The sub-expressions of `e` that are evaluated whenever `e` is, outermost first."""
    yield e
    for sub in _children_always(e):
        yield from always_evaluated(sub)


def occurrences(e: A.Node, bound: frozenset = frozenset()) -> Iterator[tuple[A.Node, frozenset]]:
    """Every expression node below `e`, with the names aggregates around it bind there (an
    occurrence under `count x in ...: f(x)` is not the `f(x)` of the rule's own `x`)."""
    if not isinstance(e, A.Node) or isinstance(e, A.Target):
        return
    yield e, bound
    inner, outside = bound, ""  # the names bound inside `e`, and its part that is outside them
    if isinstance(e, A.Aggregate):
        inner, outside = bound | {e.var}, "domain"
    elif isinstance(e, A.LetExpr):  # a definition's `let`: its name holds in the body only
        inner, outside = bound | {e.name}, "value"
    for name in getattr(e, "__slots__", ()):
        value = getattr(e, name, None)
        children = value if isinstance(value, tuple) else (value,)
        for c in children:
            if isinstance(c, tuple):
                for cc in c:
                    yield from occurrences(cc, inner if name != outside else bound)
            elif isinstance(c, A.Node):
                yield from occurrences(c, inner if name != outside else bound)


def worth_hoisting(e: A.Node) -> bool:
    """Calls, aggregates and look-ups; a bare name or literal costs less than a local."""
    if not isinstance(e, _WORTH):
        return False
    return not (isinstance(e, A.Call) and e.func in ("roll", "random", "shuffled", "bernoulli"))


def key(e: A.Node) -> str:
    return expr_text(e)


def names(e: A.Node) -> set[str]:
    return {n.name for n, _b in occurrences(e) if isinstance(n, A.Name)}


class Hoister:
    """Decides, for the preconditions of one action, what is computed once and where.

    `level_of(names)` gives the loop depth at which a set of names is bound (-1: before every
    loop). A precondition at depth L has its parts of a smaller depth computed at the end of
    that depth (before the next loop), and its parts written twice computed just before it."""

    def __init__(self, level_of: object, fresh: object):
        self.level_of = level_of
        self.fresh = fresh
        self.outer: dict[str, tuple[str, int]] = {}  # key -> (local, depth it is computed at)
        self.at_end: dict[int, list[tuple[str, A.Node]]] = {}

    def plan(self, expr: A.Node, depth: int) -> None:
        """Note the loop-invariant parts of a precondition tested at `depth`."""
        self._walk(expr, depth)

    def _walk(self, e: A.Node, depth: int) -> None:
        if worth_hoisting(e):
            lv = self.level_of(names(e))
            if lv < depth:
                k = key(e)
                if k not in self.outer:
                    local = self.fresh("h")
                    self.outer[k] = (local, lv)
                    self.at_end.setdefault(lv, []).append((local, e))
                return  # its parts are computed with it
        for sub in _children_always(e):
            self._walk(sub, depth)

    def substitutions(self, expr: A.Node, depth: int, before: list[tuple[str, A.Node]],
                      shared: dict[str, str] | None = None, later: set[str] | frozenset = frozenset()
                      ) -> dict[int, str]:
        """Node id -> local for one precondition at `depth`: the hoisted parts, and the parts
        it writes twice (their locals are appended to `before`, to compute just before it, in
        that order: a part before the parts that contain it).
        With `shared`, the preconditions of one depth share their parts, in order: a part this
        one always evaluates and a `later` one writes again is kept in `shared` for it."""
        subst: dict[int, str] = {}
        counts: dict[str, int] = {}
        for n, bound in occurrences(expr):
            if worth_hoisting(n) and not (names(n) & bound):
                counts[key(n)] = counts.get(key(n), 0) + 1
        have = shared or {}
        twice: dict[str, str] = {}
        found = []
        for n in always_evaluated(expr):
            k = key(n)
            if worth_hoisting(n) and (counts.get(k, 0) >= 2 or k in later) and k not in twice \
                    and k not in self.outer and k not in have:
                twice[k] = self.fresh("h")
                found.append((twice[k], n))
        # smallest first: a part is worked out before any part that contains it reads its local
        # (`len(hand[p])` twice, and `hand[p]` three times, once in an aggregate's domain
        # that comes first in the text)
        found.sort(key=lambda item: sum(1 for _ in occurrences(item[1])))
        before.extend(found)
        for n, bound in occurrences(expr):
            if not worth_hoisting(n) or names(n) & bound:
                continue
            k = key(n)
            if k in self.outer and self.outer[k][1] < depth:
                subst[id(n)] = self.outer[k][0]
            elif k in twice:
                subst[id(n)] = twice[k]
            elif k in have:
                subst[id(n)] = have[k]
        if shared is not None:
            shared.update((k, local) for k, local in twice.items() if k in later)
        return subst


def loop_invariants(e: A.Aggregate, costly: Callable[[A.Node], bool]) -> list[A.Node]:
    """The outermost `costly` parts of an aggregate's body that the body evaluates whenever it
    is evaluated and that do not read the aggregate's variable: `own(p, area)` in `all q in
    players: own(q, area) <= own(p, area)`, Root's `rule_strength(p, c)` in `rules(p, c)`. They
    are the same in every round, so the loop works each out once, the first time it needs it."""
    found: list[A.Node] = []

    def walk(n: A.Node) -> None:
        if costly(n) and e.var not in names(n):
            found.append(n)
            return
        for sub in _children_always(n):
            walk(sub)

    if e.body is not None:
        walk(e.body)
    return found


def fixed_parts(e: A.Aggregate, ok: Callable[[A.Node], bool]) -> list[A.Node]:
    """The outermost look-ups and calls in an aggregate's `where` and body that read neither
    its variable nor a name bound inside it, and pass `ok` (the caller's: they cannot fail to
    evaluate). Khan's `TILES[t].bridge` in `list s in Land where yurt[s] != none or ... or
    TILES[t].bridge and ...`: the same in every round, and evaluated only in some, so it may
    be worked out once before the loop only where working it out cannot fail."""
    found: list[A.Node] = []
    inside: set[int] = set()
    for part in (e.where, e.body):
        if part is None:
            continue
        for n, bound in occurrences(part, frozenset({e.var})):
            if id(n) in inside or not worth_hoisting(n) or names(n) & bound or not ok(n):
                continue
            found.append(n)
            inside.update(id(x) for x, _b in occurrences(n))
    return found


def parts(expr: A.Node) -> dict[str, set[str]]:
    """The parts of `expr` worth computing once (outside its aggregates' own names): key ->
    the names the part reads."""
    return {key(n): names(n) for n, bound in occurrences(expr) if worth_hoisting(n) and not (names(n) & bound)}


def _children_always(e: A.Node) -> list[A.Node]:
    """The direct sub-expressions of `e` evaluated whenever `e` is."""
    if isinstance(e, A.BoolOp):
        return [e.items[0]]
    if isinstance(e, (A.Not, A.Neg)):
        return [e.operand]
    if isinstance(e, (A.Compare, A.BinOp)):
        return [e.left, e.right]
    if isinstance(e, A.CondExpr):
        return [e.test]
    if isinstance(e, A.Call) and e.func != "possible":
        return list(e.args)
    if isinstance(e, A.Index):
        return [e.base, e.key]
    if isinstance(e, A.Field):
        return [e.base]
    if isinstance(e, (A.ListLit, A.SetLit)):
        return list(e.items)
    if isinstance(e, A.Aggregate):
        return [e.domain]
    if isinstance(e, A.LetExpr):  # the body too, but its parts may read the local: not taken
        return [e.value]
    return []
