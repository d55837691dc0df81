"""The generated functions of each action: enumerate, any, check, explain, effect.

| function | signature | returns |
|---|---|---|
| `AE_n` | `(G, out)` | appends every legal move: parameters are nested loops, a domain that uses no parameter is computed once, and each precondition is tested at the shallowest loop where its names are bound |
| `AA_n` | `(G)` | whether some binding is legal (the same search, stopping at the first) |
| `AC_n` | `(G, *args)` | `-1` when legal, `k` for the first failing `require`, `-(i + 2)` when argument `i` is outside its domain |
| `AX_n` | `(G, *args)` | per precondition up to the first failure: `(index, value, [(sub-expression text, value)])` |
| `AF_n` | `(G, *args)` | `True` when the effect finished the game; absent when the body can stop for a decision (it is then a block) |
| `AXP_n`, `AXO_n` | `(G)`, `(G, *args)` | traced programs, when requires need no parameter: their explanation, which the listing uses instead of testing them and keeps in `G._xpre`; and `AX_n` for a move that listing offered, those entries taken from there (its body copied where a block plays a plain move: `checks_in_place`) |
| `AFL_n`, `AXL_n` | `(G, *args, *lets)`, `(G, *args)` | traced programs, `checks' lets kept`: the effect taking the values of the `let`s the checks worked out first, and those `let` lines alone (never called: copied where a block plays the move) |
"""

from __future__ import annotations

import ast
import itertools
import math
import re
import sys
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from ...dsl import ast as A
from ...dsl.ast import iter_nodes
from ...dsl.check import suspends
from ...dsl.printer import expr_text
from ...dsl.types import BOOL, INT, NONE, RANGE, TEXT, Elem, ListOf, MapOf, SetOf
from ..engine.canonical import interned
from ..engine.runtime import RUNTIME, _hashable
from ..stdlib.library import LIBRARY
from . import pytree
from .blocks import BlockBuilder, action_preconditions, names_in, param_types
from .carry import PARAM, key_test
from .codegen import CodeGen, _is_literal, _may_hold_dict
from .common_exprs import common_expressions
from .hoist import Hoister, parts
from .hoistedtest import hoisted_test
from .implied import implied
from .joined import joined_rows
from .known import known_entries
from .memo import level_key, plain_type
from .memoonce import memo_dropped
from .narrow import Narrowing, narrowing, range_code
from .numbered import numbered_rows, rows_ahead
from .paired import paired_rows
from .perplayer import by_player
from .pushdown import TOUCHING_FORMS, Pushed, Touch, pushable
from .pushdown import reads as push_reads
from .quiettail import tail_call, tail_parts
from .total import cannot_fail


@dataclass
class ActionSource:
    """The generated names of one action's functions (or its block id)."""

    enum: str
    any: str
    check: str
    explain: str
    effect: str | None
    block: int | None
    requires: list[A.RequireStmt]
    enum_size: int  # lines of `enum`: a block copies a short one where it offers the action
    abandonable: bool = False  # its body can `abandon`: the engine keeps a way back
    effect_size: int | None = None  # lines of `effect`, a function: a block plays a short one in place
    # traced programs: `explain` for a move just offered, reading the values of the requires
    # that need no parameter from the listing that offered it (`_shared_checks`); else `explain`
    explain_offered: str = ""
    explain_size: int = 0  # lines of `explain_offered`
    keeps_step: bool = False  # traced: the effect leaves the move's step open as it is (`keeps_step`)
    plain_args: bool = False  # every argument a name, number, text or truth value (`plain_params`)
    kept_args: bool = False  # ... or a list of them: the move kept as itself in a traced step
    # untraced: the call that hands out the action's kept moves (`kept_listing_call`), which a
    # block lists instead of the listing itself; None where the listing is not kept
    kept: str | None = None
    # traced: the checks of a move played in place are left to be worked out when the trace is
    # read (`deferred_checks`): the number of the listing's kept entries the step keeps, or None
    deferred: int | None = None
    # traced, `checks' lets kept` (`checks_lets_kept`): the effect taking the values of the
    # `let`s its checks work out first, and those `let` lines alone; or None
    effect_given: str | None = None
    lets_again: str | None = None

    @property
    def checks_in_place(self) -> bool:
        """Traced programs: the block that plays a move in place works out its checks too, the
        explain function's body copied before the effect (machine.py), when the move is kept
        as itself (plain arguments) and the body is short; Game._take_recorded then does not."""
        return self.plays_in_place and self.plain_args and self.explain_size <= MAX_CHECKS_INLINE

    @property
    def plays_in_place(self) -> bool:
        """A plain move (its effect a function: no decision inside, no `abandon`) is played by
        the block that offered it (machine.py), which `apply` hands it to (game.py)."""
        return self.effect_size is not None and not self.abandonable


MAX_MOVES = 100_000  # bindings of one action made in advance
MAX_PARTIAL = 64  # values of a range with an option as an end kept in a move table
MAX_OPEN_END = 16  # values of a range whose high end the state gives kept in a move table
MAX_SLICE_LOW = 8  # a sliced row's tuple starts with this many Nones at most (`moves sliced`)
MAX_CHECKS_INLINE = 40  # lines of an explain function copied where a block plays the move


def plain_params(g: CodeGen, a: A.ActionDecl, lists: bool = False) -> bool:
    """Whether every parameter of `a` takes plain values (named values, numbers, texts, truth
    values): a move of them is kept as it is in a traced step, its records made when read.
    With `lists`, also lists of them (lists are values, never changed in place: a path)."""
    m = g.m
    return all(_plain(t, lists) for t in (
        m.type_of_decl(p.type) if p.type is not None else m.type_of(p.domain).item for p in a.params))


def _plain(t: Any, lists: bool) -> bool:
    t = t.base
    if lists and isinstance(t, ListOf):
        return _plain(t.item, lists)
    return isinstance(t, Elem) or t in (INT, BOOL, TEXT)


def move_pairs(g: CodeGen, dom: str, table: str) -> tuple[str, str] | None:
    """For an action of one parameter whose domain is a constant of the program: a constant of
    (value, move) pairs, so listing a move is no look-up in the move table. None otherwise."""
    values, moves = g.constants.get(dom), g.constants.get(table)
    if not isinstance(values, (list, tuple)) or not isinstance(moves, dict) or \
            not all(isinstance(v, Hashable) and v in moves for v in values):
        return None
    return g.const(tuple((v, moves[v]) for v in values), "EM"), g.fresh("mv")


def literal_range(domain: A.Node | None) -> bool:
    """`1..7`: a range whose ends are written as numbers."""
    return isinstance(domain, A.Range) and all(isinstance(x, A.IntLit) for x in (domain.low, domain.high))


def known_values(g: CodeGen, p: A.Param) -> tuple | None:
    """Every value a parameter can take, when its type or domain says so now: a named type's
    values (the players, a board's squares, an enumeration), a range written as numbers, a
    domain of a named type's values; None otherwise (the domain a state or an option gives)."""
    if p.type is not None:
        values = g.elements.get(p.type.name) if p.type.name != "Player" else g.players
    elif literal_range(p.domain):
        values = range(p.domain.low.value, p.domain.high.value + 1)
    else:
        t = g.static_type(p.domain).item.base
        values = (g.players if t.name == "Player" else g.elements.get(t.name)) if isinstance(t, Elem) else None
    return None if values is None else tuple(values)


def move_table(g: CodeGen, name: str, a: A.ActionDecl) -> str | None:
    """A nested dict `{arg1: {arg2: Action}}` over every value each parameter can take, when
    those are few and known now (squares, directions, a constant range): then a legal move is a
    look-up, not a new object, and the same move is the same object in every game. An action
    without parameters gets its one move as the constant (no new object per listing either).
    The last parameter's range may have an option as an end (Root's `n in dig_min_warriors..4`):
    its level then holds the values of the options' defaults, and the move of a value a game's
    options put outside it is made when listed (the table is in `g.partial_tables`)."""
    from ..engine.moves import Action

    pools = []
    partial = False
    for i, p in enumerate(a.params):
        if p.type is not None or literal_range(p.domain):
            values = known_values(g, p)
        elif i == len(a.params) - 1 and isinstance(p.domain, A.Range) and g.LOOP_FORMS \
                and None not in (ends := (_end_now(g, p.domain.low), _end_now(g, p.domain.high))) \
                and ends[1] - ends[0] < MAX_PARTIAL:
            values, partial = tuple(range(ends[0], ends[1] + 1)), True
        elif i == len(a.params) - 1 and isinstance(p.domain, A.Range) and g.LOOP_FORMS and g.OPEN_ENDED_MOVES \
                and (low := _end_now(g, p.domain.low)) is not None:
            # `n in 1..warriors[current][from]`: the first values of a range whose high end the
            # state gives (Root's `cat_move`), the moves of higher values made when listed
            values, partial = tuple(range(low, low + MAX_OPEN_END)), True
            g.chose("open-ended moves", f"{name}'s {p.name} from {low} to {low + MAX_OPEN_END - 1}")
        else:
            values = known_values(g, p)
        if not values:
            return None
        pools.append(list(values))
    if math.prod(len(p) for p in pools) > MAX_MOVES:
        return None

    def level(i: int, args: tuple) -> Any:
        if i == len(pools):
            move = Action(sys.intern(name), interned(args))  # canonical names (engine/canonical.py)
            texts[id(move)] = str(move)  # the table keeps the move alive: its id is its own
            return move
        return {v: level(i + 1, (*args, v)) for v in pools[i]}

    # made once per ruleset: its traced and untraced programs share the table (Root's and Khan's
    # hold tens of thousands of moves, which every full collection of the collector walks)
    key = (name, tuple(map(tuple, pools)))
    kept = g.move_tables.get(key)
    if kept is None:
        texts: dict[int, str] = {}
        kept = g.move_tables[key] = (level(0, ()), texts)
    g.move_texts.update(kept[1])
    name = g.const(kept[0], "M")
    g.canonical_consts.add(name)  # its moves made canonical above: not walked again
    last = pools[-1] if pools else []
    if last and all(type(v) is int for v in last) and last == list(range(last[0], last[0] + len(last))) \
            and 0 <= last[0] <= MAX_SLICE_LOW:
        g.int_tables[name] = (key, len(pools), last[0], last[-1])
    if partial:
        g.partial_tables.add(name)
    elif pools:  # an action without parameters has one move, the constant itself: no table
        g.complete_tables.add(name)
    return name


def _is_range(code: str) -> bool:
    """Whether `code` is `range(a, b)`, or that or `()` (narrow.range_code): a `range` of step
    1 or an empty tuple, whose `.start` and `.stop` are read only when it is not empty."""
    try:
        e = ast.parse(code, mode="eval").body
    except SyntaxError:
        return False
    if isinstance(e, ast.IfExp) and isinstance(e.orelse, ast.Tuple) and not e.orelse.elts:
        e = e.body
    return isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "range" \
        and len(e.args) == 2 and not e.keywords


