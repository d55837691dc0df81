"""A deterministic PRNG whose whole state is one int (SplitMix64), as pure functions.

Why: game state must be saveable as JSON and replayable bit-for-bit on any machine and
Python version. Python's `random` keeps hidden state and may change algorithms; here the
state is a plain int in [0, 2**64) that lives in the game state, and every function
returns (result, new_state) without side effects.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
_BIG_ENDIAN = sys.byteorder == "big"  # `draws` reads its words in the machine's order


def _check_state(state: int) -> None:
    """Refuse anything that is not a valid 64-bit state, e.g. a corrupted save file."""
    if isinstance(state, bool) or not isinstance(state, int) or not 0 <= state <= MASK64:
        raise ValueError(f"rng state must be an int in [0, 2**64), got {state!r}")


def seed_state(seed: int) -> int:
    """Turn any int seed (negative or huge too) into a valid state: seed mod 2**64."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int, got {type(seed).__name__}")
    return seed & MASK64


def next_u64(state: int) -> tuple[int, int]:
    """One SplitMix64 step: (uniform value in [0, 2**64), new_state)."""
    _check_state(state)
    state = (state + GOLDEN_GAMMA) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return z ^ (z >> 31), state


_TWO64 = 1 << 64
SMALL_N = 1 << 32  # ranges of at most this many values (dice, cards, a bernoulli's denominator)
SAFE = _TWO64 - SMALL_N  # an output at or below this is below every such range's rejection limit


def randbelow(state: int, n: int) -> tuple[int, int]:
    """Uniform int in [0, n), unbiased by rejecting the top sliver of 2**64 (1 <= n <= 2**64).
    The SplitMix64 step of `next_u64` is written out here: chance devices (Shogun's tower)
    draw thousands of times a game, and the state is checked once, not once per step. An
    output is kept when it is below `limit`, the largest multiple of n not above 2**64; for
    n <= SMALL_N that limit is above SAFE (it is more than 2**64 - n), so an output at or below
    SAFE is kept without working the limit out (two big-int operations a draw), and the
    limit is worked out only for the other 2**32 outputs of 2**64: the same values drawn."""
    if type(n) is not int or not 1 <= n <= _TWO64:  # the full test only off the common path
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= _TWO64:
            raise ValueError(f"n must be an int in [1, 2**64], got {n!r}")
    if type(state) is not int or not 0 <= state <= MASK64:
        _check_state(state)
    small = n <= SMALL_N
    while True:
        state = (state + GOLDEN_GAMMA) & MASK64
        z = ((state ^ (state >> 30)) * MIX1) & MASK64
        z = ((z ^ (z >> 27)) * MIX2) & MASK64
        z ^= z >> 31
        if (z <= SAFE and small) or z < _TWO64 - _TWO64 % n:
            return z % n, state


def step_code(state: str, out: str, ind: str) -> list[str]:
    """`randbelow`'s SplitMix64 step as lines of Python for generated code (codegen's drawn
    `bernoulli`, thousands a game in Shogun's tower): advances the local `state` and leaves
    the output in `out`, the constants written out."""
    return [f"{ind}{state} = ({state} + {GOLDEN_GAMMA:#x}) & {MASK64:#x}",
            f"{ind}{out} = (({state} ^ ({state} >> 30)) * {MIX1:#x}) & {MASK64:#x}",
            f"{ind}{out} = (({out} ^ ({out} >> 27)) * {MIX2:#x}) & {MASK64:#x}",
            f"{ind}{out} ^= {out} >> 31"]


DRAWS = 32  # steps a batch of `draws` holds
_LANE = 128  # bits a lane of `steps`' big integers takes: a 64-bit value times a 64-bit constant fits
_LANES: dict[int, tuple[int, int, int]] = {}  # lanes -> their mask, steps of GOLDEN_GAMMA, ones


def _lanes(n: int) -> tuple[int, int, int]:
    """The constants of `steps` for n lanes, made once: the lanes' mask, each lane's multiple
    of GOLDEN_GAMMA (its step's offset from the state), a one in each lane."""
    got = _LANES.get(n)
    if got is None:
        got = _LANES[n] = (sum(MASK64 << (_LANE * i) for i in range(n)),
                           sum((((i + 1) * GOLDEN_GAMMA) & MASK64) << (_LANE * i) for i in range(n)),
                           sum(1 << (_LANE * i) for i in range(n)))
    return got


def steps(state: int, n: int) -> tuple[list[int], list[int]]:
    """The next `n` SplitMix64 steps from `state` (valid: the caller checked it; 1 <= n <=
    DRAWS), worked out at once: (the outputs, the states after each step).

    Why: a SplitMix64 step on Python integers is some ten big-int operations, each a call and
    an allocation, and Shogun's tower makes thousands of draws a game. Here each lane of 128
    bits of one big integer holds a state, so each operation is made once for n steps (the
    product of a lane's 64 bits with a 64-bit constant fits in its lane; the bits a right
    shift brings down from the next lane are masked off before they could reach a product),
    and outputs and states are read out through one `to_bytes`. The same outputs and states as
    `next_u64`, step by step."""
    words = _words(state, n)[0]
    return words[::2].tolist(), words[1::2].tolist()


