"""Tests for interpreter.stdlib.polyomino: shapes, orientations and placements."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from regelwerk.interpreter.stdlib.grid import Grid
from regelwerk.interpreter.stdlib.polyomino import (
    PlacementTable,
    mirror_shape,
    normalize,
    orientations,
    parse_shape,
    placements,
    rotate_shape,
)

PENTOMINOES = {
    "F": [".##", "##.", ".#."],
    "I": ["#####"],
    "L": ["#...", "####"],
    "N": ["##..", ".###"],
    "P": ["##", "##", "#."],
    "T": ["###", ".#.", ".#."],
    "U": ["#.#", "###"],
    "V": ["#..", "#..", "###"],
    "W": ["#..", "##.", ".##"],
    "X": [".#.", "###", ".#."],
    "Y": [".#..", "####"],
    "Z": ["##.", ".#.", ".##"],
}
# Free orientations (rotations and reflections) -- the classic 63 "fixed" pentominoes.
FREE = {"F": 8, "I": 2, "L": 8, "N": 8, "P": 8, "T": 4, "U": 4, "V": 4, "W": 4, "X": 1, "Y": 8,
        "Z": 4}  # fmt: skip
# Rotations only (one-sided pieces, e.g. Blokus tiles that may not be flipped).
ROTATIONS = {"F": 4, "I": 2, "L": 4, "N": 4, "P": 4, "T": 4, "U": 4, "V": 4, "W": 4, "X": 1,
             "Y": 4, "Z": 2}  # fmt: skip

DOMINO = frozenset({(0, 0), (1, 0)})
small_shapes = st.frozensets(st.tuples(st.integers(-4, 4), st.integers(-4, 4)), min_size=1,
                             max_size=7)  # fmt: skip


def test_parse_shape_top_row_is_highest_y() -> None:
    assert parse_shape(["##.", ".##"]) == frozenset({(0, 1), (1, 1), (1, 0), (2, 0)})
    assert parse_shape(["#", "#"]) == frozenset({(0, 0), (0, 1)})
    assert parse_shape(["  #", "..#"]) == frozenset({(0, 0), (0, 1)})  # normalized


@pytest.mark.parametrize("rows", [[], ["..."], ["#x"]])
def test_parse_shape_rejects_bad_art(rows: list[str]) -> None:
    with pytest.raises(ValueError):
        parse_shape(rows)


def test_parse_shape_rejects_a_bare_string() -> None:
    with pytest.raises(TypeError, match="splitlines"):
        parse_shape("##\n##")


def test_normalize() -> None:
    assert normalize({(3, 5), (4, 5), (4, 6)}) == frozenset({(0, 0), (1, 0), (1, 1)})
    assert normalize([(-2, -1)]) == frozenset({(0, 0)})
    assert normalize(frozenset()) == frozenset()


def test_rotate_and_mirror() -> None:
    ell = parse_shape(["#.", "##"])  # cells (0,1) (0,0) (1,0)
    assert rotate_shape(ell) == parse_shape(["##", "#."])
    assert rotate_shape(ell, 2) == parse_shape(["##", ".#"])
    assert rotate_shape(ell, -1) == parse_shape([".#", "##"])
    assert rotate_shape(ell, 4) == ell
    assert mirror_shape(ell) == parse_shape([".#", "##"])


@pytest.mark.parametrize("name", sorted(PENTOMINOES))
def test_pentomino_orientation_counts(name: str) -> None:
    shape = parse_shape(PENTOMINOES[name])
    assert len(orientations(shape)) == FREE[name]
    assert len(orientations(shape, mirror=False)) == ROTATIONS[name]
    assert orientations(shape, rotate=False, mirror=False) == (shape,)
    assert orientations(shape)[0] == shape


def test_the_63_fixed_pentominoes_are_all_distinct() -> None:
    fixed = [o for rows in PENTOMINOES.values() for o in orientations(parse_shape(rows))]
    assert len(fixed) == 63 == len(set(fixed))
    assert all(len(o) == 5 for o in fixed)


def test_orientations_are_cached_and_translation_invariant() -> None:
    shifted = frozenset((x + 7, y - 3) for x, y in parse_shape(PENTOMINOES["F"]))
    assert orientations(shifted) is orientations(parse_shape(PENTOMINOES["F"]))


def test_mirror_only() -> None:
    assert len(orientations(parse_shape(PENTOMINOES["L"]), rotate=False)) == 2
    assert len(orientations(parse_shape(PENTOMINOES["T"]), rotate=False)) == 1


@given(small_shapes, st.booleans())
def test_orientations_are_closed_under_the_allowed_moves(shape: frozenset, mirror: bool) -> None:
    found = orientations(shape, mirror=mirror)
    assert found[0] == normalize(shape)
    assert len(found) in (1, 2, 4, 8)
    assert len(set(found)) == len(found)
    for o in found:
        assert o == normalize(o) and len(o) == len(shape)
        assert rotate_shape(o) in found
        if mirror:
            assert mirror_shape(o) in found
        assert orientations(o, mirror=mirror) and set(orientations(o, mirror=mirror)) == set(found)


def test_domino_placements_on_2x2() -> None:
    found = placements(DOMINO, Grid(2, 2))
    assert found == (
        frozenset({"a1", "a2"}),
        frozenset({"a1", "b1"}),
        frozenset({"a2", "b2"}),
        frozenset({"b1", "b2"}),
    )
    assert len(placements(DOMINO, Grid(2, 2), rotate=False)) == 2


def test_placement_counts() -> None:
    assert len(placements(DOMINO, Grid(8, 8))) == 112  # 2 * 7 * 8
    assert len(placements({(0, 0)}, Grid(3, 3))) == 9
    assert len(placements(parse_shape(PENTOMINOES["I"]), Grid(5, 5))) == 10
    assert len(placements(parse_shape(PENTOMINOES["X"]), Grid(5, 5))) == 9
    assert len(placements(parse_shape(["#.", "##"]), Grid(2, 2))) == 4
    assert placements(parse_shape(PENTOMINOES["I"]), Grid(4, 4)) == ()


def test_placements_respect_holes_and_allowed() -> None:
    holed = Grid(3, 1, frozenset({"b1"}))
    assert placements(DOMINO, holed) == ()
    free = {"a1", "b1", "b2"}
    found = placements(DOMINO, Grid(2, 2), allowed=lambda sq: sq in free)
    assert found == (frozenset({"a1", "b1"}), frozenset({"b1", "b2"}))
    with pytest.raises(ValueError):
        placements(frozenset(), Grid(2, 2))


@given(small_shapes, st.integers(1, 6), st.integers(1, 6), st.sets(st.sampled_from("abcdef")))
def test_placement_properties(shape: frozenset, width: int, height: int, banned: set[str]) -> None:
    grid = Grid(width, height)

    def allowed(sq: str) -> bool:
        return sq[0] not in banned

    found = placements(shape, grid, allowed)
    assert len(set(found)) == len(found)
    assert list(found) == sorted(found, key=lambda p: tuple(sorted(p)))
    shapes = set(orientations(shape))
    for squares in found:
        assert len(squares) == len(shape)
        assert all(grid.contains(sq) and allowed(sq) for sq in squares)
        assert normalize(grid.coords(sq) for sq in squares) in shapes


@given(small_shapes, st.integers(1, 7), st.integers(1, 7), st.sets(st.integers(0, 48)), st.booleans())
def test_placement_table_filters_like_placements(shape: frozenset, width: int, height: int,
                                                 banned: set[int], mirror: bool) -> None:
    """The bitboard table gives exactly placements(allowed), in the same order, whatever
    squares are banned (shifted cells must never wrap onto the next row or past the edge)."""
    grid = Grid(width, height)
    allowed = [sq for i, sq in enumerate(grid.squares) if i not in banned] + ["zz99"]  # unknown names ignored
    table = PlacementTable(shape, grid, True, mirror)
    want = [sorted(p) for p in placements(shape, grid, set(allowed).__contains__, True, mirror)]
    assert table.within(table.mask(allowed)) == want
    assert [sq for _m, sq in table.items] == [sorted(p) for p in placements(shape, grid, None, True, mirror)]
