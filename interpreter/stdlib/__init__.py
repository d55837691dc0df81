"""The interpreter's generic standard library: boards, shapes, scoring, randomness, cards.

Modules are re-exported as modules (not their functions) because several share names
(rng.shuffle, deck.draw, ...); `components` the module is distinct from the function
components.components. Grid and Graph are re-exported for convenience.
"""

from . import aggregate, components, deck, graph, grid, polyomino, rng
from .graph import Graph
from .grid import Grid

__all__ = ["Graph", "Grid", "aggregate", "components", "deck", "graph", "grid", "polyomino", "rng"]
