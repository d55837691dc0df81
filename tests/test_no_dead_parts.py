"""A precondition's parts written as statements ahead of it (loops, inlined calls:
`CodeGen.value`) only outside a part that is already a local (hoisted or shared,
interpreter/compiler/hoist.py; `CodeGen.NO_DEAD_PARTS`): the local is what the test reads, so a
loop inside it was worked out for nothing. Root's `sway(m in sorted(unswayed))` made the
list of clearings for each card in hand, per minister, under its hoisted `count k in
hand[current] one per c in Clearing where supports(k, c)`. The same moves, games and traces as
without it."""

from __future__ import annotations

import pytest
from playing import compiled_with, listing_with, same_with_and_without
from test_empty_range_first import EARLY

# test_empty_range_first's game, `move`'s require with a loop in a part that reads no parameter;
# a first require narrows `n`'s range (`walked bound` then tests it on no value), so this one is
# tested on each value walked
DEAD = EARLY.replace('    require stones[from] >= n else "too few"\n', '    require n <= 4 else "at most four"\n'
                     '    require len(list t in Square where (any u in '
                     'Square: stones[u] > stones[t])) + stones[from] >= n else "too few"\n')


def _listing(on: bool) -> str:
    return listing_with("NO_DEAD_PARTS", on, "dead", DEAD, "move")


def test_no_loop_is_written_inside_a_hoisted_part() -> None:
    inner = _listing(True).split("for p1", 1)[1]  # (`for p1, _n in` where its rows are numbered)
    assert "for _" not in inner and " = []" not in inner  # only the hoisted local is read
    assert "for _" in _listing(False).split("for p1", 1)[1]  # the loop it replaced


def test_roots_sway_lists_no_clearings_per_minister() -> None:
    """The loop charged the work budget for the cards in hand (read from the functions that
    run: `source` would compile Root again)."""
    def charges(on: bool) -> bool:
        sway = compiled_with("NO_DEAD_PARTS", on, "root").program(False).actions["sway"]
        return "out_of_work" in sway.enum.__code__.co_names

    assert not charges(True) and charges(False)


@pytest.mark.parametrize("record", [False, True])
def test_the_same_moves_and_games_with_and_without(record: bool) -> None:
    same_with_and_without("NO_DEAD_PARTS", record, {"dead": DEAD})
