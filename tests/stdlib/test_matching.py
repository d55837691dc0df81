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


def _brute_force(options: list[list[int]]) -> int:
    """The largest set of items that can each get their own slot, by trying every assignment."""
    best = 0

    def walk(i: int, used: frozenset, placed: int) -> None:
        nonlocal best
        if i == len(options):
            best = max(best, placed)
            return
        walk(i + 1, used, placed)
        for s in options[i]:
            if s not in used:
                walk(i + 1, used | {s}, placed + 1)

    walk(0, frozenset(), 0)
    return best


@given(st.lists(st.lists(st.integers(0, 5), max_size=4), max_size=6))
def test_the_maximum_by_brute_force(options):
    assert matching_size(options) == _brute_force(options)


def test_leaves_no_cyclic_garbage():
    # a recursive closure was a reference cycle per call: garbage only the collector frees
    import gc

    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        gc.set_debug(gc.DEBUG_SAVEALL)
        for _ in range(20):
            matching_size([["a", "b"], ["a"], ["b", "c"]])
        assert gc.collect() == 0
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()
