"""`items compared` (`CodeGen.ITEMS_COMPARED`): `min_of([a, b])` and `max_of([a, b])` of a list
display of two or more items are the builtin's call on the items, `min(a, b)`, with no list made
and no library call (Shogun's tower asks `min_of([lower[c], inside[c]])` for every colour twice a
throw). A list that is not a display, a display of one item, a default, and an explanation's
recorded sub-expressions keep the call. The same games, traces and failures either way."""

from __future__ import annotations

import pytest
from playing import chosen_and_same, compiled_with, source_with

TAKE = """game "Heaps"
players Ann, Bob
state
    heap: Player -> int = 5
    low: int = 0
    best: int = 0
    seen: list int
action take(n in 1..3)
    "Take from your heap."
    require min_of([n, heap[current]]) == n else "not that many left"
    remove n from heap[current]
    set low = min_of([heap[Ann], heap[Bob], low + 7])
    set best = max_of([best, n, heap[current] - 1])
    add n to seen
    set low = low + min_of(seen, 0) + min_of([n], 0) + max_of([], 0)
flow
    repeat 3 times
        for p in players
            turn p
                play take
"""


def test_a_display_of_two_or_more_is_the_builtin_call() -> None:
    on = source_with("ITEMS_COMPARED", True, "heaps", TAKE)
    assert "min(_sv0['Ann'], _sv0['Bob'], V['low'] + 7)" in on
    assert "max(V['best'], p0, _sv0[_cur] - 1)" in on and "if not min(p0, _h1) == p0:" in on
    # a list that is no display, a display of one item and a default keep the library's call
    assert "b_min_of(V['seen'], 0) + b_min_of([p0], 0) + b_max_of([], 0)" in on
    off = source_with("ITEMS_COMPARED", False, "heaps", TAKE)
    assert "min(_sv0" not in off and "b_min_of([_sv0['Ann'], _sv0['Bob'], V['low'] + 7])" in off


def test_explanations_keep_the_display() -> None:
    """The traced program's explain records `[n, heap[current]]` as a sub-expression."""
    prog = compiled_with("ITEMS_COMPARED", True, "heaps", TAKE).program(True)
    explain = ("\n" + prog.source).split(f"\ndef {prog.actions['take'].explain.__name__}(")[1].split("\ndef ")[0]
    assert "b_min_of(" in explain


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same("ITEMS_COMPARED", "items compared", "heaps", TAKE, record, "shogun")
