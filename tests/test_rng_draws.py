"""The draws of the fast paths (rng.randbelow's test against rng.SAFE, chance_bernoulli's step
written out) are those of the reference SplitMix64 with its plain rejection rule, for many
seeds and ranges, and at states made to give an output in the rejected sliver or around SAFE,
which random seeds never reach (one output in 2**32)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from regelwerk.interpreter.stdlib import chance, rng

TWO64 = 2**64
GAMMA = 0x9E3779B97F4A7C15
M1, M2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


def ref_next(state: int) -> tuple[int, int]:
    """Vigna's splitmix64.c, written plainly: (output, new state)."""
    state = (state + GAMMA) % TWO64
    z = state
    z = ((z ^ (z >> 30)) * M1) % TWO64
    z = ((z ^ (z >> 27)) * M2) % TWO64
    return z ^ (z >> 31), state


def ref_randbelow(state: int, n: int) -> tuple[int, int]:
    """Outputs at or above the largest multiple of n not above 2**64 are drawn again."""
    limit = TWO64 - TWO64 % n
    while True:
        z, state = ref_next(state)
        if z < limit:
            return z % n, state


def _unxorshift(y: int, k: int) -> int:
    x, shift = y, k
    while shift < 64:
        x ^= y >> shift
        shift += k
    return x


def state_before(output: int) -> int:
    """The state whose next SplitMix64 output is `output` (the mix is a bijection)."""
    x = _unxorshift(output, 31)
    x = _unxorshift(x * pow(M2, -1, TWO64) % TWO64, 27)
    x = _unxorshift(x * pow(M1, -1, TWO64) % TWO64, 30)
    return (x - GAMMA) % TWO64


def game(state: int) -> SimpleNamespace:
    """What chance_bernoulli reads of an untraced game with sampled chance."""
    return SimpleNamespace(rng=state, scripted={}, explicit=False, record=False, quiet_chance=0)


RANGES = [1, 2, 3, 6, 20, 40, 97, 2**31 + 1, 2**32 - 1, 2**32, 2**32 + 1, 3 * 2**40 + 7, 2**63 + 1, TWO64]
SEEDS = [0, 1, 2, 7, 42, 2**63, TWO64 - 1, *range(1000, 1040)]


def test_state_before_inverts_the_mix() -> None:
    for output in (0, 1, rng.SAFE, TWO64 - 1, 0xE220A8397B1DCDAF):
        assert rng.next_u64(state_before(output))[0] == output


@pytest.mark.parametrize("n", RANGES)
def test_randbelow_draws_the_reference_values(n: int) -> None:
    for seed in SEEDS:
        state = ref_state = seed
        for _ in range(20):
            value, state = rng.randbelow(state, n)
            expected, ref_state = ref_randbelow(ref_state, n)
            assert (value, state) == (expected, ref_state), (seed, n)


EDGES = [rng.SAFE - 1, rng.SAFE, rng.SAFE + 1, rng.SAFE + 12345, TWO64 - 2**31, TWO64 - 41,
         TWO64 - 17, TWO64 - 16, TWO64 - 3, TWO64 - 2, TWO64 - 1]


@pytest.mark.parametrize("n", RANGES)
def test_randbelow_at_outputs_around_the_limit(n: int) -> None:
    """For n = 3 the last output, 2**64 - 1, is drawn again; for n = 40 the top 16; for
    2**32 + 1 outputs from 2**64 - 2**32 + 1 on, just above SAFE, where the exact test decides."""
    for output in EDGES:
        start = state_before(output)
        assert rng.randbelow(start, n) == ref_randbelow(start, n), (output, n)


def test_some_edge_output_is_drawn_again() -> None:
    """The edges above reach the rejection: a test that never rejects could not fail."""
    start = state_before(TWO64 - 1)
    assert ref_randbelow(start, 3)[1] != ref_next(start)[1]
    start = state_before(TWO64 - 16)
    assert ref_randbelow(start, 40)[1] != ref_next(start)[1]


@pytest.mark.parametrize("den", [1, 2, 3, 20, 40, 97, 2**32, 2**32 + 1, 2**63 + 1])
def test_chance_bernoulli_draws_the_reference_values(den: int) -> None:
    for seed in SEEDS:
        for num in sorted({0, 1, den // 3, den - 1, den}):
            g, ref_state = game(seed), seed
            for _ in range(10):
                drawn, ref_state = ref_randbelow(ref_state, den)
                assert chance.chance_bernoulli(g, num, den) == (drawn < num), (seed, num, den)
                assert g.rng == ref_state


@pytest.mark.parametrize("den", [3, 20, 40, 2**32, 2**32 + 1, 2**63 + 1])
def test_chance_bernoulli_at_outputs_around_the_limit(den: int) -> None:
    for output in EDGES:
        for num in (1, den - 1):
            start = state_before(output)
            g = game(start)
            drawn, after = ref_randbelow(start, den)
            assert chance.chance_bernoulli(g, num, den) == (drawn < num), (output, num, den)
            assert g.rng == after, (output, den)


def test_chance_bernoulli_long_way_agrees() -> None:
    """A game with a script queue (for another name) takes the long way: the same draws."""
    for seed in SEEDS:
        fast, slow = game(seed), game(seed)
        slow.scripted = {"roll": [[3]]}
        for _ in range(10):
            assert chance.chance_bernoulli(fast, 3, 20) == chance.chance_bernoulli(slow, 3, 20)
            assert fast.rng == slow.rng


@pytest.mark.parametrize("bad", [-1, TWO64, 1.5, None])
def test_chance_bernoulli_refuses_a_corrupt_state(bad: object) -> None:
    with pytest.raises(ValueError, match="rng state"):
        chance.chance_bernoulli(game(bad), 1, 2)  # type: ignore[arg-type]
