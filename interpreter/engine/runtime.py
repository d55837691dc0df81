"""The helpers that generated rule code calls at run time.

Generated functions (interpreter/compiler/codegen.py) reach these through their namespace under the
names in `RUNTIME`; they implement the state store's conventions: dicts are the only mutable
containers, lists and sets are values that every change replaces.
"""

from __future__ import annotations

from bisect import insort
from typing import TYPE_CHECKING, Any

from ..stdlib.rng import LEFT as _draws_left
from ..stdlib.rng import draws_from as _draws_from
from . import carried as _carried_module
from .carried import (
    WHOLE,
    _carried_list,
    _changed,
    _drop,
    _kept_moves,
    _kept_without,
    _keys_moved,
    _keys_with,
    _note,
)
from .errors import RULE_ERRORS, RuleFailure
from .limits import MAX_BITS, MEMO_LIMIT
from .locate import failure
from .values import value_text

if TYPE_CHECKING:
    from ...dsl.check import Model

MISSING = object()  # "no entry" in the journal: the key did not exist before the write


def _index(base: Any, key: Any) -> Any:
    try:
        return base[key]
    except (KeyError, IndexError, TypeError):
        raise failure(f"no entry {_shown(key)} in {_what(base)}") from None


def _shown(v: Any) -> str:
    text = value_text(v) if isinstance(v, (str, int, bool, type(None))) else type(v).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def _what(v: Any) -> str:
    """A container described by its kind and size, not its contents (they may be hidden)."""
    t = type(v)
    if t is list:
        return f"a list of {len(v)} item{'' if len(v) == 1 else 's'}"
    if t is dict:
        return f"a map of {len(v)} entr{'y' if len(v) == 1 else 'ies'}"
    if t is frozenset:
        return f"a set of {len(v)} item{'' if len(v) == 1 else 's'}"
    return {str: "a text", int: "a number", bool: "true/false", type(None): "none"}.get(t, t.__name__)


def _own(value: Any) -> Any:
    """A private copy of the dicts in a value (records, maps, also inside lists) before it is
    stored in the state: a dict changes in place, a list of plain values never does."""
    t = type(value)
    if t is dict:
        return {k: _own(v) for k, v in value.items()}
    if t is list and value and type(value[0]) in (dict, list):  # a list's items are of one type
        return [_own(v) for v in value]
    return value


def _as_set(value: Any) -> Any:
    return value if type(value) is frozenset or value is None else frozenset(value)


def _as_list(value: Any) -> Any:
    if type(value) is list or value is None:
        return _own(value)
    return [_own(v) for v in value]


def _store(container: Any, key: Any, value: Any) -> None:
    if type(container) is list:  # lists are values: never mutated in place
        raise failure("cannot assign into a list element; replace the list")
    container[key] = value


def _add(old: Any, value: Any) -> Any:
    t = type(old)
    if t is int:
        return old + value
    if t is list:
        return old + [value]
    if t is frozenset:
        return old | {value}
    if old is MISSING or old is None:
        return value
    raise failure(f"cannot add to {_what(old)}")


def _add_all(old: Any, values: list) -> Any:
    for v in values:
        old = _add(old, v)
    return old


def _remove(old: Any, value: Any) -> Any:
    t = type(old)
    if t is int:
        return old - value
    if t is list:
        if value not in old:
            raise failure(f"cannot remove {_shown(value)}: it is not in {_what(old)}")
        i = old.index(value)
        return old[:i] + old[i + 1:]
    if t is frozenset:
        if value not in old:
            raise failure(f"cannot remove {_shown(value)}: it is not in {_what(old)}")
        return old - {value}
    raise failure(f"cannot remove from {_what(old)}")


def _draw(old: list, n: int, drawn: list) -> list:
    if type(old) is not list:
        raise failure(f"can only draw from a list, not from {_what(old)}")
    if type(n) is not int or n < 0:
        raise failure(f"cannot draw {_shown(n)} items: a count is a whole number from 0")
    if n > len(old):
        raise failure(f"cannot draw {n}: only {len(old)} left")
    taken = old[len(old) - n:][::-1] if n else []
    drawn.extend(taken)
    return old[: len(old) - n]


def _cleared(old: Any) -> Any:
    """The empty value of the same shape: 0, false, "", [], an empty set, a map of empties."""
    t = type(old)
    if t is int:
        return 0
    if t is bool:
        return False
    if t is list:
        return []
    if t is frozenset:
        return frozenset()
    if t is dict:
        return {k: _cleared(v) for k, v in old.items()}
    return None


