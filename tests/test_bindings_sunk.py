"""`bindings sunk` (`CodeGen.BINDINGS_SUNK`, sunkbind.py): a block function's state maps and
constants read only inside its dispatch's segments (`if pc == k:`) are bound at the top of each
segment that reads them, not in the prologue at every entry; one read outside the segments keeps
the prologue's binding. The same games, traces and saves with the switch on and off (the small
ruleset here and Root)."""

from __future__ import annotations

import pytest
from playing import chosen_and_same, source_with

TALLY = """game "Tally"
players Ann, Bob
enum Pile = left, right
const GOAL = 9
state
    score: Player -> int = 0
    heap: Pile -> int = 3
    rounds: int = 0
flow
    repeat
        turn
            choose p in Pile "take from?"
            add 1 to heap[p]
            choose n in [1, 2] "how many?"
            add n to score[current]
        add 1 to rounds
        if score[Ann] >= GOAL
            finish winner Ann
        if score[Bob] >= GOAL
            finish winner Bob
        if rounds == 40
            finish draw
"""


def _block(on: bool) -> str:
    src = source_with("BINDINGS_SUNK", on, "tally", TALLY)
    fn = ("\n" + src)[("\n" + src).index("\ndef B_0("):]
    return fn.split("\ndef ", 2)[1]


def test_bound_where_read() -> None:
    on, off = _block(True), _block(False)
    head_on, head_off = on.split("while True:")[0], off.split("while True:")[0]
    assert "= V['score']" in head_off and "= V['heap']" in head_off
    assert "= V['score']" not in head_on and "= V['heap']" not in head_on
    body = on.split("while True:")[1]
    segs = body.split("if pc == ")[1:]
    for name in ("score", "heap"):
        bound = [s for s in segs if f"= V['{name}']" in s]
        assert bound, name
        for s in bound:  # bound first in the segment, ahead of its reads
            local = s.split(f" = V['{name}']")[0].split()[-1]
            assert s.index(f" = V['{name}']") < s.index(f"{local}[")
    assert sum(s.count("= V['score']") for s in segs) == on.count("= V['score']")


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same("BINDINGS_SUNK", "bindings sunk", "tally", TALLY, record, "root")
