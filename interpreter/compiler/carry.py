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
restore, a save loaded) forgets every kept value (`Game._forget_carried`). An untraced game
keeps some actions' listings likewise (`kept_listing`, below).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...dsl import ast as A
from ...dsl.check import Model
from ...dsl.types import Elem, MapOf
from ..stdlib.library import LIBRARY
from .blocks import action_preconditions, names_in
from .memo import MemoKey, memo_keys, plain_type
from .reads import DYNAMIC_NAMES, keyed_reads, state_reads


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


# ---------------------------------------------------------------- keys indexed by value
# A loop over a board (or an enumeration) whose first test is `m[x] == v`, `m` a state map
# over that board, walks the keys whose entry is `v` in the board's order: checkers' and
# breakthrough's listings look for the mover's pieces among 64 squares. The game keeps those
# keys per (map, value) in `G._carried` (engine/carried.py `_keys_with`), and each write of an
# entry of `m` moves its key from the old value's list to the new one's (`_keys_moved`), so
# no log is read back; a map written whole drops them. Whatever forgets carried values (a
# clone, `invalidate`, `put_state`, `prepare`) forgets these too. The keys walked passed
# `m[x] == v`, which is not tested again; a key list that could not be made (a map changed
# from outside so that a key is missing) is the whole board, tested as written, so a failure
# comes where the scan had it.


@dataclass(frozen=True)
class KeyTest:
    """`m[x] == v` as the first test of a loop over `m`'s keys: the map and the value."""

    var: str  # the state map
    domain: str  # the board or enumeration: its key type, walked by the loop
    value: A.Node  # v: none, a literal, a named value, `current` or a local


def first_test(e: A.Node) -> A.Node:
    """The part of a test evaluated first: an `and`'s left part, all the way down."""
    while isinstance(e, A.BoolOp) and e.op == "and":
        e = e.items[0]
    return e


def split_first(e: A.Node) -> tuple[A.Node, list[A.Node]]:
    """`first_test(e)` and the parts of the `and` tested after it, in order."""
    if isinstance(e, A.BoolOp) and e.op == "and":
        first, rest = split_first(e.items[0])
        return first, [*rest, *e.items[1:]]
    return e, []


def key_test(m: Model, domain: A.Node | None, var: str, test: A.Node | None,
             is_local: Callable[[str], bool]) -> KeyTest | None:
    """The index a loop `for var in domain` whose filter (or first require) is `test` can walk
    (see above), or None: `domain` names a board or enumeration `T`, `test`'s first part is
    `m[var] == v` (either way round), `m` a state map from `T` to a plain value (a named value,
    int, bool or text, or none), and `v` cannot fail nor read `var`: none, a literal, a named
    value, `current`, or a name `is_local` accepts."""
    if not (isinstance(domain, A.Name) and (domain.name in m.boards or domain.name in m.enums)) \
            or is_local(domain.name) or test is None:
        return None
    t = first_test(test)
    if not (isinstance(t, A.Compare) and t.op == "=="):
        return None
    for this, other in ((t.left, t.right), (t.right, t.left)):
        if not (isinstance(this, A.Index) and isinstance(this.base, A.Name) and isinstance(this.key, A.Name)
                and this.key.name == var and this.base.name in m.vars and not is_local(this.base.name)):
            continue
        mt = m.var_types[this.base.name]
        if not (isinstance(mt, MapOf) and isinstance(mt.key, Elem) and mt.key.name == domain.name
                and plain_type(mt.val)):
            return None
        if _fixed_value(m, other, var, is_local):
            return KeyTest(this.base.name, domain.name, other)
    return None


def _fixed_value(m: Model, v: A.Node, var: str, is_local: Callable[[str], bool]) -> bool:
    """Whether `v` is none, a literal, a named value, `current` or a local other than `var`."""
    if isinstance(v, (A.NoneLit, A.IntLit, A.BoolLit, A.StrLit)):
        return True
    if not isinstance(v, A.Name) or v.name == var:
        return False
    if is_local(v.name):
        return True
    return v.name == "current" or (v.name in m.element_type and v.name not in m.vars)


def indexed_maps(m: Model) -> dict[str, str]:
    """The state maps some loop may walk by value (`key_test`), each with its key type: their
    entries' writes move keys between the kept lists. Found over every aggregate and every
    action parameter of the rules (a name no rule-level thing owns counts as a local here;
    code generation asks again with the scope it has), so no map a loop indexes is missed."""

    def is_local(name: str) -> bool:
        return not (name in m.vars or name in m.consts or name in m.options or name in m.data
                    or name in m.element_type or name in m.boards or name in m.enums or name == "current")

    out: dict[str, str] = {}
    roots: list = [*m.defines.values(), *m.actions.values(), *m.procedures.values(), *m.triggers,
                   *m.hooks, *m.devices.values(), *m.scenarios, *m.invariants]
    if m.flow is not None:
        roots.append(m.flow)
    for n in A.iter_nodes(tuple(roots)):
        if isinstance(n, A.Aggregate) and n.kind != "streak":
            k = key_test(m, n.domain, n.var, n.where, is_local)
            if k is not None:
                out[k.var] = k.domain
    for a in m.actions.values():
        if len(a.params) < 2:  # one parameter: the listing walks its (value, move) pairs as they are
            continue
        for i, first in _first_requires(a, m).items():
            p = a.params[i]
            k = key_test(m, _as_name(p.domain if p.domain is not None else p.type), p.name, first.test, is_local)
            if k is not None:
                out[k.var] = k.domain
    return out


def _first_requires(a: A.ActionDecl, m: Model) -> dict[int, A.RequireStmt]:
    """Parameter index -> the first precondition tested at its depth of the listing's loops,
    when that is a `require` (as actiongen's `_depths` places them: at the deepest parameter
    or `let` it names)."""
    pre, _rest = action_preconditions(a, m)
    index = {p.name: i for i, p in enumerate(a.params)}
    lets: dict[str, int] = {}
    first: dict[int, A.Node] = {}
    for s in pre:
        used = names_in(s)
        depth = max([index[n] for n in used if n in index] + [d for n, d in lets.items() if n in used] + [-1])
        if isinstance(s, A.LetStmt):
            lets[s.name] = depth
        first.setdefault(depth, s)
    return {i: s for i, s in first.items() if i >= 0 and isinstance(s, A.RequireStmt)}


def _as_name(n: A.Node | None) -> A.Node | None:
    """A parameter's type `Square` as the name of its board (its domain when it has none)."""
    if isinstance(n, A.NamedType):
        return A.Name(span=n.span, name=n.name)
    return n


# ---------------------------------------------------------------- listings kept
# A one-parameter action whose requires read state only at keys that are a fixed function of
# the parameter — `place(s)`'s `cell[s] == none`, `drop(col)`'s `cell[t]` for `t` in
# `column_squares(col)` (inside `lowest_free(col)`) — has a listing that changes only for the
# values whose keys were written since it was made. An untraced game keeps the moves of such a
# listing (engine/carried.py `_kept_moves`) and tests again only the parameter values whose keys
# the write log names: connect four re-tests one column a move instead of seven.

PARAM = None  # a key source standing for the parameter itself (`cell[s]`)


@dataclass(frozen=True)
class KeptListing:
    """How a one-parameter action's listing is kept: the state maps its requires read, and
    where their keys come from: the parameter itself (`PARAM`), or the values of a state-free
    expression (a quantifier's domain) in which the names `aliases` stand for the parameter."""

    reads: frozenset[str]
    sources: tuple[tuple[A.Node | None, frozenset[str]], ...]


def kept_listing(m: Model, a: A.ActionDecl) -> KeptListing | None:
    """How `a`'s listing is kept (see above), or None when its requires read state any other
    way: a bare variable, `current`, `round`, a key that is not the parameter or a value
    of a fixed function of it, a set's membership, chance, a game function, recursion. Also
    None when they read only the parameter's own entries (tic-tac-toe's `cell[s] == none`):
    testing a value is then one look-up, which costs what keeping the list does (a kept
    tic-tac-toe listing took more bytecodes a game than the scan: 4,263 against 3,648)."""
    if len(a.params) != 1:
        return None
    pre, _rest = action_preconditions(a, m)
    if not any(isinstance(s, A.RequireStmt) for s in pre):
        return None
    name = a.params[0].name
    found = KeySearch(m)
    if not found.walk(tuple(pre), {name: (PARAM, frozenset({name}))}, 0) or not found.maps \
            or all(source is PARAM for source, _ in found.sources):
        return None
    return KeptListing(frozenset(found.maps), tuple(dict.fromkeys(found.sources)))


