"""`slots filtered once`, flattened (interpreter/compiler/slots.py `_flattened`, `_fixed_parts`,
`CodeGen.SLOTS_FLATTENED`): in `count k in ITEMS one per c in SLOTS where FITS`, a part of FITS
that calls a small definition whose body is an `and` is taken as that body's parts, so those that
read nothing of the item filter the slots once with the others; and the look-ups of the item's
own parts that read nothing of the slot are worked out once per item. Root's Sway: `supports(k,
c) = duchy_at(c) and matches(k, c)`, `matches(k, c) = SUIT[c] != none and (CARDS[k].suit ==
bird or CARDS[k].suit == SUIT[c])` tested `SUIT[c] != none` and read `CARDS[k].suit` twice for
every card and clearing. The same moves, games and traces as without it."""

from __future__ import annotations

import re

import pytest
from playing import compiled_with, games_digest, listing_with, same_with_and_without

SUITS = """game "Suits"
players Ann, Bob
enum Suit = red, blue, wild
enum Card = c1, c2, c3, c4, c5
enum Spot = s1, s2, s3, s4
const SPOT_SUIT = {s1: red, s2: blue, s3: red, s4: blue}
const BONUS = [1, 2, 0]
state
    hand: Player -> list Card = {Ann: [c1, c2, c3], Bob: [c3, c4, c5]}
    here: Spot -> int = {s1: 1, s2: 0, s3: 1, s4: 1}
    suit_of: Card -> Suit = {c1: red, c2: blue, c3: wild, c4: red, c5: blue}
    rank: Card -> int = {c1: 0, c2: 1, c3: 2, c4: 2, c5: 0}
    moves: int = 0
define mine(s: Spot): bool = here[s] > 0
define matches(k: Card, s: Spot): bool = s != s4 and (suit_of[k] == wild or suit_of[k] == SPOT_SUIT[s])
define fits(k: Card, s: Spot): bool = mine(s) and matches(k, s)
define tricky(k: Card, s: Spot): bool = 4 // (here[s] + 1) > 1 and matches(k, s)
define risky(k: Card, s: Spot): bool = mine(s) and tricky(k, s)
define chancy(k: Card, s: Spot): bool = s != s4 and (BONUS[rank[k]] == 0 or suit_of[k] == SPOT_SUIT[s])
define lucky(k: Card, s: Spot): bool = mine(s) and chancy(k, s)
action flip(s: Spot)
    "Flip a spot."
    require (count k in hand[current] one per t in Spot where fits(k, t)) >= (if s == s1 then 1 else 2) else "too few"
    set here[s] = 1 - here[s]
    add 1 to moves
    if moves == 9
        finish draw
action risk(s: Spot)
    "Count with a flattened part that may fail."
    require (count k in hand[current] one per t in Spot where risky(k, t)) >= (if s == s1 then 1 else 2) else "too few"
    set here[s] = 1 - here[s]
    add 1 to moves
    if moves == 9
        finish draw
action gamble(s: Spot)
    "Count with a look-up of the card's that may fail: never worked out once per card."
    require s != s2 else "not there"
    require (count k in hand[current] one per t in Spot where lucky(k, t)) >= (if s == s3 then 2 else 1) else "too few"
    set here[s] = 1 - here[s]
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
            play flip, risk, gamble, wait
"""
TEXTS = {"suits": SUITS}
SUIT_OF = re.compile(r"_sv\d+\[_a\d+\]")


def _comprehensions(listing: str) -> tuple[str, str]:
    """The kept slots' filter and one item's list of a listing's `count ... one per`."""
    kept = re.search(r"for (_ks\d+),? in \(\(\[(_a\d+) for \2 in _E\d+ if (.*?)\],\),\)", listing)
    item = re.search(r"\[\[(.*?) for _ks\d+", listing)
    assert kept is not None and item is not None, listing
    return kept[3], item[1]


def test_the_slot_part_joins_the_kept_filter_and_the_suit_is_read_once_per_card() -> None:
    on = listing_with("SLOTS_FLATTENED", True, "suits", SUITS, "flip")
    kept, item = _comprehensions(on)
    assert "'s4'" in kept and "'s4'" not in item  # `t != s4`, read nothing of the card
    assert re.search(r"for (_fx\d+),? in \(\(_sv\d+\[_a\d+\],\),\)", item)  # a state map total over cards
    assert len(SUIT_OF.findall(item)) == 1 and item.count("== 'wild'") == 1
    off = listing_with("SLOTS_FLATTENED", False, "suits", SUITS, "flip")
    kept_off, item_off = _comprehensions(off)
    assert "'s4'" not in kept_off and "'s4'" in item_off and len(SUIT_OF.findall(item_off)) == 2
    # a flattened part that may fail (a division) stays in each item's list, and so does all after it
    risk_kept, risk_item = _comprehensions(listing_with("SLOTS_FLATTENED", True, "suits", SUITS, "risk"))
    assert "//" not in risk_kept and "'s4'" not in risk_kept and "'s4'" in risk_item
    _gamble_kept, gamble_item = _comprehensions(listing_with("SLOTS_FLATTENED", True, "suits", SUITS, "gamble"))
    head = re.search(r" in \(\((.*?)\),\) for _a\d+ in _ks", gamble_item)
    assert head is not None and "_kc" not in head[1] and "_kc" in gamble_item  # BONUS[...] may fail: per slot
    choices = compiled_with("SLOTS_FLATTENED", True, "suits", SUITS).program(False).choices
    assert ("action flip", "fits(k, t)") in {(c.rule, c.detail) for c in choices if c.kind == "slots flattened"}
    assert all(c.kind != "slots flattened"
               for c in compiled_with("SLOTS_FLATTENED", False, "suits", SUITS).program(False).choices)
    assert any(c.kind == "fixed part" and c.rule == "action flip" and "suit_of[k]" in c.detail for c in choices)
    root = compiled_with("SLOTS_FLATTENED", True, "root").program(False).choices
    assert any(c.kind == "slots flattened" and c.rule == "action sway" for c in root)
    assert any(c.kind == "fixed part" and c.rule == "action sway" and "CARDS[k].suit" in c.detail for c in root)


@pytest.mark.parametrize("record", [False, True])
def test_the_same_moves_and_games_with_and_without(record: bool) -> None:
    same_with_and_without("SLOTS_FLATTENED", record, TEXTS, bundled="root")


@pytest.mark.parametrize("record", [False, True])
def test_the_same_root_games_by_digest(record: bool) -> None:
    seeds = range(10, 20)
    assert games_digest(compiled_with("SLOTS_FLATTENED", True, "root"), 2, seeds, record) == \
        games_digest(compiled_with("SLOTS_FLATTENED", False, "root"), 2, seeds, record)
