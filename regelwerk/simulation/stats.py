"""The few statistics a balance report needs, without numpy: intervals and summaries.

Every figure is rounded to 6 decimals so that reports compare as text, and every function
takes its values in game order, so the same games give the same floats in any process.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

Z95 = 1.959963984540054  # the two-sided 95% quantile of the normal distribution


def r6(x: float) -> float:
    return round(float(x), 6)


def rate_text(per_second: float) -> str:
    """A rate with the digits that matter: 1234, 12.3, 0.0112."""
    if per_second >= 100:
        return f"{per_second:.0f}"
    if per_second >= 1:
        return f"{per_second:.1f}"
    return f"{per_second:.3g}"


def wilson(successes: float, n: int, z: float = Z95) -> dict[str, float | None]:
    """A rate with its Wilson score interval: good near 0 and 1 and for small n, where the
    normal approximation gives intervals outside [0, 1]. Shared wins count as fractions."""
    if n <= 0:
        return {"rate": None, "low": None, "high": None}
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0)) / denom
    return {"rate": r6(p), "low": r6(max(0.0, centre - half)), "high": r6(min(1.0, centre + half))}


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """The q-quantile by linear interpolation between order statistics (numpy's default)."""
    pos = (len(sorted_values) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def summary(values: Sequence[float]) -> dict[str, Any]:
    """Count, mean, standard deviation, min, quartiles and max."""
    if not values:
        return {"n": 0, "mean": None, "stdev": None, "min": None, "q1": None, "median": None,
                "q3": None, "max": None}
    s = sorted(values)
    return {
        "n": len(s),
        "mean": r6(statistics.fmean(values)),
        "stdev": r6(statistics.stdev(values)) if len(values) > 1 else 0.0,
        "min": s[0],
        "q1": r6(quantile(s, 0.25)),
        "median": r6(quantile(s, 0.5)),
        "q3": r6(quantile(s, 0.75)),
        "max": s[-1],
    }


def mean_interval(values: Sequence[float], z: float = Z95) -> dict[str, float | None]:
    """A mean with its normal-approximation 95% interval (for differences of rates)."""
    if not values:
        return {"mean": None, "low": None, "high": None}
    m = statistics.fmean(values)
    se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return {"mean": r6(m), "low": r6(m - z * se), "high": r6(m + z * se)}