_MAX_DEPTH = 8  # definitions inside definitions followed; deeper (or recursive): not kept


class KeySearch:
    """The walk of `kept_listing`: each read of state keyed by a name that stands for a key
    source (`keys`: name -> (source, aliases)); the sources and maps found on the way."""

    def __init__(self, m: Model):
        self.m = m
        self.maps: set[str] = set()
        self.sources: list[tuple[A.Node | None, frozenset[str]]] = []

    def walk(self, node: object, keys: dict, depth: int) -> bool:
        m = self.m
        if isinstance(node, tuple):
            return all(self.walk(x, keys, depth) for x in node)
        if not isinstance(node, A.Node):
            return True
        if isinstance(node, A.Name):
            return node.name not in m.vars and node.name not in DYNAMIC_NAMES
        if isinstance(node, A.Index) and isinstance(node.base, A.Name) and node.base.name in m.vars:
            key = node.key
            if not (isinstance(key, A.Name) and key.name in keys):
                return False
            self.maps.add(node.base.name)
            self.sources.append(keys[key.name])
            return True
        if isinstance(node, A.LetStmt):  # the name it binds is no key from here on
            ok = self.walk(node.value, keys, depth)
            keys.pop(node.name, None)
            return ok
        if isinstance(node, A.LetExpr):
            inner = {k: v for k, v in keys.items() if k != node.name}
            return self.walk(node.value, keys, depth) and self.walk(node.body, inner, depth)
        if isinstance(node, A.Aggregate):
            inner = {k: v for k, v in keys.items() if k != node.var}
            aliases = self.stands_for_parameter(node.domain, keys)
            if aliases is not None:  # `t in column_squares(col)`: t's values are keys of col's
                inner[node.var] = (node.domain, aliases)
            return self.walk(node.domain, keys, depth) and self.walk((node.where, node.body), inner, depth)
        if isinstance(node, A.Compare) and node.op in ("in", "not in") and isinstance(node.right, A.Name) \
                and node.right.name in m.vars:
            return False  # a set's entry: left to the general listing
        if isinstance(node, A.Call):
            if node.func in m.defines:
                return self.call(m.defines[node.func], node, keys, depth)
            if node.func in m.devices or node.func == "possible" or node.func not in LIBRARY \
                    or LIBRARY[node.func].kind in ("chance", "game"):
                return False
            return self.walk(node.args, keys, depth)
        return all(self.walk(getattr(node, f), keys, depth) for f in node.__dataclass_fields__ if f != "span")

    def call(self, d: A.DefineDecl, call: A.Call, keys: dict, depth: int) -> bool:
        """A definition's body walked with its parameters bound to what the arguments stand
        for: a parameter given a key name is that key's source inside."""
        if depth >= _MAX_DEPTH or len(d.params) != len(call.args) or not self.walk(call.args, keys, depth):
            return False
        inner = {}
        for p, arg in zip(d.params, call.args, strict=True):
            if isinstance(arg, A.Name) and arg.name in keys:
                source, aliases = keys[arg.name]
                # the parameter's own name stands for the action's parameter inside as well
                inner[p.name] = (source, aliases | {p.name}) if source is PARAM else (source, aliases)
        return self.walk(d.value, inner, depth + 1)

    def stands_for_parameter(self, domain: A.Node, keys: dict) -> frozenset[str] | None:
        """The aliases of the parameter when `domain` is a fixed function of it: no state, no
        option, constant or chance; its only free names the parameter's aliases, boards,
        enumerations and named values."""
        m = self.m
        if state_reads(m, domain) != frozenset():
            return None
        aliases: set[str] = set()
        for n in A.iter_nodes(domain):
            if isinstance(n, (A.Aggregate, A.LetExpr)):
                return None
            if isinstance(n, A.Name):
                if n.name in keys and keys[n.name][0] is PARAM:
                    aliases |= keys[n.name][1]
                elif n.name in keys or n.name == "Player" or not (n.name in m.boards or n.name in m.enums
                                                                      or n.name in m.element_type):
                    return None
            elif isinstance(n, A.Call) and (n.func in m.defines or n.func not in LIBRARY
                                            or LIBRARY[n.func].kind in ("chance", "game")):
                return None
        return frozenset(aliases) if aliases else None
