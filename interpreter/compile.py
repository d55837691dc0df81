"""compile_*: a checked Model → a Program of generated Python functions and VM op lists.

Expressions and straight-line statements become Python source generated from the checked
AST (never user text: every user name is mapped to a generated identifier or a repr'd
constant) and compiled once per ruleset. Blocks that can stop for a decision (`play`,
`choose`, `turn`, `phase`, calls of such procedures) become op lists that the engine's small
VM runs; a suspended game is then plain data (frames of block, pc and locals), so clone and
save need nothing special. Each program is built in two variants: `record=False` has no trace
bookkeeping at all, `record=True` journals every write and records chance and checks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..dsl import ast as A
from ..dsl.check import DIRECTIONS, Model, strip_opt, suspends, type_str, value_type
from ..dsl.printer import expr_text
from . import builtins as B
from .errors import BudgetExceeded, RuleFailure
from .stdlib.graph import Graph
from .stdlib.grid import Grid

MISSING = object()
LOOP_BUDGET = 1_000_000


@dataclass
class CompiledAction:
    name: str
    decl: A.ActionDecl
    params: tuple[str, ...]
    enum: Any  # enum(G, out) appends Action tuples
    check: Any  # check(G, *args) -> index of the first failing require, -1 if legal
    explain: Any  # explain(G, *args) -> list of (index, value, {subexpr: value})
    effect: Any  # effect(G, *args) when the body never suspends
    block: int | None  # op-list id when it can suspend
    requires: list[A.RequireStmt]
    require_texts: list[str] = field(default_factory=list)  # printed once, quoted by every check

    def __post_init__(self) -> None:
        self.require_texts = [expr_text(r.test) for r in self.requires]


@dataclass
class Program:
    model: Model
    record: bool
    grids: dict[str, Grid]
    graphs: dict[str, Graph]
    elements: dict[str, tuple]  # type name -> its values (boards, enums, Direction)
    actions: dict[str, CompiledAction] = field(default_factory=dict)
    procedures: dict[str, Any] = field(default_factory=dict)  # name -> fn or block id
    blocks: list[list[tuple]] = field(default_factory=list)
    flow_block: int = 0
    triggers: list[tuple] = field(default_factory=list)  # (test_fn, fn|None, block|None, decl)
    hooks: dict[str, list[tuple]] = field(default_factory=dict)
    phase_labels: dict[str, int] = field(default_factory=dict)
    invariants: list[tuple] = field(default_factory=list)  # (test_fn, decl)
    var_types: dict[str, str] = field(default_factory=dict)
    rules: dict[str, dict] = field(default_factory=dict)  # rule key -> provenance for traces
    source: str = ""
    namespace: dict = field(default_factory=dict)


def finite_type(t: str, elements: dict[str, tuple]) -> bool:
    return t in elements or t in ("Player", "bool")


def default_for(t: str) -> Any:
    t0 = t
    if t0.startswith("opt:"):
        return None
    if t0 == "int":
        return 0
    if t0 == "bool":
        return False
    if t0 == "text":
        return ""
    if t0.startswith("list:"):
        return []
    if t0.startswith("set:"):
        return frozenset()
    return None


class _Gen:
    """Generates the Python source of one program; `fn` functions are exec'd together."""

    def __init__(self, model: Model, record: bool, elements: dict[str, tuple]):
        self.m = model
        self.record = record
        self.elements = elements
        self.lines: list[str] = []
        self.counter = 0
        self.consts_needed: set[str] = set()

    def fresh(self, prefix: str = "t") -> str:
        self.counter += 1
        return f"_{prefix}{self.counter}"

    # ------------------------------------------------------------------ expressions
    def static_type(self, e: A.Node, sc: dict) -> str:
        if isinstance(e, A.Name):
            if e.name in sc:
                return sc[e.name][1]
            if e.name in self.m.vars:
                return type_str(self.m.vars[e.name].type)
            return "any"
        if isinstance(e, A.Index):
            return value_type(self.static_type(e.base, sc))
        if isinstance(e, A.Field):
            return self.field_type(strip_opt(self.static_type(e.base, sc)), e.name)
        if isinstance(e, A.RecordLit):
            return e.record
        if isinstance(e, A.Name) and e.name in self.elements:
            return "list:" + e.name
        if isinstance(e, A.Name) and e.name in ("players", "Player"):
            return "list:Player"
        if isinstance(e, (A.ListLit, A.Range)):
            return "list:any"
        if isinstance(e, A.SetLit):
            return "set:any"
        if isinstance(e, A.Call) and e.func in self.m.defines:
            return self.m.define_types.get(e.func, "any")
        if isinstance(e, A.Call):
            from ..dsl.library import LIBRARY

            sig = LIBRARY.get(e.func)
            return sig.result if sig is not None and sig.result != "arg0" else "any"
        if isinstance(e, A.Aggregate) and e.kind == "list":
            return "list:any"
        return "any"

    def field_type(self, record: str, name: str) -> str:
        rec = self.m.records.get(record)
        if rec is None:
            return "any"
        return next((type_str(t) for f, t in rec.fields if f == name), "any")

    def ex(self, e: A.Node, sc: dict, rec: list | None = None) -> str:
        """Python source for expression `e`; `rec` (explain mode) collects sub-expressions."""
        code = self._ex(e, sc, rec)
        if rec is not None and self._worth_recording(e, sc):
            rec.append(e)
            return f"_R({len(rec) - 1}, {code})"
        return code

    def _worth_recording(self, e: A.Node, sc: dict) -> bool:
        """Sub-expressions whose values explain a check: not literals, constants or whole maps."""
        if isinstance(e, (A.IntLit, A.StrLit, A.BoolLit, A.NoneLit, A.ListLit, A.MapLit)):
            return False
        if isinstance(e, A.Name):
            if e.name in sc or e.name == "current":
                return True
            if e.name in self.m.vars:
                t = type_str(self.m.vars[e.name].type)
                return not t.startswith(("map:", "list:", "set:"))
            return False
        return True

    def _ex(self, e: A.Node, sc: dict, rec: list | None) -> str:
        m = self.m
        def sub(x: A.Node) -> str:
            return self.ex(x, sc, rec)

        if isinstance(e, A.IntLit):
            return repr(e.value)
        if isinstance(e, A.StrLit):
            return repr(e.value)
        if isinstance(e, A.BoolLit):
            return repr(e.value)
        if isinstance(e, A.NoneLit):
            return "None"
        if isinstance(e, A.Name):
            n = e.name
            if n in sc:
                return sc[n][0]
            if n in m.vars:
                return f"V[{n!r}]"
            if n in m.consts or n in m.options or n in m.data:
                return f"K[{n!r}]"
            if n == "current":
                return "G.current"
            if n == "players":
                return "G.players"
            if n == "player_count":
                return "len(G.players)"
            if n == "round":
                return "G.round"
            if n == "current_phase":
                return "G.phase"
            if n == "Player":
                return "G.players"
            if n in self.elements:
                return f"E[{n!r}]"
            if n in m.element_type or n in DIRECTIONS:
                return repr(n)
            raise RuleFailure(f"unresolved name {n!r}", e.span)
        if isinstance(e, A.ListLit):
            return "[" + ", ".join(sub(x) for x in e.items) + "]"
        if isinstance(e, A.MapLit):
            return "{" + ", ".join(f"{sub(k)}: {sub(v)}" for k, v in e.items) + "}"
        if isinstance(e, A.SetLit):
            return "frozenset([" + ", ".join(sub(x) for x in e.items) + "])"
        if isinstance(e, A.Index):
            bt = strip_opt(self.static_type(e.base, sc))
            base, key = sub(e.base), sub(e.key)
            if bt.startswith("map:"):
                kt = bt[4:].split("->", 1)[0]
                if not finite_type(kt, self.elements):
                    dflt = default_for(value_type(bt))
                    return f"{base}.get({key}, {dflt!r})"
            return f"_index({base}, {key})" if bt == "any" else f"{base}[{key}]"
        if isinstance(e, A.Field):
            return f"{sub(e.base)}[{e.name!r}]"
        if isinstance(e, A.RecordLit):
            return "{" + ", ".join(f"{n!r}: {sub(v)}" for n, v in e.fields) + "}"
        if isinstance(e, A.Call) and e.func == "possible":
            who = sub(e.args[1]) if len(e.args) > 1 else "None"
            return f"c_possible(G, {e.args[0].name!r}, {who})"
        if isinstance(e, A.Call):
            args = ", ".join(sub(a) for a in e.args)
            if e.func in m.defines:
                return f"D_{self.define_ids[e.func]}(G{', ' if args else ''}{args})"
            if e.func in m.devices:
                return f"DV_{self.device_ids[e.func]}(G{', ' if args else ''}{args})"
            if e.func in B.CHANCE or e.func in B.GAME:
                return f"c_{e.func}(G{', ' if args else ''}{args})"
            return f"b_{e.func}({args})"
        if isinstance(e, A.BinOp):
            return f"({sub(e.left)} {e.op} {sub(e.right)})"
        if isinstance(e, A.Compare):
            op = {"==": "==", "!=": "!="}.get(e.op, e.op)
            return f"({sub(e.left)} {op} {sub(e.right)})"
        if isinstance(e, A.BoolOp):
            return "(" + f" {e.op} ".join(sub(x) for x in e.items) + ")"
        if isinstance(e, A.Not):
            return f"(not {sub(e.operand)})"
        if isinstance(e, A.Neg):
            return f"(-{sub(e.operand)})"
        if isinstance(e, A.Range):
            return f"range({sub(e.low)}, {sub(e.high)} + 1)"
        if isinstance(e, A.CondExpr):
            return f"({sub(e.then)} if {sub(e.test)} else {sub(e.orelse)})"
        if isinstance(e, A.Aggregate):
            return self.aggregate(e, sc, rec)
        raise RuleFailure(f"cannot compile {type(e).__name__}", e.span)

    def seq(self, code: str, e: A.Node, sc: dict) -> str:
        """Wrap a domain so sets iterate in a fixed order."""
        t = strip_opt(self.static_type(e, sc))
        if t.startswith("set:") or t == "any":
            return f"_seq({code})"
        return code

    def aggregate(self, e: A.Aggregate, sc: dict, rec: list | None) -> str:
        dom = self.seq(self.ex(e.domain, sc, rec), e.domain, sc)
        v = self.fresh("a")
        inner = dict(sc)
        from ..dsl.check import item_type

        inner[e.var] = (v, item_type(self.static_type(e.domain, sc)))
        # sub-expressions under the bound variable are not recorded: they take many values
        where = self.ex(e.where, inner) if e.where is not None else None
        body = self.ex(e.body, inner) if e.body is not None else None
        cond = where
        k = e.kind
        if k in ("all", "any"):
            gen_if = f" if {where}" if where else ""
            return f"{k}({body} for {v} in {dom}{gen_if})"
        if k == "count":
            parts = [p for p in (where, body) if p]
            c = " and ".join(f"({p})" for p in parts) or "True"
            return f"sum(1 for {v} in {dom} if {c})"
        if k == "sum":
            gen_if = f" if {cond}" if cond else ""
            return f"sum({body} for {v} in {dom}{gen_if})"
        if k in ("max", "min"):
            gen_if = f" if {cond}" if cond else ""
            return f"{k}(({body} for {v} in {dom}{gen_if}), default=None)"
        if k in ("argmax", "argmin"):
            gen_if = f" if {cond}" if cond else ""
            return f"_{k}([{v} for {v} in {dom}{gen_if}], lambda {v}: {body})"
        if k == "first":
            gen_if = f" if {cond}" if cond else ""
            return f"next(({body or v} for {v} in {dom}{gen_if}), None)"
        if k == "streak":
            c = " and ".join(f"({p})" for p in (where, body) if p) or "True"
            return f"_streak({dom}, lambda {v}: {c})"
        if k == "list":
            gen_if = f" if {cond}" if cond else ""
            return f"[{body or v} for {v} in {dom}{gen_if}]"
        if k == "set":
            gen_if = f" if {cond}" if cond else ""
            return f"frozenset({body or v} for {v} in {dom}{gen_if})"
        raise RuleFailure(f"unknown aggregate {k}", e.span)

    # ------------------------------------------------------------------ writes
    def target_parts(self, t: A.Target, sc: dict, out: list[str], ind: str) -> tuple[str, str, str, str]:
        """Emit code that finds the container and key; returns (container, key, path, type)."""
        ty = type_str(self.m.vars[t.root].type)
        if not t.steps:
            return "V", repr(t.root), f"({t.root!r},)", ty
        cont = f"V[{t.root!r}]"
        keys = []
        for i, step in enumerate(t.steps):
            k = self.fresh("k")
            if isinstance(step, str):
                out.append(f"{ind}{k} = {step!r}")
                ty = self.field_type(strip_opt(ty), step)
            else:
                out.append(f"{ind}{k} = {self.ex(step, sc)}")
                ty = value_type(strip_opt(ty))
            keys.append(k)
            if i < len(t.steps) - 1:
                c2 = self.fresh("c")
                out.append(f"{ind}{c2} = _index({cont}, {k})")
                cont = c2
        c = self.fresh("c")
        out.append(f"{ind}{c} = {cont}")
        path = "(" + ", ".join([repr(t.root)] + keys) + ",)"
        return c, keys[-1], path, ty

    def write(self, t: A.Target, sc: dict, value_fn, out: list[str], ind: str) -> None:
        """Emit `container[key] = value_fn(old)` with journaling in the recorded variant."""
        c, k, path, ty = self.target_parts(t, sc, out, ind)
        old = self.fresh("o")
        new = self.fresh("n")
        out.append(f"{ind}{old} = {c}.get({k}, MISSING) if type({c}) is dict else {c}[{k}]")
        out.append(f"{ind}{new} = {value_fn(old, ty)}")
        out.append(f"{ind}_store({c}, {k}, {new})")
        if self.record:
            out.append(f"{ind}J.append(({c}, {k}, {old}, {new}, {path}))")

    # ------------------------------------------------------------------ statements
    def stmts(self, body: tuple, sc: dict, out: list[str], ind: str) -> None:
        if not body:
            out.append(f"{ind}pass")
        for s in body:
            self.stmt(s, sc, out, ind)

    def stmt(self, s: A.Node, sc: dict, out: list[str], ind: str) -> None:
        def ex(x: A.Node) -> str:
            return self.ex(x, sc)

        if isinstance(s, A.SetStmt):
            val = ex(s.value)
            record_like = self._may_be_record(s.value, sc)

            def stored(old: str, ty: str) -> str:
                base = strip_opt(ty)
                if base.startswith("set:"):  # the declared container decides: `set pool = Colour`
                    return f"_as_set({val})"
                if base.startswith("list:"):
                    return f"_as_list({val})"
                return f"_own({val})" if record_like else val

            self.write(s.target, sc, stored, out, ind)
        elif isinstance(s, A.AddStmt):
            val = ex(s.value)
            self.write(s.target, sc, lambda old, ty: f"_add({old}, {val})", out, ind)
        elif isinstance(s, A.RemoveStmt):
            val = ex(s.value)
            self.write(s.target, sc, lambda old, ty: f"_remove({old}, {val})", out, ind)
        elif isinstance(s, A.ClearStmt):
            def cleared(old: str, ty: str) -> str:
                if ty.startswith("opt:") or ty in ("int", "bool", "text") or ty.startswith(("list:", "set:")):
                    return repr(default_for(ty))
                return f"_cleared({old})"

            self.write(s.target, sc, cleared, out, ind)
        elif isinstance(s, A.LetStmt):
            known = sc.get(s.name)
            # rebinding a name in scope updates it (so a loop can accumulate); a new name is new
            name = known[0] if known is not None and known[0] is not None else self.fresh("l")
            out.append(f"{ind}{name} = {ex(s.value)}")
            sc[s.name] = (name, self.static_type(s.value, sc))
        elif isinstance(s, A.MoveStmt):
            item = self.fresh("i")
            out.append(f"{ind}{item} = {ex(s.item)}")
            self.write(s.source, sc, lambda old, ty: f"_remove({old}, {item})", out, ind)
            self.write(s.dest, sc, lambda old, ty: f"_add({old}, {item})", out, ind)
        elif isinstance(s, A.DrawStmt):
            n = self.fresh("i")
            drawn = self.fresh("d")
            out.append(f"{ind}{n} = {ex(s.count)}")
            out.append(f"{ind}{drawn} = []")
            self.write(s.source, sc, lambda old, ty: f"_draw({old}, {n}, {drawn})", out, ind)
            self.write(s.dest, sc, lambda old, ty: f"_add_all({old}, {drawn})", out, ind)
        elif isinstance(s, A.ShuffleStmt):
            self.write(s.target, sc, lambda old, ty: f"c_shuffled(G, {old})", out, ind)
        elif isinstance(s, A.RequireStmt):
            msg = s.message or f"requirement failed: {expr_text(s.test)}"
            out.append(f"{ind}if not {ex(s.test)}:")
            out.append(f"{ind}    raise RuleFailure({msg!r}, SPANS[{self.span_id(s.span)}])")
        elif isinstance(s, A.FinishStmt):
            if s.kind == "ranking":
                v = self.fresh("r")
                inner = {**sc, s.var: (v, "Player")}
                keys = ", ".join(self.ex(x, inner) for x in s.exprs)
                args = f"lambda {v}: ({keys},)"
            else:
                args = ", ".join(ex(x) for x in s.exprs)
            out.append(f"{ind}G.finish({s.kind!r}, [{args}], {self.span_id(s.span)})")
            out.append(f"{ind}return True")
        elif isinstance(s, A.DoStmt):
            args = ", ".join(ex(a) for a in s.args)
            out.append(f"{ind}if P_{self.proc_ids[s.name]}(G{', ' if args else ''}{args}):")
            out.append(f"{ind}    return True")
        elif isinstance(s, A.LogStmt):
            if self.record:
                out.append(f"{ind}G.note_log({s.message!r})")
        elif isinstance(s, A.RevealStmt):
            if self.record:
                to = ex(s.to) if s.to is not None else "None"
                out.append(f"{ind}G.note_reveal({expr_text(s.value)!r}, {ex(s.value)}, {to})")
        elif isinstance(s, A.BreakStmt):
            out.append(f"{ind}break")
        elif isinstance(s, A.ResultStmt):
            out.append(f"{ind}return {ex(s.value)}")
        elif isinstance(s, A.IfStmt):
            for i, (test, body) in enumerate(s.branches):
                out.append(f"{ind}{'if' if i == 0 else 'elif'} {ex(test)}:")
                self.stmts(body, dict(sc), out, ind + "    ")
            if s.orelse:
                out.append(f"{ind}else:")
                self.stmts(s.orelse, dict(sc), out, ind + "    ")
        elif isinstance(s, A.ForStmt):
            v = self.fresh("f")
            inner = dict(sc)
            from ..dsl.check import item_type

            inner[s.var] = (v, item_type(self.static_type(s.domain, sc)))
            out.append(f"{ind}for {v} in list({self.seq(ex(s.domain), s.domain, sc)}):")
            self.stmts(s.body, inner, out, ind + "    ")
        elif isinstance(s, A.RepeatStmt) and s.times is not None:
            out.append(f"{ind}for _ in range({ex(s.times)}):")
            self.stmts(s.body, dict(sc), out, ind + "    ")
        elif isinstance(s, (A.RepeatStmt, A.WhileStmt)):
            budget = self.fresh("b")
            test = "True" if isinstance(s, A.RepeatStmt) else ex(s.test)
            out.append(f"{ind}{budget} = LOOP_BUDGET")
            out.append(f"{ind}while {test}:")
            out.append(f"{ind}    {budget} -= 1")
            out.append(f"{ind}    if {budget} < 0:")
            out.append(f"{ind}        raise BudgetExceeded('a loop ran more than ' + str(LOOP_BUDGET) + "
                       f"' times without a decision', SPANS[{self.span_id(s.span)}])")
            self.stmts(s.body, dict(sc), out, ind + "    ")
        else:
            raise RuleFailure(f"'{type(s).__name__}' cannot run here", s.span)

    def _may_be_record(self, e: A.Node, sc: dict) -> bool:
        """Whether a stored value could be a dict shared with a constant or another path."""
        if isinstance(e, (A.IntLit, A.StrLit, A.BoolLit, A.NoneLit, A.Compare, A.BoolOp, A.Not,
                          A.BinOp, A.Neg, A.ListLit)):
            return False
        t = strip_opt(self.static_type(e, sc))
        return t == "any" or t in self.m.records or t.startswith("map:")

    def span_id(self, span: A.Span) -> int:
        self.spans.append(span)
        return len(self.spans) - 1

    def function(self, name: str, params: list[str], body_lines: list[str]) -> None:
        self.lines.append(f"def {name}({', '.join(['G'] + params)}):")
        self.lines.append("    V = G.vars")
        self.lines.append("    K = G.consts")
        if self.record:
            self.lines.append("    J = G.journal")
        self.lines.extend(body_lines or ["    pass"])
        self.lines.append("")


