"""Tests for interpreter.stdlib.graph: adjacency order, BFS distances, reachability."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from regelwerk.interpreter.stdlib.graph import Graph

NODES = ["a", "b", "c", "d", "e", "f"]


def chain() -> Graph:
    # a - b - c - d   e (isolated), plus a shortcut a - c
    return Graph("abcde", [("a", "b"), ("b", "c"), ("c", "d"), ("a", "c")])


@st.composite
def graphs(draw: st.DrawFn) -> Graph:
    nodes = NODES[: draw(st.integers(1, len(NODES)))]
    pairs = st.tuples(st.sampled_from(nodes), st.sampled_from(nodes))
    return Graph(nodes, draw(st.lists(pairs, max_size=12)), directed=draw(st.booleans()))


def test_adjacency_keeps_edge_insertion_order() -> None:
    g = chain()
    assert g.nodes == ("a", "b", "c", "d", "e")
    assert g.adjacent("a") == ("b", "c")
    assert g.adjacent("c") == ("b", "d", "a")
    assert g.adjacent("e") == ()
    assert g.are_adjacent("c", "a") and g.are_adjacent("a", "c")
    assert not g.are_adjacent("a", "d")
    assert "d" in g and "z" not in g and len(g) == 5


def test_duplicates_are_ignored() -> None:
    g = Graph(["x", "y", "x"], [("x", "y"), ("y", "x"), ("x", "y")])
    assert g.nodes == ("x", "y")
    assert g.adjacent("x") == ("y",)
    assert g.adjacent("y") == ("x",)
    assert repr(g) == "Graph(2 nodes, 1 edges, directed=False)"


def test_directed_edges_go_one_way() -> None:
    g = Graph("abc", [("a", "b"), ("b", "c")], directed=True)
    assert g.adjacent("a") == ("b",)
    assert g.adjacent("b") == ("c",)
    assert g.are_adjacent("a", "b") and not g.are_adjacent("b", "a")
    assert g.path_length("a", "c") == 2
    assert g.path_length("c", "a") is None
    assert g.reachable("b") == frozenset({"b", "c"})


def test_unknown_nodes_raise_key_error_with_the_name() -> None:
    g = chain()
    for call in (
        lambda: g.adjacent("z"),
        lambda: g.are_adjacent("a", "z"),
        lambda: g.are_adjacent("z", "a"),
        lambda: g.path_length("a", "z"),
        lambda: g.path_length("z", "a"),
        lambda: g.reachable("z"),
    ):
        with pytest.raises(KeyError, match="unknown node 'z'"):
            call()
    with pytest.raises(KeyError, match="mentions unknown node 'q'"):
        Graph("ab", [("a", "q")])


def test_path_length() -> None:
    g = chain()
    assert g.path_length("a", "a") == 0
    assert g.path_length("a", "b") == 1
    assert g.path_length("a", "d") == 2  # via the shortcut a - c
    assert g.path_length("b", "d") == 2
    assert g.path_length("a", "e") is None


def test_passable_filters_only_intermediate_nodes() -> None:
    g = chain()
    assert g.path_length("a", "d", passable=lambda n: n != "c") is None
    assert g.path_length("a", "c", passable=lambda n: False) == 1  # endpoints never filtered
    assert g.path_length("b", "d", passable=lambda n: n == "c") == 2
    ring = Graph("abcdef", [("a", "b"), ("b", "c"), ("c", "d"), ("d", "e"), ("e", "f"), ("f", "a")])
    assert ring.path_length("a", "d") == 3
    assert ring.path_length("a", "c", passable=lambda n: n != "b") == 4  # the long way round


def test_reachable_includes_blocked_endpoints_but_not_beyond() -> None:
    g = chain()
    assert g.reachable("a") == frozenset("abcd")
    assert g.reachable("e") == frozenset("e")
    # c is reached (it is adjacent) but cannot be passed through, so d is not.
    assert g.reachable("a", passable=lambda n: n not in "c") == frozenset("abc")
    assert g.reachable("a", passable=lambda n: False) == frozenset("abc")


@given(graphs(), st.sets(st.sampled_from(NODES)))
def test_reachable_agrees_with_path_length(g: Graph, blocked: set[str]) -> None:
    def passable(n: str) -> bool:
        return n not in blocked

    for start in g.nodes:
        expected = {b for b in g.nodes if g.path_length(start, b, passable) is not None}
        assert g.reachable(start, passable) == expected


@given(graphs())
def test_path_length_is_a_metric_on_undirected_graphs(g: Graph) -> None:
    if g.directed:
        g = Graph(g.nodes, [(a, b) for a in g.nodes for b in g.adjacent(a)])
    for a in g.nodes:
        for b in g.nodes:
            d = g.path_length(a, b)
            assert d == g.path_length(b, a)
            if d == 1:
                assert g.are_adjacent(a, b)
            for c in g.adjacent(b):
                dc = g.path_length(a, c)
                if d is not None:
                    assert dc is not None and abs(dc - d) <= 1
