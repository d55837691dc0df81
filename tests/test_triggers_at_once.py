"""`triggers at once` (docs/architecture.md §5, `CodeGen.TRIGGERS_AT_ONCE`): a decision point
tests every trigger's condition in one generated function `FT`, the conditions written in place,
and calls the engine (`Game._fire_changed`) only when one changed, where `Game.fire_triggers`
called each condition's `TT_n` and made a list of their values at every decision. Pinned: the
choice and the form; a condition that only a decision point sees change (it reads `current`)
still fires there; a trigger whose body stops for a decision still waits and runs; the same
games, saves, results and traces with the transform on and off (a small ruleset and Root)."""

from __future__ import annotations

import pytest
from playing import chosen_and_same, source_with

import regelwerk

TRIGGERS = """\
players A, B
state
    pot: int = 0
    bonus: Player -> int = 0
    alarms: int = 0
when current == B and pot >= 3
    "B banks a pot of three or more when B's turn comes (no write sets it off: a decision does)."
    add 1 to bonus[B]
    set pot = 0
when alarms >= 2
    "Two alarms: the player whose turn it is adds one or two to the pot."
    set alarms = 0
    choose n in 1..2 "how many?"
    add n to pot
when any p in players: bonus[p] >= 3
    "Three banked pots win."
    finish winner B
action grab(n in 1..2)
    add n to pot
action ring
    add 1 to alarms
flow
    repeat 12 times
        turn
            play grab, ring
"""


def test_the_form():
    on = source_with("TRIGGERS_AT_ONCE", True, "triggers", TRIGGERS)
    off = source_with("TRIGGERS_AT_ONCE", False, "triggers", TRIGGERS)
    ft = on.split("\ndef FT(G):")[1].split("\ndef ")[0]
    assert "G.fire_triggers()" in ft  # only where a trigger waits or a part runs
    assert "return G._fire_changed([" in ft
    assert "TT_" not in ft  # the conditions are written in place, not called
    assert "if FT(G):" in on and "G.fire_triggers()" not in on.replace(ft, "")
    assert "def FT(" not in off and "if G.fire_triggers():" in off


@pytest.mark.parametrize("record", [False, True])
def test_a_condition_a_decision_sees_change_fires_there(record):
    """A fills the pot to 4 on A's turn; nothing B's trigger reads is written when the turn
    passes to B, so only the test at B's first decision banks it."""
    game = regelwerk.load_text(TRIGGERS, "triggers.rules").new_game(seed=1, record=record)
    game.apply("grab(2)")
    game.apply("ring")  # B's
    game.apply("grab(2)")  # A's: 4 in the pot, B's condition does not hold on A's turn
    assert game.current == "B" and game.vars["bonus"] == {"A": 0, "B": 1} and game.vars["pot"] == 0


@pytest.mark.parametrize("record", [False, True])
def test_a_body_that_decides_waits_and_runs(record):
    game = regelwerk.load_text(TRIGGERS, "triggers.rules").new_game(seed=1, record=record)
    game.apply("ring")
    game.apply("ring")  # the second alarm: the trigger's `choose` is the next decision
    assert game.vars["alarms"] == 0
    assert [m.args for m in game.legal_actions()] == [(1,), (2,)]
    game.apply(game.legal_actions()[1])
    assert game.vars["pot"] == 2


@pytest.mark.parametrize("record", [False, True])
def test_same_games_with_and_without(record):
    chosen_and_same("TRIGGERS_AT_ONCE", "triggers at once", "triggers", TRIGGERS, record, "root")