def _index(base: Any, key: Any) -> Any:
    try:
        return base[key]
    except (KeyError, IndexError, TypeError):
        raise RuleFailure(f"no entry {key!r} in {type(base).__name__}") from None


def _own(value: Any) -> Any:
    """A private copy of a dict value (records, maps) before it is stored in the state."""
    if type(value) is dict:
        return {k: _own(v) for k, v in value.items()}
    return value


def _as_set(value: Any) -> Any:
    return value if type(value) is frozenset or value is None else frozenset(value)


def _as_list(value: Any) -> Any:
    if type(value) is list or value is None:
        return [_own(v) for v in value] if value and type(value[0]) is dict else value
    return [_own(v) for v in value]


def _store(container: Any, key: Any, value: Any) -> None:
    if type(container) is list:  # lists are values: never mutated in place
        raise RuleFailure("cannot assign into a list element; replace the list")
    container[key] = value


def _add(old: Any, value: Any) -> Any:
    t = type(old)
    if t is int:
        return old + value
    if t is list:
        return old + [value]
    if t is frozenset:
        return old | {value}
    if old is MISSING or old is None:
        return value
    raise RuleFailure(f"cannot add to a {t.__name__}")


def _add_all(old: Any, values: list) -> Any:
    for v in values:
        old = _add(old, v)
    return old


