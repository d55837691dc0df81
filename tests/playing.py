"""Helpers the tests share for reaching positions by seeded random play."""

from __future__ import annotations

import random

from regelwerk import Game, Ruleset


def reach(ruleset: Ruleset, players: int, seed: int, steps: int, record: bool = False) -> Game:
    """The position after up to `steps` random decisions (fewer if the game ends first)."""
    g = ruleset.new_game(players=players, seed=seed, record=record)
    rnd = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(rnd.choice(g.legal_actions()))
    return g
