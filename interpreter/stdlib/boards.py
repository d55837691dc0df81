"""The ruleset's boards as the library's board functions see them (`neighbour`, `ray`, ...).

A `Boards` is made once per compiled ruleset; each board function of the library table
(interpreter/stdlib/library.py) is one of its methods, bound at compile time, so a call in a rule
is a plain method call on squares and nodes that are plain strings (see docs/stdlib.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..engine.errors import RuleFailure
from .components import component_of as _component_of
from .components import components as _components
from .graph import Graph
from .grid import Grid
from .polyomino import PlacementTable

GRAPH_FLOOD_BY_SETS = True  # `component_of` on a graph by set intersections (measured on/off: §17)


def _graph_component(node: str, items: Iterable[str], graph: Graph) -> list[str]:
    """The nodes of `items` connected to `node` through `items` on `graph` (unordered), found by
    intersecting the items not yet reached with each reached node's neighbour set in C, one
    set operation a node instead of a membership test per edge (Root's wood reach through
    ruled clearings: `components.component_of`'s flood, the same members)."""
    pool = set(items)
    if node not in pool:
        return []
    adj = graph._adjacent_sets  # noqa: SLF001 - the graph's own neighbour sets, read only
    pool.discard(node)
    found = [node]
    todo = [node]
    while todo and pool:
        new = pool.intersection(adj[todo.pop()])
        if new:
            pool -= new
            found += new
            todo += new
    return found


class Boards:
    """Grids and graphs of one ruleset, and the order in which their squares sort."""

    def __init__(self, grids: dict[str, Grid], graphs: dict[str, Graph],
                 order: Callable[[Any], Any] | None = None):
        self.grids = grids
        self.graphs = graphs
        self.order = order
        self._owner: dict[str, Grid | Graph] = {}
        for g in grids.values():
            for sq in g.squares:
                self._owner.setdefault(sq, g)
        for gr in graphs.values():
            for n in gr.nodes:
                self._owner.setdefault(n, gr)
        self._lines_through: dict[tuple[int, int], dict[str, list]] = {}
        self._columns: dict[int, list[str]] = {}
        self._placements: dict[tuple, PlacementTable] = {}
        # the shape object last seen per id (kept, so the id cannot be reused) and its table;
        # and the allowed list last seen with its mask: lists are values, never changed in place
        self._by_shape: dict[int, tuple[Any, PlacementTable]] = {}
        self._last_allowed: tuple[Any, int] = (None, 0)
        self._last_touching: tuple[Any, int] = (None, 0)  # likewise for placements_touching
        self._sorted: Callable[[Iterable[Any]], list] | None = None

    # ------------------------------------------------------------------ helpers
    def board_of(self, x: str) -> Grid | Graph:
        try:
            return self._owner[x]
        except (KeyError, TypeError):
            raise RuleFailure(f"{x!r} is not a square or node of any board") from None

    def only_grid(self, fn: str) -> Grid:
        if len(self.grids) != 1:
            raise RuleFailure(f"{fn}() needs exactly one grid board")
        return next(iter(self.grids.values()))

    # ------------------------------------------------------------------ grid geometry
    def neighbour(self, sq: str, d: str, steps: int = 1) -> str | None:
        return self.board_of(sq).neighbour(sq, d, steps)

    def neighbours(self, x: str, diagonal: bool = True) -> list[str]:
        b = self.board_of(x)
        if isinstance(b, Graph):
            return list(b.adjacent(x))
        return list(b.neighbours(x, diagonal))

    def ray(self, sq: str, d: str, n: int | None = None) -> list[str]:
        return list(self.board_of(sq).ray(sq, d, n))

    def distance(self, a: str, b: str) -> int:
        return self.board_of(a).distance(a, b)

    def manhattan(self, a: str, b: str) -> int:
        return self.board_of(a).distance(a, b, "manhattan")

    def lines(self, n: int) -> list:
        return list(self.only_grid("lines").lines(n))

    def lines_through(self, sq: str, n: int) -> list:
        g = self.board_of(sq)
        table = self._lines_through.get((id(g), n))
        if table is None:
            table = {s: [] for s in g.squares}
            for line in g.lines(n):
                for s in line:
                    table[s].append(line)
            self._lines_through[(id(g), n)] = table
        return table[sq]

    def row(self, sq: str) -> int:
        return self.board_of(sq).row(sq)

    def column(self, sq: str) -> int:
        return self.board_of(sq).column(sq)

    def square(self, x: int, y: int) -> str | None:
        return self.only_grid("square").square_at(x - 1, y - 1)

    def column_squares(self, x: int) -> list[str]:
        col = self._columns.get(x)
        if col is None:
            g = self.only_grid("column_squares")
            col = self._columns[x] = [s for s in g.squares if g.column(s) == x]
        return col

    # ------------------------------------------------------------------ graphs and areas
    def adjacent(self, a: str, b: str) -> bool:
        board = self.board_of(a)
        if isinstance(board, Graph):
            return board.are_adjacent(a, b)
        return b in board.neighbours(a, False)

    def adjacent_nodes(self, n: str) -> list[str]:
        return list(self.board_of(n).adjacent(n))

    def path_length(self, a: str, b: str) -> int | None:
        return self.board_of(a).path_length(a, b)

    def components(self, items: Iterable[str], diagonal: bool = False) -> list:
        items = list(items)
        if not items:
            return []
        b = self.board_of(items[0])
        if isinstance(b, Graph):
            adj = b.adjacent
        else:
            def adj(s: str) -> tuple:
                return b.neighbours(s, diagonal)
        return [sorted(c) for c in _components(items, adj)]

    def component_of(self, node: str, items: Iterable[str], diagonal: bool = False) -> list:
        """The group of `items` connected to `node` through `items` (wood reachable through
        ruled clearings, a Go group), in the board's order; empty if `node` is not in `items`."""
        b = self.board_of(node)
        if isinstance(b, Graph):
            if GRAPH_FLOOD_BY_SETS:
                return self.sorted(_graph_component(node, items, b))
            adj = b.adjacent
        else:
            def adj(s: str) -> tuple:
                return b.neighbours(s, diagonal)
        return self.sorted(_component_of(node, items, adj))

    # ------------------------------------------------------------------ polyominoes
    def placements(self, shape: Any, allowed: Iterable[str] | None = None, mirror: bool = True) -> list:
        """The square lists a shape covers on the grid, all within `allowed`. Each shape's
        placements are worked out once (PlacementTable); a call filters them by bitmask."""
        table = self._table(shape, mirror)
        if allowed is None:
            return [squares for _m, squares in table.items]
        return table.within(self._allowed_mask(table, allowed))

    def placements_touching(self, shape: Any, allowed: Iterable[str] | None, touching: Iterable[str] | None,
                            mirror: bool = True) -> list:
        """The placements of `placements(shape, allowed, mirror)` that cover at least one
        square of `touching`, in the same order; all of them when `touching` is none (the
        compiler's listings pass none where working out the squares failed)."""
        # the shape, the allowed squares and the squares to touch of the last call are asked
        # again and again by one listing: each found by identity first (lists are values)
        seen = self._by_shape.get(id(shape)) if mirror is True else None
        table = seen[1] if seen is not None and seen[0] is shape else self._table(shape, mirror)
        if touching is None:
            if allowed is None:
                return [squares for _m, squares in table.items]
            return table.within(self._allowed_mask(table, allowed))
        if allowed is None:
            full = table.mask(table.bit)
        else:
            last, full = self._last_allowed
            if allowed is not last:
                full = self._allowed_mask(table, allowed)
        last, touch = self._last_touching
        if touching is not last:
            touch = table.mask(touching)
            if type(touching) is list:
                self._last_touching = (touching, touch)
        return table.touching(full, touch)

    def _allowed_mask(self, table: PlacementTable, allowed: Iterable[str]) -> int:
        """The mask of `allowed`, remembered for the last list asked (one enumeration asks for
        many shapes within the same squares)."""
        last, mask = self._last_allowed
        if allowed is not last:
            mask = table.mask(allowed)
            if type(allowed) is list:
                self._last_allowed = (allowed, mask)
        return mask

    def _table(self, shape: Any, mirror: bool) -> PlacementTable:
        """The placement table of one shape (and mirror choice), made the first time."""
        seen = self._by_shape.get(id(shape)) if mirror is True else None
        if seen is not None and seen[0] is shape:  # the same shape object (constant data) again
            table = seen[1]
        else:
            g = self.only_grid("placements")
            cells = tuple(sorted({(int(c[0]), int(c[1])) for c in shape}))
            key = (cells, bool(mirror))
            table = self._placements.get(key)
            if table is None:
                table = self._placements[key] = PlacementTable(cells, g, True, bool(mirror))
            if mirror is True and len(self._by_shape) < 4096:
                self._by_shape[id(shape)] = (shape, table)
        return table

    # ------------------------------------------------------------------ ordering
    def sorted(self, xs: Iterable[Any]) -> list:
        if self.order is None:
            return sorted(xs)
        if self._sorted is None:
            from ..engine.runtime import sorted_by

            self._sorted = sorted_by(self.order)
        return self._sorted(xs)