def _remove(old: Any, value: Any) -> Any:
    t = type(old)
    if t is int:
        return old - value
    if t is list:
        if value not in old:
            raise RuleFailure(f"{value!r} is not there to remove")
        i = old.index(value)
        return old[:i] + old[i + 1:]
    if t is frozenset:
        if value not in old:
            raise RuleFailure(f"{value!r} is not there to remove")
        return old - {value}
    raise RuleFailure(f"cannot remove from a {t.__name__}")


def _draw(old: list, n: int, drawn: list) -> list:
    if type(old) is not list:
        raise RuleFailure("can only draw from a list")
    if n > len(old):
        raise RuleFailure(f"cannot draw {n}: only {len(old)} left")
    taken = old[len(old) - n:][::-1] if n else []
    drawn.extend(taken)
    return old[: len(old) - n]


def _cleared(old: Any) -> Any:
    """The empty value of the same shape: 0, false, "", [], an empty set, a map of empties."""
    t = type(old)
    if t is int:
        return 0
    if t is bool:
        return False
    if t is list:
        return []
    if t is frozenset:
        return frozenset()
    if t is dict:
        return {k: _cleared(v) for k, v in old.items()}
    return None


def make_order(model: Model, elements: dict[str, tuple]) -> Any:
    """The sort key of values: board squares and nodes, enum members and players in the order
    they are declared (c3 before c11), then numbers, then other texts."""
    rank: dict[Any, int] = {}
    if model.players is not None:
        for n in model.players.names:
            rank.setdefault(n, len(rank))
    for name, values in elements.items():
        if name != "bool":
            for v in values:
                rank.setdefault(v, len(rank))

    def key(x: Any) -> tuple:
        r = rank.get(x) if isinstance(x, str) else None
        if r is not None:
            return (0, r, "")
        if isinstance(x, (int, bool)):
            return (1, int(x), "")
        return (2, 0, x if isinstance(x, str) else repr(x))

    return key


