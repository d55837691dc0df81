"""Sentence-like forms built from the language's constructs (the parser calls `build_*`, the
printer `*_text`), so a designer can hold a hard rule against its sentence while the standard
library does the work underneath:

- `count k in ITEMS one per c in SLOTS where FITS` is `matching_size(list k in ITEMS: (list c in
  SLOTS where FITS))`: "each such clearing allows one matching card" (Root, Sway II);
- `choose N of k in ITEMS one per c in SLOTS where FITS ["prompt"]` + body: reveal N cards one at
  a time, each keeping a clearing of its own for every card chosen so far, so the choices never
  dead-end; the body runs for each card chosen;
- `if let p = E` + body: "if there is one": `if E != none` whose body starts with `let p = E`, so
  the body uses p as a value (the checker's narrowing, dsl/check_narrow.py, sees E tested);
- `for m in ITEMS chosen [optional] [by P] ["prompt"]` + body: "take each swayed minister's action
  once, in any order": the player picks the next item each time (`choose(none)` stops early when
  `optional`).

The forms need no engine support: they are the constructs the docstrings above name (a local
`__chosen_k` or `__left_m` holds what is picked so far), so checking, tracing, saving and
`explain` work as for hand-written rules. docs/language.md §6.5b has the details.
"""

from __future__ import annotations

from . import ast as A

MATCHING = "matching_size"


# ---------------------------------------------------------------------- count ... one per
def build_count_one_per(span: A.Span, var: str, items: A.Node, slot: str, slots: A.Node,
                        fits: A.Node) -> A.CountOnePer:
    options = A.Aggregate(span, "list", slot, slots, fits, None)
    return A.CountOnePer(span, MATCHING, (A.Aggregate(span, "list", var, items, None, options),))


def count_one_per_parts(e: A.CountOnePer) -> tuple[str, A.Node, str, A.Node, A.Node]:
    """(var, items, slot, slots, fits) of a `count ... one per` expression."""
    (outer,) = e.args
    inner = outer.body
    return outer.var, outer.domain, inner.var, inner.domain, inner.where


def count_one_per_text(e: A.CountOnePer, text, wrap) -> str:
    var, items, slot, slots, fits = count_one_per_parts(e)
    return f"count {var} in {wrap(items, 1)} one per {slot} in {wrap(slots, 1)} where {wrap(fits, 1)}"


# ---------------------------------------------------------------------- choose N of ... one per
def build_choose_one_per(span: A.Span, n: A.Node, var: str, items: A.Node, slot: str, slots: A.Node,
                         fits: A.Node, by: A.Node | None, prompt: str | None,
                         body: tuple[A.Node, ...]) -> A.ChooseOnePer:
    chosen = f"__chosen_{var}"
    so_far = A.Name(span, chosen)
    with_it = A.BinOp(span, "+", so_far, A.ListLit(span, (A.Name(span, var),)))
    still = A.Compare(span, "==", build_count_one_per(span, var, with_it, slot, slots, fits),
                      A.BinOp(span, "+", A.Call(span, "len", (so_far,)), A.IntLit(span, 1)))
    new = A.Compare(span, "not in", A.Name(span, var), so_far)
    pick = A.ChooseStmt(span, var, items, A.BoolOp(span, "and", (new, still)), by, prompt)
    loop = A.RepeatStmt(span, n, (pick, A.LetStmt(span, chosen, with_it), *body))
    block = (A.LetStmt(span, chosen, A.ListLit(span, ())), loop)
    return A.ChooseOnePer(span, ((A.BoolLit(span, True), block),), ())


def choose_one_per_parts(s: A.ChooseOnePer) -> tuple:
    """(n, var, items, slot, slots, fits, by, prompt, body) of a `choose N of ... one per`."""
    _let, loop = s.branches[0][1]
    pick, _grow, *body = loop.body
    _new, still = pick.where.items
    _v, _items, slot, slots, fits = count_one_per_parts(still.left)
    return loop.times, pick.name, pick.domain, slot, slots, fits, pick.by, pick.prompt, tuple(body)


# ---------------------------------------------------------------------- for ... chosen
def build_for_chosen(span: A.Span, var: str, items: A.Node, optional: bool, by: A.Node | None,
                     prompt: str | None, body: tuple[A.Node, ...]) -> A.ForChosen:
    """The items of ITEMS when the loop starts, each offered once, and only while it is still
    in ITEMS when the player picks (a minister sent back meanwhile is not offered again): the
    loop ends when none of them is left."""
    left = f"__left_{var}"
    item = f"__item_{var}"
    rest = A.Name(span, left)
    still = A.Aggregate(span, "list", item, rest, A.Compare(span, "in", A.Name(span, item), items), None)
    offered: A.Node = still
    if optional:  # `none`: the player stops
        offered = A.BinOp(span, "+", still, A.ListLit(span, (A.NoneLit(span),)))
    pick = A.ChooseStmt(span, var, offered, None, by, prompt)
    stop = (A.IfStmt(span, ((A.Compare(span, "==", A.Name(span, var), A.NoneLit(span)),
                             (A.BreakStmt(span),)),), ()),) if optional else ()
    drop = A.LetStmt(span, left, A.Aggregate(span, "list", item, rest,
                                              A.Compare(span, "!=", A.Name(span, item),
                                                        A.Name(span, var)), None))
    loop = A.WhileStmt(span, A.Compare(span, "!=", still, A.ListLit(span, ())),
                       (pick, *stop, drop, *body))
    start = A.LetStmt(span, left, A.Aggregate(span, "list", item, items, None, None))
    return A.ForChosen(span, ((A.BoolLit(span, True), (start, loop)),), ())


def for_chosen_parts(s: A.ForChosen) -> tuple:
    """(var, items, optional, by, prompt, body) of a `for ... chosen`."""
    start, loop = s.branches[0][1]
    pick = loop.body[0]
    optional = isinstance(pick.domain, A.BinOp)
    body = loop.body[(3 if optional else 2):]
    return pick.name, start.value.domain, optional, pick.by, pick.prompt, tuple(body)


# ---------------------------------------------------------------------- if let
def build_if_let(span: A.Span, name: str, value: A.Node, body: tuple[A.Node, ...],
                 elifs: tuple, orelse: tuple[A.Node, ...]) -> A.IfLet:
    test = A.Compare(value.span, "!=", value, A.NoneLit(value.span))
    bound = A.LetStmt(value.span, name, value)
    return A.IfLet(span, ((test, (bound, *body)), *elifs), orelse)


def if_let_parts(s: A.IfLet) -> tuple:
    """(name, value, body, elifs, orelse) of an `if let`."""
    (test, (bound, *body)), *elifs = s.branches
    return bound.name, test.left, tuple(body), tuple(elifs), s.orelse
