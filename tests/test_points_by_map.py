"""After a step, the invariants tested at the keys it wrote (`INVP_n`, reads.pointwise_reads) are
tested in one walk over the (path, key) pairs it wrote, each key by the tests that read its map
(`Program.points_by_map`, `game._points_hold`), not one walk over all the pairs per test (which
asked every pair whether its map was that test's). Pinned: the tests by map, each key tested
once per test that reads its map, and the same breaks at the same steps as testing whole."""

from __future__ import annotations

from typing import Any

import pytest
from playing import invariant_breaks

import regelwerk

# Two invariants tested by key over overlapping maps, a set read by membership, and a map
# none of them reads (written at every move, so each step writes pairs no test wants).
MAPS = """
game "Maps"
players A, B
enum Slot = s1, s2, s3, s4
state
    m: Slot -> int = 0
    cap: Slot -> int = 3
    seen: Slot -> int = 0
    blocked: set Slot
action two(x: Slot, y: Slot)
    add 1 to m[x]
    add 2 to m[y]
    add 1 to seen[x]
    add 1 to seen[y]
action shrink(x: Slot)
    remove 1 from cap[x]
    add 1 to seen[x]
action block(x: Slot)
    require x not in blocked
    add x to blocked
invariant all s in Slot: m[s] <= cap[s] + 2 else "no slot holds much more than its cap"
invariant all s in Slot: not (s in blocked and m[s] > 1) else "a blocked slot holds at most one"
flow
    repeat
        turn
            play two, shrink, block
"""


def test_the_tests_by_map() -> None:
    prog = regelwerk.load_text(MAPS).program(True)
    _todo, points = prog.invariant_plan(frozenset(["m", "seen"]))
    assert [i for i, _m, _t in points] == [0, 1]
    by = prog.points_by_map(points)
    tests = {i: t for i, _m, t in points}
    assert by == {"cap": (tests[0],), "m": (tests[0], tests[1]), "blocked": (tests[1],)}
    assert prog.points_by_map(points) is by  # worked out once per plan


def test_each_key_written_is_tested_once_by_each_test_that_reads_its_map(monkeypatch: pytest.MonkeyPatch) -> None:
    # the tests one key at a time: `keyed points` (test_keyed_points.py) tests a set in one call
    monkeypatch.setattr("regelwerk.interpreter.compiler.codegen.CodeGen.KEYED_POINTS", False)
    ruleset = regelwerk.load_text(MAPS)
    prog = ruleset.program(True)
    calls: list[tuple[int, Any]] = []
    for i, (maps, test) in list(prog.invariant_points.items()):
        def counted(G: Any, key: Any, test: Any = test, i: int = i) -> bool:
            calls.append((i, key))
            return test(G, key)
        prog.invariant_points[i] = (maps, counted)
    prog.invariant_plans.clear()
    prog.point_dispatch.clear()
    g = ruleset.new_game(record=True, seed=1)
    g.apply("shrink(s4)")  # a game's first decision has every invariant tested whole
    calls.clear()
    g.apply("two(s1, s2)")
    assert sorted(calls) == [(0, "s1"), (0, "s2"), (1, "s1"), (1, "s2")]  # not `seen`'s
    calls.clear()
    g.apply("shrink(s3)")
    assert calls == [(0, "s3")]
    calls.clear()
    g.apply("block(s4)")
    assert calls == [(1, "s4")]  # the element the set gained


@pytest.mark.parametrize("seed", range(6))
def test_the_same_breaks_at_the_same_steps_as_testing_whole(seed: int) -> None:
    breaks = invariant_breaks(regelwerk.load_text(MAPS), seed, 40)
    assert breaks == invariant_breaks(regelwerk.load_text(MAPS), seed, 40, by_key=False)
    assert breaks  # the games do break them