def make_order(model: Model, elements: dict[str, tuple]) -> Any:
    """The sort key of values: board squares and nodes, enum members and players in the order
    they are declared (c3 before c11), then numbers, then other texts."""
    rank: dict[Any, int] = {}
    if model.players is not None:
        for n in model.players.names:
            rank.setdefault(n, len(rank))
    for name, values in elements.items():
        if name != "bool":
            for v in values:
                rank.setdefault(v, len(rank))

    def key(x: Any) -> tuple:
        r = rank.get(x) if isinstance(x, str) else None
        if r is not None:
            return (0, r, "")
        if isinstance(x, (int, bool)):
            return (1, int(x), "")
        return (2, 0, x if isinstance(x, str) else repr(x))

    key.rank = rank  # type: ignore[attr-defined]  # the fast path of sorted_by
    return key


def sorted_by(key: Any) -> Any:
    """`sorted` in the order of `key`; named values alone (the usual case) sort by their rank,
    a C-level look-up, and only a mix needs the general key."""
    rank = key.rank.__getitem__

    def ordered(items: Any) -> list:
        try:
            return sorted(items, key=rank)
        except (KeyError, TypeError):
            return sorted(items, key=key)

    return ordered


def seq_by(key: Any) -> Any:
    ordered = sorted_by(key)

    def seq(items: Any) -> Any:
        """Sets iterate in declaration order, so play is the same in every process."""
        if type(items) is frozenset:
            return ordered(items)
        return items

    return seq


def _uniq(items: Any) -> list:
    """The distinct items in first-seen order (lists compare by value too). None or one item
    are distinct as they are: a copy, without hashing (checkers' jumps are lists, which the
    general path turns into tuples; most positions have none, the rest often one)."""
    if type(items) is list:
        if len(items) < 2:
            return items[:]
        if type(items[0]) is list:  # lists as items (a series of jumps): by value, without
            return _uniq_by_value(items)  # raising first (2.9 against 0.4 µs for three paths)
    try:
        return list(dict.fromkeys(items))
    except TypeError:  # lists (a tile's squares) among the items
        return _uniq_by_value(items)


def _uniq_by_value(items: Any) -> list:
    """`_uniq`'s distinct items with lists and dicts among them compared as tuples."""
    out: list = []
    seen: set = set()
    for x in items:
        k = _hashable(x)
        if k not in seen:
            seen.add(k)
            out.append(x)
    return out


def _component_kept(table: dict, node: Any, found: list) -> list:
    """`found`, the component of `node` (a `component_of` in a listing, codegen
    `components_kept`), kept in the listing's table for every node of it, so asking for any
    of them again floods nothing; and for `node` itself (not among the items: no component)."""
    for n in found:
        table[n] = found
    table[node] = found
    return found


_UNIQ_FIXED: dict[int, tuple[Any, list]] = {}  # id of a constant's value -> (the value, its distinct items)


def _uniq_fixed(items: Any) -> list:
    """`_uniq` of a constant or option of the rules, worked out once per value: a program's
    constants are made once per set of options, shared by its games and never changed (Khan
    listed the distinct squares of its constant `LAND` at every decision). The list returned
    is shared: a listing only walks it."""
    kept = _UNIQ_FIXED.get(id(items))
    if kept is not None and kept[0] is items:  # the same object, held here, so its id is its own
        return kept[1]
    found = _uniq(items)
    if len(_UNIQ_FIXED) >= MEMO_LIMIT:
        _UNIQ_FIXED.clear()
    _UNIQ_FIXED[id(items)] = (items, found)
    return found


def _hashable(x: Any) -> Any:
    if type(x) is list:
        k = tuple(x)
        for v in k:  # a list of plain items is its tuple: no generator (a list of squares)
            if type(v) is list or type(v) is dict:
                return tuple(_hashable(v) for v in x)
        return k
    if type(x) is dict:
        return tuple(sorted((k, _hashable(v)) for k, v in x.items()))
    return x




def _mul(a: Any, b: Any) -> Any:
    """`a * b` on whole numbers that cannot grow without bound (a number squared in a loop
    would take longer than the universe)."""
    value = a * b
    if type(value) is int and value.bit_length() > MAX_BITS:
        raise failure(f"a number grew beyond {MAX_BITS} bits (about 1233 digits)")
    return value


def _div(a: int, b: int) -> int:
    """`a // b` whose divisor is worked out while the game runs: a zero divisor is the rules'
    failure, located at the statement, not Python's ZeroDivisionError."""
    if b == 0:
        raise failure("division by zero (the divisor of // was 0)")
    return a // b


def _mod(a: int, b: int) -> int:
    """`a % b`, as `_div`."""
    if b == 0:
        raise failure("division by zero (the divisor of % was 0)")
    return a % b


def _joined(G: Any, a: list, b: list, span: Any) -> list:
    """`a + b` on lists: a copy of both, charged to the work budget by its length (a
    library function's list may be a tuple: the result is a list all the same)."""
    value = a + b if type(a) is list and type(b) is list else [*a, *b]
    G.work -= len(value)
    if G.work < 0:
        G.out_of_work(span)
    return value


