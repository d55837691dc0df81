"""Polyomino shapes (tiles covering several squares) and where they fit on a Grid.

Why: tile-laying games (Blokus, Patchwork, Cottage Garden, Tetris-likes) need the distinct
orientations of a piece and every legal placement; both are derived here once, cached, and
returned in a deterministic order so replays and traces are stable.

A SHAPE is a frozenset of (dx, dy) int pairs; y grows to the north like on the Grid.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only for annotations, so this file also loads on its own
    from .grid import Grid

Cell = tuple[int, int]
Shape = frozenset[Cell]

_CELL_CHARS = frozenset("#")
_EMPTY_CHARS = frozenset(". ")


def normalize(shape: Iterable[Cell]) -> Shape:
    """Translate a shape so its minimum x and y are 0; equal pieces then compare equal."""
    cells = frozenset(shape)
    if not cells:
        return cells
    min_x = min(x for x, _ in cells)
    min_y = min(y for _, y in cells)
    return frozenset((x - min_x, y - min_y) for x, y in cells)


def rotate_shape(shape: Iterable[Cell], quarter_turns: int = 1) -> Shape:
    """Turn a shape clockwise by quarter turns (negative = anticlockwise), normalized."""
    cells = frozenset(shape)
    for _ in range(quarter_turns % 4):
        cells = frozenset((y, -x) for x, y in cells)
    return normalize(cells)


def mirror_shape(shape: Iterable[Cell]) -> Shape:
    """Flip a shape left-right (the 'turn the tile over' move), normalized."""
    return normalize((-x, y) for x, y in shape)


@lru_cache(maxsize=1024)
def _orientations(shape: Shape, rotate: bool, mirror: bool) -> tuple[Shape, ...]:
    """Cached core of orientations(); `shape` is already normalized."""
    bases = (shape, mirror_shape(shape)) if mirror else (shape,)
    seen: dict[Shape, None] = {}
    for base in bases:
        current = base
        for _ in range(4 if rotate else 1):
            seen.setdefault(current, None)
            current = rotate_shape(current)
    return tuple(seen)


def orientations(
    shape: Iterable[Cell], rotate: bool = True, mirror: bool = True
) -> tuple[Shape, ...]:
    """Distinct normalized orientations: the shape itself first, then its rotations
    clockwise, then (if mirror) the mirrored shape and its rotations. Cached per shape."""
    return _orientations(normalize(shape), bool(rotate), bool(mirror))


def parse_shape(rows: Sequence[str]) -> Shape:
    """Read ASCII art ('#' = cell, '.' or ' ' = empty; top row = highest y) so rulesets can
    draw pieces instead of listing coordinates."""
    if isinstance(rows, str):
        raise TypeError("parse_shape expects a list of rows; use text.splitlines()")
    cells: set[Cell] = set()
    top = len(rows) - 1
    for i, row in enumerate(rows):
        for x, char in enumerate(row):
            if char in _CELL_CHARS:
                cells.add((x, top - i))
            elif char not in _EMPTY_CHARS:
                raise ValueError(f"unexpected {char!r} in shape row {row!r}; use '#' and '.'")
    if not cells:
        raise ValueError("a shape needs at least one '#' cell")
    return normalize(cells)


def placements(
    shape: Iterable[Cell],
    grid: Grid,
    allowed: Callable[[str], bool] | None = None,
    rotate: bool = True,
    mirror: bool = True,
) -> tuple[frozenset[str], ...]:
    """Every distinct set of squares the shape can cover (in any allowed orientation) with all
    cells on the board and allowed(sq) true; sorted by the sorted tuple of square names."""
    cells = normalize(shape)
    if not cells:
        raise ValueError("a shape needs at least one cell")
    if allowed is None:
        ok = frozenset(grid.squares)
    else:
        ok = frozenset(sq for sq in grid.squares if allowed(sq))
    # Anchor each orientation's first cell on an allowed square only (not on every square of
    # the board): with few allowed squares this is what keeps legal-move enumeration cheap.
    at = {grid.coords(sq): sq for sq in ok}
    found: set[frozenset[str]] = set()
    for orient in orientations(cells, rotate, mirror):
        ordered = sorted(orient)
        ax, ay = ordered[0]
        rest = [(dx - ax, dy - ay) for dx, dy in ordered[1:]]
        for (x0, y0), first in at.items():
            squares = [first]
            for dx, dy in rest:
                sq = at.get((x0 + dx, y0 + dy))
                if sq is None:
                    break
                squares.append(sq)
            else:
                found.add(frozenset(squares))
    return tuple(sorted(found, key=lambda squares: tuple(sorted(squares))))


class PlacementTable:
    """Every placement of one shape on one grid, worked out once. Why: a game asks "where can
    this tile go now?" at every decision. Squares are bits laid out row by row with empty
    columns either side (a bitboard), so one orientation's fitting anchors are a few shifts and
    ANDs of the allowed mask for all anchors at once, instead of a test per placement; the
    result keeps the order of `placements()`."""

    CACHE = 512  # results remembered per table, by mask of allowed squares

    def __init__(self, shape: Iterable[Cell], grid: Grid, rotate: bool = True, mirror: bool = True):
        """Work out every placement of `shape` once, in `placements()` order."""
        # padding of max(width, height) columns: a shape that fits never reaches past it, so a
        # shifted cell off the board lands on a bit no square has
        pad = max(grid.width, grid.height)
        stride = grid.width + 2 * pad
        where = {sq: grid.coords(sq) for sq in grid.squares}
        self.bit = {sq: 1 << (y * stride + x + pad) for sq, (x, y) in where.items()}
        self.items: list[tuple[int, list[str]]] = []
        # per orientation: the shifts from its anchor (lowest cell) to its other cells, and the
        # placement (its index in placements() order, its squares) at each anchor bit
        patterns: dict[tuple[int, ...], dict[int, tuple[int, list[str]]]] = {}
        for i, found in enumerate(placements(shape, grid, None, rotate, mirror)):
            squares = sorted(found)
            mask = 0
            for sq in squares:
                mask |= self.bit[sq]
            self.items.append((mask, squares))
            at = [where[sq][1] * stride + where[sq][0] + pad for sq in squares]
            anchor = min(at)
            patterns.setdefault(tuple(sorted(a - anchor for a in at if a != anchor)), {})[1 << anchor] = (i, squares)
        self.patterns = list(patterns.items())
        self._cache: dict[int, list[list[str]]] = {}

    def mask(self, squares: Iterable[str]) -> int:
        """The bitmask of the given squares (names not on the grid are ignored)."""
        bit = self.bit
        m = 0
        for sq in squares:
            m |= bit.get(sq, 0)
        return m

    def within(self, allowed_mask: int) -> list[list[str]]:
        """The placements whose squares are all in `allowed_mask`, each a sorted list (the
        same list objects every time: lists are values, never changed in place)."""
        found = self._cache.get(allowed_mask)
        if found is not None:
            return found
        hits = []
        for shifts, at in self.patterns:
            a = allowed_mask
            for sh in shifts:
                a &= allowed_mask >> sh
                if not a:
                    break
            while a:
                low = a & -a
                hits.append(at[low])
                a ^= low
        hits.sort()
        found = [squares for _i, squares in hits]
        if len(self._cache) >= self.CACHE:
            self._cache.clear()
        self._cache[allowed_mask] = found
        return found

    def touching(self, allowed_mask: int, touch_mask: int) -> list[list[str]]:
        """The placements of `within(allowed_mask)` that cover at least one square of
        `touch_mask`, in the same order (the same square lists). Why: a rule such as "the tile
        must cover one of your yurts" rejects most placements; here they are never made. An
        anchor qualifies when one of its cells is in the mask: per orientation the anchors
        `touch | (touch >> shift₁) | ...`, ANDed into the allowed ones. New lists each time."""
        touch_mask &= allowed_mask  # a cell on a square outside `allowed` never fits anyway
        if not touch_mask:
            return []
        hits = []
        for shifts, at in self.patterns:
            a = allowed_mask
            t = touch_mask
            for sh in shifts:
                a &= allowed_mask >> sh
                if not a:
                    break
                t |= touch_mask >> sh
            a &= t
            while a:
                low = a & -a
                hits.append(at[low])
                a ^= low
        hits.sort()  # not remembered: the squares to touch change with the player, seldom repeat
        return [squares for _i, squares in hits]