def _seq_by(key: Any) -> Any:
    def seq(items: Any) -> Any:
        """Sets iterate in declaration order, so play is the same in every process."""
        if type(items) is frozenset:
            return sorted(items, key=key)
        return items

    return seq


def _uniq(items: Any) -> list:
    """The distinct items in first-seen order (lists compare by value too)."""
    try:
        return list(dict.fromkeys(items))
    except TypeError:
        out: list = []
        for x in items:
            if x not in out:
                out.append(x)
        return out


def _streak(items: Any, pred: Any) -> int:
    n = 0
    for x in items:
        if not pred(x):
            break
        n += 1
    return n


def _argmax(items: list, key: Any) -> list:
    if not items:
        return []
    scores = [key(x) for x in items]
    best = max(scores)
    return [x for x, s in zip(items, scores, strict=True) if s == best]


def _argmin(items: list, key: Any) -> list:
    if not items:
        return []
    scores = [key(x) for x in items]
    best = min(scores)
    return [x for x, s in zip(items, scores, strict=True) if s == best]


def _build_boards(model: Model) -> tuple[dict, dict, dict]:
    grids: dict[str, Grid] = {}
    graphs: dict[str, Graph] = {}
    elements: dict[str, tuple] = {"Direction": DIRECTIONS}
    for name, d in model.boards.items():
        if isinstance(d, A.GridDecl):
            g = Grid(d.width, d.height)
            grids[name] = g
            elements[name] = tuple(g.squares)
        elif isinstance(d, A.GraphFileDecl):
            nodes, edges = model.graph_files[name]
            graphs[name] = Graph(nodes, edges)
            elements[name] = tuple(nodes)
        else:
            nodes = []
            edges = []
            for path in d.paths:
                for n in path:
                    if n not in nodes:
                        nodes.append(n)
                edges.extend(zip(path, path[1:], strict=False))
            graphs[name] = Graph(nodes, edges)
            elements[name] = tuple(nodes)
    for name, d in model.enums.items():
        elements[name] = tuple(d.members)
    elements["bool"] = (False, True)
    return grids, graphs, elements


