"""Constant values worked out when checking: option defaults, constants and start values.

These are fixed before the first move, so what would go wrong in working one out (a division
by zero, an index past a list's end, a key a constant table does not have) can be reported
with its location when the ruleset is checked, instead of failing the first game. Only what
the text fixes is worked out: literals, names of squares, members and players, options (at
their defaults), data, other constants, and the operators between them. Anything else (a
library call, an aggregate, the number of players) is left unknown, and so is everything that
depends on it; an error is reported only where it certainly happens: not in the branch of an
`if` that may not be taken, nor after an `and` or `or` that may already be decided.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import ast as A
from .printer import expr_text

UNKNOWN: Any = type("Unknown", (), {"__repr__": lambda self: "UNKNOWN"})()
Report = Callable[[str, str, A.Span, str | None], None]


class _Cycle(Exception):
    """A constant that needs itself: the checker reports that elsewhere, or the engine does."""


class ConstantFolder:
    """Works out the constant declarations of a model, reporting what fails where."""

    def __init__(self, model: Any, report: Report):
        self.m = model
        self.report = report
        self.known: dict[str, Any] = {}  # option and constant name -> value (or UNKNOWN)
        self.busy: set[str] = set()
        domains = model.domains()
        self.lists = {n: list(domains.get(n, ())) for n in (*model.enums, *model.boards)}
        self.lists["Direction"] = list(domains["Direction"])

    def run(self) -> None:
        for name in self.m.options:
            self.named(name)
        for name in self.m.consts:
            self.named(name)
        for v in self.m.vars.values():
            if v.default is not None:
                self.value(v.default, True)

    def named(self, name: str) -> Any:
        if name in self.known:
            return self.known[name]
        if name in self.busy:
            raise _Cycle(name)
        self.busy.add(name)
        decl = self.m.options.get(name)
        node = decl.default if decl is not None else self.m.consts[name].value
        try:
            value = self.value(node, True)
        except _Cycle:
            value = UNKNOWN
        self.busy.discard(name)
        self.known[name] = value
        return value

    def fail(self, certain: bool, code: str, message: str, node: A.Node) -> Any:
        if certain:
            self.report(code, message, node.span, None)
        return UNKNOWN

    def value(self, e: A.Node, certain: bool) -> Any:
        """The value of `e`, or UNKNOWN; a failure is reported when `certain` (the expression
        is evaluated whatever happens) and the value is then unknown."""
        v = self.values
        if isinstance(e, (A.IntLit, A.StrLit, A.BoolLit)):
            return e.value
        if isinstance(e, A.NoneLit):
            return None
        if isinstance(e, A.Name):
            return self.name(e.name)
        if isinstance(e, A.ListLit):
            return v([self.value(x, certain) for x in e.items], list)
        if isinstance(e, A.SetLit):
            return v([self.value(x, certain) for x in e.items], _frozen)
        if isinstance(e, A.MapLit):
            pairs = [(self.value(k, certain), self.value(x, certain)) for k, x in e.items]
            if any(UNKNOWN in p for p in pairs) or not all(_hashable(k) for k, _x in pairs):
                return UNKNOWN
            return dict(pairs)
        if isinstance(e, A.RecordLit):
            fields = {n: self.value(x, certain) for n, x in e.fields}
            return UNKNOWN if UNKNOWN in fields.values() else fields
        if isinstance(e, A.Range):
            low, high = self.value(e.low, certain), self.value(e.high, certain)
            return list(range(low, high + 1)) if _ints(low, high) and high - low < 100_000 else UNKNOWN
        if isinstance(e, A.Neg):
            x = self.value(e.operand, certain)
            return -x if _ints(x) else UNKNOWN
        if isinstance(e, A.Not):
            x = self.value(e.operand, certain)
            return (not x) if isinstance(x, bool) else UNKNOWN
        if isinstance(e, A.BinOp):
            return self.binop(e, certain)
        if isinstance(e, A.Compare):
            return self.compare(e, certain)
        if isinstance(e, A.BoolOp):
            for x in e.items:  # the first item is always evaluated, the others maybe not
                got = self.value(x, certain)
                if not isinstance(got, bool):
                    certain = False
                    continue
                if got == (e.op == "or"):
                    return got
            return UNKNOWN if not certain else e.op == "and"
        if isinstance(e, A.CondExpr):
            test = self.value(e.test, certain)
            if isinstance(test, bool):
                return self.value(e.then if test else e.orelse, certain)
            self.value(e.then, False)
            self.value(e.orelse, False)
            return UNKNOWN
        if isinstance(e, A.Index):
            return self.index(e, certain)
        if isinstance(e, A.Field):
            base = self.value(e.base, certain)
            return base.get(e.name, UNKNOWN) if isinstance(base, dict) else UNKNOWN
        return UNKNOWN  # a call or an aggregate

    @staticmethod
    def values(items: list[Any], make: Callable[[list[Any]], Any]) -> Any:
        if UNKNOWN in items or (make is _frozen and not all(_hashable(x) for x in items)):
            return UNKNOWN
        return make(items)

    def name(self, n: str) -> Any:
        m = self.m
        if n in m.options or n in m.consts:
            return self.named(n)
        if n in m.data:
            return m.data_values.get(n, UNKNOWN)
        if n in m.element_type or n in self.lists.get("Direction", ()):
            return n
        if n in self.lists:
            return list(self.lists[n])
        return UNKNOWN  # current, players, round, ...: not fixed by the text

    def binop(self, e: A.BinOp, certain: bool) -> Any:
        left, right = self.value(e.left, certain), self.value(e.right, certain)
        if e.op in ("//", "%") and right == 0 and _ints(right):
            shown = expr_text(e.right)
            why = "the divisor is always 0" if isinstance(e.right, A.IntLit) else f"'{shown}' is 0"
            return self.fail(certain, "E240", f"division by zero: {why}", e.right)
        if e.op == "+" and isinstance(left, list) and isinstance(right, list):
            return left + right
        if not _ints(left, right):
            return UNKNOWN
        if e.op == "*" and left.bit_length() + right.bit_length() > 4096:
            return UNKNOWN  # the engine's own limit on numbers says so at run time
        return {"+": int.__add__, "-": int.__sub__, "*": int.__mul__, "//": int.__floordiv__,
                "%": int.__mod__}[e.op](left, right)

    def compare(self, e: A.Compare, certain: bool) -> Any:
        left, right = self.value(e.left, certain), self.value(e.right, certain)
        if UNKNOWN in (left, right):
            return UNKNOWN
        try:
            if e.op == "==":
                return left == right
            if e.op == "!=":
                return left != right
            if e.op in ("in", "not in"):
                return (left in right) == (e.op == "in") if isinstance(right, (list, dict, frozenset)) else UNKNOWN
            if _ints(left, right):
                return {"<": left < right, "<=": left <= right, ">": left > right, ">=": left >= right}[e.op]
        except TypeError:
            pass
        return UNKNOWN

    def index(self, e: A.Index, certain: bool) -> Any:
        base, key = self.value(e.base, certain), self.value(e.key, certain)
        if UNKNOWN in (base, key):
            return UNKNOWN
        if isinstance(base, list) and _ints(key):
            if 0 <= key < len(base):
                return base[key]
            return self.fail(certain, "E244", f"'{expr_text(e)}' cannot be worked out: index {key} is "
                             f"past the end of a list of {len(base)}", e)
        if isinstance(base, dict) and _hashable(key):
            if key in base:
                return base[key]
            return self.fail(certain, "E244", f"'{expr_text(e)}' cannot be worked out: the table has "
                             f"no entry {key}", e)
        return UNKNOWN


def _ints(*xs: Any) -> bool:
    return all(isinstance(x, int) and not isinstance(x, bool) for x in xs)


def _hashable(x: Any) -> bool:
    return isinstance(x, (int, str, bool)) or x is None


def _frozen(items: list[Any]) -> frozenset:
    return frozenset(items)


def check_constants(model: Any, report: Report) -> None:
    """Report every failure that working out the model's constant values would meet."""
    check_fixed_reads(model, report)
    ConstantFolder(model, report).run()


