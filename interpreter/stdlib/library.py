"""The standard library as rules call it: one table, each entry with its signature (for the
checker) and its implementation (for the compiler).

Kinds of implementation:
- `pure`: a plain function of its arguments;
- `board`: a method of `Boards` (interpreter/stdlib/boards.py), bound to the ruleset's boards when it
  is compiled;
- `game`: takes the game first (seats, `possible`);
- `chance`: takes the game first and advances its generator (interpreter/stdlib/chance.py); allowed
  only as the value of a `let`.
`tabulable` functions depend on nothing but their arguments, so the compiler may work out a
call over finite argument types once, as a table (board geometry, directions).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ...dsl.types import ANY, BOOL, INT, LIST, PLAYER, Elem, ListOf, Opt, Type, optional
from ..engine.errors import RuleFailure
from . import aggregate, chance
from .boards import Boards
from .grid import opposite, rotate_cw
from .matching import matching_size
from .zones import each_once

# A result is a Type, or a function of the argument types and the ruleset's only grid type.
Result = Type | Callable[[list[Type], Type], Type]


@dataclass(frozen=True, slots=True)
class Builtin:
    name: str
    min_args: int
    max_args: int
    result: Result
    doc: str
    kind: str  # pure | board | game | chance
    impl: Callable
    tabulable: bool = False
    unique: bool = False  # its result (a list) never holds an item twice
    # What each argument must be, for the checker (dsl/check_expr.py `library_args`): int, bool,
    # text, player, dir, place (a square or node), coll (list, set, map or range), list, map,
    # lists (a collection of collections), any; a trailing `?` lets the argument be none. The
    # last one repeats for more arguments.
    params: tuple[str, ...] = ()

    @property
    def chance(self) -> bool:
        return self.kind == "chance"

    @property
    def call_text(self) -> str:
        """How a rule calls it, as the docs write it: `placements(shape, allowed[, mirror])`;
        the names are the implementation's parameters (without the game or the boards)."""
        import inspect

        params = [p for p in inspect.signature(self.impl).parameters.values() if p.name not in ("self", "G")]
        shown, optional = [], []
        for i, p in enumerate(params):
            name = f"{p.name}..." if p.kind is inspect.Parameter.VAR_POSITIONAL else p.name
            (shown if i < self.min_args or p.kind is inspect.Parameter.VAR_POSITIONAL else optional).append(name)
        text = ", ".join(shown)
        for name in optional:
            text += f"[, {name}]" if text else f"[{name}]"
        return f"{self.name}({text})"

    def result_type(self, args: list[Type], grid: Type) -> Type:
        return self.result(args, grid) if callable(self.result) else self.result

    def bind(self, boards: Boards) -> Callable:
        """The callable that generated code calls (game and chance ones take the game first)."""
        return self.impl.__get__(boards) if self.kind == "board" else self.impl


def _arg0(args: list[Type], grid: Type) -> Type:
    return args[0] if args else ANY


def _board0(wrap: Callable[[Type], Type]) -> Result:
    """A result over the board of the first argument (a square or node)."""
    return lambda args, grid: wrap(args[0].base) if args and isinstance(args[0].base, Elem) else wrap(ANY)


def _grid(wrap: Callable[[Type], Type]) -> Result:
    return lambda args, grid: wrap(grid)


def _lists(t: Type) -> Type:
    """A list of lists of `t` (runs of squares, placements, groups)."""
    return ListOf(ListOf(t))


def _item0(args: list[Type], grid: Type) -> Type:
    return args[0].item if args else ANY


# ---------------------------------------------------------------------- game functions
def game_other(G: Any, p: Any) -> Any:
    if len(G.players) != 2:
        raise RuleFailure("other() needs a two-player game")
    return G.players[1] if p == G.players[0] else G.players[0]


def game_next_player(G: Any, p: Any) -> Any:
    ps = G.players
    return ps[(ps.index(p) + 1) % len(ps)]


def game_previous_player(G: Any, p: Any) -> Any:
    ps = G.players
    return ps[(ps.index(p) - 1) % len(ps)]


def game_seat(G: Any, p: Any) -> int:
    return G.players.index(p) + 1


def game_players_from(G: Any, p: Any) -> list:
    ps = list(G.players)
    i = ps.index(p)
    return ps[i:] + ps[:i]


def game_possible(G: Any, action: str, player: Any = None) -> bool:
    """Whether `action` has a legal move now, for `player` (default: the current one)."""
    before = G.current
    if player is not None:
        G.current = player
    try:
        return bool(G.prog.actions[action].any(G))
    finally:
        G.current = before


# ---------------------------------------------------------------------- pure functions
def _max_of(items: Iterable, default: Any = None) -> Any:
    return max(items, default=default)


def _min_of(items: Iterable, default: Any = None) -> Any:
    return min(items, default=default)


def _top(zone: list) -> Any:
    return zone[-1] if zone else None


