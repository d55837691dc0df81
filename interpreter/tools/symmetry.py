"""Board symmetries the rules cannot tell apart, so exact analysis works out one position of
each symmetric family (tic-tac-toe: 765 positions instead of 5,478).

A rotation or reflection of the grid is a symmetry of the rules when every rule treats a
square and its image alike. That is proved here, conservatively, from the rules' text and
types, not tried out on games: the rules (not displays, scenarios or visibility) must

- have exactly one board, a grid, whose squares (holes included) the transformation maps onto
  themselves;
- never name a square (`a1`) or a direction (`N`), nor call a function that sees orientation
  or coordinates (`row`, `column`, `neighbour`, `ray`, ...), nor `placements` without mirror
  images;
- never depend on the board's order of squares: no `first`, `streak`, `list`, `argmax` or
  `argmin` over squares, no `for` statement over squares, no `<`, `sorted`, `max_of`, ... on
  squares, no indexing into a list of squares;
- hold no square in a constant, an option or data.

What remains (`lines_through`, `neighbours`, `adjacent`, `distance`, `components`, `any`,
`count`, a move's square parameter, a map from squares, ...) sees the board only up to its
symmetries, so two positions that are images of each other have the same legal moves up to
the same image, and the same chances of every result under uniform random play.

`canonical_key` gives a position the smallest of its images' keys. A position that holds a
square where no type says so (a running block's local, a pending choice) keeps its own key:
it is then merely not merged with its images, which costs time, never correctness.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...dsl import ast as A
from ...dsl.check import Model
from ...dsl.check_expr import DIRECTIONS
from ...dsl.types import Elem, ListOf, MapOf, Opt, Record, SetOf, Type
from ..engine.values import jsonable
from .liveness import rule_parts
from .positions import key_parts, live_state

# library functions that see a square's coordinates, a direction or the board's orientation
ORIENTED = frozenset({"neighbour", "ray", "row", "column", "square", "column_squares", "rotate_cw", "opposite"})
# library functions whose result depends on the order of the squares they are given
ORDERED = frozenset({"sorted", "reversed", "top", "nth_largest", "min_of", "max_of", "rank_groups"})
ORDERED_AGGREGATES = frozenset({"first", "streak", "list", "argmax", "argmin"})


@dataclass(frozen=True)
class Symmetries:
    """The grid's transformations the rules cannot tell apart (each a map of square names;
    the identity is not among them), or none and why."""

    board: str | None
    maps: tuple[dict[str, str], ...]
    reason: str  # why there are none; empty when there are

    def __bool__(self) -> bool:
        return bool(self.maps)


def _mentions(t: Type, board: str, records: dict | None = None, seen: frozenset = frozenset()) -> bool:
    """Whether values of type `t` can hold a square of `board` (inside records too, given
    `records`: record name -> field name -> type)."""
    if isinstance(t, Elem):
        return t.name == board
    if isinstance(t, Opt):
        return _mentions(t.inner, board, records, seen)
    if isinstance(t, (ListOf, SetOf)):
        return _mentions(t.elem, board, records, seen)
    if isinstance(t, MapOf):
        return _mentions(t.key, board, records, seen) or _mentions(t.val, board, records, seen)
    if isinstance(t, Record) and records is not None and t.name not in seen:
        return any(_mentions(ft, board, records, seen | {t.name}) for ft in records.get(t.name, {}).values())
    return False


def _elem_of(t: Type) -> Type | None:
    return t.elem if isinstance(t, (ListOf, SetOf)) else None


def _why_not(m: Model, board: str) -> str:
    """The first thing in the rules that tells a square from its image, or "" if none does."""
    squares = {name for name, t in m.element_type.items() if t == board}
    recs = m.record_fields
    for part in rule_parts(m):
        for n in A.iter_nodes(part):
            line = f" (line {n.span.line})" if getattr(n, "span", None) is not None else ""
            if isinstance(n, A.Name) and n.name in squares:
                return f"the rules name square {n.name}{line}"
            if isinstance(n, A.Name) and n.name in DIRECTIONS:
                return f"the rules name direction {n.name}{line}"
            if isinstance(n, A.Call):
                if n.func in ORIENTED:
                    return f"the rules call {n.func}(){line}, which sees the board's orientation"
                if n.func in ORDERED and any(_mentions(m.type_of(a), board, recs) for a in n.args):
                    return f"the rules call {n.func}() on squares{line}, which depends on their order"
                mirror = {"placements": 2, "placements_touching": 3}.get(n.func)  # the mirror argument
                if mirror is not None and len(n.args) > mirror and not (
                        isinstance(n.args[mirror], A.Name) and n.args[mirror].name == "true"):
                    return f"the rules call {n.func}() without mirror images{line}"
            if isinstance(n, A.Aggregate):
                elem = _elem_of(m.type_of(n.domain))
                if n.kind in ORDERED_AGGREGATES and elem is not None and _mentions(elem, board, recs):
                    return f"the rules take '{n.kind}' over squares{line}, which depends on their order"
                if n.kind in ("max", "min") and n.body is not None and _mentions(m.type_of(n.body), board, recs):
                    return f"the rules take '{n.kind}' of squares{line}, which depends on their order"
            if isinstance(n, A.ForStmt):
                elem = _elem_of(m.type_of(n.domain))
                if elem is not None and _mentions(elem, board, recs):
                    return f"the rules loop over squares with 'for'{line}, which goes in the board's order"
            if isinstance(n, A.Compare) and n.op in ("<", "<=", ">", ">=") and _mentions(m.type_of(n.left), board, recs):
                return f"the rules compare squares with '{n.op}'{line}"
            if isinstance(n, A.Index) and isinstance(m.type_of(n.base), ListOf) and \
                    _mentions(m.type_of(n.base), board, recs):
                return f"the rules index a list of squares{line}, whose order is the board's"
    for kind, types in (("constant", m.const_types), ("option", m.option_types), ("data", m.data_types)):
        for name, t in types.items():
            if _mentions(t, board, recs):
                return f"{kind} '{name}' holds squares"
    return ""


def _transforms(width: int, height: int) -> list[Callable[[int, int], tuple[int, int]]]:
    """The rotations and reflections of a width x height rectangle, the identity left out."""
    out = []
    for swap in ((False, True) if width == height else (False,)):
        for fx in (False, True):
            for fy in (False, True):
                if not (swap or fx or fy):
                    continue

                def t(x: int, y: int, swap: bool = swap, fx: bool = fx, fy: bool = fy) -> tuple[int, int]:
                    if swap:
                        x, y = y, x
                    return (width - 1 - x if fx else x, height - 1 - y if fy else y)
                out.append(t)
    return out


def board_symmetries(m: Model, boards: Any) -> Symmetries:
    """The symmetries of the ruleset's one grid that its rules respect (module docstring)."""
    grids = getattr(boards, "grids", None) or {}
    if not m.boards:
        return Symmetries(None, (), "the rules have no board")
    if len(m.boards) > 1:
        return Symmetries(None, (), "the rules have more than one board")
    if len(grids) != 1 or getattr(boards, "graphs", None):
        return Symmetries(None, (), "the board is not a grid")
    board, grid = next(iter(grids.items()))
    why = _why_not(m, board)
    if why:
        return Symmetries(board, (), why)
    coords = grid._coords
    at = {xy: name for name, xy in coords.items()}
    maps = []
    for t in _transforms(grid.width, grid.height):
        image = {name: at.get(t(x, y)) for name, (x, y) in coords.items()}
        if None not in image.values():  # the holes map onto holes
            maps.append(image)
    if not maps:
        return Symmetries(board, (), "the board's holes are not symmetric")
    return Symmetries(board, tuple(maps), "")


