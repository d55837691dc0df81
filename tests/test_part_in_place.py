"""A part's plain move of an open `simultaneously` is played by the part's block in place, as
`apply` plays any other plain move (issue 27: Shogun's bids and plans are three quarters of its
decisions, and each went the long way through `Game._take`); traced, its step keeps the move
itself, marked a part's (`recording.IN_PART`), and says `"simultaneous": true` when read. The
moves, results, traces and undo must be those of the long way."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import regelwerk

ROOT = Path(__file__).resolve().parent.parent
SHOGUN = ROOT / "rulesets/shogun/shogun.rules"
GOOFSPIEL = ROOT / "rulesets/examples/goofspiel.rules"


@pytest.fixture(scope="module")
def shogun() -> regelwerk.Ruleset:
    return regelwerk.load(SHOGUN)


@pytest.fixture(scope="module")
def goofspiel() -> regelwerk.Ruleset:
    return regelwerk.load(GOOFSPIEL)


def long_way(g: regelwerk.Game) -> regelwerk.Game:
    """The game with no move played in place by `apply` or a part: every move through `_take`."""
    g._plain = set()
    g._recorded = {}
    g._recorded_here = {}
    return g


def play(ruleset: regelwerk.Ruleset, players: int | None, seed: int, record: bool, long: bool) -> list:
    """A random game, sometimes moving for a named player of the window, with undo on the way
    when traced: every decision's moves, the result, and the trace."""
    g = ruleset.new_game(players=players, seed=seed, record=record)
    if long:
        long_way(g)
    rnd = random.Random(seed)
    out: list = []
    n = 0
    while not g.is_over:
        n += 1
        if g.window is not None and n % 3 == 0:
            who = rnd.choice(g.pending["players"])
            moves = g.legal_actions(player=who)
            out.append((who, [str(m) for m in moves]))
            g.apply(rnd.choice(moves), player=who)
        else:
            moves = g.legal_actions()
            out.append([str(m) for m in moves])
            g.apply(rnd.choice(moves))
        if record and n % 17 == 0:
            g.undo()
            out.append(("undone", g.decision_player()))
    out.append(g.result)
    if record:
        out.append(json.dumps(g.trace, default=str, sort_keys=True))
    return out


@pytest.mark.parametrize("record", [False, True])
def test_shogun_plays_the_same_games_as_the_long_way(shogun, record):
    for seed in range(3):
        assert play(shogun, 4, seed, record, False) == play(shogun, 4, seed, record, True)
    assert play(shogun, 3, 7, record, False) == play(shogun, 3, 7, record, True)


@pytest.mark.parametrize("record", [False, True])
def test_goofspiel_plays_the_same_games_as_the_long_way(goofspiel, record):
    for seed in range(6):
        assert play(goofspiel, None, seed, record, False) == play(goofspiel, None, seed, record, True)


@pytest.mark.parametrize("record", [False, True])
def test_a_parts_plain_move_does_not_go_the_long_way(shogun, monkeypatch, record):
    g = shogun.new_game(players=4, seed=1, record=record)
    rnd = random.Random(1)
    while g.window is None:
        g.apply(rnd.choice(g.legal_actions()))
    game_class = type(g).__mro__[1]
    taken: list[str] = []
    take = game_class._take
    monkeypatch.setattr(game_class, "_take", lambda self, a: taken.append(a.name) or take(self, a))
    parts = 0
    while g.window is not None:
        move = rnd.choice(g.legal_actions())
        parts += move.name != "pass"
        g.apply(move)
    assert parts > 4 and "bid" not in taken and "assign" not in taken  # a pass still goes the long way
    if record:  # the parts' steps: secret commitments, with their bindings and checks
        steps = [s for s in g.trace if isinstance(s.get("decision"), dict) and s["decision"].get("action", "")
                 .startswith(("bid", "assign"))]
        assert len(steps) == parts
        assert all(s["decision"]["simultaneous"] is True for s in steps)
        assert all(s["bindings"] and s["checks"] and s["checks"][0]["value"] for s in steps)


