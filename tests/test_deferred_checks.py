"""`deferred checks` (interpreter/compiler/actiongen.py `deferred_checks`, machine.py, recording.py
`deferred_explain`): a traced move played in place whose checks read state only at entries its
effect writes first keeps no checks, only a mark, and they are worked out from the step's own
journal entries when the trace is read. Pinned here: which actions take it (the form of the
block's code), and the same traces, saves and results as the switch off gives, through undo,
clones, changes from outside the rules, a move not listed in its state and a step whose
changes are worked out at once (a record written whole). And `state kept for checks` (compile.py
`state_kept`, recording.py `kept_explain`), below."""

from __future__ import annotations

import json
import random

from playing import chosen_and_same, compiled_with, played, without_fused
from regelwerk.interpreter.engine.recording import (
    AUTO,
    BINDINGS,
    CHANGES,
    CHECKS,
    STATE_KEPT,
    WIDTH,
    step_starts,
)
from test_quiet_procedures import _undone_and_cloned

import regelwerk

MARKS = """
game "Marks"
players A, B
board Square = grid 3 x 3
state
    cell: Square -> Player? = none
    count: int = 0
define free(s: Square) = cell[s] == none
action mark(s: Square)
    require count < 40 else "too late"
    require cell[s] == none else "taken"
    set cell[s] = current
    add 1 to count
    if count >= 14
        finish draw
action wipe(s: Square)
    require cell[s] == current else "not yours"
    add 1 to count
    if count >= 14
        finish draw
    clear cell[s]
action via(s: Square)
    require free(s) else "taken"
    set cell[s] = current
    add 1 to count
    if count >= 14
        finish draw
action swap(s: Square, t: Square)
    require cell[s] == current else "not yours"
    require cell[t] == none else "taken"
    add 1 to count
    clear cell[s]
    set cell[t] = current
    if count >= 14
        finish draw
action flip(s: Square)
    require cell[s] == current else "not yours"
    clear cell[s]
    set cell[s] = current
    add 1 to count
    if count >= 14
        finish draw
flow
    repeat
        turn
            play mark, wipe, via, swap, flip
"""

# a record written whole (`G._jdict`): the move's changes, and so its checks, worked out at once
RECORDS = """
game "Champions"
players A, B
record Unit(hp: int)
board Square = grid 2 x 2
state
    cell: Square -> Player? = none
    champ: Player -> Unit? = none
    moves: int = 0
action train(s: Square)
    require cell[s] == none else "taken"
    set cell[s] = current
    set champ[current] = Unit(hp: 5)
    add 1 to moves
    if moves == 4
        finish draw
action hurt
    require champ[current] != none and champ[current].hp > 0
    set champ[current].hp = champ[current].hp - 1
    add 1 to moves
    if moves == 4
        finish draw
flow
    repeat
        turn
            play train, hurt
"""


def _deferred(rules: regelwerk.Ruleset) -> set[str]:
    return {c.rule for c in rules.program(True).choices if c.kind == "deferred checks"}


def _traced_source(on: bool, name: str, text: str | None) -> str:
    """The traced program's text of `compiled_with(...)` (`source` compiles it again: the switch
    set while it does)."""
    from regelwerk.interpreter.compiler.codegen import CodeGen

    rules = compiled_with("DEFERRED_CHECKS", on, name, text)
    before = CodeGen.DEFERRED_CHECKS
    CodeGen.DEFERRED_CHECKS = on
    try:
        return rules.program(True).source
    finally:
        CodeGen.DEFERRED_CHECKS = before


def test_which_moves_defer_their_checks() -> None:
    on = compiled_with("DEFERRED_CHECKS", True, "marks", MARKS)
    # wipe writes its entry only after an `if` (which can finish the game first); via reads it
    # through a definition
    assert _deferred(on) == {"action mark", "action swap", "action flip"}
    source = without_fused(_traced_source(True, "marks", MARKS))  # the blocks' own lines, once
    assert source.count("_dst[2] = False") == 1  # mark: the listing's kept entry with it
    assert "_dst[4] = xp[0]" in source
    assert source.count("G._step[2] = False") == 2  # swap, flip: nothing kept, only the mark
    assert "_dst" not in on.program(False).source and "_step[2] = False" not in on.program(False).source
    off = compiled_with("DEFERRED_CHECKS", False, "marks", MARKS)
    assert not _deferred(off) and "_step[2] = False" not in _traced_source(False, "marks", MARKS)
    assert _deferred(compiled_with("DEFERRED_CHECKS", True, "checkers")) == {"action step"}
    assert _deferred(compiled_with("DEFERRED_CHECKS", True, "tictactoe")) == {"action place"}