def compile_model(model: Model, record: bool) -> Program:
    """Generate and compile the whole program for one checked model."""
    grids, graphs, elements = _build_boards(model)
    prog = Program(model, record, grids, graphs, elements)
    prog.var_types = {n: type_str(v.type) for n, v in model.vars.items()}
    g = _Gen(model, record, elements)
    g.spans = []
    g.define_ids = {n: i for i, n in enumerate(model.defines)}
    g.proc_ids = {n: i for i, n in enumerate(model.procedures)}
    g.device_ids = {n: i for i, n in enumerate(model.devices)}
    builder = _Blocks(g, prog)

    # chance devices: roll (or a scripted outcome), check, settle
    for name, dv in model.devices.items():
        i = g.device_ids[name]
        sc = {p.name: (f"p{j}", type_str(p.type) if p.type else "any") for j, p in enumerate(dv.params)}
        params = [sc[p.name][0] for p in dv.params]
        lines: list[str] = []
        g.stmts(dv.roll, dict(sc), lines, "    ")
        g.function(f"DR_{i}", params, lines)
        inner = dict(sc)
        inner["outcome"] = ("outcome", type_str(dv.type))
        lines = [f"    outcome = G.take_script({name!r}) if G.scripted else MISSING",
                 "    scripted = outcome is not MISSING",
                 "    if scripted:",
                 f"        outcome = G.scripted_value({name!r}, {type_str(dv.type)!r}, outcome, "
                 f"SPANS[{g.span_id(dv.span)}])",
                 "    if not scripted:",
                 f"        outcome = DR_{i}(G{', ' if params else ''}{', '.join(params)})"]
        for r in dv.requires:
            msg = r.message or f"impossible outcome: {expr_text(r.test)}"
            lines.append(f"    if not {g.ex(r.test, inner)}:")
            lines.append(f"        raise RuleFailure(('scripted: ' if scripted else '') + {msg!r}, "
                         f"SPANS[{g.span_id(r.span)}])")
        args_repr = "[" + ", ".join(params) + "]"
        lines.append(f"    G.note_chance('device', {name!r} + ('(scripted)' if scripted else ''), outcome, {args_repr})")
        body: list[str] = []
        g.stmts(dv.settle, dict(inner), body, "    ")
        lines.extend(body if dv.settle else [])
        lines.append("    return outcome")
        g.function(f"DV_{i}", params, lines)
        prog.rules[f"device:{name}"] = _prov_info(name, dv.prov, dv.span, model.base_dir)

    # definitions: pure functions
    for name, d in model.defines.items():
        sc = {p.name: (f"p{i}", type_str(p.type) if p.type else "any") for i, p in enumerate(d.params)}
        params = [sc[p.name][0] for p in d.params]
        g.function(f"D_{g.define_ids[name]}", params, [f"    return {g.ex(d.value, sc)}"])

    # procedures: plain functions unless they can suspend
    for name, p in model.procedures.items():
        pid = g.proc_ids[name]
        if name in model.suspends:
            prog.procedures[name] = ("block", builder.block(p.body, _param_scope(p.params), f"procedure:{name}",
                                                             [q.name for q in p.params]))
        else:
            sc = {q.name: (f"p{i}", type_str(q.type) if q.type else "any") for i, q in enumerate(p.params)}
            lines: list[str] = []
            g.stmts(p.body, sc, lines, "    ")
            lines.append("    return False")
            pnames = [sc[q.name][0] for q in p.params]
            if record:  # the trace attributes the procedure's changes to it, not its caller
                g.function(f"PB_{pid}", pnames, lines)
                g.function(f"P_{pid}", pnames, [
                    f"    prev = G.push_rule({'procedure:' + name!r})",
                    "    try:",
                    f"        return PB_{pid}(G{', ' if pnames else ''}{', '.join(pnames)})",
                    "    finally:",
                    "        G.pop_rule(prev)",
                ])
            else:
                g.function(f"P_{pid}", pnames, lines)
            prog.procedures[name] = ("fn", f"P_{pid}")
        prog.rules[f"procedure:{name}"] = _prov_info(name, p.prov, p.span, model.base_dir)
    for name in model.procedures:
        if name in model.suspends:  # a callable stub so a non-suspending caller fails loudly
            g.function(f"P_{g.proc_ids[name]}", ["*a"], [
                f"    raise RuleFailure('procedure {name} stops for a decision and cannot run here')"])

    # actions
    action_src: dict[str, dict[str, str]] = {}
    for name, a in model.actions.items():
        action_src[name] = builder.action(name, a)

    # triggers and hooks
    trig_src = []
    for i, t in enumerate(model.triggers):
        key = f"when:{i}"
        g.function(f"TT_{i}", [], [f"    return bool({g.ex(t.test, {})})"])
        if suspends(t.body, model.suspends):
            trig_src.append((f"TT_{i}", None, builder.block(t.body, {}, key, []), t))
        else:
            lines = []
            g.stmts(t.body, {}, lines, "    ")
            lines.append("    return False")
            g.function(f"TB_{i}", [], lines)
            trig_src.append((f"TT_{i}", f"TB_{i}", None, t))
        prog.rules[key] = _prov_info(f"when {expr_text(t.test)}", t.prov, t.span, model.base_dir)
    hook_src: dict[str, list] = {}
    for i, h in enumerate(model.hooks):
        key = f"on:{i}"
        lines = []
        g.stmts(h.body, {}, lines, "    ")
        lines.append("    return False")
        g.function(f"HB_{i}", [], lines)
        hook_src.setdefault(h.event, []).append((f"HB_{i}", key))
        prog.rules[key] = _prov_info(f"on {h.event}", h.prov, h.span, model.base_dir)

    for i, inv in enumerate(model.invariants):
        g.function(f"INV_{i}", [], [f"    return bool({g.ex(inv.test, {})})"])

    # the flow
    if model.flow is not None:
        prog.flow_block = builder.block(model.flow.body, {}, "flow", [], top=True)
        prog.rules["flow"] = _prov_info("flow", model.flow.prov, model.flow.span, model.base_dir)

    source = "\n".join(g.lines) + "\n"
    prog.source = source
    from .game import Action

    order = make_order(model, elements)
    ns: dict[str, Any] = {
        "ACT": Action,
        "MISSING": MISSING,
        "RuleFailure": RuleFailure,
        "BudgetExceeded": BudgetExceeded,
        "LOOP_BUDGET": LOOP_BUDGET,
        "_seq": _seq_by(order),
        "_index": _index,
        "_store": _store,
        "_own": _own,
        "_as_set": _as_set,
        "_as_list": _as_list,
        "_add": _add,
        "_add_all": _add_all,
        "_remove": _remove,
        "_draw": _draw,
        "_cleared": _cleared,
        "_streak": _streak,
        "_uniq": _uniq,
        "_argmax": _argmax,
        "_argmin": _argmin,
        "E": elements,
        "SPANS": g.spans,
        "__builtins__": {"len": len, "sum": sum, "all": all, "any": any, "max": max, "min": min,
                          "next": next, "range": range, "list": list, "frozenset": frozenset,
                          "bool": bool, "type": type, "dict": dict, "enumerate": enumerate, "str": str, "True": True, "False": False,
                          "None": None},
    }
    for fname, fn in B.make_builtins(grids, graphs, order).items():
        ns[f"b_{fname}"] = fn
    for fname, fn in {**B.CHANCE, **B.GAME}.items():
        ns[f"c_{fname}"] = fn
    prog.namespace = ns
    code = compile(source, f"<regelwerk:{model.title}>", "exec")
    exec(code, ns)  # generated from the checked AST only; see the module docstring
    prog.blocks = builder.resolve(ns)
    for name, srcs in action_src.items():
        a = model.actions[name]
        ca = CompiledAction(
            name, a, tuple(p.name for p in a.params), ns[srcs["enum"]], ns[srcs["check"]],
            ns[srcs["explain"]], ns.get(srcs["effect"]) if srcs["effect"] else None,
            srcs["block"], srcs["requires"],
        )
        prog.actions[name] = ca
        prog.rules[f"action:{name}"] = _prov_info(name, a.prov, a.span, model.base_dir)
    for name, (kind, ref) in list(prog.procedures.items()):
        prog.procedures[name] = (kind, ns[ref] if kind == "fn" else ref)
    prog.triggers = [(ns[t], ns[b] if b else None, blk, d) for t, b, blk, d in trig_src]
    prog.hooks = {ev: [(ns[f], key) for f, key in lst] for ev, lst in hook_src.items()}
    prog.phase_labels = builder.phase_labels
    prog.invariants = [(ns[f"INV_{i}"], inv) for i, inv in enumerate(model.invariants)]
    return prog


