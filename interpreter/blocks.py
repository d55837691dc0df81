"""VM op lists for blocks that can stop for a decision, and the functions of each action.

A block with `play`, `choose`, `turn`, `phase` or a call of such a procedure becomes a list of
ops (`seg` runs a generated straight-line function; the others are the VM's jumps, loops,
decisions and turn/phase events). Actions get four functions: enumerate the legal bindings,
check one binding, explain one binding, and apply the effect.
"""

from __future__ import annotations

import os
from typing import Any

from ..dsl import ast as A
from ..dsl.check import Model, suspends
from ..dsl.parse import iter_nodes
from ..dsl.printer import expr_text
from .codegen import CodeGen
from .errors import RuleFailure
from .library import CHANCE_FUNCTIONS


def param_scope(params: tuple) -> dict:
    return {p.name: (None, None) for p in params}


def prov_info(name: str, prov: A.Provenance, span: A.Span, base: str = "") -> dict:

    file = os.path.relpath(span.file, base) if base and os.path.isabs(span.file) == os.path.isabs(base) else span.file
    return {
        "name": name,
        "source": list(prov.sources),
        "spec": list(prov.specs),
        "quote": prov.quote,
        "at": f"{file}:{span.line}:{span.column}",
    }


class BlockBuilder:
    """Builds VM op lists for blocks that can suspend, and the action functions."""

    def __init__(self, g: CodeGen, prog: Any):
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

                dom = self.fn_of(s.domain, sc)
                where = None
                if s.where is not None:
                    inner = dict(sc)
                    inner[s.name] = (None, None)
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
                self.prog.rules[f"phase:{s.name}"] = prov_info(s.name, s.prov, s.span, model.base_dir)
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
        ptypes = [None] * len(a.params)
        for i, p in enumerate(a.params):
            sc[p.name] = (pnames[i], None)

        def domain_code(i: int, scope: dict) -> str:
            p = a.params[i]
            if p.domain is not None:  # a value offered twice is one move, not two
                return f"_uniq(_seq({g.ex(p.domain, scope)}))"
            t = p.type.name  # the checker allows only finite types here (E223)
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
                    esc[s.name] = (py, None)
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
        # the same search, stopping at the first legal move: possible(action) asks only that
        found = [line[: len(line) - len(line.lstrip())] + "return True" if "out.append(ACT(" in line else line
                 for line in lines]
        g.function(f"AA_{aid}", [], found + ["    return False"])

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
                csc[s.name] = (py, None)
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
                xsc[s.name] = (py, None)
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
        return {"enum": f"AE_{aid}", "any": f"AA_{aid}", "check": f"AC_{aid}", "explain": f"AX_{aid}", "effect": effect,
                "block": block, "requires": requires}


def _names(node: Any) -> list[A.Name]:
    return [n for n in iter_nodes(node) if isinstance(n, A.Name)]


def is_chance_let(s: A.Node, model: Model) -> bool:
    """A `let` that draws on chance is an effect, never part of an action's preconditions."""
    return (isinstance(s, A.LetStmt) and isinstance(s.value, A.Call)
            and (s.value.func in model.devices or s.value.func in CHANCE_FUNCTIONS))


def _lets(node: Any) -> list[A.LetStmt]:
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