def test_the_same_games_with_the_switch_off() -> None:
    chosen_and_same("DEFERRED_CHECKS", "deferred checks", "marks", MARKS, True, "checkers")
    on, off = (compiled_with("DEFERRED_CHECKS", flag, "tictactoe") for flag in (True, False))
    assert played(on, None, True, range(20), 20, saved=True) == played(off, None, True, range(20), 20, saved=True)


def test_the_checks_are_those_the_move_saw() -> None:
    g = compiled_with("DEFERRED_CHECKS", True, "marks", MARKS).new_game(record=True)
    for move in ("mark(b2)", "mark(a1)"):
        g.apply(next(a for a in g.legal_actions() if str(a) == move))
    for move in ("swap(b2, c3)", "flip(a1)"):
        g.apply(next(a for a in g.legal_actions() if str(a) == move))
    checks = [s["checks"] for s in g.trace if s["decision"]]
    assert [c["values"] for c in checks[0]] == [
        {"count": 0, "count < 40": True},
        {"s": "b2", "cell[s]": None, "cell[s] == none": True}]
    assert [c["values"] for c in checks[2]] == [
        {"s": "b2", "cell[s]": "A", "cell[s] == current": True, "current": "A"},
        {"t": "c3", "cell[t]": None, "cell[t] == none": True}]
    # the first of the step's two entries of cell[a1] holds what the check saw
    assert [c["values"] for c in checks[3]] == [
        {"s": "a1", "cell[s]": "B", "cell[s] == current": True, "current": "B"}]


def test_the_same_traces_through_undo_and_clones() -> None:
    for name, text in (("marks", MARKS), ("checkers", None), ("tictactoe", None)):
        on, off = (compiled_with("DEFERRED_CHECKS", flag, name, text) for flag in (True, False))
        for seed in (1, 2, 3):
            assert _undone_and_cloned(on, 2, seed, False) == _undone_and_cloned(off, 2, seed, False)


def _outside(rules: regelwerk.Ruleset, seed: int) -> str:
    """A traced game whose state is changed from outside the rules now and then (the entries
    a deferred check read among them), its trace read only at the end and before a clone."""
    g = rules.new_game(seed=seed, record=True)
    rnd = random.Random(seed)
    n = 0
    while not g.is_over and n < 200:
        g.apply(rnd.choice(g.legal_actions()))
        n += 1
        if n % 5 == 0 and not g.is_over:
            cell = g.vars["cell"]
            for sq in list(cell)[:3]:
                cell[sq] = None
            g.invalidate()
        if n % 9 == 0:
            g = g.clone()
    return json.dumps([g.trace, g.result], default=str, sort_keys=True)


def test_changes_from_outside_the_rules_leave_the_checks_as_they_were() -> None:
    for name, text in (("marks", MARKS), ("checkers", None)):
        on, off = (compiled_with("DEFERRED_CHECKS", flag, name, text) for flag in (True, False))
        for seed in (1, 2):
            assert _outside(on, seed) == _outside(off, seed)


def test_a_move_not_listed_in_its_state_is_explained_at_once() -> None:
    """No kept entries (the listing's values forgotten): the block explains the move itself."""
    rules = compiled_with("DEFERRED_CHECKS", True, "marks", MARKS)
    g = rules.new_game(record=True)
    move = g.legal_actions()[0]
    g._xpre = {}
    g.apply(move)
    steps = g._steps
    st = next(steps[i:i + WIDTH] for i in step_starts(steps) if type(steps[i]) is str and not steps[i + AUTO])
    assert st[BINDINGS] is None and [c[0] for c in st[CHECKS]] == [0, 1]  # worked out by the block
    decided = [s for s in g.trace if s["decision"]]
    assert [c["require"] for c in decided[0]["checks"]] == ["count < 40", "cell[s] == none"]