MAX_LIST = 1_000_000  # items of one list a library function may make


def _subsets(xs: Iterable, n: int) -> list:
    items = list(xs)
    count = math.comb(len(items), n) if 0 <= n <= len(items) else 0
    if count > MAX_LIST:
        raise RuleFailure(f"subsets of {len(items)} items taken {n} at a time would be {count:,} lists; "
                          f"at most {MAX_LIST:,}")
    return [list(c) for c in itertools.combinations(items, n)]


def _reversed(xs: Iterable) -> list:
    return list(reversed(list(xs)))


def _nth_largest(xs: Iterable, n: int) -> Any:
    return aggregate.nth_largest(list(xs), n)


def _rank_groups(xs: Iterable, scores: dict) -> list:
    return aggregate.rank_groups(list(xs), lambda x: scores[x])


def _keys(m: dict) -> list:
    return list(m)


def _values(m: dict) -> list:
    return list(m.values())


def _flatten(xss: Iterable) -> list:
    return [x for xs in xss for x in xs]


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


_UNIQUE = {"neighbours", "ray", "lines", "lines_through", "column_squares", "adjacent_nodes", "components",
           "component_of", "placements", "placements_touching", "keys", "players_from"}


def _b(name: str, lo: int, hi: int, result: Result, doc: str, kind: str, impl: Callable,
       tabulable: bool = False) -> Builtin:
    return Builtin(name, lo, hi, result, doc, kind, impl, tabulable, name in _UNIQUE,
                   tuple(_PARAMS[name].split()))


def _opt_item(args: list[Type], grid: Type) -> Type:
    """An item of the first argument, or none (`top`, `max_of` without a default)."""
    if not args:
        return ANY
    item = args[0].base.item
    if len(args) > 1:  # a default: the item, or the default's type
        return item if item != ANY else args[1]
    return optional(item)


def _groups(args: list[Type], grid: Type) -> Type:
    return ListOf(ListOf(args[0].base.item)) if args else LIST


def _map_keys(args: list[Type], grid: Type) -> Type:
    return ListOf(args[0].base.item) if args else LIST


def _flat(args: list[Type], grid: Type) -> Type:
    return ListOf(args[0].base.item.base.item) if args else LIST


def _as_list(args: list[Type], grid: Type) -> Type:
    return ListOf(args[0].base.item) if args else LIST


_PARAMS = {
    "len": "sized", "abs": "int", "max_of": "coll any?", "min_of": "coll any?", "sorted": "coll",
    "reversed": "coll", "subsets": "coll int", "top": "list", "nth_largest": "coll int",
    "rank_groups": "coll map", "relative_majority": "map", "keys": "map", "values": "map",
    "flatten": "lists", "ceil_div": "int int", "matching_size": "lists", "each_once": "any",
    "players_from": "player", "other": "player", "previous_player": "player",
    "next_player": "player", "seat": "player", "possible": "any player",
    "neighbour": "place dir int", "neighbours": "place bool", "ray": "place dir int",
    "distance": "place place", "manhattan": "place place", "lines": "int",
    "lines_through": "place int", "row": "place", "column": "place", "square": "int int",
    "column_squares": "int", "rotate_cw": "dir int", "opposite": "dir", "adjacent": "place place",
    "adjacent_nodes": "place", "path_length": "place place", "components": "coll bool",
    "component_of": "place coll bool",
    "placements": "any coll bool", "placements_touching": "any coll coll bool", "roll": "int int", "random": "coll", "shuffled": "coll",
    "bernoulli": "int int",
}


