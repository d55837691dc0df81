"""A block of more than 2 * machine._GROUP sections tests them by groups: `if pc < k:` around
each run of sections, so a block resumed at a late section (Root's flow block has some seventy)
passes one test per group, not one per section before it. The same games as with every
section tested in turn, whichever section a block is resumed at or jumps back to."""

from __future__ import annotations

import dis

import pytest
from bundled import BUNDLED
from playing import played
from regelwerk.interpreter.compiler import machine

import regelwerk

# a flow of many sections: nested loops that jump back, an `else` that jumps forward, turns
LONG = """players Ann, Bob, Cid
state
    score: Player -> int = 0
    rounds: int = 0
action gain(n in 1..3)
    "Gain n."
    add n to score[current]
action lose
    "Lose one."
    remove 1 from score[current]
flow
    repeat 3 times
        for p in players
            turn p
                play gain
            turn p
                play lose else finish draw
        add 1 to rounds
        for p in players
            if score[p] > 4
                turn p
                    play lose
            else
                turn p
                    play gain
    for p in players
        turn p
            play gain
    finish ranking p by score[p]
"""


def _less_than_tests(rules: regelwerk.Ruleset) -> int:
    return sum(1 for f in rules.program(False).block_fns for i in dis.get_instructions(f)
               if i.opname == "COMPARE_OP" and i.argval == "<")


@pytest.mark.parametrize(("name", "players"), [("long", None), ("root", 2), ("shogun", 4)])
@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_as_with_every_section_tested(name: str, players: int | None, record: bool,
                                                     monkeypatch: pytest.MonkeyPatch):
    def load() -> regelwerk.Ruleset:
        return regelwerk.load_text(LONG, "long.rules") if name == "long" else regelwerk.load(BUNDLED[name])

    grouped = load()
    grouped.program(record)
    tests = _less_than_tests(grouped)
    monkeypatch.setattr(machine, "_GROUP", 10**6)
    plain = load()
    plain.program(record)
    assert tests > _less_than_tests(plain)  # the groups are there, and only there
    seeds = range(3) if name == "long" else range(1)
    assert played(grouped, players, record, seeds, 150) == played(plain, players, record, seeds, 150)
