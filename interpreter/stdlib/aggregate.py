"""Counting, grouping and ranking helpers for scoring rules.

Why: end-game scoring is mostly "count these", "who has the most", "2nd place gets 6" and
"ties share"; these helpers give those phrases one precise, tie-aware meaning each.
All results keep input order where order is not otherwise defined, so traces are stable.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any, TypeVar

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)


def _identity(item: Any) -> Any:
    """Default key: the item itself."""
    return item


def count(items: Iterable[T], pred: Callable[[T], bool]) -> int:
    """How many items satisfy `pred`, e.g. pieces of a colour in a line."""
    return sum(1 for item in items if pred(item))


def group_by(items: Iterable[T], key: Callable[[T], K]) -> dict[K, list[T]]:
    """Items bucketed by key; keys and bucket contents stay in first-seen input order."""
    groups: dict[K, list[T]] = {}
    for item in items:
        groups.setdefault(key(item), []).append(item)
    return groups


def max_value(
    items: Iterable[T], key: Callable[[T], Any] | None = None, default: Any = None
) -> Any:
    """The largest key(item) (the item itself without key); `default` for empty input."""
    return max(map(key or _identity, items), default=default)


def _arg_best(items: Iterable[T], key: Callable[[T], Any] | None, sign: int) -> list[T]:
    """Shared loop of argmax/argmin: all items tied at the best key, in input order."""
    key = key or _identity
    best: list[T] = []
    best_key: Any = None
    for item in items:
        k = key(item)
        if not best or (k > best_key if sign > 0 else k < best_key):
            best, best_key = [item], k
        elif k == best_key:
            best.append(item)
    return best


def argmax(items: Iterable[T], key: Callable[[T], Any] | None = None) -> list[T]:
    """ALL items whose key is the maximum, in input order ([] for empty input), so ties are
    visible to the rule that must break them."""
    return _arg_best(items, key, 1)


def argmin(items: Iterable[T], key: Callable[[T], Any] | None = None) -> list[T]:
    """ALL items whose key is the minimum, in input order ([] for empty input)."""
    return _arg_best(items, key, -1)


def nth_largest(values: Iterable[Any], n: int, distinct: bool = True) -> Any:
    """The n-th largest value (n=1 is the largest) or None if there is none. With
    distinct=True equal values count once: [5, 5, 3] -> 2nd largest is 3, not 5."""
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    ordered = sorted(values, reverse=True)
    if distinct:
        ordered = [v for i, v in enumerate(ordered) if i == 0 or v != ordered[i - 1]]
    return ordered[n - 1] if n <= len(ordered) else None


def rank_groups(items: Iterable[T], key: Callable[[T], K]) -> list[list[T]]:
    """Items grouped by equal key, groups ordered by key descending: the shape of "10/6/3
    points for the largest areas, ties share a rank" rules."""
    groups = group_by(items, key)
    return [groups[k] for k in sorted(groups, reverse=True)]  # type: ignore[type-var]


def relative_majority(counts: Mapping[str, int]) -> list[str]:
    """Keys holding the highest count (all of them when tied), in mapping order; [] when
    nobody has at least 1, because "the most of nothing" wins no majority."""
    if not counts:
        return []
    top = max(counts.values())
    if top < 1:
        return []
    return [who for who, c in counts.items() if c == top]


def has_relative_majority(counts: Mapping[str, int], who: str, strict: bool = False) -> bool:
    """True if `who` is among relative_majority(counts); strict=True also requires being
    the only leader, for games where a tie means nobody has the majority."""
    leaders = relative_majority(counts)
    return who in leaders and (not strict or len(leaders) == 1)
