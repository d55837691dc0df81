"""Matching a move given by name against the offered ones (issue 27): a move that is not the
one asked for is told apart by plain equality, without the kind-aware comparison of its
arguments, which runs only on the match (Shogun's simultaneous orders spent a quarter of their
time there). The kinds still count: `1` is not `true`."""

from __future__ import annotations

import pytest
from regelwerk.interpreter.engine import moves
from regelwerk.interpreter.engine.moves import Action, same_move

import regelwerk

BIDS = """\
players Ann, Bob
state
    bid: Player -> int = 0 hidden except owner
action offer(n in 0..9)
    "Bid."
    set bid[current] = n
flow
    simultaneously for p in players
        play offer
"""


@pytest.mark.parametrize(("a", "b", "same"), [
    (Action("m", (1,)), Action("m", (1,)), True),
    (Action("m", (1,)), Action("m", (True,)), False),
    (Action("m", ([1, 2],)), Action("m", ([1, 2],)), True),
    (Action("m", ([1, 2],)), Action("m", ((1, 2),)), False),
    (Action("m", ({"a": [1]},)), Action("m", ({"a": [True]},)), False),
    (Action("m", ({"a": [1]},)), Action("m", ({"a": [1]},)), True),
    (Action("m", (1,)), Action("n", (1,)), False),
    (Action("m", (1,)), Action("m", (2,)), False),
])
def test_same_move_tells_kinds_apart(a, b, same):
    assert same_move(a, b) is same and same_move(b, a) is same


def test_moves_that_differ_are_told_apart_without_comparing_kinds(monkeypatch):
    compared = []
    kinds = moves.same_value

    def counting(a, b):
        compared.append((a, b))
        return kinds(a, b)

    monkeypatch.setattr(moves, "same_value", counting)
    g = regelwerk.load_text(BIDS, "bids.rules").new_game(seed=1)
    g.apply("offer(7)", player="Bob")  # a move by its text: no offered object is it
    g.apply("offer(3)", player="Ann")
    assert g.is_over and g.vars["bid"] == {"Ann": 3, "Bob": 7}
    assert compared and all(a == b for a, b in compared), "only the matching move is compared by kind"