def sliced_table(g: CodeGen, name: str) -> str:
    """Move table `name` (in `g.int_tables`) with its last level a tuple: the move of value v
    at index v (`lo` Nones first), so the moves of `range(a, b)` are `row[a:b]` (`moves
    sliced`). The same move objects; made once per ruleset, as the table is."""
    made = g.sliced_tables.get(name)
    if made is not None:
        return made
    key, depth, lo, hi = g.int_tables[name]

    def level(t: Any, d: int) -> Any:
        if d == depth - 1:
            return (None,) * lo + tuple(t[v] for v in range(lo, hi + 1))
        return {k: level(v, d + 1) for k, v in t.items()}

    kept = g.move_tables.get(("sliced", key))
    if kept is None:
        kept = g.move_tables[("sliced", key)] = (level(g.constants[name], 0), {})
    made = g.sliced_tables[name] = g.const(kept[0], "MS")
    g.canonical_consts.add(made)
    g.complete_tables.add(made)  # every key above the last level: its rows may be hoisted
    return made


def _end_now(g: CodeGen, e: A.Node) -> int | None:
    """A range end's value as far as it is known now: a number, or an int option's default."""
    if isinstance(e, A.IntLit):
        return e.value
    if isinstance(e, A.Name) and e.name in g.m.options and isinstance(g.m.options[e.name].default, A.IntLit):
        return g.m.options[e.name].default.value
    return None


def constant_domain(e: A.Node | None) -> list | None:
    """The values of a domain that cannot change: `1..7`, `[N, E, S]`."""
    if isinstance(e, A.Range) and isinstance(e.low, A.IntLit) and isinstance(e.high, A.IntLit):
        return list(range(e.low.value, e.high.value + 1))
    if isinstance(e, A.ListLit) and all(isinstance(x, (A.IntLit, A.StrLit)) for x in e.items):
        return [x.value for x in e.items]
    return None


def distinct(g: CodeGen, e: A.Node) -> bool:
    """Whether a domain's values are distinct anyway (a set, a board, a library result that has
    no repeats), so listing moves need not drop repeats."""
    t = g.static_type(e).base
    if isinstance(t, SetOf) or t == RANGE:
        return True
    if isinstance(e, A.Range) or (isinstance(e, A.Name) and (e.name in g.elements or e.name == "players")):
        return True
    if isinstance(e, A.Call) and e.func in LIBRARY and e.func not in g.m.defines:
        if e.func == "sorted":
            return bool(e.args) and distinct(g, e.args[0])
        return LIBRARY[e.func].unique
    if not g.LOOP_FORMS:
        return False
    if isinstance(e, A.Call) and e.func in g.m.defines:
        d = g.m.defines[e.func]
        found = _distinct_lists(g, d.value, {p.name: None for p in d.params})
    else:
        found = _distinct_lists(g, e, {})
    if found:
        g.chose("distinct domain", expr_text(e))
    return found


def _distinct_lists(g: CodeGen, e: A.Node, sc: dict, depth: int = 0) -> bool:
    """Whether every value `e` can take is a list of distinct literals or named values: checkers'
    `ways(s)`, one of `[NE, NW, SE, SW]`, `[NE, NW]` and `[SE, SW]`, needs no repeats dropped."""
    if isinstance(e, A.CondExpr):
        return depth < 8 and _distinct_lists(g, e.then, sc, depth + 1) and \
            _distinct_lists(g, e.orelse, sc, depth + 1)
    if isinstance(e, A.LetExpr):  # a definition's `let` line: its name is a local below it
        return depth < 8 and _distinct_lists(g, e.body, {**sc, e.name: None}, depth + 1)
    if isinstance(e, A.ListLit):
        values = [g.literal_value(x, sc) for x in e.items]
        return None not in values and len(set(values)) == len(values)
    if isinstance(e, A.Aggregate) and e.kind == "list" and (e.body is None or isinstance(e.body, A.Name) and e.body.name == e.var):
        # `list q in Province where ...`: some of a type's values, each once (Shogun's provinces_of)
        d = e.domain
        return isinstance(d, A.Name) and d.name not in sc and (d.name in g.elements or d.name == "players")
    if not g.DISTINCT_JOINS:
        return False
    if isinstance(e, A.Call) and e.func in LIBRARY and e.func not in g.m.defines:
        if e.func == "sorted":  # `sorted(tunnels)` of a set
            return len(e.args) == 1 and isinstance(g.static_type(e.args[0]).base, SetOf)
        return LIBRARY[e.func].unique
    if isinstance(e, A.BinOp) and e.op == "+" and depth < 8 and isinstance(g.static_type(e).base, ListOf):
        # `adjacent_nodes(a) + (if a in tunnels then [burrow] else [])`: each part distinct,
        # and no item of one can be an item of the other
        if not (_distinct_lists(g, e.left, sc, depth + 1) and _distinct_lists(g, e.right, sc, depth + 1)):
            return False
        left, right = _possible_items(g, e.left, sc), _possible_items(g, e.right, sc)
        return left is not None and right is not None and not (left & right)
    return False


_MAX_POSSIBLE = 4096  # argument combinations tried for a library call's possible items


def _possible_items(g: CodeGen, e: A.Node, sc: dict, depth: int = 0) -> set | None:
    """Every item any value of list `e` can hold, when that is known now: a list of literals or
    named values, either branch of a conditional, a board function's result over every value
    its arguments can take (`adjacent_nodes(a)` for every clearing `a`), a join of such; None
    when unknown."""
    if depth > 8:
        return None
    if isinstance(e, A.ListLit):
        values = [g.literal_value(x, sc) for x in e.items]
        return None if None in values else {v[0] for v in values if v is not None}
    if isinstance(e, A.CondExpr):
        a, b = _possible_items(g, e.then, sc, depth + 1), _possible_items(g, e.orelse, sc, depth + 1)
        return None if a is None or b is None else a | b
    if isinstance(e, A.BinOp) and e.op == "+":
        a, b = _possible_items(g, e.left, sc, depth + 1), _possible_items(g, e.right, sc, depth + 1)
        return None if a is None or b is None else a | b
    if isinstance(e, A.Call) and e.func in LIBRARY and e.func not in g.m.defines and g.boards is not None \
            and LIBRARY[e.func].tabulable:
        pools = [g._values(a) for a in e.args]
        if any(p is None for p in pools) or math.prod(len(p) for p in pools) > _MAX_POSSIBLE:
            return None
        fn = LIBRARY[e.func].bind(g.boards)
        found: set = set()
        try:
            for combo in itertools.product(*pools):
                found.update(fn(*combo))
        except Exception:  # an argument out of the function's reach, or items that do not hash
            return None
        return found
    return None


def _domain_code(g: CodeGen, a: A.ActionDecl, i: int, scope: dict, as_set: bool = False) -> str:
    """The values parameter `i` ranges over, as code (a set for membership tests)."""
    p = a.params[i]
    fixed = constant_domain(p.domain)
    if fixed is not None:  # worked out now: a constant range or list of named values
        return g.const(frozenset(fixed) if as_set else list(dict.fromkeys(fixed)), "P")
    if p.domain is not None and distinct(g, p.domain):
        return g.seq(g.ex(p.domain, scope), p.domain, scope)
    if p.domain is not None:  # a value offered twice is one move, not two
        fixed = isinstance(p.domain, A.Name) and p.domain.name not in scope and (
            p.domain.name in g.m.consts or p.domain.name in g.m.options)  # the same value all game
        if fixed:
            g.chose("distinct once", expr_text(p.domain))
        return f"{'_uniq_fixed' if fixed else '_uniq'}({g.seq(g.ex(p.domain, scope), p.domain, scope)})"
    t = p.type.name  # the checker allows only finite types here (E223)
    return "G.player_list" if t == "Player" else g.element_list(t)


def _depths(a: A.ActionDecl, pre: list) -> tuple[list[int], dict[str, int]]:
    """Which parameter each precondition needs (through lets too): it is tested at that depth
    of the loops; -1 for none. Also the depth of each `let`."""
    deps: list[int] = []
    let_level: dict[str, int] = {}
    for s in pre:
        used = names_in(s)
        lvl = max([i for i, p in enumerate(a.params) if p.name in used]
                  + [ll for ln, ll in let_level.items() if ln in used] + [-1])
        if isinstance(s, A.LetStmt):
            let_level[s.name] = lvl
        deps.append(lvl)
    return deps, let_level


def _tested(s: A.Node) -> A.Node:
    """The expression of a precondition: a `let`'s value or a `require`'s test."""
    return s.value if isinstance(s, A.LetStmt) else s.test