def _param_scope(params: tuple) -> dict:
    return {p.name: (None, type_str(p.type) if p.type else "any") for p in params}


def _prov_info(name: str, prov: A.Provenance, span: A.Span, base: str = "") -> dict:
    import os

    file = os.path.relpath(span.file, base) if base and os.path.isabs(span.file) == os.path.isabs(base) else span.file
    return {
        "name": name,
        "source": list(prov.sources),
        "spec": list(prov.specs),
        "quote": prov.quote,
        "at": f"{file}:{span.line}:{span.column}",
    }


class _Blocks:
    """Builds VM op lists for blocks that can suspend, and the action functions."""

    def __init__(self, g: _Gen, prog: Program):
        self.g = g
        self.prog = prog
        self.pending: list[list[tuple]] = []
        self.phase_labels: dict[str, int] = {}

    def resolve(self, ns: dict) -> list[list[tuple]]:
        """Replace generated function names in ops by the functions themselves."""
        def fix(x: Any) -> Any:
            if isinstance(x, str) and x.startswith("@"):
                return ns[x[1:]]
            if isinstance(x, tuple):
                return tuple(fix(y) for y in x)
            return x

        return [[fix(op) for op in ops] for ops in self.pending]

    # -- segment functions: locals live in the frame dict L between ops
    def seg(self, stmts: list, sc: dict) -> str:
        g = self.g
        name = g.fresh("S")
        inner = {}
        lines = []
        for user, (_py, ty) in sc.items():
            py = g.fresh("v")
            inner[user] = (py, ty)
            lines.append(f"    {py} = L[{user!r}]")
        before = {user: py for user, (py, _t) in inner.items()}
        body: list[str] = []
        for s in stmts:
            g.stmt(s, inner, body, "    ")
        lines.extend(body)
        rebound = {n.name for s in stmts for n in _lets(s)}
        for user in inner:  # new names and rebound ones live on in the frame
            if before.get(user) != inner[user][0] or user in rebound:
                lines.append(f"    L[{user!r}] = {inner[user][0]}")
        for user in list(inner):
            sc[user] = (None, inner[user][1])
        lines.append("    return False")
        g.function(name, ["L"], lines)
        return "@" + name

    def fn_of(self, expr: A.Node, sc: dict) -> str:
        g = self.g
        name = g.fresh("X")
        lines = []
        inner = {}
        for user, (_py, ty) in sc.items():
            py = g.fresh("v")
            inner[user] = (py, ty)
            lines.append(f"    {py} = L[{user!r}]")
        lines.append(f"    return {g.ex(expr, inner)}")
        g.function(name, ["L"], lines)
        return "@" + name

    def block(self, body: tuple, sc: dict, rule: str, params: list[str], top: bool = False) -> int:
        bid = len(self.pending)
        ops: list[tuple] = []
        self.pending.append(ops)
        self.rule = rule
        self.emit(body, dict(sc), ops, loops=[], top=top)
        ops.append(("ret",))
        return bid

    def emit(self, body: tuple, sc: dict, ops: list, loops: list, top: bool = False) -> None:
        model = self.g.m
        run: list = []

        def flush() -> None:
            if run:
                ops.append(("seg", self.seg(list(run), sc)))
                run.clear()

        for s in body:
            if (not suspends((s,), model.suspends) and not isinstance(s, (A.BreakStmt, A.FinishStmt))
                    and not (loops and _has_loose_break(s))):
                run.append(s)
                continue
            flush()
            if isinstance(s, A.FinishStmt):
                ops.append(("seg", self.seg([s], sc)))
            elif isinstance(s, A.BreakStmt):
                ops.append(("jmp", loops[-1]))  # patched at loop end
            elif isinstance(s, A.PlayStmt):
                by = self.fn_of(s.by, sc) if s.by is not None else None
                if s.up_to == 1:
                    ops.append(("play", s.actions, s.optional, by, None, s.span))
                    if s.optional:
                        ops[-1] = ops[-1][:4] + (len(ops),) + ops[-1][5:]
                else:
                    slot = self.g.fresh("n")
                    ops.append(("cnt_init", slot, s.up_to))
                    head = len(ops)
                    ops.append(("cnt_next", slot, None))
                    ops.append(("play", s.actions, True, by, None, s.span))
                    ops.append(("jmp", head))
                    end = len(ops)
                    ops[head] = ("cnt_next", slot, end)
                    ops[head + 1] = ("play", s.actions, True, by, end, s.span)
            elif isinstance(s, A.ChooseStmt):
                from ..dsl.check import item_type

                dom = self.fn_of(s.domain, sc)
                where = None
                if s.where is not None:
                    inner = dict(sc)
                    inner[s.name] = (None, item_type(self.g.static_type(s.domain, sc)))
                    where = self.fn_of(s.where, inner)
                by = self.fn_of(s.by, sc) if s.by is not None else None
                ops.append(("choose", s.name, dom, where, by, s.prompt, s.span))
                sc[s.name] = (None, "any")
            elif isinstance(s, A.DoStmt):
                proc = model.procedures[s.name]
                args = [self.fn_of(a, sc) for a in s.args]
                ops.append(("call", s.name, tuple(args), tuple(p.name for p in proc.params)))
            elif isinstance(s, A.TurnStmt):
                slot = self.g.fresh("p")
                who = self.fn_of(s.player, sc) if s.player is not None else None
                ops.append(("turn_begin", who, slot))
                self.emit(s.body, dict(sc), ops, loops)
                ops.append(("turn_end", who is None, slot))
            elif isinstance(s, A.PhaseStmt):
                slot = self.g.fresh("h")
                if top:
                    self.phase_labels[s.name] = len(ops)
                ops.append(("phase_begin", s.name, slot))
                self.prog.rules[f"phase:{s.name}"] = _prov_info(s.name, s.prov, s.span, model.base_dir)
                self.emit(s.body, dict(sc), ops, loops)
                ops.append(("phase_end", s.name, slot))
            elif isinstance(s, A.GotoStmt):
                ops.append(("goto", s.phase))
            elif isinstance(s, A.IfStmt):
                ends = []
                for test, body in s.branches:
                    jf = len(ops)
                    ops.append(None)
                    self.emit(body, dict(sc), ops, loops)
                    ends.append(len(ops))
                    ops.append(None)
                    ops[jf] = ("jf", self.fn_of(test, sc), len(ops))
                if s.orelse:
                    self.emit(s.orelse, dict(sc), ops, loops)
                for e in ends:
                    ops[e] = ("jmp", len(ops))
            elif isinstance(s, (A.ForStmt, A.RepeatStmt, A.WhileStmt)):
                self.loop(s, sc, ops, loops)
            else:
                raise RuleFailure(f"cannot compile {type(s).__name__} here", s.span)
        flush()

    def loop(self, s: A.Node, sc: dict, ops: list, loops: list) -> None:
        marker = object()
        inner = dict(sc)
        if isinstance(s, A.ForStmt):
            slot = self.g.fresh("it")
            ops.append(("for_init", slot, self.fn_of(s.domain, sc)))
            head = len(ops)
            ops.append(None)
            inner[s.var] = (None, "any")
        elif isinstance(s, A.RepeatStmt) and s.times is not None:
            slot = self.g.fresh("n")
            ops.append(("rep_init", slot, self.fn_of(s.times, sc)))
            head = len(ops)
            ops.append(None)
        elif isinstance(s, A.WhileStmt):
            head = len(ops)
            ops.append(None)
        else:
            head = len(ops)
        self.emit(s.body, inner, ops, loops + [marker])
        ops.append(("jmp", head))
        end = len(ops)
        if isinstance(s, A.ForStmt):
            ops[head] = ("for_next", slot, s.var, end)
        elif isinstance(s, A.RepeatStmt) and s.times is not None:
            ops[head] = ("rep_next", slot, end)
        elif isinstance(s, A.WhileStmt):
            ops[head] = ("jf", self.fn_of(s.test, sc), end)
        for i in range(head, end):  # patch breaks of this loop
            if ops[i] == ("jmp", marker):
                ops[i] = ("jmp", end)

    # -- actions
    def action(self, name: str, a: A.ActionDecl) -> dict:
        g = self.g
        model = g.m
        pre: list[A.Node] = []
        rest: list[A.Node] = []
        for s in a.body:
            if not rest and isinstance(s, (A.LetStmt, A.RequireStmt)) and not is_chance_let(s, model):
                pre.append(s)
            else:
                rest.append(s)
        requires = [s for s in pre if isinstance(s, A.RequireStmt)]
        aid = len(g.lines)
        pnames = [f"p{i}" for i in range(len(a.params))]
        sc: dict = {}
        ptypes = []
        for i, p in enumerate(a.params):
            from ..dsl.check import item_type

            ty = type_str(p.type) if p.type is not None else item_type(g.static_type(p.domain, sc))
            ptypes.append(ty)
            sc[p.name] = (pnames[i], ty)

        def domain_code(i: int, scope: dict) -> str:
            p = a.params[i]
            if p.domain is not None:  # a value offered twice is one move, not two
                return f"_uniq(_seq({g.ex(p.domain, scope)}))"
            t = type_str(p.type)
            if t == "Player":
                return "G.players"
            return f"E[{t!r}]"

        # which params each preamble item needs (through lets too)
        deps: list[int] = []
        let_level: dict[str, int] = {}
        for s in pre:
            names = {n.name for n in _names(s)}
            lvl = -1
            for i, p in enumerate(a.params):
                if p.name in names:
                    lvl = max(lvl, i)
            for ln, ll in let_level.items():
                if ln in names:
                    lvl = max(lvl, ll)
            if isinstance(s, A.LetStmt):
                let_level[s.name] = lvl
            deps.append(lvl)

        # enum(G, out)
        lines: list[str] = []
        ind = "    "
        esc: dict = {}
        items_at = {lvl: [s for s, d in zip(pre, deps, strict=True) if d == lvl] for lvl in range(-1, len(a.params))}

        def emit_pre(items: list, ind: str) -> str:
            for s in items:
                if isinstance(s, A.LetStmt):
                    py = g.fresh("l")
                    lines.append(f"{ind}{py} = {g.ex(s.value, esc)}")
                    esc[s.name] = (py, g.static_type(s.value, esc))
                else:
                    lines.append(f"{ind}if not {g.ex(s.test, esc)}:")
                    lines.append(f"{ind}    {'return' if ind == '    ' else 'continue'}")
            return ind

        emit_pre(items_at[-1], ind)
        param_names = {p.name for p in a.params} | set(let_level)
        hoisted: dict[int, str] = {}
        for i, p in enumerate(a.params):  # domains that need no parameter are computed once
            if p.domain is not None and not ({n.name for n in _names(p.domain)} & param_names):
                hoisted[i] = g.fresh("dom")
                lines.append(f"{ind}{hoisted[i]} = {domain_code(i, esc)}")
        for i, p in enumerate(a.params):
            lines.append(f"{ind}for {pnames[i]} in {hoisted.get(i) or domain_code(i, esc)}:")
            esc[p.name] = (pnames[i], ptypes[i])
            ind += "    "
            emit_pre(items_at[i], ind)
        lines.append(f"{ind}out.append(ACT({name!r}, ({', '.join(pnames)}{',' if pnames else ''})))")
        g.function(f"AE_{aid}", ["out"], lines)

        # check(G, *args): domain membership, then requires in source order
        lines = []
        csc: dict = {}
        for i, p in enumerate(a.params):
            lines.append(f"    if {pnames[i]} not in {domain_code(i, csc)}:")
            lines.append(f"        return {-(i + 2)}")
            csc[p.name] = (pnames[i], ptypes[i])
        k = 0
        for s in pre:
            if isinstance(s, A.LetStmt):
                py = g.fresh("l")
                lines.append(f"    {py} = {g.ex(s.value, csc)}")
                csc[s.name] = (py, g.static_type(s.value, csc))
            else:
                lines.append(f"    if not {g.ex(s.test, csc)}:")
                lines.append(f"        return {k}")
                k += 1
        lines.append("    return -1")
        g.function(f"AC_{aid}", pnames, lines)

        # explain(G, *args) -> [(index, value, [(subexpr, value)])] for each require in order
        lines = ["    out = []"]
        xsc: dict = {}
        for i, p in enumerate(a.params):
            xsc[p.name] = (pnames[i], ptypes[i])
        k = 0
        for s in pre:
            if isinstance(s, A.LetStmt):
                py = g.fresh("l")
                lines.append(f"    {py} = {g.ex(s.value, xsc)}")
                xsc[s.name] = (py, g.static_type(s.value, xsc))
            else:
                rec: list = []
                code = g.ex(s.test, xsc, rec)
                texts = [expr_text(r) for r in rec]
                lines.append("    seen = {}")
                lines.append("    def _R(i, v, seen=seen):")
                lines.append("        seen[i] = v")
                lines.append("        return v")
                lines.append(f"    value = {code}")
                lines.append(f"    out.append(({k}, value, [(t, seen[i]) for i, t in enumerate({texts!r}) if i in seen]))")
                lines.append("    if not value:")
                lines.append("        return out")
                k += 1
        lines.append("    return out")
        g.function(f"AX_{aid}", pnames, lines)

        # effect
        effect = block = None
        if suspends(tuple(rest), model.suspends):
            psc = {p.name: (None, ptypes[i]) for i, p in enumerate(a.params)}
            lets = [s for s in pre if isinstance(s, A.LetStmt)]
            block = self.block(tuple(lets) + tuple(rest), psc, f"action:{name}", [p.name for p in a.params])
        else:
            lines = []
            fsc = {p.name: (pnames[i], ptypes[i]) for i, p in enumerate(a.params)}
            for s in pre:
                if isinstance(s, A.LetStmt):
                    g.stmt(s, fsc, lines, "    ")
            g.stmts(tuple(rest), fsc, lines, "    ")
            lines.append("    return False")
            g.function(f"AF_{aid}", pnames, lines)
            effect = f"AF_{aid}"
        return {"enum": f"AE_{aid}", "check": f"AC_{aid}", "explain": f"AX_{aid}", "effect": effect,
                "block": block, "requires": requires}