_ENTRIES = [
    # counting, grouping, collections
    _b("len", 1, 1, INT, "number of items in a list, set or map", "pure", len),
    _b("abs", 1, 1, INT, "absolute value", "pure", abs),
    _b("max_of", 1, 2, _opt_item, "largest item of a list (default for an empty list)", "pure", _max_of),
    _b("min_of", 1, 2, _opt_item, "smallest item of a list (default for an empty list)", "pure", _min_of),
    _b("sorted", 1, 1, _as_list, "the items in ascending order", "board", Boards.sorted),
    _b("reversed", 1, 1, _as_list, "the items in reverse order", "pure", _reversed),
    _b("subsets", 2, 2, lambda args, grid: _lists(args[0].item if args else ANY), "every choice of n items from a list, in order", "pure", _subsets),
    _b("top", 1, 1, _opt_item, "the top (last) item of a zone, or none", "pure", _top),
    _b("nth_largest", 2, 2, lambda args, grid: optional(args[0].base.item) if args else ANY, "the n-th largest distinct value (1 = largest), or none", "pure",
       _nth_largest),
    _b("rank_groups", 2, 2, _groups, "items grouped by equal score, best group first", "pure", _rank_groups),
    _b("relative_majority", 1, 1, _map_keys, "keys of a count map tied at a maximum >= 1", "pure",
       aggregate.relative_majority),
    _b("keys", 1, 1, lambda args, grid: ListOf(args[0].item if args else ANY), "the keys of a map", "pure", _keys),
    _b("values", 1, 1, lambda args, grid: ListOf(args[0].value if args else ANY), "the values of a map, in key order", "pure", _values),
    _b("flatten", 1, 1, _flat, "one list of the items of a list of lists", "pure", _flatten),
    _b("ceil_div", 2, 2, INT, "a divided by b, rounded up", "pure", _ceil_div),
    _b("matching_size", 1, 1, INT, "largest number of items that each get their own slot, "
       "given each item's list of possible slots", "pure", matching_size),
    _b("each_once", 2, 17, BOOL, "whether every item lies in exactly one of the zones (lists, "
       "sets, or maps of them) and the zones hold nothing else", "pure", each_once),
    # seats and the game itself
    _b("players_from", 1, 1, ListOf(PLAYER), "all players in seat order, starting with this one", "game",
       game_players_from),
    _b("other", 1, 1, PLAYER, "in a two-player game, the opponent of a player", "game", game_other),
    _b("previous_player", 1, 1, PLAYER, "the player before this one in seat order", "game",
       game_previous_player),
    _b("next_player", 1, 1, PLAYER, "the player after this one in seat order", "game", game_next_player),
    _b("seat", 1, 1, INT, "a player's seat number, 1-based", "game", game_seat),
    _b("possible", 1, 2, BOOL, "whether the named action has a legal move now "
       "(for the current player, or the one given)", "game", game_possible),
    # grid geometry
    _b("neighbour", 2, 3, _board0(optional), "the square one (or n) steps in a direction, or none",
       "board", Boards.neighbour, True),
    _b("neighbours", 1, 2, _board0(ListOf), "adjacent squares (diagonals unless false)", "board",
       Boards.neighbours, True),
    _b("ray", 2, 3, _board0(ListOf), "squares walked from a square in a direction", "board", Boards.ray,
       True),
    _b("distance", 2, 2, INT, "Chebyshev distance between two squares", "board", Boards.distance, True),
    _b("manhattan", 2, 2, INT, "Manhattan distance between two squares", "board", Boards.manhattan, True),
    _b("lines", 1, 1, _grid(_lists), "every straight run of n squares on the grid", "board", Boards.lines, True),
    _b("lines_through", 2, 2, _board0(_lists), "the straight runs of n squares containing a square", "board",
       Boards.lines_through, True),
    _b("row", 1, 1, INT, "a square's row, 1-based from the south edge", "board", Boards.row, True),
    _b("column", 1, 1, INT, "a square's column, 1-based from the west edge", "board", Boards.column, True),
    _b("square", 2, 2, _grid(optional), "the square at column x and row y (1-based), or none", "board",
       Boards.square, True),
    _b("column_squares", 1, 1, _grid(ListOf), "the squares of column x from south to north", "board",
       Boards.column_squares, True),
    _b("rotate_cw", 1, 2, Elem("Direction"), "the direction n eighth-turns clockwise", "pure", rotate_cw,
       True),
    _b("opposite", 1, 1, Elem("Direction"), "the opposite direction", "pure", opposite, True),
    # graphs and areas
    _b("adjacent", 2, 2, BOOL, "whether two graph nodes or squares touch", "board", Boards.adjacent, True),
    _b("adjacent_nodes", 1, 1, _board0(ListOf), "the nodes adjacent to a graph node", "board",
       Boards.adjacent_nodes, True),
    _b("path_length", 2, 2, Opt(INT), "shortest path length between two graph nodes", "board",
       Boards.path_length, True),
    _b("components", 1, 2, lambda args, grid: _lists(args[0].item.base if args else ANY), "connected groups of the given squares or nodes", "board",
       Boards.components),
    _b("component_of", 2, 3, _board0(ListOf), "the given squares or nodes connected to one of them "
       "through the others (empty if it is not among them)", "board", Boards.component_of),
    # polyominoes
    _b("placements", 2, 3, _grid(_lists), "square sets a shape covers, in every orientation", "board",
       Boards.placements),
    _b("placements_touching", 3, 4, _grid(_lists), "the placements within the allowed squares that cover "
       "at least one of the touching squares", "board", Boards.placements_touching),
    # chance (only as the value of a `let`)
    _b("roll", 2, 2, ListOf(INT), "roll n dice with s sides", "chance", chance.chance_roll),
    _b("random", 1, 1, _item0, "one item of a list, uniformly", "chance", chance.chance_random),
    _b("shuffled", 1, 1, _as_list, "a shuffled copy of a list", "chance", chance.chance_shuffled),
    _b("bernoulli", 2, 2, BOOL, "true with probability num/den", "chance", chance.chance_bernoulli),
]

LIBRARY: dict[str, Builtin] = {b.name: b for b in _ENTRIES}
CHANCE_FUNCTIONS = frozenset(n for n, b in LIBRARY.items() if b.kind == "chance")
