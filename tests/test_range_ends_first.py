"""`empty range first` for a range whose ends read outer parameters (interpreter/compiler/
actiongen.py `_Listing.empty_first`, `CodeGen.ENDS_FIRST`): Root's `cat_move(from, to in
adjacent_nodes(from), n in 1..warriors[current][from])` walked the neighbours of every clearing
where the Marquise has no warriors to find `n`'s range empty. The range is worked out at the
depth of the parameters its ends read, and that value skipped when it is empty, only where
nothing between can fail; and before the parts of deeper requires hoisted there when those
cannot fail either. The same moves, games and traces as without it."""

from __future__ import annotations

import re

import pytest
from playing import compiled_with, listing_with, same_with_and_without
from test_empty_range_first import EARLY

# test_empty_range_first's game, `move`'s range ending at the stones there
ENDS = EARLY.replace("n in 1..4)", "n in 1..stones[from])").replace('    require stones[from] >= n else "too few"\n', "")
# the require between can fail (a division): nothing is skipped
RISKY = ENDS.replace('    require to != from else "stay"\n', '    require 12 // (stones[to] + 1) > 0 else "stay"\n')
# a deeper require's part hoisted to `from`'s depth can fail: it is worked out before the skip
HOISTED = ENDS.replace('    require to != from else "stay"\n',
                       '    require to != from else "stay"\n    require cap(from) >= n else "too many"\n').replace(
    "action move(", "define cap(s: Square): int = 12 // (stones[s] + 2) + 1\naction move(")
TEXTS = {"ends": ENDS, "risky": RISKY, "hoisted": HOISTED}


def _early(name: str, on: bool = True) -> set[tuple[str, str]]:
    rules = compiled_with("ENDS_FIRST", on, name, TEXTS.get(name))
    return {(c.rule, c.detail) for c in rules.program(False).choices if c.kind == "empty range first"}


def _listing(name: str, action: str) -> str:
    return listing_with("ENDS_FIRST", True, name, TEXTS.get(name), action)


def test_the_range_is_worked_out_in_the_loop_over_from_before_the_neighbours() -> None:
    assert _early("ends") == {("action move", "n in 1..stones[from]")}
    assert _early("ends", on=False) == set()
    listing = _listing("ends", "move")
    head, inner = listing.split("for p1", 1)  # (`for p1, _n in` where its rows are numbered)
    nrw = head.split(" = range(")[0].split()[-1]
    assert f"if not {nrw}:\n            continue" in head
    # walked, or sliced (`moves sliced`), and not worked out again
    assert (f"for p2 in {nrw}:" in inner or f"[{nrw}.start:{nrw}.stop]" in inner) and "range(" not in inner


def test_nothing_is_skipped_past_a_require_that_can_fail() -> None:
    assert _early("risky") == set()
    inner = _listing("risky", "move").split("for p1", 1)[1]  # worked out in the loop over `to`:
    assert "for p2 in range(1, " in inner or re.search(r"_nrw\d+ = range\(1, ", inner)  # walked, or sliced


def test_a_hoisted_part_that_can_fail_is_worked_out_before_the_skip() -> None:
    assert _early("hoisted") == {("action move", "n in 1..stones[from]")}
    head = _listing("hoisted", "move").split("for p1 in", 1)[0]
    assert head.index("_div(") < head.index(" = range(")  # cap(from), then the range
    root = _listing("root", "cat_move").split("for p1 in", 1)[0]
    # rules(current, from) cannot fail: after (its call, or its test in place: `hoisted tests`)
    assert root.index(" = range(") < min(root.index(t) for t in ("D_", "while True:") if t in root)


def test_root_skips_clearings_without_the_marquises_warriors() -> None:
    assert ("action cat_move", "n in 1..warriors[current][from]") in _early("root")
    assert ("action cat_move", "n in 1..warriors[current][from]") not in _early("root", on=False)


@pytest.mark.parametrize("record", [False, True])
def test_the_same_moves_and_games_with_and_without(record: bool) -> None:
    same_with_and_without("ENDS_FIRST", record, TEXTS)