class _Listing:
    """enum(G, out) of one action: loops over the parameters, each precondition at the depth of
    its names, loop-invariant parts computed once (interpreter/compiler/hoist.py), the inner
    bindings found once per data key where they depend on the first parameter only through
    data (memo.level_key)."""

    def __init__(self, g: CodeGen, name: str, a: A.ActionDecl, pre: list, pnames: list[str]):
        self.g, self.name, self.a, self.pre, self.pnames = g, name, a, pre, pnames
        self.deps, self.let_level = _depths(a, pre)
        self.lines: list[str] = []
        self.esc: dict = {}
        levels = {p.name: i for i, p in enumerate(a.params)} | self.let_level
        self.hoister = Hoister(lambda used: max([levels[n] for n in used if n in levels] + [-1]), g.fresh)
        for s, d in zip(pre, self.deps, strict=True):
            self.hoister.plan(_tested(s), d)
        self.rows: str | None = None  # the list of inner bindings of one key, when keyed
        self.memo_table: str | None = None
        self.memo_single = False  # the rows keyed by nothing: one list in a local (`keyed_rows`)
        self.moves: str | None = None  # the action's complete move table, if it has one
        self.domain: str | None = None  # the first parameter's domain, as the listing walks it
        self.outer_ind = ""
        self.shared_checks: str | None = None  # traced: AXP_n, set by generate_action
        self.shared_lines: list[str] = []  # ... and its body's lines, which the listing copies
        self.pushes: dict[int, tuple[Pushed, str]] = {}  # param -> requires in its domain, the filtered list's local
        # param -> how many of its depth's first requires its kept items passed (`prefiltered`),
        # and the local that says whether they must be tested anyway
        self.prefilters: dict[int, tuple[int, str]] = {}
        self.push_memos: list[str] = []
        self.hoisted: dict[int, str] = {}  # param -> the local of its domain computed ahead of the loops
        self.ranges: set[str] = set()  # locals that hold a `range` (or `()`): `moves sliced`
        self.top_ranges: set[str] = set()  # ... of them, those worked out at the listing's top
        self.early: dict[int, tuple[str, A.Node]] = {}  # param -> its narrowed range's local, worked
        # out at an outer depth, and the require that narrows it (`empty_first`)
        self.filtered: dict[int, set[int]] = {}  # param -> ids of its requires tested once (`filter_once`)
        self.filter_locals: list[str] = []  # their lists, declared _NOT_YET at the listing's top
        self.top_lines: list[str] = []  # narrowed ranges that read no parameter (`narrowed once`)
        self.walked: dict[int, A.RequireStmt] = {}  # param -> the require its range was narrowed by
        self.tested_lines = 0  # lines `hoisted tests` wrote beyond the one call each replaced

    def at(self, depth: int) -> list:
        return [s for s, d in zip(self.pre, self.deps, strict=True) if d == depth]

    def emit_pre(self, items: list, depth: int, ind: str, end: bool = True) -> None:
        """The preconditions of one depth, sharing the parts an earlier one worked out (and,
        with `end`, the parts hoisted to the end of this depth)."""
        g, lines = self.g, self.lines
        exprs = [_tested(s) for s in items]
        found = [parts(e) for e in exprs]
        shared: dict[str, str] = {}  # parts an earlier precondition of this depth worked out
        for i, s in enumerate(items):
            expr = exprs[i]
            later = {k for f in found[i + 1:] for k in f}
            before: list = []
            first = len(lines)
            reused = set(shared.values())
            g.subst = self.hoister.substitutions(expr, depth, before, shared, later)
            for node in iter_nodes(expr):
                if g.subst.get(id(node)) in reused:
                    g.chose("share", expr_text(node))
            for local, node in before:  # inner parts first (Hoister.substitutions): outer ones use them
                g.subst.pop(id(node), None)  # the first time it is worked out, then reused
                lines.append(f"{ind}{local} = {g.ex(node, self.esc)}")
                g.subst[id(node)] = local
            if isinstance(s, A.LetStmt):
                py = g.fresh("l")
                value = g.value(s.value, self.esc, lines, ind)
                lines.append(f"{ind}{py} = {value}")
                self.esc[s.name] = (py, None)
                for k in [k for k in shared if any(s.name in f.get(k, ()) for f in found)]:
                    del shared[k]  # it read the name this `let` binds anew
            else:
                g.test(s.test, self.esc, lines, ind, "return" if ind == "    " else "continue")
            g.subst = {}
            mark(g, lines, first, s.span)
        if end:
            self.emit_end(depth, ind)

    def bind(self, i: int) -> None:
        """Parameter `i` bound in the scope, as its loop's variable."""
        g, p = self.g, self.a.params[i]
        if p.name in self.esc and self.esc[p.name][0] == self.pnames[i]:
            return  # bound already, for the loop that filters its values once (`filter_once`)
        # a value drawn from a bounded domain is bounded, as an aggregate's variable is (a
        # placement's squares): the loops over it are not charged to the work budget
        bounded = p.domain is not None and g.LOOP_FORMS and g.bounded(p.domain, self.esc)
        self.esc[p.name] = (self.pnames[i], "bounded" if bounded else None)
        g.enum_loops.append(self.pnames[i])

    def filter_once(self, i: int, dom: str, ind: str) -> str:
        """Parameter `i`'s domain, or, when it is inside another parameter's loop, reads no
        parameter, and requires at its depth that read no other parameter come first among the
        requires that cannot fail (interpreter/compiler/total.py), the list of its values that
        pass those, made the first time the loop is reached and walked in every later round of
        the outer loops (`filtered once`): Root's `cat_build(b, c: Clearing)` tested `rules(current,
        c)` on every clearing for each building. Tests that cannot fail give the same answer in
        any order and at any time of the listing, which changes no state, so the moves and their
        order are the same; only the work charged differs. Not where the inner bindings are
        keyed by nothing (`keyed_rows`): those loops run once per listing already (Shogun's
        `assign`)."""
        g, a, p = self.g, self.a, self.a.params[i]
        if i == 0 or not g.LOOP_FORMS or not g.FILTER_ONCE or i in self.pushes or i in self.early:
            return dom
        named = {q.name for q in a.params} | set(self.let_level)
        if p.domain is not None and (names_in(p.domain) & named or not cannot_fail(g.m, p.domain)):
            return dom
        tests = []
        for s in self.at(i):
            if not isinstance(s, A.RequireStmt) or not cannot_fail(g.m, s.test):
                break
            if not names_in(s.test) & named - {p.name}:
                tests.append(s)
        if not tests:
            return dom
        local = g.fresh("ff")
        self.filter_locals.append(local)
        self.filtered[i] = {id(s) for s in tests}
        g.chose("filtered once", f"{p.name} by " + " and ".join(expr_text(s.test) for s in tests))
        self.bind(i)
        first = len(self.lines)
        self.lines.append(f"{ind}if {local} is _NOT_YET:  # the first round: the values that pass, once")
        self.lines.append(f"{ind}    {local} = []")
        self.lines.append(f"{ind}    for {self.pnames[i]} in {dom}:")
        mark(g, self.lines, first, p.span)
        self.emit_pre(tests, i, ind + "        ", end=False)
        self.lines.append(f"{ind}        {local}.append({self.pnames[i]})")
        return local

    def emit_depth(self, i: int, ind: str, end: bool = True) -> None:
        """The preconditions of parameter `i`'s depth; those pushed into its domain only when
        the filtered list could not be worked out (pushdown.py), and not those its values were
        filtered by once (`filter_once`). With `end`, the parts of deeper requires hoisted to
        this depth too (else `emit_end` writes them)."""
        items = [s for s in self.at(i) if id(s) not in self.filtered.get(i, ()) and s is not self.walked.get(i)]
        pushed = self.pushes.get(i)
        if i in self.prefilters:  # the kept items passed the first requires when they were kept
            n, unkept = self.prefilters[i]
            self.lines.append(f"{ind}if {unkept}:  # not kept: the requires as written")
            self.emit_pre(items[:n], i, ind + "    ", end=False)
            self.emit_pre(items[n:], i, ind, end)
            return
        if pushed is None:
            self.emit_pre(items, i, ind, end)
            return
        push, filtered = pushed
        if push.items:
            self.lines.append(f"{ind}if {filtered} is None:  # the requires as written")
            self.emit_pre(push.items, i, ind + "    ", end=False)
        self.emit_pre(items[len(push.items):], i, ind, end)

    def emit_end(self, depth: int, ind: str) -> None:
        """The parts of deeper requires hoisted to the end of `depth` (Hoister.at_end)."""
        first = len(self.lines)
        for local, node in self.hoister.at_end.get(depth, ()):
            tested = hoisted_test(self.g, node, self.esc, local, ind, depth)
            if tested is not None:  # its lines stand for the one call in the listing's size
                self.lines.extend(tested)
                self.tested_lines += len(tested) - 1
                continue
            self.lines.append(f"{ind}{local} = {self.g.ex(node, self.esc)}")
        mark(self.g, self.lines, first, None)  # parts of deeper requires: the action's own line

    def plan_pushes(self, hoisted: dict[int, str]) -> None:
        """Which parameters' domains take requires in (pushdown.py): a domain computed once
        ahead of the loops, when the filter reads no parameter either; an inner one (after
        the first), when the filter reads the first parameter only through data, so that it
        is worked out once per key."""
        a, g = self.a, self.g
        bound = {p.name for p in a.params} | set(self.let_level)
        for i, p in enumerate(a.params):
            push = pushable(g.m, p, self.at(i))
            if push is not None and push.touch is not None and push.touch.reads & bound:
                push.touch = None  # squares to touch found once per listing only
                push = push if push.items else None
            if push is None:
                continue
            used = push_reads(push) & bound
            if i in hoisted and not used:
                self.pushes[i] = (push, g.fresh("pf"))
            elif i >= 1 and i not in hoisted and used <= {a.params[0].name} and \
                    level_key(g.m, [push.source] + [c for _v, c, _k in push.conds], a.params[0].name) is not None:
                self.pushes[i] = (push, g.fresh("pf"))

    def push_prelude(self, i: int, ind: str) -> None:
        """The filtered list of parameter `i`'s pushed domain (None when working it out
        failed), and its source bound so the domain's code reads the filtered list."""
        g, lines, a = self.g, self.lines, self.a
        push, filtered = self.pushes[i]
        p = a.params[i]
        source, x = g.fresh("ps"), g.fresh("a")
        lines.append(f"{ind}{source} = {g.ex(push.source, self.esc)}")
        inner = ind
        memo = None
        if i not in self.hoisted:  # once per key of what it reads of the first parameter
            level = level_key(g.m, [push.source] + [c for _v, c, _k in push.conds], a.params[0].name) or []
            memo = g.fresh("pm")
            self.push_memos.append(memo)
            key = self.key_code(level, a.params[0], ind)
            lines.append(f"{ind}{filtered} = {memo}.get({key})")
            lines.append(f"{ind}if {filtered} is None:")
            inner = ind + "    "
        kept = g.fresh("pk")
        touch = push.touch
        squares, touched, tmemo = (g.fresh("pt"), g.fresh("pc"), g.fresh("pm")) if touch else (None, None, None)
        lines.append(f"{inner}try:")
        lines.append(f"{inner}    {kept} = []")
        if touch:
            lines.append(f"{inner}    {touched} = []")
        lines.append(f"{inner}    for {x} in {g.seq(source, push.source, self.esc)}:")
        body = inner + "        "
        scope = frozenset({q.name for q in a.params} | set(self.let_level))
        for var, cond, keep in push.conds:  # each as the listing writes a precondition
            g.chose("push down", f"{expr_text(cond)} into {expr_text(p.domain)}")
            if implied(g.m, push.source, var, cond, keep, scope):  # the source kept only items passing it
                g.chose("implied", f"{expr_text(cond)} by {expr_text(push.source)}")
                continue
            value = g.value(cond, {**self.esc, var: (x, None)}, lines, body)
            lines.append(f"{body}if {'not ' if keep else ''}{value}:")
            lines.append(f"{body}    continue")
        lines.append(f"{body}{kept}.append({x})")
        if touch:
            self.touch_test(touch, x, touched, body)
        lines.append(f"{inner}    {filtered} = {kept}")
        if touch:
            lines.append(f"{inner}    {squares} = {touched}")
        if memo is not None:
            lines.append(f"{inner}    {memo}[{key}] = {kept}")
            if touch:
                lines.append(f"{inner}    {tmemo}[{key}] = {touched}")
                self.push_memos.append(tmemo)
        lines.append(f"{inner}except _PUSH_ERRORS:  # the requires as written, where they fail or not")
        lines.append(f"{inner}    {filtered} = None")
        if touch:
            lines.append(f"{inner}    {squares} = None")
            if memo is not None:
                lines.append(f"{ind}else:")
                lines.append(f"{ind}    {squares} = {tmemo}[{key}]")
        used = g.fresh("pu")
        lines.append(f"{ind}{used} = {source} if {filtered} is None else {filtered}")
        g.subst[id(push.source)] = used
        if touch:  # the domain asks for the placements that cover one of those squares
            d = p.domain
            args = [g.ex(x, self.esc) for x in d.args]
            args.insert(2, squares)
            g.subst[id(d)] = f"b_{TOUCHING_FORMS[d.func]}({', '.join(args)})"
            g.chose("touching", f"{expr_text(touch.require.test)} into {expr_text(d)}")

    def touch_test(self, touch: Touch, x: str, touched: str, ind: str) -> None:
        """`if C(x): touched.append(x)`, C in the scope of the definitions it lies in, each
        bound to its arguments as an inlined call's is (pushdown.Touch)."""
        g = self.g
        scope = self.esc
        for d, args in touch.calls:
            scope = {q.name: (g.ex(arg, scope), None) for q, arg in zip(d.params, args, strict=True)
                     if arg is not None}
        value = g.value(touch.cond, {**scope, touch.var: (x, None)}, self.lines, ind)
        self.lines.append(f"{ind}if {value}:")
        self.lines.append(f"{ind}    {touched}.append({x})")

    def hoisted_domains(self, ind: str) -> dict[int, str]:
        """Domains that need no parameter, computed once ahead of the loops."""
        a = self.a
        bound = {p.name for p in a.params} | set(self.let_level)
        hoisted: dict[int, str] = {}
        for i, p in enumerate(a.params):
            if p.domain is not None and not (names_in(p.domain) & bound):
                hoisted[i] = self.g.fresh("dom")
        self.hoisted = hoisted
        self.plan_pushes(hoisted)
        for i, dom in hoisted.items():
            if i in self.pushes:
                self.push_prelude(i, ind)
            code = _domain_code(self.g, a, i, self.esc)
            self.lines.append(f"{ind}{dom} = {code}")
            if i == 0:
                self.domain = code  # the constant it names, if it is one (kept_listing_call)
            self.g.subst = {}
        return hoisted

    def level(self, hoisted: dict[int, str]) -> list | None:
        """What the inner loops read of the first parameter, when only data (memo.level_key)."""
        a, pre, deps = self.a, self.pre, self.deps
        inner_nodes = [a.params[i].domain for i in range(1, len(a.params))
                       if i not in hoisted and a.params[i].domain] + [
            _tested(s) for s, d in zip(pre, deps, strict=True) if d >= 1]
        inner_names = set().union(*map(names_in, inner_nodes))
        if len(a.params) >= 2 and not any(d == 0 for s, d in zip(pre, deps, strict=True)
                                          if isinstance(s, A.LetStmt) and s.name in inner_names):
            return level_key(self.g.m, inner_nodes, a.params[0].name)
        return None

    def key_code(self, level: list, p: A.Param, ind: str) -> str:
        """The key of what inner code reads of the first parameter `p` (memo.level_key), as
        code: a local or a constant (a key worked out is bound to a local first)."""
        g, model, pnames = self.g, self.g.m, self.pnames
        keyed = list(dict.fromkeys(
            code if plain_type(model.type_of(node)) else (
                f"{table}[{pnames[0]}]" if (table := frozen_table(g, node, pname)) else f"_hashable({code})")
            for node, pname in level
            for code in [g.ex(node, self.esc if pname == p.name else {pname: (pnames[0], None)})]))
        key = keyed[0] if len(keyed) == 1 else f"({', '.join(keyed)})"  # () when none is read
        if _is_simple(key):
            return key
        local = g.fresh("key")
        self.lines.append(f"{ind}{local} = {key}")
        return local

    def keyed_rows(self, level: list, p: A.Param, ind: str) -> str:
        """The rows of inner bindings of the first parameter's key, found the first time."""
        g, lines = self.g, self.lines
        key = self.key_code(level, p, ind)
        self.rows, self.memo_table, self.outer_ind = g.fresh("rows"), g.fresh("lv"), ind
        g.chose("rows", f"{p.name} by " + (", ".join(dict.fromkeys(expr_text(n) for n, _ in level)) or "nothing"))
        self.memo_single = key == "()" and g.ONE_ROW_LIST
        if self.memo_single:  # keyed by nothing: one list, kept in a local (no dict, no key)
            g.chose("one row list", p.name)
            lines.append(f"{ind}{self.rows} = {self.memo_table}")
            lines.append(f"{ind}if {self.rows} is None:  # the first: the inner bindings found")
            lines.append(f"{ind}    {self.rows} = {self.memo_table} = []")
            return ind + "    "
        lines.append(f"{ind}{self.rows} = {self.memo_table}.get({key})")
        lines.append(f"{ind}if {self.rows} is None:  # the first with its key: the inner bindings found")
        lines.append(f"{ind}    {self.rows} = {self.memo_table}[{key}] = []")
        return ind + "    "

    def generate(self) -> list[str]:
        """The body of enum(G, out)."""
        g, a, pnames, lines = self.g, self.a, self.pnames, self.lines
        ind = "    "
        g.enum_memo, g.enum_sets = {}, {}  # listing moves changes no state: definitions may be remembered (memo.py)
        g.enum_once, g.enum_loops = {}, []  # ... or worked out once (CodeGen.once_call)
        g.still = True  # and the variables it reads are bound once (machine.py binds them where it inlines this)
        if self.shared_checks is None:
            self.emit_pre(self.at(-1), -1, ind)
        else:  # traced: the requires that need no parameter, with their values kept for explain
            xp = g.fresh("xp")
            if g.KEPT_CHECKS_INLINE and self.shared_lines:
                lines.extend(kept_checks_inline(self.shared_lines, xp, f"G._xpre[{self.name!r}]"))
                g.chose("kept checks inline")
            else:
                lines.append(f"{ind}{xp} = G._xpre[{self.name!r}] = {self.shared_checks}(G)")
                lines.append(f"{ind}if not {xp}[-1][1]:")
                lines.append(f"{ind}    return")
            for local, node in self.hoister.at_end.get(-1, ()):
                lines.append(f"{ind}{local} = {g.ex(node, self.esc)}")
        hoisted = self.hoisted_domains(ind)
        level = self.level(hoisted)
        moves = move_table(g, self.name, a)  # not `table`: the key code below binds that name
        paired = None  # one parameter over a constant domain: each value walked with its move
        last_loop = (-1, "")  # the last parameter's loop: its line and what it walks
        for i, p in enumerate(a.params):
            if i in self.pushes and i not in hoisted:
                self.push_prelude(i, ind)
            dom = hoisted.get(i) or _domain_code(g, a, i, self.esc)
            if i == 0 and i not in hoisted:
                self.domain = dom
            g.subst = {}
            if len(a.params) == 1 and moves is not None:
                paired = move_pairs(g, dom, moves)
            if paired is not None:
                pairs, move_local = paired
                lines.append(f"{ind}for {pnames[i]}, {move_local} in {pairs}:")
            else:
                walked = self.by_value(i, self.narrowed(i, ind) or self.prefiltered(i, dom, ind), ind)
                if walked == dom and level != []:  # none of those: its requires that read it
                    walked = self.filter_once(i, dom, ind)  # alone, once (keyed by nothing: once already)
                last_loop = (len(lines), walked)
                lines.append(f"{ind}for {pnames[i]} in {walked}:")
            mark(g, lines, len(lines) - 1, p.span)  # the domain's own failures, at the parameter
            self.bind(i)
            ind += "    "
            # an empty range skips the value before the parts hoisted for deeper requires when
            # those cannot fail either (else they are worked out first, as without the skip)
            skip_first = level is None and all(cannot_fail(g.m, e) for _, e in self.hoister.at_end.get(i, ()))
            self.emit_depth(i, ind, end=not skip_first)
            if skip_first:
                self.empty_first(i, ind)
                self.emit_end(i, ind)
            elif level is None:
                self.empty_first(i, ind)
            if i == 0 and level is not None:
                ind = self.keyed_rows(level, p, ind)
        self.moves = moves if moves in g.complete_tables else None
        if paired is not None or not self.sliced(moves, last_loop):
            self.append_move(self.move_code(moves, paired), ind)
        lines[:0] = [f"    {table} = {{}}" for table in g.enum_memo.values()] + [
            f"    {held} = frozenset({g.var(var)}.values())" for var, held in g.enum_sets.items()] + (
            [f"    {self.memo_table} = {'None' if self.memo_single else '{}'}"] if self.memo_table else []) + [f"    {m} = {{}}" for m in self.push_memos] + [
            f"    {local} = _NOT_YET" for local in [*g.enum_once.values(), *self.filter_locals]] + self.top_lines
        g.enum_memo, g.enum_sets, g.enum_once, g.still = None, {}, None, False
        g.enum_loops = []
        return lines

    def empty_first(self, i: int, ind: str) -> None:
        """At the depth of parameter `i`: the narrowed range (`narrowed`) of a parameter two or
        more loops further in whose bound reads no parameter past `i`, worked out here, and
        the next value of `i` taken at once when it is empty (`empty range first`). Root's
        `take_move(from, to in links(from), n in 1..20)`, narrowed by `warriors[current][from]
        >= n`, walked every clearing next to every clearing without warriors to find no `n`.
        Likewise a range whose ends read outer parameters and none past `i`, narrowed or not:
        Root's `cat_move(from, to in adjacent_nodes(from), n in 1..warriors[current][from])`.
        Only where nothing between could fail (interpreter/compiler/total.py): then skipping
        it is seen nowhere but in the work charged; the bound and the range's ends cannot fail
        either, so working them out sooner is not seen. It comes before the parts of deeper
        requires hoisted to `i`'s depth when those cannot fail either (`generate`)."""
        g, a = self.g, self.a
        if not g.LOOP_FORMS or not g.EMPTY_FIRST or i in self.pushes or i in self.prefilters:
            return
        named = {q.name for q in a.params} | set(self.let_level)
        outer = {q.name for q in a.params[:i + 1]} | {n for n, lv in self.let_level.items() if lv <= i}
        for k in range(i + 2, len(a.params)):
            p = a.params[k]
            if k in self.early or k in self.pushes:
                continue
            n = narrowing(p, self.at(k), g.static_type)
            ends = names_in(p.domain) & named if isinstance(p.domain, A.Range) else None
            if n is not None and (ends or not (names_in(n.bound) & named) <= outer
                                  or not cannot_fail(g.m, n.bound)):
                n = None  # its bound or its range reads a parameter past `i`
            if n is None and not (ends and ends <= outer and g.ENDS_FIRST):
                continue  # nor a range whose ends read parameters, all of them outer ones
            if not all(cannot_fail(g.m, e) for e in (p.domain.low, p.domain.high)):
                continue
            between = range(i + 1, k)
            if any(d in self.pushes or d in self.prefilters for d in between) or not all(
                    (a.params[d].domain is None or cannot_fail(g.m, a.params[d].domain))
                    and all(cannot_fail(g.m, _tested(s)) for s in self.at(d)) for d in between):
                continue
            local = g.fresh("nrw")
            if n is not None:
                low, high, bound = (g.ex(e, self.esc) for e in (n.range.low, n.range.high, n.bound))
                self.lines.append(f"{ind}{local} = {self.ranged(local, range_code(n, low, high, bound))}")
                mark(g, self.lines, len(self.lines) - 1, n.require.span)
                g.chose("empty range first", f"{p.name} by {expr_text(n.require.test)}")
                self.walk_bound(k, n)
            else:  # `cat_move(from, to in adjacent_nodes(from), n in 1..warriors[current][from])`
                self.lines.append(f"{ind}{local} = {self.ranged(local, _domain_code(g, a, k, self.esc))}")
                mark(g, self.lines, len(self.lines) - 1, p.span)
                g.chose("empty range first", f"{p.name} in {expr_text(p.domain)}")
            self.lines.append(f"{ind}if not {local}:")
            self.lines.append(f"{ind}    continue")
            self.early[k] = (local, n.require.test if n is not None else None)

    def narrowed(self, i: int, ind: str) -> str | None:
        """Parameter `i`'s range cut to the values its first require can let through
        (narrow.py), as the local holding it, when its ends read no parameter; else None."""
        g, a, lines = self.g, self.a, self.lines
        p = a.params[i]
        if i in self.early:  # worked out at an outer depth already (`empty_first`)
            local, test = self.early[i]
            if test is not None:
                g.chose("narrowed range", f"{p.name} by {expr_text(test)}")
            return local
        if not g.LOOP_FORMS or i in self.pushes:
            return None
        n = narrowing(p, self.at(i), g.static_type)
        if n is None or names_in(p.domain) & ({q.name for q in a.params} | set(self.let_level)):
            return None
        low, high, bound = (g.ex(e, self.esc) for e in (n.range.low, n.range.high, n.bound))
        local = g.fresh("nrw")
        g.chose("narrowed range", f"{p.name} by {expr_text(n.require.test)}")
        if i > 0 and g.NARROWED_ONCE and not names_in(n.bound) & ({q.name for q in a.params} | set(self.let_level)) \
                and all(cannot_fail(g.m, e) for e in (n.range.low, n.range.high, n.bound)):
            # the same range in every round of the outer loops, and it cannot fail: worked out
            # once, at the listing's top (Root's `dig(k, c, n in dig_min_warriors..4)` by the
            # warriors in the Burrow, once per card and clearing before)
            self.top_lines.append(f"    {local} = {self.ranged(local, range_code(n, low, high, bound))}")
            self.top_ranges.add(local)
            g.chose("narrowed once", f"{p.name} by {expr_text(n.require.test)}")
            self.walk_bound(i, n)
            return local
        lines.append(f"{ind}{local} = {self.ranged(local, range_code(n, low, high, bound))}")
        mark(g, lines, len(lines) - 1, n.require.span)  # a failure in the bound is the require's
        self.walk_bound(i, n)
        return local

    def walk_bound(self, i: int, n: Narrowing) -> None:
        """The require that narrowed parameter `i`'s range not tested on the values walked
        (`walked bound`): each lies between the range's ends cut by the bound, an `int` worked
        out (without failing) when the range was made, in a listing, which changes no state, so
        `p <= E` (or `<`, `>=`, `>`) holds for every one; only where nothing at this depth is
        pushed into the domain or prefiltered, so the walked values are the range's."""
        g = self.g
        if g.WALKED_BOUND and g.LOOP_FORMS and i not in self.pushes and i not in self.prefilters:
            self.walked[i] = n.require
            g.chose("walked bound", f"{n.param.name} by {expr_text(n.require.test)}")

    def prefiltered(self, i: int, dom: str, ind: str) -> str:
        """Parameter `i`'s domain as code, or, when its domain and the first requires at its
        depth read only fixed things (data, boards, literals, the rules' constants and options)
        and up to three plain outer parameters, the items that pass those requires, kept for
        the program's life per value of those parameters and of the game's constants (Khan's
        `invade(c, s in LAND)`: `card_allows(c, s)` walked all of `LAND` for each card at every
        decision). The loop tests those requires again only on items that were not kept: when
        working them out fails it walks the domain as written (runtime._kept_rows), so a
        require fails where and when it would have (and when the table is full)."""
        g, a = self.g, self.a
        p = a.params[i]
        if not g.LOOP_FORMS or i in self.pushes or p.domain is None:
            return dom
        free: dict[str, A.Name] = {}
        if not g._fixed(p.domain, self.esc, set(), free, consts=True):
            return dom
        tests = []
        for s in self.at(i):
            if isinstance(s, A.LetStmt) or not g._fixed(s.test, self.esc, {p.name}, free, consts=True):
                break
            tests.append(s.test)
        if not tests or len(free) > 3 or not all(plain_type(g.static_type(n)) for n in free.values()):
            return dom
        table, x = g.const({}, "FR"), g.fresh("a")
        inner = {**self.esc, p.name: (x, None)}
        subst, g.subst = g.subst, {}
        test = " and ".join(f"({g.ex(t, inner)})" for t in tests)
        g.subst = subst
        key = "(_consts_id(G), " + "".join(self.esc[k][0] + ", " for k in sorted(free)) + ")"
        g.chose("prefilter", f"{p.name} by " + " and ".join(expr_text(t) for t in tests))
        lines, keyed, rows, unkept = self.lines, g.fresh("kk"), g.fresh("kr"), g.fresh("ku")
        first = len(lines)
        lines.append(f"{ind}{keyed} = {key}")
        lines.append(f"{ind}{rows} = {table}.get({keyed})")
        lines.append(f"{ind}{unkept} = {rows} is None")
        lines.append(f"{ind}if {unkept}:")
        lines.append(f"{ind}    {rows} = _kept_rows({table}, {keyed}, lambda: [{x} for {x} in {dom} if {test}], "
                     f"lambda: {dom})")
        lines.append(f"{ind}    {unkept} = {table}.get({keyed}) is not {rows}")
        mark(g, lines, first, p.span)
        self.prefilters[i] = (len(tests), unkept)
        return rows

    def by_value(self, i: int, dom: str, ind: str) -> str:
        """Parameter `i`'s domain, or, when it is a board whose first require at its depth is
        `m[p] == v` (carry.key_test: `require cell[from] == current`), the game's kept list of
        the keys whose entry is `v` (CodeGen.keys_by_value); those passed the require, which
        is tested only when the list could not be made (then the whole domain)."""
        g, a = self.g, self.a
        p = a.params[i]
        items = self.at(i)
        if not g.LOOP_FORMS or i in self.pushes or i in self.prefilters or not items \
                or not isinstance(items[0], A.RequireStmt):
            return dom
        domain = p.domain if p.domain is not None else (
            A.Name(span=p.type.span, name=p.type.name) if isinstance(p.type, A.NamedType) else None)
        kt = key_test(g.m, domain, p.name, items[0].test, self.esc.__contains__)
        if kt is None or kt.var not in g.indexed:
            return dom
        first = len(self.lines)
        keys = g.keys_by_value(kt, self.esc, dom, self.lines, ind, f"{p.name} by {expr_text(items[0].test)}")
        unkept = g.fresh("ku")  # the list could not be made: the whole domain, the require tested
        self.lines.append(f"{ind}{unkept} = {keys} is {dom}")
        mark(g, self.lines, first, p.span)
        self.prefilters[i] = (1, unkept)  # the kept keys passed it (emit_depth)
        return keys

    def move_code(self, moves: str | None, paired: tuple | None) -> str:
        """The move of one binding, as code."""
        pnames = self.pnames
        if moves is None:  # build each move (tuple.__new__ skips NamedTuple's Python-level __new__)
            return f"_TN(ACT, ({self.name!r}, ({', '.join(pnames)}{',' if pnames else ''})))"
        if paired is not None:  # the loop walks the moves with the values
            return paired[1]
        if moves in self.g.partial_tables:  # a value of the last parameter outside it: made now
            built = f"_TN(ACT, ({self.name!r}, ({', '.join(pnames)},)))"
            return moves + "".join(f"[{p}]" for p in pnames[:-1]) + f".get({pnames[-1]}) or {built}"
        return moves + "".join(f"[{p}]" for p in pnames)  # one move object per binding, made at compile time

    def ranged(self, local: str, code: str) -> str:
        """`code`, noting `local` as holding a `range` of step 1 (or `()`) when the code is one."""
        if _is_range(code):
            self.ranges.add(local)
        return code

    def sliced(self, moves: str | None, last_loop: tuple[int, str]) -> bool:
        """`moves sliced`: the last parameter's loop, when it walks a `range` (`_nrw`) and only
        appends each value's move from a move table whose last level is ints, as one `extend`
        by a slice of that row kept as a tuple (`sliced_table`): the same moves, in the same
        order, where the loop ran some ten bytecodes a move (Root's `take_move(from, to, n in
        1..20)` lists some 1,400 moves a game). A partial table's row is sliced where the range
        lies inside it, and walked as before elsewhere. `if R:` keeps the search that stops at
        the first move (pytree.appends_to_returns) from answering for an empty range (and a
        slice from reading a range whose stop lies below its start), unless the range was found
        not empty further out (`empty_first`). True when written."""
        g, lines, pnames = self.g, self.lines, self.pnames
        at, walked = last_loop
        k = len(pnames) - 1
        if not (g.MOVES_SLICED and g.LOOP_FORMS) or moves not in g.int_tables \
                or at != len(lines) - 1 or k < 0 or not (walked in self.ranges or _is_range(walked)):
            return False
        if self.rows is not None:
            return self.sliced_rows(moves, at, walked)
        first: list[str] = []
        if walked not in self.ranges:  # the domain's own `range(...)`: in a local, read thrice
            local = g.fresh("nrw")
            first, walked = [f"{local} = {walked}"], local
        _key, _depth, lo, hi = g.int_tables[moves]
        head, _, tail = lines[at].partition("  # @S")
        fi = head[:len(head) - len(head.lstrip())]
        tail = f"  # @S{tail}" if tail else ""
        chain = "".join(f"[{p}]" for p in pnames[:-1])
        extend = f"out.extend({sliced_table(g, moves)}{chain}[{walked}.start:{walked}.stop])"
        body: list[str] = []
        if moves in g.partial_tables:  # a value outside the table: its move made when listed
            body = [f"if {lo} <= {walked}.start and {walked}.stop <= {hi + 1}:", f"    {extend}", "else:",
                    f"    for {pnames[k]} in {walked}:", f"        out.append({self.move_code(moves, None)})"]
        else:
            body = [extend]
        if k not in self.early:  # not known not to be empty
            body = [f"if {walked}:", *("    " + b for b in body)]
        body = first + body
        body[0] += tail
        lines[at:] = [fi + b for b in body]
        g.chose("moves sliced", f"{self.a.params[k].name} of {self.name}")
        return True

    def sliced_rows(self, moves: str, at: int, walked: str) -> bool:
        """`moves sliced` where the inner bindings are kept per key (`keyed_rows`): the rows
        hold the bindings without the last parameter, each kept only when the range is not
        empty, and each gives its moves by one slice. Only for a range worked out once, at the
        listing's top (`narrowed once`: Root's `dig(k, c, n in dig_min_warriors..4)` by the
        warriors in the Burrow), the same for every key, and a third parameter or more."""
        g, lines, pnames = self.g, self.lines, self.pnames
        if walked not in self.top_ranges or len(pnames) < 3:
            return False
        _key, _depth, lo, hi = g.int_tables[moves]
        head, _, tail = lines[at].partition("  # @S")
        fi = head[:len(head) - len(head.lstrip())]
        tail = f"  # @S{tail}" if tail else ""
        inner = ", ".join(pnames[1:-1])
        lines[at:] = [f"{fi}if {walked}:{tail}",
                      f"{fi}    {self.rows}.append({inner if len(pnames) == 3 else f'({inner})'})"]
        oi, row = self.outer_ind, g.fresh("srow")
        chain = "".join(f"[{p}]" for p in pnames[1:-1])
        walk = [f"{row} = {sliced_table(g, moves)}[{pnames[0]}]", f"for {inner} in {self.rows}:",
                f"    out.extend({row}{chain}[{walked}.start:{walked}.stop])"]
        if moves in g.partial_tables:  # a value outside the table: its move made when listed
            walk = [f"if {walked} and {lo} <= {walked}.start and {walked}.stop <= {hi + 1}:", *("    " + w for w in walk),
                    "else:", f"    for {inner} in {self.rows}:", f"        for {pnames[-1]} in {walked}:",
                    f"            out.append({self.move_code(moves, None)})"]
        lines.extend(oi + w for w in walk)
        g.chose("moves sliced", f"{self.a.params[-1].name} of {self.name}")
        return True

    def append_move(self, move: str, ind: str) -> None:
        pnames, lines = self.pnames, self.lines
        if self.rows is None:
            lines.append(f"{ind}out.append({move})")
            return
        inner = ", ".join(pnames[1:])
        lines.append(f"{ind}{self.rows}.append({inner if len(pnames) == 2 else f'({inner})'})")
        row = move.removesuffix(f"[{pnames[1]}]")
        if len(pnames) == 2 and row == f"{self.moves}[{pnames[0]}]" and self.g.LOOP_FORMS:
            # the moves of one row of a complete table: looked up by the C loop of `map` (Shogun's
            # `assign(a, q)` lists some thirty a decision); `if` so that the listing that stops
            # at the first move (pytree.appends_to_returns) returns only when there is one
            lines.append(f"{self.outer_ind}if {self.rows}:")
            lines.append(f"{self.outer_ind}    out.extend(map({row}.__getitem__, {self.rows}))")
            return
        lines.append(f"{self.outer_ind}for {inner} in {self.rows}:")
        lines.append(f"{self.outer_ind}    out.append({move})")


