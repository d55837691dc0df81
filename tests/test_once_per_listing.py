"""`once per listing` (interpreter/compiler/codegen.py `CodeGen.once_call`): a definition
inlined in a listing, inside its loops, with arguments that stay the same all through it
(literals, `current`) is worked out the first time it is needed and kept for the rest of that
listing. The same moves, traces and failures as without it."""

from __future__ import annotations

import random

import pytest
from bundled import BUNDLED
from playing import played
from regelwerk.interpreter.compiler.codegen import CodeGen

import regelwerk

ONCE = """game "Once"
players Ann, Bob
board Square = grid 3 x 3
state
    heap: Square -> int = 0
    n: int = 0
define near(k: int): int = sum s in Square: heap[s] * k
define room(t: Square): int = near(2) + 3 - heap[t]
define spare(k: int): int = sum s in Square: 12 // (k - n)
define slack(t: Square): int = spare(4) + spare(5) + heap[t]
define weight(k: int): int = sum t in Square: k + heap[t] - heap[t]
action put(s: Square, m in 1..3)
    "Put."
    require room(s) >= m else "too much"
    require slack(s) >= 0 else "no room"
    require spare(6) > -100 else "never"
    require heap[s] < 2 or (any t in Square: slack(t) >= heap[s]) else "not here"
    require (if n > 2 then (all t in Square: slack(t) >= 0) else true) else "odd"
    require weight(m) > 0 else "light"
    add m to heap[s]
    add 1 to n
flow
    repeat
        turn
            play put
"""


def _without(load: object) -> regelwerk.Ruleset:
    """A ruleset compiled with the choice off (programs compile lazily, `source` compiles again:
    both read while the switch is off)."""
    rules = load()
    CodeGen.ONCE_PER_LISTING = False
    try:
        for record in (False, True):
            prog = rules.program(record)
            # `filtered once` marks its lists (`_ff…`) with _NOT_YET too: only this choice's are asked
            assert not [line for line in prog.source.splitlines() if "_NOT_YET" in line and "_ff" not in line]
            assert all(c.kind != "once per listing" for c in prog.choices)
    finally:
        CodeGen.ONCE_PER_LISTING = True
    return rules


def test_a_closed_call_inside_an_inlined_definition_is_worked_out_once_per_listing() -> None:
    prog = regelwerk.load_text(ONCE, "once.rules").program(False)
    assert [c.detail for c in prog.choices if c.kind == "once per listing"] == [
        "spare(4)", "spare(5)", "weight(m) by key"]
    listing = prog.source.split("def AE_")[1].split("\ndef ")[0]
    locals_ = [line.split()[0] for line in listing.splitlines() if line.endswith(" = _NOT_YET")]
    assert len(set(locals_)) == len(locals_) == 2  # declared at the top, one per argument
    # tested where slack(s) is asked: in the loop over s, in the `any`'s loop, and in the `all`'s
    # inside the `if`, which a split conditional writes in place (CodeGen.conditional_test)
    for once in locals_:
        assert listing.count(f"if {once} is _NOT_YET:") == 3 and f"        {once} = " in listing


def test_the_same_moves_with_and_without_where_a_value_is_asked_in_several_places() -> None:
    """`slack(s)` asks for `spare(4)` and `spare(5)` in the loop over s and again in the loop
    of the `any` behind the `or`, and in the loop of the `all` inside the `if` (in place, a
    split conditional): all take the one value."""
    with_once = regelwerk.load_text(ONCE, "once.rules")
    without = _without(lambda: regelwerk.load_text(ONCE, "once.rules"))
    for record in (False, True):
        assert played(with_once, None, record, range(6), 3, saved=True) == played(without, None, record, range(6), 3, saved=True)


def test_a_call_of_an_inner_parameter_is_kept_per_key_for_the_rounds_of_an_outer_loop() -> None:
    """`weight(m)` comes back for every square s (the loop outside m's): a table of the
    listing's keeps it by m; `slack(s)`, asked once per s, is not kept."""
    listing = regelwerk.load_text(ONCE, "once.rules").program(False).source.split("def AE_")[1].split("\ndef ")[0]
    table = next(line.split()[0] for line in listing.splitlines() if line.strip().startswith("_mk"))
    assert f"{table}.get(p1, _NOT_YET)" in listing and f"{table}[p1] = " in listing
    assert listing.count(f"{table}.get(") == 1


def test_root_works_out_the_marquises_ruled_clearings_once_per_listing() -> None:
    prog = regelwerk.load(BUNDLED["root"]).program(False)
    assert {("action cat_build", "ruled_by(Marquise)"), ("action cat_build", "wood_for(c) by key")} <= {
        (c.rule, c.detail) for c in prog.choices if c.kind == "once per listing"}


def test_a_call_at_the_listings_top_level_or_without_a_loop_is_left_as_it_is() -> None:
    """Checkers' `can_capture(current)` is asked once at the top anyway; breakthrough's
    `forward(current)` and Khan's `ruler_on(s)` (a look-up in the rulers' squares) cost less
    than a test of a kept value."""
    for name in ("tictactoe", "connect4", "breakthrough", "checkers", "khan"):
        rules = regelwerk.load(BUNDLED[name])
        assert all(c.kind != "once per listing" for c in rules.program(False).choices), name
        game = rules.new_game(seed=1)  # and its listings, written as before, run
        assert game.playout(random.Random(1), 30) > 0 and game.to_json()


@pytest.mark.parametrize("record", [False, True])
def test_root_lists_the_same_moves_and_plays_the_same_games_with_and_without(record: bool) -> None:
    with_once, without = regelwerk.load(BUNDLED["root"]), _without(lambda: regelwerk.load(BUNDLED["root"]))
    seeds = range(3 if record else 8)
    assert played(with_once, None, record, seeds, 300, saved=True) == played(without, None, record, seeds, 300, saved=True)


def test_a_failure_in_a_value_worked_out_once_is_the_same_failure() -> None:
    """`spare(4)` divides by zero once four moves were made: the listing fails at the same
    decision with the same message, traced and untraced."""
    with_once = regelwerk.load_text(ONCE, "once.rules")
    without = _without(lambda: regelwerk.load_text(ONCE, "once.rules"))
    for record in (False, True):
        failures = []
        for rules in (with_once, without):
            game = rules.new_game(record=record)
            with pytest.raises(regelwerk.RuleFailure) as info:
                game.playout(random.Random(2))
            failures.append((str(info.value), game.vars["n"], game.step_no))
        assert failures[0] == failures[1]
        assert "division by zero" in failures[0][0] and failures[0][1] == 4
