"""Tests for interpreter.stdlib.grid: naming, directions, tables, rays and lines."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from regelwerk.interpreter.stdlib.grid import (
    DIRECTIONS,
    Grid,
    direction_delta,
    opposite,
    parse_square,
    rotate_cw,
    square_name,
)

directions = st.sampled_from(DIRECTIONS)


@st.composite
def grid_and_square(draw: st.DrawFn) -> tuple[Grid, str]:
    width = draw(st.integers(1, 12))
    height = draw(st.integers(1, 12))
    grid = Grid(width, height)
    return grid, draw(st.sampled_from(grid.squares))


# --- square names -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "y", "name"),
    [
        (0, 0, "a1"),
        (1, 2, "b3"),
        (25, 0, "z1"),
        (26, 0, "aa1"),
        (27, 9, "ab10"),
        (51, 0, "az1"),
        (52, 0, "ba1"),
        (701, 0, "zz1"),
        (702, 99, "aaa100"),
    ],
)
def test_square_name_and_parse(x: int, y: int, name: str) -> None:
    assert square_name(x, y) == name
    assert parse_square(name) == (x, y)


@given(st.integers(0, 20_000), st.integers(0, 20_000))
def test_square_name_round_trips(x: int, y: int) -> None:
    assert parse_square(square_name(x, y)) == (x, y)


@pytest.mark.parametrize("bad", ["", "a", "7", "a0", "a01", "A1", "b-1", "b3x", "1a", "b 3", "a²"])
def test_parse_square_rejects_malformed_names(bad: str) -> None:
    with pytest.raises(ValueError, match="invalid square name"):
        parse_square(bad)


def test_square_name_rejects_negative_coordinates() -> None:
    with pytest.raises(ValueError):
        square_name(-1, 0)


# --- directions ---------------------------------------------------------------------------


def test_directions_are_clockwise_from_north() -> None:
    assert DIRECTIONS == ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
    assert rotate_cw("NW") == "N"
    assert rotate_cw("N") == "NE"
    assert rotate_cw("N", 2) == "E"
    assert rotate_cw("N", -1) == "NW"
    assert rotate_cw("E", -6) == "S"
    assert opposite("N") == "S"
    assert opposite("NE") == "SW"
    assert direction_delta("N") == (0, 1)
    assert direction_delta("SE") == (1, -1)


@given(directions, st.integers(-50, 50))
def test_rotation_properties(d: str, k: int) -> None:
    assert rotate_cw(d, 8) == d
    assert rotate_cw(rotate_cw(d, k), -k) == d
    assert rotate_cw(d, k) == rotate_cw(d, k % 8)
    assert opposite(opposite(d)) == d


@given(directions)
def test_deltas_turn_with_the_direction(d: str) -> None:
    dx, dy = direction_delta(d)
    assert direction_delta(opposite(d)) == (-dx, -dy)
    assert direction_delta(rotate_cw(d, 2)) == (dy, -dx)  # quarter turn clockwise, y north


@pytest.mark.parametrize("bad", ["north", "n", "", None, ["N"]])
def test_unknown_direction_is_a_value_error(bad: object) -> None:
    with pytest.raises(ValueError, match="unknown direction"):
        rotate_cw(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown direction"):
        Grid(3, 3).neighbour("a1", bad)  # type: ignore[arg-type]


# --- construction and lookup --------------------------------------------------------------


def test_squares_are_row_major() -> None:
    assert Grid(3, 2).squares == ("a1", "b1", "c1", "a2", "b2", "c2")
    holed = Grid(3, 2, frozenset({"b1"}))
    assert holed.squares == ("a1", "c1", "a2", "b2", "c2")
    assert len(holed) == 5
    assert list(holed) == list(holed.squares)


def test_lookup_and_membership() -> None:
    g = Grid(8, 8, frozenset({"d4"}))
    assert g.coords("b3") == (1, 2)
    assert g.column("b3") == 2 and g.row("b3") == 3
    assert g.column("h8") == 8 and g.row("h8") == 8
    assert g.square_at(1, 2) == "b3"
    assert g.square_at(3, 3) is None  # the hole
    assert g.square_at(8, 0) is None and g.square_at(-1, 0) is None and g.square_at(0, -1) is None
    assert g.contains("h8") and "a1" in g
    assert not g.contains("d4") and not g.contains("i1") and not g.contains("a9")
    assert not g.contains("zz") and not g.contains(None)  # type: ignore[arg-type]
    assert not g.contains(["a1"])  # type: ignore[arg-type]


def test_unknown_square_is_a_key_error_naming_it() -> None:
    g = Grid(8, 8, frozenset({"d4"}))
    for call in (
        lambda: g.coords("i9"),
        lambda: g.neighbour("d4", "N"),
        lambda: g.neighbours("x1"),
        lambda: g.ray("a0", "N"),
        lambda: g.distance("a1", "q5"),
        lambda: g.row("d4"),
    ):
        with pytest.raises(KeyError, match="is not a square of this 8x8 grid"):
            call()


@pytest.mark.parametrize(
    ("args", "message"),
    [((0, 3), "width"), ((3, 0), "height"), ((2.5, 3), "width"), ((True, 3), "width")],
)
def test_bad_dimensions_are_rejected(args: tuple[object, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Grid(*args)  # type: ignore[arg-type]


def test_holes_must_lie_on_the_board() -> None:
    with pytest.raises(ValueError, match="outside"):
        Grid(3, 3, frozenset({"d1"}))
    with pytest.raises(ValueError, match="invalid square name"):
        Grid(3, 3, frozenset({"B2"}))


# --- neighbours ---------------------------------------------------------------------------


def test_neighbour_steps() -> None:
    g = Grid(8, 8, frozenset({"b2"}))
    assert g.neighbour("a1", "N") == "a2"
    assert g.neighbour("a1", "E") == "b1"
    assert g.neighbour("a1", "S") is None
    assert g.neighbour("a1", "NE") is None  # hole
    assert g.neighbour("a1", "NE", 2) == "c3"  # jumps over the hole
    assert g.neighbour("e4", "W", 3) == "b4"
    assert g.neighbour("e4", "W", 5) is None
    assert g.neighbour("e4", "N", 0) == "e4"
    assert g.neighbour("e4", "N", -2) == "e2"


def test_neighbours_clockwise_and_orthogonal() -> None:
    g = Grid(8, 8)
    assert g.neighbours("a1") == ("a2", "b2", "b1")
    assert g.neighbours("a1", diagonal=False) == ("a2", "b1")
    assert g.neighbours("d4") == ("d5", "e5", "e4", "e3", "d3", "c3", "c4", "c5")
    assert g.neighbours("d4", diagonal=False) == ("d5", "e4", "d3", "c4")
    holed = Grid(3, 3, frozenset({"b2"}))
    assert holed.neighbours("a1") == ("a2", "b1")


def test_tables_are_shared_not_reallocated() -> None:
    g = Grid(8, 8)
    assert g.neighbours("d4") is g.neighbours("d4")
    assert g.ray("a1", "NE") is g.ray("a1", "NE")
    assert g.lines(4) is g.lines(4)


@given(grid_and_square(), st.booleans())
def test_neighbourhood_is_symmetric_and_sized(gs: tuple[Grid, str], diagonal: bool) -> None:
    g, sq = gs
    x, y = g.coords(sq)
    near = g.neighbours(sq, diagonal)
    for other in near:
        assert sq in g.neighbours(other, diagonal)
        assert g.distance(sq, other, "chebyshev" if diagonal else "manhattan") == 1
    expected = sum(
        1
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
        if (dx, dy) != (0, 0)
        and (diagonal or dx == 0 or dy == 0)
        and 0 <= x + dx < g.width
        and 0 <= y + dy < g.height
    )
    assert len(near) == expected


# --- rays ---------------------------------------------------------------------------------


def test_rays() -> None:
    g = Grid(8, 8, frozenset({"f6"}))
    assert g.ray("a1", "NE") == ("b2", "c3", "d4", "e5")  # stops before the hole
    assert g.ray("a1", "NE", max_steps=2) == ("b2", "c3")
    assert g.ray("a1", "NE", max_steps=0) == ()
    assert g.ray("a1", "N") == ("a2", "a3", "a4", "a5", "a6", "a7", "a8")
    assert g.ray("a1", "S") == ()
    assert g.ray("h8", "SW") == ("g7",)
    with pytest.raises(ValueError):
        g.ray("a1", "N", max_steps=-1)


@given(grid_and_square(), directions, st.none() | st.integers(0, 15))
def test_ray_length_and_steps(gs: tuple[Grid, str], d: str, max_steps: int | None) -> None:
    g, sq = gs
    x, y = g.coords(sq)
    dx, dy = direction_delta(d)
    room_x = {1: g.width - 1 - x, 0: 99, -1: x}[dx]
    room_y = {1: g.height - 1 - y, 0: 99, -1: y}[dy]
    expected = min(room_x, room_y)
    if max_steps is not None:
        expected = min(expected, max_steps)
    ray = g.ray(sq, d, max_steps)
    assert len(ray) == expected
    assert list(ray) == [g.neighbour(sq, d, i + 1) for i in range(len(ray))]


# --- distance -----------------------------------------------------------------------------


def test_distance() -> None:
    g = Grid(8, 8)
    assert g.distance("a1", "c2") == 2
    assert g.distance("a1", "c2", "manhattan") == 3
    assert g.distance("h8", "a1") == 7
    assert g.distance("d4", "d4", "manhattan") == 0
    with pytest.raises(ValueError, match="unknown metric"):
        g.distance("a1", "b2", "euclid")


# --- lines --------------------------------------------------------------------------------


def test_tictactoe_has_8_lines() -> None:
    lines = Grid(3, 3).lines(3)
    assert len(lines) == 8
    assert set(lines) == {
        ("a1", "b1", "c1"),
        ("a2", "b2", "c2"),
        ("a3", "b3", "c3"),
        ("a1", "a2", "a3"),
        ("b1", "b2", "b3"),
        ("c1", "c2", "c3"),
        ("a1", "b2", "c3"),
        ("c1", "b2", "a3"),
    }
    assert lines[0] == ("a1", "b1", "c1")  # rows first, walked west to east


def test_connect_four_has_69_lines() -> None:
    assert len(Grid(7, 6).lines(4)) == 69


def test_gomoku_15x15_has_572_lines_of_5() -> None:
    # rows 11*15 + columns 15*11 + two diagonal directions 11*11 each
    assert len(Grid(15, 15).lines(5)) == 572


def test_lines_edge_cases() -> None:
    g = Grid(3, 3, frozenset({"b2"}))
    assert len(g.lines(3)) == 4  # both diagonals and the middle row/column are broken
    assert Grid(3, 3).lines(4) == ()
    assert Grid(2, 2).lines(1) == (("a1",), ("b1",), ("a2",), ("b2",))
    assert len(Grid(2, 2).lines(2)) == 6
    with pytest.raises(ValueError):
        Grid(3, 3).lines(0)


@settings(max_examples=60)
@given(st.integers(1, 9), st.integers(1, 9), st.integers(2, 6))
def test_line_count_formula_and_shape(width: int, height: int, length: int) -> None:
    g = Grid(width, height)
    lines = g.lines(length)
    w, h = max(0, width - length + 1), max(0, height - length + 1)
    assert len(lines) == w * height + width * h + 2 * w * h
    assert len({frozenset(line) for line in lines}) == len(lines)  # each run once
    for line in lines:
        assert len(line) == length
        step = {d for d in DIRECTIONS if all(g.neighbour(a, d) == b for a, b in pairwise(line))}
        assert len(step) == 1  # one straight direction
