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
from ..stdlib.library import LIBRARY

_DYNAMIC_NAMES = frozenset({"current", "round", "current_phase"})  # game fields, not state variables


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
                if n.name in _DYNAMIC_NAMES:
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