def test_a_trace_reader_sees_the_secret_of_a_part_in_place(goofspiel):
    g = goofspiel.new_game(seed=2, record=True)
    rnd = random.Random(2)
    while not g.is_over:
        g.apply(rnd.choice(g.legal_actions()))
    decided = [s for s in g.trace if isinstance(s.get("decision"), dict) and s["decision"].get("kind") == "action"]
    assert decided and all(s["decision"].get("simultaneous") is True for s in decided)
    other = long_way(goofspiel.new_game(seed=2, record=True))
    rnd = random.Random(2)
    while not other.is_over:
        other.apply(rnd.choice(other.legal_actions()))
    assert other.trace == g.trace


def play_forgetting(ruleset: regelwerk.Ruleset, players: int | None, seed: int, record: bool, forget: bool) -> list:
    """`play`, the part's kept moves forgotten before every move when `forget` (each move then
    takes `_apply_for`'s and `_advance_part`'s long way: listed again, matched in a copy)."""
    g = ruleset.new_game(players=players, seed=seed, record=record)
    rnd = random.Random(seed)
    out: list = []
    while not g.is_over:
        who = rnd.choice(g.pending["players"]) if g.window is not None else None
        moves = g.legal_actions(player=who) if who else g.legal_actions()
        move = rnd.choice(moves)
        out.append((who, [str(m) for m in moves], str(move)))
        if forget:
            g._part_legal = None
        g.apply(move, player=who)
    out.append(g.result)
    if record:
        out.append(json.dumps(g.trace, default=str, sort_keys=True))
    return out


@pytest.mark.parametrize("record", [False, True])
def test_a_move_handed_out_is_committed_as_by_the_long_way(shogun, goofspiel, record):
    for seed in range(2):
        assert play_forgetting(shogun, 4, seed, record, False) == play_forgetting(shogun, 4, seed, record, True)
        assert play_forgetting(goofspiel, None, seed, record, False) == \
            play_forgetting(goofspiel, None, seed, record, True)


def test_a_move_handed_out_is_neither_matched_in_a_copy_nor_looked_up_again(shogun, monkeypatch):
    g = shogun.new_game(players=4, seed=3)
    rnd = random.Random(3)
    while g.window is None:
        g.apply(rnd.choice(g.legal_actions()))
    game_class = type(g).__mro__[1]
    asked: list[str] = []

    def counted(name: str):
        original = getattr(game_class, name)
        return lambda self, *a: asked.append(name) or original(self, *a)

    for name in ("_legal_for", "_legal_move"):
        monkeypatch.setattr(game_class, name, counted(name))
    moves = g.legal_actions()
    asked.clear()
    g.apply(moves[0])  # the first player's, handed out by legal_actions()
    assert asked == []
    who = g.pending["players"][-1]
    listed = g.legal_actions(player=who)
    asked.clear()
    g.apply(str(listed[0]), player=who)  # as text: matched in a copy
    assert asked == ["_legal_for"]
    with pytest.raises(regelwerk.IllegalAction):  # refused before anything changes
        g.apply("bid(9)", player=g.pending["players"][0])


def test_commit_refuses_a_move_its_part_was_not_offered(shogun):
    g = shogun.new_game(players=4, seed=3)
    rnd = random.Random(3)
    while g.window is None:
        g.apply(rnd.choice(g.legal_actions()))
    who = g.pending["players"][0]
    offered = g.legal_actions(player=who)  # the part's moves, listed at this position
    before = g.to_json()
    with pytest.raises(regelwerk.IllegalAction):
        g.commit(regelwerk.Action("bid", (9,)), who)
    assert g.to_json() == before and [str(m) for m in g.legal_actions(player=who)] == [str(m) for m in offered]
