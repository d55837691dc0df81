"""Slots filtered once (issue 27; `CodeGen.SLOTS_FILTERED`, choice `slots filtered once`).

`count k in ITEMS one per c in SLOTS where FITS` is `matching_size(list k in ITEMS: (list c in
SLOTS where FITS))`: each item's list of the slots it fits. Root's Sway asks it with `FITS =
supports(k, c) = duchy_at(c) and matches(k, c)`, and `duchy_at(c)` — a Duchy piece in the
clearing — reads nothing of the card, yet was worked out for every clearing once per card in
hand, for the Sway listing and for every candidate of `reveal_cards`' choice.

Here the leading parts of FITS that read nothing of the item (an `and` written in the filter,
or the `and` body of a small definition it calls with plain names) filter SLOTS once, into a
list that each item's own list then walks with the other parts. The same slots, in the same
order, for every item: the filter keeps SLOTS' order, and each item tests its parts on exactly
the slots that passed the first ones, as the `and` did. The parts taken out must be ones that
cannot fail (`total.cannot_fail`) and hold no loop, so working them out once more or once less
(ITEMS empty) is invisible: no error and no work charged moves; SLOTS must be bounded (never
charged) and read nothing of the item."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...dsl import ast as A
from ...dsl.ast import iter_nodes
from .hoist import names
from .total import cannot_fail

if TYPE_CHECKING:
    from .codegen import CodeGen

# a part of the filter and the scope it is written in, given the code of the slot and the
# scope that binds the item
Scoper = Callable[[str, dict], dict]


@dataclass
class SlotSplit:
    """The filter of `list c in SLOTS where FITS` inside a loop over an item, split in two."""

    inner: A.Aggregate
    lead: list[tuple[A.Node, Scoper]]  # read nothing of the item: worked out once per slot
    rest: list[tuple[A.Node, Scoper]]  # the parts that read it, per item, on the kept slots


def split_slots(g: CodeGen, inner: A.Node, item: str, sc: dict) -> SlotSplit | None:
    """`inner`'s filter split into the parts that read nothing of the loop variable `item` and
    the rest, when the split is sound (see the module); else None. `sc` binds neither. A part
    reads the item when any name in it is the item's (`hoist.names`, which takes in the names
    a definition's `let`, A.LetExpr, binds): a `let` of the same name keeps the part per item."""
    if not (isinstance(inner, A.Aggregate) and inner.kind == "list" and inner.where is not None
            and inner.var != item and item not in names(inner.domain) and g.bounded(inner.domain, sc)):
        return None
    if any(id(n) in g.subst for n in iter_nodes(inner)):
        return None
    where, slot = inner.where, inner.var
    parts: list[tuple[A.Node, Scoper, bool]] = []
    if isinstance(where, A.BoolOp) and where.op == "and":
        def local(code: str, s: dict) -> dict:
            return {**s, slot: (code, None)}
        parts = [(x, local, item in names(x)) for x in where.items]
    elif isinstance(where, A.Call) and where.func in g.inlinable and where.func not in g.remembered_defines \
            and all(isinstance(a, A.Name) for a in where.args):
        d = g.m.defines[where.func]
        body = d.value
        if not (isinstance(body, A.BoolOp) and body.op == "and"):
            return None
        reads_item = {p.name for p, a in zip(d.params, where.args, strict=True) if a.name == item}

        def params(code: str, s: dict) -> dict:  # the definition's body sees its parameters only
            out = {}
            for p, a in zip(d.params, where.args, strict=True):
                if a.name == slot:
                    out[p.name] = (code, None)
                elif a.name != item or item in s:  # the leading parts never read the item's
                    out[p.name] = (g.ex(a, s), s[a.name][1] if a.name in s else None)
            return out
        parts = [(x, params, bool(reads_item & names(x))) for x in body.items]
    else:
        return None
    lead: list[tuple[A.Node, Scoper]] = []
    for x, scoper, reads in parts:
        if reads or not cannot_fail(g.m, x) or _loops(g, x, frozenset()):
            break
        lead.append((x, scoper))
    rest = [(x, scoper) for x, scoper, _r in parts[len(lead):]]
    if not lead or not rest:
        return None
    return SlotSplit(inner, lead, rest)


def _loops(g: CodeGen, e: A.Node, seen: frozenset[str]) -> bool:
    """Whether `e`, or a definition it calls, holds an aggregate (which may loop and charge)."""
    for n in iter_nodes(e):
        if isinstance(n, A.Aggregate):
            return True
        if isinstance(n, A.Call) and n.func in g.m.defines and n.func not in seen:
            if _loops(g, g.m.defines[n.func].value, seen | {n.func}):
                return True
    return False


def kept_slots(g: CodeGen, split: SlotSplit, sc: dict) -> str:
    """The code of the slots that pass the leading parts: `[c for c in SLOTS if LEAD]`."""
    inner = split.inner
    v = g.fresh("a")
    dom = g.seq(g.ex(inner.domain, sc), inner.domain, sc)
    test = " and ".join(f"({g.ex(x, scoper(v, sc))})" for x, scoper in split.lead)
    return f"[{v} for {v} in {dom} if {test}]"


def item_slots(g: CodeGen, split: SlotSplit, kept: str, sc: dict) -> str:
    """The code of one item's list (`sc` binds the item): the kept slots that pass the rest."""
    inner = split.inner
    v = g.fresh("a")
    test = " and ".join(f"({g.ex(x, scoper(v, sc))})" for x, scoper in split.rest)
    body = g.ex(inner.body, {**sc, inner.var: (v, None)}) if inner.body is not None else v
    return f"[{body} for {v} in {kept} if {test}]"
