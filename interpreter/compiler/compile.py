"""compile_*: a checked Model → a Program: everything a game of the ruleset needs.

Expressions and straight-line statements become Python source generated from the checked
AST (never user text: every user name is mapped to a generated identifier or a repr'd
constant) and compiled once per ruleset. Blocks that can stop for a decision become op lists
(interpreter/compiler/blocks.py) and then one resumable function each (interpreter/compiler/machine.py); a
suspended game is plain data (frames of block, pc and locals), so clone and save need
nothing special. Each program is built in two variants: `record=False` has no trace
bookkeeping at all, `record=True` journals every write and records chance and checks.
The program also answers what a game asks before and after it runs: the constants for a set
of options, the start values of the state, the scores.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass, field
from typing import Any

from ...dsl import ast as A
from ...dsl.ast import iter_nodes
from ...dsl.check import Model, suspends
from ...dsl.check_expr import DIRECTIONS
from ...dsl.check_runaway import recursive_defines
from ...dsl.printer import expr_text
from ...dsl.types import BOOL, MapOf, SetOf, Type, fits
from ..engine.canonical import interned, interned_code
from ..engine.errors import RULE_ERRORS, Abandoned, BudgetExceeded, EngineError, RuleFailure
from ..engine.limits import RECURSIVE_CALL_WORK, WORK_BUDGET
from ..engine.locate import plain
from ..engine.moves import Action
from ..engine.recording import (
    STATE_KEPT,
    keys_written,
    pop_rule_code,
    push_rule_code,
    quiet_pop_code,
    quiet_push_code,
)
from ..engine.runtime import MISSING, RUNTIME, make_order, seq_by
from ..engine.values import copier, jsonable, materialize
from ..stdlib.boards import Boards
from ..stdlib.graph import Graph
from ..stdlib.grid import Grid
from ..stdlib.library import LIBRARY
from . import ir, pytree
from .actiongen import generate_action, joined, numbered
from .blocks import BlockBuilder, is_chance_let, param_types, prov_info, require_texts
from .codegen import Choice, CodeGen, ModelFacts, _may_hold_dict, model_facts
from .common import common_lookups
from .common_exprs import common_expressions
from .invtests import grouped_sum, grouped_test, logged_maps, point_test
from .known import known_entries
from .machine import MachineBuilder
from .memo import state_free
from .quiettail import tail_procedure
from .reads import pointwise_reads, state_reads, trigger_watch

__all__ = ["MISSING", "CompiledAction", "Identity", "Program", "compile_explained", "compile_expr",
           "compile_model", "compile_stmts", "is_chance_let"]

# The only Python builtins generated code can see: what expressions compile to.
SAFE_BUILTINS = {"len": len, "sum": sum, "all": all, "any": any, "max": max, "min": min, "next": next,
                 "range": range, "list": list, "frozenset": frozenset, "bool": bool, "type": type,
                 "dict": dict, "tuple": tuple, "enumerate": enumerate, "str": str, "map": map, "int": int,
                 "True": True, "False": False, "None": None}


@dataclass(frozen=True)
class Identity:
    """Which ruleset a program was compiled from: saves and trace headers name it."""

    title: str
    hash: str
    path: str | None


@dataclass
class CompiledAction:
    name: str
    decl: A.ActionDecl
    params: tuple[str, ...]
    enum: Any  # enum(G, out) appends the legal moves
    check: Any  # check(G, *args) -> index of the first failing require, -1 if legal
    explain: Any  # explain(G, *args) -> list of (index, value, {subexpr: value})
    effect: Any  # effect(G, *args) when the body never suspends
    block: int | None  # block id when it can suspend
    requires: list[A.RequireStmt]
    any: Any = None  # any(G) -> whether some binding is legal (stops at the first)
    abandonable: bool = False  # its body can `abandon`: the engine keeps a way back
    require_texts: list[str] = field(default_factory=list)  # printed once, quoted by every check
    key: str = ""  # its rule key in traces: action:<name>
    plain_args: bool = False  # every argument is a name, number or true/false: JSON as it is
    # ... or a list of them (never changed in place): a traced step keeps the move as itself
    # and makes its bindings and text when read (Game._take_recorded)
    kept_args: bool = False
    # explain for a move offered by the listing just made, in the same state (traced games'
    # moves): it may take the listing's values of the requires that need no parameter
    explain_offered: Any = None
    checks_in_place: bool = False  # traced: the block playing the move works out its checks (machine.py)
    # traced, `deferred checks`: the listing's kept entries its explain takes (recording.deferred_explain)
    deferred: int = 0
    # traced, `state kept for checks`: the state variables its explain reads, copied when the
    # move is played and explained when the trace is read (`state_kept`); None: explained at once
    state_kept: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        self.require_texts = require_texts(self.requires)
        self.key = sys.intern(f"action:{self.name}")  # canonical, as the frame's names (engine/canonical.py)
        self.params = interned(self.params)


_MAX_PICKS = 4096  # sets of written variables whose invariants a program remembers


@dataclass
class Program:
    model: Model
    record: bool
    identity: Identity
    grids: dict[str, Grid]
    graphs: dict[str, Graph]
    elements: dict[str, tuple]  # type name -> its values (boards, enums, Direction, bool)
    boards: Boards | None = None  # the boards as the library's board functions see them
    actions: dict[str, CompiledAction] = field(default_factory=dict)
    # the actions whose moves the block that offered them plays (ActionSource.plays_in_place)
    in_place: set[str] = field(default_factory=set)
    # what an untraced game's apply() hands to the block that offered it (Game._plain): the
    # actions played in place, and `choose` when the blocks take a choice (`choose in place`)
    plain: set[str] = field(default_factory=set)
    takes_choices: bool = False  # its blocks take a choice handed in (`choose in place`)
    procedures: dict[str, tuple] = field(default_factory=dict)  # name -> ("fn", fn) | ("block", id)
    blocks: list[ir.Block] = field(default_factory=list)
    block_fns: list[Any] = field(default_factory=list)
    # the games' `apply` with a decision's moves played in it (`fused apply`, machine.py
    # `fused_apply`; used where the program is lean or lean traced), and the class of such games
    fused_apply: Any = None
    lean_class: Any = None
    flow_block: int = 0
    triggers: list[tuple] = field(default_factory=list)  # (test_fn, fn|None, block|None, decl)
    hooks: dict[str, list[tuple]] = field(default_factory=dict)
    phase_labels: dict[str, int] = field(default_factory=dict)
    invariants: list[tuple] = field(default_factory=list)  # (test_fn, decl)
    # per invariant, the state variables it reads (None: more than state; interpreter/compiler/reads.py)
    invariant_reads: list[frozenset[str] | None] = field(default_factory=list)
    # the same by variable: which invariants read it, and those that read more than state
    invariants_reading: dict[str, tuple[int, ...]] = field(default_factory=dict)
    invariants_unread: tuple[int, ...] = ()
    # the invariants to check after a step, by the set of state variables it wrote (`invariants_for`)
    invariant_picks: dict[frozenset[str], tuple[int, ...]] = field(default_factory=dict, repr=False)
    # the invariants that can be tested at the keys a step wrote (reads.pointwise_reads): by
    # index, the maps they read and their test for one key (`INVP_n`)
    invariant_points: dict[int, tuple[frozenset[str], Any]] = field(default_factory=dict)
    # the sets among those read as `x in s`: a whole write of one is tested at the elements it
    # added or removed (recording.member_keys), not whole
    member_sets: frozenset[str] = frozenset()
    # per invariant, the test a traced game runs after a step (faster than, and as true as, its
    # own: invtests.py); its own gives the messages when one fails
    invariant_tests: list[Any] = field(default_factory=list)
    # the same after a step that the journal shows: a grouped invariant's kept sums brought up to
    # date at the keys written since the last check (`INVS_n`, invtests.py `kept sums`)
    invariant_steps: list[Any] = field(default_factory=list)
    # by the set of journal paths a step wrote: the invariants tested whole and by key (`invariant_plan`)
    invariant_plans: dict[Any, tuple[tuple, tuple]] = field(default_factory=dict, repr=False)  # (or by one path)
    # per invariant tested by key, its test at a set of keys (`INVK_n`, `keyed points`)
    invariant_keyed: dict[int, Any] = field(default_factory=dict)
    # by the set of journal paths a step wrote: (the names of the maps its invariants tested by
    # key read, their `INVK_n`), or None where a path goes deeper or whole (`keyed_plan`)
    keyed_plans: dict[Any, tuple | None] = field(default_factory=dict, repr=False)
    # by a plan's invariants tested by key: their tests by the map they read (`points_by_map`)
    point_dispatch: dict[tuple, dict[str, tuple]] = field(default_factory=dict, repr=False)
    var_types: dict[str, Type] = field(default_factory=dict)
    var_copiers: list[tuple[str, Any]] = field(default_factory=list)  # how a clone copies each var
    copy_vars: Any = None  # vars -> an independent copy (only what can change in place is copied)
    hidden: dict[str, str] = field(default_factory=dict)  # var -> "all" | "owner", for traces
    # untraced, no hidden state, no `simultaneously`: its games are `game.LeanGame`s, whose
    # `apply` and `legal_actions` leave out the tests for what such programs never have
    # (`lean apply`, CodeGen.LEAN_APPLY)
    lean: bool = False
    # traced, no hidden state, no `simultaneously`, no invariants: `game.LeanTracedGame`s,
    # whose `apply` takes a move that works its checks out in its block straight there
    # (`lean traced apply`, CodeGen.LEAN_APPLY)
    lean_traced: bool = False
    step_heads: dict[str, dict] = field(default_factory=dict, repr=False)  # rule key -> fixed step part
    move_texts: dict[int, str] = field(default_factory=dict, repr=False)  # id(table move) -> its text
    # the move tables already made for another program of the same ruleset (its traced or
    # untraced twin), by action and parameter values: shared, not made again (actiongen.move_table)
    move_tables: dict[tuple, tuple] = field(default_factory=dict, repr=False)
    # the moves of a `choose`, by each option's type and then the option, made at the first
    # decision that offers it (game._choice_moves)
    choice_moves: dict[type, dict] = field(default_factory=dict, repr=False)
    rules: dict[str, dict] = field(default_factory=dict)  # rule key -> provenance for traces
    # The tree of the code that runs (codegen.CodeGen.finish), only for compile_model(keep_tree=
    # True): kept, its tens of thousands of objects were walked by every full collection of the
    # garbage collector, which traced games (whose steps live long) set off often; Root's traced
    # cost was a tenth higher. `syntax_tree()` makes it again.
    tree: ast.Module | None = field(default=None, repr=False)
    choices: list[Choice] = field(default_factory=list)  # the optimisations applied, in rules terms
    namespace: dict = field(default_factory=dict)
    facts: ModelFacts | None = field(default=None, repr=False)  # every CodeGen of the program shares them
    _exprs: dict[int, Any] = field(default_factory=dict, repr=False)
    _consts: dict[str, dict] = field(default_factory=dict, repr=False)

    def syntax_tree(self) -> ast.Module:
        """The Python tree of what runs, generated again (the same every time): for reading,
        debugging and tests, not kept (see above)."""
        return compile_model(self.model, self.record, self.identity, keep_tree=True).tree

    @property
    def source(self) -> str:
        """The program as Python text (`ast.unparse` of what runs), for reading and debugging."""
        return ast.unparse(self.syntax_tree())

    # ------------------------------------------------------------------ what a game asks
    def invariants_for(self, written: frozenset[str]) -> tuple[int, ...]:
        """The invariants a step that wrote these state variables may have broken (those that
        read one of them, or more than state), in order: worked out once per set, since a
        traced game asks after every step and the same few sets come back."""
        todo = self.invariant_picks.get(written)
        if todo is None:
            picked = set(self.invariants_unread)
            for name in written:
                picked.update(self.invariants_reading.get(name, ()))
            todo = tuple(sorted(picked))
            if len(self.invariant_picks) < _MAX_PICKS:
                self.invariant_picks[written] = todo
        return todo

    def invariant_plan(self, paths: Any) -> tuple[tuple[int, ...], tuple[tuple, ...]]:
        """After a step that wrote these journal paths (recording.entry_path: a name for a write
        one key deep), the invariants it may have broken (`invariants_for` their variables) as
        (those tested whole, those tested at the keys it wrote: (index, the maps it reads, its
        test for one key)); one of the latter is tested whole when it wrote a map whole (a set
        written whole is tested at the elements it gained or lost: `member_sets`). Worked
        out once per set of paths, since a traced game asks after every step; `paths` may be
        the one path of a step of one write, for the set of it (`one path`)."""
        plan = self.invariant_plans.get(paths)
        if plan is None:
            key, paths = paths, paths if type(paths) is frozenset else frozenset((paths,))
            todo = self.invariants_for(frozenset([p if type(p) is str else p[0] for p in paths]))
            points = self.invariant_points
            members = self.member_sets
            by_key = tuple((i, *points[i]) for i in todo
                           if i in points and not any((m,) in paths for m in points[i][0] if m not in members))
            plan = (tuple(i for i in todo if i not in {j for j, _m, _t in by_key}), by_key)
            if len(self.invariant_plans) < _MAX_PICKS:
                self.invariant_plans[key] = plan
        return plan

    def keyed_plan(self, paths: Any, points: tuple[tuple, ...]) -> tuple | None:
        """For a step that wrote these journal paths and whose plan tests `points` by key: (the
        names of the maps they read, their `INVK_n`) where every one has a test at a set of keys
        and no path of those maps is deeper or whole (each key written is then an entry's key,
        picked by the entry's path alone: `keyed points`); None otherwise (`_points_hold`).
        Worked out once per set of paths."""
        keyed = self.keyed_plans.get(paths, MISSING)
        if keyed is MISSING:
            key, paths = paths, paths if type(paths) is frozenset else frozenset((paths,))
            names = frozenset(m for _i, maps, _t in points for m in maps)
            keyed = None
            if all(i in self.invariant_keyed for i, _m, _t in points) and \
                    not any(type(p) is tuple and p[0] in names for p in paths):
                keyed = (names, tuple(self.invariant_keyed[i] for i, _m, _t in points))
            if len(self.keyed_plans) < _MAX_PICKS:
                self.keyed_plans[key] = keyed
        return keyed

    def points_by_map(self, points: tuple[tuple, ...]) -> dict[str, tuple]:
        """The tests at one key of a plan's invariants tested by key (`invariant_plan`), by each
        map or set they read: `Game.check_invariants` walks the keys a step wrote once, testing
        each with the tests that read its map, not once per test. Worked out once per plan."""
        by = self.point_dispatch.get(points)
        if by is None:
            grouped: dict[str, list] = {}
            for _i, maps, test in points:
                for m in sorted(maps):
                    grouped.setdefault(m, []).append(test)
            by = {m: tuple(tests) for m, tests in grouped.items()}
            if len(self.point_dispatch) < _MAX_PICKS:
                self.point_dispatch[points] = by
        return by

    def expr(self, node: A.Node, scope: tuple[str, ...] = ()) -> Any:
        """A function (game, *scope values) -> value for one expression, compiled once."""
        fn = self._exprs.get(id(node))
        if fn is None:
            fn = self._exprs[id(node)] = compile_expr(self, node, scope)
        return fn

    def constants(self, options: dict) -> dict[str, Any]:
        """Options (declared defaults overridden by `options`, already decoded), data and
        constants; worked out once per set of options and shared by every game using it."""
        key = repr(sorted(jsonable(options).items()))
        consts = self._consts.get(key)
        if consts is None:
            holder = _ConstHolder(self)
            for name, o in self.model.options.items():
                if name in options:
                    holder.consts[name] = options[name]
                else:
                    holder.consts[name] = _worked_out(self.expr(o.default), holder, f"option '{name}'", o.span)
            holder.consts.update(self.model.data_values)
            for name, c in self.model.consts.items():
                holder.consts[name] = _worked_out(self.expr(c.value), holder, f"constant '{name}'", c.span)
            consts = self._consts[key] = interned(holder.consts)  # canonical names (engine/canonical.py)
        return consts

    def initial_vars(self, game: Any) -> dict[str, Any]:
        """Every state variable at its declared start value, for this game's players."""
        domains = game.domains()
        out = {}
        for name, decl in self.model.vars.items():
            default = None
            if decl.default is not None:
                default = _worked_out(self.expr(decl.default), game, f"the start value of '{name}'", decl.span)
            out[name] = materialize(self.var_types[name], default, domains, self._each_entry(name))
        return interned(out)  # canonical names (engine/canonical.py)

    def _each_entry(self, name: str) -> bool:
        """Whether a map's start value is the value of each entry (`units: Player -> Unit =
        Unit(hp: 1)`) rather than the map's entries (`ruler_at: Ruler -> Sq? = {red: b2}`): it
        fits the value's type and not the map's (the checker allows either, E216). A record
        is a dict, like a map, so the value alone cannot tell."""
        decl, vt = self.model.vars[name], self.var_types[name]
        if decl.default is None or not isinstance(vt, MapOf):
            return False
        dt = self.model.type_of(decl.default)
        return fits(vt.val, dt) and not fits(vt, dt)

    def scores(self, game: Any) -> dict[str, int] | None:
        s = self.model.scoring
        if s is None:
            return None
        value = self.expr(s.value)(game)
        return {p: value[p] for p in game.players}


def _vars_copier(copiers: list[tuple[str, Any]]) -> Any:
    """The state store copied as shallowly as its types allow: a dict copy, then a copy of each
    variable whose value holds dicts (the common one-map case is special-cased)."""
    if len(copiers) == 1 and copiers[0][1] is dict.copy:
        name = copiers[0][0]

        def copy_one(v: dict) -> dict:
            out = v.copy()
            out[name] = v[name].copy()
            return out

        return copy_one

    def copy_all(v: dict) -> dict:
        out = v.copy()
        for name, copy in copiers:
            out[name] = copy(out[name])
        return out

    return copy_all


def _worked_out(fn: Any, holder: Any, what: str, span: A.Span) -> Any:
    """A constant's value; a Python error in working it out is a failure at its line."""
    try:
        return fn(holder)
    except (KeyError, IndexError, TypeError, ValueError, ZeroDivisionError, RecursionError, OverflowError) as err:
        raise RuleFailure(f"{what} cannot be worked out: {plain(err)}", span) from None
    except RuleFailure as err:  # a helper's own failure (runtime._div): no rule runs, so no place yet
        if err.span is not None and err.span.line:
            raise
        raise RuleFailure(f"{what} cannot be worked out: {err.message}", span) from None


class _ConstHolder:
    """Enough of a Game for evaluating options and constants before a game exists."""

    def __init__(self, prog: Program):

        self.prog = prog
        self.vars: dict = {}
        self.consts: dict = {}
        self.players: tuple = ()
        self.current = None
        self.round = 0
        self.phase = None
        self.work = WORK_BUDGET  # constants get one decision's budget in all
        self._carried: dict = {}  # no state to carry values of (engine/carried.py)
        self._wlog: list = []

    def out_of_work(self, span: Any) -> None:
        raise BudgetExceeded("the constants take more work to work out than a decision may", span)


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
    return grids, graphs, interned(elements)  # canonical names (engine/canonical.py)


def _codegen(prog: Program, record: bool) -> CodeGen:
    players = interned(tuple(prog.model.players.names)) if prog.model.players else ()
    if prog.facts is None:
        prog.facts = model_facts(prog.model)
    g = CodeGen(prog.model, record, prog.elements, prog.boards, players, prog.facts)
    g.move_tables = prog.move_tables
    g.choice_moves = prog.choice_moves
    if record and g.KEPT_SUMS and g.KEPT_BY_WRITES:  # before any write is generated
        g.logged_maps = logged_maps(prog.model)
    g.spans = []
    g.define_ids = {n: i for i, n in enumerate(prog.model.defines)}
    g.proc_ids = {n: i for i, n in enumerate(prog.model.procedures)}
    g.device_ids = {n: i for i, n in enumerate(prog.model.devices)}
    return g


def _carried_define(g: CodeGen, name: str, params: list[str], full: list[str]) -> None:
    """A definition carried from one decision to the next (compiler/carry.py): `DF_i` works its
    value out in full, `DW_i` tests its filter for one item, and `D_i` hands out the value kept
    for its memo key while no write was logged since, else asks `_carried_list` to bring it up
    to date (engine/carried.py)."""
    i = g.define_ids[name]
    c = g.carried[name]
    d = g.m.defines[name]
    g.chose("carried", f"{name} by {', '.join(sorted(c.reads))}")
    g.function(f"DF_{i}", params, full)
    sc = {p.name: (f"p{j}", None) for j, p in enumerate(d.params)}
    item = f"p{len(params)}"
    sc[c.var] = (item, None)
    lines: list[str] = []
    g.still = True
    test = g.value(c.test, sc, lines, "    ")
    g.still = False
    g.function(f"DW_{i}", [*params, item], [*lines, f"    return {test}"])
    parts = [str(i)]
    for p, arg, proj in zip(d.params, params, c.key.parts, strict=True):
        if proj is None:
            parts.append(arg)
        else:  # what the definition reads of this argument (memo.memo_keys): its data values
            parts.extend(dict.fromkeys(g.ex(node, {p.name: (arg, None)}) for node in proj))
    reads = g.const(c.reads, "CR")
    index = g.const({x: j for j, x in enumerate(g.elements[c.domain])}, "CI")
    args = "(" + "".join(f"{p}, " for p in params) + ")"
    g.function(f"D_{i}", params, [
        f"    _key = ({', '.join(parts)},)",
        "    _got = G._carried.get(_key)",
        "    if _got is not None and _got[1] == len(G._wlog):",
        "        return _got[0]",
        f"    return _carried_list(G, _key, _got, {reads}, {index}, DW_{i}, DF_{i}, {args})"])


def _triggers_at_once(g: CodeGen, model: Model) -> bool:
    """`FT(G)`, what a decision point calls where it called `Game.fire_triggers` (`triggers at
    once`, §5): every trigger's condition worked out in place, in declaration order as
    `fire_triggers` does, and the engine called only when one differs from `trig_last` (or a
    trigger waits, or a part of `simultaneously` runs, which `fire_triggers` handles as it
    did). The conditions are read-only, so the values are the same, and handed on
    (`Game._fire_changed`) rather than worked out again. Whether it was written."""
    if not model.triggers or not g.TRIGGERS_AT_ONCE:
        return False
    lines = ["    if G._part is not None or G._deferred:", "        return G.fire_triggers()"]
    now = []
    g.still = True  # a condition only reads
    for t in model.triggers:
        v = g.value(t.test, {}, lines, "    ")
        n = g.fresh("tn")
        lines.append(f"    {n} = True if {v} else False")
        now.append(n)
    g.still = False
    lines += ["    last = G.trig_last", "    if not G._chain:", "        G._fired = []",
              f"    if {' and '.join(f'{n} is last[{i}]' for i, n in enumerate(now))}:",
              "        G._chain = 0", "        return False",
              f"    return G._fire_changed([{', '.join(now)}])"]
    g.function("FT", [], lines)
    g.chose("triggers at once", f"{len(model.triggers)} conditions", rule="flow")
    return True


def _device(g: CodeGen, name: str, dv: A.DeviceDecl) -> None:
    """A chance device: `DR_i` rolls; `DV_i` takes a scripted outcome or rolls, checks the
    device's requires, notes the chance event and settles."""
    i = g.device_ids[name]
    sc = {p.name: (f"p{j}", None) for j, p in enumerate(dv.params)}
    params = [sc[p.name][0] for p in dv.params]
    lines: list[str] = []
    g.roll_draws = [] if g.DRAWS_ONCE else None
    g.roll_sound = {}
    g.roll_batched = False
    g.stmts(dv.roll, dict(sc), lines, "    ")
    if g.roll_draws:
        lines[:0] = g.roll_draws_test()  # one line each: the error locations count them (locate.py)
        g.chose("draws tested once", ", ".join(dict.fromkeys(g.roll_draws)))
    g.roll_draws = None
    g.roll_batched = False
    g.function(f"DR_{i}", params, lines)
    inner = dict(sc)
    inner["outcome"] = ("outcome", None)
    inner["detail"] = ("detail", None)
    lines = [f"    outcome = G.take_script({name!r}) if G.scripted else MISSING",
             "    scripted = outcome is not MISSING",
             "    detail = None",
             "    if scripted:",
             f"        outcome = G.scripted_value({name!r}, outcome, SPANS[{g.span_id(dv.span)}])",
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
    body = [f"    G.note_chance('device', {name!r} + ('(scripted)' if scripted else ''), outcome, {args_repr}, detail)"]
    g.stmts(dv.settle, dict(inner), body, "    ")
    body.append("    return outcome")
    if g.record:  # traced: the roll is a step of its own, with the device's quote and settle
        g.function(f"DS_{i}", params + ["outcome", "detail", "scripted"], body)
        call = ", ".join(["G", *params, "outcome", "detail", "scripted"])
        in_place = _closed_in_place(g)
        lines += [*_rule_push(repr("device:" + name), "    ", in_place),
                  "    try:",
                  f"        return DS_{i}({call})",
                  "    finally:",
                  *_rule_pop("        ", in_place)]
    else:
        lines.extend(body)
    g.function(f"DV_{i}", params, lines)


def _procedure(g: CodeGen, builder: BlockBuilder, name: str, p: A.ProcedureDecl, record: bool) -> tuple:
    """A procedure is a plain function, or a block when it can stop for a decision."""
    model = g.m
    if name in model.suspends:
        params = [q.name for q in p.params]
        return ("block", builder.block(p.body, params, f"procedure:{name}", params,
                                       types=param_types(p.params, model)))
    pid = g.proc_ids[name]
    sc = {q.name: (f"p{i}", None) for i, q in enumerate(p.params)}
    pnames = [sc[q.name][0] for q in p.params]
    ind = "        " if record else "    "
    lines: list[str] = []
    g.stmts(p.body, sc, lines, ind)
    lines.append(f"{ind}return False")
    if record and RULE_STEPS_INLINE and QUIET_PROCEDURES and quiet_body(lines):  # its step opened only if it wrote
        g.chose("quiet procedure", rule=g.rule_now)
        key = repr("procedure:" + name)
        tail = tail_procedure(pid, key, pnames, lines[:-1]) if g.QUIET_TAIL else None
        if tail is not None:  # its form for a call an effect ends with (quiettail.py)
            g.function(f"PT_{pid}", pnames, tail)
            g.quiet_tails.add(pid)
        in_place = _closed_in_place(g)
        lines = [*quiet_push_code(key, "    ", in_place), "    try:", *lines, "    finally:",
                 *quiet_pop_code(key, "        ", in_place)]
    elif record:  # the trace attributes the procedure's changes to it, a step of its own
        in_place = _closed_in_place(g)
        lines = [*_rule_push(repr("procedure:" + name), "    ", in_place), "    try:", *lines,
                 "    finally:", *_rule_pop("        ", in_place)]
    g.function(f"P_{pid}", pnames, lines)
    return ("fn", f"P_{pid}")


# What the body of a quiet procedure may read or call of the game: nothing that notes into a
# step, opens or closes one, or changes the phase or the player (`quiet_body`).
_QUIET_GAME = frozenset({"vars", "consts", "journal", "current", "work", "out_of_work", "_carried",
                         "player_list", "players",
                         # a write's key logged for the kept sums (invtests.py `kept by writes`)
                         "_invg", "_ilog"})
_GAME_ATTR = re.compile(r"\bG\.(\w+)")
_GAME_PASSED = re.compile(r"[(,]\s*G\s*[,)]")
_GENERATED_CALL = re.compile(r"\b_?[A-Z]+_?\d+\(")


def quiet_body(lines: list[str]) -> bool:
    """Whether a traced procedure's body (its generated lines) only writes state: it calls no
    generated function (a procedure, a device, a definition), hands the game to no function
    (a chance draw notes into the step), and reads or calls nothing of the game but the
    state, the work budget and whose turn it is, never set. Its step then holds its writes
    and nothing else, and is opened only when it wrote (`recording.quiet_push_code`)."""
    for line in lines:
        if _GENERATED_CALL.search(line) or _GAME_PASSED.search(line) or "G.current =" in line:
            return False
        if any(a not in _QUIET_GAME for a in _GAME_ATTR.findall(line)):
            return False
    return True


# Off: procedures and devices start and end their steps by calling `push_rule` and `pop_rule`
# (for tests that compare the traces both ways give).
RULE_STEPS_INLINE = True
# Off: a procedure whose body only writes opens its step like any other (tests compare both).
QUIET_PROCEDURES = True


def _rule_push(key: str, ind: str, in_place: bool = False) -> list[str]:
    """`prev = G.push_rule(key)`, its common case inline (recording.push_rule_code)."""
    return push_rule_code(key, ind, in_place) if RULE_STEPS_INLINE else [f"{ind}prev = G.push_rule({key})"]


def _rule_pop(ind: str, in_place: bool = False) -> list[str]:
    """`G.pop_rule(prev)`, its common case inline (recording.pop_rule_code)."""
    return pop_rule_code(ind, in_place) if RULE_STEPS_INLINE else [f"{ind}G.pop_rule(prev)"]


def _closed_in_place(g: CodeGen) -> bool:
    """`step closed in place` (`CodeGen.AUTO_CLOSED_IN_PLACE`, recording.auto_close_code): a
    procedure's or device's step, and its caller's as it starts, closed by lines written out
    where it is automatic and wrote, not by a call of `_close`."""
    if not g.AUTO_CLOSED_IN_PLACE:
        return False
    g.chose("step closed in place", rule=g.rule_now)
    return True


def _tested_body(g: CodeGen, model: Model, name: str, d: A.DefineDecl, recursive: set[str],
                 remembered: dict) -> bool:
    """Whether definition `name`'s function is written as tests (`g.test`, `return False` on
    the first that fails, else `return True`) instead of one returned expression: a truth value
    that is a conditional or an `and`, so its branches and parts are statements and the loops in
    them run in place (Root's `rules(p, c)`: its `all` was a helper function called per call).
    A truth value is True or False, and the tests run the parts in the expression's order, each
    only where the expression ran it. Not where the value is remembered, shared or carried
    (those wrap the value), nor for a definition that calls itself."""
    body = d.value
    return (g.TESTED_BODIES and g.LOOP_FORMS and model.type_of(body) == BOOL
            and (isinstance(body, A.CondExpr) or isinstance(body, A.BoolOp) and body.op == "and")
            and name not in recursive and name not in remembered and name not in g.shared_calls
            and name not in g.carried)


def compile_model(model: Model, record: bool, identity: Identity, keep_tree: bool = False,
                  move_tables: dict | None = None) -> Program:
    """Generate and compile the whole program for one checked model (with `keep_tree`, its
    Python tree kept as `tree`: Program.syntax_tree). `move_tables`: the move tables of the
    ruleset's other programs, taken from and added to (`Program.move_tables`)."""
    interned(model.data_values)  # canonical names before any table is made of them (engine/canonical.py)
    grids, graphs, elements = _build_boards(model)
    prog = Program(model, record, identity, grids, graphs, elements)
    if move_tables is not None:
        prog.move_tables = move_tables
    prog.boards = Boards(grids, graphs, make_order(model, elements))
    prog.var_types = dict(model.var_types)
    prog.var_copiers = [(n, c) for n, t in prog.var_types.items() if (c := copier(t)) is not None]
    prog.copy_vars = _vars_copier(prog.var_copiers)
    prog.hidden = {n: v.hidden for n, v in model.vars.items() if v.hidden}
    g = _codegen(prog, record)
    g.own_procedures = True  # the procedures' functions are written into this module
    g.fire_after = trigger_watch(model)  # triggers are tested right after the writes they read
    builder = BlockBuilder(model, prog.rules)

    g.fire_here = False  # a device's triggers wait until it is done
    for name, dv in model.devices.items():
        g.rule_now = f"device {name}"
        _device(g, name, dv)
        prog.rules[f"device:{name}"] = prov_info(name, dv.prov, dv.span, model.base_dir)
    g.fire_here = True
    remembered = state_free(model)
    recursive = recursive_defines(model)
    for name, d in model.defines.items():  # definitions: pure functions
        g.rule_now = f"define {name}"
        sc = {p.name: (f"p{i}", None) for i, p in enumerate(d.params)}
        params = [sc[p.name][0] for p in d.params]
        lines = []
        g.still = True  # a definition only reads
        if _tested_body(g, model, name, d, recursive, remembered):
            # a truth value worked out by tests: its loops in place, no helper call
            g.chose("tested body")
            g.test(d.value, sc, lines, "    ", "return False")
            value = "True"
        else:
            value = g.value(d.value, sc, lines, "    ")
        g.still = False
        if name in recursive:  # each call costs work: one that never stops is stopped
            lines[:0] = [f"    G.work -= {RECURSIVE_CALL_WORK}", "    if G.work < 0:",
                         f"        G.out_of_work(SPANS[{g.span_id(d.span)}])"]
        if name in remembered:  # reads only its arguments and fixed data (memo.py)
            g.chose("remember")
            table = g.const({}, "T")
            parts = [f"tuple({p})" if k == "list" else p for p, k in zip(params, remembered[name], strict=True)]
            key = parts[0] if len(parts) == 1 else f"({', '.join(parts)},)"
            lines[:0] = [f"    _key = {key}", f"    _known = {table}.get(_key, MISSING)",
                         "    if _known is not MISSING:", "        return _known"]
            value = f"_remember({table}, _key, {value})"
        elif name in g.shared_calls:  # asked by several listings of one decision (shared_calls.py)
            g.chose("shared call")
            key = f"({g.define_ids[name]}, {''.join(p + ', ' for p in params)})"
            lines[:0] = ["    _sc = G._shared", "    if _sc is not None:", f"        _key = {key}",
                         "        _known = _sc.get(_key, MISSING)", "        if _known is not MISSING:",
                         "            return _known"]
            lines += [f"    _scv = {value}", "    if _sc is not None:", "        _sc[_key] = _scv"]
            value = "_scv"
        if name in g.carried:
            _carried_define(g, name, params, [*lines, f"    return {value}"])
            continue
        g.function(f"D_{g.define_ids[name]}", params, [*lines, f"    return {value}"])
        if g.LOOP_ROWS:
            g.tree_passes.setdefault(f"D_{g.define_ids[name]}", []).append(
                lambda fn, rule=g.rule_now: pytree.loop_rows(fn, g.fresh, g.complete_tables)
                and g.chose("loop rows", rule=rule))
        if g.NUMBERED_ROWS:  # after loop_rows, before common look-ups (which would keep a row's entries)
            g.tree_passes.setdefault(f"D_{g.define_ids[name]}", []).append(
                lambda fn, rule=g.rule_now: numbered(g, fn, rule))
        if g.JOINED_ROWS:  # after numbered and paired rows (joined.py)
            g.tree_passes.setdefault(f"D_{g.define_ids[name]}", []).append(
                lambda fn, rule=g.rule_now: joined(g, fn, rule))
        if g.KNOWN_ENTRIES:  # the walked keys' entries are the value they were kept for (known.py)
            g.tree_passes.setdefault(f"D_{g.define_ids[name]}", []).append(
                lambda fn, rule=g.rule_now: known_entries(fn) and g.chose("known entries", rule=rule))
        if g.COMMON_LOOKUPS:  # after loop_rows: the rows it looks up are then read in turn
            g.tree_passes.setdefault(f"D_{g.define_ids[name]}", []).append(
                lambda fn, rule=g.rule_now: common_lookups(fn, g.fresh) and g.chose("common look-ups", rule=rule))
        if g.COMMON_EXPRESSIONS:  # after common look-ups: the plain look-ups are kept already
            g.tree_passes.setdefault(f"D_{g.define_ids[name]}", []).append(
                lambda fn, rule=g.rule_now: common_expressions(fn, g.fresh, g.COMMON_LENGTHS)
                and g.chose("common expressions", rule=rule))
    proc_src: dict[str, tuple] = {}
    for name, p in model.procedures.items():
        g.rule_now = f"procedure {name}"
        proc_src[name] = _procedure(g, builder, name, p, record)
        prog.rules[f"procedure:{name}"] = prov_info(name, p.prov, p.span, model.base_dir)
    for name in sorted(model.suspends):  # a callable stub so a non-suspending caller fails loudly
        g.function(f"P_{g.proc_ids[name]}", ["*a"], [
            f"    raise RuleFailure('procedure {name} stops for a decision and cannot run here')"])
    action_src = {name: generate_action(g, builder, name, a) for name, a in model.actions.items()}

    trig_src = []
    for i, t in enumerate(model.triggers):
        key = g.rule_now = f"when:{i}"
        g.function(f"TT_{i}", [], [f"    return bool({g.ex(t.test, {})})"])
        if suspends(t.body, model.suspends):
            trig_src.append((f"TT_{i}", None, builder.block(t.body, [], key, []), t))
        else:
            lines: list[str] = []
            g.stmts(t.body, {}, lines, "    ")
            lines.append("    return False")
            g.function(f"TB_{i}", [], lines)
            trig_src.append((f"TT_{i}", f"TB_{i}", None, t))
        prog.rules[key] = prov_info(f"when {expr_text(t.test)}", t.prov, t.span, model.base_dir)
    at_once = _triggers_at_once(g, model)
    hook_src: dict[str, list] = {}
    for i, h in enumerate(model.hooks):
        key = g.rule_now = f"on:{i}"
        lines = []
        g.stmts(h.body, {}, lines, "    ")
        lines.append("    return False")
        g.function(f"HB_{i}", [], lines)
        hook_src.setdefault(h.event, []).append((f"HB_{i}", key))
        prog.rules[key] = prov_info(f"on {h.event}", h.prov, h.span, model.base_dir)
    points: dict[int, frozenset[str]] = {}
    grouped: dict[int, str] = {}  # invariant -> the function a traced game tests it with after a step
    for i, inv in enumerate(model.invariants):
        g.rule_now = f"invariant {i}"
        g.function(f"INV_{i}", [], [f"    return bool({g.ex(inv.test, {})})"])
        if record:  # traced games test it after every step: faster tests (invtests.py)
            maps = pointwise_reads(model, inv.test)
            if maps and all(_plain_map(model.var_types[v]) or _is_set(model.var_types[v]) for v in maps):
                points[i] = maps
                point_test(g, i, inv.test)
            found = grouped_sum(model, inv.test)
            after = None if found is None else grouped_test(g, i, inv.test, found)
            if after is not None:
                grouped[i] = after
    g.rule_now = "flow"
    if model.flow is not None:
        prog.flow_block = builder.block(model.flow.body, [], "flow", [], top=True)
        prog.rules["flow"] = prov_info("flow", model.flow.prov, model.flow.span, model.base_dir)

    machine = MachineBuilder(g, record, builder.blocks, proc_src, action_src, bool(model.triggers),
                             set(hook_src), builder.phase_labels)
    machine.at_once = at_once
    machine.takes_choices = machine.takes_choices and not _abandons(model)  # else the long way back
    block_names = [machine.build(bid) for bid in range(len(builder.blocks))]
    fused = machine.fused_apply()

    module = g.finish()
    kept_state = _kept_states(g, action_src, module, fused)
    if keep_tree:
        prog.tree = module
    prog.move_texts = g.move_texts
    ns = _namespace(prog, g)
    ns["_SOURCE_LINES"] = g.lines_of_text()  # where a Python error was raised (locate.py)
    code = interned_code(pytree.compile_module(module, f"<regelwerk:{model.title}>"))  # canonical names
    exec(code, ns)  # generated from the checked AST only; see the module docstring
    prog.blocks = builder.blocks
    prog.block_fns = [ns[n] for n in block_names]
    prog.fused_apply = ns[fused] if fused is not None else None
    for name, src in action_src.items():
        a = model.actions[name]
        prog.actions[name] = CompiledAction(
            name, a, tuple(p.name for p in a.params), ns[src.enum], ns[src.check], ns[src.explain],
            ns[src.effect] if src.effect else None, src.block, src.requires, ns[src.any],
            src.abandonable,
        )
        prog.rules[f"action:{name}"] = prov_info(name, a.prov, a.span, model.base_dir)
        ca = prog.actions[name]
        ca.explain_offered = ns[src.explain_offered or src.explain]
        ca.plain_args = src.plain_args
        ca.kept_args = src.kept_args
        ca.checks_in_place = record and src.checks_in_place
        ca.deferred = src.deferred or 0
        _keep_state(g, ca, kept_state[name])
        if src.plays_in_place:
            prog.in_place.add(name)
    prog.takes_choices = machine.takes_choices
    prog.plain = prog.in_place | ({"choose"} if machine.takes_choices and not record else set())
    prog.procedures = {n: (k, ns[ref] if k == "fn" else ref) for n, (k, ref) in proc_src.items()}
    prog.triggers = [(ns[t], ns[b] if b else None, blk, d) for t, b, blk, d in trig_src]
    prog.hooks = {ev: [(ns[f], key) for f, key in lst] for ev, lst in hook_src.items()}
    prog.phase_labels = builder.phase_labels
    prog.invariants = [(ns[f"INV_{i}"], inv) for i, inv in enumerate(model.invariants)]
    prog.invariant_reads = [state_reads(model, inv.test) for inv in model.invariants]
    prog.invariants_unread = tuple(i for i, r in enumerate(prog.invariant_reads) if r is None)
    prog.invariant_points = {i: (maps, ns[f"INVP_{i}"]) for i, maps in points.items()}
    prog.invariant_keyed = {i: ns[f"INVK_{i}"] for i in points if f"INVK_{i}" in ns}
    prog.member_sets = frozenset(v for maps in points.values() for v in maps if _is_set(model.var_types[v]))
    prog.invariant_tests = [ns[f"INVG_{i}"] if i in grouped else test for i, (test, _d) in enumerate(prog.invariants)]
    prog.invariant_steps = [ns[grouped[i]] if i in grouped else test for i, test in enumerate(prog.invariant_tests)]
    for i, reads in enumerate(prog.invariant_reads):
        for name in reads or ():
            prog.invariants_reading[name] = (*prog.invariants_reading.get(name, ()), i)
    _game_classes(prog, g)
    prog.choices = g.choices
    return prog


def _abandons(model: Model) -> bool:
    """Whether some rule can `abandon`: a choice taken in place (`choose in place`) skips
    `_play_checked`, which rolls a move back, so such programs take their choices the long way."""
    parts = [*model.actions.values(), *model.procedures.values(), *model.triggers, *model.hooks,
             *model.devices.values(), model.flow]
    return any(isinstance(n, A.AbandonStmt) for n in iter_nodes(tuple(parts)))


def _game_classes(prog: Program, g: CodeGen) -> None:
    """Which class the program's games are (engine `game_class`): lean, lean traced, and the
    program's own subclass where it has a fused apply, made once here so that every game of
    the program shares it."""
    prog.lean = _lean(prog, g)
    prog.lean_traced = _lean_traced(prog, g)
    if prog.fused_apply is not None and (prog.lean or prog.lean_traced):
        from ..engine.game import fused_class

        prog.lean_class = fused_class(prog)


def _lean(prog: Program, g: CodeGen) -> bool:
    """Whether `prog`'s games are `game.LeanGame`s (`lean apply`): untraced, no hidden state
    (SecretsGame), no `simultaneously` (a part's window never opens)."""
    lean = g.LEAN_APPLY and not prog.record and not prog.hidden and \
        not any(isinstance(op, ir.Window) for b in prog.blocks for op in b.ops)
    if lean:
        g.chose("lean apply", "apply and legal_actions", rule="the engine")
    return lean


def _lean_traced(prog: Program, g: CodeGen) -> bool:
    """Whether `prog`'s games are `game.LeanTracedGame`s (`lean traced apply`): traced, no
    hidden state, no `simultaneously`, no invariants (a move is then tested after its step,
    `_take_recorded`), and some action played in place works its checks out in its block."""
    lean = g.LEAN_APPLY and prog.record and not prog.hidden and not prog.invariants and \
        any(prog.actions[n].checks_in_place for n in prog.in_place) and \
        not any(isinstance(op, ir.Window) for b in prog.blocks for op in b.ops)
    if lean:
        g.chose("lean traced apply", "apply and legal_actions", rule="the engine")
    return lean


def _is_set(t: Type) -> bool:
    """A set, always written whole: the elements a write added or removed are its keys
    (recording.member_keys)."""
    return isinstance(t.base, SetOf)


_KEPT_GAME_READS = frozenset({"vars", "current", "work", "out_of_work"})  # recording._KeptGame's
_GENERATED_FN = re.compile(r"(?:[A-Z]+|_A)_?\d+$")


def _kept_states(g: CodeGen, action_src: dict[str, Any], module: ast.Module, fused: str | None) -> dict:
    """Traced: the state each move keeps for its explain (`state_kept`, on the final tree), or
    None; and where the fused apply opens such a move's step, that step made in line (`kept
    step inline`)."""
    kept = {name: state_kept(module, src.explain_offered or src.explain, g.m)
            if g.record and CodeGen.STATE_KEPT_CHECKS and src.plays_in_place and src.kept_args
            and not src.checks_in_place else None for name, src in action_src.items()}
    if fused is not None and g.fused_unchecked and CodeGen.KEPT_STEP_INLINE:
        fn = next(f for f in module.body if isinstance(f, ast.FunctionDef) and f.name == fused)
        if kept_steps_inline(fn, {a: kept[a] for a in g.fused_unchecked}, g.m):
            g.chose("kept step inline", f"{fused}'s step of {', '.join(a for a in g.fused_unchecked if kept[a])}",
                    rule="the engine")
    return kept


def _keep_state(g: CodeGen, ca: CompiledAction, kept: tuple[str, ...] | None) -> None:
    """Traced: move `ca` keeps the state its explain reads (`state_kept`), said as a choice."""
    ca.state_kept = kept
    if kept is not None:
        g.chose("state kept for checks", rule=f"action {ca.name}")


def kept_steps_inline(fn: ast.FunctionDef, kept: dict[str, tuple[str, ...] | None], model: Model) -> bool:
    """`kept step inline` (traced, CodeGen.KEPT_STEP_INLINE): in the fused apply `fn`, the step
    of a move that keeps the state its explain reads is made in line where `fused kept checks`
    calls `_RECORDED_STEP` (game.py `recorded_step`): the same list, its variables named, each
    map copied (`state_kept` allows plain values and maps of plain values only), no call and no
    loop over the names (1.5-2% of a traced checkers game's time). `kept`: each action the call
    serves, with its kept variables or None (the call stays for it). True when made."""
    inline = {a: names for a, names in kept.items() if names is not None}
    if not inline or any(type(n) is ast.Name and n.id == "_kv" for n in ast.walk(fn)):
        return False  # (the local it binds is taken: none is)
    done = False
    for node in list(ast.walk(fn)):
        # in an action's own branch (`step opened in its branch`), that action's step alone
        branch = next((a for a in kept if isinstance(node, ast.If) and ast.unparse(node.test) == f"action[0] == {a!r}"), None)
        for lst in (b for b in (getattr(node, "body", None), getattr(node, "orelse", None)) if isinstance(b, list)):
            for i, s in enumerate(lst):
                if ast.unparse(s) != "G._step = _RECORDED_STEP(G, action, _who)":
                    continue
                if branch is not None and lst is node.body:
                    if branch not in inline:
                        continue
                    made = _kept_step_lines({branch: inline[branch]}, {branch: inline[branch]}, model)
                else:
                    made = _kept_step_lines(kept, inline, model)
                for n in (n for new in made for n in ast.walk(new) if "lineno" in n._attributes):
                    ast.copy_location(n, s)  # at the call's line (locate.py)
                lst[i:i + 1] = made
                done = True
                break
    return done


def _kept_step_lines(kept: dict[str, tuple[str, ...] | None], inline: dict[str, tuple[str, ...]],
                     model: Model) -> list[ast.stmt]:
    """`kept_steps_inline`'s statements: one action (the call's only one), its step; else a
    test of the action's name each, the call where none holds."""
    def step(name: str, names: tuple[str, ...]) -> str:
        items = ", ".join(f"_kv[{v!r}].copy()" if _plain_map(model.var_types[v]) else f"_kv[{v!r}]" for v in names)
        return (f"_kv = G.vars\nG._step = [{'action:' + name!r}, False, _STATE_KEPT, action, (G.current, {items}), "
                "None, (), (), G.phase, _who]")
    if len(kept) == 1:
        ((name, names),) = inline.items()
        return ast.parse(step(name, names)).body
    text = ""
    for k, (name, names) in enumerate(inline.items()):
        text += f"{'if' if k == 0 else 'elif'} action[0] == {name!r}:\n" + \
            "".join(f"    {line}\n" for line in step(name, names).splitlines())
    text += "else:\n    G._step = _RECORDED_STEP(G, action, _who)\n"
    return ast.parse(text).body


def state_kept(module: ast.Module, explain: str, model: Model) -> tuple[str, ...] | None:
    """`state kept for checks` (traced): the state variables a move's explain function reads,
    through the generated functions it calls, when that is all it reads of the game besides
    the current player and the work budget (`_KEPT_GAME_READS`), and each is a plain value or
    a map of plain values (a list or set is a value, never changed in place), so that a shallow
    copy of each, taken when the move is played, is the state its checks saw: the step keeps
    the copies and `recording.kept_explain` explains the move when the trace is read, on a
    stand-in game (checkers' `jump`, whose `not goes_on(current, path)` walks the board: 7% of
    a traced game's time). None when it reads more, or when nothing would be kept."""
    fns = {f.name: f for f in module.body if isinstance(f, ast.FunctionDef)}
    todo, seen, names = [explain], set(), set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        fn = fns.get(name)
        if fn is None:
            return None
        seen.add(name)
        nodes = list(ast.walk(fn))
        used = set()  # the uses of `G` allowed: an attribute it answers, or handed to a generated function
        for n in nodes:
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and _GENERATED_FN.match(n.func.id) \
                    and n.args and isinstance(n.args[0], ast.Name) and n.args[0].id == "G":
                used.add(id(n.args[0]))
                todo.append(n.func.id)
            elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "G":
                if n.attr not in _KEPT_GAME_READS:
                    return None
                used.add(id(n.value))
        if any(isinstance(n, ast.Name) and n.id == "G" and id(n) not in used for n in nodes):
            return None
        views, bound = set(), set()  # `V = G.vars`: the state read only as `V['name']`
        for n in nodes:
            if isinstance(n, ast.Assign) and isinstance(n.value, ast.Attribute) and n.value.attr == "vars" \
                    and isinstance(n.value.value, ast.Name) and n.value.value.id == "G":
                if len(n.targets) != 1 or not isinstance(n.targets[0], ast.Name):
                    return None
                views.add(n.targets[0].id)
                bound.add(id(n.value))
        if any(isinstance(n, ast.Attribute) and n.attr == "vars" and isinstance(n.value, ast.Name)
               and n.value.id == "G" and id(n) not in bound for n in nodes):
            return None
        subs = [n for n in nodes if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id in views]
        loads = [n for n in nodes if isinstance(n, ast.Name) and n.id in views and isinstance(n.ctx, ast.Load)]
        if len(subs) != len(loads) or not all(isinstance(n.slice, ast.Constant) and isinstance(n.slice.value, str)
                                               for n in subs):
            return None
        names.update(n.slice.value for n in subs)
    for v in names:
        t = model.var_types.get(v)
        if t is None or (_may_hold_dict(t) and not _plain_map(t)):
            return None
    return tuple(sorted(names)) if names else None


def _plain_map(t: Type) -> bool:
    """A map whose values hold no map or record: every write to it is of one entry (a path one
    key deep) or of the whole map, never deeper, so the journal says which keys changed."""
    t = t.base
    return isinstance(t, MapOf) and not _may_hold_dict(t.val)


_NOT_YET = object()


def _namespace(prog: Program, g: CodeGen) -> dict[str, Any]:
    """What generated code can see: the runtime helpers, the library, and nothing else."""

    from ..engine.game import (  # the engine, loaded by now: no cycle at import
        Game,
        LeanGame,
        LeanTracedGame,
        after_block,
        after_block_kept,
        after_traced,
        after_traced_kept,
        recorded_step,
    )

    ns: dict[str, Any] = {
        **RUNTIME,
        **_interned_constants(g),  # the tables' names canonical, as the code's (engine/canonical.py)
        "ACT": Action,
        "_TN": tuple.__new__,
        "PASS": Action("pass"),
        # one pending record per player: pending decisions are replaced, never changed in place
        "PLAYING": interned({p: {"kind": "play", "player": p} for p in (prog.model.players.names if prog.model.players else ())}),
        "RuleFailure": RuleFailure,
        "BudgetExceeded": BudgetExceeded,
        "Abandoned": Abandoned,
        "_RULE_ERRORS": RULE_ERRORS,  # a move played in place fails as the move (machine.py)
        # a fused apply's ways back to the engine's (machine.py `fused_apply`)
        "_GAME_APPLY": Game.apply,
        "_LEAN_APPLY": LeanGame.apply,
        "_LEAN_TRACED_APPLY": LeanTracedGame.apply,
        "_after_block": after_block,
        "_after_traced": after_traced,
        "_after_block_kept": after_block_kept,  # `decision kept` (machine.py `_decision_kept`)
        "_after_traced_kept": after_traced_kept,
        "_RECORDED_STEP": recorded_step,  # `fused kept checks`: a step as Game._take_recorded opens it
        "_STATE_KEPT": STATE_KEPT,  # `kept step inline`: the mark of a step whose state is kept
        "_ANY_ERROR": BaseException,
        "_CHECK_ERRORS": (RuleFailure, *RULE_ERRORS),  # a traced move's checks that fail are left empty
        "_PUSH_ERRORS": (RuleFailure, BudgetExceeded, *RULE_ERRORS),  # a pushed-down filter falls back (pushdown.py)
        "_seq": seq_by(prog.boards.order),
        "_keys_written": keys_written,  # traced: the keys a grouped invariant's kept sums take in (invtests.py)
        "_NOT_YET": _NOT_YET,  # a value a listing works out once, before it is (CodeGen.once_call)
        "E": interned(prog.elements),
        "SPANS": g.spans,
        "__builtins__": SAFE_BUILTINS,
    }
    for fname, b in LIBRARY.items():
        ns[f"c_{fname}" if b.kind in ("chance", "game") else f"b_{fname}"] = b.bind(prog.boards)
    prog.namespace = ns
    return ns


def _interned_constants(g: CodeGen) -> dict[str, Any]:
    """`g.constants`, each made canonical (engine/canonical.py) the first time it is handed to
    generated code. Most are canonical as made, from the elements, players and data; the walk is
    the guarantee for the rest, once per constant (Root's move tables alone hold tens of
    thousands of moves, made canonical where they are made: actiongen.py)."""
    done = g.canonical_consts
    for name, value in g.constants.items():
        if name not in done:
            g.constants[name] = interned(value)
            done.add(name)
    return g.constants


def _compile_one(prog: Program, g: CodeGen, name: str, label: str) -> Any:
    ns = {**prog.namespace, **_interned_constants(g)}
    ns["SPANS"] = g.spans
    module = g.finish()
    ns["_SOURCE_LINES"] = g.lines_of_text()
    exec(interned_code(pytree.compile_module(module, f"<regelwerk:{label}>")), ns)
    return ns[name]


def compile_expr(prog: Program, expr: A.Node, scope: tuple[str, ...] = ()) -> Any:
    """A function (game, *scope values) -> value for one expression, outside any rule."""
    g = _codegen(prog, False)
    sc = {name: (f"s{i}", None) for i, name in enumerate(scope)}
    g.function("EXPR", [sc[n][0] for n in scope], [f"    return {g.ex(expr, sc)}"])
    return _compile_one(prog, g, "EXPR", "expr")


def compile_stmts(prog: Program, stmts: tuple) -> Any:
    """A function (game) running straight-line statements outside the flow (scenario `given`)."""
    g = _codegen(prog, prog.record)
    lines: list[str] = []
    g.stmts(stmts, {}, lines, "    ")
    lines.append("    return False")
    g.function("STMTS", [], lines)
    return _compile_one(prog, g, "STMTS", "given")


def compile_explained(prog: Program, expr: A.Node) -> Any:
    """A function (game) -> (value, [(subexpression text, value)]) for failure messages."""
    g = _codegen(prog, False)
    lines: list[str] = []
    value, subs = g.explained(expr, {}, lines, "    ")
    g.function("EXPLAINED", [], [*lines, f"    return {value}, {subs}"])
    return _compile_one(prog, g, "EXPLAINED", "expect")


def compile_program(model: Model, record: bool, identity: Identity, move_tables: dict | None = None) -> Program:
    """compile_model, with a compiler bug turned into a message the user can report."""
    try:
        return compile_model(model, record, identity, move_tables=move_tables)
    except EngineError:
        raise
    except Exception as err:  # a compiler bug must still reach the user as a message
        raise EngineError(f"internal error compiling {identity.title!r}: {type(err).__name__}: {err}; "
                          "please report this with the rules file") from err
