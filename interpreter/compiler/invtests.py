"""Faster tests of invariants, for traced games, which check them after every step.

The messages of a broken invariant always come from its own test (`INV_n`); these only decide
faster whether one holds, and give the same answer:

- `INVP_n(G, key)`: an invariant `all x in D: ...` that reads state only as `m[x]`
  (reads.pointwise_reads), at one key a step wrote;
- `INVK_n(G, keys)`: the same at every key of a set (`keyed points`: the keys of its maps a step
  wrote, picked from the journal in C, tested in one call, no call per key);
- `INVG_n(G)`: an invariant `all c in D: ... f(c) ...` where `f(p)` is `sum|count q in E where
  ... and F == p: B` (Shogun's cubes: `on_board(c)` sums the armies of the provinces whose
  owner has colour `c`), with those sums worked out in one pass over `E` grouped by `F`, instead
  of one pass per `c`;
- `INVS_n(G)`: the same after a step, with the sums kept from the last check brought up to date
  at the keys the journal says were written since (`kept sums`, where an item's part reads
  state only as `m[q]`); with `kept by writes` at the keys the writes of those maps logged
  themselves (`G._ilog`, codegen.write), where no scan of the journal is needed.
"""

from __future__ import annotations

from ...dsl import ast as A
from ...dsl.check import Model
from ...dsl.printer import expr_text
from ...dsl.types import INT, Elem, ListOf, MapOf, Record, Simple, Type
from .codegen import CodeGen
from .reads import keyed_reads, state_reads

GroupedSum = tuple[A.Call, A.Aggregate, tuple[A.Node, ...], A.Node]


def point_test(g: CodeGen, i: int, test: A.Aggregate) -> None:
    """`INVP_i(G, k)`: invariant `i` (`all x in D [where W]: B`, reads.pointwise_reads) at the one
    key `k`: true when `k` is not in `D`, else `W → B` for `x = k`; the test of `INV_i` for one
    element, the same expressions compiled with `x` bound to the parameter (reads.pointwise_reads
    ruled out an A.Aggregate or A.LetExpr inside that binds `x` again)."""
    sc = {test.var: ("p0", None)}
    holds = f"({g.ex(test.body, sc)})"
    if test.where is not None:
        holds = f"not ({g.ex(test.where, sc)}) or {holds}"
    domain = g.ex(test.domain, {})
    fixed = g.constants.get(domain)
    if type(fixed) in (tuple, list) and all(type(v) in (str, int, bool) for v in fixed):
        domain = g.const(frozenset(fixed), "S")  # a board's squares, an enum: looked up, not scanned
    g.function(f"INVP_{i}", ["p0"], [f"    if p0 not in {domain}:", "        return True",
                                     f"    return bool({holds})"])
    if g.KEYED_POINTS:  # the same at every key of a set, in one call (`keyed points`)
        g.chose("keyed points")
        g.function(f"INVK_{i}", ["ks"], ["    for p0 in ks:", f"        if p0 not in {domain} or {holds}:",
                                         "            continue", "        return False", "    return True"])


def grouped_sum(m: Model, test: A.Node) -> GroupedSum | None:
    """For `all c in D: ... f(c) ...` (nothing else filtered, `D` and `E` fixed) where definition
    `f(p)` is `sum|count q in E where W1 and ... and F == p [: B]` and `p` appears only in that
    last comparison: (the call, the aggregate, W1..., F). None for any other invariant."""
    if not (isinstance(test, A.Aggregate) and test.kind == "all" and test.where is None
            and test.body is not None and state_reads(m, test.domain) == frozenset()):
        return None
    for n in A.iter_nodes(test.body):
        if not (isinstance(n, A.Call) and n.func in m.defines and len(n.args) == 1
                and isinstance(n.args[0], A.Name) and n.args[0].name == test.var):
            continue
        d = m.defines[n.func]
        agg, p = d.value, d.params[0].name
        if not (isinstance(agg, A.Aggregate) and agg.kind in ("sum", "count") and agg.where is not None
                and agg.var != p and state_reads(m, agg.domain) == frozenset()):
            continue
        conj = agg.where.items if isinstance(agg.where, A.BoolOp) and agg.where.op == "and" else (agg.where,)
        last = conj[-1]
        if not (isinstance(last, A.Compare) and last.op == "=="):
            continue
        key = last.left if isinstance(last.right, A.Name) and last.right.name == p else \
            last.right if isinstance(last.left, A.Name) and last.left.name == p else None
        if key is None or isinstance(m.type_of(key).base, (ListOf, MapOf, Record)):  # a dict key
            continue
        rest = conj[:-1]
        parts = (*rest, key, *((agg.body,) if agg.body is not None else ()))
        if any(isinstance(x, A.Name) and x.name == p for x in A.iter_nodes(parts)) or \
                any(isinstance(x, (A.Aggregate, A.LetExpr)) for x in A.iter_nodes(parts)):
            continue  # `p` read elsewhere, or names bound inside: not this simple form
        return n, agg, tuple(rest), key
    return None


