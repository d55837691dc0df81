"""Which state variables an expression reads, through the definitions it calls.

A traced game checks the ruleset's invariants after every step. An invariant that reads none of
the variables the step wrote (the journal says which) still holds, so only the others are
checked again: Shogun's cube count need not be redone after a move that changed no cubes.

The answer is an over-approximation: every state variable named anywhere in the expression or
in a definition it calls (even where a local of the same name hides it). It is None, "check
always", when the value can depend on anything else that changes in a game: `current`,
`round`, `current_phase`, a device, or a library function that reads the game or draws chance.
"""

from __future__ import annotations

from ...dsl import ast as A
from ...dsl.check import Model
from ...dsl.types import SetOf
from ..stdlib.library import LIBRARY

DYNAMIC_NAMES = frozenset({"current", "round", "current_phase"})  # game fields, not state variables


def state_reads(m: Model, expr: A.Node) -> frozenset[str] | None:
    """The state variables `expr` may read, or None when it may read more than state."""
    seen: dict[str, frozenset[str] | None] = {}

    def of_define(name: str) -> frozenset[str] | None:
        if name in seen:
            return seen[name]
        seen[name] = None  # a definition reached again while being read: assume the worst
        seen[name] = walk(m.defines[name].value)
        return seen[name]

    def walk(e: A.Node) -> frozenset[str] | None:
        out: set[str] = set()
        for n in A.iter_nodes(e):
            if isinstance(n, A.Name):
                if n.name in DYNAMIC_NAMES:
                    return None
                if n.name in m.vars:
                    out.add(n.name)
            elif isinstance(n, A.Call):
                if n.func in m.defines:
                    inner = of_define(n.func)
                    if inner is None:
                        return None
                    out |= inner
                elif n.func in m.devices or n.func not in LIBRARY or LIBRARY[n.func].kind in ("chance", "game"):
                    return None
        return frozenset(out)

    return walk(expr)


def trigger_watch(m: Model) -> dict[str, tuple[int, ...]]:
    """For each state variable, the triggers whose conditions read it (through the definitions
    they call), in declaration order: generated code tests those right after a statement that
    writes it. `current`, `round` and `current_phase` change only where the flow moves on, and
    every condition is tested at each decision point anyway, so they are left out here; a
    condition that asks `possible(...)` may read anything and watches every variable."""
    seen: dict[str, frozenset[str] | None] = {}

    def of_define(name: str) -> frozenset[str] | None:
        if name not in seen:
            seen[name] = frozenset()  # a definition reached again while being read
            seen[name] = walk(m.defines[name].value)
        return seen[name]

    def walk(e: A.Node) -> frozenset[str] | None:
        out: set[str] = set()
        for n in A.iter_nodes(e):
            if isinstance(n, A.Name) and n.name in m.vars:
                out.add(n.name)
            elif isinstance(n, A.Call):
                if n.func in m.defines:
                    inner = of_define(n.func)
                    if inner is None:
                        return None
                    out |= inner
                elif n.func == "possible":
                    return None
        return frozenset(out)

    watch: dict[str, list[int]] = {}
    for i, t in enumerate(m.triggers):
        read = walk(t.test)
        for name in (m.vars if read is None else sorted(read)):
            watch.setdefault(name, []).append(i)
    return {name: tuple(ids) for name, ids in watch.items()}


def pointwise_reads(m: Model, test: A.Node) -> frozenset[str] | None:
    """For an invariant `all x in D [where W]: B` whose every read of state is `v[x]` (a state
    map indexed by the quantified variable itself) or `x in s` (`not in`; a state set, whose
    entry for `x` is whether it holds `x`: Khan's `s in neutral`), over a domain `D` that reads no
    state: the maps and sets it reads. Whether it holds after a step that wrote some entries of those maps is then
    a matter of those entries alone (it held before): `Game.check_invariants` tests `W → B` for
    each written key instead of the whole loop (`INVP_n`). None for any other invariant."""
    if not (isinstance(test, A.Aggregate) and test.kind == "all" and test.body is not None):
        return None
    if state_reads(m, test.domain) != frozenset():
        return None
    maps = keyed_reads(m, test.var, (test.body,) if test.where is None else (test.where, test.body))
    return maps or None


def keyed_reads(m: Model, x: str, parts: tuple[A.Node, ...]) -> frozenset[str] | None:
    """The state maps and sets that `parts` read, when their every read of state is `v[x]` or
    `x in s` (`x` a name bound outside them): their value for one `x` then depends on those
    entries alone. None when they read state any other way (or `current`, `round`, chance)."""
    if x in m.vars or x in DYNAMIC_NAMES:
        return None
    keyed: set[int] = set()  # the Name nodes read as `v[x]`
    maps: set[str] = set()
    for n in A.iter_nodes(parts):
        if isinstance(n, A.Index) and isinstance(n.base, A.Name) and n.base.name in m.vars \
                and isinstance(n.key, A.Name) and n.key.name == x:
            keyed.add(id(n.base))
            maps.add(n.base.name)
        elif isinstance(n, A.Compare) and n.op in ("in", "not in") and isinstance(n.left, A.Name) \
                and n.left.name == x and isinstance(n.right, A.Name) and n.right.name in m.vars \
                and isinstance(m.var_types[n.right.name].base, SetOf):
            keyed.add(id(n.right))  # `x in s`, s a set: its entry for x (recording.member_keys)
            maps.add(n.right.name)
        elif isinstance(n, (A.Aggregate, A.LetExpr)) and (n.var if isinstance(n, A.Aggregate) else n.name) == x:
            return None  # `x` bound again inside: `v[x]` there is another key
    for n in A.iter_nodes(parts):
        if isinstance(n, A.Name) and (n.name in DYNAMIC_NAMES or (n.name in m.vars and id(n) not in keyed)):
            return None
        if isinstance(n, A.Call) and state_reads(m, n) != frozenset() and not _reads_only_keyed(m, n, keyed):
            return None
    return frozenset(maps)


def _reads_only_keyed(m: Model, call: A.Call, keyed: set[int]) -> bool:
    """Whether a call's only reads of state are its arguments' `v[x]` (the function itself reads
    none): its arguments are walked with the rest of the expression."""
    if call.func in m.defines:
        d = m.defines[call.func]
        return state_reads(m, d.value) == frozenset()
    if call.func in m.devices or call.func not in LIBRARY or LIBRARY[call.func].kind in ("chance", "game"):
        return False
    return True

