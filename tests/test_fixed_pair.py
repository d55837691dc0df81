"""`fixed pair` (`CodeGen.FIXED_PAIR`): in a ruleset for exactly two players, `other(p)` is the
conditional of the two names, as `game_other` answers it (the second player for the first, the
first for anything else), without a library call; a ruleset for two or more keeps the call, which
refuses a game of three."""

from __future__ import annotations

import pytest
from playing import chosen_and_same, compiled_with, source_with
from regelwerk.interpreter.engine.errors import EngineError

TAKE = """game "Take"
players Ann, Bob
state
    heap: int = 9
    took: Player -> int = 0
action take(n in 1..2)
    "Take one or two."
    require n <= heap else "not that many left"
    require took[other(current)] <= took[current] + 2 else "you are too far behind"
    remove n from heap
    add n to took[current]
    if heap == 0
        finish winner other(current)
flow
    repeat
        turn
            play take
"""
TEXTS = {"take": TAKE}


def test_other_of_a_fixed_pair_is_written_out() -> None:
    on = source_with("FIXED_PAIR", True, "take", TAKE)
    assert "'Bob' if _cur == 'Ann' else 'Ann'" in on
    # only the explain functions call it, where the argument is a recorded value (`_x0 := _cur`)
    assert all("c_other(G, (_x" in line for line in on.splitlines() if "c_other(" in line)
    assert "c_other(" in source_with("FIXED_PAIR", False, "take", TAKE)


def test_a_ruleset_for_two_or_three_keeps_the_call_and_its_refusal() -> None:
    text = TAKE.replace("players Ann, Bob", "players 2..3 from Ann, Bob, Cy")
    rules = compiled_with("FIXED_PAIR", True, "take3", text)
    assert not any(c.kind == "fixed pair" for c in rules.program(False).choices)
    assert "c_other(" in source_with("FIXED_PAIR", True, "take3", text)
    with pytest.raises(EngineError, match="two-player"):  # the first listing asks other()
        rules.new_game(players=3, seed=1)
    two = rules.new_game(players=2, seed=1)
    two.apply(two.legal_actions()[0])  # a game of two plays on


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same("FIXED_PAIR", "fixed pair", "take", TAKE, record, "breakthrough")

