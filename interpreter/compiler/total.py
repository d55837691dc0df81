"""Expressions that cannot fail to evaluate, judged from their types (issue 27).

Why: a listing may skip a precondition for a binding only where that precondition could not
have raised an error there; otherwise the rules' error would be hidden (the listing would
answer where the program without the transform stops with the rule's message). The answer is
conservative: `True` only for literals, names, comparisons, `+` and `-` of whole numbers,
`+` of two lists, lists written out, fields of records, look-ups in a state map (total: an
entry never set reads as its default) or a data table that has every key of its key type,
`and`/`or`/`not`/`if`, the aggregates `any`, `all`, `count`, `list` and `set` over a
collection, `len`, `sorted` of elements, numbers or texts, a graph's `adjacent_nodes` of one of
its nodes, and calls of definitions whose arguments and bodies are such. Anything else
(division, `max`, other library calls, a recursive definition) may fail. The work budget is
not a failure here: skipping work spends less of it.
"""

from __future__ import annotations

from ...dsl import ast as A
from ...dsl.check import Model
from ...dsl.types import INT, TEXT, Elem, ListOf, MapOf, Opt, Record, Type
from .memo import plain_type

_LITERALS = (A.IntLit, A.StrLit, A.BoolLit, A.NoneLit, A.Name)
_AGGREGATES = frozenset({"any", "all", "count", "list", "set"})


def cannot_fail(m: Model, e: A.Node, seen: frozenset[str] = frozenset()) -> bool:
    """Whether evaluating `e` surely raises no error, whatever the state (see the module)."""
    if isinstance(e, _LITERALS):
        return True
    if isinstance(e, A.Not):
        return cannot_fail(m, e.operand, seen)
    if isinstance(e, A.BoolOp):
        return all(cannot_fail(m, x, seen) for x in e.items)
    if isinstance(e, A.CondExpr):
        return all(cannot_fail(m, x, seen) for x in (e.test, e.then, e.orelse))
    if isinstance(e, A.Compare):
        return cannot_fail(m, e.left, seen) and cannot_fail(m, e.right, seen) and _compares(m, e)
    if isinstance(e, A.BinOp):
        # not `*`: a product past MAX_BITS is the rules' failure (runtime._mul); two lists
        # joined only charge the work budget (runtime._joined)
        return (e.op in ("+", "-") and _is_int(m, e.left) and _is_int(m, e.right)
                or e.op == "+" and _is_list(m, e.left) and _is_list(m, e.right)) and \
            cannot_fail(m, e.left, seen) and cannot_fail(m, e.right, seen)
    if isinstance(e, A.ListLit):
        return all(cannot_fail(m, x, seen) for x in e.items)
    if isinstance(e, A.Neg):
        return _is_int(m, e.operand) and cannot_fail(m, e.operand, seen)
    if isinstance(e, A.Field):
        return isinstance(m.type_of(e.base), Record) and cannot_fail(m, e.base, seen)
    if isinstance(e, A.Index):
        return _total_lookup(m, e) and cannot_fail(m, e.base, seen) and cannot_fail(m, e.key, seen)
    if isinstance(e, A.Aggregate):
        return e.kind in _AGGREGATES and _collection(m.type_of(e.domain)) and \
            all(cannot_fail(m, x, seen) for x in (e.domain, e.where, e.body) if x is not None)
    if isinstance(e, A.Call):
        if not all(cannot_fail(m, x, seen) for x in e.args):
            return False
        if e.func in m.defines:
            d = m.defines[e.func]
            return e.func not in seen and cannot_fail(m, d.value, seen | {e.func})
        if e.func in _TOTAL_ON_ELEMENTS:  # a look-up of an element of the board's own type
            return len(e.args) == 1 and isinstance(m.type_of(e.args[0]), Elem)
        return e.func in ("len", "sorted") and len(e.args) == 1 and _collection(m.type_of(e.args[0])) and (
            e.func == "len" or _sortable(m.type_of(e.args[0])))
    return False


# library functions that answer for any element of their board's type (interpreter/stdlib)
_TOTAL_ON_ELEMENTS = frozenset({"adjacent_nodes"})


def _is_list(m: Model, e: A.Node) -> bool:
    return isinstance(m.type_of(e), ListOf)


def _sortable(t: Type) -> bool:
    """A collection of elements, whole numbers or texts: its items compare with each other."""
    item = getattr(t, "item", None) or getattr(t, "elem", None)
    return item is not None and (isinstance(item, Elem) or item in (INT, TEXT))


def _is_int(m: Model, e: A.Node) -> bool:
    return m.type_of(e) == INT


def _collection(t: Type) -> bool:
    return not isinstance(t, Opt) and t.is_collection


def _compares(m: Model, e: A.Compare) -> bool:
    """Equality never fails; an order needs two ints; membership a collection and a value
    that can be looked up in it."""
    if e.op in ("==", "!="):
        return True
    if e.op in ("<", "<=", ">", ">="):
        return _is_int(m, e.left) and _is_int(m, e.right)
    if e.op in ("in", "not in"):
        return _collection(m.type_of(e.right)) and plain_type(m.type_of(e.left))
    return False


def _total_lookup(m: Model, e: A.Index) -> bool:
    """`map[key]` with a key of the map's own finite type, the map a state variable (total)
    or a data table that has an entry for every value of that type."""
    t, k = m.type_of(e.base), m.type_of(e.key)
    if not (isinstance(t, MapOf) and isinstance(t.key, Elem) and k == t.key):
        return False
    if t.total:
        return True
    if not (isinstance(e.base, A.Name) and e.base.name in m.data_values):
        return False
    table = m.data_values[e.base.name]
    keys = m.domains().get(t.key.name)
    return isinstance(table, dict) and keys is not None and all(x in table for x in keys)
