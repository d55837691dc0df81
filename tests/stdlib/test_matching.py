"""Tests for interpreter.stdlib.matching: maximum bipartite matching by augmenting paths."""

from hypothesis import given
from hypothesis import strategies as st
from regelwerk.interpreter.stdlib.matching import matching_size


def test_each_item_needs_its_own_slot():
    assert matching_size([["fox"], ["fox"]]) == 1
    assert matching_size([["fox", "rabbit"], ["fox"]]) == 2


def test_augmenting_path_reassigns_an_earlier_item():
    # item 0 takes a first, then item 1 (only a) forces item 0 over to b
    assert matching_size([["a", "b"], ["a"], ["b", "c"]]) == 3


def test_empty_cases():
    assert matching_size([]) == 0
    assert matching_size([[], []]) == 0


@given(st.lists(st.lists(st.integers(0, 5), max_size=4), max_size=6))
def test_never_more_than_items_or_distinct_slots(options):
    n = matching_size(options)
    assert n <= len(options)
    assert n <= len({s for opts in options for s in opts})
    assert n >= (1 if any(options) else 0)
