"""`step closed in place` (`CodeGen.AUTO_CLOSED_IN_PLACE`, recording.auto_close_code): where
traced code ends an automatic step (a procedure's or device's at its end, its caller's as it
starts), the common case of `_close` there, a step that wrote and noted nothing, is written out:
its first entry tested in place, the others by `_changed_after`, kept as the range of the
journal it wrote, or dropped when no write changed anything; any other step is closed by the
call. Pinned here: the code's form on a small ruleset, and the same games, traces and saves
with the switch on and off (steps kept and dropped alike, through undo, clones and watched
rule entries)."""

from __future__ import annotations

import pytest
from bundled import BUNDLED
from playing import chosen_and_same, compiled_with, switches
from test_quiet_procedures import _undone_and_cloned

import regelwerk

FLAG = "AUTO_CLOSED_IN_PLACE"

# `bump` is quiet (it only writes); `same` writes `n` as it is first (its step is kept only when
# the write after changed something, `_changed_after`), or nothing at all (dropped); `told` logs
# (its step noted something: `_close`); `both` calls another procedure
STEPS = """players Ann, Bob
state
    n: int = 0
    m: int = 0
procedure bump
    "Counts to two."
    if n < 2
        add 1 to n
procedure same
    "Writes n as it is, then m maybe."
    set n = n
    if m < 3
        add 1 to m
procedure told
    "Logs."
    log "told"
    add 1 to m
procedure both
    "Calls another."
    do same
    add 2 to m
action go
    "Go."
    do bump
    add 1 to m
    do same
    do told
    do both
flow
    repeat 3 times
        for p in players
            turn p
                play go
"""


def _traced(on: bool) -> str:
    """The traced program's text with the switch `on` (`source` compiles it again)."""
    rules = compiled_with(FLAG, on, "steps", STEPS)
    with switches(((FLAG, on),)):
        return rules.program(True).source


def _fn(source: str, name: str) -> str:
    return ("\n" + source).split(f"\ndef {name}(")[1].split("\ndef ")[0]


def test_the_close_is_written_out_where_a_procedure_ends_and_its_caller_s_step_ends():
    on, off = _traced(True), _traced(False)
    bump_on, bump_off = _fn(on, "P_0"), _fn(off, "P_0")  # quiet: it wrote, so its step is closed
    assert "G._changed_after(jm)" in bump_on and "G._close()" not in bump_on.split("finally:")[1]
    assert "_changed_after" not in bump_off and "G._close()" in bump_off.split("finally:")[1]
    same_on = _fn(on, "P_1")  # it only writes too: quiet
    assert "G._changed_after(jm)" in same_on
    both_on, both_off = _fn(on, "P_3"), _fn(off, "P_3")  # the usual steps: the test, then the call
    assert both_on.count("G._changed_after(G._jmark)") == 3  # the caller's step, and two at the pop
    assert "G._close()" in both_on  # any other step: the call
    assert "_changed_after" not in both_off
    assert "_changed_after" not in compiled_with(FLAG, True, "steps", STEPS).program(False).source


def test_the_same_games_with_and_without():
    chosen_and_same(FLAG, "step closed in place", "steps", STEPS, True, "shogun")


def test_steps_kept_and_dropped_as_the_call_keeps_and_drops_them():
    """The small ruleset's trace: a procedure step kept where a write after the first changed
    something, none where nothing changed."""
    traces = []
    for on in (True, False):
        g = compiled_with(FLAG, on, "steps", STEPS).new_game(seed=0, record=True)
        while not g.is_over:
            g.apply(g.legal_actions()[0])
        traces.append(g.trace)
    assert traces[0] == traces[1]
    rules = [s.get("rule") for s in traces[0]]
    assert "same" in rules  # kept while m < 3 (n written as it was, m changed)
    # once m is 3 or more, `same` changes nothing: no step of its own
    assert rules.count("same") < 2 * 6


@pytest.mark.parametrize(("name", "players"), [("shogun", 4), ("root", 2), ("checkers", 2)])
def test_the_same_traces_through_undo_clones_and_watched_rules(name: str, players: int):
    on = compiled_with(FLAG, True, name)
    off = compiled_with(FLAG, False, name)
    assert any(c.kind == "step closed in place" for c in on.program(True).choices)
    for seed, watched in ((1, False), (2, True)):
        assert _undone_and_cloned(on, players, seed, watched) == _undone_and_cloned(off, players, seed, False)


def test_bundled_rulesets_compile_with_it():
    for name in ("khan", "root", "shogun", "checkers"):
        source = regelwerk.load(BUNDLED[name]).program(True).source
        compile(source, name, "exec")
