"""`slots once` (interpreter/compiler/machine.py `one_per_options`, `CodeGen.SLOTS_ONCE`): the
options of `choose N of k in ITEMS one per c in SLOTS where FITS` list the chosen items' slots
once per decision, when the first candidate needs them, instead of once per candidate: Root's
Duchy listed every chosen card's clearings again for each card in its hand. The same options,
games and traces as without it."""

from __future__ import annotations

import pytest
from playing import compiled_with, same_with_and_without

SHOW = """game "Show"
players Ann, Bob
enum Suit = fox, mouse, bird
enum Spot = s1, s2, s3, s4
enum Card = k1, k2, k3, k4, k5, k6
const SUIT = {k1: fox, k2: fox, k3: mouse, k4: bird, k5: mouse, k6: fox}
const SPOT = {s1: fox, s2: mouse, s3: fox, s4: mouse}
state
    hand: Player -> list Card = [k1, k2, k3, k4, k5, k6]
    shown: Player -> list Card = []
    rounds: int = 0
define fits(k: Card, c: Spot): bool = SUIT[k] == bird or SUIT[k] == SPOT[c]
action show(n in 1..3)
    "Show cards, one per spot."
    require (count k in hand[current] one per c in Spot where fits(k, c)) >= n else "too few spots"
    choose n of k in hand[current] one per c in Spot where fits(k, c) "Show a card"
        move k from hand[current] to shown[current]
    add 1 to rounds
    if rounds == 6
        finish draw
action take
    "Take the shown cards back."
    require shown[current] != [] else "nothing shown"
    set hand[current] = hand[current] + shown[current]
    set shown[current] = []
    add 1 to rounds
    if rounds == 6
        finish draw
flow
    repeat
        turn
            play show, take
"""
TEXTS = {"show": SHOW}


def test_the_options_list_the_chosen_cards_slots_once() -> None:
    choices = compiled_with("SLOTS_ONCE", True, "show", SHOW).program(False).choices
    assert [(c.kind, c.rule, c.detail) for c in choices if c.kind == "slots once"] == \
        [("slots once", "action:show", "choose k")]
    assert not [c for c in compiled_with("SLOTS_ONCE", False, "show", SHOW).program(False).choices
                if c.kind == "slots once"]
    root = compiled_with("SLOTS_ONCE", True, "root").program(False).choices
    assert [c.rule for c in root if c.kind == "slots once"] == ["procedure:reveal_cards"]


@pytest.mark.parametrize("record", [False, True])
def test_the_same_options_and_games_with_and_without(record: bool) -> None:
    same_with_and_without("SLOTS_ONCE", record, TEXTS)
