"""A part of a `simultaneously` lists its moves once: the moves its block listed at the part's
next decision are kept with the window they belong to (`Game._leave_part` sets `_part_legal`),
so `legal_actions()` does not list them again. Shogun listed every part decision twice before
(175 of its `assign` listings a game; 98.9 → 83.8 M instructions a game with this and the
prepared start, callgrind, 8 games). The moves are those a fresh listing finds."""

from __future__ import annotations

import random

import pytest
from test_simultaneous import PLAN

import regelwerk
from regelwerk import Game


@pytest.fixture(scope="module")
def plan() -> regelwerk.Ruleset:
    return regelwerk.load_text(PLAN, "plan.rules")


def _listed_afresh(g: Game) -> list[str]:
    """The moves of the deciding part listed anew, on a copy that forgot the kept ones."""
    copy = g.clone()
    copy._part_legal = None
    return [str(a) for a in copy.legal_actions()]


def _counted(rules: regelwerk.Ruleset, record: bool) -> tuple[dict[str, int], dict]:
    """Counts of the engine's own listings (an action's enumerate function), per action, and
    the functions as compiled (to put back)."""
    counts: dict[str, int] = {}
    compiled = {}
    for name, ca in rules.program(record).actions.items():
        compiled[name] = enum = ca.enum

        def counting(G: Game, out: list, enum=enum, name=name) -> None:
            counts[name] = counts.get(name, 0) + 1
            enum(G, out)
        ca.enum = counting
    return counts, compiled


@pytest.mark.parametrize("record", [False, True], ids=["untraced", "traced"])
def test_a_part_that_goes_on_is_not_listed_again(plan: regelwerk.Ruleset, record: bool) -> None:
    """Ann bids, then picks twice: her part's next moves come from her block's own listing."""
    g = plan.new_game(seed=1, record=record)
    counts, compiled = _counted(plan, record)
    try:
        for _ in range(3):  # Ann is first: her offer, then her two picks
            assert g.decision_player() == "Ann"
            moves = g.legal_actions()
            assert [str(a) for a in moves] == _listed_afresh(g)
            before = dict(counts)
            g.apply(moves[0])
            if moves[0].name == "pick" and g.decision_player() != "Ann":
                break  # her second pick ended her part
            assert g.decision_player() == "Ann"  # her offer and first pick leave her part going on
            assert g._part_legal is not None and g._part_legal[0] is g.window
            g.legal_actions()
            assert counts == before  # nothing listed for Ann's next decision
        else:
            raise AssertionError("Ann's part should end with her second pick")
    finally:
        for name, ca in plan.program(record).actions.items():
            ca.enum = compiled[name]


def test_shogun_plays_its_parts_from_their_own_listings(rulesets) -> None:
    rules = rulesets["shogun"]
    g = rules.new_game(players=4, seed=2)
    rnd = random.Random(2)
    parts = 0
    while not g.is_over and parts < 40:
        if g.window is not None:
            parts += 1
            assert [str(a) for a in g.legal_actions()] == _listed_afresh(g)
        g.apply(rnd.choice(g.legal_actions()))
    assert parts == 40
