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
from ...dsl.printer import expr_text
from .hoist import names, occurrences, worth_hoisting
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
    if g.SLOTS_FLATTENED:
        flat = _flattened(g, parts, slot, item)
        if len(flat) != len(parts):
            g.chose("slots flattened", expr_text(where))
        parts = flat
    lead: list[tuple[A.Node, Scoper]] = []
    for x, scoper, reads in parts:
        if reads or not cannot_fail(g.m, x) or _loops(g, x, frozenset()):
            break
        lead.append((x, scoper))
    rest = [(x, scoper) for x, scoper, _r in parts[len(lead):]]
    if not lead or not rest:
        return None
    return SlotSplit(inner, lead, rest)


def _flattened(g: CodeGen, parts: list[tuple[A.Node, Scoper, bool]], slot: str,
               item: str) -> list[tuple[A.Node, Scoper, bool]]:
    """The parts with each call of a small definition whose body is an `and`, called with
    plain names, written as that body's parts (`and` is associative: the same tests in the same
    order, each where the `and` stopped before): Root's `supports(k, c) = duchy_at(c) and
    matches(k, c)`, `matches(k, c) = SUIT[c] != none and (...)`, whose `SUIT[c] != none` reads
    nothing of the card and so joins the slots' own filter."""
    out: list[tuple[A.Node, Scoper, bool]] = []
    for x, scoper, reads in parts:
        d = g.m.defines.get(x.func) if isinstance(x, A.Call) else None
        if not (reads and d is not None and x.func in g.inlinable and x.func not in g.remembered_defines
                and all(isinstance(a, A.Name) for a in x.args)
                and isinstance(d.value, A.BoolOp) and d.value.op == "and"):
            out.append((x, scoper, reads))
            continue
        probe = scoper("_slot", {item: ("_item", None)})  # which of its arguments are the item
        reading = {p.name for p, a in zip(d.params, x.args, strict=True) if probe.get(a.name, ("_item",))[0] == "_item"}

        def inner(code: str, s: dict, x: A.Call = x, d: A.Define = d, scoper: Scoper = scoper) -> dict:
            outer = scoper(code, s)
            return {p.name: outer[a.name] for p, a in zip(d.params, x.args, strict=True) if a.name in outer}
        out += _flattened(g, [(y, inner, bool(reading & names(y))) for y in d.value.items], slot, item)
    return out


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
    """The code of one item's list (`sc` binds the item): the kept slots that pass the rest.
    With `SLOTS_FLATTENED`, the look-ups and calls of the rest that read nothing of the slot,
    cannot fail and hold no loop are worked out once per item by a first `for` over a one-item
    tuple, as a fixed part of a comprehension is (`CARDS[k].suit` per card, not per clearing)."""
    inner = split.inner
    v = g.fresh("a")
    fixed = _fixed_parts(g, split, sc) if g.SLOTS_FLATTENED else []
    for node, local, _code in fixed:
        g.subst[id(node)] = local
    try:
        test = " and ".join(f"({g.ex(x, scoper(v, sc))})" for x, scoper in split.rest)
    finally:
        for node, _local, _code in fixed:
            g.subst.pop(id(node), None)
    body = g.ex(inner.body, {**sc, inner.var: (v, None)}) if inner.body is not None else v
    once = dict((x, c) for _n, x, c in fixed)  # each local once
    head = f" for ({', '.join(once)},) in (({', '.join(once.values())},),)" if once else ""
    return f"[{body}{head} for {v} in {kept} if {test}]"


def _scoped(g: CodeGen, n: A.Node, scope: dict) -> bool:
    """Whether every name `n` reads is in `scope` or one of the rules' own (a constant, data,
    an option, a state variable, a board or a named value): then its code can be written."""
    m = g.m
    return all(name in scope or name in m.vars or name in m.data or name in m.consts or name in m.options
               or name in g.elements or name in m.element_type for name in names(n))


def _fixed_parts(g: CodeGen, split: SlotSplit, sc: dict) -> list[tuple[A.Node, str, str]]:
    """The outermost look-ups and calls in the rest's parts that read none of the slot's names
    (nor a name an aggregate in them binds), cannot fail and hold no loop: (node, local, code)."""
    found: list[tuple[A.Node, str, str]] = []
    for x, scoper in split.rest:
        probe = scoper("_slot", {**sc})
        slots = {name for name, (code, _b) in probe.items() if code == "_slot"}
        scope = scoper("_slot", sc)
        inside: set[int] = set()
        for n, bound in occurrences(x, frozenset(slots)):
            if id(n) in inside or not worth_hoisting(n) or names(n) & bound or not _scoped(g, n, scope) \
                    or id(n) in g.subst or not cannot_fail(g.m, n) or _loops(g, n, frozenset()):
                continue
            code = g.ex(n, scope)
            if code.isidentifier():
                continue
            inside.update(id(y) for y, _b in occurrences(n))
            same = next((local for _m, local, c in found if c == code), None)  # the same look-up again
            found.append((n, same or g.fresh("fx"), code))
            if same is None:
                g.chose("fixed part", f"{expr_text(n)} in {expr_text(split.inner)}")
    return found
