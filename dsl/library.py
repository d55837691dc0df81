"""Signatures of the standard library as the checker sees them.

The implementations live in interpreter/builtins.py under the same names; a test keeps the
two tables in step. Result types use the checker's type strings (see dsl/check.py).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Signature:
    min_args: int
    max_args: int
    result: str  # a type string; "arg0" means the type of the first argument
    doc: str
    chance: bool = False  # advances the random generator: allowed only in `let`


LIBRARY: dict[str, Signature] = {
    # counting, grouping, collections
    "len": Signature(1, 1, "int", "number of items in a list, set or map"),
    "abs": Signature(1, 1, "int", "absolute value"),
    "max_of": Signature(1, 2, "any", "largest item of a list (default for an empty list)"),
    "min_of": Signature(1, 2, "any", "smallest item of a list (default for an empty list)"),
    "sorted": Signature(1, 1, "arg0", "the items in ascending order"),
    "reversed": Signature(1, 1, "arg0", "the items in reverse order"),
    "subsets": Signature(2, 2, "list", "every choice of n items from a list, in order"),
    "top": Signature(1, 1, "any", "the top (last) item of a zone, or none"),
    "nth_largest": Signature(2, 2, "any", "the n-th largest distinct value (1 = largest), or none"),
    "rank_groups": Signature(2, 2, "list", "items grouped by equal score, best group first"),
    "relative_majority": Signature(1, 1, "list", "keys of a count map tied at a maximum >= 1"),
    "keys": Signature(1, 1, "list", "the keys of a map"),
    "values": Signature(1, 1, "list", "the values of a map, in key order"),
    "flatten": Signature(1, 1, "list", "one list of the items of a list of lists"),
    "ceil_div": Signature(2, 2, "int", "a divided by b, rounded up"),
    "matching_size": Signature(1, 1, "int", "largest number of items that each get their own slot, "
                               "given each item's list of possible slots"),
    "players_from": Signature(1, 1, "list:Player", "all players in seat order, starting with this one"),
    "other": Signature(1, 1, "Player", "in a two-player game, the opponent of a player"),
    "previous_player": Signature(1, 1, "Player", "the player before this one in seat order"),
    "next_player": Signature(1, 1, "Player", "the player after this one in seat order"),
    "seat": Signature(1, 1, "int", "a player's seat number, 1-based"),
    # grid geometry
    "neighbour": Signature(2, 3, "opt:Square", "the square one (or n) steps in a direction, or none"),
    "neighbours": Signature(1, 2, "list:Square", "adjacent squares (diagonals unless false)"),
    "ray": Signature(2, 3, "list:Square", "squares walked from a square in a direction"),
    "distance": Signature(2, 2, "int", "Chebyshev distance between two squares"),
    "manhattan": Signature(2, 2, "int", "Manhattan distance between two squares"),
    "lines": Signature(1, 1, "list", "every straight run of n squares on the grid"),
    "lines_through": Signature(2, 2, "list", "the straight runs of n squares containing a square"),
    "row": Signature(1, 1, "int", "a square's row, 1-based from the south edge"),
    "column": Signature(1, 1, "int", "a square's column, 1-based from the west edge"),
    "square": Signature(2, 2, "opt:Square", "the square at column x and row y (1-based), or none"),
    "column_squares": Signature(1, 1, "list:Square", "the squares of column x from south to north"),
    "rotate_cw": Signature(1, 2, "Direction", "the direction n eighth-turns clockwise"),
    "opposite": Signature(1, 1, "Direction", "the opposite direction"),
    # graphs and areas
    "adjacent": Signature(2, 2, "bool", "whether two graph nodes or squares touch"),
    "adjacent_nodes": Signature(1, 1, "list", "the nodes adjacent to a graph node"),
    "path_length": Signature(2, 2, "opt:int", "shortest path length between two graph nodes"),
    "components": Signature(1, 2, "list", "connected groups of the given squares or nodes"),
    # polyominoes
    "placements": Signature(2, 3, "list", "square sets a shape covers, in every orientation"),
    # the game itself
    "possible": Signature(1, 2, "bool", "whether the named action has a legal move now "
                          "(for the current player, or the one given)"),
    # chance (only as the value of a `let`)
    "roll": Signature(2, 2, "list:int", "roll n dice with s sides", chance=True),
    "random": Signature(1, 1, "any", "one item of a list, uniformly", chance=True),
    "shuffled": Signature(1, 1, "arg0", "a shuffled copy of a list", chance=True),
    "bernoulli": Signature(2, 2, "bool", "true with probability num/den", chance=True),
}
