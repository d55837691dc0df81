"""`narrowed once` (interpreter/compiler/actiongen.py `narrowed`, `CodeGen.NARROWED_ONCE`): an
inner parameter's narrowed range whose ends and bound read no parameter and cannot fail is the
same in every round of the outer loops: it is worked out once, at the listing's top (Root's
`dig(k, c, n in dig_min_warriors..4)`, narrowed by the warriors in the Burrow, was worked out
again for every card and clearing). The same moves, games and traces as without it."""

from __future__ import annotations

import pytest
from playing import compiled_with, listing_with, same_with_and_without

SEND = """game "Send"
players Ann, Bob
enum Spot = s1, s2, s3
option least: int = 1
state
    pool: Player -> int = {Ann: 3, Bob: 2}
    at: Spot -> int = {s1: 0, s2: 0, s3: 0}
    moves: int = 0
action send(a: Spot, b: Spot, n in least..4)
    "Send men from the pool."
    require a != b else "two spots"
    require 6 // (at[b] + 1) >= 1 else "a division, which may fail, before n's loop"
    require pool[current] >= n else "not so many"
    remove n from pool[current]
    add n to at[b]
    add 1 to moves
    if moves == 10
        finish draw
action gather(a: Spot, b: Spot, n in 1..3)
    "Gather men from one spot to another."
    require a != b else "two spots"
    require 6 // (at[b] + 1) >= 1 else "a division, which may fail, before n's loop"
    require at[a] >= n else "not so many there"
    remove n from at[a]
    add n to at[b]
    add 1 to moves
    if moves == 10
        finish draw
action refill
    "Refill."
    add 2 to pool[current]
    add 1 to moves
    if moves == 10
        finish draw
flow
    repeat
        turn
            play send, gather, refill
"""
TEXTS = {"send": SEND}


def test_the_choice_is_made_and_the_range_is_made_before_the_loops() -> None:
    choices = compiled_with("NARROWED_ONCE", True, "send", SEND).program(False).choices
    assert ("action send", "n by pool[current] >= n") in {(c.rule, c.detail) for c in choices if c.kind == "narrowed once"}
    on = listing_with("NARROWED_ONCE", True, "send", SEND, "send")
    first_loop = on.index("for p0 in")
    assert "_nrw" in on[:first_loop] and "range(" in on[:first_loop] and "range(" not in on[first_loop:]
    gather = listing_with("NARROWED_ONCE", True, "send", SEND, "gather")  # its bound reads `a`
    assert "range(" in gather[gather.index("for p0 in"):]
    off = listing_with("NARROWED_ONCE", False, "send", SEND, "send")
    assert "range(" in off[off.index("for p0 in"):]
    root = compiled_with("NARROWED_ONCE", True, "root").program(False).choices
    assert "action dig" in {c.rule for c in root if c.kind == "narrowed once"}


@pytest.mark.parametrize("record", [False, True])
def test_the_same_moves_and_games_with_and_without(record: bool) -> None:
    same_with_and_without("NARROWED_ONCE", record, TEXTS, bundled="root")
