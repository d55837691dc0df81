"""A parameter's domain that is a definition `list q in T where ...` (some of a type's values,
each once: Shogun's `provinces_of(current)`) needs no repeats dropped when listing
(actiongen `_distinct_lists`, the `distinct domain` choice); a list whose items are mapped
(`list q in T: f(q)`) may repeat and still lists each move once."""

from __future__ import annotations

import regelwerk

RULES = """players Ann, Bob
enum Land = north, south, east, west
state
    owner: Land -> Player? = none
    current_land: Land = north
define free_lands() = list q in Land where owner[q] == none
define partners(q: Land) = list r in Land: if r == q then north else south
define others(q: Land) =
    let me = q
    list r in Land where r != me
action take(q in free_lands(), r in partners(q))
    "Take a free land, naming a partner."
    set owner[q] = current
action look(p in others(current_land))
    "Look at another land."
    set owner[p] = owner[p]
flow
    repeat 2 times
        for p in players
            turn p
                play take
"""


def test_a_filtered_type_needs_no_repeats_dropped_and_a_mapped_list_does():
    rules = regelwerk.load_text(RULES, "lands.rules")
    prog = rules.program(False)
    chosen = {(c.kind, c.detail) for c in prog.choices}
    assert ("distinct domain", "free_lands()") in chosen
    assert ("distinct domain", "partners(q)") not in chosen
    assert ("distinct domain", "others(current_land)") in chosen  # through the definition's `let`
    g = rules.new_game()
    assert [str(m) for m in g.legal_actions()] == [
        "take(north, north)", "take(north, south)", "take(south, south)", "take(south, north)",
        "take(east, south)", "take(east, north)", "take(west, south)", "take(west, north)"]
    g.apply("take(south, south)")
    assert [str(m) for m in g.legal_actions()][:2] == ["take(north, north)", "take(north, south)"]
    assert len(g.legal_actions()) == 6
