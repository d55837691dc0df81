"""Boards that are not square grids: named nodes joined by edges (maps, tracks, hex boards).

Why: point-to-point boards (Risk-like maps, railway networks, Nine Men's Morris) need the
same questions a grid answers -- who is adjacent, how far, what is reachable -- with the
adjacency precomputed once so queries do not allocate.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable

Passable = Callable[[str], bool]


class Graph:
    """Nodes plus edges, undirected unless directed=True; adjacency kept in insertion order."""

    __slots__ = ("nodes", "directed", "_adjacent", "_adjacent_sets")

    def __init__(
        self, nodes: Iterable[str], edges: Iterable[tuple[str, str]], directed: bool = False
    ) -> None:
        """Index nodes and edges; duplicate nodes/edges are ignored, unknown endpoints rejected."""
        adjacent: dict[str, dict[str, None]] = {}  # dict keys: a set that keeps order
        nodes = [sys.intern(n) if type(n) is str else n for n in nodes]  # canonical names (engine/canonical.py)
        edges = [tuple(sys.intern(e) if type(e) is str else e for e in pair) for pair in edges]
        for node in nodes:
            adjacent.setdefault(node, {})
        for a, b in edges:
            for end in (a, b):
                if end not in adjacent:
                    raise KeyError(f"edge ({a!r}, {b!r}) mentions unknown node {end!r}")
            adjacent[a][b] = None
            if not directed:
                adjacent[b][a] = None
        self.nodes: tuple[str, ...] = tuple(adjacent)
        self.directed = directed
        self._adjacent = {n: tuple(v) for n, v in adjacent.items()}
        self._adjacent_sets = {n: frozenset(v) for n, v in adjacent.items()}

    def _check(self, node: str) -> None:
        """Fail with a message naming the node, instead of a bare KeyError deep in a search."""
        if not self.contains(node):
            raise KeyError(f"unknown node {node!r}; this graph has {len(self.nodes)} nodes")

    def contains(self, node: str) -> bool:
        """True if `node` is a node of this graph."""
        try:
            return node in self._adjacent
        except TypeError:
            return False

    def adjacent(self, node: str) -> tuple[str, ...]:
        """Neighbours (successors if directed) in the order their edges were given."""
        try:
            return self._adjacent[node]
        except (KeyError, TypeError):
            self._check(node)
            raise

    def are_adjacent(self, a: str, b: str) -> bool:
        """True if an edge leads from a to b (either way when undirected)."""
        self._check(b)
        try:
            return b in self._adjacent_sets[a]
        except (KeyError, TypeError):
            self._check(a)
            raise

    def path_length(self, a: str, b: str, passable: Passable | None = None) -> int | None:
        """Fewest edges from a to b (BFS); `passable` must hold for every node strictly
        between them. None if b cannot be reached."""
        self._check(a)
        self._check(b)
        if a == b:
            return 0
        seen = {a}
        frontier = [a]
        depth = 0
        while frontier:
            depth += 1
            following: list[str] = []
            for node in frontier:
                for nxt in self._adjacent[node]:
                    if nxt in seen:
                        continue
                    if nxt == b:
                        return depth
                    seen.add(nxt)
                    if passable is None or passable(nxt):
                        following.append(nxt)
            frontier = following
        return None

    def reachable(self, start: str, passable: Passable | None = None) -> frozenset[str]:
        """Every node with a path from start whose intermediate nodes are passable
        (start included). Impassable nodes are reached but not passed through, matching
        path_length; filter the result with `passable` to keep only passable nodes."""
        self._check(start)
        seen = {start}
        stack = [start]
        while stack:
            for nxt in self._adjacent[stack.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    if passable is None or passable(nxt):
                        stack.append(nxt)
        return frozenset(seen)

    def __contains__(self, node: object) -> bool:
        """Support `node in graph`."""
        return self.contains(node)  # type: ignore[arg-type]

    def __len__(self) -> int:
        """Number of nodes."""
        return len(self.nodes)

    def __repr__(self) -> str:
        """Readable form for traces and test failures."""
        edges = sum(len(v) for v in self._adjacent.values())
        if not self.directed:
            loops = sum(1 for n, v in self._adjacent.items() if n in v)
            edges = (edges + loops) // 2
        return f"Graph({len(self.nodes)} nodes, {edges} edges, directed={self.directed})"
