"""`keyed points` (docs/architecture.md §5 and §9, `CodeGen.KEYED_POINTS`): an invariant tested
after a step at the keys it wrote (`INVP_n`, one call a key) has a test at a set of keys too
(`INVK_n(G, keys)`); where every such invariant of a step's plan has one and no path of their
maps is deeper or whole (`Program.keyed_plan`), the step's keys of those maps are picked from
the journal in C and each test is one call, whatever the number of entries (no whole test past
`_BY_KEY_WRITES`). Pinned: the choice and the form; which tests run at which keys; the same
breaks at the same steps as testing whole and as the switch off; the same Shogun games."""

from __future__ import annotations

from typing import Any

import pytest
from playing import compiled_with, fresh_with, games_digest, invariant_breaks
from test_points_by_map import MAPS

import regelwerk


def test_the_choice_and_its_form(monkeypatch: pytest.MonkeyPatch) -> None:
    on = fresh_with("KEYED_POINTS", True, MAPS, "maps.rules", monkeypatch)
    prog = on.program(True)
    assert sorted(prog.invariant_keyed) == [0, 1]
    assert [(c.kind, c.rule) for c in prog.choices if c.kind == "keyed points"] == \
        [("keyed points", "invariant 0"), ("keyed points", "invariant 1")]
    body = prog.source.split("\ndef INVK_0(")[1].split("\ndef ")[0]
    assert body.startswith("G, ks):") and "for p0 in ks:" in body and "return False" in body
    assert "INVK_" not in on.program(False).source and on.program(False).invariant_keyed == {}
    monkeypatch.setattr("regelwerk.interpreter.compiler.codegen.CodeGen.KEYED_POINTS", False)
    off = regelwerk.load_text(MAPS, "maps.rules").program(True)
    assert off.invariant_keyed == {} and "INVK_" not in off.source
    assert not any(c.kind == "keyed points" for c in off.choices)
    assert sorted(off.invariant_points) == [0, 1]  # still tested one key at a time


def test_the_keyed_plan() -> None:
    prog = regelwerk.load_text(MAPS).program(True)
    paths = frozenset(["m", "seen"])
    _todo, points = prog.invariant_plan(paths)
    names, tests = prog.keyed_plan(paths, points)
    assert names == frozenset(["m", "cap", "blocked"]) and tests == (prog.invariant_keyed[0], prog.invariant_keyed[1])
    assert prog.keyed_plans[paths] == (names, tests)  # worked out once per set of paths
    whole = frozenset([("blocked",), "seen"])  # the set written whole: its elements, one key at a time
    assert prog.keyed_plan(whole, prog.invariant_plan(whole)[1]) is None


def test_which_tests_run_at_which_keys() -> None:
    ruleset = regelwerk.load_text(MAPS)
    prog = ruleset.program(True)
    keyed: list[tuple[int, frozenset]] = []
    single: list[tuple[int, Any]] = []
    for i, test in list(prog.invariant_keyed.items()):
        def counted(G: Any, ks: Any, test: Any = test, i: int = i) -> bool:
            keyed.append((i, frozenset(ks)))
            return test(G, ks)
        prog.invariant_keyed[i] = counted
    for i, (maps, one) in list(prog.invariant_points.items()):
        def counted_one(G: Any, key: Any, one: Any = one, i: int = i) -> bool:
            single.append((i, key))
            return one(G, key)
        prog.invariant_points[i] = (maps, counted_one)
    prog.invariant_plans.clear()
    prog.keyed_plans.clear()
    prog.point_dispatch.clear()
    g = ruleset.new_game(record=True, seed=1)
    g.apply("shrink(s4)")  # a game's first decision has every invariant tested whole
    keyed.clear()
    g.apply("two(s1, s2)")  # `seen`'s keys are not picked: no test reads it
    assert keyed == [(0, frozenset(["s1", "s2"])), (1, frozenset(["s1", "s2"]))] and single == []
    keyed.clear()
    g.apply("shrink(s3)")
    assert keyed == [(0, frozenset(["s3"]))] and single == []
    keyed.clear()
    g.apply("block(s4)")  # a set written whole: the element it gained, one key at a time
    assert keyed == [] and single == [(1, "s4")]


@pytest.mark.parametrize("seed", range(6))
def test_the_same_breaks_at_the_same_steps_as_testing_whole_and_as_the_switch_off(seed: int) -> None:
    breaks = invariant_breaks(compiled_with("KEYED_POINTS", True, "maps_keyed", MAPS), seed, 40)
    assert breaks == invariant_breaks(regelwerk.load_text(MAPS, "maps_keyed.rules"), seed, 40, by_key=False)
    assert breaks == invariant_breaks(compiled_with("KEYED_POINTS", False, "maps_keyed", MAPS), seed, 40)
    assert breaks  # the games do break them


def test_the_same_shogun_games_with_and_without() -> None:
    seeds = range(8)
    assert games_digest(compiled_with("KEYED_POINTS", True, "shogun"), 4, seeds, True) == \
        games_digest(compiled_with("KEYED_POINTS", False, "shogun"), 4, seeds, True)
