"""Connected groups of nodes: Go groups, territories, largest city/road networks.

Why: many scoring and capture rules ask "which pieces are connected?"; one flood fill over
any adjacency function (Grid.neighbours, Graph.adjacent, a lambda) serves them all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

Adjacent = Callable[[str], Iterable[str]]


def _as_set(nodes: Iterable[str]) -> set[str] | frozenset[str]:
    """Use a set as-is, copy anything else once, so membership tests are O(1)."""
    return nodes if isinstance(nodes, (set, frozenset)) else set(nodes)


def _flood(start: str, pool: set[str] | frozenset[str], adjacent: Adjacent) -> frozenset[str]:
    """All nodes of `pool` connected to `start` through nodes of `pool`."""
    seen = {start}
    stack = [start]
    while stack:
        for nxt in adjacent(stack.pop()):
            if nxt in pool and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return frozenset(seen)


def components(nodes: Iterable[str], adjacent: Adjacent) -> list[frozenset[str]]:
    """Connected components of `nodes` (edges leaving `nodes` are ignored), largest first,
    ties broken by the smallest member name so the order never depends on hashing."""
    pool = _as_set(nodes)
    seen: set[str] = set()
    found: list[frozenset[str]] = []
    for node in pool:
        if node not in seen:
            component = _flood(node, pool, adjacent)
            seen.update(component)
            found.append(component)
    found.sort(key=lambda c: (-len(c), min(c)))
    return found


def component_of(node: str, nodes: Iterable[str], adjacent: Adjacent) -> frozenset[str]:
    """The component of `nodes` containing `node`; empty if `node` is not in `nodes`."""
    pool = _as_set(nodes)
    if node not in pool:
        return frozenset()
    return _flood(node, pool, adjacent)
