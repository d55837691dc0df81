"""The moves of a part of an open `simultaneously` are listed once per window (issue 27:
Shogun listed them twice a move and compared every move argument by argument): the kept
list must always be the list worked out afresh, after outside changes, clones, undo,
refused moves and moves given as text."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_simultaneous import PLAN

import regelwerk

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def plan() -> regelwerk.Ruleset:
    return regelwerk.load_text(PLAN, "plan.rules")


def afresh(g: regelwerk.Game, player: str) -> list[str]:
    """`player`'s legal moves worked out on a copy that keeps nothing listed."""
    c = g.clone()
    c._part_legal = None
    c._legal = None
    return [str(m) for m in c.legal_actions(player=player)]


def test_an_outside_change_and_invalidate_reach_the_listed_moves(plan):
    g = plan.new_game(seed=1)
    assert [str(m) for m in g.legal_actions(player="Ann")] == ["offer(0)", "offer(1)", "offer(2)", "offer(3)"]
    g.vars["chests"] = {**g.vars["chests"], "Ann": 1}
    g.invalidate()
    assert [str(m) for m in g.legal_actions(player="Ann")] == ["offer(0)", "offer(1)"]
    with pytest.raises(regelwerk.IllegalAction, match="more than you have"):
        g.apply("offer(2)", player="Ann")


def test_a_copy_made_in_the_window_keeps_its_own_moves(plan):
    g = plan.new_game(seed=1)
    g.legal_actions(player="Ann")
    c = g.clone()
    g.apply("offer(3)", player="Ann")
    g.apply("pick(c1)", player="Ann")
    assert [str(m) for m in g.legal_actions(player="Ann")] == ["pick(c2)", "pick(c3)"]
    assert [str(m) for m in c.legal_actions(player="Ann")] == ["offer(0)", "offer(1)", "offer(2)", "offer(3)"]
    c.apply("offer(0)", player="Ann")
    assert [str(m) for m in c.legal_actions(player="Ann")] == afresh(c, "Ann") == ["pick(c1)", "pick(c2)", "pick(c3)"]


def test_undo_in_the_window_lists_the_moves_of_the_position_it_returns_to(plan):
    g = plan.new_game(seed=1, record=True)
    g.apply("offer(1)", player="Bob")
    first = [str(m) for m in g.legal_actions(player="Bob")]
    g.apply("pick(c2)", player="Bob")
    assert [str(m) for m in g.legal_actions(player="Bob")] == ["pick(c1)", "pick(c3)"]
    g.undo()
    assert [str(m) for m in g.legal_actions(player="Bob")] == first == afresh(g, "Bob")


@pytest.mark.parametrize("path,players", [(None, 3), ("rulesets/shogun/shogun.rules", 4)])
def test_listed_moves_equal_moves_worked_out_afresh_all_game_long(plan, path, players):
    rules = plan if path is None else regelwerk.load(ROOT / path)
    for seed in range(3 if path is None else 2):
        g = rules.new_game(players=players, seed=seed)
        rnd = random.Random(seed)
        steps = checked = 0
        while not g.is_over and steps < 400:
            window = g.window is not None
            if window:
                for p in g.pending["players"]:
                    assert [str(m) for m in g.legal_actions(player=p)] == afresh(g, p), (seed, steps, p)
                    checked += 1
            legal = g.legal_actions()
            move = rnd.choice(legal)
            if window and rnd.random() < 0.3:  # an equal move, not the listed object
                move = regelwerk.Action(move.name, tuple(move.args))
            if window and rnd.random() < 0.2:  # a refused move changes nothing kept
                with pytest.raises(regelwerk.IllegalAction):
                    g.apply("no_such_move")
            g.apply(move)
            steps += 1
        assert steps >= 9 and checked >= 9
