"""Faster tests of invariants, for traced games, which check them after every step.

The messages of a broken invariant always come from its own test (`INV_n`); these only decide
faster whether one holds, and give the same answer:

- `INVP_n(G, key)`: an invariant `all x in D: ...` that reads state only as `m[x]`
  (reads.pointwise_reads), at one key a step wrote;
- `INVG_n(G)`: an invariant `all c in D: ... f(c) ...` where `f(p)` is `sum|count q in E where
  ... and F == p: B` (Shogun's cubes: `on_board(c)` sums the armies of the provinces whose
  owner has colour `c`), with those sums worked out in one pass over `E` grouped by `F`, instead
  of one pass per `c`.
"""

from __future__ import annotations

from ...dsl import ast as A
from ...dsl.check import Model
from ...dsl.types import ListOf, MapOf, Record
from .codegen import CodeGen
from .reads import state_reads

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


def grouped_test(g: CodeGen, i: int, test: A.Aggregate, found: GroupedSum) -> bool:
    """`INVG_i(G)`: invariant `i` with the sums `grouped_sum` found worked out in one pass: a
    dict from each element of `D` to its sum, then the `all` over `D` reading it. Whether it
    was written (both domains bounded by the ruleset: no work budget to charge)."""
    call, agg, rest, key = found
    if not (g.bounded(test.domain, {}) and g.bounded(agg.domain, {})):
        return False
    grp, q, k, c = g.fresh("grp"), g.fresh("q"), g.fresh("k"), g.fresh("c")
    sq = {agg.var: (q, None)}
    outer = g.seq(g.ex(test.domain, {}), test.domain, {})
    lines = [f"    {grp} = dict.fromkeys({outer}, 0)",
             f"    for {q} in {g.seq(g.ex(agg.domain, {}), agg.domain, {})}:"]
    ind = "        "
    if rest:
        lines.append(f"{ind}if not ({' and '.join(f'({g.ex(x, sq)})' for x in rest)}):")
        lines.append(f"{ind}    continue")
    lines.append(f"{ind}{k} = {g.ex(key, sq)}")
    if agg.kind == "count" and agg.body is not None:
        lines.append(f"{ind}if {k} in {grp} and ({g.ex(agg.body, sq)}):")
        lines.append(f"{ind}    {grp}[{k}] += 1")
    else:
        lines.append(f"{ind}if {k} in {grp}:")
        lines.append(f"{ind}    {grp}[{k}] += {'1' if agg.kind == 'count' else g.ex(agg.body, sq)}")
    g.subst[id(call)] = f"{grp}[{c}]"
    try:
        body = g.ex(test.body, {test.var: (c, None)})
    finally:
        del g.subst[id(call)]
    lines += [f"    for {c} in {outer}:", f"        if not ({body}):", "            return False",
              "    return True"]
    g.function(f"INVG_{i}", [], lines)
    return True
