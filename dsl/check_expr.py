"""The checker's typing of expressions: every expression gets a `Type`, kept in the model.

`ExprChecker.expr` works out the type of an expression, reports what does not fit (unknown
names with "did you mean", indexing, arithmetic, comparisons, calls) and records the type in
`model.types` under the node's identity, so the compiler never works a type out again.
"""

from __future__ import annotations

from typing import Any

from . import ast as A
from .diagnostics import did_you_mean
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
    is_bool,
    is_int,
    is_player,
    optional,
)

DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
KEYWORD_VALUES = {"current", "players", "player_count", "round", "current_phase"}
AGG_RESULT = {"all": BOOL, "any": BOOL, "count": INT, "sum": INT, "streak": INT}
CHANCE_NAMES = ("roll", "random", "shuffled", "bernoulli")


def _first_known(types: list[Type]) -> Type:
    return next((t for t in types if t not in (ANY, NONE)), ANY)


class ExprChecker:
    """Mixed into the checker: needs `self.m` (the Model) and `self.err`."""

    m: Any

    def err(self, code: str, msg: str, span: A.Span, help: str | None = None) -> None:
        raise NotImplementedError

    def resolve(self, t: A.Node | None) -> Type:
        """A written type as a Type (unknown names are reported by check_type)."""
        from .types import resolve

        return resolve(t, self.m.type_kinds)

    def visible_names(self, scope: dict[str, Type]) -> set[str]:
        m = self.m
        return (
            set(scope) | set(m.vars) | set(m.consts) | set(m.options) | set(m.defines) | set(m.data)
            | set(m.element_type) | set(m.enums) | set(m.boards) | KEYWORD_VALUES
            | set(DIRECTIONS) | {"Player", "Direction"}
        )

    def want_bool(self, e: A.Node, t: Type) -> None:
        if not is_bool(t):
            self.err("E211", f"expected a condition (true/false), found {t}", e.span)

    def expr(self, e: A.Node, scope: dict[str, Type]) -> Type:
        t = self._expr(e, scope)
        self.m.types[id(e)] = t
        return t

    def _expr(self, e: A.Node, scope: dict[str, Type]) -> Type:
        if isinstance(e, A.IntLit):
            return INT
        if isinstance(e, A.StrLit):
            return TEXT
        if isinstance(e, A.BoolLit):
            return BOOL
        if isinstance(e, A.NoneLit):
            return NONE
        if isinstance(e, A.Name):
            return self.name(e, scope)
        if isinstance(e, A.ListLit):
            return ListOf(_first_known([self.expr(x, scope) for x in e.items]))
        if isinstance(e, A.SetLit):
            return SetOf(_first_known([self.expr(x, scope) for x in e.items]))
        if isinstance(e, A.MapLit):
            kt: Type = ANY
            vt: Type = ANY
            for k, v in e.items:
                kt, vt = self.expr(k, scope), self.expr(v, scope)
            return MapOf(kt, vt)
        if isinstance(e, A.Index):
            bt = self.expr(e.base, scope)
            kt = self.expr(e.key, scope)
            base = bt.base
            if isinstance(base, MapOf):
                if not compatible(base.key, kt):
                    self.err("E204", f"map key should be {base.key}, not {kt}", e.key.span)
                return base.val
            if isinstance(base, ListOf):
                if not compatible(INT, kt):
                    self.err("E204", f"list index should be int, not {kt}", e.key.span)
                return base.elem
            if base != ANY:
                self.err("E205", f"cannot index a value of type {bt}", e.span)
            return ANY
        if isinstance(e, A.Field):
            return self.field_type(self.expr(e.base, scope).base, e.name, e.span)
        if isinstance(e, A.RecordLit):
            return self.record_literal(e, scope)
        if isinstance(e, A.Call):
            return self.call(e, scope)
        if isinstance(e, A.BinOp):
            lt, rt = self.expr(e.left, scope), self.expr(e.right, scope)
            if e.op == "+" and isinstance(lt.base, ListOf) and isinstance(rt.base, ListOf):
                return lt
            for side, t in ((e.left, lt), (e.right, rt)):
                if not is_int(t):
                    self.err("E207", f"'{e.op}' needs numbers, not {t}", side.span)
            return INT
        if isinstance(e, A.Compare):
            return self.compare(e, scope)
        if isinstance(e, A.BoolOp):
            for x in e.items:
                self.want_bool(x, self.expr(x, scope))
            return BOOL
        if isinstance(e, A.Not):
            self.want_bool(e.operand, self.expr(e.operand, scope))
            return BOOL
        if isinstance(e, A.Neg):
            t = self.expr(e.operand, scope)
            if not is_int(t):
                self.err("E207", f"'-' needs a number, not {t}", e.span)
            return INT
        if isinstance(e, A.Range):
            for x in (e.low, e.high):
                t = self.expr(x, scope)
                if not is_int(t):
                    self.err("E207", f"a range needs numbers, not {t}", x.span)
            return RANGE
        if isinstance(e, A.CondExpr):
            self.want_bool(e.test, self.expr(e.test, scope))
            a, b = self.expr(e.then, scope), self.expr(e.orelse, scope)
            if NONE in (a, b):  # `if c then x else none` is an optional x
                return optional(b if a == NONE else a)
            return a if a != ANY else b
        if isinstance(e, A.Aggregate):
            return self.aggregate(e, scope)
        return ANY

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

    def compare(self, e: A.Compare, scope: dict[str, Type]) -> Type:
        lt, rt = self.expr(e.left, scope), self.expr(e.right, scope)
        for lit, other in ((e.left, rt), (e.right, lt)):  # `pool == {}`: the empty set
            if isinstance(lit, A.MapLit) and not lit.items and isinstance(other.base, SetOf):
                self.m.types[id(lit)] = other.base
        if e.op in ("in", "not in"):
            if rt.base != ANY and not rt.base.is_collection:
                self.err("E208", f"'{e.op}' needs a list, set or map on the right, not {rt}", e.right.span)
            elif not compatible(rt.item, lt):
                self.err("E208", f"a {lt} is never in a collection of {rt.item}", e.span)
            return BOOL
        if e.op in ("<", "<=", ">", ">="):
            lists = all(isinstance(t.base, ListOf) or t.base == ANY for t in (lt, rt))
            if lists and compatible(lt, rt):
                return BOOL  # lists compare item by item, as words in a dictionary
            for side, t in ((e.left, lt), (e.right, rt)):
                if not is_int(t):
                    self.err("E207", f"'{e.op}' needs numbers (or two lists), not {t}", side.span)
        elif not compatible(lt, rt):
            self.err("E209", f"comparing {lt} with {rt} is always {'false' if e.op == '==' else 'true'}", e.span)
        return BOOL

    def aggregate(self, e: A.Aggregate, scope: dict[str, Type]) -> Type:
        dt = self.expr(e.domain, scope)
        inner = dict(scope)
        inner[e.var] = dt.item
        if e.where is not None:
            self.want_bool(e.where, self.expr(e.where, inner))
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

    def call(self, e: A.Call, scope: dict[str, Type], allow_chance: bool = False) -> Type:
        t = self._call(e, scope, allow_chance)
        self.m.types[id(e)] = t
        return t

    def _call(self, e: A.Call, scope: dict[str, Type], allow_chance: bool) -> Type:
        from ..interpreter.library import LIBRARY

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
                    if p.type is not None and not compatible(self.resolve(p.type), at):
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
        return sig.result_type(argtypes, self.m.only_grid_type)

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
        for step in t.steps:
            if isinstance(step, str):
                ty = self.field_type(ty.base, step, t.span)
                continue
            kt = self.expr(step, scope)
            base = ty.base
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