def grouped_test(g: CodeGen, i: int, test: A.Aggregate, found: GroupedSum) -> str | None:
    """`INVG_i(G)`: invariant `i` with the sums `grouped_sum` found worked out in one pass: a
    dict from each element of `D` to its sum, then the `all` over `D` reading it. The name of the
    test a traced game runs after a step: `INVS_i` where the sums can be kept (`kept_sums`),
    else `INVG_i`; None when neither was written (a domain not bounded by the ruleset: no work
    budget to charge)."""
    call, agg, rest, key = found
    if not (g.bounded(test.domain, {}) and g.bounded(agg.domain, {})):
        return None
    kept = _kept_maps(g, agg, rest, key)
    grp, q, k, c, v = g.fresh("grp"), g.fresh("q"), g.fresh("k"), g.fresh("c"), g.fresh("v")
    at = g.fresh("at")
    sq = {agg.var: (q, None)}
    outer = g.seq(g.ex(test.domain, {}), test.domain, {})
    part = _part_lines(g, agg, rest, key, sq, q, k, v, grp, at if kept else None, "        ")
    lines = [f"    {grp} = dict.fromkeys({outer}, 0)"]
    if kept:
        lines.append(f"    {at} = {{}}")
    lines += [f"    for {q} in {g.seq(g.ex(agg.domain, {}), agg.domain, {})}:", *part]
    g.subst[id(call)] = f"{grp}[{c}]"
    try:
        body = g.ex(test.body, {test.var: (c, None)})
    finally:
        del g.subst[id(call)]
    tail = [f"    for {c} in {outer}:", f"        if not ({body}):", "            return False",
            "    return True"]
    by_writes = kept is not None and g.KEPT_BY_WRITES and kept[0] <= g.logged_maps
    if by_writes:  # kept for INVS_i: the journal, the write log, its length, the sums and parts
        lines += ["    if G._invg is None:", "        G._invg = {}",
                  "        G._ilog = []",  # a fresh log: the writes log while sums are kept
                  f"    G._invg[{i}] = (G.journal, G._ilog, len(G._ilog), {grp}, {at})"]
    elif kept:  # kept for INVS_i: the journal, its length, the sums and each item's part of them
        lines += ["    if G._invg is None:", "        G._invg = {}",
                  f"    G._invg[{i}] = (G.journal, len(G.journal), {grp}, {at})"]
    g.function(f"INVG_{i}", [], lines + tail)
    if not kept:
        return f"INVG_{i}"
    g.chose("kept sums", expr_text(call))
    maps, domain = kept
    if not by_writes:  # the journal's names and whole writes looked for (`_keys_written`)
        names = g.const(frozenset(maps), "S")
        wholes = g.const(tuple((m,) for m in sorted(maps)), "C")
    got, keys, held = g.fresh("got"), g.fresh("w"), g.fresh("kept")
    if by_writes:
        g.chose("kept by writes", expr_text(call))
        log = g.fresh("log")
        lines = [f"    {held} = G._invg",
                 f"    {got} = None if {held} is None else {held}.pop({i}, None)",  # dropped while brought up to date
                 f"    if {got} is None or {got}[0] is not G.journal or {got}[1] is not G._ilog:",
                 f"        return INVG_{i}(G)",
                 f"    {log}, {grp}, {at} = {got}[1], {got}[3], {got}[4]",
                 f"    if {got}[2] < len({log}):",
                 f"        for {q} in frozenset({log}[{got}[2]:]):",  # each key once
                 f"            {v} = {at}.pop({q}, None)",
                 f"            if {v} is not None:",
                 f"                {grp}[{v}[0]] -= {v}[1]",
                 f"            elif {q} not in {domain}:",
                 "                continue",
                 *_part_lines(g, agg, rest, key, sq, q, k, v, grp, at, "            "),
                 f"    {held}[{i}] = (G.journal, {log}, len({log}), {grp}, {at})",
                 *tail]
        g.function(f"INVS_{i}", [], lines)
        return f"INVS_{i}"
    lines = [f"    {held} = G._invg",
             f"    {got} = None if {held} is None else {held}.pop({i}, None)",  # dropped while brought up to date
             f"    if {got} is None or {got}[0] is not G.journal or {got}[1] > len(G.journal):",
             f"        return INVG_{i}(G)",
             f"    {grp}, {at} = {got}[2], {got}[3]",
             f"    if {got}[1] < len(G.journal):",
             f"        {keys} = _keys_written(G.journal, {got}[1], {names}, {wholes})",
             f"        if {keys} is None:",
             f"            return INVG_{i}(G)",
             f"        for {q} in {keys}:",
             f"            {v} = {at}.pop({q}, None)",
             f"            if {v} is not None:",
             f"                {grp}[{v}[0]] -= {v}[1]",
             f"            elif {q} not in {domain}:",
             "                continue",
             *_part_lines(g, agg, rest, key, sq, q, k, v, grp, at, "            "),
             f"    {held}[{i}] = (G.journal, len(G.journal), {grp}, {at})",
             *tail]
    g.function(f"INVS_{i}", [], lines)
    return f"INVS_{i}"


