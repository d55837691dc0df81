"""`one value tested` (interpreter/compiler/actiongen.py `one_value_tested`,
`CodeGen.ONE_VALUE_TESTED`): a kept listing's call in the block is `KM_n(G)`, which writes out
`carried._kept_moves`' commonest path (one write logged since, at a key one value's requires
read) with that value's check in place, and hands anything else to `_kept_moves`. The form of
the function, and the same moves, games, saves and errors with and without it, over writes of
one square, of two columns at once and of the whole board (test_kept_listing's COLUMNS)."""

from __future__ import annotations

import re

import pytest
from playing import chosen_and_same, source_with
from test_checks_inlined import COLUMNS as CHECKED
from test_kept_listing import COLUMNS


def test_the_block_calls_one_function_that_tests_the_value_in_place() -> None:
    on = source_with("ONE_VALUE_TESTED", True, "columns", COLUMNS)
    off = source_with("ONE_VALUE_TESTED", False, "columns", COLUMNS)
    assert re.search(r"\(_kept_moves\(G, _KS\d+, AK_\d+, AC_\d+, AE_\d+\)\)", off)  # (with more actions, extended)
    assert "def KM_" not in off
    km = re.search(r"(?ms)^def (KM_\d+)\(G\):\n(.*?)(?=^def |\Z)", on)
    assert km is not None and re.search(rf"\({km[1]}\(G\)\)", on)
    body = km[2]
    assert "return _kept_moves(G, _KS" in body  # every other case: the general function
    assert not re.search(r"\bAC_\d+\(", body) and not re.search(r"\bD_\d+\(", body)  # the check in place
    assert "return _kept_without(G, " in body and "_kept_changed(" in body
    assert "_kept_moves(" not in on.split("def B_", 1)[1]  # the block itself no longer calls it


def test_no_function_where_no_listing_is_kept() -> None:
    ttt = source_with("ONE_VALUE_TESTED", True, "tictactoe")
    assert "def KM_" not in ttt


@pytest.mark.parametrize("record", [False, True])
def test_the_same_moves_and_games_with_and_without(record: bool) -> None:
    """Traced games keep their listings too (`kept listings traced`), so they list through KM_n."""
    chosen_and_same("ONE_VALUE_TESTED", "one value tested", "columns", COLUMNS, record, bundled="connect4")


def test_a_value_that_fails_its_second_require_is_dropped() -> None:
    chosen_and_same("ONE_VALUE_TESTED", "one value tested", "checked", CHECKED, False, bundled="connect4")
