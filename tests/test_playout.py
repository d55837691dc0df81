"""`Game.playout(rng, limit)`: a random playout in the engine, move for move the loop
`while not g.is_over: g.apply(rng.choice(g.legal_actions()))` it stands for (interpreter/engine/
game.py). Compared on every bundled ruleset, traced and untraced, with a limit, on a rule that
fails and on one whose failure would show a hidden card."""

from __future__ import annotations

import random

import pytest
from bundled import BUNDLED, PLAYERS, ruleset
from test_imperfect_information import LOOK

import regelwerk


def _loop(game: regelwerk.Game, rng: random.Random, limit: int | None = None) -> int:
    made = 0
    while not game.is_over and (limit is None or made < limit):
        game.apply(rng.choice(game.legal_actions()))
        made += 1
    return made


def _same(a: regelwerk.Game, b: regelwerk.Game) -> None:
    assert a.to_json() == b.to_json()
    assert a.result == b.result and a.step_no == b.step_no
    assert a.legal_actions() == b.legal_actions()


@pytest.mark.parametrize("name", sorted(BUNDLED))
@pytest.mark.parametrize("record", [False, True])
def test_a_playout_is_the_loop_it_stands_for(name: str, record: bool) -> None:
    rules = regelwerk.load(BUNDLED[name])
    for seed in range(3 if record else 6):
        by_loop = rules.new_game(players=PLAYERS[name], seed=seed, record=record)
        by_playout = rules.new_game(players=PLAYERS[name], seed=seed, record=record)
        made = _loop(by_loop, random.Random(seed))
        assert by_playout.playout(random.Random(seed)) == made > 0
        _same(by_loop, by_playout)
        if record:
            assert by_loop.trace == by_playout.trace


@pytest.mark.parametrize("path", ["classic/checkers.rules", "khan/khan.rules", "shogun/shogun.rules"])
def test_a_limited_playout_stops_after_that_many_moves_and_goes_on_from_there(path: str) -> None:
    rules = ruleset(path)
    a, b = rules.new_game(seed=4), rules.new_game(seed=4)
    ra, rb = random.Random(9), random.Random(9)
    assert a.playout(ra, 7) == _loop(b, rb, 7) == 7
    _same(a, b)
    assert a.playout(ra, 0) == 0
    a.playout(ra)
    _loop(b, rb)
    _same(a, b)
    assert a.is_over and a.playout(ra) == 0


@pytest.mark.parametrize("path", ["examples/pig.rules", "examples/climb.rules", "examples/leduc.rules"])
def test_with_explicit_chance_a_playout_draws_each_outcome_by_its_probability(path: str) -> None:
    """Where the loop has no move to pick (a chance node: `legal_actions()` is empty), the
    playout draws the outcome from the same generator, as agents.sample_outcome does."""
    from regelwerk.interpreter.tools.agents import sample_outcome

    rules = ruleset(path)
    for seed in range(4):
        by_loop = rules.new_game(seed=seed, chance="explicit")
        rng, made, outcomes = random.Random(seed), 0, 0
        while not by_loop.is_over:
            outcomes += by_loop.is_chance_node
            by_loop.apply(sample_outcome(by_loop, rng) if by_loop.is_chance_node
                          else rng.choice(by_loop.legal_actions()))
            made += 1
        assert outcomes > 0
        by_playout = rules.new_game(seed=seed, chance="explicit")
        assert by_playout.playout(random.Random(seed)) == made
        _same(by_loop, by_playout)


class _Cheat(random.Random):
    """A generator whose `choice` picks a move that was not offered."""

    def choice(self, seq):  # noqa: ANN001, ANN201 - random.Random's own signature
        return regelwerk.Action("place", ("a1",))


def test_a_move_from_a_generator_of_its_own_class_is_checked() -> None:
    game = ruleset("classic/tictactoe.rules").new_game()
    game.apply("place(a1)")
    with pytest.raises(regelwerk.IllegalAction, match="already taken"):
        game.playout(_Cheat(1))
    assert game.vars["moves"] == 1 and game.vars["cell"]["a1"] == "X"


FAILS = """game "Fails"
players Ann, Bob
state
    n: int = 0
    share: int = 0
action tick
    "Count."
    add 1 to n
    set share = 10 // (5 - n)
flow
    repeat
        turn
            play tick
"""


def test_a_rule_that_fails_in_a_playout_fails_as_in_the_loop() -> None:
    rules = regelwerk.load_text(FAILS, "fails.rules")
    errors = []
    for play in (lambda g, r: g.playout(r), _loop):
        game = rules.new_game()
        with pytest.raises(regelwerk.RuleFailure) as info:
            play(game, random.Random(1))
        errors.append((str(info.value), game.vars["n"], game.step_no))
    assert errors[0] == errors[1]
    assert "division by zero" in errors[0][0] and errors[0][1] == 5


def test_a_playout_says_nothing_hidden_in_a_failure() -> None:
    rules = regelwerk.load_text(LOOK, "look.rules")
    game = rules.new_game()
    with pytest.raises(regelwerk.RuleFailure) as info:
        game.playout(random.Random(0))
    assert "axolotl9" not in str(info.value) and "cannot remove ?" in info.value.message
    assert "cannot remove axolotl9" in info.value.full


# picks of seeded MCTS agents, taken with the rollout loop before `playout` replaced it
PINNED = {
    "classic/connect4.rules": (40, 8, ["drop(4)", "drop(3)", "drop(6)", "drop(5)", "drop(4)", "drop(1)",
                                       "drop(2)", "drop(3)"]),
    "examples/pig.rules": (30, 12, ["choose(true)", "choose(false)", "choose(true)", "choose(true)",
                                    "choose(false)", "choose(true)", "choose(true)", "choose(false)",
                                    "choose(true)", "choose(false)", "choose(true)", "choose(false)"]),
}


@pytest.mark.parametrize("path", sorted(PINNED))
def test_mcts_rollouts_pick_as_before(path: str) -> None:
    """MCTSAgent's rollouts are playouts: seeded, it picks the moves the loop made it pick."""
    from regelwerk.interpreter.tools.agents import MCTSAgent

    iterations, moves, pinned = PINNED[path]
    game = ruleset(path).new_game(seed=5 if "pig" in path else 3)
    agents = {p: MCTSAgent(iterations, seed=i + (0 if "pig" in path else 1)) for i, p in enumerate(game.players)}
    picks = []
    while len(picks) < moves:
        move = agents[game.decision_player()](game)
        picks.append(str(move))
        game.apply(move)
    assert picks == pinned
