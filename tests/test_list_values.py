"""A value of a list type is a Python list at run time, wherever it comes from: a type's name
(`Card`, `Player`), a join, a library function. A tuple there compared unequal to the same
list literal, could not be drawn from, and failed `deck + Card` (found by a scenario that set
`deck = Card`)."""

from __future__ import annotations

import regelwerk

RULES = """players A, B

enum Card = one, two, three

state
    deck: list Card = []
    order: list Player = []
    wrong: list text = []

action take
    set deck = Card
    draw 1 from deck to deck
    set deck = deck + Card
    set order = Player
    if order != [A, B]
        set wrong = wrong + ["Player"]
    if Card != [one, two, three]
        set wrong = wrong + ["Card"]
    if (list p in Player: p) != [A, B]
        set wrong = wrong + ["list over Player"]
    if deck != [one, two, three, one, two, three]
        set wrong = wrong + ["deck"]
    finish winner current

flow
    repeat
        turn
            play take
"""


def test_type_names_as_values_are_lists_that_draw_join_and_compare():
    g = regelwerk.load_text(RULES, "t.rules").new_game()
    g.apply(g.legal_actions()[0])
    assert g.result is not None, g.result
    assert g.vars["wrong"] == []
    assert type(g.vars["deck"]) is list and type(g.vars["order"]) is list


def test_the_same_values_after_a_save_and_load():
    rules = regelwerk.load_text(RULES, "t.rules")
    g = rules.new_game(start=False)
    g.start()
    g.apply(g.legal_actions()[0])
    back = rules.load_game(g.to_json())
    assert back.vars == g.vars
