"""Two forms of the traced code a block plays a move in place with (interpreter/compiler/machine.py):
an effect up to `MAX_INLINE_TRACED` lines is written into the block (a traced write takes three
lines where an untraced one takes one, so the traced variant plays in place what the untraced
does: checkers' `step`, which was a call per move), and the move's step, when a procedure at the
effect's end left an automatic step that noted and wrote nothing (checkers crowns after every
move), is dropped in place as `Game._close` drops it (`recording.move_close_code`). Pinned here:
the forms are made, and the moves, results, traces, saves and undo are those without them."""

from __future__ import annotations

import functools
import json
import random

import pytest
from bundled import RULESETS
from playing import played
from regelwerk.interpreter.compiler import machine
from regelwerk.interpreter.engine import recording

import regelwerk

CASES = [("checkers", range(3), 400), ("shogun", range(1), 150), ("offers", range(2), 60), ("tail", range(6), 40)]
# a procedure that mostly changes nothing, called in the middle of a move's effect (its caller
# writes and notes after it, in a step of its own) and at its end (that step empty, dropped)
TAIL = """game "tail"

players A, B

state
    count: Player -> int = 0
    marks: int = 0

procedure settle(n: int)
    "Most calls change nothing."
    if n > 2
        set marks = 0

action go(n in 1..3)
    add n to count[current]
    do settle(n)
    add 1 to marks
    log "went"

action rest
    do settle(1)

flow
    repeat 4 times
        turn
            play go, rest
    finish ranking p by count[p]
"""
PLAYERS = {"tail": 2}


def _old_move_close(ind: str) -> list[str]:
    """`recording.move_close_code` without the in-place drop: the step kept in place or `_close`."""
    return [f"{ind}st = G._step",
            f"{ind}if st is not None and st[{recording.AUTO}] is False and not G._jdict:",
            *recording.kept_close_code("st", ind + "    "),
            f"{ind}else:",
            f"{ind}    G._close()"]


@functools.cache
def _compiled(name: str, forms: bool) -> tuple[regelwerk.Ruleset, str]:
    """The ruleset, both programs compiled, and the traced one's source (worked out when read:
    read while the patch holds); without the two forms if `forms` is False."""
    mp = pytest.MonkeyPatch()
    if not forms:
        mp.setattr(machine, "MAX_INLINE_TRACED", machine.MAX_INLINE)
        mp.setattr(machine, "move_close_code", _old_move_close)
    try:
        ruleset = regelwerk.load_text(TAIL, "tail.rules") if name == "tail" else regelwerk.load(RULESETS[name][0])
        ruleset.program(False)
        source = ruleset.program(True).source
    finally:
        mp.undo()
    return ruleset, source


def _load(name: str, forms: bool = True) -> regelwerk.Ruleset:
    return _compiled(name, forms)[0]


def test_checkers_plays_its_step_in_the_block_and_drops_the_crowns_empty_step() -> None:
    with_forms, without = _compiled("checkers", True)[1], _compiled("checkers", False)[1]
    step = _load("checkers").program(True).actions["step"].effect.__name__
    assert f"{step}(G, *m[1])" in without and f"{step}(G, *m[1])" not in with_forms
    dropped = "(len(G.journal) == G._jmark):\n                    G._step = None\n                    G._jdict = False\n"
    assert dropped in with_forms and dropped not in without  # the empty automatic step dropped in place


@pytest.mark.parametrize(("name", "seeds", "limit"), CASES, ids=[c[0] for c in CASES])
def test_the_same_games_and_traces_with_and_without(name: str, seeds: range, limit: int) -> None:
    players = PLAYERS.get(name) or RULESETS[name][1][0]
    for record in (False, True):
        assert played(_load(name), players, record, seeds, limit, saved=True) == \
            played(_load(name, False), players, record, seeds, limit, saved=True)


@pytest.mark.parametrize("name", ["checkers", "offers"])
def test_undo_gives_the_same_trace_with_and_without(name: str) -> None:
    def undone(ruleset: regelwerk.Ruleset) -> str:
        g = ruleset.new_game(players=RULESETS[name][1][0], seed=5, record=True)
        rnd = random.Random(5)
        for n in range(1, 50):
            if g.is_over:
                break
            g.apply(rnd.choice(g.legal_actions()))
            if n % 6 == 0:
                try:
                    g.undo()
                except regelwerk.EngineError:  # a move taken back (`abandon`) ends the history
                    pass
        return json.dumps(g.trace, sort_keys=True, default=str)
    assert undone(_load(name)) == undone(_load(name, False))
