"""`slots filtered once` (interpreter/compiler/slots.py, `CodeGen.SLOTS_FILTERED`): in
`count k in ITEMS one per c in SLOTS where FITS` (and the options of `choose N of ... one per`),
the leading parts of FITS that read nothing of the item and cannot fail filter SLOTS once, and
each item's list walks those slots with the other parts. Root's Sway tested `duchy_at(c)` for
every clearing once per card in hand. The same moves, games and traces as without it, and no
split where a leading part may fail or loop."""

from __future__ import annotations

import re

import pytest
from playing import compiled_with, listing_with, same_with_and_without, source_with

CARDS = """game "Cards"
players Ann, Bob
enum Card = c1, c2, c3, c4
enum Spot = s1, s2, s3, s4
state
    hand: Player -> list Card = {Ann: [c1, c2, c3], Bob: [c2, c3, c4]}
    here: Spot -> int = {s1: 1, s2: 0, s3: 1, s4: 1}
    used: list Card = []
    moves: int = 0
define near(s: Spot): bool = here[s] > 0 and s != s2
define fits(k: Card, s: Spot): bool = near(s) and (k == c1 or k == c4 or (k == c2 and s != s4) or (k == c3 and s == s1))
define risky(k: Card, s: Spot): bool = 4 // (here[s] + 1) > 1 and fits(k, s)
action flip(s: Spot)
    "Flip a spot."
    require (count k in hand[current] one per t in Spot where fits(k, t)) >= (if s == s1 then 1 else 2) else "too few"
    set here[s] = 1 - here[s]
    add 1 to moves
    if moves == 9
        finish draw
action show
    "Show two cards."
    require (count k in hand[current] one per t in Spot where here[t] > 0 and fits(k, t)) >= 2 else "too few"
    choose 2 of k in hand[current] one per t in Spot where fits(k, t) by current "which card?"
        add k to used
    add 1 to moves
    if moves == 9
        finish draw
action risk(s: Spot)
    "Count with a part that may fail first."
    require (count k in hand[current] one per t in Spot where risky(k, t)) >= (if s == s1 then 3 else 4) else "too few"
    add 1 to moves
    if moves == 9
        finish draw
action wait
    "Pass."
    add 1 to moves
    if moves == 9
        finish draw
flow
    repeat
        turn
            play flip, show, risk, wait
"""
TEXTS = {"cards": CARDS}


def test_the_choice_is_made_and_each_item_walks_the_kept_slots() -> None:
    choices = compiled_with("SLOTS_FILTERED", True, "cards", CARDS).program(False).choices
    assert {(c.rule, c.detail) for c in choices if c.kind == "slots filtered once"} == {
        ("action flip", "list t in Spot where fits(k, t)"),
        ("action show", "list t in Spot where here[t] > 0 and fits(k, t)"),
        ("action:show", "choose k")}
    flip = listing_with("SLOTS_FILTERED", True, "cards", CARDS, "flip")
    # near(t) once per listing, over the spots; each card walks the spots kept
    kept = re.search(r"for (_ks\d+),? in \(\(\[(_a\d+) for \2 in _E\d+ if (.*?)\],\),\)", flip)
    assert kept is not None and "> 0" in kept[3] and "'c1'" not in kept[3]
    assert re.search(rf"for _a\d+ in {kept[1]} if [^\n]*'c1'", flip)
    off = listing_with("SLOTS_FILTERED", False, "cards", CARDS, "flip")
    assert "_ks" not in off
    # the choice's candidates and the chosen cards share one list of kept spots
    src = source_with("SLOTS_FILTERED", True, "cards", CARDS)
    ks = re.search(r"(_ks\d+) = \[_a\d+ for _a\d+ in _E\d+ if ", src)
    assert ks is not None and src.count(f" in {ks[1]} if ") == 2
    # a leading part that may fail (a division) is left in place
    assert "_ks" not in listing_with("SLOTS_FILTERED", True, "cards", CARDS, "risk")
    root = compiled_with("SLOTS_FILTERED", True, "root").program(False).choices
    assert {c.detail for c in root if c.kind == "slots filtered once"} >= \
        {"list c in Clearing where supports(k, c)", "choose k"}


@pytest.mark.parametrize("record", [False, True])
def test_the_same_moves_and_games_with_and_without(record: bool) -> None:
    same_with_and_without("SLOTS_FILTERED", record, TEXTS, bundled="root")
