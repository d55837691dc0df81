"""check_*: AST → a `Model` (symbol tables, types) and every diagnostic found, not just the first.

The checker resolves every name (with "did you mean"), counts call arguments, works out a
`Type` for each expression (dsl/types.py, kept in `Model.types` for the compiler), and reports
mismatches, duplicate definitions, writes to anything that is not declared state, unknown
actions, procedures and phases, code after `finish`, and phases that the flow can never reach.
The compiler only ever sees a model that checked clean.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from ..interpreter.stdlib.grid import square_name
from . import ast as A
from .check_conserve import check_conserve
from .check_constants import check_constants
from .check_expr import CHANCE_NAMES, DIRECTIONS, ExprChecker
from .check_hidden import check_hidden_legality
from .check_names import check_names
from .check_narrow import ANY_STATE, common, forget, narrowed, reads_of, remember
from .check_runaway import check_runaway
from .check_window import check_windows
from .data_files import DataReader, decode_data
from .diagnostics import Diagnostic, did_you_mean
from .dispatch import NodeTable
from .quotes import check_quotes
from .types import (
    ANY,
    BOOL,
    INT,
    NONE,
    PLAYER,
    Elem,
    ListOf,
    MapOf,
    Opt,
    SetOf,
    Type,
    as_state,
    compatible,
    fits,
    is_int,
    is_player,
    resolve,
)

BUILTIN_TYPES = {"int", "bool", "text", "Player", "Direction"}
RESERVED_ACTIONS = {"pass", "choose"}

# Declarations that only give a name: the model's table they go to, and what they are called.
_NAMED_DECLS: dict[type, tuple[str, str]] = {
    A.RecordDecl: ("records", "record"), A.DeviceDecl: ("devices", "device"), A.DataDecl: ("data", "data"),
    A.ConstDecl: ("consts", "constant"), A.OptionDecl: ("options", "option"),
    A.DefineDecl: ("defines", "definition"), A.ProcedureDecl: ("procedures", "procedure"),
}
# Declarations without a name: the model's list that keeps them in source order.
_LISTED_DECLS: dict[type, str] = {
    A.DisplayDecl: "displays", A.InvariantDecl: "invariants", A.TriggerDecl: "triggers",
    A.HookDecl: "hooks", A.ScenarioDecl: "scenarios",
}
_STATE_CHANGES = (A.SetStmt, A.AddStmt, A.RemoveStmt, A.ClearStmt, A.MoveStmt, A.DrawStmt, A.ShuffleStmt)
_DECISIONS = (A.PlayStmt, A.ChooseStmt, A.TurnStmt, A.PhaseStmt, A.GotoStmt)

def _after_effect(s: A.RequireStmt, end: A.Node) -> str:
    """E303's message: the `require` stands after (or inside) the statement that ended the
    preconditions; an effect unless that is a `choose`, an `if` or a loop, named then."""
    what = _NOT_EFFECTS.get(type(end))
    if what is None:
        return "'require' after an effect: preconditions come first"
    inside = any(n is s for n in A.iter_nodes(end))
    return f"'require' {'inside' if inside else 'after'} {what}: preconditions come first"


_NOT_EFFECTS = {A.ChooseStmt: "a 'choose'", A.IfStmt: "an 'if'", A.ForStmt: "a 'for' loop",
                A.RepeatStmt: "a 'repeat' loop", A.WhileStmt: "a 'while' loop"}

BodyKind = Literal["action", "procedure", "device_roll", "device_settle", "trigger", "hook", "flow", "given"]


@dataclass
class StmtContext:
    """Where the statements being checked stand: what the body around them is, and what the
    statements before them did. Handed down the nested bodies: an `if` or a `turn` shares its
    context with the body around it, a loop, `simultaneously` or `phase` passes on a copy
    with its own fields changed (`dataclasses.replace`)."""

    kind: BodyKind
    """What body the statements are in: which statements belong there (E303, E304, E307,
    E309, E310) depends on it."""
    result_type: Type = ANY
    """The outcome type of the device whose roll part this is, which `result` must give (E216)."""
    preconditions_end: A.Node | None = None
    """The statement of an action that ended its preconditions: the first top-level one that is
    not a `require` or a plain `let` (an effect, a chance `let`, a `choose`, an `if`, a loop,
    ...: interpreter/compiler/blocks.py, action_preconditions). A `require` after it, or inside
    it, is not a precondition: E303. Set on the context the statement was checked in, before
    its bodies are checked."""
    loop: bool = False
    """Inside a loop's body, where `break` belongs (E305); not inside a `simultaneously` part."""
    window: str | None = None
    """The player variable of the `simultaneously` part the statements are in: another
    `simultaneously` inside it is E248."""
    depth: int = 0
    """How many phases enclose the statements: only phases at depth 0 can be a `goto`'s target
    (E222)."""


