"""The standard library as rules call it: each name in dsl/library.py bound to a function.

Board functions are bound to the ruleset's boards when a ruleset is compiled, so a call in a
rule is a plain Python call; squares and nodes are plain strings (see docs/stdlib.md).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from typing import Any

from .errors import RuleFailure
from .stdlib import aggregate, rng
from .stdlib.components import components as _components
from .stdlib.graph import Graph
from .stdlib.grid import Grid, opposite, rotate_cw
from .stdlib.matching import matching_size
from .stdlib.polyomino import placements as _placements


def _only(boards: list, kind: str) -> Any:
    return boards[0] if len(boards) == 1 else None


def make_builtins(grids: dict[str, Grid], graphs: dict[str, Graph],
                  order: Callable | None = None) -> dict[str, Callable]:
    """Bind every library function to the ruleset's boards; `order` is the sort key that puts
    squares, nodes, enum members and players in their declared order."""
    grid_list = list(grids.values())
    graph_list = list(graphs.values())
    owner: dict[str, Any] = {}
    for g in grid_list:
        for sq in g.squares:
            owner.setdefault(sq, g)
    for gr in graph_list:
        for n in gr.nodes:
            owner.setdefault(n, gr)

    def board_of(x: str) -> Any:
        try:
            return owner[x]
        except (KeyError, TypeError):
            raise RuleFailure(f"{x!r} is not a square or node of any board") from None

    lines_through_cache: dict[tuple[int, int], dict[str, list]] = {}

    def lines_through(sq: str, n: int) -> list:
        g = board_of(sq)
        key = (id(g), n)
        table = lines_through_cache.get(key)
        if table is None:
            table = {s: [] for s in g.squares}
            for line in g.lines(n):
                for s in line:
                    table[s].append(line)
            lines_through_cache[key] = table
        return table[sq]

    def lines(n: int) -> list:
        g = _only(grid_list, "grid")
        if g is None:
            raise RuleFailure("lines(n) needs exactly one grid board")
        return list(g.lines(n))

    def square(x: int, y: int) -> str | None:
        g = _only(grid_list, "grid")
        return g.square_at(x - 1, y - 1) if g is not None else None

    column_cache: dict[int, list] = {}

    def column_squares(x: int) -> list:
        col = column_cache.get(x)
        if col is None:
            g = _only(grid_list, "grid")
            col = [s for s in g.squares if g.column(s) == x] if g is not None else []
            column_cache[x] = col
        return col

    def neighbour(sq: str, d: str, steps: int = 1) -> str | None:
        return board_of(sq).neighbour(sq, d, steps)

    def neighbours(x: str, diagonal: bool = True) -> list:
        b = board_of(x)
        if isinstance(b, Graph):
            return list(b.adjacent(x))
        return list(b.neighbours(x, diagonal))

    def adjacent(a: str, b: str) -> bool:
        board = board_of(a)
        if isinstance(board, Graph):
            return board.are_adjacent(a, b)
        return b in board.neighbours(a, False)

    def placements(shape: Any, allowed: Iterable[str] | None = None, mirror: bool = True) -> list:
        g = _only(grid_list, "grid")
        if g is None:
            raise RuleFailure("placements needs exactly one grid board")
        cells = frozenset((int(c[0]), int(c[1])) for c in shape)
        ok = set(allowed) if allowed is not None else None
        found = _placements(cells, g, (ok.__contains__ if ok is not None else None), True, mirror)
        return [sorted(p) for p in found]

    def comps(items: Iterable[str], diagonal: bool = False) -> list:
        items = list(items)
        if not items:
            return []
        b = board_of(items[0])
        if isinstance(b, Graph):
            adj = b.adjacent
        else:
            def adj(s: str) -> tuple:
                return b.neighbours(s, diagonal)
        return [sorted(c) for c in _components(items, adj)]

    def top(zone: list) -> Any:
        return zone[-1] if zone else None

    def max_of(items: Iterable, default: Any = None) -> Any:
        return max(items, default=default)

    def min_of(items: Iterable, default: Any = None) -> Any:
        return min(items, default=default)

    def relative_majority(counts: dict) -> list:
        return aggregate.relative_majority(counts)

    return {
        "len": len,
        "abs": abs,
        "max_of": max_of,
        "min_of": min_of,
        "sorted": lambda xs: sorted(xs, key=order) if order is not None else sorted(xs),
        "subsets": lambda xs, n: [list(c) for c in itertools.combinations(list(xs), n)],
        "reversed": lambda xs: list(reversed(list(xs))),
        "top": top,
        "nth_largest": lambda xs, n: aggregate.nth_largest(list(xs), n),
        "rank_groups": lambda xs, scores: aggregate.rank_groups(list(xs), lambda x: scores[x]),
        "relative_majority": relative_majority,
        "keys": lambda m: list(m),
        "values": lambda m: list(m.values()),
        "flatten": lambda xss: [x for xs in xss for x in xs],
        "ceil_div": lambda a, b: -(-a // b),
        "matching_size": matching_size,
        "neighbour": neighbour,
        "neighbours": neighbours,
        "ray": lambda sq, d, n=None: list(board_of(sq).ray(sq, d, n)),
        "distance": lambda a, b: board_of(a).distance(a, b),
        "manhattan": lambda a, b: board_of(a).distance(a, b, "manhattan"),
        "lines": lines,
        "lines_through": lines_through,
        "row": lambda sq: board_of(sq).row(sq),
        "column": lambda sq: board_of(sq).column(sq),
        "square": square,
        "column_squares": column_squares,
        "rotate_cw": lambda d, n=1: rotate_cw(d, n),
        "opposite": opposite,
        "adjacent": adjacent,
        "adjacent_nodes": lambda n: list(board_of(n).adjacent(n)),
        "path_length": lambda a, b: board_of(a).path_length(a, b),
        "components": comps,
        "placements": placements,
    }


# Chance functions take the game first: they advance its generator and note the outcome.
def chance_roll(G: Any, n: int, sides: int) -> list[int]:
    if G.scripted and G.scripted.get("roll"):
        values = G.take_script("roll")
        if not (isinstance(values, list) and len(values) == n and all(
                isinstance(v, int) and 1 <= v <= sides for v in values)):
            raise RuleFailure(f"scripted roll {values!r} is impossible for {n}d{sides}")
        G.note_chance("roll", f"{n}d{sides} (scripted)", values)
        return list(values)
    values, G.rng = rng.roll_dice(G.rng, n, sides)
    G.note_chance("roll", f"{n}d{sides}", list(values))
    return list(values)


def chance_random(G: Any, items: Iterable) -> Any:
    seq = list(items)
    if not seq:
        raise RuleFailure("random() of an empty list")
    if G.scripted and G.scripted.get("random"):
        value = G.take_script("random")
        if value not in seq:
            raise RuleFailure(f"scripted random {value!r} is not one of the items")
        G.note_chance("random", f"1 of {len(seq)} (scripted)", value)
        return value
    i, G.rng = rng.randbelow(G.rng, len(seq))
    G.note_chance("random", f"1 of {len(seq)}", seq[i])
    return seq[i]


def chance_shuffled(G: Any, items: Iterable) -> list:
    if G.scripted and G.scripted.get("shuffled"):
        order = G.take_script("shuffled")
        if sorted(map(repr, order)) != sorted(map(repr, items)):
            raise RuleFailure("scripted shuffle is not a permutation of the items")
        G.note_chance("shuffle", f"{len(order)} items (scripted)", order)
        return list(order)
    out, G.rng = rng.shuffle(G.rng, list(items))
    G.note_chance("shuffle", f"{len(out)} items", out)
    return out


def game_other(G: Any, p: Any) -> Any:
    if len(G.players) != 2:
        raise RuleFailure("other() needs a two-player game")
    return G.players[1] if p == G.players[0] else G.players[0]


def game_next_player(G: Any, p: Any) -> Any:
    ps = G.players
    return ps[(ps.index(p) + 1) % len(ps)]


def game_seat(G: Any, p: Any) -> int:
    return G.players.index(p) + 1


def game_previous_player(G: Any, p: Any) -> Any:
    ps = G.players
    return ps[(ps.index(p) - 1) % len(ps)]


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


GAME = {"possible": game_possible, "other": game_other, "next_player": game_next_player, "seat": game_seat,
        "previous_player": game_previous_player, "players_from": game_players_from}

def chance_bernoulli(G: Any, num: int, den: int) -> bool:
    if not 0 <= num <= den or den <= 0:
        raise RuleFailure(f"bernoulli({num}, {den}) is not a probability")
    if G.scripted and G.scripted.get("bernoulli"):
        value = bool(G.take_script("bernoulli"))
        G.note_chance("bernoulli", f"{num}/{den} (scripted)", value)
        return value
    value, G.rng = rng.bernoulli(G.rng, num, den)
    G.note_chance("bernoulli", f"{num}/{den}", value)
    return value


CHANCE = {"roll": chance_roll, "random": chance_random, "shuffled": chance_shuffled,
          "bernoulli": chance_bernoulli}
