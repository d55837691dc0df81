"""Kuhn poker (rulesets/examples/kuhn.rules): every betting line pays what the rules of
poker say, for every deal, and the explicit chance tree has the game's known shape and value."""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import pytest
from regelwerk.interpreter.tools.scenario import run_scenarios

import regelwerk

KUHN = Path(__file__).resolve().parent.parent / "rulesets" / "examples" / "kuhn.rules"
RANK = {"jack": 1, "queen": 2, "king": 3}
# The five betting lines, Ann first.
LINES = [("check", "check"), ("check", "bet", "fold"), ("check", "bet", "call"), ("bet", "fold"),
         ("bet", "call")]
DEALS = list(itertools.permutations(["jack", "queen", "king"]))


def payoff(line: tuple[str, ...], ann: str, bob: str) -> int:
    """Ann's chips won, worked out from the rules of Kuhn poker, independently of the ruleset."""
    if line[-1] == "fold":
        return 1 if len(line) % 2 == 0 else -1  # bet-fold: Bob folded; check-bet-fold: Ann did
    stake = 2 if "bet" in line else 1
    return stake if RANK[ann] > RANK[bob] else -stake


@pytest.fixture(scope="module")
def kuhn() -> regelwerk.Ruleset:
    return regelwerk.load(KUHN)


def test_the_file_checks_clean_and_its_scenarios_pass(kuhn):
    assert kuhn.warnings == []
    results = run_scenarios(kuhn)
    assert len(results) == 5
    assert [(r.name, r.failure) for r in results if not r.passed] == []


@pytest.mark.parametrize("line", LINES, ids="-".join)
@pytest.mark.parametrize("deal", DEALS, ids="-".join)
def test_each_betting_line_pays_the_chips_of_a_scripted_deal(kuhn, line, deal):
    game = kuhn.new_game(start=False)
    game.script("shuffled", list(deal))
    game.start()
    assert game.view("Ann")["vars"]["hand"] == {"Ann": deal[0], "Bob": {"hidden": True}}
    for i, move in enumerate(line):
        assert game.decision_player() == ("Ann", "Bob")[i % 2] and not game.is_over
        game.apply(move)
    assert game.is_over
    won = payoff(line, deal[0], deal[1])
    assert game.scores == {"Ann": won, "Bob": -won}
    assert game.winners == (["Ann"] if won > 0 else ["Bob"])


def test_a_fold_keeps_the_cards_hidden_and_a_showdown_shows_them(kuhn):
    folded = kuhn.new_game(seed=4)
    folded.apply("bet")
    folded.apply("fold")
    assert folded.view("Bob")["vars"]["hand"]["Ann"] == {"hidden": True}
    shown = kuhn.new_game(seed=4, record=True)
    shown.apply("bet")
    shown.apply("call")
    reveals = [e for s in shown.trace for e in s.get("events", []) if e.get("event") == "reveal"]
    assert len(reveals) == 2


def _walk(game, prob: Fraction, out: list) -> None:
    """Every terminal history under uniform random play: (probability, Ann's chips)."""
    if game.is_over:
        out.append((prob, game.scores["Ann"]))
        return
    if game.is_chance_node:
        for value, p in game.chance_outcomes():
            child = game.clone()
            child.apply(value)
            _walk(child, prob * p, out)
        return
    legal = game.legal_actions()
    for move in legal:
        child = game.clone()
        child.apply(move)
        _walk(child, prob / len(legal), out)


def test_the_explicit_chance_tree_has_30_terminal_histories(kuhn):
    game = kuhn.new_game(chance="explicit")
    assert game.is_chance_node and game.legal_actions() == [] and game.decision_player() is None
    out: list = []
    _walk(game, Fraction(1), out)
    assert len(out) == 30
    assert sum(p for p, _ in out) == 1


def test_the_first_player_expects_one_eighth_of_a_chip_under_uniform_random_play(kuhn):
    out: list = []
    _walk(kuhn.new_game(chance="explicit"), Fraction(1), out)
    # Worked out by hand: showdowns are even; Ann folds after check-bet 1/8 of the time (-1)
    # and Bob folds after a bet 1/4 of the time (+1).
    assert sum(p * won for p, won in out) == Fraction(1, 8)
