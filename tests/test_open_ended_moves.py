"""`open-ended moves` (`CodeGen.OPEN_ENDED_MOVES`): a last parameter's range whose low end is
known now and whose high end the state gives (`n in 1..stones[p]`, Root's `cat_move`) has the
moves of its first `MAX_OPEN_END` values in a partial move table made once per program, so a
listing looks them up instead of making a new move each time; a higher value's move is made
when listed, equal to the one a table would hold. And `rows of rows` (`CodeGen.ROWS_OF_ROWS`):
`hoist rows` takes such a table's row of the two outer parameters out of the loop over the
third whole, and the first parameter's row out of the loop over the second."""

from __future__ import annotations

import re

import pytest
from playing import chosen_and_same, compiled_with, listing_with, same_with_and_without
from regelwerk.interpreter.compiler.actiongen import MAX_OPEN_END

PILES = """game "Piles"
players A, B
enum Pile = left, mid, right
state
    stones: Pile -> int = {left: 3, mid: 18, right: 5}
    turns: int = 0
action take(p: Pile, q: Pile, n in 1..stones[p])
    "Move n stones from pile p onto pile q."
    require p != q else "the same pile"
    move n from stones[p] to stones[q]
    add 1 to turns
    if turns >= 30
        finish draw
flow
    repeat
        turn
            play take
"""


def test_the_first_values_moves_are_looked_up() -> None:
    on = listing_with("OPEN_ENDED_MOVES", True, "piles", PILES, "take")
    assert ".get(p2) or _TN(ACT, ('take', (p0, p1, p2)))" in on
    off = listing_with("OPEN_ENDED_MOVES", False, "piles", PILES, "take")
    assert ".get(" not in off and "out.append(_TN(ACT, ('take', (p0, p1, p2))))" in off


def test_a_move_past_the_table_is_made_and_equal() -> None:
    rules = compiled_with("OPEN_ENDED_MOVES", True, "piles", PILES)
    assert MAX_OPEN_END < 18
    first, again = rules.new_game(seed=1), rules.new_game(seed=2)
    moves = {str(m): m for m in first.legal_actions()}
    assert "take(mid, left, 18)" in moves and "take(mid, left, 1)" in moves
    kept = {str(m): m for m in again.legal_actions()}
    assert kept["take(mid, left, 1)"] is moves["take(mid, left, 1)"]  # the table's one move
    assert kept["take(mid, left, 18)"] == moves["take(mid, left, 18)"]  # made when listed
    first.apply(moves["take(mid, left, 18)"])
    assert first.vars["stones"] == {"left": 21, "mid": 0, "right": 5}


def test_rows_of_two_parameters_leave_the_inner_loop() -> None:
    on = listing_with("ROWS_OF_ROWS", True, "piles", PILES, "take")
    assert re.search(r"_row\d+ = _M\d+\[p0\]\n", on) and re.search(r"_row\d+ = _row\d+\[p1\]\n", on)
    assert re.search(r"out\.append\(_row\d+\.get\(p2\)", on)
    off = listing_with("ROWS_OF_ROWS", False, "piles", PILES, "take")
    assert "[p0][p1].get(p2)" in off


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same("OPEN_ENDED_MOVES", "open-ended moves", "piles", PILES, record, "root")
    same_with_and_without("ROWS_OF_ROWS", record, {"piles": PILES}, "root")
    same_with_and_without("ROWS_OF_ROWS", record, {}, "shogun")