def _names(node: Any) -> list[A.Name]:
    from ..dsl.parse import iter_nodes

    return [n for n in iter_nodes(node) if isinstance(n, A.Name)]


def is_chance_let(s: A.Node, model: Model) -> bool:
    """A `let` that draws on chance is an effect, never part of an action's preconditions."""
    return (isinstance(s, A.LetStmt) and isinstance(s.value, A.Call)
            and (s.value.func in model.devices or s.value.func in B.CHANCE))


def _lets(node: Any) -> list[A.LetStmt]:
    from ..dsl.parse import iter_nodes

    return [n for n in iter_nodes(node) if isinstance(n, A.LetStmt)]


def _has_loose_break(s: A.Node) -> bool:
    """Whether `s` holds a `break` aimed at a loop outside it (so it must become VM ops)."""
    if isinstance(s, A.BreakStmt):
        return True
    if isinstance(s, A.IfStmt):
        return any(_has_loose_break(x) for _, body in s.branches for x in body) or any(
            _has_loose_break(x) for x in s.orelse)
    if isinstance(s, (A.TurnStmt, A.PhaseStmt)):
        return any(_has_loose_break(x) for x in s.body)
    return False


def compile_expr(prog: Program, expr: A.Node, scope: tuple[str, ...] = ()) -> Any:
    """A function (game, *scope values) -> value for one expression, outside any rule."""
    g = _Gen(prog.model, False, prog.elements)
    g.spans = []
    g.define_ids = {n: i for i, n in enumerate(prog.model.defines)}
    g.proc_ids = {n: i for i, n in enumerate(prog.model.procedures)}
    g.device_ids = {n: i for i, n in enumerate(prog.model.devices)}
    sc = {name: (f"s{i}", "any") for i, name in enumerate(scope)}
    g.function("EXPR", [sc[n][0] for n in scope], [f"    return {g.ex(expr, sc)}"])
    ns = dict(prog.namespace)
    exec(compile("\n".join(g.lines) + "\n", "<regelwerk:expr>", "exec"), ns)
    return ns["EXPR"]


