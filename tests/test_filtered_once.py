"""`filtered once` (interpreter/compiler/actiongen.py `_Listing.filter_once`, `CodeGen.FILTER_ONCE`):
an inner parameter's values that pass its requires reading no other parameter, when those
cannot fail and come before any that can, found the first time its loop is reached and walked
in every later round of the outer loops: Root's `cat_build(b, c: Clearing)` tested `rules(current,
c)` on every clearing for each building, in its listing and in `possible(cat_build)`. The same
moves, games and traces as without it."""

from __future__ import annotations

import pytest
from playing import compiled_with, listing_with, same_with_and_without

ONCE = """game "Once"
players Ann, Bob
board Square = grid 3 x 3
state
    stones: Square -> int = 1
    moves: int = 0
action place(k in 1..3, s: Square)
    "Place."
    require stones[s] < 3 else "full"
    require k <= stones[s] + 1 else "too many"
    require s != a1 else "not the corner"
    add k to stones[s]
    add 1 to moves
    if moves == 12
        finish draw
action take(s: Square)
    "Take."
    require stones[s] > 0 else "empty"
    remove 1 from stones[s]
flow
    repeat
        turn
            play place, take
"""
# a require that can fail (a division) comes first: nothing is filtered
RISKY = ONCE.replace('    require stones[s] < 3 else "full"\n',
                     '    require 12 // (stones[s] + 1) > 0 else "odd"\n    require stones[s] < 3 else "full"\n')
TEXTS = {"once": ONCE, "risky": RISKY}


def _once(name: str, on: bool = True) -> set[tuple[str, str]]:
    rules = compiled_with("FILTER_ONCE", on, name, TEXTS.get(name))
    return {(c.rule, c.detail) for c in rules.program(False).choices if c.kind == "filtered once"}


def test_the_inner_values_are_filtered_the_first_time_the_loop_is_reached() -> None:
    """Both requires that read only `s` are tested once per listing, though one comes after
    the require that reads `k` too; that one is still tested in every round."""
    assert _once("once") == {("action place", "s by stones[s] < 3 and s != a1")}
    assert _once("once", on=False) == set()
    listing = listing_with("FILTER_ONCE", True, "once", ONCE, "place")
    outer, inner = listing.split("for p0 in", 1)
    ff = outer.split(" = _NOT_YET")[0].split()[-1]  # declared at the listing's top
    first, rounds = inner.split(f"for p1 in {ff}:")
    assert f"if {ff} is _NOT_YET:" in first and f"{ff}.append(p1)" in first and " < 3" in first
    assert " < 3" not in rounds and "!= 'a1'" not in rounds and "<= " in rounds


def test_nothing_is_filtered_past_a_require_that_can_fail() -> None:
    assert _once("risky") == set()


def test_root_tests_the_clearings_of_cat_build_once() -> None:
    assert ("action cat_build", "c by rules(current, c) and open_slots(c) > 0") in _once("root")
    assert _once("root", on=False) == set()


def test_not_where_the_inner_bindings_are_found_once_per_listing_already() -> None:
    """Root's `use_foremole(k, b, c)` keys its inner bindings by nothing (`rows`): its inner
    loops run once per listing, so a list filtered once would only be copied."""
    choices = compiled_with("FILTER_ONCE", True, "root").program(False).choices
    assert ("action use_foremole", "k by nothing") in {(c.rule, c.detail) for c in choices if c.kind == "rows"}
    assert not [c for c in choices if c.kind == "filtered once" and c.rule == "action use_foremole"]
    assert ("action build", "k by CARDS[k].suit") in {(c.rule, c.detail) for c in choices if c.kind == "rows"}
    assert ("action build", "b by track[b] > 0") in _once("root")  # several keys: filtered once


@pytest.mark.parametrize("record", [False, True])
def test_the_same_moves_and_games_with_and_without(record: bool) -> None:
    same_with_and_without("FILTER_ONCE", record, TEXTS)
