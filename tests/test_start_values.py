"""A map's start value is either the value of every entry (`units: Player -> Unit = Unit(hp:
1)`, `cell: Square -> Player? = none`) or the map's entries (`ruler_at: Ruler -> Sq? = {red:
b2}`): the one that fits the value's type and not the map's is each entry's (compile.Program
._each_entry). A record is a dict at run time, like a map, so a record start value was read
as entries: `{'Ann': None, 'Bob': None, 'hp': 1}`."""

from __future__ import annotations

import regelwerk

RULES = """players Ann, Bob
enum Ruler = red, blue
board Sq = grid 2 x 2
record Unit(hp: int)
state
    units: Player -> Unit = Unit(hp: 1)
    ruler_at: Ruler -> Sq? = {red: b2}
    seen: Player -> (Player -> int) = {Ann: 3}
action hit
    "Ann's unit takes a hit."
    set units[Ann].hp = units[Ann].hp + 4
flow
    repeat 1 times
        turn Ann
            play hit
"""


def test_a_record_start_value_is_each_entry_s_own_copy():
    ruleset = regelwerk.load_text(RULES, "units.rules")
    for record in (False, True):
        g = ruleset.new_game(record=record)
        assert g.vars["units"] == {"Ann": {"hp": 1}, "Bob": {"hp": 1}}
        g.apply(g.legal_actions()[0])
        assert g.vars["units"] == {"Ann": {"hp": 5}, "Bob": {"hp": 1}}  # Bob's is not Ann's
        again = regelwerk.Game.from_json(g.to_json(), ruleset)
        assert again.vars["units"] == {"Ann": {"hp": 5}, "Bob": {"hp": 1}}


def test_a_map_start_value_is_still_the_map_s_entries():
    g = regelwerk.load_text(RULES, "units.rules").new_game()
    assert g.vars["ruler_at"] == {"red": "b2", "blue": None}
    # `{Ann: 3}` fits `Player -> int`, each entry's type, and not the map's: each entry's value
    assert g.vars["seen"] == {"Ann": {"Ann": 3, "Bob": 0}, "Bob": {"Ann": 3, "Bob": 0}}