def mark(g: CodeGen, lines: list[str], first: int, span: A.Span | None) -> None:
    """Mark line `first` (when there is one) as the start of the precondition at `span`, so a
    Python error in it is reported at that require (interpreter/engine/locate.py); with no
    span, as belonging to no statement: then the action's own line."""
    if first < len(lines):
        lines[first] += f"  # @S{g.span_id(span)}" if span is not None else "  # @S-"


def name_kept(g: CodeGen, name: str) -> bool:
    """Whether the untraced listing of action `name` may be kept (carry.kept_listing): then its
    check runs once a move, for the value whose keys the move wrote."""
    return g.kept.get(name) is not None


def _check_lines(g: CodeGen, a: A.ActionDecl, pre: list, pnames: list[str],
                 fail: Callable[[int], str] | None = None, passed: str | None = "return -1") -> list[str]:
    """check(G, *args): domain membership, then requires in source order; the index of the
    first that fails (-2 - i for parameter i's domain), -1 when legal. `checks inlined`
    (CodeGen.CHECKS_INLINED): each `let` and `require` as statements (`CodeGen.value`,
    `CodeGen.test`), so a small definition is written in place and an aggregate is a loop,
    as in the listing: a kept listing tests one value a move through this function
    (carried._kept_moves), and a call of the definition (connect four's `lowest_free`) cost
    a Python call more each time. Only the checks of kept listings: elsewhere a check runs
    for `is_legal` and `explain` alone, and keeps its expressions' forms (a `count ... one
    per` as a comprehension with its slots filtered once). `fail(k)` and `passed`: the
    statements for a failing check and for a legal value, where another function (`KM_n`)
    holds these lines."""
    if fail is None:
        fail = "return {}".format
    lines = []
    inline = g.CHECKS_INLINED and name_kept(g, a.name)
    inlined = False
    csc: dict = {}
    for i, p in enumerate(a.params):
        lines.append(f"    if {pnames[i]} not in {_domain_code(g, a, i, csc, as_set=True)}:")
        lines.append(f"        {fail(-(i + 2))}")
        csc[p.name] = (pnames[i], None)
    k = 0
    for s in pre:
        first = len(lines)
        if isinstance(s, A.LetStmt):
            py = g.fresh("l")
            code = g.value(s.value, csc, lines, "    ") if inline else g.ex(s.value, csc)
            lines.append(f"    {py} = {code}")
            csc[s.name] = (py, None)
            inlined = inlined or len(lines) > first + 1
        elif inline:
            g.test(s.test, csc, lines, "    ", fail(k))
            k += 1
            inlined = inlined or len(lines) > first + 2
        else:
            lines.append(f"    if not {g.ex(s.test, csc)}:")
            lines.append(f"        {fail(k)}")
            k += 1
        mark(g, lines, first, s.span)
    if passed is not None:
        lines.append(f"    {passed}")
    if inlined:
        g.chose("checks inlined", a.name)
    return lines


