"""A small game with grouped invariants (Shogun's cube count in miniature): a sum and a count
grouped by colour over the provinces, and actions that move armies between the groups. Shared
by the tests of the traced invariant checks (test_trace_compact.py: tested in one pass;
test_kept_sums.py: kept from one check to the next)."""

from __future__ import annotations

# place: a province changes hands; leak: breaks the first invariant
GROUPED = """
game "Grouped"
players A, B
enum Colour = red, blue, green
enum Province = p1, p2, p3, p4
const COLOUR = {A: red, B: blue}
state
    owner: Province -> Player? = none
    armies: Province -> int = 0
    supply: Colour -> int = 4
define on_board(c: Colour): int = sum q in Province where owner[q] != none and COLOUR[owner[q]] == c: armies[q]
define held(c: Colour): int = count q in Province where owner[q] != none and COLOUR[owner[q]] == c
invariant all c in Colour: supply[c] + on_board(c) == 4 else "every army is in the supply or on the board"
invariant all c in Colour: held(c) <= 3 else "nobody holds every province"
action place(q: Province)
    require owner[q] == none or owner[q] == current
    require supply[COLOUR[current]] > 0
    set owner[q] = current
    add 1 to armies[q]
    remove 1 from supply[COLOUR[current]]
action leak(q: Province)
    require owner[q] == current
    add 1 to armies[q]
flow
    repeat
        turn
            play place, leak
"""

# the same with `take`, which empties a province of another player's armies
GROUPED_WITH_TAKE = GROUPED.replace("action leak(q: Province)", """action take(q: Province)
    require owner[q] != none and owner[q] != current
    add armies[q] to supply[COLOUR[owner[q]]]
    set armies[q] = 0
    set owner[q] = none
action leak(q: Province)""").replace(
    "play place, leak", "play place, take, leak")