@dataclass
class Model:
    """Everything a checked ruleset declares, by name, and the type of every expression.
    Built by `check_modules`."""

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
    umpire: A.UmpireDecl | None = None  # legality may read hidden state (dsl/check_hidden.py)
    scenarios: list[A.ScenarioDecl] = field(default_factory=list)
    element_type: dict[str, str] = field(default_factory=dict)  # value name -> its type's name
    phases: dict[str, A.PhaseStmt] = field(default_factory=dict)
    suspends: set[str] = field(default_factory=set)  # procedures that can stop for a decision
    records: dict[str, A.RecordDecl] = field(default_factory=dict)
    devices: dict[str, A.DeviceDecl] = field(default_factory=dict)
    displays: list[A.DisplayDecl] = field(default_factory=list)
    invariants: list[A.InvariantDecl] = field(default_factory=list)
    base_dir: str = ""  # the main file's folder: traces name files relative to it
    data_files: dict[str, str] = field(default_factory=dict)  # path -> text, for the ruleset hash
    data: dict[str, A.DataDecl] = field(default_factory=dict)
    data_values: dict[str, Any] = field(default_factory=dict)
    graphs: dict[str, tuple[list[str], list[tuple[str, str]]]] = field(default_factory=dict)  # nodes, edges
    # types: what each declared type name is, the declared types, and every expression's type
    type_kinds: dict[str, str] = field(default_factory=dict)  # name -> "elem" | "record"
    var_types: dict[str, Type] = field(default_factory=dict)
    const_types: dict[str, Type] = field(default_factory=dict)
    option_types: dict[str, Type] = field(default_factory=dict)
    data_types: dict[str, Type] = field(default_factory=dict)
    define_types: dict[str, Type] = field(default_factory=dict)
    record_fields: dict[str, dict[str, Type]] = field(default_factory=dict)
    only_grid_type: Type = ANY  # the grid's square type when there is exactly one grid
    types: dict[int, Type] = field(default_factory=dict)  # id(expression node) -> its Type

    def type_of_decl(self, node: A.Node | None) -> Type:
        """A written type (of a declaration) as a Type."""
        return resolve(node, self.type_kinds)

    def type_of(self, node: A.Node) -> Type:
        """The checked type of an expression (or write target) of this model."""
        return self.types.get(id(node), ANY)

    def domains(self, players: tuple[str, ...] | None = None) -> dict[str, tuple]:
        """The values of every finite type: boards, enums, Direction, bool and the players."""
        out: dict[str, list] = {}
        for name, t in self.element_type.items():
            if t != "Player":
                out.setdefault(t, []).append(name)
        result = {k: tuple(v) for k, v in out.items()}
        result["Direction"] = DIRECTIONS
        result["bool"] = (False, True)
        if players is None and self.players is not None:
            players = tuple(self.players.names)
        result["Player"] = tuple(players or ())
        return result


def grid_square_names(width: int, height: int) -> list[str]:
    return [square_name(x, y) for y in range(height) for x in range(width)]


