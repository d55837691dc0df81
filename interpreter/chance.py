"""Chance in rules: `roll`, `random`, `shuffled`, `bernoulli`.

Each takes the game first, advances its one generator state (`game.rng`, an int; see
stdlib/rng.py) and notes the outcome for the trace. A scenario can queue outcomes for any of
them (`script roll returns [4]`); a queued outcome is checked against the arguments, so a
scenario cannot script the impossible.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .locate import failure
from .stdlib import rng

MAX_DICE = 100_000  # dice in one roll


def chance_roll(G: Any, n: int, sides: int) -> list[int]:
    if not (0 <= n <= MAX_DICE and sides >= 1):
        raise failure(f"roll({n}, {sides}): at most {MAX_DICE:,} dice with at least one side each")
    if G.scripted and G.scripted.get("roll"):
        values = G.take_script("roll")
        if not (isinstance(values, list) and len(values) == n and all(
                isinstance(v, int) and 1 <= v <= sides for v in values)):
            raise failure(f"scripted roll {values!r} is impossible for {n}d{sides}")
        G.note_chance("roll", f"{n}d{sides} (scripted)", values)
        return list(values)
    values, G.rng = rng.roll_dice(G.rng, n, sides)
    G.note_chance("roll", f"{n}d{sides}", list(values))
    return list(values)


def chance_random(G: Any, items: Iterable) -> Any:
    seq = list(items)
    if not seq:
        raise failure("random() of an empty list: there is nothing to choose from")
    if G.scripted and G.scripted.get("random"):
        value = G.take_script("random")
        if value not in seq:
            raise failure(f"scripted random {value!r} is not one of the items")
        G.note_chance("random", f"1 of {len(seq)} (scripted)", value)
        return value
    i, G.rng = rng.randbelow(G.rng, len(seq))
    G.note_chance("random", f"1 of {len(seq)}", seq[i])
    return seq[i]


def chance_shuffled(G: Any, items: Iterable) -> list:
    if G.scripted and G.scripted.get("shuffled"):
        order = G.take_script("shuffled")
        if sorted(map(repr, order)) != sorted(map(repr, items)):
            raise failure("scripted shuffle is not a permutation of the items")
        G.note_chance("shuffle", f"{len(order)} items (scripted)", order)
        return list(order)
    out, G.rng = rng.shuffle(G.rng, list(items))
    G.note_chance("shuffle", f"{len(out)} items", out)
    return out


def chance_bernoulli(G: Any, num: int, den: int) -> bool:
    if not 0 <= num <= den or den <= 0:
        raise failure(f"bernoulli({num}, {den}) is not a probability")
    if G.scripted and G.scripted.get("bernoulli"):
        value = bool(G.take_script("bernoulli"))
        G.note_chance("bernoulli", f"{num}/{den} (scripted)", value)
        return value
    value, G.rng = rng.bernoulli(G.rng, num, den)
    G.note_chance("bernoulli", f"{num}/{den}", value)
    return value
