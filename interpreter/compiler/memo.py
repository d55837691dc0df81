"""Which definitions one legal-move enumeration may work out once, and by what key.

Listing the legal moves reads the state and never changes it, so a definition called twice
with the same arguments gives the same value twice. Khan's `conquer(t in supply, area in
placements(TILES[t].shape, layable(t)))` calls `layable(t)` once per tile in the supply, but
`layable` reads `t` only as `TILES[t].bridge`: all tiles that are not bridges share one answer.
So a call is remembered under a key made of what the definition reads of each argument:

- a parameter read only through constant data (`TILES[t].bridge`, `VALUES[c]`) that gives a
  plain value (int, bool, text, a named value) is keyed by those values;
- any other parameter of such a plain type is keyed by itself;
- a parameter of any other type (a list, a record) makes the definition unmemoisable.

Only definitions that loop (an aggregate somewhere, through the definitions they call) are worth
the dictionary lookup; definitions that may draw chance or run a device never qualify. The memo
lives in one call of one enumeration function (codegen declares it at the top of the body), so it
can never outlive the state it was computed from.

`level_key` applies the same idea to an action's inner loops: when everything below the first
parameter's loop reads that parameter only through data, the bindings found are remembered for
the enumeration under those data values (interpreter/compiler/actiongen.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...dsl import ast as A
from ...dsl.check import Model
from ...dsl.check_expr import DIRECTIONS
from ...dsl.types import Elem, ListOf, Opt, SetOf, Simple, Type
from ..stdlib.library import LIBRARY


@dataclass(frozen=True)
class MemoKey:
    """How to key a call: per parameter, None (the argument itself) or the projection nodes
    (inside the definition's body) whose values stand for it."""

    parts: tuple[tuple[A.Node, ...] | None, ...]


def plain_type(t: Type) -> bool:
    """int, bool, text or a named value (optional or not): a value that can be a dict key."""
    base = t.base if isinstance(t, Opt) else t
    return isinstance(base, Elem) or (isinstance(base, Simple) and base.name in ("int", "bool", "text"))


def _children(node: A.Node) -> list[A.Node]:
    out: list[A.Node] = []
    for name in node.__dataclass_fields__:
        if name == "span":
            continue
        v = getattr(node, name)
        if isinstance(v, A.Node):
            out.append(v)
        elif isinstance(v, tuple):
            out.extend(x for x in v if isinstance(x, A.Node))
    return out


def _binds(node: A.Node) -> str | None:
    """The local name an aggregate or a definition's `let` binds, else None."""
    if isinstance(node, A.Aggregate):
        return node.var
    if isinstance(node, A.LetExpr):
        return node.name
    return None


def _uses(nodes: list[A.Node], param: str, on_use: Callable[[A.Name, list[A.Node]], list | None]) -> list | None:
    """What `on_use(name, ancestors)` says of every read of `param` in `nodes`, joined; None
    when it refuses one (None) or a loop rebinds the name."""
    found: list = []
    ok = True

    def walk(node: A.Node, chain: list[A.Node]) -> None:
        nonlocal ok
        if not ok:
            return
        if _binds(node) == param:  # an aggregate or a `let` binds the name anew
            ok = False
            return
        if isinstance(node, A.Name) and node.name == param:
            got = on_use(node, chain)
            if got is None:
                ok = False
            else:
                found.extend(got)
            return
        for child in _children(node):
            chain.append(node)
            walk(child, chain)
            chain.pop()

    for n in nodes:
        walk(n, [])
    return found if ok else None


def _data_projection(m: Model, name: A.Name, chain: list[A.Node]) -> A.Node | None:
    """The outermost `DATA[param].field…` around a read of `param` (`chain`: its ancestors,
    innermost last), or None when the read is not inside `DATA[param]`."""
    parent = chain[-1] if chain else None
    if not (isinstance(parent, A.Index) and parent.key is name and isinstance(parent.base, A.Name)
            and parent.base.name in m.data):
        return None
    top, i = parent, len(chain) - 2
    while i >= 0 and isinstance(chain[i], A.Field) and chain[i].base is top:
        top, i = chain[i], i - 1
    return top


def _projections(m: Model, body: A.Node, param: str) -> tuple[A.Node, ...] | None:
    """The outermost `DATA[param].field…` nodes, of plain types, through which `body` reads
    `param`, or None when it reads `param` any other way (or rebinds the name)."""
    def plain_projection(name: A.Name, chain: list[A.Node]) -> list | None:
        top = _data_projection(m, name, chain)
        return [top] if top is not None and plain_type(m.type_of(top)) else None

    found = _uses([body], param, plain_projection)
    return tuple(found) if found is not None else None


def memo_keys(m: Model) -> dict[str, MemoKey]:
    """Definition name -> how to key its calls, for the definitions worth remembering."""
    calls = {name: {n.func for n in A.iter_nodes(d.value) if isinstance(n, A.Call)} for name, d in m.defines.items()}

    def reaches(name: str, test) -> bool:
        seen, todo = set(), [name]
        while todo:
            n = todo.pop()
            if n in seen:
                continue
            seen.add(n)
            if test(n):
                return True
            todo.extend(c for c in calls.get(n, ()) if c in m.defines)
        return False

    def loops(n: str) -> bool:
        return any(isinstance(x, A.Aggregate) for x in A.iter_nodes(m.defines[n].value))

    def draws(n: str) -> bool:
        return any(c in m.devices or (c in LIBRARY and LIBRARY[c].kind in ("chance", "game")) for c in calls[n])

    out: dict[str, MemoKey] = {}
    for name, d in m.defines.items():
        if not d.params or not reaches(name, loops) or reaches(name, draws):
            continue
        parts: list[tuple[A.Node, ...] | None] = []
        for p in d.params:
            t = m.type_of_decl(p.type)
            proj = None if isinstance(t, Opt) else _projections(m, d.value, p.name)
            if proj:
                parts.append(proj)
            elif plain_type(t):
                parts.append(None)
            else:
                break
        else:
            out[name] = MemoKey(tuple(parts))
    return out


def _key_kind(t: Type) -> str | None:
    """How a value of type `t` becomes part of a dictionary key: itself, as a tuple, or not."""
    if plain_type(t):
        return "plain"
    if isinstance(t, SetOf) and plain_type(t.item):
        return "plain"  # a frozenset
    if isinstance(t, ListOf) and plain_type(t.item):
        return "list"
    return None


def state_free(m: Model) -> dict[str, tuple[str, ...]]:
    """Definition name -> how each parameter enters the key, for the looping definitions that
    read nothing but their arguments, data tables, boards and named values: their value is
    fixed for the program's life, so it is remembered across games (bounded, runtime._remember).
    Options and constants are left out (they differ between games of one program), and so are
    results that are records or maps, which a caller could change in place."""
    fixed_names = set(m.data) | set(m.enums) | set(m.boards) | set(m.element_type) | set(DIRECTIONS) | {"Direction"}

    def own_ok(d: A.DefineDecl) -> bool:
        bound = {p.name for p in d.params}
        for n in A.iter_nodes(d.value):
            if _binds(n) is not None:  # a local: what its value reads is walked below
                bound.add(_binds(n))
        for n in A.iter_nodes(d.value):
            if isinstance(n, A.Name) and n.name not in bound and n.name not in fixed_names:
                return False
            if isinstance(n, A.Call) and n.func not in m.defines and (
                    n.func in m.devices or n.func not in LIBRARY or LIBRARY[n.func].kind in ("chance", "game")):
                return False
        return True

    ok = {name for name, d in m.defines.items() if own_ok(d)}
    changed = True
    while changed:  # a definition is state-free only if every definition it calls is
        changed = False
        for name in list(ok):
            called = {n.func for n in A.iter_nodes(m.defines[name].value) if isinstance(n, A.Call)}
            if any(c in m.defines and c not in ok for c in called):
                ok.discard(name)
                changed = True
    out: dict[str, tuple[str, ...]] = {}
    for name in ok:
        d = m.defines[name]
        if not d.params or not any(isinstance(x, A.Aggregate) for x in A.iter_nodes(d.value)):
            continue
        result = m.define_types.get(name)
        if result is None or _key_kind(result) is None:
            continue
        kinds = tuple(_key_kind(m.type_of_decl(p.type)) for p in d.params)
        if all(kinds):
            out[name] = kinds  # type: ignore[assignment]
    return out


def level_key(m: Model, nodes: list[A.Node], param: str) -> list[tuple[A.Node, str]] | None:
    """How the inner loops of one enumeration depend on its first parameter, when they depend
    on it only through constant data: the parts `(node, name)` to key their result by (evaluate
    `node` with `name` bound to the parameter), else None.

    `nodes` are everything the inner loops evaluate (their domains and preconditions). The
    parameter may appear only as `DATA[param].field…` (any type: a list is keyed as a tuple) or
    as the argument of a definition that reads it only that way (plain values, as memo_keys
    asks). Khan's `conquer(t in sorted(supply), area in placements(TILES[t].shape, layable(t)))`
    reads `t` below the first loop only as `TILES[t].shape` and `TILES[t].bridge`: tiles of one
    shape share the placements found for the first of them."""
    def through_data(name: A.Name, chain: list[A.Node]) -> list | None:
        top = _data_projection(m, name, chain)
        if top is not None:
            return [(top, param)]
        parent = chain[-1] if chain else None
        if not (isinstance(parent, A.Call) and parent.func in m.defines):
            return None
        d = m.defines[parent.func]
        for arg, p in zip(parent.args, d.params, strict=True):
            if arg is name:
                proj = _projections(m, d.value, p.name)
                return None if proj is None else [(x, p.name) for x in proj]
        return None

    return _uses(nodes, param, through_data)
