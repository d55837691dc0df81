"""bench/ceiling.py's ideal classes play their rulesets' games: the same legal moves in the
same order, the same state, round, step count and result, move for move, on seeded random
games; and they refuse what the engine refuses. A ceiling that played another game would make
`make bench`'s ceiling line meaningless."""

from __future__ import annotations

import random

import pytest
from bundled import BUNDLED

import regelwerk
from bench.ceiling import GAMES
from regelwerk import Action, IllegalAction


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_same_games_move_for_move(name: str) -> None:
    rules = regelwerk.load(BUNDLED[name])
    for seed in range(40):
        g, c = rules.new_game(seed=seed), GAMES[name]()
        rnd = random.Random(seed)
        while True:
            assert c.legal_actions() == g.legal_actions()
            assert (c.is_over, c.result, c.current, c.round, c.step_no) == \
                (g.is_over, g.result, g.current, g.round, g.step_no)
            assert c.cell == g.vars["cell"]
            if g.is_over:
                break
            move = rnd.choice(g.legal_actions())
            g.apply(move)
            c.apply(move)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_move_not_legal_now_is_refused(name: str) -> None:
    c = GAMES[name]()
    first = c.legal_actions()[0]
    with pytest.raises(IllegalAction):
        c.apply(Action("nonsense", (1,)))
    if name == "tictactoe":  # a taken square
        c.apply(first)
        with pytest.raises(IllegalAction):
            c.apply(first)
    else:  # a full column
        for _ in range(6):
            c.apply(first)
        assert first not in c.legal_actions()
        with pytest.raises(IllegalAction):
            c.apply(first)
    legal = c.legal_actions()
    legal.clear()  # the caller's list: the game keeps its own answer
    assert c.legal_actions()
