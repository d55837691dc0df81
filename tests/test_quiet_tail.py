"""`quiet tail` (interpreter/compiler/quiettail.py): a quiet procedure called last in an action's
effect (what follows only tests state variables, finishes the game or returns) is called in its
tail form `PT_n`, which keeps the move's step open while it writes nothing and, when it wrote or
failed, makes the steps `P_n` would have made (`TraceRecorder._quiet_steps`). Pinned here: which
calls take it, and the same traces, saves and results as the switch off gives, through undo,
clones, watched rule entries, procedures that write and fail, and calls that are not last."""

from __future__ import annotations

import json
import random

import pytest
from playing import compiled_with, played
from test_quiet_procedures import _undone_and_cloned

import regelwerk

GAMES = [("checkers", 2, range(4), 400), ("shogun", 4, range(2), 200), ("root", 2, range(2), 200),
         ("khan", 3, range(1), 150)]


def _tails(ruleset: regelwerk.Ruleset) -> set[str]:
    return {c.rule for c in ruleset.program(True).choices if c.kind == "quiet tail"}


def test_checkers_moves_crown_in_tail_form():
    rules = compiled_with("QUIET_TAIL", True, "checkers")
    assert _tails(rules) == {"action step", "action jump"}  # crown last; `step` may finish after it
    source = rules.program(True).source
    # the effects and their copies in the block: the tail form's body in place (`quiet tail
    # inlined`), or its call with that switch off
    assert "def PT_1(G, p0):" in source and "if PT_1(G, " not in source
    # (and the traced fused apply's copies of the two effects, `fused kept checks`: 4 more)
    assert source.count("G._quiet_steps('procedure:crown'") == 2 + 2 * 4 + 4
    from regelwerk.interpreter.compiler.codegen import CodeGen

    off = compiled_with("QUIET_TAIL_INLINED", False, "checkers")
    CodeGen.QUIET_TAIL_INLINED = False  # `source` compiles again
    try:
        assert off.program(True).source.count("if PT_1(G, ") == 4 + 2  # (the fused apply's copies: 2)
    finally:
        CodeGen.QUIET_TAIL_INLINED = True
    assert "PT_" not in rules.program(False).source
    assert not _tails(compiled_with("QUIET_TAIL", False, "checkers"))


@pytest.mark.parametrize(("name", "players", "seeds", "limit"), GAMES)
def test_the_same_games_as_with_the_switch_off(name: str, players: int, seeds: range, limit: int):
    on, off = compiled_with("QUIET_TAIL", True, name), compiled_with("QUIET_TAIL", False, name)
    assert played(on, players, True, seeds, limit, saved=True) == played(off, players, True, seeds, limit, saved=True)


@pytest.mark.parametrize("watched", [False, True])
def test_the_same_traces_through_undo_clones_and_watched_rules(watched: bool):
    on, off = compiled_with("QUIET_TAIL", True, "checkers"), compiled_with("QUIET_TAIL", False, "checkers")
    for seed in (1, 2, 3):
        assert _undone_and_cloned(on, 2, seed, watched) == _undone_and_cloned(off, 2, seed, False)


TAILS = """players Ann, Bob
state
    n: int = 0
    m: int = 0
    k: int = 0
procedure bump
    "Counts to two, then fails at five."
    if n < 2
        add 1 to n
    if m == 5
        set k = 10 // (m - 5)
procedure mark
    "Marks."
    add 1 to k
action go
    "Go: bump is its last call."
    add 1 to m
    do bump
    if m == 9
        finish draw
action again
    "Again: a write after the call."
    do bump
    add 1 to k
action loop
    "In a loop."
    for i in 1..2
        do mark
        do bump
flow
    repeat 6 times
        for p in players
            turn p
                play go, again, loop
"""


def _steps(rules: regelwerk.Ruleset, seed: int) -> tuple:
    g = rules.new_game(players=2, seed=seed, record=True)
    rnd = random.Random(seed)
    error = None
    while not g.is_over:
        try:
            g.apply(rnd.choice(g.legal_actions()))
        except regelwerk.EngineError as err:  # bump fails once m is 5
            error = str(err)
            break
    save = g.to_json()
    save.pop("ruleset_file", None)
    return json.dumps(g.trace, default=str, sort_keys=True), g.result, error, save


def test_a_tail_call_that_writes_fails_or_finishes_makes_the_usual_steps():
    on, off = (compiled_with("QUIET_TAIL", flag, "tails", TAILS) for flag in (True, False))
    assert _tails(on) == {"action go"}  # not `again` (a write follows) nor `loop` (in a loop)
    errors = 0
    for seed in range(12):
        got = _steps(on, seed)
        assert got == _steps(off, seed)
        errors += got[2] is not None
        rules = [s.get("rule") for s in json.loads(got[0]) if "rule" in s]
        assert "bump" in rules  # bump wrote in a step of its own
    assert errors  # some games reach bump's failure


def test_the_tail_form_copied_in_place_makes_the_same_steps_and_errors():
    """`quiet tail inlined` (`CodeGen.QUIET_TAIL_INLINED`): the effect's tail call of `PT_n` is
    a copy of its body, the watched rules' `P_n` call and the steps it makes when it writes or
    fails kept; an error inside is still the procedure's (the copy keeps its lines)."""
    on, off = (compiled_with("QUIET_TAIL_INLINED", flag, "tails", TAILS) for flag in (True, False))
    assert any(c.kind == "quiet tail inlined" for c in on.program(True).choices)
    assert not any(c.kind == "quiet tail inlined" for c in off.program(True).choices)
    errors = []
    for seed in range(12):
        got = _steps(on, seed)
        assert got == _steps(off, seed)
        errors.append(got[2])
    assert any(e is not None and "(in procedure 'bump')" in e for e in errors)
    for name, players, seeds, limit in GAMES[:1]:
        a, b = (compiled_with("QUIET_TAIL_INLINED", flag, name) for flag in (True, False))
        assert played(a, players, True, seeds, limit, saved=True) == played(b, players, True, seeds, limit, saved=True)
        for seed in (1, 2):
            assert _undone_and_cloned(a, players, seed, True) == _undone_and_cloned(b, players, seed, True)
