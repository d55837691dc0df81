"""Leduc hold'em (rulesets/examples/leduc.rules) through the OpenSpiel bridge: the bridge works
out that the scores are zero-sum within ±13 by walking the whole tree (issue 22 §6: with the
old 1,000-node walk it came back general-sum within ±1,000 and `exploitability()` refused it),
and the game is OpenSpiel's own `leduc_poker`: the same 936 information states and the same
CFR exploitability, iteration for iteration."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from regelwerk.interpreter.tools.scenario import run_scenarios

import regelwerk

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import cfr, exploitability  # noqa: E402

from regelwerk.openspiel import UtilityWarning, load_game  # noqa: E402

LEDUC = Path(__file__).resolve().parent.parent / "rulesets" / "examples" / "leduc.rules"
Utility = pyspiel.GameType.Utility


def test_the_file_checks_clean_and_its_scenarios_pass():
    rules = regelwerk.load(LEDUC)
    assert rules.warnings == []
    assert [(r.name, r.failure) for r in run_scenarios(rules) if not r.passed] == []


@pytest.fixture(scope="module")
def games():
    return load_game(LEDUC), pyspiel.load_game("leduc_poker")


def _information_states(game) -> int:
    seen = set()

    def walk(s) -> None:
        if s.is_terminal():
            return
        if s.is_chance_node():
            for a, _p in s.chance_outcomes():
                walk(s.child(a))
            return
        seen.add((s.current_player(), s.information_state_string()))
        for a in s.legal_actions():
            walk(s.child(a))

    walk(game.new_initial_state())
    return len(seen)


def test_the_bridge_establishes_a_zero_sum_game_within_13_chips(games):
    ours, theirs = games
    assert ours.get_type().utility == Utility.ZERO_SUM
    assert (ours.min_utility(), ours.max_utility(), ours.utility_sum()) == (-13.0, 13.0, 0.0)
    assert (theirs.min_utility(), theirs.max_utility()) == (-13.0, 13.0)
    assert ours.facts.nodes == 9457 and ours.facts.terminals == 5520


def test_it_is_openspiels_leduc_poker(games):
    ours, theirs = games
    assert _information_states(ours) == _information_states(theirs) == 936
    mine, reference = cfr.CFRSolver(ours), cfr.CFRSolver(theirs)
    mine.evaluate_and_update_policy()  # one iteration: an exploitability on ours takes 7 s today
    reference.evaluate_and_update_policy()
    got = exploitability.exploitability(ours, mine.average_policy())
    want = exploitability.exploitability(theirs, reference.average_policy())
    assert got == pytest.approx(want, abs=1e-9) and got == pytest.approx(2.3736111, abs=1e-6)


def test_a_walk_too_small_says_what_to_pass():
    with pytest.warns(UtilityWarning, match=r"more than 100 nodes or takes more than 3 s to walk \(explore=100, explore_seconds=3\).*min_utility=.*utility=\"zero_sum\""):
        game = load_game(LEDUC, explore=100)
    assert game.get_type().utility == Utility.GENERAL_SUM
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        declared = load_game(LEDUC, explore=100, utility="zero_sum", min_utility=-13, max_utility=13)
    assert declared.get_type().utility == Utility.ZERO_SUM
    assert (declared.min_utility(), declared.max_utility(), declared.utility_sum()) == (-13.0, 13.0, 0.0)


def test_a_declared_utility_the_walk_contradicts_is_refused(tmp_path):
    pig = Path(__file__).resolve().parent.parent / "rulesets" / "examples" / "kuhn.rules"
    with pytest.raises(ValueError, match="add up to 0, so the game is zero_sum"):
        load_game(pig, utility="constant_sum")