def check_fixed_reads(model: Any, report: Report) -> None:
    """An option's default, a constant and a start value are worked out before the game has
    any state, so none of them may read a state variable, directly or through a definition
    (E246). `current`, `round` and the players are known by then."""
    memo: dict[str, str | None] = {}

    def via_define(name: str) -> str | None:
        if name not in memo:
            memo[name] = None  # a definition reached again while being read
            memo[name] = first_read(model.defines[name].value)
        return memo[name]

    def first_read(e: A.Node) -> str | None:
        for n in A.iter_nodes(e):
            if isinstance(n, A.Name) and n.name in model.vars:
                return n.name
            if isinstance(n, A.Call) and n.func in model.defines:
                found = via_define(n.func)
                if found is not None:
                    return found
        return None

    fixed = [(f"option '{o.name}'", o.default) for o in model.options.values()]
    fixed += [(f"constant '{c.name}'", c.value) for c in model.consts.values()]
    fixed += [(f"the start value of '{v.name}'", v.default) for v in model.vars.values() if v.default is not None]
    for what, e in fixed:
        var = first_read(e)
        if var is not None:
            report("E246", f"{what} reads the state variable '{var}', but it is worked out before the "
                   "game has any state", e.span, "use a constant or an option here, or set the value "
                   "in the flow before the first turn")
