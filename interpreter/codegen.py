"""Python source for expressions and straight-line statements, from the checked AST.

No user text reaches the generated code: user names become generated identifiers
(`l3`, `p0`) or dict keys and constants written with repr(). The recorded variant (`record`)
adds the journal writes that traces and undo read; the other variant has none.
"""

from __future__ import annotations

from ..dsl import ast as A
from ..dsl.check import Model
from ..dsl.check_expr import DIRECTIONS
from ..dsl.printer import expr_text
from ..dsl.types import ANY, BOOL, INT, TEXT, ListOf, MapOf, Opt, Record, SetOf, Type, is_finite
from .errors import RuleFailure
from .library import LIBRARY


class CodeGen:
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
    def static_type(self, e: A.Node, sc: dict | None = None) -> Type:
        """The checker's type of an expression (dsl/check_expr.py records every one)."""
        return self.m.type_of(e)

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
                return not isinstance(self.m.var_types[e.name].base, (MapOf, ListOf, SetOf))
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
            bt = self.static_type(e.base, sc).base
            base, key = sub(e.base), sub(e.key)
            if isinstance(bt, MapOf) and bt.total and not is_finite(bt.key):
                return f"{base}.get({key}, {bt.val.default()!r})"  # a state map: total (see MapOf)
            if isinstance(bt, (MapOf, ListOf)):  # a missing key fails loudly: a rule failure
                return f"{base}[{key}]"
            return f"_index({base}, {key})"
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
            if LIBRARY[e.func].kind in ("chance", "game"):
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
        t = self.static_type(e, sc).base
        if isinstance(t, SetOf) or t == ANY:
            return f"_seq({code})"
        return code

    def aggregate(self, e: A.Aggregate, sc: dict, rec: list | None) -> str:
        dom = self.seq(self.ex(e.domain, sc, rec), e.domain, sc)
        v = self.fresh("a")
        inner = dict(sc)

        inner[e.var] = (v, None)
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
        if k == "map":
            gen_if = f" if {cond}" if cond else ""
            return f"{{{v}: {body} for {v} in {dom}{gen_if}}}"
        raise RuleFailure(f"unknown aggregate {k}", e.span)

    # ------------------------------------------------------------------ writes
    def target_parts(self, t: A.Target, sc: dict, out: list[str], ind: str) -> tuple[str, str, str, Type]:
        """Emit code that finds the container and key; returns (container, key, path, type)."""
        ty = self.m.type_of(t)
        if not t.steps:
            return "V", repr(t.root), f"({t.root!r},)", ty
        cont = f"V[{t.root!r}]"
        keys = []
        for i, step in enumerate(t.steps):
            k = self.fresh("k")
            if isinstance(step, str):
                out.append(f"{ind}{k} = {step!r}")
            else:
                out.append(f"{ind}{k} = {self.ex(step, sc)}")
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
        before = len(out)
        for s in body:
            self.stmt(s, sc, out, ind)
        if len(out) == before:  # empty, or only trace-only lines (log, reveal) when untraced
            out.append(f"{ind}pass")

    def stmt(self, s: A.Node, sc: dict, out: list[str], ind: str) -> None:
        def ex(x: A.Node) -> str:
            return self.ex(x, sc)

        if isinstance(s, A.SetStmt):
            val = ex(s.value)
            record_like = self._may_be_record(s.value, sc)

            def stored(old: str, ty: Type) -> str:
                base = ty.base
                if isinstance(base, SetOf):  # the declared container decides: `set pool = Colour`
                    return f"_as_set({val})"
                if isinstance(base, ListOf):
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
            def cleared(old: str, ty: Type) -> str:
                if isinstance(ty, (Opt, ListOf, SetOf)) or ty in (INT, BOOL, TEXT):
                    return repr(ty.default())
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
        elif isinstance(s, A.AbandonStmt):
            out.append(f"{ind}raise Abandoned({s.reason!r}, SPANS[{self.span_id(s.span)}])")
        elif isinstance(s, A.ResultStmt):  # only in a device's roll part: (outcome, detail)
            detail = ex(s.detail) if s.detail is not None else "None"
            out.append(f"{ind}return ({ex(s.value)}, {detail})")
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

            inner[s.var] = (v, None)
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
        t = self.static_type(e, sc).base
        return t == ANY or isinstance(t, (Record, MapOf))

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
