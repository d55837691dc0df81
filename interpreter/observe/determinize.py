"""A position one player cannot tell from the real one: what a search that may not peek plays on.

Information-set search (`ISMCTSAgent`, interpreter/tools/agents.py) and the property tests that check
legality never leaks need, for a player P, positions that agree with everything P has seen and
make up the rest. `determinize(game, P, rng)` gives one:

- public state, P's own entries of `hidden except owner` state, and the pending decision stay;
- the items hidden from P (the cards in the deck and in the others' hands, a face-down card) are
  dealt anew: the unseen items are the items of their type that exist (the `conserve`
  declaration's list when one names the zones, else each value of the type once) minus those
  P can see, sorted and then shuffled with `rng`, and dealt into the same places in the same
  numbers (sizes are public). A Kuhn deal thus gives the opponent either card Ann does not hold;
- items a `reveal` showed the player in a hidden place (`reveal hand[Bob] to Ann`) stay there,
  as far as the place still holds that many (the reveal may be old: it is what P knows);
- hidden values that are not items of a type (a secret bid, a plan of records) keep their size
  and take their types' first or start values, and the chance generator a new seed from `rng`:
  P knows neither.

Nothing of what P cannot see is read to make the position, only its sizes: two positions that
differ only in hidden things give the same result for the same `rng` state (the property
tests/test_imperfect_information.py checks, over every bundled ruleset with hidden state).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ...dsl.types import INT, TEXT, Elem, ListOf, MapOf, Opt, SetOf, Type
from ..engine.values import materialize


def determinize(game: Any, player: str, rng: random.Random) -> Any:
    """A copy of `game` that `player` cannot tell from it (see the module docstring)."""
    g = game.clone()
    model = g.prog.model
    hidden = {n: d.hidden for n, d in model.vars.items() if d.hidden}
    if hidden:
        _deal(g, player, hidden, rng)
        g._forget_carried()  # dealt by hand, not by the rules
    g.rng = rng.getrandbits(64)
    return g


def _slots(g: Any, player: str, hidden: dict[str, str]) -> list[tuple[str, Any, Type]]:
    """Every place of the state hidden from `player`: (variable, key or None, type), in
    declaration order, keys in the order of the map."""
    out = []
    for name, how in hidden.items():
        t = g.prog.var_types[name]
        value = g.vars[name]
        if how == "owner" and isinstance(t, MapOf) and isinstance(value, dict):
            out.extend((name, k, t.val) for k in value if k != player)
        elif how != "owner":
            out.append((name, None, t))
    return out


def _item_type(t: Type) -> str | None:
    """The type of the items a hidden place holds that may be dealt anew: a zone (list or set)
    of members, squares, players, numbers or texts, or one member of a type (a face-down card)."""
    base = t.base
    if isinstance(base, (ListOf, SetOf)):
        item = base.item.base
        if isinstance(item, Elem):
            return item.name
        if item in (INT, TEXT):
            return str(item)
        return None
    if isinstance(base, Elem):
        return base.name
    return None


def _deal(g: Any, player: str, hidden: dict[str, str], rng: random.Random) -> None:
    slots = _slots(g, player, hidden)
    domains = g.domains()
    need: dict[str, list[tuple[str, Any, Type, int]]] = {}
    for name, key, t in slots:
        value = g.vars[name] if key is None else g.vars[name][key]
        kind = _item_type(t)
        if kind is None:  # not items of a type: the player knows its type and its size
            _put(g, name, key, _made_up(value, t, g))
            continue
        size = len(value) if isinstance(value, (list, frozenset, set)) else (0 if value is None else 1)
        need.setdefault(kind, []).append((name, key, t, size))
    shown = _shown(g, player)
    for kind, places in need.items():
        pool = sorted(_pool(g, player, kind, hidden, places), key=_order(g, kind))
        known: dict[tuple, list] = {}
        for name, key, _t, size in places:  # what a reveal showed there stays there
            for item in shown.get((name, key), [])[:size]:
                if item in pool:
                    pool.remove(item)
                    known.setdefault((name, key), []).append(item)
        rng.shuffle(pool)
        total = sum(size - len(known.get((name, key), [])) for name, key, _t, size in places)
        if len(pool) < total:  # fewer unseen items than places: fill up from the type
            values = list(domains.get(kind, ()))
            pool += [rng.choice(values) for _ in range(total - len(pool))] if values else []
        at = 0
        for name, key, t, size in places:
            items = known.get((name, key), [])
            items = items + pool[at:at + size - len(items)]
            at += size - len(known.get((name, key), []))
            base = t.base
            if isinstance(base, ListOf):
                new: Any = list(items)
            elif isinstance(base, SetOf):
                new = frozenset(items)
            else:
                new = items[0] if items else None
            _put(g, name, key, new)


def _made_up(value: Any, t: Type, g: Any) -> Any:
    """A value of type `t` with `value`'s size and nothing else of it: items, fields and numbers
    at their types' first or start values (a secret bid is 0, an opponent's plan of three orders
    is three orders of the first action in the first province)."""
    if value is None:
        return None
    base = t.base
    if isinstance(base, ListOf):
        return [_made_up(x, base.item, g) for x in value]
    if isinstance(base, SetOf):
        return frozenset(_made_up(x, base.item, g) for x in value)
    if isinstance(base, MapOf) and isinstance(value, dict):
        return {k: _made_up(x, base.val, g) for k, x in value.items()}
    fields = g.prog.model.record_fields.get(getattr(base, "name", ""))
    if fields is not None and isinstance(value, dict):
        return {f: _made_up(value.get(f), ft, g) for f, ft in fields.items()}
    if isinstance(base, Elem):
        values = g.domains().get(base.name, ())
        return values[0] if values else value
    return materialize(base, None, g.domains())  # there is one (the view says so): its start value


def _shown(g: Any, player: str) -> dict[tuple, list]:
    """What reveals showed `player` of a hidden place (`reveal hand[Bob] to Ann`), latest last:
    (variable, key or None) -> the items shown there."""
    import re

    out: dict[tuple, list] = {}
    for what, value, to, _step in getattr(g, "revealed", ()):
        if to is not None and to != player:
            continue
        m = re.fullmatch(r"([^\W\d]\w*)(?:\[([^\W\d]\w*)\])?", what)
        if m is None or m[1] not in g.vars:
            continue
        items = list(value) if isinstance(value, list) else ([] if value is None else [value])
        out[(m[1], m[2])] = items
    return out


def _put(g: Any, name: str, key: Any, value: Any) -> None:
    if key is None:
        g.vars[name] = value
    else:
        g.vars[name] = {**g.vars[name], key: value}  # a new map: clones may share the old one


def _pool(g: Any, player: str, kind: str, hidden: dict[str, str], places: list) -> list[Any]:
    """The items to deal: those in the hidden places, and those of the type that exist but lie
    nowhere in the state (Kuhn's third card), so that both may come out anywhere unseen. With
    the rules keeping every card in one place, this is what exists minus what `player` sees."""
    held: list[Any] = []
    for name, key, _t, _size in places:
        value = g.vars[name] if key is None else g.vars[name][key]
        if isinstance(value, (list, frozenset, set)):
            held.extend(value)
        elif value is not None:
            held.append(value)
    if kind not in g.prog.elements:
        return held  # numbers or texts: only those the hidden places hold
    left = Counter(_universe(g, kind))
    left.subtract(_visible(g, player, kind, hidden))
    left.subtract(held)
    return held + [x for x, n in left.items() for _ in range(max(n, 0))]


def _visible(g: Any, player: str, kind: str, hidden: dict[str, str]) -> Counter:
    """The items of type `kind` that `player` sees in the state."""
    seen: Counter = Counter()
    model = g.prog.model
    for name, t in g.prog.var_types.items():
        how = hidden.get(name)
        value = g.vars[name]
        if how == "all":
            continue
        if how == "owner" and isinstance(value, dict):
            value = {player: value[player]} if player in value else {}
        _count(value, t, kind, seen, model)
    return seen


def _universe(g: Any, kind: str) -> list[Any]:
    """The items of `kind` that exist: a `conserve` declaration's list of them, else each value
    of the type once."""
    from ..tools.conserve import conserved

    for _decl, items, _zones in conserved(g):
        values = g.prog.expr(items)(g)
        if values and all(g.prog.elements.get(kind) and x in g.prog.elements[kind] for x in values):
            return list(values)
    return list(g.domains().get(kind, ()))


def _count(value: Any, t: Type, kind: str, seen: Counter, model: Any) -> None:
    """Count the items of type `kind` in a visible value of type `t`."""
    base = t.base if isinstance(t, (Opt, Elem, ListOf, SetOf, MapOf)) else t
    if value is None:
        return
    if isinstance(base, Elem):
        if base.name == kind:
            seen[value] += 1
        return
    if isinstance(base, (ListOf, SetOf)):
        for x in value:
            _count(x, base.item, kind, seen, model)
        return
    if isinstance(base, MapOf) and isinstance(value, dict):
        for x in value.values():  # a key of a map over a type locates no item
            _count(x, base.val, kind, seen, model)
        return
    fields = model.record_fields.get(getattr(base, "name", ""), None)
    if fields and isinstance(value, dict):
        for f, ft in fields.items():
            _count(value.get(f), ft, kind, seen, model)


def _order(g: Any, kind: str) -> Any:
    """Items in their declaration order (what the player may know of a pool is its contents)."""
    if kind not in g.prog.elements:
        return lambda x: x  # numbers or texts: by value
    index = {v: i for i, v in enumerate(g.prog.elements[kind])}
    return lambda x: index.get(x, len(index))