def _words(state: int, n: int) -> tuple[array, bytes]:
    """`steps`' work: each step's output and state as machine words in turn, and the bytes they
    were read from (little-endian)."""
    mask, gammas, ones = _LANES.get(n) or _lanes(n)
    s = (state * ones + gammas) & mask
    z = s ^ (s >> 30) & mask
    z = z * MIX1 & mask
    z ^= z >> 27 & mask
    z = z * MIX2 & mask
    z ^= z >> 31 & mask
    raw = (z | s << 64).to_bytes(n * _LANE // 8, "little")
    words = array("Q", raw)
    if _BIG_ENDIAN:
        words.byteswap()
    return words, raw


def draws(state: int) -> tuple[list[int], list[int], list]:
    """`steps(state, DRAWS)` and the states before each step, then None: a device roll's batch
    (codegen `batched draws`). The third list lets a draw test in one look-up that the batch
    goes on from the game's state: the state objects a draw leaves are those it holds (so `is`
    finds them), and its last entry, None, is no state, so a batch used up is made again. The
    entry before an output above SAFE (one in 2**32) is None too, so that test also tells a
    draw that its output needs no test of its own (codegen `safe in batch`): such a draw goes
    the long way, as one above SAFE does."""
    words, raw = _words(state, DRAWS)
    outputs, states = words[::2].tolist(), words[1::2].tolist()
    before = [state, *states]
    before[-1] = None
    # an output above SAFE has its top 32 bits set, so its top byte (each lane's eighth) is
    # 0xff: the outputs' top bytes searched in C (an int searched for, which bytes find without
    # raising first), and only the outputs found there compared (one batch in eight has one)
    tops = raw[7::_LANE // 8]
    if 255 in tops:
        i = tops.find(255)
        while i >= 0:
            if outputs[i] > SAFE:
                before[i] = None
            i = tops.find(255, i + 1)
    return outputs, states, before


# The steps of the last batch a roll or a shuffle left unused: (outputs, states, before, the
# next one's index), as `draws` makes them. A pure memo: a batch goes on from a state only if
# that very object is its `before` entry, and then its steps are that state's, whichever game
# it is; any other state (another game's, one read from a save) only makes a batch anew.
LEFT: list[tuple[list[int], list[int], list, int]] = [([], [], [None], 0)]


def draws_from(state: int) -> tuple[list[int], list[int], list, int]:
    """The batch of steps from `state` (valid: the caller checked it), and the index of its
    next one: what the last roll or shuffle left (`LEFT`) when it goes on from this very
    state, else a new one (`draws`). Why: a roll's last batch is used only in part (some 16
    steps a throw of Shogun's tower), and the next throw's shuffle, then its draws, go on
    from the state it left."""
    outputs, states, before, k = LEFT[0]
    if before[k] is state:
        return outputs, states, before, k
    outputs, states, before = draws(state)
    return outputs, states, before, 0


def randint(state: int, lo: int, hi: int) -> tuple[int, int]:
    """Uniform int in [lo, hi], both ends inclusive like a die's faces."""
    if lo > hi:
        raise ValueError(f"empty range: lo={lo} > hi={hi}")
    value, state = randbelow(state, hi - lo + 1)
    return lo + value, state


SHUFFLE_STEPS = 4  # a shuffle of more items than this takes its draws from batches (`draws_from`)


def shuffle(state: int, items: Sequence[T]) -> tuple[list[T], int]:
    """Fisher-Yates shuffle into a NEW list (input untouched): (shuffled, new_state). A list of
    more than SHUFFLE_STEPS items takes its draws from batches of steps (`draws_from`: what
    the last roll or shuffle left, or a new one; Shogun's tower shuffles a dozen cubes a
    throw): each at or below rng.SAFE is kept, as randbelow keeps it for any range of at most
    2**32 values, so the same draws; it leaves the rest of its batch in `LEFT`."""
    result = list(items)
    last = len(result) - 1
    if last < SHUFFLE_STEPS:
        for i in range(last, 0, -1):
            j, state = randbelow(state, i + 1)
            result[i], result[j] = result[j], result[i]
        return result, state
    i = last
    _check_state(state)
    outputs, states, before, k = draws_from(state)
    while i > 0:  # its steps in batches (`draws`): the same draws as randbelow's, one by one
        if before[k] is not state:  # used up, or the generator moved the long way
            outputs, states, before, k = draws_from(state)
        z = outputs[k]
        if z > SAFE:  # one output in 2**32: this draw the long way, then a new batch
            j, state = randbelow(state, i + 1)
        else:
            j = z % (i + 1)
            state = states[k]
            k += 1
        result[i], result[j] = result[j], result[i]
        i -= 1
    LEFT[0] = (outputs, states, before, k)
    return result, state


def choice(state: int, seq: Sequence[T]) -> tuple[T, int]:
    """One uniformly chosen element of a non-empty sequence: (element, new_state)."""
    if not seq:
        raise IndexError("cannot choose from an empty sequence")
    index, state = randbelow(state, len(seq))
    return seq[index], state


def bernoulli(state: int, numerator: int, denominator: int) -> tuple[bool, int]:
    """True with exact probability numerator/denominator (no floats); always uses one
    randbelow call so the state sequence does not depend on the probability."""
    if denominator < 1 or not 0 <= numerator <= denominator:
        raise ValueError(f"need 0 <= numerator <= denominator >= 1, got {numerator}/{denominator}")
    value, state = randbelow(state, denominator)
    return value < numerator, state


def roll_dice(state: int, count: int, sides: int) -> tuple[tuple[int, ...], int]:
    """Roll `count` dice with faces 1..sides: (faces in roll order, new_state)."""
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    if sides < 1:
        raise ValueError(f"sides must be >= 1, got {sides}")
    faces = []
    for _ in range(count):
        face, state = randint(state, 1, sides)
        faces.append(face)
    return tuple(faces), state
