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
from ..dsl.check import Model, suspends
from ..dsl.check_expr import DIRECTIONS
from ..dsl.parse import iter_nodes
from ..dsl.printer import expr_text
from ..dsl.types import Type
from .blocks import BlockBuilder, is_chance_let, param_scope, prov_info
from .boards import Boards
from .codegen import CodeGen
from .errors import Abandoned, BudgetExceeded, RuleFailure
from .library import LIBRARY
from .runtime import MISSING, RUNTIME, make_order, seq_by
from .stdlib.graph import Graph
from .stdlib.grid import Grid

__all__ = ["MISSING", "CompiledAction", "Program", "compile_explained", "compile_expr", "compile_model",
           "compile_stmts", "is_chance_let"]



# The only Python builtins generated code can see: what expressions compile to.
SAFE_BUILTINS = {"len": len, "sum": sum, "all": all, "any": any, "max": max, "min": min, "next": next,
                 "range": range, "list": list, "frozenset": frozenset, "bool": bool, "type": type,
                 "dict": dict, "enumerate": enumerate, "str": str, "True": True, "False": False, "None": None}


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
    any: Any = None  # any(G) -> whether some binding is legal (stops at the first)
    abandonable: bool = False  # its body can `abandon`: the engine keeps a way back
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
    var_types: dict[str, Type] = field(default_factory=dict)
    rules: dict[str, dict] = field(default_factory=dict)  # rule key -> provenance for traces
    source: str = ""
    namespace: dict = field(default_factory=dict)


