"""`component_of` on a graph board by set intersections (interpreter/stdlib/boards.py
`GRAPH_FLOOD_BY_SETS`, `_graph_component`): the nodes of the items connected to a node through
the items, found with one set operation per node reached instead of a membership test per edge.
The same members as `components.component_of`'s flood, so the same sorted lists, games, traces
and saves with the switch on and off."""

from __future__ import annotations

import random

import pytest
from bundled import ruleset
from playing import positions_played
from regelwerk.interpreter.stdlib import boards
from regelwerk.interpreter.stdlib.components import component_of
from regelwerk.interpreter.stdlib.graph import Graph

import regelwerk

# a ring of six with a spur and an island: components that wrap, branch and stand alone
NODES = ["a", "b", "c", "d", "e", "f", "g", "h"]
EDGES = [("a", "b"), ("b", "c"), ("c", "d"), ("d", "e"), ("e", "f"), ("f", "a"), ("c", "g")]

# wood reached through the owner's nodes (Root's `cat_build` in small): `component_of` on a graph
# with a ring, so a component can wrap round
WOOD = """game "Wood"
players A, B
board Spot = graph
    a - b - c - d - e - f - a
    c - g - h
state
    owner: Spot -> Player? = none
    wood: Spot -> int = 0
    n: int = 0
define mine(p: Player): list Spot = list s in Spot where owner[s] == p
define reach(s: Spot): int = sum x in component_of(s, mine(current)): wood[x]
action claim(s: Spot)
    "Claim."
    require owner[s] == none else "taken"
    set owner[s] = current
    add 1 to n
    if n == 8
        finish draw
action grow(s: Spot)
    "Grow."
    require owner[s] == current else "not yours"
    require reach(s) < 4 else "enough"
    add 1 to wood[s]
    add 1 to n
    if n == 8
        finish draw
flow
    repeat
        turn
            play claim, grow
"""


def _pools() -> list[tuple[str, list[str]]]:
    """Seeded random (node, items) pairs: items with repeats, the node among them or not."""
    rnd = random.Random(7)
    cases = []
    for _ in range(300):
        items = [rnd.choice(NODES) for _ in range(rnd.randint(0, 10))]
        node = rnd.choice(items) if items and rnd.random() < 0.85 else rnd.choice(NODES)
        cases.append((node, items))
    return cases


def test_members_are_the_floods() -> None:
    """`_graph_component` finds the same set of nodes as the edge-by-edge flood, for lists with
    repeats, sets, and a node not among the items (empty): it would fail if an intersection
    missed a neighbour, a node were found twice or the start were left out."""
    g = Graph(NODES, EDGES)
    for node, items in _pools():
        found = boards._graph_component(node, items, g)
        assert len(found) == len(set(found))
        assert set(found) == set(component_of(node, items, g.adjacent)), (node, items)
        assert set(boards._graph_component(node, set(items), g)) == set(found)
    assert sorted(boards._graph_component("c", ["a", "b", "c", "e", "g", "h"], g)) == ["a", "b", "c", "g"]
    assert boards._graph_component("h", ["a", "b"], g) == []


@pytest.mark.parametrize("record", [False, True])
def test_same_games_on_and_off(record: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The small graph ruleset and Root, seeded random games, switch on and off: the same saves
    before every move, results and traces (the lists `component_of` returns are sorted in the
    board's order either way)."""
    small = regelwerk.load_text(WOOD, "wood.rules")
    played = {}
    for on in (True, False):
        monkeypatch.setattr(boards, "GRAPH_FLOOD_BY_SETS", on)
        played[on] = [positions_played(small, seed, record, "wood") for seed in range(6)] + \
            [positions_played(ruleset("root/root.rules"), seed, record, "wood_at") for seed in range(2)]
    assert played[True] == played[False]
