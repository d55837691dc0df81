"""Views written straight to text (interpreter/observe/viewtext.py) against the plain way
(`view_json` of visibility.py's view dicts): the same text byte for byte at every position of
whole games of every bundled ruleset with hidden state, for every player, or every information
state would change; and nothing a player may not see reaches their text: positions they
cannot tell apart (a determinisation: others' hidden cards dealt anew) give them the same text."""

from __future__ import annotations

import random

import pytest
from bundled import HIDDEN, ruleset
from regelwerk.interpreter.observe.determinize import determinize
from regelwerk.interpreter.observe.infostate import view_json
from regelwerk.interpreter.observe.viewtext import ViewText, view_text
from regelwerk.interpreter.observe.visibility import observer


def positions(name: str, seed: int, most: int = 400):
    """Every position of one random game of `name` (at most `most`), the finished one too."""
    game = ruleset(name).new_game(players=HIDDEN[name], seed=seed)
    pick = random.Random(seed)
    for _ in range(most):
        yield game
        if game.is_over:
            return
        game.apply(pick.choice(game.legal_actions()))


def fast(text: ViewText, game) -> tuple[str, str, str]:
    """The generated writers themselves: a fast path that failed over to the plain way would
    make the comparison below pass without testing it."""
    pending, shown = text._pending(game), text._revealed(game)
    return text._shared(game, None, None), text._own(game, pending, shown), text._view(game, pending, shown)


@pytest.mark.parametrize("name", sorted(HIDDEN))
def test_the_written_views_are_the_plain_views_byte_for_byte(name):
    seen = 0
    for seed in (1, 2, 5, 6):
        for game in positions(name, seed):
            for p in game.players:
                seer = observer(game.prog.model, p)
                text = view_text(seer)
                plain = (view_json(seer.shared_view(game)), view_json(seer.own_view(game)),
                         view_json(seer.view(game)))
                assert fast(text, game) == plain
                assert (text.shared(game), text.own(game), text.view(game)) == plain
                seen += 1
    assert seen > 20


@pytest.mark.parametrize("name", sorted(HIDDEN))
def test_positions_a_player_cannot_tell_apart_give_them_the_same_text(name):
    """The leak test of the new path: others' hidden state dealt anew changes nothing in the
    text a player gets (and the plain view agrees that it is hidden from them)."""
    checked = 0
    for seed in (3, 4, 7, 8):
        for i, game in enumerate(positions(name, seed, most=60)):
            if game.is_over:
                continue
            for p in game.players:
                other = determinize(game, p, random.Random(seed * 1000 + i))
                seer = observer(game.prog.model, p)
                if seer.view(other) != seer.view(game):
                    continue  # determinize keeps what p sees: never here (test_imperfect_information)
                text = view_text(seer)
                assert fast(text, other) == fast(text, game)
                checked += 1
    assert checked > 5


def test_another_players_card_never_reaches_the_text():
    """Leduc: Bob holds a king, Ann a jack; Ann's texts name her jack, never his king, and
    Bob's card counts only as something being there."""
    game = ruleset("examples/leduc.rules").new_game(chance="explicit")
    while game.is_chance_node:  # deal Ann jack1, Bob king1
        outcomes = [v for v, _p in game.chance_outcomes()]
        game.apply("jack1" if "jack1" in outcomes else "king1")
    assert game.vars["hand"] == {"Ann": "jack1", "Bob": "king1"}
    text = view_text(observer(game.prog.model, "Ann"))
    for written in (text.shared(game), text.own(game), text.view(game), *fast(text, game)):
        assert "king1" not in written
    assert '"hand":{"Ann":"jack1","Bob":{"hidden":true}}' in text.view(game)


def test_state_of_an_undeclared_shape_is_written_the_plain_way():
    """A value of another type than declared (an edited save, a tool's experiment) fails the
    generated writer, and the text is the plain view's all the same."""
    game = ruleset("examples/leduc.rules").new_game(chance="explicit")
    game.vars["level"] = frozenset({3, 1})
    game.vars["stake"] = {1: 2, "Bob": [1]}
    for p in game.players:
        seer = observer(game.prog.model, p)
        text = view_text(seer)
        with pytest.raises(TypeError):
            text._view(game, text._pending(game), text._revealed(game))
        assert text.view(game) == view_json(seer.view(game))
        assert text.shared(game) == view_json(seer.shared_view(game))
