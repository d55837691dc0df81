"""`explained lets inlined` (actiongen `_explain_lines`, `CodeGen.EXPLAINED_LETS_INLINED`): an
action's explain function writes each `let` as statements, a small definition written in
place, as its check function does. A traced move played in place works its checks out from a
copy of that function, so connect four's `let s = lowest_free(col)` was a Python call a move.
The explanations, games and traces are the same with it on and off."""

from __future__ import annotations

import random
import re

import pytest
from playing import chosen_and_same, compiled_with, fresh_with, switches

FLAG = "EXPLAINED_LETS_INLINED"

# two lets before the requires (the second reads the first), one small definition each
STACKS = """game "Stacks"
players A, B
board Sq = grid 3 x 3
state
    cell: Sq -> Player? = none
    n: int = 0
define lowest(col: int) = first s in column_squares(col) where cell[s] == none
define filled(col: int) = count s in column_squares(col) where cell[s] != none
action drop(col in 1..3)
    "Drop into a column; not onto a full one."
    let s = lowest(col)
    let k = filled(col) + (count t in column_squares(col) where t == s)
    require s != none else "full"
    require k <= 3 else "too high"
    set cell[s] = current
    add 1 to n
    if n == 9
        finish draw
flow
    repeat
        turn
            play drop
"""


def explain_source(on: bool) -> str:
    """The traced program's explain function of `drop`."""
    rules = compiled_with(FLAG, on, "stacks", STACKS)
    with switches(((FLAG, on),)):
        prog = rules.program(True)
        source = prog.source
    name = prog.actions["drop"].explain.__name__
    return ("\n" + source).split(f"\ndef {name}(")[1].split("\ndef ")[0]


def test_lets_written_in_place() -> None:
    """On: the explain function calls no definition (both lets are loops in place); off: it
    calls both."""
    assert not re.search(r"\bD_\d+\(", explain_source(True))
    assert len(re.findall(r"\bD_\d+\(", explain_source(False))) == 2


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same(FLAG, "explained lets inlined", "stacks", STACKS, record, "connect4")


def test_the_same_explanations() -> None:
    """Every column's explanation, legal or full, at every position of seeded games, the same
    with the switch on and off (traced and untraced programs)."""
    seen = 0
    for record in (False, True):
        games = [compiled_with(FLAG, on, "stacks", STACKS).new_game(seed=3, record=record) for on in (True, False)]
        rnd = random.Random(5)
        for _ in range(40):
            if games[0].is_over:
                games = [g.ruleset.new_game(seed=3, record=record) for g in games]
            for col in range(1, 4):
                move = f"drop({col})"
                with switches(((FLAG, True),)):
                    on = repr(games[0].explain(move))
                with switches(((FLAG, False),)):
                    off = repr(games[1].explain(move))
                assert on == off
                seen += "full" in on
            move = rnd.choice(games[0].legal_actions())
            for g in games:
                g.apply(str(move))
    assert seen, "some column was full: the failing check was explained too"


def test_checks_that_fail_in_place_leave_the_lets_worked_out_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """An error inside the definition written in place (its library call made to fail once)
    leaves the move's checks empty and the lets worked out again outside them, as the call
    did: the move is played, its changes the same."""
    rules = fresh_with(FLAG, True, STACKS, "stacks.rules", monkeypatch)
    ns = rules.program(True).block_fns[0].__globals__
    real = ns["b_column_squares"]
    calls = []

    def failing_once(*args):  # the move's checks call it first (the listing's answers are kept)
        calls.append(args)
        if len(calls) == 1:
            raise KeyError("made to fail")
        return real(*args)

    g = rules.new_game(seed=3, record=True)
    first = g.legal_actions()[0]
    for name in [n for n, v in ns.items() if isinstance(v, dict) and n.startswith("_T")]:
        monkeypatch.setitem(ns, name, {})  # the column tables' memos forgotten: computed anew
    monkeypatch.setitem(ns, "b_column_squares", failing_once)
    g.apply(first)
    step = [s for s in g.trace if s["kind"] == "action"][0]
    assert step["checks"] == [] and len(calls) >= 2
    assert step["changes"] == [{"path": "cell[a1]", "old": None, "new": "A"}, {"path": "n", "old": 0, "new": 1}]
