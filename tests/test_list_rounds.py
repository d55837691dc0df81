"""`list rounds` (`CodeGen.LIST_ROUNDS`): a block's `for x in xs` over a list keeps the list
itself in its frame's slot, without `_seq` (which orders sets) and without a copy: lists are
values, never changed in place (a write makes a new one), so the rounds see the list as it was
when the loop began either way (Shogun's season: `for a in acts`, `for p in order`, `for o in
plan[p]`, each round of the outer loops). A set keeps both. The same games, saves and traces."""

from __future__ import annotations

import pytest
from playing import chosen_and_same, compiled_with, source_with

ROUNDS = """game "Rounds"
players Ann, Bob, Cy
state
    order: list Player
    done: set Player
    score: Player -> int = 0
action bump(n in 1..2)
    "Score and reorder."
    add n to score[current]
    set order = reversed(order)
    add current to done
flow
    set order = players
    repeat 3 times
        for p in order
            turn p
                play bump
        for q in done
            turn q
                play bump
"""


def test_a_list_is_kept_as_it_is_and_a_set_is_ordered_and_copied() -> None:
    on = source_with("LIST_ROUNDS", True, "rounds", ROUNDS)
    assert "items = V['order']" in on
    assert "= [items if type(items) is list else list(items), 0]" in on
    assert "items = _seq(V['done'])" in on and "= [list(items), 0]" in on
    off = source_with("LIST_ROUNDS", False, "rounds", ROUNDS)
    assert "items = _seq(V['order'])" in off and "type(items) is list" not in off


def test_the_rounds_see_the_list_as_it_was() -> None:
    """Every move replaces `order` (reversed), and the loop goes on over the list it began with."""
    rules = compiled_with("LIST_ROUNDS", True, "rounds", ROUNDS)
    g = rules.new_game(seed=1)
    movers = []
    for _ in range(3):
        movers.append(g.current)
        g.apply(g.legal_actions()[0])
    assert movers == ["Ann", "Bob", "Cy"]


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same("LIST_ROUNDS", "list rounds", "rounds", ROUNDS, record, "shogun")


def test_the_same_games_of_khan() -> None:
    chosen_and_same("LIST_ROUNDS", "list rounds", "rounds", ROUNDS, False, "khan")
