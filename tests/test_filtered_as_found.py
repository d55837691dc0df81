"""`filtered as found` (`CodeGen.FILTERED_AS_FOUND`): an any-move search (`AA_n`, `possible(a)`)
walks a parameter's values filtered once (`filtered once`) as it finds them the first time, the
search's body right after each value is kept, so the search stops at the first move without
testing the values after it; later rounds walk the kept list. Root's `possible(cat_build)`
tested `rules(current, c)` and the open slots of every clearing before looking for wood at the
first one."""

from __future__ import annotations

import re

import pytest
from playing import compiled_with, same_with_and_without, source_with

HUTS = """game "Huts"
players A, B
enum Spot = s1, s2, s3, s4, s5
enum Kind = hut, tower
state
    wood: Spot -> int = {s1: 1, s2: 0, s3: 2, s4: 3, s5: 0}
    owner: Spot -> Player? = {}
    built: Kind -> int = {}
    turns: int = 0
action build(k in [hut, tower], c: Spot)
    "Build."
    require owner[c] == none or owner[c] == current else "taken"
    require wood[c] >= (if k == hut then 1 else 2) + built[k] else "not enough wood"
    set owner[c] = current
    add 1 to built[k]
    add 1 to turns
action gather(c: Spot)
    "Gather."
    add 1 to wood[c]
    add 1 to turns
flow
    repeat
        turn
            if turns >= 20
                finish draw
            if possible(build)
                play build, gather
            else
                play gather
"""


def _search(on: bool) -> str:
    fn = compiled_with("FILTERED_AS_FOUND", on, "huts", HUTS).program(False).actions["build"].any.__name__
    return ("\n" + source_with("FILTERED_AS_FOUND", on, "huts", HUTS)).split(f"\ndef {fn}(")[1].split("\ndef ")[0]


def test_the_search_stops_at_the_first_value_kept_that_has_a_move() -> None:
    on, off = _search(True), _search(False)
    # on: the value kept, then at once its test and `return True`; the kept list walked in `else`
    assert re.search(r"(_ff\d+)\.append\(p1\)\n\s+if not _sv0\[p1\] >= .*\n\s+continue\n\s+return True", on)
    assert re.search(r"else:\n(\s+_ch\d+ = .*\n)?\s+for p1 in _ff\d+:", on)
    # off: the whole list first, then the walk
    assert re.search(r"_ff\d+\.append\(p1\)\n(\s+_\w+ = .*\n)*\s+for p1 in _ff\d+:", off)
    assert "else:" not in off


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    same_with_and_without("FILTERED_AS_FOUND", record, {"huts": HUTS}, "root")
