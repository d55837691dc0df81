"""Observation tensors by generated code (interpreter/observe/encode.py `FastEncoder`) against
the layout walked type by type (`Encoder.encode_plain`): the same numbers at every position of
whole games of every bundled ruleset with hidden state, for every player, chance nodes
included; and nothing a player may not see reaches their tensor: positions they cannot tell
apart (others' hidden state dealt anew) give them the same numbers."""

from __future__ import annotations

import random

import pytest
from bundled import HIDDEN, ruleset
from regelwerk.interpreter.observe.determinize import determinize
from regelwerk.interpreter.observe.encode import encoder
from regelwerk.interpreter.observe.visibility import observer


def positions(name: str, seed: int, most: int = 300, chance: str = "sampled"):
    """Every position of one random game of `name` (at most `most`), the finished one too;
    with explicit chance, its chance nodes too."""
    game = ruleset(name).new_game(players=HIDDEN[name], seed=seed, chance=chance)
    pick = random.Random(seed)
    for _ in range(most):
        yield game
        if game.is_over:
            return
        if game.is_chance_node:
            game.apply(pick.choice(game.chance_outcomes())[0])
        else:
            game.apply(pick.choice(game.legal_actions()))


@pytest.mark.parametrize("name", sorted(HIDDEN))
def test_the_generated_tensors_are_the_plain_ones(name: str) -> None:
    seen = 0
    for seed, chance in ((1, "sampled"), (2, "sampled"), (3, "explicit")):
        for game in positions(name, seed, chance=chance):
            enc = encoder(game)
            for p in game.players:
                fast = enc.encode(game, p)
                assert fast == enc.encode_plain(game, p)
                assert len(fast) == enc.size and all(type(x) is float for x in fast)
                seen += 1
    assert seen > 20


@pytest.mark.parametrize("name", sorted(HIDDEN))
def test_positions_a_player_cannot_tell_apart_give_them_the_same_tensor(name: str) -> None:
    """The leak test of the generated path: others' hidden state dealt anew changes nothing
    in a player's tensor (where the plain view agrees that nothing they see changed)."""
    checked = 0
    for seed in (3, 4, 7, 8):
        for i, game in enumerate(positions(name, seed, most=60)):
            if game.is_over:
                continue
            for p in game.players:
                other = determinize(game, p, random.Random(seed * 1000 + i))
                seer = observer(game.prog.model, p)
                if seer.view(other) != seer.view(game):
                    continue
                enc = encoder(game)
                assert enc.encode(other, p) == enc.encode(game, p)
                checked += 1
    assert checked > 5


def test_another_players_card_never_reaches_the_tensor() -> None:
    """Leduc: with Bob's card dealt as each of the other cards, Ann's tensor stays the same."""
    game = ruleset("examples/leduc.rules").new_game(chance="explicit")
    game.apply("jack1")
    tensors = set()
    for bob in [v for v, _p in game.chance_outcomes()]:
        dealt = game.clone()
        dealt.apply(bob)
        tensors.add(tuple(encoder(dealt).encode(dealt, "Ann")))
    assert len(tensors) == 1


def test_state_of_an_undeclared_shape_gives_the_plain_numbers() -> None:
    game = ruleset("examples/leduc.rules").new_game(chance="explicit")
    game.vars["stake"] = {1: 2, "Bob": None}
    game.vars["deck"] = None
    game.vars["hand"] = ["jack1"]
    for p in game.players:
        enc = encoder(game)
        assert enc.encode(game, p) == enc.encode_plain(game, p)
