"""The checker's typing of expressions: every expression gets a `Type`, kept in the model.

`ExprChecker.expr` works out the type of an expression, reports what does not fit (unknown
names with "did you mean", indexing, arithmetic, comparisons, calls) and records the type in
`model.types` under the node's identity, so the compiler never works a type out again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import ast as A
from .check_narrow import facts, forget, narrowed
from .diagnostics import did_you_mean
from .dispatch import NodeTable
from .types import (
    ANY,
    BOOL,
    INT,
    NONE,
    PLAYER,
    RANGE,
    TEXT,
    Elem,
    ListOf,
    MapOf,
    Opt,
    Record,
    SetOf,
    Type,
    compatible,
    fits,
    is_bool,
    is_int,
    is_player,
    optional,
)

DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
KEYWORD_VALUES = {"current", "players", "player_count", "round", "current_phase"}
AGG_RESULT = {"all": BOOL, "any": BOOL, "count": INT, "sum": INT, "streak": INT}
CHANCE_NAMES = ("roll", "random", "shuffled", "bernoulli")
_LITERAL_TYPES: dict[type, Type] = {A.IntLit: INT, A.StrLit: TEXT, A.BoolLit: BOOL, A.NoneLit: NONE}


def _first_known(types: list[Type]) -> Type:
    known = next((t for t in types if t not in (ANY, NONE)), ANY)
    if NONE in types:  # `[a, none]` holds a value or none
        return NONE if known == ANY else optional(known)
    return known


_KIND_WORDS = {
    "int": "a number", "bool": "true or false", "player": "a player", "dir": "a direction",
    "place": "a square or node of a board", "sized": "a text, list, set or map",
    "coll": "a list, set, map or range", "list": "a list", "map": "a map",
    "lists": "a collection of lists", "any": "a value",
}


def _join(a: Type, b: Type) -> Type:
    """The item type of a list made of items of types `a` and `b` (`rest + [none]`)."""
    if a == ANY or b == ANY:
        return ANY
    if a == NONE or b == NONE:
        other = b if a == NONE else a
        return NONE if other == NONE else optional(other)
    if isinstance(a, Opt) or isinstance(b, Opt):
        return optional(a.base if a.base != ANY else b.base)
    return a


class ExprChecker:
    """Mixed into the checker: needs `self.m` (the Model) and `self.err`. Each expression class
    has its handler in `_EXPR` (dsl/dispatch.py), which works out its type."""

    m: Any
    _EXPR: NodeTable[Callable[..., Type]] = NodeTable("an expression")

    def err(self, code: str, msg: str, span: A.Span, help: str | None = None) -> None:
        raise NotImplementedError

    def resolve(self, t: A.Node | None) -> Type:
        """A written type as a Type (unknown names are reported by check_type)."""
        from .types import resolve

        return resolve(t, self.m.type_kinds)

    def visible_names(self, scope: dict[str, Type]) -> set[str]:
        m = self.m
        return (
            {n for n in scope if not n.startswith("?")} | set(m.vars) | set(m.consts) | set(m.options) | set(m.defines) | set(m.data)
            | set(m.element_type) | set(m.enums) | set(m.boards) | KEYWORD_VALUES
            | set(DIRECTIONS) | {"Player", "Direction"}
        )

    def want_bool(self, e: A.Node, t: Type) -> None:
        if not is_bool(t):
            self.err("E211", f"expected a condition (true/false), found {t}", e.span)

    def expr(self, e: A.Node, scope: dict[str, Type]) -> Type:
        t = narrowed(e, self._expr(e, scope), scope)
        self.m.types[id(e)] = t
        return t

    def need(self, e: A.Node, t: Type, what: str) -> Type:
        """`t` without `?`, reporting E245 when the value may be none where `what` needs one."""
        if t == NONE:
            self.err("E245", f"{what} needs a value, not none", e.span)
            return ANY
        if isinstance(t, Opt):
            from .printer import expr_text

            text = expr_text(e)
            self.err("E245", f"'{text}' may be none, but {what} needs a value", e.span,
                     f"test it first: 'if {text} != none' (or 'if let x = {text}', or "
                     f"'require {text} != none')")
            return t.inner
        return t

    def with_facts(self, test: A.Node, scope: dict[str, Type], when: bool) -> dict[str, Type]:
        """`scope` plus what `test` (already checked) proves where it is `when`."""
        found = facts(test, self.m.types, when)
        return {**scope, **found} if found else scope

    def bind(self, scope: dict[str, Type], name: str, t: Type) -> None:
        """Bind a local, in place; facts about an earlier value of the name no longer hold."""
        forget(scope, {name})
        scope[name] = t

    def _expr(self, e: A.Node, scope: dict[str, Type]) -> Type:
        """The type of `e` by the handler of its class (`_EXPR`); ANY for what is no expression."""
        handler = self._EXPR.get(type(e))
        return ANY if handler is None else handler(self, e, scope)

    @_EXPR.on(*_LITERAL_TYPES)
    def _type_literal(self, e: A.Node, scope: dict[str, Type]) -> Type:
        return _LITERAL_TYPES[type(e)]

    @_EXPR.on(A.ListLit)
    def _type_list(self, e: A.ListLit, scope: dict[str, Type]) -> Type:
        return ListOf(_first_known([self.expr(x, scope) for x in e.items]))

    @_EXPR.on(A.SetLit)
    def _type_set(self, e: A.SetLit, scope: dict[str, Type]) -> Type:
        return SetOf(_first_known([self.expr(x, scope) for x in e.items]))

    @_EXPR.on(A.MapLit)
    def _type_map(self, e: A.MapLit, scope: dict[str, Type]) -> Type:
        kt: Type = ANY
        vt: Type = ANY
        for k, v in e.items:
            kt, vt = self.expr(k, scope), self.expr(v, scope)
        return MapOf(kt, vt)

    @_EXPR.on(A.Index)
    def _type_index(self, e: A.Index, scope: dict[str, Type]) -> Type:
        bt = self.need(e.base, self.expr(e.base, scope), "indexing")
        kt = self.expr(e.key, scope)
        base = bt.base
        if isinstance(base, MapOf) and not isinstance(base.key, Opt):
            kt = self.need(e.key, kt, "a map key")
        elif isinstance(base, ListOf):
            kt = self.need(e.key, kt, "a list index")
        if isinstance(base, MapOf):
            if not compatible(base.key, kt):
                self.err("E204", f"map key should be {base.key}, not {kt}", e.key.span)
            self.check_entry(e, scope)
            return base.val
        if isinstance(base, ListOf):
            if not compatible(INT, kt):
                self.err("E204", f"list index should be int, not {kt}", e.key.span)
            return base.elem
        if base != ANY:
            self.err("E205", f"cannot index a value of type {bt}", e.span)
        return ANY

    @_EXPR.on(A.Field)
    def _type_field(self, e: A.Field, scope: dict[str, Type]) -> Type:
        bt = self.need(e.base, self.expr(e.base, scope), f"reading its field '{e.name}'")
        return self.field_type(bt.base, e.name, e.span)

    @_EXPR.on(A.BinOp)
    def _type_binop(self, e: A.BinOp, scope: dict[str, Type]) -> Type:
        lt, rt = self.expr(e.left, scope), self.expr(e.right, scope)
        lt = self.need(e.left, lt, f"'{e.op}'")
        rt = self.need(e.right, rt, f"'{e.op}'")
        if e.op == "+" and isinstance(lt.base, ListOf) and isinstance(rt.base, ListOf):
            return ListOf(_join(lt.base.elem, rt.base.elem))
        for side, t in ((e.left, lt), (e.right, rt)):
            if not is_int(t):
                self.err("E207", f"'{e.op}' needs numbers, not {t}", side.span)
        return INT

    @_EXPR.on(A.BoolOp)
    def _type_boolop(self, e: A.BoolOp, scope: dict[str, Type]) -> Type:
        inner = scope  # `x != none and x > 2`: each part is checked where the earlier ones held
        for x in e.items:
            self.want_bool(x, self.expr(x, inner))
            inner = self.with_facts(x, inner, e.op == "and")
        return BOOL

    @_EXPR.on(A.Not)
    def _type_not(self, e: A.Not, scope: dict[str, Type]) -> Type:
        self.want_bool(e.operand, self.expr(e.operand, scope))
        return BOOL

    @_EXPR.on(A.Neg)
    def _type_neg(self, e: A.Neg, scope: dict[str, Type]) -> Type:
        t = self.need(e.operand, self.expr(e.operand, scope), "'-'")
        if not is_int(t):
            self.err("E207", f"'-' needs a number, not {t}", e.span)
        return INT

    @_EXPR.on(A.Range)
    def _type_range(self, e: A.Range, scope: dict[str, Type]) -> Type:
        for x in (e.low, e.high):
            t = self.need(x, self.expr(x, scope), "a range")
            if not is_int(t):
                self.err("E207", f"a range needs numbers, not {t}", x.span)
        return RANGE

    @_EXPR.on(A.CondExpr)
    def _type_cond(self, e: A.CondExpr, scope: dict[str, Type]) -> Type:
        self.want_bool(e.test, self.expr(e.test, scope))
        a = self.expr(e.then, self.with_facts(e.test, scope, True))
        b = self.expr(e.orelse, self.with_facts(e.test, scope, False))
        if NONE in (a, b):  # `if c then x else none` is an optional x
            return optional(b if a == NONE else a)
        return a if a != ANY else b

    @_EXPR.on(A.LetExpr)
    def _type_let(self, e: A.LetExpr, scope: dict[str, Type]) -> Type:
        """`let x = E` lines of a definition: the body is checked with `x` bound, and only
        the body sees it. Like the `let` statement, it may not hide state or a constant
        (E217), and rebinding a local makes a new one for the lines below."""
        m = self.m
        if isinstance(e.value, A.Call) and self.chance_call(e.value):
            self.call(e.value, scope, allow_chance=True)  # reported here, with the way out
            self.err("E215", f"'{e.value.func}' draws on chance, and a definition may not: use "
                     f"it in a rule, as the statement 'let {e.name} = {e.value.func}(...)', and pass "
                     "the value to the definition", e.value.span)
            vt: Type = ANY
        else:
            vt = self.expr(e.value, scope)
        if e.name in m.vars or e.name in m.consts:
            self.err("E217", f"'let {e.name}' would hide the state or constant '{e.name}'", e.span)
        inner = dict(scope)
        self.bind(inner, e.name, vt)
        return self.expr(e.body, inner)

    def chance_call(self, e: A.Call) -> bool:
        """Whether a call draws on chance: a device, or a library function that does."""
        from ..interpreter.stdlib.library import LIBRARY

        if e.func in self.m.devices:
            return True
        sig = LIBRARY.get(e.func)
        return sig is not None and sig.chance and e.func not in self.m.defines

    @_EXPR.on(A.Name)
    def name(self, e: A.Name, scope: dict[str, Type]) -> Type:
        m = self.m
        n = e.name
        if n in scope:
            return scope[n]
        if n in m.vars:
            return m.var_types[n]
        if n in m.consts:
            return m.const_types.get(n, ANY)
        if n in m.data:
            return m.data_types[n]
        if n in m.options:
            return m.option_types[n]
        if n in m.element_type:
            return Elem(m.element_type[n])
        if n in DIRECTIONS:
            return Elem("Direction")
        if n == "current":
            return PLAYER
        if n == "players":
            return ListOf(PLAYER)
        if n in ("player_count", "round"):
            return INT
        if n == "current_phase":
            return Opt(TEXT)
        if n in m.enums or n in m.boards or n in ("Player", "Direction"):
            return ListOf(Elem(n))
        if n in m.defines:
            self.err("E203", f"'{n}' is a definition: call it as {n}(...)", e.span)
            return ANY
        self.err("E202", f"unknown name '{n}'", e.span, did_you_mean(n, self.visible_names(scope)))
        return ANY

    @_EXPR.on(A.RecordLit)
    def record_literal(self, e: A.RecordLit, scope: dict[str, Type]) -> Type:
        m = self.m
        given = {fname: self.expr(fv, scope) for fname, fv in e.fields}
        fields = m.record_fields.get(e.record)
        if fields is None:
            self.err("E225", f"unknown record '{e.record}'", e.span, did_you_mean(e.record, m.records))
            return ANY
        for fname, ft in given.items():
            if fname not in fields:
                self.err("E206", f"record {e.record} has no field '{fname}'", e.span, did_you_mean(fname, fields))
            elif not compatible(fields[fname], ft):
                self.err("E216", f"field '{fname}' of {e.record} is {fields[fname]}, not {ft}", e.span)
        missing = [f for f in fields if f not in given]
        if missing:
            self.err("E226", f"{e.record}(...) is missing field(s) {', '.join(missing)}", e.span)
        return Record(e.record)

    @_EXPR.on(A.Compare)
    def compare(self, e: A.Compare, scope: dict[str, Type]) -> Type:
        lt, rt = self.expr(e.left, scope), self.expr(e.right, scope)
        for lit, other in ((e.left, rt), (e.right, lt)):  # `pool == {}`: the empty set
            if isinstance(lit, A.MapLit) and not lit.items and isinstance(other.base, SetOf):
                self.m.types[id(lit)] = other.base
        if e.op in ("in", "not in"):
            rt = self.need(e.right, rt, f"'{e.op}'")
            if rt.base != ANY and not rt.base.is_collection:
                self.err("E208", f"'{e.op}' needs a list, set or map on the right, not {rt}", e.right.span)
            elif not compatible(rt.item, lt):
                self.err("E208", f"a {lt} is never in a collection of {rt.item}", e.span)
            return BOOL
        if e.op in ("<", "<=", ">", ">="):
            lt = self.need(e.left, lt, f"'{e.op}'")
            rt = self.need(e.right, rt, f"'{e.op}'")
            lists = all(isinstance(t.base, ListOf) or t.base == ANY for t in (lt, rt))
            if lists and compatible(lt, rt):
                return BOOL  # lists compare item by item, as words in a dictionary
            for side, t in ((e.left, lt), (e.right, rt)):
                if not is_int(t):
                    self.err("E207", f"'{e.op}' needs numbers (or two lists), not {t}", side.span)
        elif not compatible(lt, rt):
            self.err("E209", f"comparing {lt} with {rt} is always {'false' if e.op == '==' else 'true'}", e.span)
        return BOOL

    @_EXPR.on(A.Aggregate)
    def aggregate(self, e: A.Aggregate, scope: dict[str, Type]) -> Type:
        dt = self.need(e.domain, self.expr(e.domain, scope), f"'{e.kind} {e.var} in'")
        inner = dict(scope)
        self.bind(inner, e.var, dt.item)
        if e.where is not None:
            self.want_bool(e.where, self.expr(e.where, inner))
            inner = self.with_facts(e.where, inner, True)
        bt = self.expr(e.body, inner) if e.body is not None else inner[e.var]
        if e.kind in ("all", "any") and e.body is None:
            self.err("E210", f"'{e.kind}' needs a condition after ':'", e.span)
        if (e.kind in ("all", "any") or e.kind == "count") and e.body is not None:
            self.want_bool(e.body, bt)
        if e.kind in ("sum", "max", "min", "argmax", "argmin") and e.body is None:
            self.err("E210", f"'{e.kind}' needs a value after ':'", e.span)
        if e.kind in AGG_RESULT:
            return AGG_RESULT[e.kind]
        if e.kind in ("max", "min", "first"):
            if e.where is None and self.never_empty(e.domain):
                return bt  # `max p in players: score[p]` always has a value
            return optional(bt.base)
        if e.kind in ("argmax", "argmin"):
            return ListOf(inner[e.var])
        if e.kind == "list":
            return ListOf(bt)
        if e.kind == "set":
            return SetOf(bt)
        if e.kind == "map":
            if e.body is None:
                self.err("E210", "'map' needs a value after ':'", e.span)
            return MapOf(inner[e.var], bt)
        return ANY

    def never_empty(self, e: A.Node) -> bool:
        """Whether a domain certainly has an item: the players, an enum or a board, a list written
        with items, a range of two numbers written low to high."""
        if isinstance(e, A.Name):
            return e.name == "players" or e.name in self.m.enums or e.name in self.m.boards or e.name in (
                "Player", "Direction")
        if isinstance(e, A.ListLit):
            return bool(e.items)
        if isinstance(e, A.Range):
            return isinstance(e.low, A.IntLit) and isinstance(e.high, A.IntLit) and e.low.value <= e.high.value
        return False

    def check_entry(self, e: A.Index, scope: dict[str, Type]) -> None:
        """`TABLE[k]` of a constant or data table that lacks some keys of its key type: E249,
        unless `k` is a literal key it has or a test showed `k in TABLE` (a missing key would
        fail the game with "no entry ... in the map")."""
        from .check_narrow import in_key, is_path

        if not isinstance(e.base, A.Name) or e.base.name in scope:
            return
        missing = self.missing_keys(e.base.name)
        if not missing:
            return
        if isinstance(e.key, A.Name) and e.key.name not in scope and e.key.name in self.m.element_type:
            if e.key.name in missing and not getattr(self, "fixed_values", False):  # there: E244
                self.err("E249", f"'{e.base.name}' has no entry {e.key.name}", e.key.span)
            return
        if is_path(e.key) and in_key(e.key, e.base.name) in scope:
            return
        from .printer import expr_text

        shown = ", ".join(missing[:4]) + (", ..." if len(missing) > 4 else "")
        self.err("E249", f"'{e.base.name}' has no entry for every value '{expr_text(e.key)}' may have "
                 f"(none for {shown})", e.key.span,
                 f"test it first: 'if {expr_text(e.key)} in {e.base.name}', or give the table every key")

    def missing_keys(self, name: str) -> list[str]:
        """The values of a constant or data table's finite key type it has no entry for."""
        cache = self.__dict__.setdefault("_missing", {})
        if name in cache:
            return cache[name]
        m = self.m
        keys: set | None = None
        t = m.const_types.get(name) if name in m.consts else m.data_types.get(name) if name in m.data else None
        if name in m.consts and isinstance(m.consts[name].value, A.MapLit):
            lit = m.consts[name].value
            if all(isinstance(k, A.Name) for k, _v in lit.items):
                keys = {k.name for k, _v in lit.items}
        elif name in m.data and isinstance(m.data_values.get(name), dict):
            keys = set(m.data_values[name])
        out: list[str] = []
        if keys is not None and isinstance(t, MapOf) and isinstance(t.key, Elem):
            domain = m.domains().get(t.key.name, ())
            out = [str(v) for v in domain if v not in keys]
        cache[name] = out
        return out

    def field_type(self, record_type: Type, name: str, span: A.Span) -> Type:
        fields = self.m.record_fields.get(record_type.name) if isinstance(record_type, Record) else None
        if fields is None:
            if record_type != ANY:
                self.err("E206", f"a {record_type} has no fields", span)
            return ANY
        if name in fields:
            return fields[name]
        self.err("E206", f"record {record_type} has no field '{name}'", span, did_you_mean(name, fields))
        return ANY

    @_EXPR.on(A.Call)  # and `count ... one per`, which stands for a call
    def call(self, e: A.Call, scope: dict[str, Type], allow_chance: bool = False) -> Type:
        t = self._call(e, scope, allow_chance)
        self.m.types[id(e)] = t
        return t

    def _call(self, e: A.Call, scope: dict[str, Type], allow_chance: bool) -> Type:
        from ..interpreter.stdlib.library import LIBRARY

        m = self.m
        if e.func == "possible":  # possible(action[, player]): its first argument names an action
            if not e.args or not isinstance(e.args[0], A.Name) or e.args[0].name not in m.actions:
                self.err("E219", "possible(...) takes the name of an action (and optionally a player)",
                         e.span, did_you_mean(e.args[0].name, m.actions)
                         if e.args and isinstance(e.args[0], A.Name) else None)
            if len(e.args) > 2:
                self.err("E212", f"'possible' takes 1 to 2 argument(s), got {len(e.args)}", e.span)
            for a in e.args[1:]:
                t = self.expr(a, scope)
                if not is_player(t):
                    self.err("E216", f"possible(...)'s second argument is a player, not {t}", a.span)
            return BOOL
        argtypes = [self.expr(a, scope) for a in e.args]
        if e.func in m.defines:
            d = m.defines[e.func]
            if len(e.args) != len(d.params):
                self.err("E212", f"'{e.func}' takes {len(d.params)} argument(s), got {len(e.args)}",
                         e.span, f"defined at {d.span}")
            else:
                for p, a, at in zip(d.params, e.args, argtypes, strict=True):
                    if p.type is not None and not isinstance(self.resolve(p.type), Opt):
                        at = self.need(a, at, f"'{e.func}'")
                    if p.type is not None and not fits(self.resolve(p.type), at):
                        self.err("E204", f"argument '{p.name}' of '{e.func}' should be "
                                 f"{self.resolve(p.type)}, not {at}", a.span)
            return m.define_types.get(e.func, ANY)
        dev = m.devices.get(e.func)
        if dev is not None:
            if len(e.args) != len(dev.params):
                self.err("E212", f"'{e.func}' takes {len(dev.params)} argument(s), got {len(e.args)}", e.span)
            if not allow_chance:
                self.err("E215", f"'{e.func}' is a chance device: use it only as 'let x = {e.func}(...)'",
                         e.span)
            return self.resolve(dev.type)
        sig = LIBRARY.get(e.func)
        if sig is None:
            if e.func in m.procedures:
                self.err("E213", f"'{e.func}' is a procedure: run it with 'do {e.func}(...)'", e.span)
            elif e.func in m.actions:
                self.err("E213", f"'{e.func}' is an action: offer it with 'play {e.func}'", e.span)
            else:
                self.err("E214", f"unknown function '{e.func}'", e.span,
                         did_you_mean(e.func, set(LIBRARY) | set(m.defines)))
            return ANY
        if not sig.min_args <= len(e.args) <= sig.max_args:
            want = str(sig.min_args) if sig.min_args == sig.max_args else f"{sig.min_args} to {sig.max_args}"
            self.err("E212", f"'{e.func}' takes {want} argument(s), got {len(e.args)}", e.span)
        if sig.chance and not allow_chance:
            self.err("E215", f"'{e.func}' draws on chance: use it only as 'let x = {e.func}(...)'", e.span)
        argtypes = self.library_args(e, sig.params, argtypes)
        result = sig.result_type(argtypes, self.m.only_grid_type)
        if e.func in ("max_of", "min_of", "top") and e.args and isinstance(e.args[0], A.ListLit) and e.args[0].items:
            return result.base  # of a list written out with items: never none
        return result

    def library_args(self, e: A.Call, params: tuple[str, ...], argtypes: list[Type]) -> list[Type]:
        """Check each argument of a library call against what the function takes (see
        `Builtin.params`); return the argument types without the `?` reported."""
        out = []
        for i, (a, t) in enumerate(zip(e.args, argtypes, strict=True)):
            kind = params[min(i, len(params) - 1)] if params else "any?"
            if not kind.endswith("?"):
                t = self.need(a, t, f"'{e.func}'")
            kind = kind.rstrip("?")
            if not self.fits_kind(kind, t):
                self.err("E216", f"argument {i + 1} of '{e.func}' should be {_KIND_WORDS[kind]}, "
                         f"not {t}", a.span)
            out.append(t)
        return out

    def fits_kind(self, kind: str, t: Type) -> bool:
        b = t.base
        if b == ANY or kind == "any" or t == NONE:
            return True
        if kind == "int":
            return b == INT
        if kind == "bool":
            return b == BOOL
        if kind == "player":
            return b == PLAYER
        if kind == "dir":
            return b == Elem("Direction")
        if kind == "place":
            return isinstance(b, Elem) and b.name in self.m.boards
        if kind == "sized":
            return b == TEXT or b.is_collection
        if kind == "coll":
            return b.is_collection
        if kind == "list":
            return isinstance(b, ListOf)
        if kind == "map":
            return isinstance(b, MapOf)
        if kind == "lists":
            return b.is_collection and (b.item.base == ANY or b.item.base.is_collection)
        return True


    def target(self, t: A.Target, scope: dict[str, Type]) -> Type:
        """The type of a written place (`cell[s]`, `army[p].size`), checking each step."""
        m = self.m
        if t.root not in m.vars:
            if t.root in scope:
                self.err("E301", f"'{t.root}' is a local name, not state: use 'let' to rebind it", t.span)
            elif t.root in m.consts or t.root in m.options:
                self.err("E301", f"'{t.root}' is a constant and cannot be changed", t.span)
            else:
                self.err("E301", f"write to undeclared state '{t.root}'", t.span,
                         did_you_mean(t.root, m.vars) or "declare it in a 'state' block")
            return ANY
        ty = m.var_types[t.root]
        place: A.Node = A.Name(t.span, t.root)  # the path written so far, to find what tests proved
        for step in t.steps:
            ty = narrowed(place, ty, scope)
            if isinstance(ty, Opt):
                from .printer import expr_text

                text = expr_text(place)
                self.err("E245", f"'{text}' may be none, but writing into it needs a value", t.span,
                         f"test it first: 'if {text} != none'")
                ty = ty.inner
            place = A.Field(t.span, place, step) if isinstance(step, str) else A.Index(t.span, place, step)
            if isinstance(step, str):
                ty = self.field_type(ty.base, step, t.span)
                continue
            kt = self.expr(step, scope)
            base = ty.base
            if isinstance(base, MapOf) and not isinstance(base.key, Opt):
                kt = self.need(step, kt, "a map key")
            elif isinstance(base, ListOf):
                kt = self.need(step, kt, "a list index")
            if isinstance(base, MapOf):
                if not compatible(base.key, kt):
                    self.err("E204", f"map key should be {base.key}, not {kt}", step.span)
            elif not isinstance(base, ListOf) and base != ANY:
                self.err("E205", f"cannot index '{t.root}' of type {ty}", t.span)
            elif isinstance(base, ListOf) and step is t.steps[-1]:
                self.err("E228", f"cannot assign into an item of the list '{t.root}': lists are values",
                         t.span, "build the new list and assign it whole, or use a map")
            ty = base.value
        m.types[id(t)] = ty
        return ty
