"""`checks' lets kept` (actiongen.checks_lets_kept, `CodeGen.CHECKS_LETS_KEPT`): a traced move
played in place works its checks out first, and the `let`s before its first require are their
first lines; its effect takes their values from there instead of working them out again. The
same games and traces with and without, the `let`s worked out again when the checks fail, and
left alone where a value could change after it was worked out."""

from __future__ import annotations

import random

import pytest
from playing import chosen_and_same, compiled_with, fresh_with

FLAG = "CHECKS_LETS_KEPT"

DROPS = """game "Drops"
players Red, Yellow

board Square = grid 3 x 3

state
    cell: Square -> Player? = none
    discs: int = 0

define lowest_free(col: int) = first s in column_squares(col) where cell[s] == none

action drop(col in 1..3)
    let s = lowest_free(col)
    let n = discs + 1
    require s != none else "the column is full"
    set cell[s] = current
    set discs = n
    if discs == 9
        finish draw

flow
    repeat
        turn
            play drop
"""

# a list may change after the checks worked it out: its effect works it out itself
LISTED = DROPS.replace("    let n = discs + 1\n", "    let row = [discs]\n    let n = discs + 1\n")


def _block(rules_text: str, on: bool, name: str) -> str:
    """The traced program's first block (`source` compiles again: the switch set while it does)."""
    from regelwerk.interpreter.compiler.codegen import CodeGen

    rules = compiled_with(FLAG, on, name, rules_text)
    before = getattr(CodeGen, FLAG)
    setattr(CodeGen, FLAG, on)
    try:
        src = rules.program(True).source
    finally:
        setattr(CodeGen, FLAG, before)
    return src[src.index("def B_0"):]


def test_the_effect_reads_the_checks_values() -> None:
    on, off = _block(DROPS, True, "drops"), _block(DROPS, False, "drops")
    # off: the effect searches the column again (the definition written in place)
    assert "column_squares" in off.split("G._step[4] = _ck")[1].split("except _RULE_ERRORS")[0]
    after = on.split("G._step[4] = _ck")[1].split("except _RULE_ERRORS")[0]
    assert "column_squares" not in after and "D_0(" not in after and "'discs'] + 1" not in after
    # the checks' `except` works the two lets out again, outside the checks' guard
    guarded = on.split("except _CHECK_ERRORS:")[1].split("G._step[4] = _ck")[0]
    assert guarded.count(" = D_0(G, p0)") == 1 and guarded.count("V['discs'] + 1") == 1


def test_the_same_games_and_traces_with_and_without() -> None:
    chosen_and_same(FLAG, "checks' lets kept", "drops", DROPS, True, "connect4")


def test_only_a_prefix_of_values_that_cannot_change() -> None:
    prog = compiled_with(FLAG, True, "listed", LISTED).program(True)
    assert any(c.kind == "checks' lets kept" for c in prog.choices)
    block = _block(LISTED, True, "listed")
    after = block.split("G._step[4] = _ck")[1].split("except _RULE_ERRORS")[0]
    # `s` is taken from the checks; `row` (a list) and what follows it are worked out again
    assert "D_0(" not in after and "column_squares" not in after
    assert "[V['discs']]" in after and "V['discs'] + 1" in after


def _played(rules, seed: int) -> tuple:
    g = rules.new_game(seed=seed, record=True)
    rnd = random.Random(seed)
    while not g.is_over:
        g.apply(rnd.choice(g.legal_actions()))
    return g.result, dict(g.vars["cell"]), [(s.get("bindings"), s.get("changes")) for s in g.trace]


def test_checks_that_fail_leave_the_lets_worked_out_again(monkeypatch: pytest.MonkeyPatch) -> None:
    # the checks made to fail through their call of the definition: one they make only with
    # `explained lets inlined` off (on, the definition is written in place)
    from regelwerk.interpreter.compiler.codegen import CodeGen

    monkeypatch.setattr(CodeGen, "EXPLAINED_LETS_INLINED", False)
    rules = fresh_with(FLAG, True, DROPS, "drops.rules", monkeypatch)
    plain = _played(rules, 3)
    ns = rules.program(True).block_fns[0].__globals__
    real = ns["D_0"]
    calls = []

    def failing_once(G, col):  # the checks' first call fails; what runs after is real
        calls.append(col)
        if len(calls) == 1:
            raise KeyError("made to fail")
        return real(G, col)

    monkeypatch.setitem(ns, "D_0", failing_once)
    g = rules.new_game(seed=3, record=True)
    first = g.legal_actions()[0]
    g.apply(first)
    step = [s for s in g.trace if s["kind"] == "action"][0]
    assert step["checks"] == [] and len(calls) == 2  # the checks left empty, the let again
    assert step["changes"] == [{"path": "cell[a1]", "old": None, "new": "Red"}, {"path": "discs", "old": 0, "new": 1}]
    monkeypatch.setitem(ns, "D_0", real)
    assert _played(rules, 3) == plain
