"""The classic games' public counts must come out exactly: proof the engine is general."""

from __future__ import annotations

import pytest
from regelwerk.interpreter.tools.agents import count_games, perft


def test_tictactoe_has_255168_complete_games(rulesets):
    assert count_games(rulesets["tictactoe"].new_game(), 9) == 255_168


@pytest.mark.parametrize("depth,count", [(1, 9), (2, 72), (3, 504), (4, 3024), (5, 15120), (9, 127872)])
def test_tictactoe_perft(rulesets, depth, count):
    assert perft(rulesets["tictactoe"].new_game(), depth) == count


@pytest.mark.parametrize(
    "depth,count", [(1, 7), (2, 49), (3, 343), (4, 2401), (5, 16807), (6, 117649)]
)
def test_connect_four_perft(rulesets, depth, count):
    assert perft(rulesets["connect4"].new_game(), depth) == count


def test_connect_four_perft_7(rulesets):
    assert perft(rulesets["connect4"].new_game(), 7) == 823_536


@pytest.mark.parametrize("depth,count", [(1, 22), (2, 484), (3, 11132)])
def test_breakthrough_perft(rulesets, depth, count):
    assert perft(rulesets["breakthrough"].new_game(), depth) == count


def test_breakthrough_perft_4(rulesets):
    assert perft(rulesets["breakthrough"].new_game(), 4) == 256_036


def test_breakthrough_opening_moves_are_the_front_row(rulesets):
    g = rulesets["breakthrough"].new_game()
    froms = {a.args[0] for a in g.legal_actions()}
    assert froms == {f"{c}2" for c in "abcdefgh"}


@pytest.mark.parametrize("name", ["tictactoe", "connect4", "breakthrough"])
def test_scenarios_pass(rulesets, name):
    from regelwerk.interpreter.tools.scenario import run_scenarios

    results = run_scenarios(rulesets[name])
    assert results, "each classic game carries scenarios"
    assert [(r.name, r.failure) for r in results if not r.passed] == []