def _explain_lines(g: CodeGen, a: A.ActionDecl, pre: list, pnames: list[str],
                   shared: tuple[set[int], str] | None = None,
                   leading: list[tuple[A.LetStmt, str, str]] | None = None) -> list[str]:
    """explain(G, *args) -> [(index, value, [(subexpr, value)])] for each require in order, up
    to the first that fails. With `shared` (the positions in `pre` of the requires that need no
    parameter, and the explain function's name): their entries are those the listing that
    offered the move kept (`_shared_checks`), the same values worked out in the same state.
    `leading` collects the `let`s before the first require, worked out first whatever the
    checks find: (the statement, its local, its line)."""
    lines: list[str] = []
    if shared is not None:
        lines += ["    xp = G._xpre.get(" + repr(a.name) + ")",
                  f"    if xp is None or len(xp) < {len(shared[0])}:  # not listed in this state: worked out",
                  f"        return {shared[1]}(G{''.join(', ' + p for p in pnames)})"]
    xsc: dict = {p.name: (pnames[i], None) for i, p in enumerate(a.params)}
    entries: list[str] = []  # one local per require explained: the list is made where it is returned
    k = j = 0
    inlined = False
    for i, s in enumerate(pre):
        first = len(lines)
        if isinstance(s, A.LetStmt):
            py = g.fresh("l")
            scope = dict(xsc)  # the names bound before it, for its one-line form below
            code = g.value(s.value, xsc, lines, "    ") if g.EXPLAINED_LETS_INLINED else g.ex(s.value, xsc)
            lines.append(f"    {py} = {code}")
            xsc[s.name] = (py, None)
            inlined = inlined or len(lines) > first + 1
            mark(g, lines, first, s.span)
            if leading is not None and not entries and shared is None:  # one line (`checks' lets kept`)
                leading.append((s, py, lines[first] if len(lines) == first + 1 else
                                f"    {py} = {g.ex(s.value, scope)}"))
            continue
        entry = f"_ck{len(entries)}"
        entries.append(entry)
        if shared is not None and i in shared[0]:
            lines.append(f"    {entry} = xp[{j}]")
            value = f"{entry}[1]"
            j += 1
        else:
            value, subs = g.explained(s.test, xsc, lines, "    ", packed=True)
            lines.append(f"    {entry} = ({k}, {value}, {subs})")
        if i < len(pre) - 1:  # a failed check ends the explanation; after the last, it ends anyway
            lines.append(f"    if not {value}:")
            lines.append(f"        return {_tuple_display(entries)}")
        mark(g, lines, first, s.span)
        k += 1
    lines.append(f"    return {_tuple_display(entries)}")
    if inlined:
        g.chose("explained lets inlined", a.name)
    return lines


