"""English draughts (rulesets/classic/checkers.rules): the published perft counts from the start
position, where a multi-jump is one move, and the ruleset's scenarios."""

from __future__ import annotations

from pathlib import Path

import pytest
from regelwerk.interpreter.tools.agents import perft
from regelwerk.interpreter.tools.scenario import run_scenarios

import regelwerk

RULES = Path(__file__).resolve().parent.parent / "rulesets" / "classic" / "checkers.rules"
# published perft counts of English draughts from the start position (1..8)
PERFT = [7, 49, 302, 1469, 7361, 36768, 179740, 845931]


@pytest.fixture(scope="module")
def checkers() -> regelwerk.Ruleset:
    return regelwerk.load(RULES)


@pytest.mark.parametrize(("depth", "count"), list(enumerate(PERFT[:6], start=1)))
def test_perft(checkers, depth, count):
    assert perft(checkers.new_game(), depth) == count


@pytest.mark.slow
def test_perft_7(checkers):
    assert perft(checkers.new_game(), 7) == PERFT[6]


def test_scenarios_pass(checkers):
    results = run_scenarios(checkers)
    assert len(results) >= 3
    assert [(r.name, r.failure) for r in results if not r.passed] == []


def test_opening_moves_are_steps_of_the_front_men(checkers):
    g = checkers.new_game()
    moves = {(a.name, a.args) for a in g.legal_actions()}
    assert len(moves) == 7
    assert {name for name, _ in moves} == {"step"}
    assert {args[0] for _, args in moves} == {"a3", "c3", "e3", "g3"}

