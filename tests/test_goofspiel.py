"""Goofspiel (rulesets/examples/goofspiel.rules): simultaneous, secret bids through the OpenSpiel
bridge (issue 23 §3). A `simultaneously` is an OpenSpiel simultaneous node, and
`pyspiel.convert_to_turn_based` works on it; with three cards and outcome returns the game is
OpenSpiel's own `goofspiel(num_cards=3, points_order=random, returns_type=win_loss)`: the same
114 information states after the conversion, and CFR's exploitability equal at every iteration
from 1 to 20."""

from __future__ import annotations

from pathlib import Path

import pytest
from regelwerk.interpreter.tools.scenario import run_scenarios

import regelwerk

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import cfr, exploitability  # noqa: E402

from regelwerk.openspiel import load_game  # noqa: E402

GOOF = Path(__file__).resolve().parent.parent / "rulesets" / "examples" / "goofspiel.rules"


def test_the_file_checks_clean_and_its_scenarios_pass():
    rules = regelwerk.load(GOOF)
    assert rules.warnings == []
    assert [(r.name, r.failure) for r in run_scenarios(rules) if not r.passed] == []


def test_a_bid_is_secret_until_both_are_in():
    game = regelwerk.load(GOOF).new_game(options={"cards": 3}, seed=2)
    assert game.pending == {"kind": "simultaneous", "players": ["Ann", "Bob"]}
    game.apply("play_card(3)", player="Bob")
    assert game.pending["players"] == ["Ann"]
    assert game.view("Ann")["vars"]["bid"]["Bob"] == {"hidden": True}
    assert game.view("Ann")["vars"]["hand"]["Bob"] == [1, 2, 3], "the card leaves the hand when bids are shown"
    assert [str(m) for m in game.legal_actions(player="Ann")] == ["play_card(1)", "play_card(2)", "play_card(3)"]
    assert game.legal_actions(player="Bob") == []
    with pytest.raises(regelwerk.IllegalAction, match="Bob has no decision"):
        game.apply("play_card(1)", player="Bob")
    game.apply("play_card(1)", player="Ann")
    assert game.vars["hand"] == {"Ann": [2, 3], "Bob": [1, 2]}


@pytest.fixture(scope="module")
def games():
    ours = load_game(GOOF, options={"cards": 3}, returns="outcome")
    theirs = pyspiel.load_game("goofspiel(num_cards=3,players=2,points_order=random,returns_type=win_loss)")
    return ours, theirs


def test_a_simultaneous_decision_is_an_openspiel_simultaneous_node(games):
    ours, _ = games
    assert ours.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    state = ours.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    assert state.legal_actions(0) == state.legal_actions(1) == [0, 1, 2]
    state.apply_actions([2, 0])  # Ann bids 3, Bob 1, for the prize of 1
    assert state.is_chance_node(), "the next prize is turned up"
    state.apply_action(state.chance_outcomes()[0][0])
    assert state.regelwerk_game().vars["points"] == {"Ann": 1, "Bob": 0}


def test_it_is_openspiels_goofspiel_with_random_prizes(games):
    ours, theirs = (pyspiel.convert_to_turn_based(g) for g in games)
    mine, reference = cfr.CFRSolver(ours), cfr.CFRSolver(theirs)
    assert len(mine.current_policy().state_lookup) == len(reference.current_policy().state_lookup) == 114
    for _ in range(20):
        mine.evaluate_and_update_policy()
        reference.evaluate_and_update_policy()
        got = exploitability.exploitability(ours, mine.average_policy())
        want = exploitability.exploitability(theirs, reference.average_policy())
        assert got == pytest.approx(want, abs=1e-9)
