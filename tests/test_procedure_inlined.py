"""`procedure inlined` (codegen `procedure_inlined`, `CodeGen.PROCEDURE_INLINED`): untraced,
outside blocks, `do p(...)` of a small procedure that calls none is the procedure's statements
in place, its parameters the arguments (a name or literal as it is, anything else worked out
into a local once, where the call made it). The form on a small ruleset (what it takes and what
it leaves), checkers' crown, the same games and failures with and without."""

from __future__ import annotations

import re

import pytest
from playing import chosen_and_same, compiled_with, source_with

RACE = """game "Race"
players Ann, Bob
state
    pos: Player -> int = 0
    best: int = 0
    hops: int = 0
procedure advance(n: int)
    "Move on; twelve wins."
    add n to pos[current]
    if pos[current] > best
        set best = pos[current]
    if pos[current] >= 12
        finish winner current
procedure bump(n: int)
    "Two advances."
    add 1 to hops
    do advance(n)
    do advance(n)
procedure check_hops
    "At most five hops."
    require hops <= 5 else "too many hops"
action step(n in 1..3)
    "Step on."
    do advance(n + 1)
action hop
    "Hop twice."
    require pos[current] < 9 else "too far to hop"
    do bump(1)
    do check_hops
flow
    do check_hops
    repeat
        turn
            play step, hop
"""


def _function(src: str, name: str) -> str:
    return ("\n" + src).split(f"\ndef {name}(")[1].split("\ndef ")[0]


def _ids(rules: object) -> dict[str, str]:
    prog = rules.program(False)  # type: ignore[attr-defined]
    return {n: ref.__name__ for n, (kind, ref) in prog.procedures.items() if kind == "fn"}


def test_a_leaf_procedure_is_written_where_it_is_called() -> None:
    on, off = source_with("PROCEDURE_INLINED", True, "race", RACE), source_with("PROCEDURE_INLINED", False, "race", RACE)
    ids = _ids(compiled_with("PROCEDURE_INLINED", True, "race", RACE))
    advance, bump, check = ids["advance"], ids["bump"], ids["check_hops"]
    # step's effect: the argument `n + 1` worked out once into a local, the body in place, the
    # finish ending the effect as the call's `return True` did
    assert f"{advance}(G, p0 + 1)" in off and f"{advance}(G" not in on.replace(f"def {advance}(", "")
    assert "G.finish('winner', [_cur]" in _function(on, "AF_" + on.split("def AF_")[1].split("(")[0])
    assert re.search(r"_pa\d+ = p0 \+ 1", on)
    # bump calls procedures: its own call stays, the leaf calls inside it are inlined
    assert f"{bump}(G, 1)" in on and f"{advance}(G" not in _function(on, bump)
    # a leaf without parameters in hop's effect; in the flow's block, calls stay calls
    hop = [_function(on, n) for n in re.findall(r"\ndef (AF_\d+)\(", on)]
    assert any("too many hops" in f and f"{check}(G)" not in f for f in hop)
    assert f"if {check}(G):" in _function(on, "B_0")


def test_traced_programs_keep_their_calls() -> None:
    rules = compiled_with("PROCEDURE_INLINED", True, "race", RACE)
    assert not any(c.kind == "procedure inlined" for c in rules.program(True).choices)
    assert any(c.kind == "procedure inlined" for c in rules.program(False).choices)


def test_checkers_crowns_in_place() -> None:
    on, off = source_with("PROCEDURE_INLINED", True, "checkers"), source_with("PROCEDURE_INLINED", False, "checkers")
    crown = _ids(compiled_with("PROCEDURE_INLINED", True, "checkers"))["crown"]
    assert f"if {crown}(G, " in off and f"if {crown}(G, " not in on
    assert "] = _mover" in on  # the king set in the block's copy of step's effect


def test_a_failure_inside_is_the_same() -> None:
    """A require of an inlined procedure fails with its own message, a hop too many."""
    from regelwerk import RuleFailure

    for on in (True, False):
        g = compiled_with("PROCEDURE_INLINED", on, "race", RACE).new_game(seed=1)
        with pytest.raises(RuleFailure, match="too many hops"):
            for _ in range(12):
                g.apply(next(m for m in g.legal_actions() if m.name == "hop"))


def test_an_error_inside_is_the_procedures() -> None:
    """The copy keeps the procedure's lines: a Python error in it is reported in the procedure."""
    from regelwerk import RuleFailure

    text = RACE.replace('require hops <= 5 else "too many hops"', "set best = best // (5 - hops)")
    seen = []
    for on in (True, False):
        rules = compiled_with("PROCEDURE_INLINED", on, "race_div", text)
        assert on == any(c.detail == "check_hops" for c in rules.program(False).choices if c.kind == "procedure inlined")
        g = rules.new_game(seed=1)
        with pytest.raises(RuleFailure) as err:
            for _ in range(12):
                g.apply(next(m for m in g.legal_actions() if m.name == "hop"))
        seen.append(str(err.value))
    assert seen[0] == seen[1] and "(in procedure 'check_hops')" in seen[0]


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    if record:
        rules = (compiled_with("PROCEDURE_INLINED", on, "race", RACE) for on in (True, False))
        assert len({r.program(True).source for r in rules}) == 1
        return
    chosen_and_same("PROCEDURE_INLINED", "procedure inlined", "race", RACE, record, "checkers")


def test_a_scenario_given_calls_the_procedure() -> None:
    """A scenario's `given` is compiled alone, without the procedures' functions to copy: its
    `do` stays a call of the program's procedure."""
    from regelwerk.interpreter.compiler.compile import compile_stmts

    rules = compiled_with("PROCEDURE_INLINED", True, "race", RACE)
    g = rules.new_game(seed=1)
    prog = g.prog
    stmts = prog.model.actions["hop"].body[-1:]  # `do check_hops`
    compile_stmts(prog, stmts)(g)
