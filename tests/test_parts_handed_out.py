"""`parts handed out` (`game.PARTS_HANDED_OUT`): while a `simultaneously` waits, `legal_actions()`
hands out a copy of the first waiting part's moves kept at this very window (`_part_legal`)
itself, and `apply` commits one of them without `decision_player()` and `commit` as calls.
The same moves, games, traces and saves as through `_legal_for` and `commit`; anything else
(another player named, moves taken back, moves kept at another window) goes the long way."""

from __future__ import annotations

import pytest
from bundled import BUNDLED
from playing import played
from regelwerk.interpreter.engine import game
from test_simultaneous import PLAN

import regelwerk


@pytest.fixture(scope="module")
def plan() -> regelwerk.Ruleset:
    return regelwerk.load_text(PLAN, "plan.rules")


@pytest.fixture(scope="module")
def shogun() -> regelwerk.Ruleset:
    return regelwerk.load(BUNDLED["shogun"])


def test_the_kept_moves_are_handed_out_as_a_copy(plan: regelwerk.Ruleset, monkeypatch: pytest.MonkeyPatch) -> None:
    g = plan.new_game(seed=1)
    g.apply(g.legal_actions()[0])  # Ann's offer: her part goes on, its moves kept
    kept = g._part_legal
    assert kept is not None and kept[0] is g.window and kept[1] == g.decision_player() == "Ann"

    def refused(*_args: object) -> None:
        raise AssertionError("the long way")
    monkeypatch.setattr(game.Game, "_legal_for", refused)
    moves = g.legal_actions()
    assert moves == kept[2] and moves is not kept[2]
    moves.clear()  # the copy is the caller's
    assert g.legal_actions() == kept[2] != []
    monkeypatch.setattr(game.Game, "commit", refused)
    g.apply(g.legal_actions()[0])  # committed in place
    assert g.decision_player() == "Ann"


def test_another_player_or_moves_taken_back_go_the_long_way(plan: regelwerk.Ruleset) -> None:
    g = plan.new_game(seed=1)
    assert [str(m) for m in g.legal_actions("Bob")] == ["offer(0)", "offer(1)", "offer(2)", "offer(3)"]
    g.apply("offer(2)", "Bob")
    assert g.decision_player() == "Ann"
    assert [str(m) for m in g.legal_actions()] == ["offer(0)", "offer(1)", "offer(2)", "offer(3)"]


@pytest.mark.parametrize("record", [False, True], ids=["untraced", "traced"])
def test_the_same_games_with_and_without(plan: regelwerk.Ruleset, shogun: regelwerk.Ruleset, record: bool,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    seeds = range(2) if record else range(4)
    on = played(plan, None, record, range(6), 100, saved=True), played(shogun, 4, record, seeds, 2000, saved=True)
    monkeypatch.setattr(game, "PARTS_HANDED_OUT", False)
    off = played(plan, None, record, range(6), 100, saved=True), played(shogun, 4, record, seeds, 2000, saved=True)
    assert on == off


LOOK = """\
players Ann, Bob
enum Card = axolotl9, beryl
state
    hand: Player -> list Card = [] hidden except owner
action look
    "Count the other hand."
    for c in hand[Bob]
        remove c from hand[current]
flow
    set hand[Bob] = [axolotl9]
    simultaneously for p in players
        play look
"""


@pytest.mark.parametrize("on", [True, False])
def test_a_part_move_that_fails_says_nothing_hidden(on: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """SecretsGame's own window paths (`apply` straight to `_apply_for`, the kept moves handed
    out) hide what a failure would show, as `Game.apply` wrapped did."""
    monkeypatch.setattr(game, "PARTS_HANDED_OUT", on)
    g = regelwerk.load_text(LOOK, "look.rules").new_game(seed=1)
    assert type(g) is game.SecretsGame and g.window is not None
    moves = g.legal_actions()
    assert [str(m) for m in moves] == ["look"]
    with pytest.raises(regelwerk.RuleFailure) as info:
        g.apply(moves[0])
    assert "axolotl9" not in str(info.value) and "axolotl9" in info.value.full
