"""When a `when` trigger runs (issue 22 §4, docs/language.md §10): right after the statement
whose write makes its condition true; a body that stops for a decision or jumps as soon as the
rule that set it off can pause; `for ... chosen` offers only items still in its list after the
triggers ran."""

from __future__ import annotations

import pytest

import regelwerk

POT = """\
players A, B
state
    pot: int = 0
    alarms: int = 0
    seen: list int = []
when pot >= 5
    "As soon as the pot holds five or more, it is emptied."
    add 1 to alarms
    set pot = 0
action grab(n in 1..3)
    add n to pot
    add pot to seen
    add n to pot
    add pot to seen
flow
    repeat 3 times
        turn
            play grab
"""


@pytest.mark.parametrize("record", [False, True])
def test_a_straight_body_runs_right_after_the_write_that_set_it_off(record):
    """grab(3) makes the pot 6 with its third statement: the pot is emptied before the fourth
    reads it (0 is seen, not 6). Before, the trigger waited for the next decision point."""
    game = regelwerk.load_text(POT, "pot.rules").new_game(seed=1, record=record)
    for move in ("grab(3)", "grab(2)", "grab(1)"):
        game.apply(move)
    assert game.vars["seen"] == [3, 0, 2, 4, 0, 1]
    assert game.vars["alarms"] == 2
    if record:  # the trigger is a step of its own between two steps of the move
        rules = [s["rule"] for s in game.trace if "rule" in s and s["rule"] != "flow"]
        assert rules[:3] == ["grab", "when pot >= 5", "grab"]
        assert game.trace[3]["changes"] == [{"path": "seen", "old": [3], "new": [3, 0]}]


FINISH = """\
players A, B
state
    vp: Player -> int = 0
    after: int = 0
when vp[A] >= 3 or vp[B] >= 3
    "The first to reach 3 points wins at once."
    finish winner current
action score
    add 3 to vp[current]
    add 1 to after
flow
    repeat
        turn
            play score
"""


@pytest.mark.parametrize("record", [False, True])
def test_a_body_that_finishes_the_game_ends_the_rule_that_set_it_off(record):
    game = regelwerk.load_text(FINISH, "finish.rules").new_game(seed=1, record=record)
    game.apply("score")
    assert game.is_over and game.winners == ["A"]
    assert game.vars["after"] == 0, "the statement after the winning write never ran"


CHOOSER = """\
players A, B
state
    lost: int = 0
    returned: list int = []
    log_: list int = []
when lost > 0
    "As soon as a building is lost, the owner sends one back."
    choose k in [1, 2] by A "which one goes back?"
    add k to returned
action battle
    add 1 to lost
    add 10 to log_
    set lost = 0
    add 20 to log_
action look
    add len(returned) to log_
flow
    turn
        play battle
    turn
        play look
"""


@pytest.mark.parametrize("record", [False, True])
def test_a_body_that_stops_for_a_decision_runs_when_the_rule_can_pause(record):
    """The trigger became true at `add 1 to lost`; its body asks a question, so it runs after
    the effect (the rule cannot stop halfway), even though the effect set `lost` back to 0."""
    game = regelwerk.load_text(CHOOSER, "chooser.rules").new_game(seed=1, record=record)
    game.apply("battle")
    assert game.vars["log_"] == [10, 20]
    assert game.pending["kind"] == "choose" and game.pending["player"] == "A"
    game.apply("choose(2)")
    game.apply("look")
    assert game.vars["returned"] == [2] and game.vars["log_"] == [10, 20, 1]


PARLIAMENT = """\
players A, B
enum M = m1, m2, m3
state
    swayed: list M = [m1, m2, m3]
    lost: int = 0
    done: list M = []
when lost > 0
    "As soon as a building is lost, the highest minister goes back."
    set lost = 0
    remove m3 from swayed
procedure parliament
    for m in swayed chosen optional by A "next minister?"
        add m to done
        if m == m1
            add 1 to lost
action go
    log "on"
flow
    do parliament
    turn
        play go
"""


def test_for_chosen_offers_only_items_still_in_its_list_after_the_triggers():
    """m1's action loses a building; the trigger sends m3 back: m3 is no longer offered in the
    same loop (it was, before: the loop kept the list it started with)."""
    game = regelwerk.load_text(PARLIAMENT, "parliament.rules").new_game(seed=1)
    assert game.pending["options"] == ["m1", "m2", "m3", None]
    game.apply("choose(m1)")
    assert game.vars["swayed"] == ["m1", "m2"]
    assert game.pending["options"] == ["m2", None]
    game.apply("choose(m2)")
    assert game.pending["kind"] == "play", "no minister left: the loop ended by itself"
    assert game.vars["done"] == ["m1", "m2"]


def test_a_saved_game_continues_with_the_same_triggers():
    """At a decision nothing waits, so a save holds all there is."""
    rules = regelwerk.load_text(CHOOSER, "chooser.rules")
    game = rules.new_game(seed=1)
    game.apply("battle")
    again = rules.load_game(game.to_json())
    for g in (game, again):
        g.apply("choose(1)")
        g.apply("look")
    assert again.vars == game.vars
