"""Per-item requires pushed into a domain of collections drawn from a set (issue 27).

Khan's `conquer(t in sorted(supply), area in placements(TILES[t].shape, layable(t)))` tests
`not (any s in area: ruler_on(s))` and `all s in area: yurt[s] != none or ...` on every
placement, cell by cell. Every element of `placements(shape, R)` is a list of squares of `R`,
so a placement passes both exactly when all its squares are in `[s in R where C(s)]`: the
listing asks `placements(shape, that list)` and skips those requires for the moves it lists.
The order of the moves is the same (placements keep the table's order whatever the allowed
squares). Only a leading run of such requires at the parameter's depth is taken, so no other
precondition is skipped for a binding it would have been tried on; the filtered list is
worked out once per key of what it reads (memo.level_key), and if working it out fails (a
square of `R` that no placement covers can make `C` fail), the listing falls back to the
requires as written. The check and explain functions keep every require.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...dsl import ast as A
from .hoist import names

# library function -> the argument every element's items are drawn from
SUBSET_DOMAINS = {"placements": 1}


@dataclass
class Pushed:
    """The requires of one parameter taken into its domain."""

    source: A.Node  # the argument the domain's items are drawn from (`layable(t)`)
    items: list[A.RequireStmt]  # the requires taken, in order
    conds: list[tuple[str, A.Node, bool]]  # per require: its variable, `C`, and the value of C that keeps an item


def per_item(s: A.Node, param: str) -> tuple[str, A.Node, bool] | None:
    """`require all x in P: C` or `require not (any x in P: C)`, with `C` not reading `P`:
    (x, C, the value of C that keeps an item). None for any other precondition. `names` sees
    every name read, also below a `let` (A.LetExpr) or an aggregate that binds one anew, so a
    `C` that binds `P`'s name itself is not taken either (no scope is needed to be safe)."""
    if not isinstance(s, A.RequireStmt):
        return None
    e, keep = s.test, True
    if isinstance(e, A.Not):
        e, keep = e.operand, False
    if not (isinstance(e, A.Aggregate) and e.kind == ("all" if keep else "any") and e.where is None
            and e.body is not None and isinstance(e.domain, A.Name) and e.domain.name == param
            and e.var != param and param not in names(e.body)):
        return None
    return e.var, e.body, keep


def pushable(defines: dict, p: A.Param, items: list) -> Pushed | None:
    """The leading requires of `items` (the preconditions tested at `p`'s depth) that can be
    pushed into `p`'s domain, when that is a library call whose elements are collections of
    one argument's items. None when there are none."""
    d = p.domain
    if not (isinstance(d, A.Call) and d.func in SUBSET_DOMAINS and d.func not in defines
            and len(d.args) > SUBSET_DOMAINS[d.func]):
        return None
    taken, conds = [], []
    for s in items:
        c = per_item(s, p.name)
        if c is None:
            break
        taken.append(s)
        conds.append(c)
    if not taken:
        return None
    return Pushed(d.args[SUBSET_DOMAINS[d.func]], taken, conds)


def reads(push: Pushed) -> set[str]:
    """The names the filtered list reads (the source and every condition, without their
    own variables)."""
    found = names(push.source)
    for var, cond, _keep in push.conds:
        found |= names(cond) - {var}
    return found
