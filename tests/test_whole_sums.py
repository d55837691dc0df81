"""`whole sums` (interpreter/compiler/wholesums.py): a sum's loop over every value of a finite
type that adds a state map's entry at each is `sum(m.values())`, only where the map (or its row)
is never replaced as a whole, so it keeps every key it was made with and no other. The form,
and the same moves, games, traces and saves with and without it."""

from __future__ import annotations

import pytest
from playing import chosen_and_same, compiled_with, source_with

SUMS = """game "Sums"
players Ann, Bob
board Spot = graph
    a - b - c
state
    stones: Spot -> int = 1
    army: Player -> Spot -> int
    bag: Spot -> int = 0
    turns: int
define total(): int = sum s in Spot: stones[s]
define mine(): int = sum s in Spot: army[current][s]
define heap(): int = sum s in Spot: bag[s]
action put(s: Spot)
    "Put a stone and a soldier; the bag is filled anew."
    require mine() < 9 else "enough soldiers"
    add 1 to stones[s]
    add 1 to army[current][s]
    set bag = {a: heap(), b: total(), c: mine()}
    add 1 to turns
    if total() >= 20 or turns >= 30
        finish draw
action take(s: Spot)
    "Take a stone back."
    require stones[s] > 1 and total() > 4 else "too few"
    remove 1 from stones[s]
    add 1 to turns
invariant total() + heap() >= 0 else "never"
flow
    repeat
        turn
            play put, take
"""


def test_the_sums_of_maps_that_keep_their_keys_are_one_call() -> None:
    rules = compiled_with("WHOLE_SUMS", True, "sums", SUMS)
    assert any(c.kind == "whole sums" for c in rules.program(False).choices)
    index = list(rules.model.vars)
    on = source_with("WHOLE_SUMS", True, "sums", SUMS)
    assert f"sum(_sv{index.index('stones')}.values())" in on
    assert f"sum(_sv{index.index('bag')}.values())" not in on  # written whole: maybe not every key
    assert "sum(_fr" in on  # `army[current]`, a row no statement replaces
    off = source_with("WHOLE_SUMS", False, "sums", SUMS)
    assert ".values())" not in off


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same("WHOLE_SUMS", "whole sums", "sums", SUMS, record, "root")
