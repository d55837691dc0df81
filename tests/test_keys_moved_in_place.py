"""`keys moved in place` (codegen `keys_moved`, switch MOVED_IN_PLACE): a write of an entry
of a map whose keys are kept by value (`keys by value`) moves the key between the kept lists
in the generated code itself, as carried.py `_keys_moved` does, without calling it: checkers'
step writes two entries of `cell`, a jump four or more, breakthrough's step two. The lists
must be the same as the call keeps: the oracle of tests/test_keys_by_value.py (the moves
worked out from the state at every decision) over every write form, and the same games
(moves in order, results, traces, saves) as with the call."""

from __future__ import annotations

import functools
import random
import re
from pathlib import Path

import pytest
from bundled import BUNDLED
from playing import played
from regelwerk.interpreter.compiler.codegen import CodeGen
from test_keys_by_value import STONES, _play_checked

import regelwerk


@functools.cache
def _compiled(name: str, on: bool) -> tuple[regelwerk.Ruleset, str]:
    """A bundled ruleset compiled once for this file (untraced and traced), with the switch on
    or off, and its untraced source (`Program.source` compiles again: read while it is set)."""
    rules = regelwerk.load(BUNDLED[name])
    CodeGen.MOVED_IN_PLACE = on
    try:
        rules.program(False), rules.program(True)
        source = rules.program(False).source
    finally:
        CodeGen.MOVED_IN_PLACE = True
    return rules, source


@pytest.mark.parametrize("name", ["checkers", "breakthrough"])
def test_the_writes_move_the_keys_in_place(name: str) -> None:
    rules, source = _compiled(name, True)
    assert ("keys moved in place", "cell") in {(c.kind, c.detail) for c in rules.program(False).choices}
    assert "_insort(" in source and "_keys_moved(" not in source
    # the value changed? the squares hold names or none: by identity alone (`keys moved by
    # identity`, tests/test_keys_moved_by_identity.py, where the general form is pinned)
    assert re.search(r"if _kv\d+ is not None and _o\d+ is not _kn\d+:\n", source)
    _rules, off = _compiled(name, False)
    assert "_keys_moved(" in off and "_insort(" not in off


@pytest.mark.parametrize("record", [False, True])
@pytest.mark.parametrize("name", ["checkers", "breakthrough"])
def test_the_same_games_as_with_the_call(name: str, record: bool) -> None:
    seeds = range(3)
    on = played(_compiled(name, True)[0], None, record, seeds, 300, saved=True)
    assert on == played(_compiled(name, False)[0], None, record, seeds, 300, saved=True)


@pytest.mark.parametrize("record", [False, True])
def test_every_write_form_keeps_the_lists_the_moves_are_walked_from(record: bool, tmp_path: Path) -> None:
    """An entry set from none or from the other player's value, an entry cleared, the map
    cleared whole, a move taken back: the listed moves are the oracle's at every decision."""
    path = tmp_path / "stones.rules"
    path.write_text(STONES, encoding="utf-8")
    rules = regelwerk.load(path)
    assert "_insort(" in rules.program(record).source
    for seed in range(4):
        _play_checked(rules.new_game(seed=seed, record=record), random.Random(seed), 40)
