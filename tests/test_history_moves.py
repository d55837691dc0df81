"""A game that keeps its history (`history=True`, explicit chance: the OpenSpiel bridge's games)
plays an untraced plain move the way `apply()` plays it in other games: the block that offered
the move plays it in place (interpreter/engine/game.py `_take`). Whole games of rulesets with
hidden information must go exactly as without a history (the plain path) and as traced (the
long way), move for move: the same state, the same next decision, the same legal moves."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from regelwerk.interpreter.engine.values import jsonable

import regelwerk

ROOT = Path(__file__).resolve().parent.parent / "rulesets"
GAMES = {"examples/leduc.rules": 2, "examples/kuhn.rules": 2, "khan/khan.rules": 3, "shogun/shogun.rules": 4}
SKIP = {"past", "seen"}  # kept only with a history


def _state(game) -> dict:
    return {k: jsonable(v) for k, v in game.state._asdict().items() if k not in SKIP}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_with_a_history_plays_as_without_one(name: str) -> None:
    rules = regelwerk.load(ROOT / name)
    moves = 0
    small = "examples" in name
    for seed in range(1, 16 if small else 3):
        games = [rules.new_game(players=GAMES[name], seed=seed, history=h, record=r)
                 for h, r in ((True, False), (False, False), (False, True))]
        pick = random.Random(seed)
        for _ in range(150 if small else 60):
            states = [_state(g) for g in games]
            assert states[0] == states[1] == states[2]
            legal = [[str(m) for m in g.legal_actions()] for g in games]
            assert legal[0] == legal[1] == legal[2]
            if games[0].is_over:
                break
            i = pick.randrange(len(legal[0]))
            for g in games:
                g.apply(g.legal_actions()[i])
            moves += 1
        assert [g.scores for g in games].count(games[0].scores) == 3
    assert moves > 20