class _Opaque(Exception):
    """A value whose type does not say where its squares are."""


def _image(v: Any, t: Type, sq: dict[str, str], board: str, records: dict) -> Any:
    """`v` (of type `t`) with every square of the board replaced by its image."""
    if not _mentions(t, board, records):  # nothing to map, down to records' fields
        return v
    if v is None:
        return None
    if isinstance(t, Elem):
        return sq[v]
    if isinstance(t, Opt):
        return _image(v, t.inner, sq, board, records)
    if isinstance(t, ListOf) and isinstance(v, (list, tuple)):
        return type(v)(_image(x, t.elem, sq, board, records) for x in v)
    if isinstance(t, SetOf) and isinstance(v, (set, frozenset, list, tuple)):
        return type(v)(_image(x, t.elem, sq, board, records) for x in v)
    if isinstance(t, MapOf) and isinstance(v, dict):
        return {_image(k, t.key, sq, board, records): _image(x, t.val, sq, board, records) for k, x in v.items()}
    if isinstance(t, Record) and isinstance(v, dict):
        fields = records.get(t.name)
        if fields is None:
            raise _Opaque
        return {k: _image(x, fields[k], sq, board, records) if k in fields else x for k, x in v.items()}
    raise _Opaque


def _holds_square(v: Any, squares: frozenset[str]) -> bool:
    if isinstance(v, str):
        return v in squares
    if isinstance(v, dict):
        return any(_holds_square(k, squares) or _holds_square(x, squares) for k, x in v.items())
    if isinstance(v, (list, tuple, set, frozenset)):
        return any(_holds_square(x, squares) for x in v)
    return False


class SymmetricKeys:
    """Position keys that are the same for a position and its symmetric images."""

    def __init__(self, m: Model, sym: Symmetries, history_only: frozenset[str] = frozenset()):
        self.sym = sym
        self.types = m.var_types
        self.records = m.record_fields
        self.squares = frozenset(sym.maps[0]) if sym.maps else frozenset()
        self.history_only = history_only

    def key(self, game: Any) -> str:
        """The smallest key among the position's images (its own when it cannot be mapped)."""
        parts = key_parts(game, self.history_only)
        own = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
        # the parts besides the variables must hold no square (their types are not known); a
        # move that can still be taken back keys its way back unmapped, and moves taken back or
        # a chance event half-way name their move as text: keep the own key
        if game.abandon is not None or game.abandoned or game.chance_node is not None or \
                _holds_square(parts[1:], self.squares):
            return own
        state = live_state(game, self.history_only)
        best = own
        board, records = self.sym.board, self.records
        for sq in self.sym.maps:
            try:
                image = {k: _image(v, self.types[k], sq, board, records) for k, v in state.items()}
            except (_Opaque, KeyError, TypeError):
                return own
            text = json.dumps([jsonable(image), *parts[1:]], sort_keys=True, separators=(",", ":"), default=str)
            if text < best:
                best = text
        return best