_PURE_FORMS = (A.Name, A.Index, A.Compare, A.BoolOp, A.Not, A.BinOp, A.Neg, A.IntLit, A.StrLit,
               A.BoolLit, A.NoneLit, A.ListLit, A.Call)


def deferred_checks(g: CodeGen, a: A.ActionDecl, pre: list, rest: list, shared: set[int]) -> bool:
    """Whether a traced move's checks can be worked out when the trace is read instead of
    before its effect (`deferred checks`, machine.py, recording.deferred_explain): what they
    read besides the move's arguments, the mover and the listing's kept entries is only entries
    `m[k]` of state maps of plain values, `k` a parameter or a `let` before them, and the
    effect's first statements (plain writes, before any other kind) write every such entry. The
    first entry the step's journal holds for `m[k]` then has as its old value the value the
    check saw: journal entries never change, so the step's own entries give it back whenever
    the trace is read (after undo, clones and outside changes too, which change no entry)."""
    m = g.m
    keys = {p.name for p in a.params}
    reads: set[tuple[str, str]] = set()
    for i, s in enumerate(pre):
        if i in shared:
            continue
        e = s.value if isinstance(s, A.LetStmt) else s.test
        keyed: set[int] = set()
        for n in iter_nodes(e):
            if not isinstance(n, _PURE_FORMS):
                return False  # a quantifier, a conditional, a field: not worth the proof
            if isinstance(n, A.Call) and (n.func in m.defines or n.func in m.devices or n.func not in LIBRARY
                                          or LIBRARY[n.func].kind in ("chance", "game")):
                return False
            if isinstance(n, A.Index) and isinstance(n.base, A.Name) and n.base.name in m.vars:
                t = m.var_types[n.base.name].base
                if not (isinstance(n.key, A.Name) and n.key.name in keys and isinstance(t, MapOf)
                        and not _may_hold_dict(t.val)):
                    return False
                reads.add((n.base.name, n.key.name))
                keyed.add(id(n.base))
            elif isinstance(n, A.Name) and id(n) not in keyed and (n.name in m.vars or n.name in ("round", "current_phase")):
                return False  # a state variable read whole, or a game field the step does not keep
        if isinstance(s, A.LetStmt):
            keys.add(s.name)
    written: set[tuple[str, str]] = set()
    for s in rest:
        if not isinstance(s, (A.SetStmt, A.ClearStmt, A.AddStmt, A.RemoveStmt)):
            break
        t = s.target
        if isinstance(s, (A.SetStmt, A.ClearStmt)) and len(t.steps) == 1 and isinstance(t.steps[0], A.Name):
            written.add((t.root, t.steps[0].name))
    return reads <= written


