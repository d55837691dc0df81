"""The statistics of a comparison, in plain Python (no numpy or scipy: the data are a few
hundred numbers, and every figure must come out the same on every machine).

Both versions play the same seeds, so the games come in pairs, and paired tests are used:
- a rate (a player's wins, a seat's wins, draws): McNemar's test on the pairs that disagree
  (exact binomial, two-sided), with a Wald interval for the difference of paired proportions;
- a number per game (a score, the length, how often a rule fired): the Wilcoxon signed-rank
  test on the per-seed differences (zero differences dropped, ties averaged, normal
  approximation with tie and continuity corrections), with a seeded bootstrap interval for the
  mean difference;
- the family of all measures is corrected with Holm–Bonferroni; a measure is significant when
  its corrected p-value is below ALPHA.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

ALPHA = 0.05
Z95 = 1.959963984540054
BOOTSTRAP_ROUNDS = 2000


def _normal_two_sided(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def mcnemar(old: Sequence[bool], new: Sequence[bool]) -> float:
    """Two-sided exact p-value that the pairs which disagree lean one way by chance."""
    b = sum(1 for x, y in zip(old, new, strict=True) if x and not y)
    c = sum(1 for x, y in zip(old, new, strict=True) if y and not x)
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def paired_rate_interval(old: Sequence[bool], new: Sequence[bool], z: float = Z95) -> list[float]:
    """Wald interval of new rate minus old rate, for paired outcomes."""
    n = len(old)
    if n == 0:
        return [0.0, 0.0]
    b = sum(1 for x, y in zip(old, new, strict=True) if x and not y)
    c = sum(1 for x, y in zip(old, new, strict=True) if y and not x)
    d = (c - b) / n
    var = max(0.0, (b + c) - (c - b) ** 2 / n) / n ** 2
    half = z * math.sqrt(var)
    return [d - half, d + half]


def wilcoxon(differences: Sequence[float]) -> float:
    """Two-sided p-value of the signed-rank test that the differences centre on 0."""
    d = [x for x in differences if x != 0]
    n = len(d)
    if n == 0:
        return 1.0
    order = sorted(range(n), key=lambda i: abs(d[i]))
    ranks = [0.0] * n
    ties = 0.0
    i = 0
    while i < n:  # equal absolute differences share the mean of their ranks
        j = i
        while j + 1 < n and abs(d[order[j + 1]]) == abs(d[order[i]]):
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j + 2) / 2
        t = j - i + 1
        ties += t ** 3 - t
        i = j + 1
    w_plus = sum(r for r, x in zip(ranks, d, strict=True) if x > 0)
    mean = n * (n + 1) / 4
    var = n * (n + 1) * (2 * n + 1) / 24 - ties / 48
    if var <= 0:
        return 1.0
    z = (abs(w_plus - mean) - 0.5) / math.sqrt(var)
    return _normal_two_sided(max(0.0, z))


def bootstrap_interval(differences: Sequence[float], seed: int = 0,
                       rounds: int = BOOTSTRAP_ROUNDS) -> list[float]:
    """Percentile interval (95%) of the mean difference, from a generator seeded by `seed`."""
    n = len(differences)
    if n == 0:
        return [0.0, 0.0]
    if all(x == differences[0] for x in differences):
        return [float(differences[0])] * 2
    rng = random.Random(seed)
    means = sorted(sum(differences[rng.randrange(n)] for _ in range(n)) / n for _ in range(rounds))
    return [means[int(0.025 * rounds)], means[min(rounds - 1, int(0.975 * rounds))]]


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values, in the order given."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted
