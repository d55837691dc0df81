"""`empty range first` for a range whose ends read outer parameters (interpreter/compiler/
actiongen.py `_Listing.empty_first`, `CodeGen.ENDS_FIRST`): Root's `cat_move(from, to in
adjacent_nodes(from), n in 1..warriors[current][from])` walked the neighbours of every clearing
where the Marquise has no warriors to find `n`'s range empty. The range is worked out at the
depth of the parameters its ends read, and that value skipped when it is empty, only where
nothing between can fail; and before the parts of deeper requires hoisted there when those
cannot fail either. The same moves, games and traces as without it."""

from __future__ import annotations

import functools

import pytest
from bundled import BUNDLED, ruleset
from playing import played
from regelwerk.interpreter.compiler.codegen import CodeGen

import regelwerk

ENDS = """game "Ends"
players Ann, Bob
board Square = grid 3 x 3
state
    stones: Square -> int = 1
    moves: int = 0
define cap(s: Square): int = 12 // (stones[s] + 2) + 1
action move(from: Square, to: Square, n in 1..stones[from])
    "Move."
    require to != from else "stay"
    remove n from stones[from]
    add n to stones[to]
    add 1 to moves
    if moves == 12
        finish draw
action sow(s: Square)
    "Sow."
    require stones[s] < 3 else "full"
    add 1 to stones[s]
flow
    repeat
        turn
            play move, sow
"""
# the require between can fail (a division): nothing is skipped
RISKY = ENDS.replace('    require to != from else "stay"\n', '    require 12 // (stones[to] + 1) > 0 else "stay"\n')
# a deeper require's part hoisted to `from`'s depth can fail: it is worked out before the skip
HOISTED = ENDS.replace('    require to != from else "stay"\n',
                       '    require to != from else "stay"\n    require cap(from) >= n else "too many"\n')
TEXTS = {"ends": ENDS, "risky": RISKY, "hoisted": HOISTED}


@functools.cache
def _loaded(name: str, on: bool) -> regelwerk.Ruleset:
    """The ruleset compiled (untraced and traced) with the form on or off; Root with it on is
    the test session's (bundled.ruleset)."""
    if name == "root" and on:
        return ruleset("root/root.rules")
    CodeGen.ENDS_FIRST = on
    try:
        rules = regelwerk.load(BUNDLED["root"]) if name == "root" else regelwerk.load_text(TEXTS[name], f"{name}.rules")
        rules.program(False), rules.program(True)
    finally:
        CodeGen.ENDS_FIRST = True
    return rules


@functools.cache
def _source(name: str, on: bool) -> str:
    """The untraced program's text with the form on or off (`source` compiles it again)."""
    CodeGen.ENDS_FIRST = on
    try:
        return _loaded(name, on).program(False).source
    finally:
        CodeGen.ENDS_FIRST = True


def _early(name: str, on: bool = True) -> set[tuple[str, str]]:
    return {(c.rule, c.detail) for c in _loaded(name, on).program(False).choices if c.kind == "empty range first"}


def _listing(name: str, action: str) -> str:
    """The body of `action`'s listing, AE_n, with the form on."""
    fn = _loaded(name, True).program(False).actions[action].enum.__name__
    return _source(name, True).split(f"\ndef {fn}(")[1].split("\ndef ")[0]


def test_the_range_is_worked_out_in_the_loop_over_from_before_the_neighbours() -> None:
    assert _early("ends") == {("action move", "n in 1..stones[from]")}
    assert _early("ends", on=False) == set()
    listing = _listing("ends", "move")
    head, inner = listing.split("for p1 in", 1)
    nrw = head.split(" = range(")[0].split()[-1]
    assert f"if not {nrw}:\n            continue" in head
    assert f"for p2 in {nrw}:" in inner and "range(" not in inner


def test_nothing_is_skipped_past_a_require_that_can_fail() -> None:
    assert _early("risky") == set()
    assert "for p2 in range(1, " in _listing("risky", "move")


def test_a_hoisted_part_that_can_fail_is_worked_out_before_the_skip() -> None:
    assert _early("hoisted") == {("action move", "n in 1..stones[from]")}
    head = _listing("hoisted", "move").split("for p1 in", 1)[0]
    assert head.index("_div(") < head.index(" = range(")  # cap(from), then the range
    root = _listing("root", "cat_move").split("for p1 in", 1)[0]
    assert root.index(" = range(") < root.index("D_")  # rules(current, from) cannot fail: after


def test_root_skips_clearings_without_the_marquises_warriors() -> None:
    assert ("action cat_move", "n in 1..warriors[current][from]") in _early("root")
    assert ("action cat_move", "n in 1..warriors[current][from]") not in _early("root", on=False)


@pytest.mark.parametrize("record", [False, True])
def test_the_same_moves_and_games_with_and_without(record: bool) -> None:
    for name in TEXTS:
        assert played(_loaded(name, True), None, record, range(4), 250, saved=True) == \
            played(_loaded(name, False), None, record, range(4), 250, saved=True)
    seeds = range(2 if record else 6)
    assert played(_loaded("root", True), None, record, seeds, 250, saved=True) == \
        played(_loaded("root", False), None, record, seeds, 250, saved=True)
