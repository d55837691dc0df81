"""Tests for interpreter.stdlib.components: flood fill over any adjacency function."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from regelwerk.interpreter.stdlib.components import component_of, components
from regelwerk.interpreter.stdlib.graph import Graph
from regelwerk.interpreter.stdlib.grid import Grid

BOARD = Grid(8, 8)
DARK = [sq for sq in BOARD.squares if sum(BOARD.coords(sq)) % 2 == 0]  # a1 is dark


def orthogonal(sq: str) -> tuple[str, ...]:
    return BOARD.neighbours(sq, diagonal=False)


def test_chessboard_colour_is_disconnected_orthogonally() -> None:
    found = components(DARK, orthogonal)
    assert len(found) == 32
    assert all(len(c) == 1 for c in found)
    assert found[0] == frozenset({"a1"})  # ties broken by the smallest name
    assert [min(c) for c in found] == sorted(DARK)


def test_chessboard_colour_is_one_component_diagonally() -> None:
    found = components(DARK, BOARD.neighbours)
    assert found == [frozenset(DARK)]


def test_order_is_largest_first_then_smallest_member() -> None:
    g = Graph("abcdefgh", [("h", "g"), ("g", "f"), ("c", "d"), ("a", "b")])
    assert components(g.nodes, g.adjacent) == [
        frozenset("fgh"),
        frozenset("ab"),
        frozenset("cd"),
        frozenset("e"),
    ]


def test_edges_leaving_the_node_set_are_ignored() -> None:
    stones = ["a1", "b1", "c2", "c3", "e5"]  # b1 and c2 touch only diagonally
    assert components(stones, orthogonal) == [
        frozenset({"a1", "b1"}),
        frozenset({"c2", "c3"}),
        frozenset({"e5"}),
    ]
    assert components(iter(stones), BOARD.neighbours)[0] == frozenset({"a1", "b1", "c2", "c3"})
    assert components([], orthogonal) == []


def test_component_of() -> None:
    stones = frozenset({"a1", "b1", "c2", "c3", "e5"})
    assert component_of("c3", stones, orthogonal) == frozenset({"c2", "c3"})
    assert component_of("b1", list(stones), BOARD.neighbours) == frozenset({"a1", "b1", "c2", "c3"})
    assert component_of("h8", stones, orthogonal) == frozenset()


@given(st.sets(st.sampled_from(Grid(5, 5).squares)), st.booleans())
def test_components_partition_the_nodes(nodes: set[str], diagonal: bool) -> None:
    grid = Grid(5, 5)

    def adjacent(sq: str) -> tuple[str, ...]:
        return grid.neighbours(sq, diagonal)

    found = components(nodes, adjacent)
    assert sorted(sq for c in found for sq in c) == sorted(nodes)
    assert [(-len(c), min(c)) for c in found] == sorted((-len(c), min(c)) for c in found)
    for c in found:
        for sq in c:
            assert component_of(sq, nodes, adjacent) == c
            for other in adjacent(sq):
                assert other not in nodes or other in c  # nothing links two components