def test_a_step_with_a_record_written_whole_works_its_checks_out_at_once() -> None:
    on, off = (compiled_with("DEFERRED_CHECKS", flag, "champions", RECORDS) for flag in (True, False))
    # hurt: its one require needs no parameter, the listing's kept entry all its checks
    assert _deferred(on) == {"action train", "action hurt"} and "G._jdict = True" in on.program(True).source
    assert played(on, None, True, range(6), 50, saved=True) == played(off, None, True, range(6), 50, saved=True)
    g = on.new_game(record=True)
    for _ in range(2):
        g.apply(next(a for a in g.legal_actions() if a.name == "train"))
    steps = g._steps
    decided = [steps[i:i + WIDTH] for i in step_starts(steps) if type(steps[i]) is str and not steps[i + AUTO]]
    assert len(decided) == 2
    for st in decided:  # settled when the step closed: its entries are not kept
        assert st[BINDINGS] is None and [c[0] for c in st[CHECKS]] == [0] and type(st[CHANGES]) is tuple


# ---------------------------------------------------------------- state kept for checks
# A move explained by Game._take_recorded (a list argument: not worked out in the block) whose
# explain reads only plain state, the mover and the work budget keeps copies of that state and
# is explained when the trace is read (compile.state_kept, recording.kept_explain).
PATHS = """
game "Paths"
players A, B
board Square = grid 3 x 3
state
    cell: Square -> Player? = none
    count: int = 0
define routes(p: Player) = [[a1, a2], [b1, b2], [c1, c2], [a3, b3], [c3, b2], [a1, b2, c3]]
define open_path(path: list Square) = all s in path: cell[s] == none
define mine(path: list Square) = any s in path: cell[s] == current
action lay(path in routes(current))
    require count + len(path) < 30 else "too late"
    require open_path(path) else "blocked"
    for s in path
        set cell[s] = current
    add 1 to count
action raze(path in routes(current))
    require round < 40 and mine(path) else "nothing of yours"
    for s in path
        clear cell[s]
    add 1 to count
    if count >= 12
        finish draw
flow
    repeat
        turn
            play lay, raze else finish draw
"""


def test_which_moves_keep_the_state_their_checks_read() -> None:
    on = compiled_with("STATE_KEPT_CHECKS", True, "paths", PATHS)
    kept = {n: a.state_kept for n, a in on.program(True).actions.items()}
    assert kept == {"lay": ("cell", "count"), "raze": None}  # raze reads `round`, a game field
    assert {c.rule for c in on.program(True).choices if c.kind == "state kept for checks"} == {"action lay"}
    assert all(a.state_kept is None for a in on.program(False).actions.values())
    off = compiled_with("STATE_KEPT_CHECKS", False, "paths", PATHS)
    assert all(a.state_kept is None for a in off.program(True).actions.values())
    assert compiled_with("STATE_KEPT_CHECKS", True, "checkers").program(True).actions["jump"].state_kept \
        == ("cell", "king")


def test_kept_state_the_same_games_with_the_switch_off() -> None:
    chosen_and_same("STATE_KEPT_CHECKS", "state kept for checks", "paths", PATHS, True, "checkers")


def test_kept_state_the_same_traces_through_undo_clones_and_outside_changes() -> None:
    for name, text in (("paths", PATHS), ("checkers", None)):
        on, off = (compiled_with("STATE_KEPT_CHECKS", flag, name, text) for flag in (True, False))
        for seed in (1, 2, 3):
            assert _undone_and_cloned(on, 2, seed, False) == _undone_and_cloned(off, 2, seed, False)
            assert _outside(on, seed) == _outside(off, seed)


def test_the_kept_state_is_what_the_move_saw() -> None:
    g = compiled_with("STATE_KEPT_CHECKS", True, "paths", PATHS).new_game(record=True)
    for move in ("lay([a1, a2])", "lay([b1, b2])", "raze([a1, a2])"):
        g.apply(next(a for a in g.legal_actions() if str(a) == move))
    steps = g._steps
    decided = [steps[i:i + WIDTH] for i in step_starts(steps) if type(steps[i]) is str and not steps[i + AUTO]]
    assert [st[BINDINGS] is STATE_KEPT for st in decided] == [True, True, False]
    assert decided[1][CHECKS][1]["a1"] == "A" and decided[1][CHECKS][1]["b1"] is None  # a copy, as it was
    checks = [s["checks"] for s in g.trace if s["decision"]]
    assert checks[1][1]["values"] == {"path": ["b1", "b2"], "open_path(path)": True}
    assert checks[1][0]["values"]["count"] == 1
