"""`keys moved by identity` (docs/architecture.md §5, `CodeGen.MOVED_BY_IDENTITY`): where `keys
moved in place` moves a written entry's key between the kept lists of its old and new value, its
test that the value changed is `old is not new` alone when the map's values are names or none
(every name the rules read is its one canonical object, engine/canonical.py), and the general
form, identity and none first then `!=`, for any other values. Pinned: both forms, and the same
games, saves, results and traces with the switch on and off, on the kept lists' own test ruleset
(every write form: set from none or from the other player's value, cleared, cleared whole, taken
back) and on checkers."""

from __future__ import annotations

import re

import pytest
from playing import chosen_and_same, compiled_with, switches
from test_keys_by_value import STONES

GENERAL = r"(_o\d+) is not (_kn\d+) and \(\1 is None or \2 is None or \1 != \2\):"
BY_IDENTITY = r"if _kv\d+ is not None and _o\d+ is not _kn\d+:\n"

HEIGHTS = """players Ann, Bob
board Square = grid 3 x 3
state
    height: Square -> int = 0
define flat(): int = count s in Square where height[s] == 0
action build(s: Square)
    require height[s] < 3
    require flat() > 0 or height[s] > 0
    add 1 to height[s]
flow
    repeat 12 times
        for p in players
            turn p
                play build
"""


def _source(name: str, text: str | None, on: bool, record: bool = False) -> str:
    rules = compiled_with("MOVED_BY_IDENTITY", on, name, text)
    with switches((("MOVED_BY_IDENTITY", on),)):
        return rules.program(record).source


@pytest.mark.parametrize("record", [False, True])
def test_names_are_moved_by_identity(record: bool) -> None:
    on, off = _source("checkers", None, True, record), _source("checkers", None, False, record)
    assert len(re.findall(BY_IDENTITY, on)) == len(re.findall(GENERAL, off)) > 0
    assert not re.search(GENERAL, on) and not re.search(BY_IDENTITY, off)
    chosen = {(c.kind, c.detail) for c in compiled_with("MOVED_BY_IDENTITY", True, "checkers").program(record).choices}
    assert ("keys moved by identity", "cell") in chosen


def test_numbers_keep_the_general_test() -> None:
    source = _source("heights", HEIGHTS, True)
    assert "_insort(" in source and re.search(GENERAL, source) and not re.search(BY_IDENTITY, source)
    chosen = {c.kind for c in compiled_with("MOVED_BY_IDENTITY", True, "heights", HEIGHTS).program(False).choices}
    assert "keys moved in place" in chosen and "keys moved by identity" not in chosen


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same("MOVED_BY_IDENTITY", "keys moved by identity", "stones", STONES, record, "checkers")
