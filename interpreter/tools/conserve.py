"""A scenario's `given` keeps the ruleset's `conserve` declarations: a card the set-up puts in
one zone is taken out of the zones the set-up left alone, and a card it displaced (the hand it
replaced, the rest of a deck it stacked) goes back under the first zone's pile. Only what
`given` itself puts in two places is its own mistake: that fails with its line. A card that
does not exist, or one that lay nowhere already, fails the invariant check that follows.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ...dsl import ast as A
from ..engine.values import value_text
from ..stdlib.zones import misplaced, zone_entries


def conserved(g: Any) -> list[tuple[A.InvariantDecl, A.Node, list[str]]]:
    """(declaration, items expression, zone names) of each `conserve` of the ruleset."""
    out = []
    for _test, decl in g.prog.invariants:
        if decl.conserve:
            items, *zones = decl.test.args
            out.append((decl, items, [z.name for z in zones]))
    return out


def snapshot(g: Any) -> dict[str, dict[str, Any]]:
    """Each conserved zone's entries as they are before `given` runs."""
    return {decl_key(d): dict(zone_entries({z: g.vars[z] for z in zones}))
            for d, _, zones in conserved(g)}


def decl_key(decl: A.InvariantDecl) -> str:
    return f"{decl.span.line}:{decl.span.column}"


def keep(g: Any, before: dict[str, dict[str, Any]], given: A.ScenarioStep) -> str | None:
    """Restore each `conserve` after `given` where the set-up only moved cards: a card it put
    somewhere leaves the zones it did not write, and a card it displaced and put nowhere goes
    under the first zone's pile (so `set deck = [40, 3]` stacks the top of the draw pile). A
    message naming the line of the set-up when it put a card in two places itself."""
    named = _written_by(given, g)
    for decl, items_expr, zones in conserved(g):
        old = before[decl_key(decl)]
        items = list(g.prog.expr(items_expr)(g))
        now = dict(zone_entries({z: g.vars[z] for z in zones}))
        written = {name for name, v in now.items() if v != old.get(name) or name in named}
        back: list[Hashable] = []
        for item, where in misplaced(items, {z: g.vars[z] for z in zones}):
            if item not in items:
                continue  # not a piece at all: the invariant check names it
            mine = [w for w in where if w in written]
            others = [w for w in where if w not in written]
            if len(mine) > 1 or (len(mine) == 1 and mine[0] in others):
                places = sorted(set(mine))
                text = " and ".join(places) if len(places) > 1 else f"{places[0]} twice"
                return (f"the set-up puts {value_text(item)} in {text} (line "
                        f"{_line(given, mine[0])}), but 'conserve' (line {decl.span.line}) "
                        "allows one place")
            if mine and others:
                for w in others:
                    _take_out(g, w, item)
            elif not where:
                if any(name in written and item in v for name, v in old.items()):
                    back.append(item)  # else it lay nowhere before either: the invariant says so
        if back:  # under the first zone's pile, in the order they lay before
            order = {x: i for i, x in enumerate(x for v in old.values() for x in v)}
            _put_back(g, zones[0], sorted(back, key=lambda x: order.get(x, 0)))
    return None


def _written_by(given: A.ScenarioStep, g: Any) -> set[str]:
    """The zone entries the set-up's statements write, also those it sets to the value they
    had (`set deck = [c1, c2, c3, c4]` writes the deck even if it lay so already)."""
    from ...dsl.ast import iter_nodes

    out: set[str] = set()
    for t in iter_nodes(given.body or ()):
        if not isinstance(t, A.Target):
            continue
        if not t.steps:  # the whole zone, and each entry of a map of zones
            out.add(t.root)
            value = g.vars.get(t.root)
            if isinstance(value, dict):
                out.update(name for name, _v in zone_entries({t.root: value}))
        elif isinstance(t.steps[0], A.Name):
            out.add(f"{t.root}[{t.steps[0].name}]")
        elif isinstance(t.steps[0], (A.IntLit, A.StrLit)):
            out.add(f"{t.root}[{value_text(t.steps[0].value)}]")
    return out


def details(g: Any) -> list[str]:
    """What each broken `conserve` finds wrong: which piece lies where (or nowhere)."""
    out = []
    for decl, items_expr, zones in conserved(g):
        items = list(g.prog.expr(items_expr)(g))
        for item, where in misplaced(items, {z: g.vars[z] for z in zones})[:3]:
            if item not in items:
                out.append(f"{value_text(item)} in {' and '.join(where)} is not one of "
                           f"{zones_text(decl)}'s pieces")
            else:
                out.append(f"{value_text(item)} lies in " + (" and ".join(where) or "no zone")
                           + f" (line {decl.span.line})")
    return out


def zones_text(decl: A.InvariantDecl) -> str:
    from ...dsl.printer import expr_text

    return expr_text(decl.test.args[0])


def _line(given: A.ScenarioStep, entry: str) -> str:
    """Where the set-up writes the zone of `entry` (`hand[Red]` → the first write to hand)."""
    zone = entry.split("[", 1)[0]
    for s in given.body or ():
        target = getattr(s, "target", None) or getattr(s, "dest", None)
        if isinstance(target, A.Target) and target.root == zone:
            return str(s.span.line)
    return str(given.span.line)


def _entry(g: Any, entry: str) -> tuple[Any, Any]:
    """(container, key) of a zone entry named `zone` or `zone[key]`."""
    if "[" not in entry:
        return g.vars, entry
    zone, key = entry[:-1].split("[", 1)
    d = g.vars[zone]
    return d, next(k for k in d if str(k) == key)


def _take_out(g: Any, entry: str, item: Hashable) -> None:
    box, key = _entry(g, entry)
    v = box[key]
    if isinstance(v, list):
        v = list(v)
        v.remove(item)
        box[key] = v
    else:
        box[key] = frozenset(x for x in v if x != item)


def _put_back(g: Any, zone: str, items: list[Hashable]) -> None:
    v = g.vars[zone]
    g.vars[zone] = items + list(v) if isinstance(v, list) else frozenset(v) | frozenset(items)