def _build_boards(model: Model) -> tuple[dict, dict, dict]:
    grids: dict[str, Grid] = {}
    graphs: dict[str, Graph] = {}
    elements: dict[str, tuple] = {"Direction": DIRECTIONS}
    for name, d in model.boards.items():
        if isinstance(d, A.GridDecl):
            g = Grid(d.width, d.height)
            grids[name] = g
            elements[name] = tuple(g.squares)
        else:  # the checker read both kinds of graph board into nodes and edges
            nodes, edges = model.graphs[name]
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
    prog.var_types = dict(model.var_types)
    g = CodeGen(model, record, elements)
    g.spans = []
    g.define_ids = {n: i for i, n in enumerate(model.defines)}
    g.proc_ids = {n: i for i, n in enumerate(model.procedures)}
    g.device_ids = {n: i for i, n in enumerate(model.devices)}
    builder = BlockBuilder(g, prog)

    # chance devices: roll (or a scripted outcome), check, settle
    for name, dv in model.devices.items():
        i = g.device_ids[name]
        sc = {p.name: (f"p{j}", None) for j, p in enumerate(dv.params)}
        params = [sc[p.name][0] for p in dv.params]
        lines: list[str] = []
        g.stmts(dv.roll, dict(sc), lines, "    ")
        g.function(f"DR_{i}", params, lines)
        inner = dict(sc)
        inner["outcome"] = ("outcome", None)
        inner["detail"] = ("detail", "any")
        lines = [f"    outcome = G.take_script({name!r}) if G.scripted else MISSING",
                 "    scripted = outcome is not MISSING",
                 "    detail = None",
                 "    if scripted:",
                 f"        outcome = G.scripted_value({name!r}, outcome, "
                 f"SPANS[{g.span_id(dv.span)}])",
                 "    if not scripted:  # the roll's own chance is summed up by the device's entry",
                 "        G.quiet_chance += 1",
                 "        try:",
                 f"            outcome, detail = DR_{i}(G{', ' if params else ''}{', '.join(params)})",
                 "        finally:",
                 "            G.quiet_chance -= 1"]
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
        prog.rules[f"device:{name}"] = prov_info(name, dv.prov, dv.span, model.base_dir)

    # definitions: pure functions
    for name, d in model.defines.items():
        sc = {p.name: (f"p{i}", None) for i, p in enumerate(d.params)}
        params = [sc[p.name][0] for p in d.params]
        g.function(f"D_{g.define_ids[name]}", params, [f"    return {g.ex(d.value, sc)}"])

    # procedures: plain functions unless they can suspend
    for name, p in model.procedures.items():
        pid = g.proc_ids[name]
        if name in model.suspends:
            prog.procedures[name] = ("block", builder.block(p.body, param_scope(p.params), f"procedure:{name}",
                                                             [q.name for q in p.params]))
        else:
            sc = {q.name: (f"p{i}", None) for i, q in enumerate(p.params)}
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
        prog.rules[f"procedure:{name}"] = prov_info(name, p.prov, p.span, model.base_dir)
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
        prog.rules[key] = prov_info(f"when {expr_text(t.test)}", t.prov, t.span, model.base_dir)
    hook_src: dict[str, list] = {}
    for i, h in enumerate(model.hooks):
        key = f"on:{i}"
        lines = []
        g.stmts(h.body, {}, lines, "    ")
        lines.append("    return False")
        g.function(f"HB_{i}", [], lines)
        hook_src.setdefault(h.event, []).append((f"HB_{i}", key))
        prog.rules[key] = prov_info(f"on {h.event}", h.prov, h.span, model.base_dir)

    for i, inv in enumerate(model.invariants):
        g.function(f"INV_{i}", [], [f"    return bool({g.ex(inv.test, {})})"])

    # the flow
    if model.flow is not None:
        prog.flow_block = builder.block(model.flow.body, {}, "flow", [], top=True)
        prog.rules["flow"] = prov_info("flow", model.flow.prov, model.flow.span, model.base_dir)

    source = "\n".join(g.lines) + "\n"
    prog.source = source
    from .game import Action

    order = make_order(model, elements)
    ns: dict[str, Any] = {
        **RUNTIME,
        "ACT": Action,
        "RuleFailure": RuleFailure,
        "BudgetExceeded": BudgetExceeded,
        "Abandoned": Abandoned,
        "_seq": seq_by(order),
        "E": elements,
        "SPANS": g.spans,
        "__builtins__": SAFE_BUILTINS,
    }
    boards = Boards(grids, graphs, order)
    for fname, b in LIBRARY.items():
        ns[f"c_{fname}" if b.kind in ("chance", "game") else f"b_{fname}"] = b.bind(boards)
    prog.namespace = ns
    code = compile(source, f"<regelwerk:{model.title}>", "exec")
    exec(code, ns)  # generated from the checked AST only; see the module docstring
    prog.blocks = builder.resolve(ns)
    for name, srcs in action_src.items():
        a = model.actions[name]
        ca = CompiledAction(
            name, a, tuple(p.name for p in a.params), ns[srcs["enum"]], ns[srcs["check"]],
            ns[srcs["explain"]], ns.get(srcs["effect"]) if srcs["effect"] else None,
            srcs["block"], srcs["requires"], ns[srcs["any"]],
            any(isinstance(n, A.AbandonStmt) for n in iter_nodes(a.body)),
        )
        prog.actions[name] = ca
        prog.rules[f"action:{name}"] = prov_info(name, a.prov, a.span, model.base_dir)
    for name, (kind, ref) in list(prog.procedures.items()):
        prog.procedures[name] = (kind, ns[ref] if kind == "fn" else ref)
    prog.triggers = [(ns[t], ns[b] if b else None, blk, d) for t, b, blk, d in trig_src]
    prog.hooks = {ev: [(ns[f], key) for f, key in lst] for ev, lst in hook_src.items()}
    prog.phase_labels = builder.phase_labels
    prog.invariants = [(ns[f"INV_{i}"], inv) for i, inv in enumerate(model.invariants)]
    return prog


def compile_expr(prog: Program, expr: A.Node, scope: tuple[str, ...] = ()) -> Any:
    """A function (game, *scope values) -> value for one expression, outside any rule."""
    g = CodeGen(prog.model, False, prog.elements)
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
    g = CodeGen(prog.model, prog.record, prog.elements)
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
    g = CodeGen(prog.model, False, prog.elements)
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
