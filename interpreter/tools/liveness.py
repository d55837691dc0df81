"""State that cannot change what happens next: a variable the rules only ever write, or read
only to write that same variable again (`set won = won + [Ann]`, `add 1 to moves` when nothing
else reads `moves`).

Such a variable is history, not position: two positions that differ only in it play out the
same from there on, with the same legal moves, chances, winners and scores. Exact analysis
(`analysis.expected_outcome`) leaves these variables out of its position key, so a game that
keeps a record of past rounds (Goofspiel's `won`) is still worked out position by position.

The test is syntactic and conservative: any other read of the variable anywhere in the rules
(a condition, a definition, another variable's value, a `let`, the scoring, an invariant, a
`reveal`, the source of a `draw` or `move`, a `remove`, a write through a key or index) keeps
it in. Displays and visibility declarations
are not rules and do not count; nor does the work a write costs (the work budget guards
against runaway rules, it is not a rule).
"""

from __future__ import annotations

from collections import Counter

from ...dsl import ast as A
from ...dsl.ast import iter_nodes
from ...dsl.check import Model

# writes that never fail whatever the variable holds, when they replace or extend it whole
# (`remove` fails on a missing item, and a write through a key or index reads the structure)
_SELF_WRITES = (A.SetStmt, A.AddStmt, A.ClearStmt, A.ShuffleStmt)


def rule_parts(m: Model) -> list[A.Node]:
    """Every part of the rules that runs or decides: not displays, scenarios or visibility."""
    parts: list[A.Node] = [*m.defines.values(), *m.actions.values(), *m.procedures.values(),
                           *m.triggers, *m.hooks, *m.devices.values(), *m.invariants]
    parts += [v.default for v in m.vars.values() if v.default is not None]
    if m.flow is not None:
        parts.append(m.flow)
    if m.scoring is not None:
        parts.append(m.scoring)
    return parts


def history_only_vars(m: Model) -> frozenset[str]:
    """The state variables whose value can never change what happens next (module docstring)."""
    reads: Counter[str] = Counter()  # every Name of a state variable in the rules
    own: Counter[str] = Counter()  # those inside a write of the same variable
    shadowed: set[str] = set()  # a parameter or local of the same name: assume the worst
    for part in rule_parts(m):
        for n in iter_nodes(part):
            if isinstance(n, A.Name) and n.name in m.vars:
                reads[n.name] += 1
            elif isinstance(n, (A.LetStmt, A.LetExpr, A.Param)) and n.name in m.vars:
                shadowed.add(n.name)
            elif isinstance(n, A.RemoveStmt) or (isinstance(n, _SELF_WRITES) and n.target.steps):
                reads[n.target.root] += 1  # it may fail on what the variable holds
            elif isinstance(n, (A.MoveStmt, A.DrawStmt)):
                reads[n.source.root] += 1  # the source's content flows on, and may run out
                if n.dest.steps:
                    reads[n.dest.root] += 1
            if isinstance(n, _SELF_WRITES) and not n.target.steps:
                root = n.target.root
                own[root] += sum(1 for x in iter_nodes(n) if isinstance(x, A.Name) and x.name == root)
    return frozenset(v for v in m.vars if v not in shadowed and reads[v] == own[v])
