"""What a condition proves about optional values: the checker's flow-sensitive narrowing.

A value of type `T?` may be none, and using it where a value is needed (a map key, a number in
arithmetic, a field's base, a domain to iterate) is refused (E245) unless a test has shown it is
not none on every way there. The tests that show it: `x != none` (or `x == none` being false),
`x == v` for a `v` that is never none, `x in C` for a collection of values; `and`, `or` and `not`
combine them, and `if`/`elif`/`else`, `require`, `while`, `if let`, `c then a else b` and an
aggregate's `where` carry them to the code they guard.

A fact is kept in the checker's scope under the key `"?" + text of the path` (a name, a field or
an index of one: `pick`, `owner[s]`, `army[p].leader`, or any other expression without chance,
such as `top(pile)`), with the narrowed type as its value, so
facts are copied, extended and dropped with the scope itself. A fact stops holding when any name
its path reads is written or rebound; `forget_*` below say which statements do that.
"""

from __future__ import annotations

from . import ast as A
from .printer import expr_text
from .types import ANY, NONE, Opt, Type

Facts = dict[str, Type]


ANY_STATE = "*"  # a fact's path calls a definition, which may read any state variable


def is_path(e: A.Node) -> bool:
    """Whether a test can pin `e` down: an expression that gives the same value until a name it
    reads changes (a name, a field, an index, a call of a definition or of the library), not a
    literal and not chance."""
    if isinstance(e, (A.IntLit, A.StrLit, A.BoolLit, A.NoneLit)):
        return False
    from ..interpreter.stdlib.library import LIBRARY

    for n in A.iter_nodes(e):
        if isinstance(n, A.Call):
            sig = LIBRARY.get(n.func)
            if sig is not None and (sig.chance or n.func == "possible"):
                return False
    return True


def fact_key(e: A.Node) -> str:
    return "?" + expr_text(e)


# Every name a fact's path reads (its root and the names in its index keys), by fact key.
_NAMES: dict[str, frozenset[str]] = {}


def remember(e: A.Node) -> str:
    """The fact key of `e`, noting which names it reads."""
    key = fact_key(e)
    if key not in _NAMES:
        from ..interpreter.stdlib.library import LIBRARY

        names = {n.name for n in A.iter_nodes(e) if isinstance(n, A.Name)}
        if any(isinstance(n, A.Call) and n.func not in LIBRARY for n in A.iter_nodes(e)):
            names.add(ANY_STATE)
        _NAMES[key] = frozenset(names)
    return key


def in_key(e: A.Node, table: str) -> str:
    """The fact key of "`e` is a key of the constant or data table `table`"."""
    return f"?{expr_text(e)} in {table}"


def remember_in(e: A.Node, table: str) -> str:
    key = in_key(e, table)
    if key not in _NAMES:
        names = {n.name for n in A.iter_nodes(e) if isinstance(n, A.Name)} | {table}
        from ..interpreter.stdlib.library import LIBRARY

        if any(isinstance(n, A.Call) and n.func not in LIBRARY for n in A.iter_nodes(e)):
            names.add(ANY_STATE)
        _NAMES[key] = frozenset(names)
    return key


def reads_of(key: str) -> frozenset[str]:
    """The names the path of the fact `key` reads (ANY_STATE when it calls a definition)."""
    return _NAMES.get(key, frozenset())


def facts(test: A.Node, types: dict[int, Type], when: bool) -> Facts:
    """The narrowings that hold where `test` evaluated to `when`; `types` holds the checked
    types of the test's parts (the model's side table)."""
    if isinstance(test, A.Not):
        return facts(test.operand, types, not when)
    if isinstance(test, A.BoolOp):
        if (test.op == "and") == when:  # every part holds (and-true), or every part failed (or-false)
            out: Facts = {}
            for item in test.items:
                out.update(facts(item, types, when))
            return out
        return {}
    if isinstance(test, A.Compare):
        return _compare_facts(test, types, when)
    return {}


def _compare_facts(test: A.Compare, types: dict[int, Type], when: bool) -> Facts:
    out: Facts = {}
    if test.op in ("==", "!="):
        for side, other in ((test.left, test.right), (test.right, test.left)):
            t = types.get(id(side), ANY)
            if not is_path(side) or not isinstance(t, Opt):
                continue
            if isinstance(other, A.NoneLit):
                if (test.op == "!=") == when:
                    out[remember(side)] = t.inner
            elif test.op == "==" and when and _never_none(types.get(id(other), ANY), other):
                out[remember(side)] = t.inner
            elif test.op == "!=" and not when and _never_none(types.get(id(other), ANY), other):
                out[remember(side)] = t.inner
    elif test.op in ("in", "not in") and (test.op == "in") == when:
        if isinstance(test.right, A.Name) and is_path(test.left):  # `c in VALUE`: an entry it has
            out[remember_in(test.left, test.right.name)] = ANY
        t = types.get(id(test.left), ANY)
        coll = types.get(id(test.right), ANY).base
        if is_path(test.left) and isinstance(t, Opt) and coll.is_collection and not isinstance(
                coll.item, Opt) and coll.item not in (ANY, NONE):
            out[remember(test.left)] = t.inner
    return out


def _never_none(t: Type, e: A.Node) -> bool:
    return not isinstance(t, Opt) and t not in (ANY, NONE) and not isinstance(e, A.NoneLit)


def narrowed(e: A.Node, t: Type, scope: dict[str, Type]) -> Type:
    """`e`'s type where the facts in `scope` hold."""
    if isinstance(t, Opt) and is_path(e):
        return scope.get(fact_key(e), t)
    return t


def forget(scope: dict[str, Type], names: set[str] | frozenset[str]) -> None:
    """Drop, in place, every fact whose path reads one of `names` (they were written or rebound)."""
    if not names:
        return
    for key in [k for k in scope if k.startswith("?")]:
        if _NAMES.get(key, frozenset()) & names:
            del scope[key]


def common(branches: list[dict[str, Type]]) -> Facts:
    """The facts that hold at the end of every one of `branches` (the ways into a join)."""
    if not branches:
        return {}
    first, *rest = branches
    return {k: t for k, t in first.items() if k.startswith("?") and all(b.get(k) == t for b in rest)}


def without_facts(scope: dict[str, Type]) -> dict[str, Type]:
    return {k: t for k, t in scope.items() if not k.startswith("?")}
