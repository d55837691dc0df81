"""An invariant `all x in D: ...` that reads a state set only as `x in s` (or `not in`) is tested,
after a step that wrote the set whole, at the elements the write added or removed
(reads.pointwise_reads, recording.member_keys), not over all of D: Khan's `s in neutral`,
tested over 144 squares after every step that placed a neutral yurt."""

from __future__ import annotations

import random

import pytest
from bundled import BUNDLED
from playing import invariant_breaks

import regelwerk

MEMBERS = """
game "Members"
players A, B
enum Slot = s1, s2, s3, s4
state
    piece: Slot -> Player? = none
    blocked: set Slot
    allowed: set Slot = Slot
action put(x: Slot)
    set piece[x] = current
action block(x: Slot)
    require x not in blocked
    add x to blocked
action free(x: Slot)
    require x in blocked
    remove x from blocked
action forbid(x: Slot)
    require x in allowed
    remove x from allowed
action allow(x: Slot)
    require x not in allowed
    add x to allowed
invariant all s in Slot: not (piece[s] != none and s in blocked) else "no piece on a blocked slot"
invariant all s in Slot: piece[s] == none or s in allowed else "every piece on an allowed slot"
flow
    repeat
        turn
            play put, block, free, forbid, allow
"""


def test_an_invariant_reading_a_set_as_membership_is_tested_by_key() -> None:
    prog = regelwerk.load_text(MEMBERS).program(True)
    assert {i: sorted(maps) for i, (maps, _t) in prog.invariant_points.items()} == {
        0: ["blocked", "piece"], 1: ["allowed", "piece"]}
    assert prog.member_sets == {"blocked", "allowed"}
    assert prog.invariant_plan(frozenset([("blocked",)])) == ((), prog.invariant_plan(frozenset([("blocked",)]))[1])
    assert [i for i, _m, _t in prog.invariant_plan(frozenset([("blocked",)]))[1]] == [0]
    from regelwerk.interpreter.compiler.reads import pointwise_reads

    listed = regelwerk.load_text(MEMBERS.replace("    allowed: set Slot = Slot", "    allowed: list Slot = [s1, s2, s3, s4]"))
    assert pointwise_reads(listed.model, listed.model.invariants[1].test) is None  # a list: tested whole
    khan = regelwerk.load(BUNDLED["khan"]).program(True)
    assert khan.member_sets == {"neutral"}
    assert {i for i, (maps, _t) in khan.invariant_points.items() if "neutral" in maps} == {0, 3}


@pytest.mark.parametrize("moves", [["put(s2)", "block(s2)"],  # the set gains the element
                                   ["block(s3)", "put(s3)"],  # the map's key
                                   ["put(s4)", "forbid(s4)"],  # the set loses the element
                                   ["block(s1)", "block(s2)", "put(s1)"]])
def test_a_membership_invariant_is_broken_at_the_step_that_changed_the_set(moves: list[str]) -> None:
    g = regelwerk.load_text(MEMBERS).new_game(record=True)
    for move in moves[:-1]:
        g.apply(move)
    with pytest.raises(regelwerk.InvariantBroken) as err:
        g.apply(moves[-1])
    assert len(err.value.broken) == 1


@pytest.mark.parametrize("seed", range(6))
def test_testing_a_set_by_its_changed_elements_reports_what_testing_whole_does(seed: int) -> None:
    """Random games, played on through every break: the same steps raise, with the same
    messages, whether the sets are tested at the elements a write changed or whole."""
    def breaks(by_key: bool) -> list:
        return invariant_breaks(regelwerk.load_text(MEMBERS), seed, 60, by_key)

    assert breaks(True) == breaks(False)
    assert breaks(True)  # the games do break them


def test_khan_traced_games_are_the_same_with_sets_tested_whole() -> None:
    def played(by_key: bool) -> list:
        ruleset = regelwerk.load(BUNDLED["khan"])
        if not by_key:
            ruleset.program(True).invariant_points.clear()
        g = ruleset.new_game(players=3, seed=2, record=True)
        rnd = random.Random(2)
        while not g.is_over:
            g.apply(rnd.choice(g.legal_actions()))
        return g.trace

    assert played(True) == played(False)