class _Checker(ExprChecker):
    """The checker of one ruleset. Each declaration and each statement is checked by the
    handler of its class, found in `_COLLECT` or `_STMT` (dsl/dispatch.py); expressions by
    `ExprChecker`'s `_EXPR`."""

    _COLLECT: NodeTable[Callable[..., None]] = NodeTable("a declaration")
    # A statement's handler returns whether control can fall off its end, or None when the
    # statement runs on to the next one (see `_stmt`).
    _STMT: NodeTable[Callable[..., bool | None]] = NodeTable("a statement")

    def __init__(self, root: Path | None = None) -> None:
        self.diags: list[Diagnostic] = []
        self.m = Model()
        self.goto_targets: set[str] = set()
        self.offered: set[str] = set()  # actions some `play` offers (W001 for the others)
        self.gotos: list[A.GotoStmt] = []  # checked once every phase is known (E221, E222)
        self.top_phases: list[str] = []  # the phases a goto can enter
        self._writes_of: dict[int, tuple[A.Node, frozenset[str] | None]] = {}
        self._trigger_writes: frozenset[str] | None | tuple = ()
        self.reader = DataReader(self.err, self.m.data_files, root)

    # ---------------------------------------------------------------- reporting
    def err(self, code: str, msg: str, span: A.Span, help: str | None = None) -> None:
        self.diags.append(Diagnostic(code, msg, span, help))

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
        """Every declaration by name into the model, in source order (E101-E105)."""
        self.global_names: dict[str, A.Node] = {}
        for mod in modules:
            for d in mod.decls:
                handler = self._COLLECT.get(type(d))
                if handler is not None:  # an include has nothing to collect
                    handler(self, d)
        self.squares_named_twice()
        self.required_declarations(modules)

    def required_declarations(self, modules: list[A.Module]) -> None:
        """A game needs its players and its flow (E105, at the top of the first file)."""
        top = A.Span(modules[0].path, 1, 1, 1, 2) if modules else A.NO_SPAN
        if self.m.players is None:
            self.err("E105", "no 'players' declaration", top, "add a line like: players X, O")
        if self.m.flow is None:
            self.err("E105", "no 'flow' declaration: the game has no turns", top,
                     "add a flow block, e.g.\n  flow\n      repeat\n          turn\n              play <action>")

    @_COLLECT.on(A.GameDecl)
    def _collect_game(self, d: A.GameDecl) -> None:
        if self.m.game is not None:
            self.err("E102", "duplicate 'game' declaration", d.span)
        self.m.game, self.m.title = d, d.title

    @_COLLECT.on(A.PlayersDecl)
    def _collect_players(self, d: A.PlayersDecl) -> None:
        if self.m.players is not None:
            self.err("E102", "duplicate 'players' declaration", d.span)
        self.m.players = d
        if d.min_count < 1 or d.max_count > len(d.names) or d.min_count > d.max_count:
            self.err("E103", f"player count {d.min_count}..{d.max_count} does not fit {len(d.names)} names",
                     d.span)
        for n in d.names:
            self.declare({}, n, d, "player")
            self.m.element_type[n] = "Player"

    @_COLLECT.on(A.EnumDecl)
    def _collect_enum(self, d: A.EnumDecl) -> None:
        self.declare(self.m.enums, d.name, d, "enum")
        for n in d.members:
            self.declare({}, n, d, f"member of {d.name}")
            self.m.element_type[n] = d.name

    @_COLLECT.on(A.GridDecl)
    def _collect_grid(self, d: A.GridDecl) -> None:
        if d.path is not None:  # `grid from "file"`: its size is read from the file
            sized = self.reader.grid_size(d)
            if sized is None:
                return
            d = sized
        self.declare(self.m.boards, d.name, d, "board")
        if not (1 <= d.width <= 52 and 1 <= d.height <= 99):
            self.err("E104", "a grid is 1..52 columns by 1..99 rows", d.span)
            return
        for n in grid_square_names(d.width, d.height):
            self.m.element_type.setdefault(n, d.name)

    @_COLLECT.on(A.GraphDecl, A.GraphFileDecl)
    def _collect_graph(self, d: A.GraphDecl | A.GraphFileDecl) -> None:
        m = self.m
        self.declare(m.boards, d.name, d, "board")
        graph = self.reader.graph(d) if isinstance(d, A.GraphFileDecl) else _graph_of_paths(d.paths)
        if graph is None:
            return
        m.graphs[d.name] = graph
        for n in graph[0]:
            if n in self.global_names and m.element_type.get(n) != d.name:
                self.err("E102", f"node '{n}' clashes with another name", d.span)
            m.element_type[n] = d.name
            self.global_names.setdefault(n, d)

    @_COLLECT.on(*_NAMED_DECLS)
    def _collect_named(self, d: A.Node) -> None:
        """A declaration that gives one name, kept in its table of the model."""
        table, what = _NAMED_DECLS[type(d)]
        self.declare(getattr(self.m, table), d.name, d, what)

    @_COLLECT.on(*_LISTED_DECLS)
    def _collect_listed(self, d: A.Node) -> None:
        """A declaration without a name, kept in source order."""
        getattr(self.m, _LISTED_DECLS[type(d)]).append(d)

    @_COLLECT.on(A.StateDecl)
    def _collect_state(self, d: A.StateDecl) -> None:
        for v in d.vars:
            self.declare(self.m.vars, v.name, v, "state")

    @_COLLECT.on(A.ActionDecl)
    def _collect_action(self, d: A.ActionDecl) -> None:
        if d.name in RESERVED_ACTIONS:
            self.err("E101", f"'{d.name}' is reserved for the engine's own moves", d.span)
        self.declare(self.m.actions, d.name, d, "action")

    @_COLLECT.on(A.FlowDecl)
    def _collect_flow(self, d: A.FlowDecl) -> None:
        if self.m.flow is not None:
            self.err("E102", "duplicate 'flow' declaration", d.span)
        self.m.flow = d

    @_COLLECT.on(A.ScoringDecl)
    def _collect_scoring(self, d: A.ScoringDecl) -> None:
        self.m.scoring = d

    @_COLLECT.on(A.UmpireDecl)
    def _collect_umpire(self, d: A.UmpireDecl) -> None:
        if self.m.umpire is not None:
            self.err("E102", "duplicate 'umpire' declaration", d.span)
        self.m.umpire = d

    def squares_named_twice(self) -> None:
        """A grid's squares are names too: a state variable, constant or enum member called
        `a1` would silently stand for something else than the square a1 in every rule."""
        for board, d in self.m.boards.items():
            if not isinstance(d, A.GridDecl) or not (1 <= d.width <= 52 and 1 <= d.height <= 99):
                continue
            for n in grid_square_names(d.width, d.height):
                other = self.global_names.get(n)
                if other is not None and other is not d:
                    self.err("E102", f"'{n}' is a square of board '{board}' and also declared here",
                             other.span, f"the board is declared at {d.span}; rename one of them")

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

    def declared(self, t: A.Node | None) -> Type:
        """Check a written type and return it as a Type."""
        self.check_type(t)
        return self.resolve(t)

    def name_types(self) -> None:
        """What each type name is, so written types resolve to Type objects."""
        m = self.m
        kinds = {"Player": "elem", "Direction": "elem"}
        kinds.update({n: "elem" for n in m.enums})
        kinds.update({n: "elem" for n in m.boards})
        kinds.update({n: "record" for n in m.records})
        m.type_kinds = kinds
        grids = [n for n, d in m.boards.items() if isinstance(d, A.GridDecl)]
        m.only_grid_type = Elem(grids[0]) if len(grids) == 1 else ANY

    def domain_of_type(self, t: Type) -> bool:
        return isinstance(t, Elem) or t == BOOL

    def load_data(self, d: A.DataDecl) -> None:
        m = self.m
        t = m.data_types[d.name]
        if d.legend is not None:
            self.expr(d.legend, {})
            board = t.key.name if isinstance(t, MapOf) and isinstance(t.key, Elem) else ""
            raw = self.reader.text_map(d, t, m.boards.get(board))
        else:
            raw = self.reader.json(d.path, d.span)
        if raw is None:
            return
        value = decode_data(self.reader, d, t, raw, m.domains(), m.record_fields)
        if value is not None:
            m.data_values[d.name] = value

    # ---------------------------------------------------------------- statements
    def block(self, stmts: tuple, scope: dict[str, Type], ctx: StmtContext) -> bool:
        """Check statements in order; return whether control can fall off the end."""
        return self.block_scope(stmts, scope, ctx)[0]

    def block_scope(self, stmts: tuple, scope: dict[str, Type], ctx: StmtContext) -> tuple[bool, dict[str, Type]]:
        """`block`, also giving the scope at its end (whose facts hold after it)."""
        scope = dict(scope)
        reachable = True
        for s in stmts:
            if not reachable and not isinstance(s, A.PhaseStmt):
                self.err("E302", "unreachable statement", s.span, "it follows a finish, goto or break")
                reachable = True  # report once per block
                break
            reachable = self.stmt(s, scope, ctx)
        return reachable, scope

    def stmt(self, s: A.Node, scope: dict[str, Type], ctx: StmtContext) -> bool:
        falls = self._stmt(s, scope, ctx)
        if not isinstance(s, A.IfStmt):  # an `if` joins what its branches left (their writes dropped it)
            self.forget_writes(s, scope)
        if isinstance(s, A.SetStmt):
            self.learn_stored(s, scope)
        return falls

    def learn_stored(self, s: A.SetStmt, scope: dict[str, Type]) -> None:
        """After `set best = units[i]`, `best` holds a value (until it is written again)."""
        tt, vt = self.m.types.get(id(s.target), ANY), self.m.types.get(id(s.value), ANY)
        written = self.writes(s)
        if not isinstance(tt, Opt) or isinstance(vt, Opt) or vt in (ANY, NONE) or written is None:
            return
        place: A.Node = A.Name(s.target.span, s.target.root)
        for step in s.target.steps:
            place = A.Field(s.target.span, place, step) if isinstance(step, str) else A.Index(
                s.target.span, place, step)
        key = remember(place)
        by_triggers = self._trigger_writes  # worked out by `writes` above
        if isinstance(by_triggers, frozenset) and not self.fact_reads(key) & by_triggers:
            scope[key] = tt.inner  # (unless a trigger may write it again)

    def _stmt(self, s: A.Node, scope: dict[str, Type], ctx: StmtContext) -> bool:
        """Check one statement by the handler of its class (`_STMT`); return whether control can
        fall off its end. A handler that returns None lets control run on to the next statement,
        and the statement is then judged as one of its body (`runs_on`)."""
        if ctx.kind == "action" and ctx.preconditions_end is None and not self.is_precondition(s):
            ctx.preconditions_end = s  # the compiler's split: what follows runs as effects
        handler = self._STMT.get(type(s))
        falls = None if handler is None else handler(self, s, scope, ctx)
        if falls is None:
            self.runs_on(s, ctx)
            return True
        return falls

    def is_precondition(self, s: A.Node) -> bool:
        """A `require` or a `let` that draws on no chance: what an action's preconditions are made of."""
        return isinstance(s, A.RequireStmt) or isinstance(s, A.LetStmt) and not self.draws_chance(s)

    def runs_on(self, s: A.Node, ctx: StmtContext) -> None:
        """What a statement that runs on to the next one tells of the body it stands in: a
        device's roll part changes the state (E307) or a device stops for a decision (E304)."""
        if ctx.kind == "device_roll" and isinstance(s, _STATE_CHANGES):
            self.err("E307", "a device's roll part may not change the state; do that in 'settle'", s.span,
                     "a scripted outcome skips the roll part, so changes there would differ")
        if ctx.kind in ("device_roll", "device_settle") and isinstance(s, _DECISIONS):
            self.err("E304", "a device cannot stop for a decision", s.span)

    def draws_chance(self, s: A.Node) -> bool:
        """`let x = roll(...)` or `let x = <device>(...)`: a chance event, an effect of an action."""
        return isinstance(s, A.LetStmt) and isinstance(s.value, A.Call) and (
            s.value.func in self.m.devices or s.value.func in CHANCE_NAMES)

    @_STMT.on(A.SetStmt)
    def _check_set(self, s: A.SetStmt, scope: dict[str, Type], ctx: StmtContext) -> None:
        tt = self.target(s.target, scope)
        vt = self.expr(s.value, scope)
        if not isinstance(tt, Opt):
            vt = self.need(s.value, vt, f"'{s.target.root}' of type {tt}")
        if not fits(tt, vt):
            self.err("E216", f"cannot store a {vt} in '{s.target.root}' of type {tt}", s.value.span)

    @_STMT.on(A.AddStmt, A.RemoveStmt)
    def _check_add_remove(self, s: A.AddStmt | A.RemoveStmt, scope: dict[str, Type], ctx: StmtContext) -> None:
        tt = self.target(s.target, scope).base
        vt = self.expr(s.value, scope)
        self.check_put("add" if isinstance(s, A.AddStmt) else "remove", s.target, tt, s.value, vt)

    @_STMT.on(A.ClearStmt)
    def _check_clear(self, s: A.ClearStmt, scope: dict[str, Type], ctx: StmtContext) -> None:
        self.target(s.target, scope)

    @_STMT.on(A.LetStmt)
    def _check_let(self, s: A.LetStmt, scope: dict[str, Type], ctx: StmtContext) -> None:
        m = self.m
        if isinstance(s.value, A.Call):  # the one place a chance call may stand
            vt = narrowed(s.value, self.call(s.value, scope, allow_chance=True), scope)
            m.types[id(s.value)] = vt
        else:
            vt = self.expr(s.value, scope)
        if s.name in m.vars or s.name in m.consts:
            self.err("E217", f"'let {s.name}' would hide the state or constant '{s.name}'", s.span)
        self.bind(scope, s.name, vt)

    @_STMT.on(A.MoveStmt)
    def _check_move(self, s: A.MoveStmt, scope: dict[str, Type], ctx: StmtContext) -> None:
        it = self.expr(s.item, scope)
        src = self.target(s.source, scope).base
        dst = self.target(s.dest, scope).base
        self.check_put("move", s.source, src, s.item, it)
        self.check_put("move", s.dest, dst, s.item, it)

    @_STMT.on(A.DrawStmt)
    def _check_draw(self, s: A.DrawStmt, scope: dict[str, Type], ctx: StmtContext) -> None:
        ct = self.need(s.count, self.expr(s.count, scope), "'draw'")
        if not is_int(ct):
            self.err("E207", f"'draw' needs a number of items, not {ct}", s.count.span)
        for zone in (s.source, s.dest):
            zt = self.target(zone, scope).base
            if not isinstance(zt, (ListOf, SetOf)) and zt != ANY:
                self.err("E216", f"'draw' takes items from a list or set to a list or set, not {zt}", zone.span)

    @_STMT.on(A.ShuffleStmt)
    def _check_shuffle(self, s: A.ShuffleStmt, scope: dict[str, Type], ctx: StmtContext) -> None:
        tt = self.target(s.target, scope).base
        if not isinstance(tt, ListOf) and tt != ANY:
            self.err("E216", f"only a list can be shuffled, not {tt}", s.target.span)

    @_STMT.on(A.RequireStmt)
    def _check_require(self, s: A.RequireStmt, scope: dict[str, Type], ctx: StmtContext) -> None:
        self.want_bool(s.test, self.expr(s.test, scope))
        scope.update(self.with_facts(s.test, {}, True))
        end = ctx.preconditions_end if ctx.kind == "action" else None
        if end is not None:
            self.err("E303", _after_effect(s, end), s.span,
                     f"an action's preconditions are its leading 'require' and 'let' lines, and they end "
                     f"at line {end.span.line}: move this one above that line, or test it with 'if' "
                     "(and 'abandon' to take the move back)")

    @_STMT.on(A.FinishStmt)
    def _check_finish(self, s: A.FinishStmt, scope: dict[str, Type], ctx: StmtContext) -> bool:
        inner = {**scope, s.var: PLAYER} if s.var else scope
        for x in s.exprs:
            t = self.need(x, self.expr(x, inner), f"'finish {s.kind}'")
            if s.kind == "ranking" and not is_int(t) and not isinstance(t.base, ListOf):
                self.err("E216", f"a ranking key is a number or a list of numbers, not {t}", x.span)
            if s.kind == "winner" and not is_player(t) and t.base != ListOf(PLAYER):
                self.err("E216", f"a winner is a player or a list of players, not {t}", x.span)
        return False

    @_STMT.on(A.DoStmt)
    def _check_do(self, s: A.DoStmt, scope: dict[str, Type], ctx: StmtContext) -> None:
        m = self.m
        p = m.procedures.get(s.name)
        argtypes = [self.expr(a, scope) for a in s.args]
        if p is None:
            self.err("E218", f"unknown procedure '{s.name}'", s.span, did_you_mean(s.name, m.procedures))
        elif len(p.params) != len(s.args):
            self.err("E212", f"'{s.name}' takes {len(p.params)} argument(s), got {len(s.args)}", s.span)
        else:
            self.check_args(s.name, p.params, s.args, argtypes)

    @_STMT.on(A.PlayStmt)
    def _check_play(self, s: A.PlayStmt, scope: dict[str, Type], ctx: StmtContext) -> None:
        m = self.m
        if m.triggers:  # the triggers tested at the decision may change what was tested
            forget(scope, self.all_state)
        for a in s.actions:
            if a not in m.actions:
                self.err("E219", f"unknown action '{a}'", s.span, did_you_mean(a, m.actions))
            self.offered.add(a)
        if s.by is not None:
            self.want_player(s.by, self.need(s.by, self.expr(s.by, scope), "'play ... by'"), "'by' names")
        if ctx.kind == "action":
            self.err("E304", "'play' offers actions: use it in the flow or a procedure", s.span,
                     "inside an action, use 'choose'")
        if s.otherwise is not None:
            if s.optional:
                self.err("E311", "this 'else' never runs: the player may always pass", s.otherwise.span,
                         "drop 'optional' (or 'up to'), or the 'else'")
            self.block((s.otherwise,), scope, ctx)  # what happens when nothing is legal
        return None  # a move made goes on to the next statement, whatever the `else` does
    @_STMT.on(A.ChooseStmt)
    def _check_choose(self, s: A.ChooseStmt, scope: dict[str, Type], ctx: StmtContext) -> bool:
        if self.m.triggers:  # the options are worked out after the triggers tested at the decision
            forget(scope, self.all_state)
        dt = self.need(s.domain, self.expr(s.domain, scope), f"'choose {s.name} in'")
        inner = dict(scope)
        self.bind(inner, s.name, dt.item)
        if s.where is not None:
            self.want_bool(s.where, self.expr(s.where, inner))
        if s.by is not None:
            self.want_player(s.by, self.need(s.by, self.expr(s.by, scope), "'choose ... by'"), "'by' names")
        forget(scope, self.all_state)  # a decision: other rules may run before it is made
        self.bind(scope, s.name, dt.item)
        if s.where is not None:  # what is chosen met the condition
            local = set(scope) - self.all_state
            scope.update({k: t for k, t in self.with_facts(s.where, {}, True).items()
                          if self.fact_reads(k) <= local})
        return True

    @_STMT.on(A.BreakStmt)
    def _check_break(self, s: A.BreakStmt, scope: dict[str, Type], ctx: StmtContext) -> bool:
        if not ctx.loop:
            self.err("E305", "'break' outside a loop", s.span)
        return False

    @_STMT.on(A.GotoStmt)
    def _check_goto(self, s: A.GotoStmt, scope: dict[str, Type], ctx: StmtContext) -> bool:
        self.goto_targets.add(s.phase)
        self.gotos.append(s)  # the phases are known once the whole flow is checked (E221, E222)
        return False

    @_STMT.on(A.LogStmt)
    def _check_log(self, s: A.LogStmt, scope: dict[str, Type], ctx: StmtContext) -> None:
        """A message: nothing to check."""

    @_STMT.on(A.RevealStmt)
    def _check_reveal(self, s: A.RevealStmt, scope: dict[str, Type], ctx: StmtContext) -> None:
        self.expr(s.value, scope)
        if s.to is not None:
            self.want_player(s.to, self.need(s.to, self.expr(s.to, scope), "'reveal ... to'"),
                             "'reveal ... to' names")

    @_STMT.on(A.AbandonStmt)
    def _check_abandon(self, s: A.AbandonStmt, scope: dict[str, Type], ctx: StmtContext) -> bool:
        if ctx.kind != "action":
            self.err("E310", "'abandon' belongs in an action: it takes the action back", s.span)
        return False

    @_STMT.on(A.ResultStmt)
    def _check_result(self, s: A.ResultStmt, scope: dict[str, Type], ctx: StmtContext) -> bool:
        t = self.expr(s.value, scope)
        if s.detail is not None:
            self.expr(s.detail, scope)
        if ctx.kind != "device_roll":
            self.err("E309", "'result' belongs in a device's roll part", s.span)
        elif not compatible(ctx.result_type, t):
            self.err("E216", f"the device's outcome is {ctx.result_type}, not {t}", s.value.span)
        return False

    @_STMT.on(A.IfStmt)
    def _check_if(self, s: A.IfStmt, scope: dict[str, Type], ctx: StmtContext) -> bool:
        cur = scope
        ends = []  # the scopes of the ways that reach the statement after the if
        for test, body in s.branches:
            self.want_bool(test, self.expr(test, cur))
            falls, end = self.block_scope(body, self.with_facts(test, cur, True), ctx)
            if falls:
                ends.append(end)
            cur = self.with_facts(test, cur, False)
        if s.orelse:
            falls, end = self.block_scope(s.orelse, cur, ctx)
            if falls:
                ends.append(end)
        else:
            ends.append(cur)
        joined = common(ends)
        for key in [k for k in scope if k.startswith("?")]:
            del scope[key]
        scope.update(joined)
        return bool(ends)

    @_STMT.on(A.ForStmt)
    def _check_for(self, s: A.ForStmt, scope: dict[str, Type], ctx: StmtContext) -> None:
        dt = self.need(s.domain, self.expr(s.domain, scope), f"'for {s.var} in'")
        self.forget_writes(s, scope)  # the body's writes hold when it runs again
        inner = dict(scope)
        self.bind(inner, s.var, dt.item)
        self.block(s.body, inner, replace(ctx, loop=True))

    @_STMT.on(A.RepeatStmt)
    def _check_repeat(self, s: A.RepeatStmt, scope: dict[str, Type], ctx: StmtContext) -> bool | None:
        if s.times is not None:
            t = self.need(s.times, self.expr(s.times, scope), "'repeat'")
            if not is_int(t):
                self.err("E207", f"'repeat' needs a number of times, not {t}", s.times.span)
        self.forget_writes(s, scope)
        self.block(s.body, scope, replace(ctx, loop=True))
        return _has_break(s.body) if s.times is None else None  # a loop without end runs on by a break

    @_STMT.on(A.WhileStmt)
    def _check_while(self, s: A.WhileStmt, scope: dict[str, Type], ctx: StmtContext) -> None:
        self.forget_writes(s, scope)
        self.want_bool(s.test, self.expr(s.test, scope))
        self.block(s.body, self.with_facts(s.test, scope, True), replace(ctx, loop=True))

    @_STMT.on(A.TurnStmt)
    def _check_turn(self, s: A.TurnStmt, scope: dict[str, Type], ctx: StmtContext) -> bool:
        if s.player is not None:
            self.want_player(s.player, self.need(s.player, self.expr(s.player, scope), "'turn'"), "'turn' names")
        if ctx.kind not in ("flow", "procedure"):
            self.err("E304", "'turn' belongs in the flow or a procedure", s.span)
        forget(scope, self.all_state)
        return self.block(s.body, scope, ctx)

    @_STMT.on(A.SimultaneousStmt)
    def _check_simultaneous(self, s: A.SimultaneousStmt, scope: dict[str, Type], ctx: StmtContext) -> bool:
        dt = self.need(s.domain, self.expr(s.domain, scope), f"'simultaneously for {s.var} in'")
        if not (dt.base == ANY or (dt.base.is_collection and is_player(dt.base.item))):
            self.err("E216", f"'simultaneously for {s.var} in' goes over players, not {dt}", s.domain.span)
        if ctx.kind not in ("flow", "procedure"):
            self.err("E304", "'simultaneously' belongs in the flow or a procedure", s.span)
        if ctx.window:
            self.err("E248", "a part of 'simultaneously' cannot hold another", s.span)
        forget(scope, self.all_state)
        inner = dict(scope)
        self.bind(inner, s.var, PLAYER)
        self.block(s.body, inner, replace(ctx, window=s.var, loop=False))
        forget(scope, self.all_state)
        return True

    @_STMT.on(A.PhaseStmt)
    def _check_phase(self, s: A.PhaseStmt, scope: dict[str, Type], ctx: StmtContext) -> bool:
        m = self.m
        if ctx.kind != "flow":
            self.err("E304", "'phase' belongs in the flow", s.span)
        if s.name in m.phases:
            self.err("E102", f"duplicate phase '{s.name}'", s.span, f"first at {m.phases[s.name].span}")
        m.phases[s.name] = s
        if ctx.depth == 0:
            self.top_phases.append(s.name)
        forget(scope, self.all_state)  # a goto may enter here from anywhere
        return self.block(s.body, scope, replace(ctx, depth=ctx.depth + 1))

    def want_player(self, e: A.Node, t: Type, what: str) -> None:
        """E216 unless `t` is a player (`play ... by P`, `turn P`, `reveal ... to P`)."""
        if not is_player(t):
            self.err("E216", f"{what} a player, not {t}", e.span)

    def check_args(self, name: str, params: tuple, args: tuple, argtypes: list[Type]) -> None:
        """A procedure's arguments against its parameters' declared types."""
        for p, a, at in zip(params, args, argtypes, strict=True):
            if p.type is None:
                continue
            want = self.resolve(p.type)
            if not isinstance(want, Opt):
                at = self.need(a, at, f"'{name}'")
            if not fits(want, at):
                self.err("E204", f"argument '{p.name}' of '{name}' should be {want}, not {at}", a.span)

    def fact_reads(self, key: str) -> frozenset[str]:
        return reads_of(key)

    def check_put(self, word: str, zone: A.Target, zt: Type, value: A.Node, vt: Type) -> None:
        """`add`/`remove`/`move`: a number to a number, an item to a list or set of its kind."""
        where = "to" if word == "add" else "from" if word == "remove" else "to or from"
        if zt == INT:
            vt = self.need(value, vt, f"'{word}'")
            if not is_int(vt):
                self.err("E216", f"cannot {word} a {vt} {where} a number", value.span)
        elif isinstance(zt, (ListOf, SetOf)):
            if not isinstance(zt.item, Opt):
                vt = self.need(value, vt, f"'{word}' {where} a collection of {zt.item}")
            if not fits(zt.item, vt):
                self.err("E216", f"cannot {word} a {vt} {where} a collection of {zt.item}", value.span)
        elif zt != ANY:
            self.err("E216", f"'{word}' needs a number, list or set, not {zt}", zone.span)

    # ------------------------------------------------------------- what holds where (narrowing)
    def forget_writes(self, s: A.Node, scope: dict[str, Type]) -> None:
        """After `s`, drop the facts that its writes (or the rules it lets run) may have undone."""
        written = self.writes(s)
        forget(scope, self.all_state if written is None else written)

    @property
    def all_state(self) -> frozenset[str]:
        return frozenset(self.m.vars) | {"current", "round", "current_phase", ANY_STATE}

    def writes(self, s: A.Node) -> frozenset[str] | None:
        """The names `s` may change (state roots, rebound locals, and what triggers then write);
        None when it may run other rules (a decision, a procedure, a turn, a device)."""
        cache = self._writes_of
        if id(s) not in cache:
            cache[id(s)] = (s, self._writes(s))  # the node too, so its id is not reused
        return cache[id(s)][1]

    def _writes(self, s: A.Node) -> frozenset[str] | None:
        if isinstance(s, (A.SetStmt, A.AddStmt, A.RemoveStmt, A.ClearStmt, A.ShuffleStmt)):
            return self.with_triggers({s.target.root, ANY_STATE})
        if isinstance(s, (A.MoveStmt, A.DrawStmt)):
            return self.with_triggers({s.source.root, s.dest.root, ANY_STATE})
        if isinstance(s, A.LetStmt):
            return None if self.draws_chance(s) else frozenset({s.name})
        if isinstance(s, (A.DoStmt, A.PlayStmt, A.ChooseStmt, A.TurnStmt, A.PhaseStmt, A.GotoStmt,
                          A.SimultaneousStmt)):
            return None
        out: set[str] = {s.var} if isinstance(s, A.ForStmt) else set()
        for body in A.bodies(s):  # an `if`'s branches, a loop's body
            for x in body:
                w = self.writes(x)
                if w is None:
                    return None
                out |= w
        return frozenset(out)

    def with_triggers(self, names: set[str]) -> frozenset[str] | None:
        """A write may make a `when` true, whose body then writes too."""
        if self._trigger_writes == ():
            self._trigger_writes = frozenset()  # while working it out: the bodies' own writes
            total: frozenset[str] | None = frozenset()
            for t in self.m.triggers:
                for x in t.body:
                    w = self.writes(x)
                    total = None if w is None or total is None else total | w
            self._trigger_writes = total
            self._writes_of.clear()  # worked out without the triggers' writes: again, with them
        tw = self._trigger_writes
        return None if tw is None else frozenset(names) | tw

    # ---------------------------------------------------------------- whole model
    def run(self, modules: list[A.Module]) -> Model:
        """Check the whole model, in an order where each part knows the types it reads."""
        self.collect(modules)
        m = self.m
        check_names(modules, m.graphs, m.boards, self.err)
        self.name_types()
        self.declared_types()
        self.fixed_values = True  # worked out by check_constants, which says what fails (E244)
        self.option_defaults()
        for c in m.consts.values():
            m.const_types[c.name] = self.expr(c.value, {})
        self.state_defaults()
        self.fixed_values = False
        self.definitions()
        self.rule_bodies()
        if m.scoring is not None:
            t = self.expr(m.scoring.value, {})
            if not (isinstance(t, MapOf) and t.key == PLAYER) and t != ANY:
                self.err("E216", f"'scoring' names a map from Player to int, not {t}", m.scoring.span)
        if m.flow is not None:
            self.block(m.flow.body, {}, StmtContext("flow"))
            self.unreachable_phases(m.flow)
        self.goto_phases()
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
        check_runaway(m, self.err, m.type_of)
        check_constants(m, self.err)
        check_hidden_legality(m, self.err)
        check_windows(m, self.err)
        return m

    def declared_types(self) -> None:
        """The written types of records, data tables (whose files are then read), state and
        options."""
        m = self.m
        for r in m.records.values():
            m.record_fields[r.name] = {f: self.declared(ft) for f, ft in r.fields}
        for d in m.data.values():
            m.data_types[d.name] = self.declared(d.type)
            self.load_data(d)
        for v in m.vars.values():
            m.var_types[v.name] = as_state(self.declared(v.type))
        for o in m.options.values():  # all types first: a default may name a later option
            m.option_types[o.name] = self.declared(o.type)

    def option_defaults(self) -> None:
        m = self.m
        for o in m.options.values():
            ot, dt = m.option_types[o.name], self.expr(o.default, {})
            if not fits(ot, dt):
                self.err("E216", f"the default {dt} does not fit option '{o.name}' of type {ot}",
                         o.default.span)

    def state_defaults(self) -> None:
        """A state variable's default fits its type; one that holds a board's or enum's value
        needs one (E220)."""
        m = self.m
        for v in m.vars.values():
            vt = m.var_types[v.name]
            if v.default is not None:
                dt = self.expr(v.default, {})
                target = vt.val if isinstance(vt, MapOf) else vt
                if not fits(target, dt) and not fits(vt, dt):
                    self.err("E216", f"default {dt} does not fit {vt}", v.default.span)
                continue
            leaf = vt
            while isinstance(leaf, MapOf):
                leaf = leaf.val
            if not isinstance(vt, Opt) and isinstance(leaf, Elem):
                self.err("E220", f"'{v.name}' of type {vt} needs a default value",
                         v.span, "add '= <value>' or make the type optional with '?'")

    def definitions(self) -> None:
        """Every definition's declared type first (a definition may call a later one), then
        the values."""
        m = self.m
        for d in m.defines.values():
            self.params(d.params, {})
            m.define_types[d.name] = self.declared(d.type)
        for d in m.defines.values():
            scope = self.params(d.params, {})
            result = self.expr(d.value, scope)
            declared = None if d.type is None else self.resolve(d.type)
            if declared is not None and not fits(declared, result):
                result_node = d.value
                while isinstance(result_node, A.LetExpr):  # the value is below its `let` lines
                    result_node = result_node.body
                self.err("E216", f"'{d.name}' is declared {declared}, but its value is {result}",
                         result_node.span)
            m.define_types[d.name] = result if declared is None else declared

    def rule_bodies(self) -> None:
        """The statements of actions, procedures, devices, triggers and hooks."""
        m = self.m
        for a in m.actions.values():
            scope = self.params(a.params, {}, action=True)
            self.block(a.body, scope, StmtContext("action"))
        for p in m.procedures.values():
            self.block(p.body, self.params(p.params, {}), StmtContext("procedure"))
        for dv in m.devices.values():
            self.device(dv)
        for t in m.triggers:
            self.want_bool(t.test, self.expr(t.test, {}))
            self.block(t.body, {}, StmtContext("trigger"))
        for h in m.hooks:
            self.block(h.body, {}, StmtContext("hook"))
            if _suspends(h.body, self.suspending_procedures()):
                self.err("E304", f"'on {h.event}' cannot stop for a decision", h.span,
                         "make the choice in the flow, or in a trigger ('when')")

    def device(self, dv: A.DeviceDecl) -> None:
        """A device's roll part ends with its outcome; its requires and settle part read it."""
        scope = self.params(dv.params, {})
        rt = self.declared(dv.type)
        falls = self.block(dv.roll, scope, StmtContext("device_roll", result_type=rt))
        if falls:
            self.err("E308", f"device '{dv.name}': its roll part must end with 'result <outcome>'", dv.span)
        inner = dict(scope)
        inner["outcome"] = rt
        inner["detail"] = ANY  # what `result ... with` passed on; none when scripted
        for r in dv.requires:
            self.want_bool(r.test, self.expr(r.test, inner))
        self.block(dv.settle, inner, StmtContext("device_settle"))

    def goto_phases(self) -> None:
        """Each `goto` names a phase at the top of the flow (E221, E222)."""
        m = self.m
        for g in self.gotos:
            if g.phase not in m.phases:
                self.err("E221", f"unknown phase '{g.phase}'", g.span, did_you_mean(g.phase, m.phases))
            elif g.phase not in self.top_phases:
                self.err("E222", f"'goto {g.phase}': only phases at the top of the flow can be jumped to", g.span)

    def params(self, params: tuple, scope: dict[str, Type], action: bool = False) -> dict[str, Type]:
        scope = dict(scope)
        seen: set[str] = set()
        for p in params:
            if p.name in seen:
                self.err("E102", f"duplicate parameter '{p.name}'", p.span)
            seen.add(p.name)
            if p.type is not None:
                t = self.declared(p.type)
                if action and not self.domain_of_type(t):
                    self.err("E223", f"parameter '{p.name}: {t}' has no finite domain", p.span,
                             f"write '{p.name} in <list or range>'")
                scope[p.name] = t
            else:
                scope[p.name] = self.expr(p.domain, scope).item
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
            t = self.expr(A.Name(d.span, layer), {}).base
            square = Elem(d.board)
            onto = (isinstance(t, MapOf) and t.val.base == square  # pieces -> squares
                    or t in (SetOf(square), ListOf(square)))  # marked squares
            if not (isinstance(t, MapOf) and t.key == square) and not onto:
                self.err("E229", f"display layer '{layer}' is not a map from {d.board} to values "
                         f"(or from pieces to {d.board})", d.span)

    def scenario(self, sc: A.ScenarioDecl) -> None:
        for st in sc.steps:
            if st.kind in ("given", "before_start"):
                self.block(st.body, {}, StmtContext("given"))
            elif st.kind == "start_phase" and st.value not in self.top_phases:
                self.err("E221", f"unknown top-level phase '{st.value}'", st.span,
                         did_you_mean(st.value, self.top_phases))
            elif st.kind in ("expect", "winner", "decider") and isinstance(st.value, A.Node):
                t = self.expr(st.value, {})
                if st.kind == "expect":
                    self.want_bool(st.value, t)
            if st.by is not None:
                self.want_player(st.by, self.expr(st.by, {}), "'by' names")
            elif st.kind == "script":
                name, value = st.value
                if name not in self.m.devices and name not in CHANCE_NAMES:
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
    """Whether a `break` in `body` leaves the loop around it (one inside a nested loop leaves that)."""
    for s in body:
        if isinstance(s, A.BreakStmt):
            return True
        if isinstance(s, (A.IfStmt, A.TurnStmt, A.PhaseStmt, A.PlayStmt)) and any(_has_break(b) for b in A.bodies(s)):
            return True
    return False  # a part of `simultaneously` has no loose break (E305 inside it)


