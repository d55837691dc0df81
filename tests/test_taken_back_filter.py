"""The moves not taken back at a decision (interpreter/engine/game.py `Game._not_taken_back`):
after an `abandon`, `legal_actions()` filters the listing by the texts in `abandoned`; the filter
is kept for the same listing and the same `abandoned` (both are replaced, never changed in place),
so `_roll_back`, `legal_actions()` and `apply`'s check make each move's text once, not three
times. The same moves, games and traces as the filter made every time."""

from __future__ import annotations

import functools
import random

import pytest
from bundled import BUNDLED, ruleset
from playing import played

import regelwerk
from regelwerk import Game


def _every_time(self: Game, legal: list) -> list:
    """The filter as it was: made at every call."""
    return [a for a in legal if str(a) not in self.abandoned]


@functools.cache
def _offers() -> regelwerk.Ruleset:
    return regelwerk.load(BUNDLED["offers"])


def _both(rules: regelwerk.Ruleset, players: int | None, record: bool, seeds: range, limit: int) -> tuple:
    kept = played(rules, players, record, seeds, limit, saved=True)
    mp = pytest.MonkeyPatch()
    mp.setattr(Game, "_not_taken_back", _every_time)
    try:
        made = played(rules, players, record, seeds, limit, saved=True)
    finally:
        mp.undo()
    return kept, made


def test_a_second_move_taken_back_at_the_same_decision_is_filtered_too() -> None:
    """`offer(n)` refused twice at one decision (and `stubborn`, always taken back): the kept
    filter is made again for the new `abandoned`, on the same listing."""
    g = _offers().new_game(seed=0)
    g.apply(regelwerk.Action("offer", (2,)))
    g.apply(regelwerk.Action("choose", (False,)))
    first = g.legal_actions()
    assert [str(m) for m in first] == ["offer(1)", "offer(3)", "stubborn"]
    g.apply(regelwerk.Action("stubborn"))
    assert [str(m) for m in g.legal_actions()] == ["offer(1)", "offer(3)"]
    assert g.legal_actions() is not g.legal_actions()  # each a list of its own to change
    g.apply(regelwerk.Action("offer", (3,)))
    g.apply(regelwerk.Action("choose", (False,)))
    assert [str(m) for m in g.legal_actions()] == ["offer(1)"]
    listing = g._legal
    g.abandoned = {**g.abandoned, "offer(1)": "replaced"}  # the same listing, another `abandoned`
    assert g._legal is listing and g.legal_actions() == []
    with pytest.raises(regelwerk.IllegalAction, match="taken back at this decision"):
        g.apply(regelwerk.Action("offer", (3,)))


@pytest.mark.parametrize("record", [False, True])
def test_random_games_with_moves_taken_back_are_the_same(record: bool) -> None:
    kept, made = _both(_offers(), None, record, range(12), 40)
    assert kept == made
    assert sum(1 for moves in kept if isinstance(moves, list) and moves and "stubborn" not in moves) > 3


def test_khan_games_with_a_refused_conquest_are_the_same() -> None:
    """Seeds 2 and 3 each take a conquest back once (a protected yurt's owner refuses)."""
    rules = ruleset("khan/khan.rules")
    for seed in (2, 3):
        g = rules.new_game(players=3, seed=seed)
        rnd, taken_back = random.Random(seed), 0
        while not g.is_over:
            taken_back += bool(g.abandoned)
            g.apply(rnd.choice(g.legal_actions()))
        assert taken_back
    kept, made = _both(rules, 3, False, range(2, 4), 400)
    assert kept == made
