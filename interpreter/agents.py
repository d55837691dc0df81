"""Agents choose among legal actions: seeded random, first-legal, scripted, any callable.

An agent is anything callable as `agent(game) -> Action`; the human agent lives in the CLI
because it talks to a terminal.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from .errors import EngineError
from .game import Action, Game, parse_action

Agent = Callable[[Game], Any]


class RandomAgent:
    """Uniform over the legal actions, from its own seeded generator (not the game's)."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def __call__(self, game: Game) -> Action:
        return self.rng.choice(game.legal_actions())


def first_legal(game: Game) -> Action:
    return game.legal_actions()[0]


class ScriptedAgent:
    """Plays a fixed list of actions (strings or Actions), in order."""

    def __init__(self, actions: Iterable[Any]):
        self.actions = [parse_action(a) if isinstance(a, str) else a for a in actions]
        self.i = 0

    def __call__(self, game: Game) -> Action:
        if self.i >= len(self.actions):
            raise EngineError(f"the script has only {len(self.actions)} actions")
        a = self.actions[self.i]
        self.i += 1
        return a


def play_game(game: Game, agents: dict[str, Agent] | Agent, max_steps: int = 100_000) -> Game:
    """Let agents play until the game is over (or the step budget runs out)."""
    steps = 0
    while not game.is_over:
        if steps >= max_steps:
            raise EngineError(f"no result after {max_steps} decisions")
        who = game.decision_player()
        agent = agents[who] if isinstance(agents, dict) else agents
        game.apply(agent(game))
        steps += 1
    return game


def perft(game: Game, depth: int) -> int:
    """Number of action sequences of exactly `depth` decisions (terminal earlier: 0)."""
    if depth == 0:
        return 1
    actions = game.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for a in actions:
        child = game.clone()
        child.apply(a)
        total += perft(child, depth - 1)
    return total


def count_games(game: Game, depth: int) -> int:
    """Number of complete games (sequences ending in a terminal position) within `depth`."""
    if game.is_over:
        return 1
    if depth == 0:
        return 0
    total = 0
    for a in game.legal_actions():
        child = game.clone()
        child.apply(a)
        total += count_games(child, depth - 1)
    return total