def _suspends(body: tuple, procs: set[str]) -> bool:
    """Whether `body` can stop for a decision, calling the procedures `procs` that can."""
    for s in body:
        if isinstance(s, (A.PlayStmt, A.ChooseStmt, A.TurnStmt, A.PhaseStmt, A.GotoStmt, A.SimultaneousStmt)):
            return True
        if isinstance(s, A.DoStmt) and s.name in procs:
            return True
        if any(_suspends(b, procs) for b in A.bodies(s)):  # an `if`'s branches, a loop's body
            return True
    return False


suspends = _suspends


def check_modules(modules: list[A.Module], root: str | Path | None = None) -> tuple[Model, list[Diagnostic]]:
    """Check parsed modules together; returns the model and all diagnostics (errors and warnings).
    Data and board files are read only inside `root` (default: the first module's folder)."""
    if root is None and modules:
        root = Path(modules[0].path).parent
    c = _Checker(Path(root) if root is not None else None)
    model = c.run(modules)
    c.diags.extend(check_quotes(modules))  # quotes against the seed lines they cite (W002-W004)
    c.diags.extend(check_conserve(model))  # `conserve ... in` zones (E230)
    order = {m.path: i for i, m in enumerate(modules)}
    unique = {(d.code, d.span, d.message): d for d in c.diags}  # two checks may see one fault
    diags = sorted(unique.values(), key=lambda d: (order.get(d.span.file, 0), d.span.line, d.span.column))
    return model, diags
