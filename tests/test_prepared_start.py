"""A ruleset whose start draws on chance (a deal, a shuffle, a tower throw) has no started
template; its new games are copies of one game prepared once (every variable at its start
value), each started on its own (regelwerk/api.py `_prepared`). They must be the games a
fresh construction makes: the same state at the start and after play, the same trace."""

from __future__ import annotations

import json

import pytest
from bundled import PLAYERS
from playing import advanced
from regelwerk.interpreter.engine.game import game_class

from regelwerk import Game


def fresh(rs, players: int, seed: int, record: bool) -> Game:
    """The game `new_game` made before there were prepared copies: built and started anew."""
    prog = rs.program(record)
    return game_class(prog)(prog, tuple(rs.model.players.names[:players]), seed, rs.options(None), rs).start()


def same(a: Game, b: Game) -> None:
    assert json.dumps(a.to_json(), sort_keys=True) == json.dumps(b.to_json(), sort_keys=True)
    if a.record:
        assert json.dumps(a.trace, default=str, sort_keys=True) == json.dumps(b.trace, default=str, sort_keys=True)


@pytest.mark.parametrize("record", [False, True], ids=["untraced", "traced"])
@pytest.mark.parametrize("name", ["khan", "shogun", "root"])
def test_copies_of_the_prepared_game_play_as_fresh_ones(rulesets, name: str, record: bool) -> None:
    rs, n = rulesets[name], PLAYERS[name]
    for seed in (3, 4):  # the first new game of a key makes the copy; later ones use it
        g = rs.new_game(players=n, seed=seed, record=record)
        same(g, fresh(rs, n, seed, record))
        # played on before the next game is made: a copy sharing the prepared game's maps
        # would carry this game's moves into the next one
        same(advanced(g, seed, 25), advanced(fresh(rs, n, seed, record), seed, 25))
    assert (n, record) in rs._prepared  # the path under test was taken
    assert rs._templates[(n, record)] is None  # (these starts draw on chance)
