"""`hoisted tests` (`CodeGen.HOISTED_TESTS`, hoistedtest.py): a listing's part of a require
hoisted ahead of its inner loop that is a call of a boolean definition (`holds(current, from)`,
Root's `rules(current, from)`) is that definition's test written in place, setting its local
inside a one-round `while True:` left by `break`; a definition whose test would need a loop of
its own (`crowded`'s `any`) stays a call. The same games, traces and saves with the switch on
and off (the small ruleset here and Root)."""

from __future__ import annotations

import pytest
from playing import chosen_and_same, compiled_with, listing_with, source_with
from regelwerk.interpreter.compiler.hoistedtest import FAIL, straight

HOLD = """game "Hold"
players Ann, Bob
board Square = grid 3 x 2
state
    men: Player -> Square -> int
    forts: Square -> int = 0
    n: int = 0
define strength(p: Player, s: Square): int = men[p][s] + (if p == Ann then forts[s] else 0)
define holds(p: Player, s: Square): bool =
    (if s == c2 then p == Bob
        else strength(p, s) > 0 and (all q in players where q != p: strength(q, s) < strength(p, s)))
define crowded(s: Square): bool =
    (if s == a1 then men[Ann][s] + forts[s] > 1 and men[Bob][s] + forts[s] > 0
        else (any q in players: men[q][s] + forts[s] > 2 and men[q][s] > 0))
define weight(p: Player, s: Square): int =
    (if men[p][s] + forts[s] > 1 then men[p][s] + 2 * forts[s] + n % 2 else men[p][s] - forts[s] + n % 3)
action step(from: Square, to: Square)
    "Step."
    require holds(current, from) or holds(current, to) or n < 2 else "weak"
    require not crowded(from) or weight(current, from) + 1 > n % 3 else "crowded"
    require crowded(from) or to != a1 or n % 5 != 2 else "far"
    add 1 to men[current][to]
    if n % 4 == 1
        add 1 to forts[from]
    add 1 to n
    if n == 20
        finish draw
flow
    repeat
        turn
            play step
"""


def test_the_hoisted_call_is_tested_in_place() -> None:
    on = listing_with("HOISTED_TESTS", True, "hold", HOLD, "step")
    off = listing_with("HOISTED_TESTS", False, "hold", HOLD, "step")
    assert "while True:" not in off and "= D_1(G, _cur, p0)" in off  # holds(current, from)
    assert "while True:" in on and "D_1(" not in on
    assert on.count("break") == 4  # c2 and not Bob, no strength, not stronger; the one round
    assert "= D_2(G, p0)" in on and "= D_2(G, p0)" in off  # crowded(from): its `any` is a loop


def _called(on: bool) -> list[str]:
    """Root's actions whose listing a block calls (`AE_n(G, legal)`) rather than copies."""
    rules, src = compiled_with("HOISTED_TESTS", on, "root"), source_with("HOISTED_TESTS", on, "root")
    return sorted(n for n, a in rules.program(False).actions.items() if f"{a.enum.__name__}(G, legal)" in src)


def test_a_block_copies_the_listings_it_copied() -> None:
    # the test's lines stand for the one call in the size that decides a block's copy (`MAX_INLINE`)
    assert _called(True) == _called(False)
    assert "cat_move" not in _called(True) and "take_move" not in _called(True)


def test_straight_lines_only() -> None:
    assert straight(["    if not a:", f"        {FAIL}", "    b = c + 1"])
    assert straight(["r = 0", "for x in y:", "    if x:", "        continue", "    r += x", "    break",
                     f"if not r: {FAIL}"])  # a loop's own jumps stay inside it
    for lines in (["for x in y:", f"    {FAIL}"], ["if a:", "    continue"], ["if a:", "    break"],
                  ["if a:", "    return False"], ["try:", "    a = 1", "except KeyError:", f"    {FAIL}"],
                  ["for x in y:", "    pass", "else:", "    break"]):
        assert not straight(lines)


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same("HOISTED_TESTS", "hoisted test", "hold", HOLD, record, "root")
