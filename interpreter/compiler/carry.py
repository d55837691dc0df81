"""Which definitions a game carries from one decision to the next, and which writes
they must hear of.

A listing's memo (memo.py) lives for one enumeration. Khan's `layable(t)` (`list s in Land
where yurt[s] != none or s in neutral or ...`) scans 144 squares twice at every decision, about
a seventh of a random game, while a move writes a few squares. A definition whose body is
`list x in T where W`, `T` a board or an enumeration (distinct values, fixed), and whose `W`
reads state only as `v[x]` or `x in s` (reads.keyed_reads), changes only at the keys written
since: the game keeps its value per memo key (memo.memo_keys: what it reads of each argument)
and, when asked again, tests `W` again at those keys alone (engine/carried.py). Generated
code, traced or not, notes each write of a variable such a `W` reads (`G._wlog`), only while a value
is kept; whatever changes the state outside the rules (`Game.invalidate`, a clone, undo, a
restore, a save loaded) forgets every kept value (`Game._forget_carried`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...dsl import ast as A
from ...dsl.check import Model
from .memo import MemoKey, memo_keys
from .reads import keyed_reads, state_reads


@dataclass(frozen=True)
class Carried:
    """A definition `list var in domain where test` carried across decisions."""

    var: str
    domain: str  # the board or enumeration walked
    test: A.Node
    reads: frozenset[str]  # the state maps and sets `test` reads at `var`
    key: MemoKey


def carried_lists(m: Model) -> dict[str, Carried]:
    """Definition name -> how it is carried, for the definitions that qualify (see above)."""
    keys = memo_keys(m)
    out: dict[str, Carried] = {}
    for name, d in m.defines.items():
        e = d.value  # a body under a `let` (A.LetExpr) is not carried; one inside W binding the
        # item's name anew makes keyed_reads refuse it
        if name not in keys or not isinstance(e, A.Aggregate) or e.kind != "list" or e.where is None:
            continue
        if e.body is not None and not (isinstance(e.body, A.Name) and e.body.name == e.var):
            continue  # `list x in T where W: f(x)`: not the items themselves
        if not (isinstance(e.domain, A.Name) and (e.domain.name in m.boards or e.domain.name in m.enums)):
            continue
        if state_reads(m, e.domain) != frozenset() or e.var in {p.name for p in d.params}:
            continue
        reads = keyed_reads(m, e.var, (e.where,))
        if reads:  # none: a state-free definition, remembered for the program's life instead
            out[name] = Carried(e.var, e.domain.name, e.where, reads, keys[name])
    return out