_GAME_READ = re.compile(r"\bG\b(\.\w+)?")
_BEFORE_READS = frozenset({".vars", ".current", "._xpre"})  # what recording._BeforeGame answers


def _reads_of_game(lines: list[str]) -> set[str]:
    """What generated lines read of the game `G`: its attributes (`.vars`), `G` itself when
    handed on (as "")."""
    return {m.group(1) or "" for line in lines for m in _GAME_READ.finditer(line)}


def _tuple_display(items: list[str]) -> str:
    """A tuple display of `items`: an explanation is a tuple, not a list, so that the collector
    stops tracking it once it has seen it (a traced game keeps one a decided step to its end)."""
    return f"({', '.join(items)},)" if items else "()"


def _shared_checks(g: CodeGen, a: A.ActionDecl, pre: list, deps: list[int]) -> tuple[list[str], set[int]] | None:
    """Traced programs: when an action's preconditions start with requires that need no
    parameter (and there is no `let` before the parameters' loops), a function of G alone that
    explains those (as `explain` would: its entries, up to the first that fails). The listing
    calls it instead of testing them and keeps its entries in `G._xpre`, so that explaining a
    move it offered (every traced move) does not work out again what listing it did; checkers'
    `not can_capture(current)` looks at the whole board. None when there are none."""
    top = [i for i, d in enumerate(deps) if d == -1]
    if not top or any(isinstance(pre[i], A.LetStmt) for i in top):
        return None
    lines = ["    out = []"]
    k = 0
    for i, s in enumerate(pre):
        if isinstance(s, A.LetStmt):
            continue
        if i in top:
            value, subs = g.explained(s.test, {}, lines, "    ", packed=True)
            lines.append(f"    out.append(({k}, {value}, {subs}))")
            lines.append(f"    if not {value}:")
            lines.append("        return out")
        k += 1
    lines.append("    return out")
    return lines, set(top)


def distinct_if_any(fn: ast.FunctionDef, fresh: Callable[[str], str]) -> bool:
    """`distinct if any`, in place over a listing: a statement of its top `D = _uniq(X)`,
    where `D` is bound nowhere else and read only as a loop's iterable, as `D = (t := X) and
    _uniq(t)`: an empty X is walked as it is, without the call and the copy `_uniq` makes of
    none or one item (checkers' jumps, none in most positions). A loop over an empty value of
    any kind makes no round, so the moves, their order and the work charged are the same; X
    is read nowhere else, so walking the value itself rather than a copy is not seen."""
    stores, loads, iterated = pytree.name_uses(fn)
    done = False
    for s in fn.body:
        if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)):
            continue
        v, x = s.value, s.targets[0].id
        if not (isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "_uniq"
                and len(v.args) == 1 and not v.keywords and not isinstance(v.args[0], ast.Starred)):
            continue
        if stores.get(x) != 1 or iterated.get(x, 0) != loads.get(x, 0):
            continue
        t = fresh("du")
        made = ast.NamedExpr(ast.Name(t, ast.Store()), v.args[0])
        v.args[0] = ast.Name(t, ast.Load())
        s.value = pytree.located(ast.BoolOp(ast.And(), [made, v]), v)
        done = True
    return done


def kept_checks_inline(body: list[str], xp: str, kept: str) -> list[str]:
    """`kept checks inline`: the body of `AXP_n` (`_shared_checks`: `out = []`, each require's
    entry appended, `return out` where one fails and at the end) as the listing's own lines,
    its entries appended to `xp`, the list kept as `kept` from the start (the same list object
    `AXP_n` would return), and the listing left where one fails: the call a decision less
    (checkers' `not can_capture(current)`, once per listing)."""
    if body[0] != "    out = []" or body[-1] != "    return out":
        raise AssertionError("kept checks: not the body _shared_checks writes")
    out = [f"    {xp} = {kept} = []"]
    for line in body[1:-1]:
        if line.strip() == "return out":
            line = line.replace("return out", "return")
        elif line.lstrip().startswith("out.append("):
            line = line.replace("out.append(", f"{xp}.append(", 1)
        out.append(line)
    return out


def _effect(g: CodeGen, builder: BlockBuilder, name: str, a: A.ActionDecl, pre: list, rest: list,
            aid: int, pnames: list[str]) -> tuple[str | None, int | None, int | None]:
    """The effect: a function `AF_n`, or a block when the body can stop for a decision.
    Returns (function name, block id, size of the function's body)."""
    if suspends(tuple(rest), g.m.suspends):
        lets = [s for s in pre if isinstance(s, A.LetStmt)]
        params = [p.name for p in a.params]
        block = builder.block(tuple(lets) + tuple(rest), params, f"action:{name}", params,
                              types=param_types(a.params, g.m))
        return None, block, None
    lines = _effect_lines(g, a, pre, rest, pnames, {})
    effect_size = len(lines)
    lines.append("    return False")
    _effect_function(g, f"AF_{aid}", pnames, lines)
    return f"AF_{aid}", None, effect_size


def _effect_lines(g: CodeGen, a: A.ActionDecl, pre: list, rest: list, pnames: list[str],
                  given: dict[str, str]) -> list[str]:
    """The effect's body: the `let`s of the preconditions but those `given` (name -> the local
    that holds its value already), then the rest of the action's statements."""
    lines: list[str] = []
    fsc = {p.name: (pnames[i], None) for i, p in enumerate(a.params)}
    fsc.update({n: (local, None) for n, local in given.items()})
    for s in pre:
        if isinstance(s, A.LetStmt) and s.name not in given:
            g.stmt(s, fsc, lines, "    ")
    g.stmts(tuple(rest), fsc, lines, "    ")
    if g.quiet_tails and (at := tail_call(lines, g.quiet_tails)) is not None:  # traced: the last call keeps the move's step
        g.chose("quiet tail", rule=g.rule_now)
        if g.QUIET_TAIL_INLINED:  # the tail form's body copied in place (CodeGen.procedure_copy)
            ind, pid, args = tail_parts(lines[at])
            bound = []
            for k, code in enumerate(args):
                if not (code.isidentifier() or _is_literal(code)):
                    args[k] = g.fresh("qa")
                    bound.append(f"{ind}{args[k]} = {code}")
            lines[at:at + 2] = [*bound, ind + g.inline(pytree.Inline("tail", f"PT_{pid}", args=tuple(args)))]
            g.chose("quiet tail inlined", rule=g.rule_now)
    return lines


def _effect_function(g: CodeGen, fn: str, params: list[str], lines: list[str]) -> None:
    g.function(fn, params, lines)
    if g.NUMBERED_ROWS:
        rule = g.rule_now
        g.tree_passes.setdefault(fn, []).append(lambda tree: numbered(g, tree, rule))


_UNCHANGING = (INT, BOOL, TEXT, NONE, RANGE)


def checks_lets_kept(g: CodeGen, a: A.ActionDecl, pre: list, rest: list, aid: int, pnames: list[str],
                     leading: list[tuple[A.LetStmt, str, str]]) -> tuple[str, str] | None:
    """`checks' lets kept` (CodeGen.CHECKS_LETS_KEPT), traced: a move played in place works its
    checks out first (machine.py `checks`), and the `let`s before its first require are the
    first lines of those checks, worked out whatever the checks then find; its effect worked
    them out again (connect four's `let s = lowest_free(col)`: a column searched twice a move).
    An effect `AFL_n` takes their values from the checks' locals instead, and `AXL_n` holds
    the `let` lines alone, which the checks' `except` runs again outside its guard when the
    checks failed (then the values may be missing; an error in a `let` is the move's, as the
    effect raised it). Only values that cannot change after they are worked out (a number, a
    name, a text, a truth value, a range): the checks' record keeps them too. Returns (effect,
    lets) or None."""
    kept: list[tuple[A.LetStmt, str, str]] = []
    for s, local, line in leading:
        t = g.static_type(s.value).base
        if not (isinstance(t, Elem) or t in _UNCHANGING):
            break
        kept.append((s, local, line))
    if not kept:
        return None
    lines = _effect_lines(g, a, pre, rest, pnames, {s.name: local for s, local, _ in kept})
    lines.append("    return False")
    _effect_function(g, f"AFL_{aid}", pnames + [local for _, local, _ in kept], lines)
    g.function(f"AXL_{aid}", pnames, [line for _, _, line in kept] + ["    return False"])
    return f"AFL_{aid}", f"AXL_{aid}"


def joined(g: CodeGen, fn: object, rule: str) -> None:
    """`joined rows` (joined.py) over one function's tree, the choice said when made."""
    if joined_rows(fn, g.joining, g.fresh):  # type: ignore[arg-type]
        g.chose("joined rows", rule=rule)


def numbered(g: CodeGen, fn: object, rule: str) -> None:
    """`rows ahead` and `numbered rows` (numbered.py), then `paired rows` (paired.py), over one
    function's tree, each choice said when made."""
    if rows_ahead(fn, g.fresh, g.complete_tables):  # type: ignore[arg-type]
        g.chose("rows ahead", rule=rule)
    if numbered_rows(fn, g.fresh, g.numbering):  # type: ignore[arg-type]
        g.chose("numbered rows", rule=rule)
    if g.PAIRED_ROWS and paired_rows(fn, g.pairing):  # type: ignore[arg-type]
        g.chose("paired rows", rule=rule)


_GAME_CALL = re.compile(r"\bG\.(\w+)\(")
_GENERATED_CALL = re.compile(r"\b_?[A-Z]+_?\d+\(")
_STEP_KEEPING = frozenset({"finish", "out_of_work", "note_log", "note_reveal"})  # these leave the open step open


def keeps_step(lines: list[str]) -> bool:
    """Whether a traced effect's code surely leaves the move's step the open one and writes no
    map or record whole (`_jdict`): it calls no generated function (a procedure, a device, a
    definition that may run one) and no method of the game but those that note into the open
    step or end the game. Then the block closes the step without looking (machine.py)."""
    return not any("_jdict" in line or _GENERATED_CALL.search(line)
                   or any(m not in _STEP_KEEPING for m in _GAME_CALL.findall(line))
                   for line in lines if not line.startswith("def "))


