"""`fixed rows` (`CodeGen.FIXED_ROWS`): in a function that changes no state (a listing before
its copies, a definition, an aggregate's helper, an invariant), a state map's row under a key
every game has — a named value of the map's key type, a player every game has, the current
player — read again inside a loop is looked up once at the function's top: Root's
`warriors[Marquise][c]` and `warriors[current][c]` per clearing. A player only some games have
keeps its look-up where it was."""

from __future__ import annotations

import re

import pytest
from playing import chosen_and_same, compiled_with, listing_with, same_with_and_without, source_with

MEN = """game "Men"
players 2..3 from Ann, Bob, Cy
enum Spot = s1, s2, s3, s4
state
    men: Player -> Spot -> int = {Ann: {s1: 2}, Bob: {s4: 2}}
    turns: int = 0
define strength(p: Player): int = sum s in Spot: men[p][s]
define bob_total(): int = sum s in Spot: men[Bob][s]
define cy_total(): int = sum s in Spot: men[Cy][s]
action march(from: Spot, to: Spot)
    "March one man."
    require men[current][from] > 0 else "no man there"
    require from != to else "stay"
    require men[current][to] < 3 + bob_total() else "too crowded"
    move 1 from men[current][from] to men[current][to]
    add 1 to turns
    if turns >= 12
        finish draw
action rest
    "Rest."
    add 1 to turns
    if turns >= 12 or (player_count == 3 and cy_total() > 5)
        finish draw
flow
    repeat
        turn
            play march, rest
"""


def test_a_row_under_a_fixed_key_is_looked_up_once() -> None:
    rules = compiled_with("FIXED_ROWS", True, "men", MEN)
    on, off = source_with("FIXED_ROWS", True, "men", MEN), source_with("FIXED_ROWS", False, "men", MEN)
    assert {"bob_total", "cy_total"} <= rules.model.defines.keys()  # D_n functions, found by their text
    bob = next(part for part in on.split("\ndef ") if "'Bob'" in part and part.startswith("D_"))
    # read from the row in its loop, or summed whole (`whole sums`)
    assert re.search(r"(_fr\d+) = _sv0\['Bob'\]\n(.*\n)*\s+_r\d+ \+= (\1\[_a\d+\]|sum\(\1\.values\(\)\))", bob)
    assert "_sv0['Bob'][" in off
    # Cy plays only in games of three: his row stays where the sum asks for it
    cy = next(part for part in on.split("\ndef ") if "'Cy'" in part and part.startswith("D_"))
    assert "_fr" not in cy and "_sv0['Cy'][" in cy

def test_roots_listings_read_the_movers_row_once() -> None:
    """`take_move` read `warriors[current][from]` for every clearing (its narrowed range)."""
    on = listing_with("FIXED_ROWS", True, "root", None, "take_move")
    assert re.search(r"(_fr\d+) = _sv0\[_cur\]\n", on) and "_sv0[_cur][" not in on
    assert "_sv0[_cur][" in listing_with("FIXED_ROWS", False, "root", None, "take_move")


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same("FIXED_ROWS", "fixed rows", "men", MEN, record, "root")
    same_with_and_without("FIXED_ROWS", record, {}, "shogun")
