"""The fused apply's own steps (interpreter/compiler/fusedsteps.py, `CodeGen.FUSED_STEPS_TRIMMED`,
and machine.py `_decision_kept`, `CodeGen.DECISION_KEPT`): the move's arguments unpacked once,
the block's move signal left out, the current player taken from the local it was set from; the
frame left at the decision's op (and, untraced, the listing as it was) while the move plays, set on every other way out. The same games, saves, traces and failures,
and the same game left behind by a failure, with each switch on and off."""

from __future__ import annotations

import re

import pytest
from playing import Held, chosen_and_same, compiled_with, source_with, switches
from test_fused_apply import FAILS, LISTING_FAILS
from test_lean_apply import _moves_and_errors
from test_listing_follows import GRAVITY, TWICE

from regelwerk import BudgetExceeded, EngineError, RuleFailure

TRIMMED, KEPT = "FUSED_STEPS_TRIMMED", "DECISION_KEPT"

# a move whose effect runs past a small work budget (`go(2)`): not a Python error, so it
# leaves the fused apply by its other handler (played once: each round writes a traced entry)
RUNS_LONG = """players X, O
state
    n: int = 0
action go(k in 1..2)
    "Go; the second kind goes on for long."
    add 1 to n
    if k == 2
        for i in 1..1000000
            add 1 to n
flow
    repeat
        turn
            play go
"""


def _fused(flag: str, on: bool, name: str, record: bool = False, held: Held = ()) -> str:
    if not record:
        source = source_with(flag, on, name, held=held)
    else:
        with switches(((flag, on), *held)):
            source = compiled_with(flag, on, name, held=held).program(True).source
    return ("\n" + source).split("\ndef BA_")[1].split("\ndef ")[0]


@pytest.mark.parametrize("record", [False, True])
def test_tictactoe_unpacks_its_move_once_and_reads_the_next_player_from_its_local(record: bool) -> None:
    # the listing after the move tests it again, its argument unpacked a second time (with
    # `removed where offered` the move is dropped untested: nothing to unpack)
    held = (("REMOVED_WHERE_OFFERED", False),)
    on, off = _fused(TRIMMED, True, "tictactoe", record, held), _fused(TRIMMED, False, "tictactoe", record, held)
    assert on.count("p0, = action[1]") == 1 and not re.search(r"\bm = ", on) and "who = nxt_p" in on
    assert off.count("p0, = ") == 2 and "m = None" in off and "m = action" in off and "who = G.current" in off
    assert any(c.kind == "fused steps trimmed" for c in compiled_with(TRIMMED, True, "tictactoe").program(record).choices)
    if record:  # the turn's step: made on the way back, so never none there; the player read before
        assert "rt = None" not in on and "rt is None" not in on and "rt is not None" not in on
        assert "G._next[_tp0]" in on and "G._steps.append(rt)" in on and "G._reopen_turns(rt)" in on
        assert "rt = None" in off and "if rt is None:" in off and "G._next[G.current]" in off


@pytest.mark.parametrize("record", [False, True])
def test_tictactoe_leaves_its_frame_at_the_decision_while_the_move_plays(record: bool) -> None:
    # (`finish at close` sets the frame's op where the game ends, as `_after_traced_kept` does)
    held = (("FINISH_AT_CLOSE", False),)
    on, off = _fused(KEPT, True, "tictactoe", record, held), _fused(KEPT, False, "tictactoe", record, held)
    after = "_after_traced" if record else "_after_block"
    assert "F[1] = 2\n" not in on.split("except _RULE_ERRORS")[0] and "F[1] = 1\n" not in on
    assert f"return {after}_kept(G, True, F, 1)" in on and "except _ANY_ERROR:" in on
    assert "F[1] = 2\n" in off.split("except _RULE_ERRORS")[0] and f"return {after}(G, True)" in off
    # untraced, the listing is left as it was too
    assert ("G._legal = G.pending = None" in on.split("try:")[0]) is record
    assert "G.pending = None" in on.split("try:")[0]


@pytest.mark.parametrize("flag", [TRIMMED, KEPT])
@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(flag: str, record: bool) -> None:
    kind = "fused steps trimmed" if flag == TRIMMED else "fused apply"
    chosen_and_same(flag, kind, "twice", TWICE, record, bundled="connect4")
    chosen_and_same(flag, kind, "gravity", GRAVITY, record, bundled="checkers")


@pytest.mark.parametrize("flag", [TRIMMED, KEPT])
@pytest.mark.parametrize("record", [False, True])
def test_every_way_of_handing_a_move_over_answers_the_same(flag: str, record: bool) -> None:
    for name in ("tictactoe", "connect4"):
        on, off = compiled_with(flag, True, name), compiled_with(flag, False, name)
        for seed in range(4):
            assert _moves_and_errors(on, seed, record) == _moves_and_errors(off, seed, record)


def _left_by_failure(flag: str, on: bool, name: str, text: str, moves: list[str], record: bool,
                     budget: int | None = None) -> tuple:
    """What a failing move reports and the game it leaves: its frames, listing, pending
    decision, what `legal_actions` answers then, and its save."""
    rules = compiled_with(flag, on, name, text)
    assert rules.program(record).fused_apply is not None
    g = rules.new_game(seed=0, record=record)
    if budget is not None:
        g.work_budget = budget
    try:
        for move in moves:
            g.apply(next(m for m in g.legal_actions() if str(m) == move))
    except (RuleFailure, BudgetExceeded) as err:
        reported = (type(err).__name__, str(err), g.step_no)
    else:
        raise AssertionError("no failure")
    try:
        listed: object = [str(m) for m in g.legal_actions()]
    except EngineError as err:
        listed = str(err)
    return reported, [list(f) for f in g.frames], g.pending, g._legal, listed, g.to_json()


@pytest.mark.parametrize("flag", [TRIMMED, KEPT])
@pytest.mark.parametrize("record", [False, True])
@pytest.mark.parametrize("text,name,moves,budget", [
    (FAILS, "fails", ["a(1)", "a(2)", "a(3)"], None),  # a Python error in the effect
    (LISTING_FAILS, "listing_fails", ["a(1)"], None),  # in the next listing
    (RUNS_LONG, "runs_long", ["go(1)", "go(2)"], 500),  # the work budget, in the effect
])
def test_a_failure_leaves_the_same_game(flag: str, record: bool, text: str, name: str, moves: list[str],
                                        budget: int | None) -> None:
    on = _left_by_failure(flag, True, name, text, moves, record, budget)
    assert on == _left_by_failure(flag, False, name, text, moves, record, budget)
    assert on[1][-1][1] != 1 and on[3] is None  # the frame past the decision's op, no listing


@pytest.mark.parametrize("record", [False, True])
def test_a_finished_game_is_left_as_before(record: bool) -> None:
    for name in ("tictactoe", "connect4"):
        on, off = compiled_with(KEPT, True, name), compiled_with(KEPT, False, name)
        for seed in range(6):
            games = [rules.new_game(seed=seed, record=record) for rules in (on, off)]
            for g in games:
                while not g.is_over:
                    g.apply(g.legal_actions()[seed % len(g.legal_actions())])
            assert games[0].to_json() == games[1].to_json() and games[0].frames == games[1].frames
            assert games[0]._legal is None and games[0].pending is None and games[0].legal_actions() == []
