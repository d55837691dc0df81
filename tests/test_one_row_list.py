"""`one row list` (actiongen `keyed_rows`, `CodeGen.ONE_ROW_LIST`): a listing whose inner bindings
read nothing of its first parameter (`rows ... by nothing`) keeps them as one list in a local,
made the first time it is needed, not in a dict under the key `()` looked up for every value of
the first parameter (Shogun's `assign(a, q)`: once per action space). The form, and the same
moves, games, traces and saves with and without it."""

from __future__ import annotations

import re

import pytest
from playing import chosen_and_same, listing_with

PAIRS = """game "Pairs"
players A, B
enum Colour = red, blue, green
state
    used: list Colour = []
    n: int = 0
action pair(c in Colour, d in Colour)
    "Name two colours, neither used yet, the second not red."
    require c not in used else "used already"
    require d not in used and d != red else "not that one"
    require n < 5 else "enough"
    add c to used
    add 1 to n
flow
    repeat 3 times
        turn
            play pair
"""


def test_the_rows_keyed_by_nothing_are_one_local_list() -> None:
    on = listing_with("ONE_ROW_LIST", True, "pairs", PAIRS, "pair")
    off = listing_with("ONE_ROW_LIST", False, "pairs", PAIRS, "pair")
    assert ".get(())" in off and ".get(())" not in on
    table = re.search(r"(_lv\d+) = None", on)
    assert table is not None and f"= {table[1]}\n" in on and f"= {table[1]} = []" in on


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same("ONE_ROW_LIST", "one row list", "pairs", PAIRS, record, "shogun")