def generate_action(g: CodeGen, builder: BlockBuilder, name: str, a: A.ActionDecl) -> ActionSource:
    """The functions of one action: its listing (AE), any-move search (AA), check (AC),
    explanation (AX) and effect (AF or a block)."""
    g.rule_now = f"action {name}"
    pre, rest = action_preconditions(a, g.m)
    requires = [s for s in pre if isinstance(s, A.RequireStmt)]
    aid = len(g.lines)
    pnames = [f"p{i}" for i in range(len(a.params))]
    listing = _Listing(g, name, a, pre, pnames)
    shared = _shared_checks(g, a, pre, listing.deps) if g.record else None
    if shared is not None:
        g.function(f"AXP_{aid}", [], shared[0])
        listing.shared_checks = f"AXP_{aid}"
        listing.shared_lines = shared[0]
    lines = listing.generate()
    # on the tree, once the program is parsed (codegen.CodeGen.finish)
    count, rule = len(pnames), g.rule_now
    g.tree_passes.setdefault(f"AE_{aid}", []).append(
        lambda fn: pytree.hoist_rows(fn, count, g.fresh, g.complete_tables | g.partial_tables if g.ROWS_OF_ROWS
                                     else g.complete_tables, g.ROWS_OF_ROWS) and g.chose("hoist rows", rule=rule))
    if g.NUMBERED_ROWS:  # after hoist_rows: the rows it took out of the loops
        g.tree_passes[f"AE_{aid}"].append(lambda fn: numbered(g, fn, rule))
    if g.KNOWN_ENTRIES:  # the walked keys' entries are the value they were kept for (known.py)
        g.tree_passes[f"AE_{aid}"].append(lambda fn: known_entries(fn) and g.chose("known entries", rule=rule))
    if g.BY_PLAYER:  # after numbered rows: the numbered domain of a player's values too
        g.tree_passes[f"AE_{aid}"].append(
            lambda fn: by_player(fn, g.players, g.constants, RUNTIME, g.fixed_const) and g.chose("by player", rule=rule))
    if g.DISTINCT_IF_ANY:  # after by player, which works such a domain out per player instead
        g.tree_passes[f"AE_{aid}"].append(
            lambda fn: distinct_if_any(fn, g.fresh) and g.chose("distinct if any", rule=rule))
    if g.JOINED_ROWS:  # after by player: a player's numbered domain is joined for each player
        g.tree_passes[f"AE_{aid}"].append(lambda fn: joined(g, fn, rule))
    if g.COMMON_EXPRESSIONS:  # after the rows: a listing changes no state (common_exprs.py)
        g.tree_passes[f"AE_{aid}"].append(
            lambda fn: common_expressions(fn, g.fresh, g.COMMON_LENGTHS) and g.chose("common expressions", rule=rule))
    if g.JOINED_WALKED and g.LOOP_FORMS:  # a loop's joined domain as statements, no call
        g.tree_passes[f"AE_{aid}"].append(
            lambda fn: pytree.joined_walked(fn, g.fresh) and g.chose("joined walked", rule=rule))
    if g.FIXED_ROWS and g.LOOP_FORMS:  # a listing changes no state: a map's fixed rows at its top
        g.tree_passes[f"AE_{aid}"].append(
            lambda fn: pytree.fixed_rows(fn, g.fresh, g.row_keys()) and g.chose("fixed rows", rule=rule))
    if g.MEMO_DROPPED:  # last: a memo no look-up can hit made a straight call (memoonce.py)
        g.tree_passes[f"AE_{aid}"].append(
            lambda fn: [g.chose("memo dropped", c, rule=rule) for c in memo_dropped(fn, g.constants)] != [])
    enum_size = len(lines) - listing.tested_lines
    g.function(f"AE_{aid}", ["out"], lines)
    # the same search, stopping at the first legal move: possible(action) asks only that
    lists = ("out", listing.rows) if listing.rows else ("out",)
    g.function(f"AA_{aid}", [], ["    " + g.inline(pytree.Inline("any", f"AE_{aid}", lists=lists)),
                                 "    return False"])
    g.any_fns[name] = f"AA_{aid}"
    g.function(f"AC_{aid}", pnames, _check_lines(g, a, pre, pnames))
    leading: list[tuple[A.LetStmt, str, str]] = []
    explain = _explain_lines(g, a, pre, pnames, leading=leading)
    g.function(f"AX_{aid}", pnames, explain)
    if shared is not None:
        explain = _explain_lines(g, a, pre, pnames, (shared[1], f"AX_{aid}"))
        g.function(f"AXO_{aid}", pnames, explain)
    deferred = len(shared[1]) if shared is not None else 0
    if not (g.record and g.DEFERRED_CHECKS and deferred_checks(g, a, pre, rest, shared[1] if shared else set())
            and _reads_of_game(explain[3:] if shared is not None else explain) <= _BEFORE_READS):
        deferred = None
    lines_before = len(g.lines)
    effect, block, effect_size = _effect(g, builder, name, a, pre, rest, aid, pnames)
    keeps = effect is not None and keeps_step(g.lines[lines_before:])
    abandonable = any(isinstance(n, A.AbandonStmt) for n in iter_nodes(a.body))
    given = None
    if g.record and g.CHECKS_LETS_KEPT and effect is not None and shared is None and deferred is None:
        given = checks_lets_kept(g, a, pre, rest, aid, pnames, leading)
    return ActionSource(f"AE_{aid}", f"AA_{aid}", f"AC_{aid}", f"AX_{aid}", effect, block, requires, enum_size,
                        abandonable, effect_size, f"AXO_{aid}" if shared is not None else f"AX_{aid}",
                        explain_size=len(explain), plain_args=plain_params(g, a),
                        kept_args=plain_params(g, a, lists=True), keeps_step=keeps,
                        kept=kept_listing_call(g, name, aid, listing), deferred=deferred,
                        effect_given=given[0] if given else None, lets_again=given[1] if given else None)


def kept_listing_call(g: CodeGen, name: str, aid: int, listing: _Listing) -> str | None:
    """Untraced: the call of `carried._kept_moves` that lists `name`'s moves from those kept
    at the last decision (carry.kept_listing), with `AK_n`, the keys its requires read for one
    value of its parameter; None where the listing is not kept: not such an action, or its
    moves not a complete table over a constant domain in the listing's own order."""
    kept = g.kept.get(name)
    if kept is None or listing.moves is None:
        return None
    values, table = g.constants.get(listing.domain or ""), g.constants[listing.moves]
    if not isinstance(values, (list, tuple)) or list(values) != list(table):
        return None
    lines: list[str] = ["    _keys = []"]
    for source, aliases in kept.sources:
        if source is PARAM:
            lines.append("    _keys.append(p0)")
        else:  # a state-free expression of the parameter: a quantifier's domain
            code = g.value(source, {alias: ("p0", None) for alias in aliases}, lines, "    ")
            lines.append(f"    _keys.extend({code})")
    lines.append("    return _keys")
    g.function(f"AK_{aid}", ["p0"], lines)
    g.chose("kept listing", f"{name} by {', '.join(sorted(kept.reads))}")
    positions = {v: j for j, v in enumerate(values)}
    inverse: dict = {}  # filled by the first call of _kept_moves that needs it
    spec = g.const((("listing", name), kept.reads, inverse, positions, table), "KS")
    call = f"_kept_moves(G, {spec}, AK_{aid}, AC_{aid}, AE_{aid})"
    if not g.ONE_VALUE_TESTED:
        return call
    return one_value_tested(g, name, aid, call, (("listing", name), kept.reads, inverse, positions, listing.moves))


def one_value_tested(g: CodeGen, name: str, aid: int, call: str, spec: tuple) -> str:
    """`one value tested` (CodeGen.ONE_VALUE_TESTED): `KM_n(G)`, the kept listing's call in the
    block, with `_kept_moves`' commonest path written out: one write logged since the moves
    were kept, at a key that one value's requires read (connect four's column). That value's
    check is the check's own lines (`_check_lines`), its failure `_kept_without`; anything
    else is `_kept_moves` itself (`call`). One Python call a decision where there were two
    (`_kept_moves`, then `AC_n`), the listing's constant no longer unpacked."""
    key, reads, inverse, positions, table = spec
    kk, kr, ki, kp = g.const(key, "KK"), g.const(reads, "KR"), g.const(inverse, "KI"), g.const(positions, "KP")
    a = g.m.actions[name]
    pre, _rest = action_preconditions(a, g.m)
    dropped = f"return _kept_without(G, {kk}, _kgot[0], {table}[p0], {kp})"
    lines = [f"    _kgot = G._carried.get({kk})",
             "    _klog = G._wlog",
             f"    if _kgot is None or len(_klog) != _kgot[1] + 1 or not {ki}:",
             f"        return {call}",
             "    _kent = _klog[-1]",
             f"    if _kent[0] not in {kr} or _kent[1] is _WHOLE:",
             f"        return {call}",
             f"    _ktodo = {ki}.get(_kent[1], ())",
             "    if len(_ktodo) != 1:",
             f"        return {call}",
             "    p0 = _ktodo[0]",
             *_check_lines(g, a, pre, ["p0"], fail=lambda _k: dropped, passed=None),
             "    _kval = _kgot[0]",
             f"    _kmv = {table}[p0]",
             "    if _kmv not in _kval:",
             f"        _kval = _kept_changed(_kval, _kmv, False, {kp})",
             "    G._carried[" + kk + "] = (_kval, len(_klog))",
             "    return _kval"]
    g.function(f"KM_{aid}", [], lines)
    g.chose("one value tested", name)
    return f"KM_{aid}(G)"


def _is_simple(code: str) -> bool:
    """A local or a constant: cheap to write twice."""
    return code.isidentifier() or code == "()"


def frozen_table(g: CodeGen, node: A.Node, param: str) -> str | None:
    """`DATA[param].field…` of a type that is no dictionary key (Khan's tile shapes, lists of
    lists), as a table made now: each key of DATA -> the value as nested tuples. None when
    `node` is not of that form."""
    fields = []
    n = node
    while isinstance(n, A.Field):
        fields.append(n.name)
        n = n.base
    if not (isinstance(n, A.Index) and isinstance(n.base, A.Name) and n.base.name in g.m.data_values
            and isinstance(n.key, A.Name) and n.key.name == param):
        return None
    table = {}
    for k, v in g.m.data_values[n.base.name].items():
        for f in reversed(fields):
            if not isinstance(v, dict) or f not in v:
                return None
            v = v[f]
        table[k] = _hashable(v)
    return g.const(table, "FK")