def _charged(G: Any, items: Any, span: Any) -> Any:
    """Charge iterating `items` to the game's work budget (an aggregate written as one
    expression); returns them."""
    G.work -= len(items)
    if G.work < 0:
        G.out_of_work(span)
    return items


def _fz(value: Any) -> Any:
    """A value as it is now, for an explanation: dicts (which change in place) are copied."""
    from .values import jsonable

    if type(value) is dict or (type(value) is list and value and type(value[0]) in (dict, list)):
        return jsonable(value)
    return value




def _fz_map(value: Any) -> Any:
    """`_fz` of a map whose values hold no dict (codegen.CodeGen.freezer): a shallow copy keeps
    it as it is now, and the check is made JSON when the trace is read, as `_fz` would now."""
    return value.copy() if type(value) is dict else _fz(value)


def _memo(table: dict, fn: Any, *args: Any) -> Any:
    """Call a library function that depends only on its arguments, and remember the result."""
    value = fn(*args)
    if len(table) < MEMO_LIMIT:
        table[args[0] if len(args) == 1 else args] = value
    return value


def _remember(table: dict, key: Any, value: Any) -> Any:
    """Keep the value of a state-free definition's call (interpreter/compiler/memo.py), bounded."""
    if len(table) < MEMO_LIMIT:
        table[key] = value
    return value


def _kept_rows(table: dict, key: tuple, make: Any, domain: Any) -> Any:
    """The items of a filter that reads only fixed things (data, boards, the values in `key`:
    interpreter/compiler/codegen.py `fixed_filter_keys`), made by `make()` the first time for
    `key` and then kept for the program's life, bounded like the other memos. The caller
    still tests the filter on each item, so when `make()` fails (a data entry the filter
    cannot read) the items are `domain()`, the domain as written, and the filter fails where
    and when it would have."""
    rows = table.get(key)
    if rows is None:
        try:
            rows = make()
        except _FILTER_ERRORS:
            return domain()
        if len(table) < MEMO_LIMIT:
            table[key] = rows
    return rows


_FILTER_ERRORS = (RuleFailure, *RULE_ERRORS)


def _consts_id(G: Any) -> int:
    """Which values of the rules' constants and options a game has, for a key of a table kept
    for the program's life: one dict per set of options, made and held by the program
    (Program.constants), so no other dict takes its id while the table lives."""
    return id(G.consts)


def _streak(items: Any, pred: Any) -> int:
    n = 0
    for x in items:
        if not pred(x):
            break
        n += 1
    return n


def _argmax(items: list, key: Any) -> list:
    if not items:
        return []
    scores = [key(x) for x in items]
    best = max(scores)
    return [x for x, s in zip(items, scores, strict=True) if s == best]


def _argmin(items: list, key: Any) -> list:
    if not items:
        return []
    scores = [key(x) for x in items]
    best = min(scores)
    return [x for x, s in zip(items, scores, strict=True) if s == best]


RUNTIME = {
    "MISSING": MISSING,
    "_charged": _charged,
    "_mul": _mul,
    "_div": _div,
    "_mod": _mod,
    "_joined": _joined,
    "_index": _index,
    "_store": _store,
    "_own": _own,
    "_as_set": _as_set,
    "_as_list": _as_list,
    "_add": _add,
    "_add_all": _add_all,
    "_remove": _remove,
    "_draw": _draw,
    "_cleared": _cleared,
    "_streak": _streak,
    "_memo": _memo,
    "_hashable": _hashable,  # a list of data as a dictionary key (actiongen: the memo of inner loops)
    "_remember": _remember,
    "_kept_rows": _kept_rows,
    "_carried_list": _carried_list,  # a definition's value carried across decisions (carried.py)
    "_kept_moves": _kept_moves,  # a listing's moves kept across decisions (carried.py)
    "_kept_without": _kept_without,  # ... its one value tested again, failing (actiongen `KM_n`)
    "_kept_changed": _changed,  # ... a copy with a move put in or dropped
    "_carry_note": _note,
    "_carry_drop": _drop,  # the write log dropped when too long (codegen.py writes _note out)
    "_carry_mod": _carried_module,  # its LOG_LIMIT, read where it is tested
    "_keys_with": _keys_with,  # a map's keys whose entry is a value, kept by the writes (carried.py)
    "_keys_moved": _keys_moved,
    "_insort": insort,  # the same, written in place (codegen.keys_moved)
    "_WHOLE": WHOLE,
    "_fz": _fz,
    "_fz_map": _fz_map,
    "_uniq": _uniq,
    "_uniq_fixed": _uniq_fixed,
    "_component_kept": _component_kept,  # a listing's `component_of` per component (codegen.components_kept)
    "_consts_id": _consts_id,
    "_argmax": _argmax,
    "_argmin": _argmin,
    "_draws_from": _draws_from,  # a device roll's batch of generator steps (codegen `batched draws`)
    "_DRAWS_LEFT": _draws_left,  # ... and what it leaves of its last one (rng.LEFT)
}
