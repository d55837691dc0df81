"""Rectangular square grids with named squares ('a1', 'b3', 'aa12', ...).

Why: almost every board game needs neighbours, rays and lines of squares. A Grid computes
all of them once in its constructor so the interpreter's hot paths are plain dict/tuple
look-ups that allocate nothing.

Conventions: x = 0 is column 'a' (then 'b' .. 'z', 'aa', 'ab', ...), y = 0 is row '1',
y grows to the NORTH. Directions are 'N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import NoReturn

DIRECTIONS: tuple[str, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
ORTHOGONAL_DIRECTIONS: tuple[str, ...] = ("N", "E", "S", "W")
DIAGONAL_DIRECTIONS: tuple[str, ...] = ("NE", "SE", "SW", "NW")
METRICS: tuple[str, ...] = ("chebyshev", "manhattan")

_DELTAS: tuple[tuple[int, int], ...] = (
    (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1),
)  # fmt: skip
_INDEX: dict[str, int] = {d: i for i, d in enumerate(DIRECTIONS)}
_ORTHOGONAL_INDICES: tuple[int, ...] = (0, 2, 4, 6)
# Grid.lines walks every run from its southern (or, for rows, western) end.
_LINE_DIRECTIONS: tuple[str, ...] = ("E", "N", "NE", "NW")


def _direction_index(direction: str) -> int:
    """Map a direction name to its clockwise index; a typo must fail loudly, not silently."""
    try:
        return _INDEX[direction]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown direction {direction!r}; expected one of {', '.join(DIRECTIONS)}"
        ) from None


def rotate_cw(direction: str, steps: int = 1) -> str:
    """Turn a direction clockwise by `steps` eighths of a turn (negative = anticlockwise)."""
    return DIRECTIONS[(_direction_index(direction) + steps) % 8]


def opposite(direction: str) -> str:
    """The direction pointing the other way, e.g. for 'sandwich' captures and back-rays."""
    return DIRECTIONS[(_direction_index(direction) + 4) % 8]


def direction_delta(direction: str) -> tuple[int, int]:
    """The (dx, dy) unit step of a direction; y grows to the north."""
    return _DELTAS[_direction_index(direction)]


def square_name(x: int, y: int) -> str:
    """Name the square at 0-based (x, y): columns a..z, aa, ab, ...; rows are 1-based."""
    if x < 0 or y < 0:
        raise ValueError(f"square coordinates must be >= 0, got ({x}, {y})")
    letters = ""
    n = x + 1
    while n:
        n, r = divmod(n - 1, 26)
        letters = chr(97 + r) + letters
    return f"{letters}{y + 1}"


def parse_square(name: str) -> tuple[int, int]:
    """Turn a square name like 'b3' into 0-based (x, y); the exact inverse of square_name."""
    if not isinstance(name, str):
        raise TypeError(f"a square name must be a str, got {type(name).__name__}")
    i = 0
    x = 0
    while i < len(name) and "a" <= name[i] <= "z":
        x = x * 26 + ord(name[i]) - 96
        i += 1
    digits = name[i:]
    if i == 0 or not (digits.isascii() and digits.isdigit()) or digits[0] == "0":
        raise ValueError(
            f"invalid square name {name!r}; expected lower-case column letters and a row "
            "number from 1, like 'b3'"
        )
    return x - 1, int(digits) - 1


class Grid:
    """A width x height board minus `holes`, with all adjacency precomputed."""

    __slots__ = (
        "width", "height", "holes", "squares",
        "_at", "_coords", "_steps", "_neighbours", "_orthogonal", "_rays", "_lines",
    )  # fmt: skip

    def __init__(self, width: int, height: int, holes: frozenset[str] = frozenset()) -> None:
        """Build the board and every per-square table the hot paths need."""
        for label, value in (("width", width), ("height", height)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"grid {label} must be an int >= 1, got {value!r}")
        holes = frozenset(holes)
        for hole in holes:
            hx, hy = parse_square(hole)
            if hx >= width or hy >= height:
                raise ValueError(f"hole {hole!r} is outside the {width}x{height} grid")
        self.width = width
        self.height = height
        self.holes = holes
        self._build_squares()
        self._build_steps()
        self._build_rays()
        self._lines: dict[int, tuple[tuple[str, ...], ...]] = {}

    def _build_squares(self) -> None:
        """Name every square once, in row-major order (a1, b1, ..., a2, ...)."""
        at: list[list[str | None]] = []
        coords: dict[str, tuple[int, int]] = {}
        for y in range(self.height):
            row: list[str | None] = []
            for x in range(self.width):
                name = sys.intern(square_name(x, y))  # canonical names (engine/canonical.py)
                if name in self.holes:
                    row.append(None)
                else:
                    row.append(name)
                    coords[name] = (x, y)
            at.append(row)
        self._at: tuple[tuple[str | None, ...], ...] = tuple(tuple(r) for r in at)
        self._coords = coords
        self.squares: tuple[str, ...] = tuple(coords)

    def _build_steps(self) -> None:
        """Precompute the one-step neighbour in each of the 8 directions."""
        self._steps: dict[str, tuple[str | None, ...]] = {}
        self._neighbours: dict[str, tuple[str, ...]] = {}
        self._orthogonal: dict[str, tuple[str, ...]] = {}
        for name, (x, y) in self._coords.items():
            steps = tuple(self.square_at(x + dx, y + dy) for dx, dy in _DELTAS)
            self._steps[name] = steps
            self._neighbours[name] = tuple(s for s in steps if s is not None)
            self._orthogonal[name] = tuple(
                s for s in (steps[i] for i in _ORTHOGONAL_INDICES) if s is not None
            )

    def _build_rays(self) -> None:
        """Precompute the full ray from every square in every direction."""
        self._rays: dict[str, tuple[tuple[str, ...], ...]] = {}
        for name in self._coords:
            rays = []
            for k in range(8):
                walked: list[str] = []
                nxt = self._steps[name][k]
                while nxt is not None:
                    walked.append(nxt)
                    nxt = self._steps[nxt][k]
                rays.append(tuple(walked))
            self._rays[name] = tuple(rays)

    def _bad_lookup(self, sq: object, direction: object = "N") -> NoReturn:
        """Explain a failed table look-up: unknown square (KeyError) or direction (ValueError)."""
        if not self.contains(sq):  # type: ignore[arg-type]
            raise KeyError(f"{sq!r} is not a square of this {self.width}x{self.height} grid")
        _direction_index(direction)  # type: ignore[arg-type]
        raise AssertionError("unreachable")  # pragma: no cover

    def contains(self, sq: str) -> bool:
        """True if `sq` names a square on the board (holes and malformed names are not)."""
        try:
            return sq in self._coords
        except TypeError:
            return False

    def coords(self, sq: str) -> tuple[int, int]:
        """0-based (x, y) of a board square, for arithmetic the tables do not cover."""
        try:
            return self._coords[sq]
        except (KeyError, TypeError):
            self._bad_lookup(sq)

    def square_at(self, x: int, y: int) -> str | None:
        """The square at 0-based (x, y), or None when that is off the board or a hole."""
        if 0 <= x < self.width and 0 <= y < self.height:
            return self._at[y][x]
        return None

    def column(self, sq: str) -> int:
        """1-based column number ('a' -> 1), matching how players read the square name."""
        return self.coords(sq)[0] + 1

    def row(self, sq: str) -> int:
        """1-based row number ('b3' -> 3), exactly the number in the square name."""
        return self.coords(sq)[1] + 1

    def neighbour(self, sq: str, direction: str, steps: int = 1) -> str | None:
        """The square `steps` away in `direction` (jumping over holes), or None if off-board."""
        if steps == 1:
            try:
                return self._steps[sq][_INDEX[direction]]
            except (KeyError, TypeError):
                self._bad_lookup(sq, direction)
        x, y = self.coords(sq)
        dx, dy = direction_delta(direction)
        return self.square_at(x + dx * steps, y + dy * steps)

    def neighbours(self, sq: str, diagonal: bool = True) -> tuple[str, ...]:
        """Adjacent board squares clockwise from N; orthogonal only when diagonal=False."""
        try:
            return (self._neighbours if diagonal else self._orthogonal)[sq]
        except (KeyError, TypeError):
            self._bad_lookup(sq)

    def ray(self, sq: str, direction: str, max_steps: int | None = None) -> tuple[str, ...]:
        """Squares walked from `sq` (exclusive) in `direction` until the edge or a hole."""
        try:
            full = self._rays[sq][_INDEX[direction]]
        except (KeyError, TypeError):
            self._bad_lookup(sq, direction)
        if max_steps is None:
            return full
        if max_steps < 0:
            raise ValueError(f"max_steps must be >= 0, got {max_steps}")
        return full[:max_steps]

    def distance(self, a: str, b: str, metric: str = "chebyshev") -> int:
        """Geometric distance ignoring holes: 'chebyshev' (king moves) or 'manhattan' (rook
        steps)."""
        ax, ay = self.coords(a)
        bx, by = self.coords(b)
        dx, dy = abs(ax - bx), abs(ay - by)
        if metric == "chebyshev":
            return max(dx, dy)
        if metric == "manhattan":
            return dx + dy
        raise ValueError(f"unknown metric {metric!r}; expected one of {', '.join(METRICS)}")

    def lines(self, length: int) -> tuple[tuple[str, ...], ...]:
        """Every straight hole-free run of `length` squares (rows, columns, both diagonals),
        each once; cached per length because win checks ask for the same lines every move."""
        cached = self._lines.get(length)
        if cached is None:
            cached = self._compute_lines(length)
            self._lines[length] = cached
        return cached

    def _compute_lines(self, length: int) -> tuple[tuple[str, ...], ...]:
        """Build lines(length): rows, then columns, then SW-NE, then SE-NW diagonals."""
        if isinstance(length, bool) or not isinstance(length, int) or length < 1:
            raise ValueError(f"line length must be an int >= 1, got {length!r}")
        if length == 1:
            return tuple((sq,) for sq in self.squares)
        runs: list[tuple[str, ...]] = []
        for direction in _LINE_DIRECTIONS:
            k = _INDEX[direction]
            for sq in self.squares:
                tail = self._rays[sq][k]
                if len(tail) >= length - 1:
                    runs.append((sq, *tail[: length - 1]))
        return tuple(runs)

    def __contains__(self, sq: object) -> bool:
        """Support `sq in grid`."""
        return self.contains(sq)  # type: ignore[arg-type]

    def __iter__(self) -> Iterator[str]:
        """Iterate squares in row-major order."""
        return iter(self.squares)

    def __len__(self) -> int:
        """Number of squares on the board (holes excluded)."""
        return len(self.squares)

    def __repr__(self) -> str:
        """Readable form for traces and test failures."""
        holes = f", holes={sorted(self.holes)!r}" if self.holes else ""
        return f"Grid({self.width}, {self.height}{holes})"
