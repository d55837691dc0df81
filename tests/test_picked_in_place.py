"""`picked in place` (interpreter/compiler/machine.py `pick_in_place`): during `Game.playout`
a block whose decision offers only moves it plays itself draws the random move from its
listing and plays it round its own loop, without returning to `playout`. The games, counts,
limits and errors are those of the loop `playout` stands for, and of the same program
without the choice."""

from __future__ import annotations

import functools
import random

import pytest
from bundled import BUNDLED, PLAYERS
from regelwerk.interpreter.compiler.codegen import CodeGen
from regelwerk.interpreter.engine.game import Game
from test_playout import FAILS, _loop

import regelwerk

PICKED = {"tictactoe": "play place", "connect4": "play drop", "breakthrough": "play step",
          "checkers": "play step, jump", "shogun": "play bid"}


@functools.cache
def _program_without_picks(path: object, record: bool = False) -> regelwerk.Ruleset:
    """The ruleset at `path` loaded afresh and compiled with the choice turned off (programs
    compile lazily, and `Program.source` compiles again: both read while the switch is off)."""
    rules = regelwerk.load(path)
    CodeGen.PICKS = False
    try:
        prog = rules.program(record)
        assert "G._pick(" not in prog.source and all(c.kind != "picked in place" for c in prog.choices)
    finally:
        CodeGen.PICKS = True
    return rules


ruleset_at = functools.cache(regelwerk.load)  # each ruleset compiled once for this file


@pytest.mark.parametrize("name", sorted(PICKED))
def test_the_choice_is_made_where_every_move_of_a_play_is_played_in_place(name: str) -> None:
    rules = regelwerk.load(BUNDLED[name])
    prog = rules.program(False)
    assert PICKED[name] in [c.detail for c in prog.choices if c.kind == "picked in place"]
    assert "m = G._pick(legal)" in prog.source
    traced = rules.program(True)
    assert "G._pick" not in traced.source and all(c.kind != "picked in place" for c in traced.choices)
    _program_without_picks(BUNDLED[name])


PASSES = """game "Passes"
players Ann, Bob
state
    n: int = 0
action tick
    "Count."
    add 1 to n
    if n == 9
        finish draw
flow
    repeat
        turn
            play optional tick
"""


def test_a_play_that_offers_a_pass_is_not_picked_in_place() -> None:
    prog = regelwerk.load_text(PASSES, "passes.rules").program(False)
    assert "G._pick(" not in prog.source and all(c.kind != "picked in place" for c in prog.choices)


@pytest.mark.parametrize("name", sorted(BUNDLED))
@pytest.mark.parametrize("limit", [None, 1, 2, 5, 13])
def test_a_playout_with_and_without_the_choice_and_the_loop_play_the_same_game(name: str, limit: int | None) -> None:
    with_picks, without = ruleset_at(BUNDLED[name]), _program_without_picks(BUNDLED[name])
    for seed in range(2 if limit is None else 1):
        games = [r.new_game(players=PLAYERS[name], seed=seed) for r in (with_picks, without, with_picks)]
        made = [games[0].playout(random.Random(seed), limit), games[1].playout(random.Random(seed), limit),
                _loop(games[2], random.Random(seed), limit)]
        assert made[0] == made[1] == made[2] > 0
        assert limit is None or made[0] == limit or games[0].is_over
        saves = [g.to_json() for g in games]
        assert saves[0] == saves[1] == saves[2]
        assert games[0].step_no == games[2].step_no and games[0].legal_actions() == games[2].legal_actions()
        assert games[0]._picks == 0 and games[0]._pick is None


def test_the_blocks_play_the_moves_themselves() -> None:
    """One round trip through `Game._play_in_block` per playout of tic-tac-toe: the first move
    (offered by `new_game`'s listing); every later one is picked by the block."""
    rules = regelwerk.load(BUNDLED["tictactoe"])
    calls = []
    original = Game._play_in_block

    def counted(self: Game, a: regelwerk.Action) -> None:
        calls.append(a)
        original(self, a)

    Game._play_in_block = counted
    try:
        made = rules.new_game(seed=3).playout(random.Random(3))
    finally:
        Game._play_in_block = original
    assert made >= 5 and len(calls) == 1




def test_a_failure_in_a_picked_move_leaves_no_picks_behind() -> None:
    rules = regelwerk.load_text(FAILS, "fails.rules")
    game, by_loop = rules.new_game(), rules.new_game()
    with pytest.raises(regelwerk.RuleFailure, match="division by zero"):
        game.playout(random.Random(1))
    with pytest.raises(regelwerk.RuleFailure, match="division by zero"):
        _loop(by_loop, random.Random(1))
    assert game.vars["n"] == 5 and game.step_no == 5
    assert (game.pending, game._legal, game.frames) == (by_loop.pending, by_loop._legal, by_loop.frames)
    assert game._picks == 0 and game._pick is None
    assert "m = G._pick(legal)" in rules.program(False).source  # the failing moves were picked in place
