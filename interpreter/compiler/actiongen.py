"""The generated functions of each action: enumerate, any, check, explain, effect.

| function | signature | returns |
|---|---|---|
| `AE_n` | `(G, out)` | appends every legal move: parameters are nested loops, a domain that uses no parameter is computed once, and each precondition is tested at the shallowest loop where its names are bound |
| `AA_n` | `(G)` | whether some binding is legal (the same search, stopping at the first) |
| `AC_n` | `(G, *args)` | `-1` when legal, `k` for the first failing `require`, `-(i + 2)` when argument `i` is outside its domain |
| `AX_n` | `(G, *args)` | per precondition up to the first failure: `(index, value, [(sub-expression text, value)])` |
| `AF_n` | `(G, *args)` | `True` when the effect finished the game; absent when the body can stop for a decision (it is then a block) |
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from ...dsl import ast as A
from ...dsl.ast import iter_nodes
from ...dsl.check import suspends
from ...dsl.types import RANGE, Elem, SetOf
from ..engine.runtime import _hashable
from ..stdlib.library import LIBRARY
from . import pytree
from .blocks import BlockBuilder, action_preconditions, names_in, param_types
from .codegen import CodeGen
from .hoist import Hoister, parts
from .memo import level_key, plain_type


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

    @property
    def plays_in_place(self) -> bool:
        """A plain move (its effect a function: no decision inside, no `abandon`) is played by
        the block that offered it (machine.py), which `apply` hands it to (game.py)."""
        return self.effect_size is not None and not self.abandonable


MAX_MOVES = 100_000  # bindings of one action made in advance


def move_pairs(g: CodeGen, dom: str, table: str) -> tuple[str, str] | None:
    """For an action of one parameter whose domain is a constant of the program: a constant of
    (value, move) pairs, so listing a move is no look-up in the move table. None otherwise."""
    values, moves = g.constants.get(dom), g.constants.get(table)
    if not isinstance(values, (list, tuple)) or not isinstance(moves, dict) or \
            not all(isinstance(v, Hashable) and v in moves for v in values):
        return None
    return g.const(tuple((v, moves[v]) for v in values), "EM"), g.fresh("mv")


def move_table(g: CodeGen, name: str, a: A.ActionDecl) -> str | None:
    """A nested dict `{arg1: {arg2: Action}}` over every value each parameter can take, when
    those are few and known now (squares, directions, a constant range): then a legal move is a
    look-up, not a new object, and the same move is the same object in every game."""
    from ..engine.moves import Action

    pools = []
    for p in a.params:
        if p.type is not None:
            values = g.elements.get(p.type.name) if p.type.name != "Player" else g.players
        elif isinstance(p.domain, A.Range) and all(isinstance(x, A.IntLit) for x in (p.domain.low, p.domain.high)):
            values = tuple(range(p.domain.low.value, p.domain.high.value + 1))
        else:
            t = g.static_type(p.domain).item.base
            values = (g.players if t.name == "Player" else g.elements.get(t.name)) if isinstance(t, Elem) else None
        if not values:
            return None
        pools.append(list(values))
    if not pools or math.prod(len(p) for p in pools) > MAX_MOVES:
        return None

    def level(i: int, args: tuple) -> Any:
        if i == len(pools):
            move = Action(name, args)
            g.move_texts[id(move)] = str(move)  # the table keeps the move alive: its id is its own
            return move
        return {v: level(i + 1, (*args, v)) for v in pools[i]}

    name = g.const(level(0, ()), "M")
    g.complete_tables.add(name)
    return name


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
    return False


def generate_action(g: CodeGen, builder: BlockBuilder, name: str, a: A.ActionDecl) -> ActionSource:
    model = g.m
    pre, rest = action_preconditions(a, model)
    requires = [s for s in pre if isinstance(s, A.RequireStmt)]
    aid = len(g.lines)
    pnames = [f"p{i}" for i in range(len(a.params))]

    def domain_code(i: int, scope: dict, as_set: bool = False) -> str:
        p = a.params[i]
        fixed = constant_domain(p.domain)
        if fixed is not None:  # worked out now: a constant range or list of named values
            return g.const(frozenset(fixed) if as_set else list(dict.fromkeys(fixed)), "P")
        if p.domain is not None and distinct(g, p.domain):
            return g.seq(g.ex(p.domain, scope), p.domain, scope)
        if p.domain is not None:  # a value offered twice is one move, not two
            return f"_uniq(_seq({g.ex(p.domain, scope)}))"
        t = p.type.name  # the checker allows only finite types here (E223)
        return "G.players" if t == "Player" else g.element_list(t)

    # which parameter each precondition needs (through lets too): it is tested at that depth
    deps: list[int] = []
    let_level: dict[str, int] = {}
    for s in pre:
        used = names_in(s)
        lvl = max([i for i, p in enumerate(a.params) if p.name in used]
                  + [ll for ln, ll in let_level.items() if ln in used] + [-1])
        if isinstance(s, A.LetStmt):
            let_level[s.name] = lvl
        deps.append(lvl)

    # enum(G, out): loops over the parameters, each precondition at the depth of its names,
    # loop-invariant parts computed once (interpreter/compiler/hoist.py)
    lines: list[str] = []
    esc: dict = {}
    items_at = {lvl: [s for s, d in zip(pre, deps, strict=True) if d == lvl] for lvl in range(-1, len(a.params))}
    levels = {p.name: i for i, p in enumerate(a.params)} | let_level
    hoister = Hoister(lambda used: max([levels[n] for n in used if n in levels] + [-1]), g.fresh)
    for s, d in zip(pre, deps, strict=True):
        hoister.plan(s.value if isinstance(s, A.LetStmt) else s.test, d)

    def emit_pre(items: list, depth: int, ind: str) -> None:
        exprs = [s.value if isinstance(s, A.LetStmt) else s.test for s in items]
        found = [parts(e) for e in exprs]
        shared: dict[str, str] = {}  # parts an earlier precondition of this depth worked out
        for i, s in enumerate(items):
            expr = exprs[i]
            later = {k for f in found[i + 1:] for k in f}
            before: list = []
            g.subst = hoister.substitutions(expr, depth, before, shared, later)
            for local, node in before:  # inner parts first (Hoister.substitutions): outer ones use them
                g.subst.pop(id(node), None)  # the first time it is worked out, then reused
                lines.append(f"{ind}{local} = {g.ex(node, esc)}")
                g.subst[id(node)] = local
            if isinstance(s, A.LetStmt):
                py = g.fresh("l")
                value = g.value(s.value, esc, lines, ind)
                lines.append(f"{ind}{py} = {value}")
                esc[s.name] = (py, None)
                for k in [k for k in shared if any(s.name in f.get(k, ()) for f in found)]:
                    del shared[k]  # it read the name this `let` binds anew
            else:
                test = g.value(s.test, esc, lines, ind)
                lines.append(f"{ind}if not {test}:")
                lines.append(f"{ind}    {'return' if ind == '    ' else 'continue'}")
            g.subst = {}
        for local, node in hoister.at_end.get(depth, ()):
            lines.append(f"{ind}{local} = {g.ex(node, esc)}")

    ind = "    "
    g.enum_memo, g.enum_sets = {}, {}  # listing moves changes no state: definitions may be remembered (memo.py)
    g.still = True  # and the variables it reads are bound once (machine.py binds them where it inlines this)
    emit_pre(items_at[-1], -1, ind)
    bound = {p.name for p in a.params} | set(let_level)
    hoisted: dict[int, str] = {}
    for i, p in enumerate(a.params):  # domains that need no parameter are computed once
        if p.domain is not None and not (names_in(p.domain) & bound):
            hoisted[i] = g.fresh("dom")
            lines.append(f"{ind}{hoisted[i]} = {domain_code(i, esc)}")
    # the inner loops depend on the first parameter only through data (memo.level_key): their
    # bindings are found once per key, and the first parameters that share it share them
    inner_nodes = [a.params[i].domain for i in range(1, len(a.params)) if i not in hoisted and a.params[i].domain] + [
        s.value if isinstance(s, A.LetStmt) else s.test for s, d in zip(pre, deps, strict=True) if d >= 1]
    level = None
    inner_names = set().union(*map(names_in, inner_nodes))
    if len(a.params) >= 2 and not any(d == 0 for s, d in zip(pre, deps, strict=True)
                                      if isinstance(s, A.LetStmt) and s.name in inner_names):
        level = level_key(model, inner_nodes, a.params[0].name)
    rows = memo_table = outer_ind = None
    moves = move_table(g, name, a)  # not `table`: the key code below binds that name
    paired = None  # one parameter over a constant domain: each value walked with its move
    for i, p in enumerate(a.params):
        dom = hoisted.get(i) or domain_code(i, esc)
        if len(a.params) == 1 and moves is not None:
            paired = move_pairs(g, dom, moves)
        if paired is not None:
            pairs, move_local = paired
            lines.append(f"{ind}for {pnames[i]}, {move_local} in {pairs}:")
        else:
            lines.append(f"{ind}for {pnames[i]} in {dom}:")
        esc[p.name] = (pnames[i], None)
        ind += "    "
        emit_pre(items_at[i], i, ind)
        if i == 0 and level is not None:
            keyed = list(dict.fromkeys(
                code if plain_type(model.type_of(node)) else (
                    f"{table}[{pnames[0]}]" if (table := frozen_table(g, node, pname)) else f"_hashable({code})")
                for node, pname in level
                for code in [g.ex(node, esc if pname == p.name else {pname: (pnames[0], None)})]))
            key = keyed[0] if len(keyed) == 1 else f"({', '.join(keyed)})"  # () when none is read
            rows, memo_table, outer_ind = g.fresh("rows"), g.fresh("lv"), ind
            if not _is_simple(key):
                local = g.fresh("key")
                lines.append(f"{ind}{local} = {key}")
                key = local
            lines.append(f"{ind}{rows} = {memo_table}.get({key})")
            lines.append(f"{ind}if {rows} is None:  # the first with its key: the inner bindings found")
            lines.append(f"{ind}    {rows} = {memo_table}[{key}] = []")
            ind += "    "
    if moves is None:  # build each move (tuple.__new__ skips NamedTuple's Python-level __new__)
        move = f"_TN(ACT, ({name!r}, ({', '.join(pnames)}{',' if pnames else ''})))"
    elif paired is not None:  # the loop walks the moves with the values
        move = paired[1]
    else:  # one move object per binding, made when the ruleset was compiled
        move = moves + "".join(f"[{p}]" for p in pnames)
    if rows is None:
        lines.append(f"{ind}out.append({move})")
    else:
        inner = ", ".join(pnames[1:])
        lines.append(f"{ind}{rows}.append({inner if len(pnames) == 2 else f'({inner})'})")
        lines.append(f"{outer_ind}for {inner} in {rows}:")
        lines.append(f"{outer_ind}    out.append({move})")
    lines[:0] = [f"    {table} = {{}}" for table in g.enum_memo.values()] + [
        f"    {held} = frozenset({g.var(var)}.values())" for var, held in g.enum_sets.items()] + (
        [f"    {memo_table} = {{}}"] if memo_table else [])
    g.enum_memo, g.enum_sets, g.still = None, {}, False
    # on the tree, once the program is parsed (codegen.CodeGen.finish)
    count = len(pnames)
    g.tree_passes.setdefault(f"AE_{aid}", []).append(
        lambda fn: pytree.hoist_rows(fn, count, g.fresh, g.complete_tables))
    enum_size = len(lines)
    g.function(f"AE_{aid}", ["out"], lines)
    # the same search, stopping at the first legal move: possible(action) asks only that
    lists = ("out", rows) if rows else ("out",)
    g.function(f"AA_{aid}", [], ["    " + g.inline(pytree.Inline("any", f"AE_{aid}", lists=lists)),
                                 "    return False"])

    # check(G, *args): domain membership, then requires in source order
    lines = []
    csc: dict = {}
    for i, p in enumerate(a.params):
        lines.append(f"    if {pnames[i]} not in {domain_code(i, csc, as_set=True)}:")
        lines.append(f"        return {-(i + 2)}")
        csc[p.name] = (pnames[i], None)
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
    xsc: dict = {p.name: (pnames[i], None) for i, p in enumerate(a.params)}
    k = 0
    for i, s in enumerate(pre):
        if isinstance(s, A.LetStmt):
            py = g.fresh("l")
            lines.append(f"    {py} = {g.ex(s.value, xsc)}")
            xsc[s.name] = (py, None)
        else:
            value, subs = g.explained(s.test, xsc, lines, "    ", packed=True)
            lines.append(f"    out.append(({k}, {value}, {subs}))")
            if i < len(pre) - 1:  # a failed check ends the explanation; after the last, it ends anyway
                lines.append(f"    if not {value}:")
                lines.append("        return out")
            k += 1
    lines.append("    return out")
    g.function(f"AX_{aid}", pnames, lines)

    # effect: a function, or a block when the body can stop for a decision
    effect = block = effect_size = None
    if suspends(tuple(rest), model.suspends):
        lets = [s for s in pre if isinstance(s, A.LetStmt)]
        params = [p.name for p in a.params]
        block = builder.block(tuple(lets) + tuple(rest), params, f"action:{name}", params,
                              types=param_types(a.params, g.m))
    else:
        lines = []
        fsc = {p.name: (pnames[i], None) for i, p in enumerate(a.params)}
        for s in pre:
            if isinstance(s, A.LetStmt):
                g.stmt(s, fsc, lines, "    ")
        g.stmts(tuple(rest), fsc, lines, "    ")
        effect_size = len(lines)
        lines.append("    return False")
        g.function(f"AF_{aid}", pnames, lines)
        effect = f"AF_{aid}"
    abandonable = any(isinstance(n, A.AbandonStmt) for n in iter_nodes(a.body))
    return ActionSource(f"AE_{aid}", f"AA_{aid}", f"AC_{aid}", f"AX_{aid}", effect, block, requires, enum_size,
                        abandonable, effect_size)


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
