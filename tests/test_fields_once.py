"""`fields listed once` (interpreter/compiler/codegen.py `field_member_test`, `CodeGen.FIELDS_ONCE`):
in a listing, `all o in D: o.f != x` is `x not in` the items' fields, listed once per listing,
and `any o in D: o.f == x` is `x in` them, where D is the same all through the listing; D is
charged at every test as the loop charged it. Shogun's `assign(a, q)` walked the plan for every
action space. The same moves, games and traces as without it."""

from __future__ import annotations

import pytest
from playing import compiled_with, listing_with, same_with_and_without

SLOTS = """game "Slots"
players Ann, Bob
enum Space = s1, s2, s3, s4
enum Item = i1, i2, i3
record Put(space: Space, item: Item)
state
    placed: list Put = []
    rounds: int = 0
action put(a: Space, q: Item)
    "Put an item on a free space."
    require all o in placed: o.space != a else "that space is taken"
    require not (any o in placed: o.item == q) else "that item is used"
    add Put(space: a, item: q) to placed
    add 1 to rounds
    if rounds == 3
        finish draw
action clear
    "Clear the board."
    require placed != [] else "nothing to clear"
    set placed = []
flow
    repeat
        turn
            play put, clear
"""
TEXTS = {"slots": SLOTS}


def test_the_choice_is_made_and_the_listing_tests_membership() -> None:
    choices = compiled_with("FIELDS_ONCE", True, "slots", SLOTS).program(False).choices
    assert sorted(c.detail for c in choices if c.kind == "fields listed once") == \
        ["all o in placed: o.space != a", "any o in placed: o.item == q"]
    on = listing_with("FIELDS_ONCE", True, "slots", SLOTS, "put")
    assert "p0 not in _once" in on and "p1 in _once" in on and "is _NOT_YET" in on
    assert on.count("G.work -= len(") == 2  # each test still charges the list
    off = listing_with("FIELDS_ONCE", False, "slots", SLOTS, "put")
    assert "_once" not in off
    shogun = compiled_with("FIELDS_ONCE", True, "shogun").program(False).choices
    assert {c.detail for c in shogun if c.kind == "fields listed once"} == \
        {"all o in plan[current]: o.act != a", "all o in plan[current]: o.province != q"}


@pytest.mark.parametrize("record", [False, True])
def test_the_same_moves_and_games_with_and_without(record: bool) -> None:
    same_with_and_without("FIELDS_ONCE", record, TEXTS, bundled="shogun")