def logged_maps(m: Model) -> frozenset[str]:
    """The maps whose entries' writes a traced program logs (`G._ilog`, codegen.write) for the
    grouped invariants' kept sums (`kept by writes`): those an item's part reads as `m[q]`, each
    a map of plain scalars. Worked out before any code is written (the writes come first); a
    map logged whose sums are then not kept costs a test per write, nothing else."""
    out: set[str] = set()
    for inv in m.invariants:
        found = grouped_sum(m, inv.test)
        if found is None:
            continue
        _call, agg, rest, key = found
        maps = keyed_reads(m, agg.var, (*rest, key, *((agg.body,) if agg.body is not None else ())))
        if maps and all(_scalars_map(m.var_types[x]) for x in maps):
            out |= maps
    return frozenset(out)


def _part_lines(g: CodeGen, agg: A.Aggregate, rest: tuple[A.Node, ...], key: A.Node, sq: dict, q: str,
                k: str, v: str, grp: str, at: str | None, ind: str) -> list[str]:
    """The lines that add item `q`'s part to the sums `grp` (and, with `at`, keep it there as
    (its group, its part)): skipped when a `rest` condition fails or its group is not in `D`."""
    lines = []
    if rest:
        lines.append(f"{ind}if not ({' and '.join(f'({g.ex(x, sq)})' for x in rest)}):")
        lines.append(f"{ind}    continue")
    lines.append(f"{ind}{k} = {g.ex(key, sq)}")
    if agg.kind == "count" and agg.body is not None:
        lines.append(f"{ind}if {k} in {grp} and ({g.ex(agg.body, sq)}):")
        value = "1"
    else:
        lines.append(f"{ind}if {k} in {grp}:")
        value = "1" if agg.kind == "count" else g.ex(agg.body, sq)
    if at is None:
        lines.append(f"{ind}    {grp}[{k}] += {value}")
    else:
        lines += [f"{ind}    {v} = {value}", f"{ind}    {grp}[{k}] += {v}", f"{ind}    {at}[{q}] = ({k}, {v})"]
    return lines


def _kept_maps(g: CodeGen, agg: A.Aggregate, rest: tuple[A.Node, ...], key: A.Node) -> tuple[frozenset[str], str] | None:
    """(The maps an item's part reads, the domain's items as a constant set) when the sums can
    be kept from one check to the next and brought up to date at the keys written since: every
    read of state in the item's part is `m[q]` of a map of plain scalars (reads.keyed_reads: a
    write at another key leaves it as it was, and the journal names every key written), the
    domain is a constant of distinct items (each counted once), and a sum's values are
    integers (added and taken off again exactly). None otherwise, or with `KEPT_SUMS` off."""
    if not g.KEPT_SUMS or not g.record:
        return None
    parts = (*rest, key, *((agg.body,) if agg.body is not None else ()))
    maps = keyed_reads(g.m, agg.var, parts)
    if not maps or not all(_scalars_map(g.m.var_types[m]) for m in maps):
        return None
    if agg.kind == "sum" and g.m.type_of(agg.body).base != INT:
        return None
    fixed = g.constants.get(g.ex(agg.domain, {}))
    if type(fixed) not in (tuple, list) or not all(type(x) in (str, int) for x in fixed) or len(set(fixed)) != len(fixed):
        return None
    return maps, g.const(frozenset(fixed), "S")


def _scalar(t: Type) -> bool:
    """An int, bool, text or name (none allowed): never a container written into."""
    return isinstance(t.base, (Simple, Elem))


def _scalars_map(t: Type) -> bool:
    """A map of plain scalars: every write of it is of one entry or of the whole map (a map of
    lists can have an entry's list written at an index, a path the journal files deeper)."""
    return isinstance(t.base, MapOf) and _scalar(t.base.val)
