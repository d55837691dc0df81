"""`one path` (docs/architecture.md §9, `game.ONE_PATH`): after a step of one write, the
invariants' plan (`Program.invariant_plan`) is looked up by that write's path, the journal's last
slot, instead of a set made of a slice of the journal (most of a traced Shogun game's steps
write one entry: a plan or a bid). Pinned: the plan by one path is the plan by the set of it, a
game's checks file plans by one path, the same breaks and the same Shogun games on and off."""

from __future__ import annotations

import pytest
from playing import compiled_with, games_digest, invariant_breaks
from regelwerk.interpreter.engine import game as game_module
from test_points_by_map import MAPS

import regelwerk


def test_the_plan_by_one_path_is_the_plan_by_its_set() -> None:
    prog = regelwerk.load_text(MAPS).program(True)
    for path in ("m", "seen", "cap", ("blocked",)):
        one = prog.invariant_plan(path)
        assert one == prog.invariant_plan(frozenset([path]))
        assert prog.invariant_plans[path] is one
        if one[1]:
            assert prog.keyed_plan(path, one[1]) == prog.keyed_plan(frozenset([path]), one[1])
    assert prog.invariant_plan(("blocked",))[0] == () and prog.keyed_plan(("blocked",), prog.invariant_plan(("blocked",))[1]) is None


def test_a_game_s_one_write_steps_are_planned_by_their_path(monkeypatch: pytest.MonkeyPatch) -> None:
    for on in (True, False):
        monkeypatch.setattr(game_module, "ONE_PATH", on)
        ruleset = regelwerk.load_text(MAPS)
        g = ruleset.new_game(record=True, seed=1)
        g.apply("shrink(s4)")  # a game's first decision has every invariant tested whole
        g.apply("block(s2)")  # one write: `blocked` whole
        plans = ruleset.program(True).invariant_plans
        assert (("blocked",) in plans) is on and (frozenset([("blocked",)]) in plans) is not on


@pytest.mark.parametrize("seed", range(6))
def test_the_same_breaks_on_and_off(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    breaks = invariant_breaks(regelwerk.load_text(MAPS, "maps.rules"), seed, 40)
    monkeypatch.setattr(game_module, "ONE_PATH", False)
    assert breaks == invariant_breaks(regelwerk.load_text(MAPS, "maps.rules"), seed, 40)
    assert breaks


def test_the_same_shogun_games_on_and_off(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = compiled_with("KEYED_POINTS", True, "shogun")
    seeds = range(6)
    on = games_digest(rules, 4, seeds, True)
    monkeypatch.setattr(game_module, "ONE_PATH", False)
    assert on == games_digest(rules, 4, seeds, True)
