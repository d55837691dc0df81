"""Tests for interpreter.stdlib.aggregate: tie-aware counting and ranking for scoring."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from regelwerk.interpreter.stdlib.aggregate import (
    argmax,
    argmin,
    count,
    group_by,
    has_relative_majority,
    max_value,
    nth_largest,
    rank_groups,
    relative_majority,
)

AREAS = [("red", 5), ("blue", 7), ("green", 5), ("white", 2), ("black", 7)]


def size(area: tuple[str, int]) -> int:
    return area[1]


def test_count_and_group_by() -> None:
    assert count(AREAS, lambda a: a[1] >= 5) == 4
    assert count([], bool) == 0
    groups = group_by(AREAS, size)
    assert list(groups) == [5, 7, 2]  # first-seen order
    assert groups[5] == [("red", 5), ("green", 5)]


def test_max_value() -> None:
    assert max_value(AREAS, size) == 7
    assert max_value([3, 9, 2]) == 9
    assert max_value([], size) is None
    assert max_value([], size, default=0) == 0


def test_argmax_and_argmin_keep_all_ties_in_input_order() -> None:
    assert argmax(AREAS, size) == [("blue", 7), ("black", 7)]
    assert argmin(AREAS, size) == [("white", 2)]
    assert argmax([], size) == [] and argmin([]) == []
    assert argmax([1, 3, 3, 2]) == [3, 3]
    assert argmin([0, -1, -1], key=abs) == [0]


def test_nth_largest() -> None:
    assert nth_largest([5, 5, 3], 1) == 5
    assert nth_largest([5, 5, 3], 2) == 3
    assert nth_largest([5, 5, 3], 2, distinct=False) == 5
    assert nth_largest([5, 5, 3], 3) is None
    assert nth_largest([5, 5, 3], 3, distinct=False) == 3
    assert nth_largest([], 1) is None
    with pytest.raises(ValueError):
        nth_largest([1], 0)


def test_rank_groups_for_10_6_3_bonus_with_ties() -> None:
    ranks = rank_groups(AREAS, size)
    assert ranks == [
        [("blue", 7), ("black", 7)],
        [("red", 5), ("green", 5)],
        [("white", 2)],
    ]
    bonus = {name: points for points, group in zip((10, 6, 3), ranks, strict=False)
             for name, _ in group}  # fmt: skip
    assert bonus == {"blue": 10, "black": 10, "red": 6, "green": 6, "white": 3}
    assert rank_groups([], size) == []


def test_relative_majority() -> None:
    assert relative_majority({"ann": 3, "bob": 1, "cy": 3}) == ["ann", "cy"]
    assert relative_majority({"ann": 2, "bob": 1}) == ["ann"]
    assert relative_majority({"ann": 0, "bob": 0}) == []
    assert relative_majority({}) == []
    assert has_relative_majority({"ann": 2, "bob": 1}, "ann")
    assert not has_relative_majority({"ann": 2, "bob": 1}, "bob")
    assert has_relative_majority({"ann": 2, "bob": 2}, "bob")
    assert not has_relative_majority({"ann": 2, "bob": 2}, "bob", strict=True)
    assert not has_relative_majority({"ann": 0}, "ann")
    assert not has_relative_majority({"ann": 1}, "zed")


values = st.lists(st.integers(-5, 5))


@given(values)
def test_argmax_matches_max(xs: list[int]) -> None:
    best = argmax(xs)
    if not xs:
        assert best == []
        return
    assert best == [x for x in xs if x == max(xs)]
    assert argmin(xs) == [x for x in xs if x == min(xs)]
    assert max_value(xs) == max(xs)


@given(values, st.integers(1, 12))
def test_nth_largest_matches_sorting(xs: list[int], n: int) -> None:
    distinct = sorted(set(xs), reverse=True)
    assert nth_largest(xs, n) == (distinct[n - 1] if n <= len(distinct) else None)
    everything = sorted(xs, reverse=True)
    assert nth_largest(xs, n, distinct=False) == (everything[n - 1] if n <= len(xs) else None)


@given(values)
def test_rank_groups_partition_in_descending_key_order(xs: list[int]) -> None:
    ranks = rank_groups(xs, abs)
    assert sorted(x for group in ranks for x in group) == sorted(xs)
    keys = [abs(group[0]) for group in ranks]
    assert keys == sorted(set(keys), reverse=True)
    assert all(len({abs(x) for x in group}) == 1 for group in ranks)


@given(st.dictionaries(st.sampled_from("abcde"), st.integers(-2, 4)))
def test_relative_majority_holders_have_the_top_count(counts: dict[str, int]) -> None:
    leaders = relative_majority(counts)
    for who, c in counts.items():
        assert (who in leaders) == (c == max(counts.values()) and c >= 1)
        assert has_relative_majority(counts, who) == (who in leaders)
