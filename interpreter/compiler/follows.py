"""Where an action's listing after one of its own moves is the listing before it, with only the
move just played tested again (`listing follows the move`: machine.py `fused_apply`, and a
block's listing after a move it picked itself in a playout, `pick_in_place`).

Tic-tac-toe's `place(s)` requires `cell[s] == none` and its effect writes `cell[s]`: a move
changes no other square's test, so the moves offered next are the ones offered before, less the
square just taken. Listing them again walks nine squares a move; the fused apply (or the block,
after a pick) instead copies the list the move came from and drops the move when its own test
now fails. Connect four's
`drop(col)` reads a whole column through `lowest_free(col)`; that is carry.py's kept listing,
with its write log. This is the case the kept listing leaves out (`carry.kept_listing`: a test
that reads only the value's own entries), where knowing the writes statically costs nothing at
run time.

It holds when the action has one parameter over a domain that reads no state; every leading
`require` and `let` depends on that parameter and they read state only as `v[x]` (`reads.keyed_reads`:
no `current`, no set, no chance); and its effect writes those maps only at the parameter's own
entry (`set v[x] = ...`, `v[x].f`, ...), never the whole map, and runs no other rule (no `do`,
decision, turn or phase). What runs between the move and the next listing besides the effect
(triggers, hooks, other flow) is the caller's to rule out (`MachineBuilder.fuses`).
"""

from __future__ import annotations

from ...dsl import ast as A
from ...dsl.check import Model
from .blocks import action_preconditions, names_in
from .reads import keyed_reads, state_reads

_RUNS_RULES = (A.DoStmt, A.PlayStmt, A.ChooseStmt, A.TurnStmt, A.PhaseStmt, A.GotoStmt, A.SimultaneousStmt)


def listing_follows(m: Model, a: A.ActionDecl) -> bool:
    """Whether the listing of `a` after a move of `a` is the listing before it with only the
    move played tested again (see above)."""
    if len(a.params) != 1:
        return False
    p = a.params[0]
    x = p.name
    if p.domain is not None and state_reads(m, p.domain) != frozenset():
        return False
    pre, rest = action_preconditions(a, m)
    if not any(isinstance(s, A.RequireStmt) for s in pre) or not _all_on_parameter(pre, x):
        return False
    reads = keyed_reads(m, x, tuple(pre))
    if reads is None:
        return False
    for n in A.iter_nodes(tuple(a.body)):
        if isinstance(n, _RUNS_RULES):
            return False
        bound = n.name if isinstance(n, (A.LetStmt, A.LetExpr)) else n.var if isinstance(n, (A.ForStmt, A.Aggregate)) else None
        if bound == x:  # the parameter's name bound anew: `v[x]` below it is another entry
            return False
    for n in A.iter_nodes(tuple(rest)):
        if isinstance(n, A.Target) and n.root in reads:
            first = n.steps[0] if n.steps else None
            if not (isinstance(first, A.Name) and first.name == x):
                return False
    return True


def _all_on_parameter(pre: list[A.Node], x: str) -> bool:
    """Every precondition depends on the parameter, directly or through a `let` that does:
    none is worked out once for the whole listing (a traced listing keeps those for explain)."""
    on = {x}
    for s in pre:
        if not (names_in(s) & on):
            return False
        if isinstance(s, A.LetStmt):
            on.add(s.name)
    return True
