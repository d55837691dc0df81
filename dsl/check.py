"""check_*: AST → symbol tables (a `Model`) and every diagnostic found, not just the first.

The checker resolves every name (with "did you mean"), counts call arguments, infers a light
type for each expression (int, bool, text, players, enum and board elements, lists, sets,
maps, optionals) and reports mismatches, duplicate definitions, writes to anything that is
not declared state, unknown actions, procedures and phases, code after `finish`, and phases
that the flow can never reach. The compiler only ever sees a model that checked clean.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..interpreter.stdlib.grid import square_name
from . import ast as A
from .diagnostics import Diagnostic, did_you_mean
from .library import LIBRARY

DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
BUILTIN_TYPES = {"int", "bool", "text", "Player", "Direction"}
RESERVED_ACTIONS = {"pass", "choose"}
KEYWORD_VALUES = {"current", "players", "player_count", "round", "current_phase"}
AGG_RESULT = {
    "all": "bool",
    "any": "bool",
    "count": "int",
    "sum": "int",
    "streak": "int",
}


@dataclass
class Model:
    """Everything a checked ruleset declares, by name. Built by `check_modules`."""

    title: str = "untitled"
    game: A.GameDecl | None = None
    players: A.PlayersDecl | None = None
    enums: dict[str, A.EnumDecl] = field(default_factory=dict)
    boards: dict[str, A.Node] = field(default_factory=dict)
    vars: dict[str, A.VarDecl] = field(default_factory=dict)
    consts: dict[str, A.ConstDecl] = field(default_factory=dict)
    options: dict[str, A.OptionDecl] = field(default_factory=dict)
    defines: dict[str, A.DefineDecl] = field(default_factory=dict)
    actions: dict[str, A.ActionDecl] = field(default_factory=dict)
    procedures: dict[str, A.ProcedureDecl] = field(default_factory=dict)
    triggers: list[A.TriggerDecl] = field(default_factory=list)
    hooks: list[A.HookDecl] = field(default_factory=list)
    flow: A.FlowDecl | None = None
    scoring: A.ScoringDecl | None = None
    scenarios: list[A.ScenarioDecl] = field(default_factory=list)
    element_type: dict[str, str] = field(default_factory=dict)  # constant name -> its type
    phases: dict[str, A.PhaseStmt] = field(default_factory=dict)
    suspends: set[str] = field(default_factory=set)  # procedures that can stop for a decision
    const_types: dict[str, str] = field(default_factory=dict)
    records: dict[str, A.RecordDecl] = field(default_factory=dict)
    devices: dict[str, A.DeviceDecl] = field(default_factory=dict)
    displays: list[A.DisplayDecl] = field(default_factory=list)
    invariants: list[A.InvariantDecl] = field(default_factory=list)
    base_dir: str = ""  # the main file's folder: traces name files relative to it
    data_files: dict[str, str] = field(default_factory=dict)  # path -> text, for the ruleset hash
    data: dict[str, A.DataDecl] = field(default_factory=dict)
    data_values: dict[str, Any] = field(default_factory=dict)
    graphs: dict[str, tuple[list[str], list[tuple[str, str]]]] = field(default_factory=dict)  # nodes, edges
    define_types: dict[str, str] = field(default_factory=dict)


def grid_square_names(width: int, height: int) -> list[str]:
    return [square_name(x, y) for y in range(height) for x in range(width)]


def _type_str(t: A.Node | None) -> str:
    if t is None:
        return "any"
    if isinstance(t, A.NamedType):
        return t.name
    if isinstance(t, A.OptionalType):
        return "opt:" + _type_str(t.inner)
    if isinstance(t, A.ListType):
        return "list:" + _type_str(t.item)
    if isinstance(t, A.SetType):
        return "set:" + _type_str(t.item)
    if isinstance(t, A.MapType):
        return f"map:{_type_str(t.key)}->{_type_str(t.value)}"
    return "any"


type_str = _type_str


def pretty_types(msg: str) -> str:
    """Spell internal type strings (opt:Player, list:Square, map:K->V) as users write them."""
    import re

    msg = re.sub(r"\bopt:([\w:>-]+)", r"\1?", msg)
    msg = re.sub(r"\b(list|set):", r"\1 ", msg)
    return re.sub(r"\bmap:(\w+)->", r"\1 -> ", msg)


def strip_opt(t: str) -> str:
    return t[4:] if t.startswith("opt:") else t


def item_type(t: str) -> str:
    t = strip_opt(t)
    if t.startswith(("list:", "set:")):
        return t.split(":", 1)[1]
    if t.startswith("map:"):
        return t[4:].split("->", 1)[0]
    if t == "range":
        return "int"
    return "any"


def value_type(t: str) -> str:
    """The type you get by indexing `t`."""
    t = strip_opt(t)
    if t.startswith("map:"):
        return t[4:].split("->", 1)[1]
    if t.startswith("list:"):
        return t[5:]
    return "any"


def compatible(a: str, b: str) -> bool:
    """Whether values of the two types can meaningfully be compared or assigned."""
    a, b = strip_opt(a), strip_opt(b)
    if a == b or "any" in (a, b) or "none" in (a, b):
        return True
    ca, cb = a.split(":")[0], b.split(":")[0]
    collections = ("list", "set", "range")
    if ca in collections and cb in collections:
        if a in collections or b in collections:
            return True
        return compatible(item_type(a), item_type(b))
    return ca == cb == "map"


class _Checker:
    def __init__(self) -> None:
        self.diags: list[Diagnostic] = []
        self.m = Model()
        self.goto_targets: set[str] = set()

    # ---------------------------------------------------------------- reporting
    def err(self, code: str, msg: str, span: A.Span, help: str | None = None) -> None:
        self.diags.append(Diagnostic(code, pretty_types(msg), span, help))

    # ---------------------------------------------------------------- declarations
    def declare(self, table: dict, name: str, node: A.Node, what: str) -> None:
        if name.startswith("__"):
            self.err("E101", f"'{name}' is reserved: names may not start with '__'", node.span)
            return
        if name in self.global_names:
            prev = self.global_names[name]
            self.err(
                "E102",
                f"duplicate definition of '{name}' ({what})",
                node.span,
                f"first defined at {prev.span}",
            )
            return
        self.global_names[name] = node
        table[name] = node

    def collect(self, modules: list[A.Module]) -> None:
        self.global_names: dict[str, A.Node] = {}
        m = self.m
        for mod in modules:
            for d in mod.decls:
                if isinstance(d, A.GameDecl):
                    if m.game is not None:
                        self.err("E102", "duplicate 'game' declaration", d.span)
                    m.game, m.title = d, d.title
                elif isinstance(d, A.PlayersDecl):
                    if m.players is not None:
                        self.err("E102", "duplicate 'players' declaration", d.span)
                    m.players = d
                    if d.min_count < 1 or d.max_count > len(d.names) or d.min_count > d.max_count:
                        self.err(
                            "E103",
                            f"player count {d.min_count}..{d.max_count} does not fit "
                            f"{len(d.names)} names",
                            d.span,
                        )
                    for n in d.names:
                        self.declare({}, n, d, "player")
                        m.element_type[n] = "Player"
                elif isinstance(d, A.EnumDecl):
                    self.declare(m.enums, d.name, d, "enum")
                    for n in d.members:
                        self.declare({}, n, d, f"member of {d.name}")
                        m.element_type[n] = d.name
                elif isinstance(d, A.GridDecl):
                    if d.path is not None:
                        d = self.sized_grid(d)
                        if d is None:
                            continue
                    self.declare(m.boards, d.name, d, "board")
                    if not (1 <= d.width <= 52 and 1 <= d.height <= 99):
                        self.err("E104", "a grid is 1..52 columns by 1..99 rows", d.span)
                        continue
                    for n in grid_square_names(d.width, d.height):
                        m.element_type.setdefault(n, d.name)
                elif isinstance(d, (A.GraphDecl, A.GraphFileDecl)):
                    self.declare(m.boards, d.name, d, "board")
                    graph = self.load_graph(d) if isinstance(d, A.GraphFileDecl) else _graph_of_paths(d.paths)
                    if graph is not None:
                        m.graphs[d.name] = graph
                        for n in graph[0]:
                            if n in self.global_names and m.element_type.get(n) != d.name:
                                self.err("E102", f"node '{n}' clashes with another name", d.span)
                            m.element_type[n] = d.name
                            self.global_names.setdefault(n, d)
                elif isinstance(d, A.RecordDecl):
                    self.declare(m.records, d.name, d, "record")
                elif isinstance(d, A.DeviceDecl):
                    self.declare(m.devices, d.name, d, "device")
                elif isinstance(d, A.DisplayDecl):
                    m.displays.append(d)
                elif isinstance(d, A.InvariantDecl):
                    m.invariants.append(d)
                elif isinstance(d, A.DataDecl):
                    self.declare(m.data, d.name, d, "data")
                elif isinstance(d, A.StateDecl):
                    for v in d.vars:
                        self.declare(m.vars, v.name, v, "state")
                elif isinstance(d, A.ConstDecl):
                    self.declare(m.consts, d.name, d, "constant")
                elif isinstance(d, A.OptionDecl):
                    self.declare(m.options, d.name, d, "option")
                elif isinstance(d, A.DefineDecl):
                    self.declare(m.defines, d.name, d, "definition")
                elif isinstance(d, A.ActionDecl):
                    if d.name in RESERVED_ACTIONS:
                        self.err("E101", f"'{d.name}' is reserved for the engine's own moves", d.span)
                    self.declare(m.actions, d.name, d, "action")
                elif isinstance(d, A.ProcedureDecl):
                    self.declare(m.procedures, d.name, d, "procedure")
                elif isinstance(d, A.TriggerDecl):
                    m.triggers.append(d)
                elif isinstance(d, A.HookDecl):
                    m.hooks.append(d)
                elif isinstance(d, A.FlowDecl):
                    if m.flow is not None:
                        self.err("E102", "duplicate 'flow' declaration", d.span)
                    m.flow = d
                elif isinstance(d, A.ScoringDecl):
                    m.scoring = d
                elif isinstance(d, A.ScenarioDecl):
                    m.scenarios.append(d)
        if m.players is None:
            self.err("E105", "no 'players' declaration", A.Span(modules[0].path, 1, 1, 1, 2) if modules else A.NO_SPAN,
                     "add a line like: players X, O")
        if m.flow is None:
            self.err("E105", "no 'flow' declaration: the game has no turns",
                     A.Span(modules[0].path, 1, 1, 1, 2) if modules else A.NO_SPAN,
                     "add a flow block, e.g.\n  flow\n      repeat\n          turn\n              play <action>")

    # ---------------------------------------------------------------- types
    def check_type(self, t: A.Node | None) -> None:
        if t is None:
            return
        if isinstance(t, A.NamedType):
            known = BUILTIN_TYPES | set(self.m.enums) | set(self.m.boards) | set(self.m.records)
            if t.name not in known:
                self.err("E201", f"unknown type '{t.name}'", t.span, did_you_mean(t.name, known))
        elif isinstance(t, A.OptionalType):
            self.check_type(t.inner)
        elif isinstance(t, (A.ListType, A.SetType)):
            self.check_type(t.item)
        elif isinstance(t, A.MapType):
            self.check_type(t.key)
            self.check_type(t.value)

    def domain_of_type(self, name: str) -> bool:
        return name in self.m.enums or name in self.m.boards or name in ("Player", "Direction", "bool")

    # ---------------------------------------------------------------- expressions
    def visible_names(self, scope: dict[str, str]) -> set[str]:
        m = self.m
        return (
            set(scope) | set(m.vars) | set(m.consts) | set(m.options) | set(m.defines) | set(m.data)
            | set(m.element_type) | set(m.enums) | set(m.boards) | KEYWORD_VALUES
            | set(DIRECTIONS) | {"Player", "Direction"}
        )

    def expr(self, e: A.Node, scope: dict[str, str]) -> str:
        m = self.m
        if isinstance(e, A.IntLit):
            return "int"
        if isinstance(e, A.StrLit):
            return "text"
        if isinstance(e, A.BoolLit):
            return "bool"
        if isinstance(e, A.NoneLit):
            return "none"
        if isinstance(e, A.Name):
            n = e.name
            if n in scope:
                return scope[n]
            if n in m.vars:
                return _type_str(m.vars[n].type)
            if n in m.consts:
                return m.const_types.get(n, "any")
            if n in m.data:
                return _type_str(m.data[n].type)
            if n in m.options:
                return _type_str(m.options[n].type)
            if n in m.element_type:
                return m.element_type[n]
            if n in DIRECTIONS:
                return "Direction"
            if n == "current":
                return "Player"
            if n == "players":
                return "list:Player"
            if n in ("player_count", "round"):
                return "int"
            if n == "current_phase":
                return "opt:text"
            if n in m.enums or n in m.boards or n in ("Player", "Direction"):
                return "list:" + n
            if n in m.defines:
                self.err("E203", f"'{n}' is a definition: call it as {n}(...)", e.span)
                return "any"
            self.err("E202", f"unknown name '{n}'", e.span, did_you_mean(n, self.visible_names(scope)))
            return "any"
        if isinstance(e, A.ListLit):
            types = [self.expr(x, scope) for x in e.items]
            first = next((t for t in types if t not in ("any", "none")), "any")
            return "list:" + first
        if isinstance(e, A.SetLit):
            types = [self.expr(x, scope) for x in e.items]
            return "set:" + next((t for t in types if t not in ("any", "none")), "any")
        if isinstance(e, A.MapLit):
            kt = vt = "any"
            for k, v in e.items:
                kt, vt = self.expr(k, scope), self.expr(v, scope)
            return f"map:{kt}->{vt}"
        if isinstance(e, A.Index):
            bt = self.expr(e.base, scope)
            kt = self.expr(e.key, scope)
            base = strip_opt(bt)
            if base.startswith("map:"):
                want = base[4:].split("->", 1)[0]
                if not compatible(want, kt):
                    self.err("E204", f"map key should be {want}, not {kt}", e.key.span)
                return value_type(base)
            if base.startswith("list:"):
                if not compatible("int", kt):
                    self.err("E204", f"list index should be int, not {kt}", e.key.span)
                return value_type(base)
            if base not in ("any", "list"):
                self.err("E205", f"cannot index a value of type {bt}", e.span)
            return "any"
        if isinstance(e, A.Field):
            bt = strip_opt(self.expr(e.base, scope))
            return self.field_type(bt, e.name, e.span)
        if isinstance(e, A.RecordLit):
            rec = m.records.get(e.record)
            given = {}
            for fname, fv in e.fields:
                given[fname] = self.expr(fv, scope)
            if rec is None:
                self.err("E225", f"unknown record '{e.record}'", e.span, did_you_mean(e.record, m.records))
                return "any"
            want = dict(rec.fields)
            for fname, ft in given.items():
                if fname not in want:
                    self.err("E206", f"record {e.record} has no field '{fname}'", e.span,
                             did_you_mean(fname, want))
                elif not compatible(_type_str(want[fname]), ft):
                    self.err("E216", f"field '{fname}' of {e.record} is {_type_str(want[fname])}, not {ft}", e.span)
            missing = [f for f in want if f not in given]
            if missing:
                self.err("E226", f"{e.record}(...) is missing field(s) {', '.join(missing)}", e.span)
            return e.record
        if isinstance(e, A.Call):
            return self.call(e, scope)
        if isinstance(e, A.BinOp):
            lt, rt = self.expr(e.left, scope), self.expr(e.right, scope)
            if e.op == "+" and strip_opt(lt).startswith("list") and strip_opt(rt).startswith("list"):
                return lt
            for side, t in ((e.left, lt), (e.right, rt)):
                if strip_opt(t) not in ("int", "any"):
                    self.err("E207", f"'{e.op}' needs numbers, not {t}", side.span)
            return "int"
        if isinstance(e, A.Compare):
            lt, rt = self.expr(e.left, scope), self.expr(e.right, scope)
            if e.op in ("in", "not in"):
                if strip_opt(rt) not in ("any", "range", "list") and not strip_opt(rt).startswith(
                    ("list:", "set:", "map:")
                ):
                    self.err("E208", f"'{e.op}' needs a list, set or map on the right, not {rt}", e.right.span)
                elif not compatible(item_type(rt), lt):
                    self.err("E208", f"a {lt} is never in a collection of {item_type(rt)}", e.span)
                return "bool"
            if e.op in ("<", "<=", ">", ">="):
                lists = all(strip_opt(t).startswith("list") or strip_opt(t) == "any" for t in (lt, rt))
                if lists and compatible(lt, rt):
                    return "bool"  # lists compare item by item, as words in a dictionary
                for side, t in ((e.left, lt), (e.right, rt)):
                    if strip_opt(t) not in ("int", "any"):
                        self.err("E207", f"'{e.op}' needs numbers (or two lists), not {t}", side.span)
            elif not compatible(lt, rt):
                self.err("E209", f"comparing {lt} with {rt} is always {'false' if e.op == '==' else 'true'}", e.span)
            return "bool"
        if isinstance(e, A.BoolOp):
            for x in e.items:
                self.want_bool(x, self.expr(x, scope))
            return "bool"
        if isinstance(e, A.Not):
            self.want_bool(e.operand, self.expr(e.operand, scope))
            return "bool"
        if isinstance(e, A.Neg):
            t = self.expr(e.operand, scope)
            if strip_opt(t) not in ("int", "any"):
                self.err("E207", f"'-' needs a number, not {t}", e.span)
            return "int"
        if isinstance(e, A.Range):
            for x in (e.low, e.high):
                t = self.expr(x, scope)
                if strip_opt(t) not in ("int", "any"):
                    self.err("E207", f"a range needs numbers, not {t}", x.span)
            return "range"
        if isinstance(e, A.CondExpr):
            self.want_bool(e.test, self.expr(e.test, scope))
            a, b = self.expr(e.then, scope), self.expr(e.orelse, scope)
            return a if a not in ("none", "any") else b
        if isinstance(e, A.Aggregate):
            dt = self.expr(e.domain, scope)
            inner = dict(scope)
            inner[e.var] = item_type(dt)
            if e.where is not None:
                self.want_bool(e.where, self.expr(e.where, inner))
            bt = self.expr(e.body, inner) if e.body is not None else inner[e.var]
            if e.kind in ("all", "any") and e.body is None:
                self.err("E210", f"'{e.kind}' needs a condition after ':'", e.span)
            if e.kind in ("all", "any") or (e.kind == "count" and e.body is not None):
                if e.body is not None:
                    self.want_bool(e.body, bt)
            if e.kind in ("sum", "max", "min", "argmax", "argmin") and e.body is None:
                self.err("E210", f"'{e.kind}' needs a value after ':'", e.span)
            if e.kind in AGG_RESULT:
                return AGG_RESULT[e.kind]
            if e.kind in ("max", "min"):
                return "opt:" + strip_opt(bt)
            if e.kind in ("argmax", "argmin"):
                return "list:" + inner[e.var]
            if e.kind == "first":
                return "opt:" + strip_opt(bt)
            if e.kind == "list":
                return "list:" + bt
            if e.kind == "set":
                return "set:" + bt
            if e.kind == "map":
                if e.body is None:
                    self.err("E210", "'map' needs a value after ':'", e.span)
                return f"map:{inner[e.var]}->{bt}"
        return "any"

    def field_type(self, record_type: str, name: str, span: A.Span) -> str:
        rec = self.m.records.get(record_type)
        if rec is None:
            if record_type != "any":
                self.err("E206", f"a {record_type} has no fields", span)
            return "any"
        for fname, ft in rec.fields:
            if fname == name:
                return _type_str(ft)
        self.err("E206", f"record {record_type} has no field '{name}'", span,
                 did_you_mean(name, [f for f, _ in rec.fields]))
        return "any"

    def sized_grid(self, d: A.GridDecl) -> A.GridDecl | None:
        """A grid whose size comes from a text map: one line per row, one character per square."""
        text = self.read_text(d.path, d.span)
        if text is None:
            return None
        rows = [r for r in text.splitlines() if r.strip()]
        widths = {len(r) for r in rows}
        if not rows or len(widths) != 1:
            self.err("E403", f"'{d.path}': a text map needs rows of equal length", d.span)
            return None
        return A.GridDecl(d.span, d.name, widths.pop(), len(rows), d.path)

    def load_graph(self, d: A.GraphFileDecl) -> tuple[list[str], list[tuple[str, str]]] | None:
        data = self.read_json(d.path, d.span)
        if data is None:
            return None
        try:
            nodes = [str(n) for n in data["nodes"]]
            edges = [(str(a), str(b)) for a, b in data["edges"]]
        except (KeyError, TypeError, ValueError):
            self.err("E402", f"'{d.path}': a graph file is {{\"nodes\": [...], \"edges\": [[a, b], ...]}}", d.span)
            return None
        unknown = [x for e in edges for x in e if x not in nodes]
        if unknown:
            self.err("E402", f"'{d.path}': edge names unknown node '{unknown[0]}'", d.span)
            return None
        return nodes, edges

    def read_text(self, rel: str, span: A.Span) -> str | None:
        base = Path(span.file).parent
        path = (base / rel)
        try:
            text = path.read_text(encoding="utf-8")
            self.m.data_files[str(path)] = text
            return text
        except (OSError, UnicodeDecodeError) as err:
            self.err("E401", f"cannot read data file '{rel}': {getattr(err, 'strerror', None) or err}", span)
            return None

    def read_json(self, rel: str, span: A.Span) -> Any:
        text = self.read_text(rel, span)
        if text is None:
            return None
        try:
            return json.loads(text)
        except json.JSONDecodeError as err:
            self.err("E402", f"'{rel}':{err.lineno}:{err.colno}: not JSON: {err.msg}", span)
            return None

    def domains(self) -> dict[str, tuple]:
        out: dict[str, list] = {}
        for name, t in self.m.element_type.items():
            out.setdefault(t, []).append(name)
        out["Direction"] = list(DIRECTIONS)
        if self.m.players is not None:
            out["Player"] = list(self.m.players.names)
        return {k: tuple(v) for k, v in out.items()}

    def load_data(self, d: A.DataDecl) -> None:
        from ..interpreter.errors import SaveError
        from ..interpreter.values import decode

        t = _type_str(d.type)
        doms = self.domains()
        if d.legend is not None:
            self.expr(d.legend, {})
            text = self.read_text(d.path, d.span)
            if text is None:
                return
            board = t[4:].split("->", 1)[0] if t.startswith("map:") else ""
            grid = self.m.boards.get(board)
            if not isinstance(grid, A.GridDecl) or not isinstance(d.legend, A.MapLit):
                self.err("E403", "a text map needs a type 'Square -> T' over a grid and a legend "
                         "map like {\"M\": mountain}", d.span)
                return
            legend = {}
            for k, v in d.legend.items:
                if not isinstance(k, A.StrLit) or not isinstance(v, (A.Name, A.NoneLit, A.IntLit, A.BoolLit)):
                    self.err("E403", "legend keys are one-character texts, values are names", k.span)
                    return
                legend[k.value] = None if isinstance(v, A.NoneLit) else getattr(v, "name", getattr(v, "value", None))
            rows = [r for r in text.splitlines() if r.strip()]
            if len(rows) != grid.height:
                self.err("E403", f"'{d.path}' has {len(rows)} rows, the grid {grid.height}", d.span)
                return
            value: dict = {}
            from ..interpreter.stdlib.grid import square_name

            for i, row in enumerate(rows):
                y = grid.height - 1 - i
                if len(row) != grid.width:
                    self.err("E403", f"'{d.path}' line {i + 1} has {len(row)} columns, the grid {grid.width}",
                             d.span)
                    return
                for x, ch in enumerate(row):
                    if ch not in legend:
                        self.err("E403", f"'{d.path}' line {i + 1} column {x + 1}: "
                                 f"{ch!r} is not in the legend", d.span)
                        return
                    value[square_name(x, y)] = legend[ch]
            raw: Any = value
        else:
            raw = self.read_json(d.path, d.span)
            if raw is None:
                return
        records = {n: {f: _type_str(ft) for f, ft in r.fields} for n, r in self.m.records.items()}
        try:
            self.m.data_values[d.name] = decode(t, raw, d.path, doms, records)
        except SaveError as err:
            self.err("E404", f"data file {err.message}", d.span)

    def want_bool(self, e: A.Node, t: str) -> None:
        if strip_opt(t) not in ("bool", "any"):
            self.err("E211", f"expected a condition (true/false), found {t}", e.span)

    def call(self, e: A.Call, scope: dict[str, str], allow_chance: bool = False) -> str:
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
                if strip_opt(t) not in ("Player", "any"):
                    self.err("E216", f"possible(...)'s second argument is a player, not {t}", a.span)
            return "bool"
        argtypes = [self.expr(a, scope) for a in e.args]
        if e.func in m.defines:
            d = m.defines[e.func]
            if len(e.args) != len(d.params):
                self.err("E212", f"'{e.func}' takes {len(d.params)} argument(s), got {len(e.args)}",
                         e.span, f"defined at {d.span}")
            else:
                for p, a, at in zip(d.params, e.args, argtypes, strict=True):
                    if p.type is not None and not compatible(_type_str(p.type), at):
                        self.err("E204", f"argument '{p.name}' of '{e.func}' should be "
                                 f"{_type_str(p.type)}, not {at}", a.span)
            return m.define_types.get(e.func, "any")
        dev = m.devices.get(e.func)
        if dev is not None:
            if len(e.args) != len(dev.params):
                self.err("E212", f"'{e.func}' takes {len(dev.params)} argument(s), got {len(e.args)}", e.span)
            if not allow_chance:
                self.err("E215", f"'{e.func}' is a chance device: use it only as 'let x = {e.func}(...)'",
                         e.span)
            return _type_str(dev.type)
        sig = LIBRARY.get(e.func)
        if sig is None:
            if e.func in m.procedures:
                self.err("E213", f"'{e.func}' is a procedure: run it with 'do {e.func}(...)'", e.span)
            elif e.func in m.actions:
                self.err("E213", f"'{e.func}' is an action: offer it with 'play {e.func}'", e.span)
            else:
                self.err("E214", f"unknown function '{e.func}'", e.span,
                         did_you_mean(e.func, set(LIBRARY) | set(m.defines)))
            return "any"
        if not sig.min_args <= len(e.args) <= sig.max_args:
            want = str(sig.min_args) if sig.min_args == sig.max_args else f"{sig.min_args} to {sig.max_args}"
            self.err("E212", f"'{e.func}' takes {want} argument(s), got {len(e.args)}", e.span)
        if sig.chance and not allow_chance:
            self.err("E215", f"'{e.func}' draws on chance: use it only as 'let x = {e.func}(...)'", e.span)
        if sig.result == "arg0":
            return argtypes[0] if argtypes else "any"
        if "Square" in sig.result and argtypes:
            board = strip_opt(argtypes[0])
            if board in m.boards:
                return sig.result.replace("Square", board)
        return sig.result

    # ---------------------------------------------------------------- statements
    def target(self, t: A.Target, scope: dict[str, str]) -> str:
        m = self.m
        if t.root not in m.vars:
            if t.root in scope:
                self.err("E301", f"'{t.root}' is a local name, not state: use 'let' to rebind it", t.span)
            elif t.root in m.consts or t.root in m.options:
                self.err("E301", f"'{t.root}' is a constant and cannot be changed", t.span)
            else:
                self.err("E301", f"write to undeclared state '{t.root}'", t.span,
                         did_you_mean(t.root, m.vars) or "declare it in a 'state' block")
            return "any"
        ty = _type_str(m.vars[t.root].type)
        for step in t.steps:
            if isinstance(step, str):
                ty = self.field_type(strip_opt(ty), step, t.span)
                continue
            kt = self.expr(step, scope)
            base = strip_opt(ty)
            if base.startswith("map:"):
                want = base[4:].split("->", 1)[0]
                if not compatible(want, kt):
                    self.err("E204", f"map key should be {want}, not {kt}", step.span)
            elif not base.startswith("list:") and base != "any":
                self.err("E205", f"cannot index '{t.root}' of type {ty}", t.span)
            elif base.startswith("list:") and step is t.steps[-1]:
                self.err("E228", f"cannot assign into an item of the list '{t.root}': lists are values",
                         t.span, "build the new list and assign it whole, or use a map")
            ty = value_type(base)
        return ty

    def block(self, stmts: tuple, scope: dict[str, str], ctx: dict) -> bool:
        """Check statements in order; return whether control can fall off the end."""
        scope = dict(scope)
        reachable = True
        for s in stmts:
            if not reachable and not isinstance(s, A.PhaseStmt):
                self.err("E302", "unreachable statement", s.span, "it follows a finish, goto or break")
                reachable = True  # report once per block
                break
            reachable = self.stmt(s, scope, ctx)
        return reachable

    def stmt(self, s: A.Node, scope: dict[str, str], ctx: dict) -> bool:
        m = self.m
        if isinstance(s, A.SetStmt):
            tt = self.target(s.target, scope)
            vt = self.expr(s.value, scope)
            if not compatible(tt, vt) or (vt == "none" and not tt.startswith("opt:") and tt != "any"):
                self.err("E216", f"cannot store a {vt} in '{s.target.root}' of type {tt}", s.value.span)
            ctx["writes"] = True
        elif isinstance(s, (A.AddStmt, A.RemoveStmt)):
            tt = strip_opt(self.target(s.target, scope))
            vt = self.expr(s.value, scope)
            word = "add" if isinstance(s, A.AddStmt) else "remove"
            if tt == "int" and strip_opt(vt) not in ("int", "any"):
                self.err("E216", f"cannot {word} a {vt} to a number", s.value.span)
            elif tt.startswith(("list:", "set:")) and not compatible(item_type(tt), vt):
                self.err("E216", f"cannot {word} a {vt} to a collection of {item_type(tt)}", s.value.span)
            elif tt not in ("int", "any") and not tt.startswith(("list:", "set:", "map:")):
                self.err("E216", f"'{word}' needs a number, list or set, not {tt}", s.target.span)
            ctx["writes"] = True
        elif isinstance(s, A.ClearStmt):
            self.target(s.target, scope)
        elif isinstance(s, A.LetStmt):
            if isinstance(s.value, A.Call):
                vt = self.call(s.value, scope, allow_chance=True)
            else:
                vt = self.expr(s.value, scope)
            if s.name in m.vars or s.name in m.consts:
                self.err("E217", f"'let {s.name}' would hide the state or constant '{s.name}'", s.span)
            scope[s.name] = vt
        elif isinstance(s, (A.MoveStmt, A.DrawStmt)):
            if isinstance(s, A.MoveStmt):
                self.expr(s.item, scope)
            else:
                ct = self.expr(s.count, scope)
                if strip_opt(ct) not in ("int", "any"):
                    self.err("E207", f"'draw' needs a number of items, not {ct}", s.count.span)
            self.target(s.source, scope)
            self.target(s.dest, scope)
        elif isinstance(s, A.ShuffleStmt):
            tt = strip_opt(self.target(s.target, scope))
            if not tt.startswith("list:") and tt != "any":
                self.err("E216", f"only a list can be shuffled, not {tt}", s.target.span)
        elif isinstance(s, A.RequireStmt):
            self.want_bool(s.test, self.expr(s.test, scope))
            if ctx.get("kind") == "action" and ctx.get("effects_started"):
                self.err("E303", "'require' after an effect: preconditions come first", s.span,
                         "move it above the first effect, or use 'if'")
        elif isinstance(s, A.FinishStmt):
            inner = {**scope, s.var: "Player"} if s.var else scope
            for x in s.exprs:
                t = self.expr(x, inner)
                if s.kind == "ranking" and strip_opt(t) not in ("int", "any") and not t.startswith("list"):
                    self.err("E216", f"a ranking key is a number or a list of numbers, not {t}", x.span)
                if s.kind == "winner" and strip_opt(t) not in ("Player", "list:Player", "any"):
                    self.err("E216", f"a winner is a player or a list of players, not {t}", x.span)
            return False
        elif isinstance(s, A.DoStmt):
            p = m.procedures.get(s.name)
            for a in s.args:
                self.expr(a, scope)
            if p is None:
                self.err("E218", f"unknown procedure '{s.name}'", s.span, did_you_mean(s.name, m.procedures))
            elif len(p.params) != len(s.args):
                self.err("E212", f"'{s.name}' takes {len(p.params)} argument(s), got {len(s.args)}", s.span)
        elif isinstance(s, A.PlayStmt):
            for a in s.actions:
                if a not in m.actions:
                    self.err("E219", f"unknown action '{a}'", s.span, did_you_mean(a, m.actions))
                self.offered.add(a)
            if s.by is not None:
                self.expr(s.by, scope)
            if ctx.get("kind") in ("action", "define"):
                self.err("E304", "'play' offers actions: use it in the flow or a procedure", s.span,
                         "inside an action, use 'choose'")
        elif isinstance(s, A.ChooseStmt):
            dt = self.expr(s.domain, scope)
            inner = dict(scope)
            inner[s.name] = item_type(dt)
            if s.where is not None:
                self.want_bool(s.where, self.expr(s.where, inner))
            if s.by is not None:
                bt = self.expr(s.by, scope)
                if strip_opt(bt) not in ("Player", "any"):
                    self.err("E216", f"'by' names a player, not {bt}", s.by.span)
            scope[s.name] = item_type(dt)
        elif isinstance(s, A.BreakStmt):
            if not ctx.get("loop"):
                self.err("E305", "'break' outside a loop", s.span)
            return False
        elif isinstance(s, A.GotoStmt):
            self.goto_targets.add(s.phase)
            self.gotos.append(s)
            return False
        elif isinstance(s, A.LogStmt):
            pass
        elif isinstance(s, A.RevealStmt):
            self.expr(s.value, scope)
            if s.to is not None:
                t = self.expr(s.to, scope)
                if strip_opt(t) not in ("Player", "any"):
                    self.err("E216", f"'reveal ... to' names a player, not {t}", s.to.span)
        elif isinstance(s, A.AbandonStmt):
            if ctx.get("kind") != "action":
                self.err("E310", "'abandon' belongs in an action: it takes the action back", s.span)
            return False
        elif isinstance(s, A.ResultStmt):
            t = self.expr(s.value, scope)
            if s.detail is not None:
                self.expr(s.detail, scope)
            if ctx.get("kind") != "device_roll":
                self.err("E309", "'result' belongs in a device's roll part", s.span)
            elif not compatible(ctx.get("result_type", "any"), t):
                self.err("E216", f"the device's outcome is {ctx['result_type']}, not {t}", s.value.span)
            return False
        elif isinstance(s, A.IfStmt):
            falls = False
            for test, body in s.branches:
                self.want_bool(test, self.expr(test, scope))
                falls |= self.block(body, scope, ctx)
            falls |= self.block(s.orelse, scope, ctx) if s.orelse else True
            return falls
        elif isinstance(s, A.ForStmt):
            dt = self.expr(s.domain, scope)
            inner = dict(scope)
            inner[s.var] = item_type(dt)
            self.block(s.body, inner, {**ctx, "loop": True})
        elif isinstance(s, A.RepeatStmt):
            if s.times is not None:
                t = self.expr(s.times, scope)
                if strip_opt(t) not in ("int", "any"):
                    self.err("E207", f"'repeat' needs a number of times, not {t}", s.times.span)
            self.block(s.body, scope, {**ctx, "loop": True})
            if s.times is None:
                return _has_break(s.body)
        elif isinstance(s, A.WhileStmt):
            self.want_bool(s.test, self.expr(s.test, scope))
            self.block(s.body, scope, {**ctx, "loop": True})
        elif isinstance(s, A.TurnStmt):
            if s.player is not None:
                t = self.expr(s.player, scope)
                if strip_opt(t) not in ("Player", "any"):
                    self.err("E216", f"'turn' names a player, not {t}", s.player.span)
            if ctx.get("kind") not in ("flow", "procedure"):
                self.err("E304", "'turn' belongs in the flow or a procedure", s.span)
            return self.block(s.body, scope, ctx)
        elif isinstance(s, A.PhaseStmt):
            if ctx.get("kind") != "flow":
                self.err("E304", "'phase' belongs in the flow", s.span)
            if s.name in m.phases:
                self.err("E102", f"duplicate phase '{s.name}'", s.span, f"first at {m.phases[s.name].span}")
            m.phases[s.name] = s
            if ctx.get("depth", 0) == 0:
                self.top_phases.append(s.name)
            return self.block(s.body, scope, {**ctx, "depth": ctx.get("depth", 0) + 1})
        chance_let = isinstance(s, A.LetStmt) and isinstance(s.value, A.Call) and (
            s.value.func in m.devices or getattr(LIBRARY.get(s.value.func), "chance", False))
        if ctx.get("kind") == "action" and (not isinstance(s, (A.LetStmt, A.RequireStmt)) or chance_let):
            ctx["effects_started"] = True
        if ctx.get("kind") == "device_roll" and isinstance(s, (
            A.SetStmt, A.AddStmt, A.RemoveStmt, A.ClearStmt, A.MoveStmt, A.DrawStmt, A.ShuffleStmt
        )):
            self.err("E307", "a device's roll part may not change the state; do that in 'settle'", s.span,
                     "a scripted outcome skips the roll part, so changes there would differ")
        if ctx.get("kind") in ("device_roll", "device_settle", "define") and isinstance(
            s, (A.PlayStmt, A.ChooseStmt, A.TurnStmt, A.PhaseStmt, A.GotoStmt)
        ):
            self.err("E304", "a device cannot stop for a decision", s.span)
        return True

    # ---------------------------------------------------------------- whole model
    def run(self, modules: list[A.Module]) -> Model:
        self.collect(modules)
        m = self.m
        self.offered: set[str] = set()
        self.gotos: list[A.GotoStmt] = []
        self.top_phases: list[str] = []
        for r in m.records.values():
            for _f, ft in r.fields:
                self.check_type(ft)
        for d in m.data.values():
            self.check_type(d.type)
            self.load_data(d)
        for v in m.vars.values():
            self.check_type(v.type)
            if v.default is not None:
                dt = self.expr(v.default, {})
                vt = _type_str(v.type)
                target = value_type(vt) if vt.startswith("map:") else vt
                if not compatible(target, dt) and not compatible(vt, dt):
                    self.err("E216", f"default {dt} does not fit {vt}", v.default.span)
            else:
                vt = strip_opt(_type_str(v.type))
                leaf = vt
                while leaf.startswith("map:"):
                    leaf = value_type(leaf)
                if not _type_str(v.type).startswith("opt:") and (
                    leaf in m.enums or leaf in m.boards or leaf in ("Player", "Direction")
                ) and not leaf.startswith("opt:"):
                    self.err("E220", f"'{v.name}' of type {_type_str(v.type)} needs a default value",
                             v.span, "add '= <value>' or make the type optional with '?'")
        for o in m.options.values():
            self.check_type(o.type)
            self.expr(o.default, {})
        for c in m.consts.values():
            m.const_types[c.name] = self.expr(c.value, {})
        for d in m.defines.values():
            scope = self.params(d.params, {})
            self.check_type(d.type)
            m.define_types[d.name] = _type_str(d.type) if d.type else "any"
        for d in m.defines.values():
            scope = self.params(d.params, {})
            result = self.expr(d.value, scope)
            m.define_types[d.name] = result if d.type is None else _type_str(d.type)
        for a in m.actions.values():
            scope = self.params(a.params, {}, action=True)
            self.block(a.body, scope, {"kind": "action"})
        for p in m.procedures.values():
            self.block(p.body, self.params(p.params, {}), {"kind": "procedure"})
        for dv in m.devices.values():
            scope = self.params(dv.params, {})
            self.check_type(dv.type)
            rt = _type_str(dv.type)
            falls = self.block(dv.roll, scope, {"kind": "device_roll", "result_type": rt})
            if falls:
                self.err("E308", f"device '{dv.name}': its roll part must end with 'result <outcome>'", dv.span)
            inner = dict(scope)
            inner["outcome"] = rt
            inner["detail"] = "any"  # what `result ... with` passed on; none when scripted
            for r in dv.requires:
                self.want_bool(r.test, self.expr(r.test, inner))
            self.block(dv.settle, inner, {"kind": "device_settle"})
        for t in m.triggers:
            self.want_bool(t.test, self.expr(t.test, {}))
            self.block(t.body, {}, {"kind": "trigger"})
        for h in m.hooks:
            self.block(h.body, {}, {"kind": "hook"})
            if _suspends(h.body, self.suspending_procedures()):
                self.err("E304", f"'on {h.event}' cannot stop for a decision", h.span,
                         "make the choice in the flow, or in a trigger ('when')")
        if m.scoring is not None:
            t = self.expr(m.scoring.value, {})
            if not t.startswith("map:Player->") and t != "any":
                self.err("E216", f"'scoring' names a map from Player to int, not {t}", m.scoring.span)
        if m.flow is not None:
            self.block(m.flow.body, {}, {"kind": "flow", "depth": 0})
            self.unreachable_phases(m.flow)
        for g in self.gotos:
            if g.phase not in m.phases:
                self.err("E221", f"unknown phase '{g.phase}'", g.span, did_you_mean(g.phase, m.phases))
            elif g.phase not in self.top_phases:
                self.err("E222", f"'goto {g.phase}': only phases at the top of the flow can be jumped to", g.span)
        for name, a in m.actions.items():
            if name not in self.offered:
                self.diags.append(Diagnostic("W001", f"action '{name}' is never offered by a 'play'",
                                             a.span, severity="warning"))
        for disp in m.displays:
            self.display(disp)
        for inv in m.invariants:
            self.want_bool(inv.test, self.expr(inv.test, {}))
        for sc in m.scenarios:
            self.scenario(sc)
        m.suspends = self.suspending_procedures()
        return m

    def params(self, params: tuple, scope: dict[str, str], action: bool = False) -> dict[str, str]:
        scope = dict(scope)
        seen: set[str] = set()
        for p in params:
            if p.name in seen:
                self.err("E102", f"duplicate parameter '{p.name}'", p.span)
            seen.add(p.name)
            if p.type is not None:
                self.check_type(p.type)
                t = _type_str(p.type)
                if action and not self.domain_of_type(t):
                    self.err("E223", f"parameter '{p.name}: {t}' has no finite domain", p.span,
                             f"write '{p.name} in <list or range>'")
                scope[p.name] = t
            else:
                scope[p.name] = item_type(self.expr(p.domain, scope))
        return scope

    def unreachable_phases(self, flow: A.FlowDecl) -> None:
        falls = True
        for s in flow.body:
            if not falls and isinstance(s, A.PhaseStmt) and s.name not in self.goto_targets:
                self.err("E306", f"phase '{s.name}' can never be reached", s.span,
                         "the flow before it never ends; add a 'break' or a 'goto'")
            if isinstance(s, A.RepeatStmt) and s.times is None and not _has_break(s.body):
                falls = False
            elif isinstance(s, A.GotoStmt):
                falls = False

    def display(self, d: A.DisplayDecl) -> None:
        m = self.m
        board = m.boards.get(d.board)
        if board is None:
            self.err("E229", f"'display {d.board}': not a board", d.span, did_you_mean(d.board, m.boards))
            return
        for layer in d.layers:
            t = strip_opt(self.expr(A.Name(d.span, layer), {}))
            onto = (t.startswith("map:") and strip_opt(value_type(t)) == d.board  # pieces -> squares
                    or t in (f"set:{d.board}", f"list:{d.board}"))  # marked squares
            if not t.startswith(f"map:{d.board}->") and not onto:
                self.err("E229", f"display layer '{layer}' is not a map from {d.board} to values "
                         f"(or from pieces to {d.board})", d.span)

    def scenario(self, sc: A.ScenarioDecl) -> None:
        for st in sc.steps:
            if st.kind in ("given", "before_start"):
                self.block(st.body, {}, {"kind": "given"})
            elif st.kind == "start_phase" and st.value not in self.top_phases:
                self.err("E221", f"unknown top-level phase '{st.value}'", st.span,
                         did_you_mean(st.value, self.top_phases))
            elif st.kind in ("expect", "winner", "decider") and isinstance(st.value, A.Node):
                t = self.expr(st.value, {})
                if st.kind == "expect":
                    self.want_bool(st.value, t)
            elif st.kind == "script":
                name, value = st.value
                if name not in self.m.devices and name not in ("roll", "random", "shuffled", "bernoulli"):
                    self.err("E227", f"'{name}' is not a chance device", st.span,
                             did_you_mean(name, list(self.m.devices) + ["roll", "random", "shuffled", "bernoulli"]))
                self.expr(value, {})
            elif st.kind == "option":
                name, value = st.value
                if name not in self.m.options:
                    self.err("E224", f"unknown option '{name}'", st.span, did_you_mean(name, self.m.options))
                self.expr(value, {})
            elif st.call is not None:
                c = st.call
                if c.name not in self.m.actions and c.name not in RESERVED_ACTIONS:
                    self.err("E219", f"unknown action '{c.name}'", c.span, did_you_mean(c.name, self.m.actions))
                for a in c.args:
                    self.expr(a, {})

    def suspending_procedures(self) -> set[str]:
        """Procedures that may stop for a decision (directly or through a call)."""
        m = self.m
        direct = {n for n, p in m.procedures.items() if _suspends(p.body, set())}
        changed = True
        while changed:
            changed = False
            for n, p in m.procedures.items():
                if n not in direct and _suspends(p.body, direct):
                    direct.add(n)
                    changed = True
        return direct


def _graph_of_paths(paths: tuple) -> tuple[list[str], list[tuple[str, str]]]:
    """Nodes in order of first appearance, and an edge for each step of each path."""
    nodes: list[str] = []
    edges: list[tuple[str, str]] = []
    for path in paths:
        for n in path:
            if n not in nodes:
                nodes.append(n)
        edges.extend(zip(path, path[1:], strict=False))
    return nodes, edges


def _has_break(body: tuple) -> bool:
    for s in body:
        if isinstance(s, A.BreakStmt):
            return True
        if isinstance(s, A.IfStmt):
            if any(_has_break(b) for _, b in s.branches) or _has_break(s.orelse):
                return True
        if isinstance(s, (A.TurnStmt, A.PhaseStmt)) and _has_break(s.body):
            return True
    return False


def _suspends(body: tuple, procs: set[str]) -> bool:
    for s in body:
        if isinstance(s, (A.PlayStmt, A.ChooseStmt, A.TurnStmt, A.PhaseStmt, A.GotoStmt)):
            return True
        if isinstance(s, A.DoStmt) and s.name in procs:
            return True
        if isinstance(s, A.IfStmt):
            if any(_suspends(b, procs) for _, b in s.branches) or _suspends(s.orelse, procs):
                return True
        if isinstance(s, (A.ForStmt, A.RepeatStmt, A.WhileStmt)) and _suspends(s.body, procs):
            return True
    return False


suspends = _suspends


def check_modules(modules: list[A.Module]) -> tuple[Model, list[Diagnostic]]:
    """Check parsed modules together; returns the model and all diagnostics (errors and warnings)."""
    c = _Checker()
    model = c.run(modules)
    order = {m.path: i for i, m in enumerate(modules)}
    diags = sorted(c.diags, key=lambda d: (order.get(d.span.file, 0), d.span.line, d.span.column))
    return model, diags