def compile_stmts(prog: Program, stmts: tuple) -> Any:
    """A function (game) running straight-line statements outside the flow (scenario `given`)."""
    g = _Gen(prog.model, prog.record, prog.elements)
    g.spans = []
    g.define_ids = {n: i for i, n in enumerate(prog.model.defines)}
    g.proc_ids = {n: i for i, n in enumerate(prog.model.procedures)}
    g.device_ids = {n: i for i, n in enumerate(prog.model.devices)}
    lines: list[str] = []
    g.stmts(stmts, {}, lines, "    ")
    lines.append("    return False")
    g.function("STMTS", [], lines)
    ns = dict(prog.namespace)
    ns["SPANS"] = g.spans
    exec(compile("\n".join(g.lines) + "\n", "<regelwerk:given>", "exec"), ns)
    return ns["STMTS"]


def compile_explained(prog: Program, expr: A.Node) -> Any:
    """A function (game) -> (value, [(subexpression text, value)]) for failure messages."""
    g = _Gen(prog.model, False, prog.elements)
    g.spans = []
    g.define_ids = {n: i for i, n in enumerate(prog.model.defines)}
    g.proc_ids = {n: i for i, n in enumerate(prog.model.procedures)}
    g.device_ids = {n: i for i, n in enumerate(prog.model.devices)}
    rec: list = []
    code = g.ex(expr, {}, rec)
    texts = [expr_text(r) for r in rec]
    g.function("EXPLAINED", [], [
        "    seen = {}",
        "    def _R(i, v):",
        "        seen[i] = v",
        "        return v",
        f"    value = {code}",
        f"    return value, [(t, seen[i]) for i, t in enumerate({texts!r}) if i in seen]",
    ])
    ns = dict(prog.namespace)
    exec(compile("\n".join(g.lines) + "\n", "<regelwerk:expect>", "exec"), ns)
    return ns["EXPLAINED"]
