"""`component_of(x, items[, diagonal])` as rules call it: the group of `items` that `x` reaches
through `items` (the Marquise's wood from connected ruled clearings, a Go group), on a graph
and on a grid, in the board's order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from regelwerk.interpreter.stdlib import Grid
from regelwerk.interpreter.stdlib.components import component_of

import regelwerk

# a - b - c   d - e   f (no paths); declared in the order f, e, d, c, b, a
SQ = Grid(4, 3)
GRAPH = {"nodes": ["f", "e", "d", "c", "b", "a"], "edges": [["a", "b"], ["b", "c"], ["d", "e"]]}


def _graph_value(tmp_path: Path, text: str):
    (tmp_path / "g.json").write_text(json.dumps(GRAPH))
    rules = f'players A, B\nboard Node = graph from "g.json"\nconst v = {text}\nflow\n    finish draw\n'
    (tmp_path / "g.rules").write_text(rules)
    return regelwerk.load(tmp_path / "g.rules").program(False).constants({})["v"]


def _grid_value(text: str):
    rules = f"players A, B\nboard Sq = grid 4 x 3\nconst v = {text}\nflow\n    finish draw\n"
    return regelwerk.load_text(rules, "grid.rules").program(False).constants({})["v"]


@pytest.mark.parametrize("text,expected", [
    ("component_of(a, [a, b, c, d, e])", ["c", "b", "a"]),   # the board's order, not the text's
    ("component_of(a, [a, c, d])", ["a"]),                   # b is not in items: c is cut off
    ("component_of(d, [a, b, c, d, e, f])", ["e", "d"]),
    ("component_of(f, [f, a])", ["f"]),                      # a node without paths
    ("component_of(a, [b, c])", []),                         # a node not among the items
    ("component_of(a, [])", []),
])
def test_on_a_graph(tmp_path, text, expected):
    assert _graph_value(tmp_path, text) == expected


def test_on_a_grid_orthogonal_unless_diagonal():
    assert _grid_value("component_of(a1, [a1, b2, c2, a3])") == ["a1"]
    assert _grid_value("component_of(a1, [a1, b2, c2, a3], true)") == ["a1", "b2", "c2", "a3"]
    assert _grid_value("component_of(c2, {a1, b1, c1, c2, d3})") == ["a1", "b1", "c1", "c2"]


def test_agrees_with_the_python_function_and_with_components():
    items = ["a1", "b1", "d1", "d2", "c3", "d3", "a3"]
    for x in items:
        got = set(_grid_value(f"component_of({x}, [{', '.join(items)}])"))
        groups = _grid_value(f"components([{', '.join(items)}])")
        assert any(set(g) == got for g in groups), x
        assert got == set(component_of(x, items, lambda s: SQ.neighbours(s, False)))


def test_its_items_have_the_board_type(tmp_path):
    """The result is a list of the board's nodes, so a rule can index state by them."""
    (tmp_path / "g.json").write_text(json.dumps(GRAPH))
    rules = ('players A, B\nboard Node = graph from "g.json"\nstate\n    wood: Node -> int = 1\n    got: int\n'
             "flow\n    set got = sum x in component_of(b, [a, b, c, e]): wood[x]\n    finish draw\n")
    (tmp_path / "w.rules").write_text(rules)
    game = regelwerk.load(tmp_path / "w.rules").new_game(players=2)
    assert game.vars["got"] == 3


def test_a_node_of_no_board_is_a_located_error():
    rules = "players A, B\nboard Sq = grid 2 x 2\nconst v = component_of(1, [a1])\nflow\n    finish draw\n"
    with pytest.raises(regelwerk.RulesError) as err:
        regelwerk.load_text(rules, "bad.rules")
    assert "bad.rules:3:" in str(err.value)
