"""`moves sliced` (interpreter/compiler/actiongen.py `_Listing.sliced`, `sliced_table`): a
listing's innermost loop over a range of ints that only appends each value's move from a move
table is one `extend` by a slice of the table's row kept as a tuple; a partial table's row where
the range lies inside it, the loop as before elsewhere. The same moves, games and traces as
without it, also where a game's options or its state put values outside the table."""

from __future__ import annotations

import random

import pytest
from playing import compiled_with, listing_with, same_with_and_without

SLICED = """game "Sliced"
players Ann, Bob
option least: int = 1 "the fewest stones a sowing adds"
enum Colour = red, blue
board Spot = graph
    a - b - c
state
    piles: Spot -> int = 3
    turns: int
action move(from: Spot, to in adjacent_nodes(from), n in 1..6)
    "Move stones to a neighbour."
    require piles[from] >= n else "too few"
    remove n from piles[from]
    add n to piles[to]
    add 1 to turns
    if turns == 40
        finish draw
action take(s: Spot, n in 1..piles[s])
    "Take stones away."
    remove n from piles[s]
    add 1 to turns
action sow(s: Spot, n in least..2)
    "Sow stones."
    require piles[s] + 2 >= n else "too far"
    add n to piles[s]
action plant(c in Colour, s: Spot, n in least..3)
    "Plant: its bindings kept once (keyed by nothing), the range worked out once."
    require piles[s] < 9 else "full"
    require turns + 1 >= n else "too soon"
    add n to piles[s]
action seed(c in Colour, s: Spot, n in 1..2)
    "Seed: the same with a complete table; no moves in the first turn."
    require piles[s] < 7 else "full"
    require turns >= n else "too soon"
    add n to piles[s]
    add 1 to turns
action rest()
    "Rest when nothing moves."
    require not possible(move) and not possible(seed) and not possible(plant) else "a move is possible"
    add 1 to turns
flow
    repeat
        turn
            play move, take, sow, plant, seed, rest
"""


def test_the_innermost_loop_is_one_slice() -> None:
    on = compiled_with("MOVES_SLICED", True, "sliced", SLICED).program(False)
    assert sorted(c.detail for c in on.choices if c.kind == "moves sliced") == [
        "n of move", "n of plant", "n of seed", "n of sow", "n of take"]
    move = listing_with("MOVES_SLICED", True, "sliced", SLICED, "move")
    assert ".start:" in move and ".stop])" in move and "for p2 in" not in move
    # found not empty at `from`'s depth (`empty range first`): not tested again
    assert "if not _nrw" in move and "    if _nrw" not in move
    # a partial table (an option's end, a high end the state gives): sliced inside it only,
    # and a range that may be empty is tested first
    for action, high in (("sow", 3), ("take", 17)):
        listing = listing_with("MOVES_SLICED", True, "sliced", SLICED, action)
        assert "out.extend(" in listing and "for p1 in" in listing and "_TN(ACT" in listing
        assert "        if _nrw" in listing and f".stop <= {high}:" in listing
    # the kept rows hold the clearing alone, kept where the range is not empty
    for action in ("plant", "seed"):
        listing = listing_with("MOVES_SLICED", True, "sliced", SLICED, action)
        rows = listing.split("_rows")[1].split(" ")[0]
        assert f"    _rows{rows}.append(p1)" in listing and f"for p1 in _rows{rows}:" in listing
        assert ("_TN(ACT" in listing) == (action == "plant")
    off = listing_with("MOVES_SLICED", False, "sliced", SLICED, "move")
    assert "out.extend(" not in off and "for p2 in" in off


@pytest.mark.parametrize("record", [False, True])
def test_the_same_moves_and_games_with_and_without(record: bool) -> None:
    same_with_and_without("MOVES_SLICED", record, {"sliced": SLICED}, bundled="root")


@pytest.mark.parametrize("least", [0, -1, 2])
def test_values_outside_the_table_are_listed_as_without(least: int) -> None:
    """An option below the table's low end, and piles past its open end (sowing adds)."""
    def games(on: bool) -> list:
        rules = compiled_with("MOVES_SLICED", on, "sliced", SLICED)
        out = []
        for seed in range(6):
            g = rules.new_game(seed=seed, options={"least": least})
            rnd = random.Random(seed)
            while not g.is_over and len(out) < 2000:
                moves = g.legal_actions()
                out.append([str(m) for m in moves])
                g.apply(rnd.choice(moves))
            out.append(g.to_json())
        return out
    with_it = games(True)
    assert any(len(m) > 0 and any(", 0)" in x for x in m) for m in with_it if isinstance(m, list)) or least != 0
    assert with_it == games(False)
