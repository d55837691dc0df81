"""`empty range first` (interpreter/compiler/actiongen.py `_Listing.empty_first`): the narrowed
range of a parameter two or more loops in, whose bound reads only outer parameters, is worked
out at the outer depth, and that depth's value is skipped when the range is empty; only where
nothing between can fail. The same moves, games and traces as without it."""

from __future__ import annotations

import pytest
from bundled import BUNDLED
from playing import played
from regelwerk.interpreter.compiler.codegen import CodeGen

import regelwerk

EARLY = """game "Early"
players Ann, Bob
board Square = grid 3 x 3
state
    stones: Square -> int = 0
    moves: int = 0
action move(from: Square, to: Square, n in 1..4)
    "Move."
    require to != from else "stay"
    require stones[from] >= n else "too few"
    remove n from stones[from]
    add n to stones[to]
    add 1 to moves
    if moves == 12
        finish draw
action shift(from: Square, to: Square, n in 1..2)
    "Shift."
    require to != from else "stay"
    require stones[to] >= n else "too few there"
    remove n from stones[to]
    add n to stones[from]
action sow(s: Square)
    "Sow."
    require stones[s] < 3 else "full"
    add 1 to stones[s]
flow
    repeat
        turn
            play move, shift, sow
"""
# the same, but the require between can fail (a division): nothing is skipped
RISKY = EARLY.replace('    require to != from else "stay"\n',
                      '    require 12 // (stones[to] + 1) > 0 else "stay"\n')


def _without(load: object) -> regelwerk.Ruleset:
    """The ruleset compiled with the choice off (while the switch is off: programs compile
    lazily, and `source` compiles again)."""
    rules = load()
    CodeGen.EMPTY_FIRST = False
    try:
        for record in (False, True):
            prog = rules.program(record)
            assert all(c.kind != "empty range first" for c in prog.choices)
    finally:
        CodeGen.EMPTY_FIRST = True
    return rules


def _listing(prog: object, action_id: str = "") -> str:
    return prog.source.split("def AE_")[1].split("\ndef ")[0]


def test_the_range_is_worked_out_at_the_first_parameters_depth() -> None:
    prog = regelwerk.load_text(EARLY, "early.rules").program(False)
    assert [(c.rule, c.detail) for c in prog.choices if c.kind == "empty range first"] == [
        ("action move", "n by stones[from] >= n")]  # not shift's: its bound reads `to`
    listing = _listing(prog)
    head, inner = listing.split("for p1", 1)  # (`for p1, _n in` where its rows are numbered)
    nrw = head.split(" = range(")[0].split()[-1]
    assert f"if not {nrw}:\n            continue" in head  # in the loop over `from`, before `to`'s
    # walked, or sliced (`moves sliced`), and not worked out again
    assert (f"for p2 in {nrw}:" in inner or f"[{nrw}.start:{nrw}.stop]" in inner) and " = range(" not in inner


def test_nothing_is_skipped_past_a_require_that_can_fail() -> None:
    prog = regelwerk.load_text(RISKY, "risky.rules").program(False)
    assert all(c.kind != "empty range first" for c in prog.choices)
    assert ("action move", "n by stones[from] >= n") in [
        (c.rule, c.detail) for c in prog.choices if c.kind == "narrowed range"]


def test_root_skips_clearings_without_warriors_before_walking_their_neighbours() -> None:
    prog = regelwerk.load(BUNDLED["root"]).program(False)
    early = {c.rule for c in prog.choices if c.kind == "empty range first"}
    assert early == {"action take_move", "action use_marshal", "action cat_move"}


TOTAL = """game "Total"
players A, B
board Spot = graph
    a - b - c
state
    marks: set Spot = {}
define near(s: Spot): list Spot = adjacent_nodes(s) + (if s in marks then [a] else [])
define ordered(): list Spot = sorted(marks)
define halves(n: int): int = n // 2
define joined_any(xs: list int): list int = xs + [halves(1)]
flow
    finish draw
"""


def test_joined_lists_look_ups_of_a_graph_and_sorted_elements_cannot_fail() -> None:
    """total.py: `+` of two lists only charges the work budget (runtime._joined); a graph's
    `adjacent_nodes` answers for any node of its type; `sorted` of elements compares them.
    A list joined with a division in it may still fail."""
    from regelwerk.interpreter.compiler.total import cannot_fail

    m = regelwerk.load_text(TOTAL, "total.rules").model
    assert cannot_fail(m, m.defines["near"].value)
    assert cannot_fail(m, m.defines["ordered"].value)
    assert not cannot_fail(m, m.defines["joined_any"].value)


@pytest.mark.parametrize("record", [False, True])
def test_the_same_moves_and_games_with_and_without(record: bool) -> None:
    for text in (EARLY, RISKY):
        with_it, without = regelwerk.load_text(text, "e.rules"), _without(lambda t=text: regelwerk.load_text(t, "e.rules"))
        assert played(with_it, None, record, range(4), 250, saved=True) == \
            played(without, None, record, range(4), 250, saved=True)
    with_it, without = regelwerk.load(BUNDLED["root"]), _without(lambda: regelwerk.load(BUNDLED["root"]))
    seeds = range(2 if record else 6)
    assert played(with_it, None, record, seeds, 250, saved=True) == played(without, None, record, seeds, 250, saved=True)
