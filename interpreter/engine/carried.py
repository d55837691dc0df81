"""Definitions' values a game carries from one decision to the next (compiler/carry.py
says which): each kept with the length of the game's write log when it was made, and brought up
to date by testing its filter again at the keys written since.

`G._carried` maps a memo key to `(value, log length)`; `G._wlog` lists the writes of the
variables the carried filters read, `(variable, key)` for an entry written, `(variable, WHOLE,
old value)` for a variable written whole. Generated code appends only while something is kept
(`if G._carried:`), so a game that carries nothing logs nothing.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from typing import Any

WHOLE = object()  # a log entry's key: the variable was written whole (its old value follows)
LOG_LIMIT = 4096  # a longer log is dropped with every kept value: worked out afresh next time


def _note(G: Any, entry: tuple) -> None:
    """Log one write of a variable a carried filter reads (generated code calls this only while
    some value is kept); a log grown past LOG_LIMIT is dropped with the values it serves. An
    entry's write has these steps written out in the generated code (codegen.py), with
    `_drop` for the rare overflow."""
    log = G._wlog
    log.append(entry)
    if len(log) > LOG_LIMIT:
        _drop(G)


def _drop(G: Any) -> None:
    """The write log grown past LOG_LIMIT: dropped with every value kept against it."""
    G._carried = {}
    G._wlog = []


def _carried_list(G: Any, key: tuple, got: tuple | None, reads: frozenset[str], index: dict,
                  test: Any, full: Any, args: tuple) -> list:
    """The value of a carried `list x in T where W` (T's items in order, `index` their positions):
    the kept one with `W` tested again at the keys written since, or `full(G, *args)` the first
    time and after a write that names no keys (a map written whole, an entry deeper than one
    key). The list handed out is never changed afterwards (lists are values): a change makes a
    new one. Keys are tested in T's order, so a `W` that fails does so where a scan would."""
    log = G._wlog
    if got is None:
        return _kept(G, key, full(G, *args))
    keys = set()
    first_old: dict[str, Any] = {}
    for entry in log[got[1]:]:
        if entry[0] in reads:
            if entry[1] is WHOLE:
                first_old.setdefault(entry[0], entry[2])
            else:
                keys.add(entry[1])
    for name, old in first_old.items():
        now = G.vars[name]
        if type(old) is not frozenset or type(now) is not frozenset:
            return _kept(G, key, full(G, *args))
        keys |= old ^ now  # a set: the items it gained or lost (all `x in s` reads)
    value = got[0]
    todo = [k for k in keys if k in index]
    if len(todo) > 1:
        todo.sort(key=index.__getitem__)
    copied = False
    at_of = index.__getitem__
    for k in todo:
        at = bisect_left(value, index[k], key=at_of)
        there = at < len(value) and value[at] == k
        if bool(test(G, *args, k)) is not there:
            if not copied:
                value, copied = value[:], True
            if there:
                del value[at]
            else:
                value.insert(at, k)
    return _kept(G, key, value)


def _kept(G: Any, key: tuple, value: list) -> list:
    G._carried[key] = (value, len(G._wlog))
    return value


def _kept_moves(G: Any, spec: tuple, keys_of: Any, check: Any, full: Any) -> list:
    """The moves of a kept listing (compiler/carry.py `kept_listing`): the list kept from the
    last time, with the parameter values whose keys were written since tested again
    (`check(G, value)`, the action's check: -1 when legal), in the domain's order, so a
    require that fails does so where the full listing (`full(G, out)`) would. The first
    time, after a write that names no key, and in a game that keeps nothing yet: in full.
    The list handed out is never changed afterwards (a change makes a new one): the block
    hands it to `G._legal`, which clones share. `spec` is the listing's constant (one
    argument, not five): its key in `G._carried`, the maps its requires read, the index from
    a key to the values that read it (filled by the first call that needs it), each value's
    place and the move table; `keys_of(G, value)` lists the keys one value's requires read."""
    key, reads, inverse, positions, table = spec
    carried = G._carried
    got = carried.get(key)
    log = G._wlog
    if got is None:
        value: list = []
        full(G, value)
        carried[key] = (value, len(log))
        return value
    value, since = got
    end = len(log)
    if since == end:
        return value
    if not inverse:  # the keys each value's requires read, made once per program
        for v in positions:
            for k in keys_of(G, v):
                inverse.setdefault(k, []).append(v)
    if end - since == 1:  # one write since (a move that placed one piece): no set
        entry = log[since]
        if entry[0] not in reads:
            todo = ()
        elif entry[1] is WHOLE:
            todo = None
        else:  # (a key read for several values lists them in the domain's order)
            todo = inverse.get(entry[1], ())
            if len(todo) == 1:  # the common case (connect four's column): one value tested
                v = todo[0]  # again, the kept list handed out as it is when its move stays
                move = table[v]
                there = move in value
                if (check(G, v) == -1) is not there:
                    value = _changed(value, move, there, positions)
                carried[key] = (value, end)
                return value
    else:
        todo = set()
        for entry in log[since:]:
            if entry[0] in reads:
                if entry[1] is WHOLE:
                    todo = None
                    break
                hit = inverse.get(entry[1])
                if hit:
                    todo.update(hit)
        if todo and len(todo) > 1:
            todo = sorted(todo, key=positions.__getitem__)
    if todo is None:  # a map written whole
        value = []
        full(G, value)
    elif todo:
        copied = False
        for v in todo:
            move = table[v]
            there = move in value
            if (check(G, v) == -1) is not there:
                if not copied:
                    value, copied = value[:], True
                _change(value, move, there, positions)
    carried[key] = (value, len(log))
    return value


def _kept_without(G: Any, key: tuple, value: list, move: Any, positions: dict) -> list:
    """A kept listing's one value tested again and failing (`KM_n`, compiler/actiongen.py
    `one value tested`): `_kept_moves`' one-write path for a check that is not -1, its move
    dropped from the kept moves if they held it."""
    if move in value:
        value = _changed(value, move, True, positions)
    G._carried[key] = (value, len(G._wlog))
    return value


def _changed(value: list, move: Any, there: bool, positions: dict) -> list:
    """A copy of kept moves `value` with `move` dropped (`there`) or put in its place."""
    value = value[:]
    _change(value, move, there, positions)
    return value


def _change(value: list, move: Any, there: bool, positions: dict) -> None:
    """`move` dropped from `value` (`there`), or put in at its place in the domain's order."""
    if there:
        value.remove(move)
    else:
        at = positions[move[1][0]]
        i = 0
        while i < len(value) and positions[value[i][1][0]] < at:
            i += 1
        value.insert(i, move)


# ---------------------------------------------------------------- keys indexed by value
# `G._carried[key]` for a text key (`'=' + map name`: memo keys are tuples) is a dict from a
# value to the list of the map's keys whose entry is that value, in the board's order, made
# for the values a loop asked for (compiler/carry.py `key_test`). The lists are the game's own:
# never handed to the rules as a value, changed in place by the writes, forgotten with every
# carried value (a clone makes its own).


def _keys_with(G: Any, key: str, name: str, value: Any, domain: list) -> list:
    """The keys of map `name` whose entry is `value`, in `domain`'s order, kept for the writes
    to keep up to date (`_keys_moved`). When they cannot be worked out (a key missing from a
    map changed from outside), the whole domain, not kept: the loop's own test then fails
    where a scan would."""
    m = G.vars[name]
    try:
        keys = []
        for x in domain:  # a loop, not a comprehension (a function of its own): a perft node is a
            if m[x] == value:  # fresh clone, which makes its lists again
                keys.append(x)
    except (KeyError, TypeError):
        return domain
    kept = G._carried.get(key)
    if kept is None:
        kept = G._carried[key] = {}
    kept[value] = keys
    return keys


def _keys_moved(G: Any, key: str, k: Any, old: Any, new: Any, at: dict) -> None:
    """An entry `k` of an indexed map went from `old` to `new`: `k` leaves the kept list of
    `old` and joins that of `new` at its place in the board's order (`at`: key -> position)."""
    kept = G._carried.get(key)
    if kept is None or old == new:
        return
    keys = kept.get(old)
    if keys is not None:
        keys.remove(k)
    keys = kept.get(new)
    if keys is not None:
        insort(keys, k, key=at.__getitem__)


def kept_for_clone(kept: dict, logged: int) -> dict:
    """What a clone may keep of `G._carried` (`logged`: the length of the game's write log):
    the keys by value, each list copied (a game changes its own in place), and the kept
    listings that are up to date (nothing logged since they were made, as at a decision),
    shared: their lists are never changed, and the copy's log starts empty. Not the carried
    definitions' values, whose log positions count the original's write log. A perft node is
    a fresh clone that lists its moves once: without this it makes its lists again from the
    whole board, and lists a kept listing in full."""
    out = {}
    for key, held in kept.items():
        if type(key) is str:
            out[key] = {value: keys[:] for value, keys in held.items()}
        elif key[0] == "listing" and held[1] == logged:
            out[key] = (held[0], 0)
    return out
