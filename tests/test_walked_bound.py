"""`walked bound` (interpreter/compiler/actiongen.py `walk_bound`, `CodeGen.WALKED_BOUND`): a
listing walks a narrowed range (narrow.py) only over values its first require lets through — the
bound is an `int` worked out when the range is made, in a listing, which changes no state — so
that require is not tested again on each value walked. Root's `take_move(from, to, n in 1..20)`
tested `warriors[current][from] >= n` on every move it listed, `dig` its Burrow's warriors. The
same moves, failures (a bound that fails, at the require's line), games and traces as without."""

from __future__ import annotations

import random

import pytest
from playing import compiled_with, games_digest, listed, listing_with, same_with_and_without

from regelwerk import RuleFailure

# every side and shift; a bound read at the listing's top (`narrowed once`), one at an outer
# depth (`empty range first`), one per value of the outer parameter; and a bound that fails
# once `split` has set `parts` to 0, at the require's line
STEPS = """game "Steps"
players Ann, Bob
enum Spot = s1, s2, s3
option top: int = 5
state
    have: Player -> int = 3
    at: Spot -> int = {s1: 1, s2: 0, s3: 2}
    parts: int = 3
    moves: int = 0
action up_to(n in 1..9)
    "At most what you have."
    require have[current] >= n else "you have fewer"
    add 1 to have[current]
    add 1 to moves
action below(n in 0..top)
    "Fewer than you have."
    require n < have[current] else "not fewer"
    remove 1 from have[current]
    add 1 to moves
action above(a: Spot, n in 1..8)
    "More than there are."
    require n > at[a] else "not more"
    add 1 to at[a]
    add 1 to moves
action send(a: Spot, b: Spot, n in 1..4)
    "Send from a spot."
    require a != b else "two spots"
    require at[a] >= n else "not so many there"
    remove n from at[a]
    add n to at[b]
    add 1 to moves
action dig(a: Spot, n in 1..4)
    "Dig with what you have."
    require have[current] >= n else "you have fewer"
    require n != 2 else "not two: a later require at the same depth, still tested"
    add n to at[a]
    add 1 to moves
{split}flow
    repeat
        turn
            play up_to, below, above, send, dig{also}
            if moves >= 14
                finish draw
"""
SPLIT = STEPS.replace("{split}", """action split(n in 1..9)
    "A bound that fails once there are no parts."
    require 12 // parts >= n else "too many"
    set parts = 0
    add 1 to moves
""").replace("{also}", ", split")
STEPS = STEPS.replace("{split}", "").replace("{also}", "")
TEXTS = {"steps": STEPS}


def test_the_choice_is_made_and_the_walked_values_are_not_tested() -> None:
    choices = compiled_with("WALKED_BOUND", True, "split", SPLIT).program(False).choices
    walked = {(c.rule, c.detail) for c in choices if c.kind == "walked bound"}
    assert {("action up_to", "n by have[current] >= n"), ("action below", "n by n < have[current]"),
            ("action above", "n by n > at[a]"), ("action send", "n by at[a] >= n"),
            ("action dig", "n by have[current] >= n"), ("action split", "n by 12 // parts >= n")} <= walked
    for action, test in (("send", ">= p2"), ("dig", ">= p1"), ("above", "p1 >")):
        on = listing_with("WALKED_BOUND", True, "steps", STEPS, action)
        off = listing_with("WALKED_BOUND", False, "steps", STEPS, action)
        assert test in off and test not in on, action
        assert "range(" in on
    root = compiled_with("WALKED_BOUND", True, "root").program(False).choices
    assert {"action take_move", "action use_marshal", "action dig"} <= {c.rule for c in root if c.kind == "walked bound"}


def test_off_tests_every_value() -> None:
    choices = compiled_with("WALKED_BOUND", False, "steps", STEPS).program(False).choices
    assert all(c.kind != "walked bound" for c in choices)


@pytest.mark.parametrize("record", [False, True])
def test_the_same_moves_and_games_with_and_without(record: bool) -> None:
    same_with_and_without("WALKED_BOUND", record, TEXTS, bundled="root")


@pytest.mark.parametrize("record", [False, True])
def test_the_same_moves_and_failures_at_every_decision(record: bool) -> None:
    """Moves or the rules' error at every decision, `split`'s failing bound included."""
    seen = {}
    for on in (True, False):
        rules = compiled_with("WALKED_BOUND", on, "split", SPLIT)
        out = []
        for seed in range(12):
            g = rules.new_game(seed=seed, record=record)
            rnd = random.Random(seed)
            while not g.is_over:
                moves = listed(g)
                out.append(moves)
                if isinstance(moves, str):
                    break
                try:  # untraced, the block lists the next moves as it plays this one
                    g.apply(rnd.choice(g.legal_actions()))
                except RuleFailure as err:
                    out.append(f"error: {err}")
                    break
        seen[on] = out
    assert seen[True] == seen[False]
    assert any(isinstance(m, str) and "by zero" in m for m in seen[True])  # the bound failed


@pytest.mark.parametrize("record", [False, True])
def test_the_same_root_games_by_digest(record: bool) -> None:
    seeds = range(10, 20)
    assert games_digest(compiled_with("WALKED_BOUND", True, "root"), 2, seeds, record) == \
        games_digest(compiled_with("WALKED_BOUND", False, "root"), 2, seeds, record)
