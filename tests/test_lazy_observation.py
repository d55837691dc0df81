"""A game with a history notes each player's observation of a move only when it is needed
(interpreter/observe/infostate.py `settle`): when an information state is asked, when the game
is saved, or when it is copied. Whenever it is noted, the information states must be the ones
noting it at once would give."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from regelwerk.interpreter.engine.game import Game

import regelwerk

RULES = Path(__file__).resolve().parent.parent / "rulesets" / "examples"
RULESETS = {name: regelwerk.load(RULES / f"{name}.rules") for name in ("kuhn", "leduc", "goofspiel")}


def _step(game: Game, pick: int) -> None:
    """One move, chance outcome, or part of a simultaneous decision, chosen by `pick`."""
    if game.is_chance_node:
        outcomes = game.chance_outcomes()
        game.apply(outcomes[pick % len(outcomes)][0])
    elif game.pending is not None and game.pending["kind"] == "simultaneous":
        player = game.pending["players"][pick % len(game.pending["players"])]
        legal = game.legal_actions(player=player)
        game.apply(legal[pick % len(legal)], player=player)
    else:
        legal = game.legal_actions()
        game.apply(legal[pick % len(legal)])


def _states(game: Game) -> list[str]:
    return [game.information_state(p) for p in game.players]


@pytest.mark.parametrize("name", sorted(RULESETS))
@settings(max_examples=30, deadline=None)
@given(picks=st.lists(st.integers(0, 50), min_size=1, max_size=30), save_at=st.integers(0, 30))
def test_information_states_do_not_depend_on_when_they_are_noted(name, picks, save_at):
    """Three games play the same moves: one asked for its information states after every move,
    one never asked until the end (and saved and loaded back at one point), and one whose every
    move is played on a fresh copy. They agree at the end, and the first and the last agree
    after every move."""
    rules = RULESETS[name]
    asked, unasked, copied = (rules.new_game(chance="explicit") for _ in range(3))
    for i, pick in enumerate(picks):
        if asked.is_over:
            break
        for g in (asked, unasked):
            _step(g, pick)
        copied = copied.clone()
        _step(copied, pick)
        if i == save_at:
            unasked = Game.from_json(json.loads(json.dumps(unasked.to_json())), rules)
        assert _states(copied) == _states(asked)
    assert _states(unasked) == _states(asked)


def test_a_finished_game_never_notes_its_last_move_unless_asked():
    """What the laziness is for: the last move's observation costs nothing until someone asks."""
    game = RULESETS["kuhn"].new_game(chance="explicit")
    for pick in (0, 0, 0, 0, 0, 0):
        if game.is_over:
            break
        _step(game, pick)
    assert game.is_over and game._unobserved is not None
    before = game.seen
    game.information_state(game.players[0])
    assert game._unobserved is None and game.seen != before
