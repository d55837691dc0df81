"""Chance in rules: `roll`, `random`, `shuffled`, `bernoulli`.

Each takes the game first, advances its one generator state (`game.rng`, an int; see
stdlib/rng.py) and notes the outcome for the trace. A scenario can queue outcomes for any of
them (`script roll returns [4]`); a queued outcome is checked against the arguments, so a
scenario cannot script the impossible.

In a game with explicit chance (`new_game(chance="explicit")`, interpreter/engine/explicit.py) the
generator is not used: each primitive event (one die, one item, the next item of a shuffle,
one bernoulli) asks the game which outcome happened (`G.chance_pick`), with its exact weights.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..engine.locate import failure
from . import rng
from .rng import GOLDEN_GAMMA, MASK64, MIX1, MIX2, SAFE, SMALL_N

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
    if G.explicit:  # one event per die
        faces = list(range(1, sides + 1))
        values = [G.chance_pick("roll", f"die {i + 1} of {n}d{sides}", faces, None) for i in range(n)]
    else:
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
    if G.explicit:
        items, counts = distinct(seq)
        value = G.chance_pick("random", f"1 of {len(seq)}", items, counts)
        G.note_chance("random", f"1 of {len(seq)}", value)
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
    if G.explicit:  # "which item comes next", once per place: not one event of n! outcomes
        rest = list(items)
        out = []
        n = len(rest)
        while rest:
            kinds, counts = distinct(rest)
            value = G.chance_pick("shuffle", f"item {len(out) + 1} of {n}", kinds, counts)
            out.append(value)
            del rest[next(i for i, x in enumerate(rest) if x is value)]
    else:
        out, G.rng = rng.shuffle(G.rng, list(items))
    G.note_chance("shuffle", f"{len(out)} items", out)
    return out


def chance_bernoulli(G: Any, num: int, den: int) -> bool:
    if not 0 <= num <= den or den <= 0:
        raise failure(f"bernoulli({num}, {den}) is not a probability")
    state = G.rng
    if G.scripted or G.explicit or type(den) is not int or den > SMALL_N \
            or type(state) is not int or not 0 <= state <= MASK64:
        return _bernoulli(G, num, den)
    # rng.randbelow's step written out (a tower draws thousands a game: no call, no checks
    # made twice); an output above rng.SAFE, one in 2**32, is drawn again the long way
    state = (state + GOLDEN_GAMMA) & MASK64
    z = ((state ^ (state >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    z ^= z >> 31
    if z > SAFE:
        return _bernoulli(G, num, den)
    G.rng = state
    value = z % den < num
    if G.record and not G.quiet_chance:  # no call per draw where nothing is noted: an untraced
        G.note_chance("bernoulli", f"{num}/{den}", value)  # game, a device's roll (a tower draws thousands)
    return value


def _bernoulli(G: Any, num: int, den: int) -> bool:
    """`bernoulli` the long way: a scripted outcome, explicit chance, or rng.randbelow."""
    if G.scripted and G.scripted.get("bernoulli"):
        value = bool(G.take_script("bernoulli"))
        G.note_chance("bernoulli", f"{num}/{den} (scripted)", value)
        return value
    if G.explicit:
        outcomes = [(v, w) for v, w in ((True, num), (False, den - num)) if w]
        value = G.chance_pick("bernoulli", f"{num}/{den}", [v for v, _ in outcomes], [w for _, w in outcomes])
    else:  # rng.bernoulli without checking again what was checked above
        drawn, G.rng = rng.randbelow(G.rng, den)
        value = drawn < num
    if G.record and not G.quiet_chance:
        G.note_chance("bernoulli", f"{num}/{den}", value)
    return value


def distinct(seq: list) -> tuple[list, list[int]]:
    """The different items of `seq` (the first object of each, in order of first appearance)
    and how often each occurs: the outcomes of drawing one item, with their weights. Items are
    told apart by value and kind (`1` is not `true`)."""
    items: list = []
    counts: list[int] = []
    index: dict = {}
    for x in seq:
        try:
            key = (type(x), x)
            i = index.get(key)
        except TypeError:  # an unhashable item (a record): compare one by one (imported
            from ..engine.moves import same_value  # here, not per call: an import costs 1 us)

            key = None
            i = next((j for j, y in enumerate(items) if same_value(x, y)), None)
        if i is None:
            if key is not None:
                index[key] = len(items)
            items.append(x)
            counts.append(1)
        else:
            counts[i] += 1
    return items, counts
