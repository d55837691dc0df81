"""`common look-ups` (interpreter/compiler/common.py): in a definition, a look-up `t[k]` made
again later in its statement list, or in a later operand of the same `and`/`or`, is read from a
local kept where it is first made. Checkers' jump scan read the jump table's row three times
and `cell[over]` twice per direction. The same moves, games, perft counts and failures as
without it."""

from __future__ import annotations

import functools
import random
import re

import pytest
from bundled import BUNDLED, ruleset
from playing import played, source_with
from regelwerk.interpreter.compiler.codegen import CodeGen
from regelwerk.interpreter.tools.agents import perft

import regelwerk

# `heap[s]` read twice in one `and`, `T[s]` (a table) in an `if`'s test and then in its value;
# `pick(s)` binds a name anew between two look-ups of the same text: not shared across it
LOOKUPS = """game "Lookups"
players Ann, Bob
board Square = grid 3 x 3
const T = {a1: 1, b1: 2, c1: 3, a2: 1, b2: 0, c2: 2, a3: 3, b3: 1, c3: 0}
state
    heap: Square -> int = 0
    n: int = 0
define busy(s: Square): bool = heap[s] > 0 and heap[s] < 3
define weight(s: Square): int = sum q in Square where heap[q] > 0: (if T[q] > 1 then T[q] + heap[q] else 10 // (heap[q] - 2))
action put(s: Square)
    "Put."
    require not busy(s) or weight(s) < 40 else "heavy"
    add 1 to heap[s]
    add 1 to n
    if n == 14
        finish draw
flow
    repeat
        turn
            play put
"""


def _without(load: object) -> regelwerk.Ruleset:
    """A ruleset compiled with the pass off (both programs, and their source, while off)."""
    rules = load()
    CodeGen.COMMON_LOOKUPS = False
    try:
        for record in (False, True):
            prog = rules.program(record)
            assert not re.search(r"\b_cl\d+\b", prog.source) and all(c.kind != "common look-ups" for c in prog.choices)
    finally:
        CodeGen.COMMON_LOOKUPS = True
    return rules


def _lookups() -> regelwerk.Ruleset:
    return regelwerk.load_text(LOOKUPS, "lookups.rules")


@functools.cache
def _checkers_without() -> regelwerk.Ruleset:
    return _without(lambda: regelwerk.load(BUNDLED["checkers"]))


def test_the_jump_scan_reads_the_row_and_the_jumped_square_once_per_direction() -> None:
    prog = ruleset("classic/checkers.rules").program(False)
    assert {"define jump_paths", "define first_jumps"} <= {c.rule for c in prog.choices if c.kind == "common look-ups"}
    # joined.py takes the rows into its tables; `memo never opened` drops the memo's look-up by
    # which the scan (jump_paths) is found here
    source = source_with("JOINED_ROWS", False, "checkers", held=(("MEMO_UNOPENED", False),))
    scan = next(part for part in source.split("\ndef ") if "_sc = G._shared" in part)  # jump_paths
    lines = [line.strip() for line in scan.splitlines()]
    kept = next(line for line in lines if line.startswith("_cl") and "= _row" in line)
    local, row = kept.split(" = ")
    assert lines[lines.index(kept) + 1] == f"if not {local} is not None:"
    assert f"= {local}" in scan and f", {local}])" in scan  # the let and the jump appended read it
    plain = scan.split("\n    else:\n")[-1]  # `guard unswitched`: the loop's copy walking the kept keys
    assert plain.count(row) == 1  # the row's look-up is made once a direction
    assert ":= _sv0[" in scan  # `cell[over]` bound in the `and` that tests it twice


def test_the_same_moves_and_failures_with_and_without() -> None:
    """`weight` divides by zero once a square with T 0 or 1 holds two: the same failure, at the
    same decision, with and without."""
    with_pass, without = _lookups(), _without(_lookups)
    assert any(c.kind == "common look-ups" for c in with_pass.program(False).choices)
    for record in (False, True):
        outcomes = []
        for rules in (with_pass, without):
            runs = []
            for seed in range(6):
                game = rules.new_game(seed=seed, record=record)
                try:
                    game.playout(random.Random(seed))
                    runs.append((game.result, game.to_json()))
                except regelwerk.RuleFailure as err:
                    runs.append((str(err), game.step_no))
            outcomes.append(runs)
        assert outcomes[0] == outcomes[1]
        assert any("division by zero" in str(r[0]) for r in outcomes[0])


@pytest.mark.parametrize("record", [False, True])
def test_checkers_plays_the_same_games_with_and_without(record: bool) -> None:
    with_pass, without = ruleset("classic/checkers.rules"), _checkers_without()
    seeds = range(3 if record else 6)
    assert played(with_pass, None, record, seeds, 200, saved=True) == played(without, None, record, seeds, 200, saved=True)


def test_checkers_perft_is_the_same() -> None:
    with_pass, without = ruleset("classic/checkers.rules"), _checkers_without()
    assert perft(with_pass.new_game(), 3) == perft(without.new_game(), 3) == 302
