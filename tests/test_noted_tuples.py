"""A traced game notes a step's events and chance draws as tuples made one longer per item, a
phase's events as constant tuples, and keeps an explain function's checks as the tuple it
returns (interpreter/engine/recording.py, the slots' comment): the collector stops tracking a
tuple of untracked items the first time it sees it, where a list or a dict in it stays tracked,
promoted and walked by every collection to the game's end. Pinned here: the generated form, the
kept steps' slots, fewer tracked objects, and the same traces, saves, results and explanations
as before (digests worked out at the base d3f3441, where those were lists and dicts)."""

from __future__ import annotations

import functools
import gc
import hashlib
import json
import random

import pytest
from bundled import RULESETS
from playing import with_undo_and_clone
from regelwerk.interpreter.engine import recording

import regelwerk

# (ruleset, seed, decisions, undo every k decisions: two undone, a clone every 2k) -> digest of
# [trace, result, save without its file name, the explanation of every move offered every
# 5th decision], as the base made them
# (checkers' game 0 ends where nobody can move: since `fused apply` the block keeps the op it
# goes on at in the frame at once, so its finished save's frame says op 4, not the move's op 3)
BASE = {
    ("tictactoe", 0, 20, 0): "43f2c0fe8a765e7d", ("tictactoe", 3, 20, 3): "e4bc30b85cf2cd0d",
    ("checkers", 0, 150, 0): "05e75804fb5024d0", ("shogun", 0, 150, 0): "6b64c47af3ce2244",
    ("shogun", 2, 90, 7): "88447c0021b9e24f", ("root", 0, 200, 0): "d2d3754a1992e4a8",
    ("root", 2, 80, 9): "22ee40b1bdf71dcf", ("khan", 1, 80, 0): "7a1e9de931fce473",
    ("pig", 1, 80, 6): "39aea8f7368e227f", ("offers", 1, 60, 5): "d4ae5e70a82a6131",
}


@functools.cache
def _load(name: str) -> regelwerk.Ruleset:
    return regelwerk.load(RULESETS[name][0])


def _game(name: str, seed: int, limit: int, undo_every: int, record: bool = True) -> tuple[regelwerk.Game, list]:
    """A seeded random game (as in test_flat_records: undo, clones), and the explanations of
    the moves offered at every 5th decision, as JSON."""
    g = _load(name).new_game(players=RULESETS[name][1][0], seed=seed, record=record)
    rnd = random.Random(seed)
    seen: list = []
    n = 0
    while not g.is_over and n < limit:
        moves = g.legal_actions()
        if record and n % 5 == 0:
            for m in moves[:6]:
                ex = g.explain(m)
                seen.append([str(m), ex.legal, ex.reason, ex.checks])
        g.apply(rnd.choice(moves))
        n += 1
        g = with_undo_and_clone(g, n, undo_every)
    return g, seen


def _digest(g: regelwerk.Game, seen: list) -> str:
    save = g.to_json()
    save.pop("ruleset_file", None)  # the folder the tests run in
    text = json.dumps([g.trace, g.result, save, seen], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@pytest.mark.parametrize("case", list(BASE), ids=lambda c: "-".join(map(str, c)))
def test_the_same_traces_saves_results_and_explanations_as_with_lists_and_dicts(case: tuple) -> None:
    assert _digest(*_game(*case)) == BASE[case]


@pytest.mark.parametrize("name", ["shogun", "root"])
def test_untraced_games_are_unchanged(name: str) -> None:
    """The untraced program makes the same moves and results as the traced one."""
    for seed in range(3):
        traced, _ = _game(name, seed, 120, 0)
        plain, _ = _game(name, seed, 120, 0, record=False)
        assert plain.result == traced.result and plain.vars == traced.vars


def test_generated_code_notes_tuples() -> None:
    """Events are added as `st[7] += (ev,)`, a phase's event is a constant tuple and explain
    functions return tuple displays; no list of events or checks is made."""
    src = _load("root").program(True).source
    assert f"st[{recording.EVENTS}] += (" in src
    assert f"st[{recording.EVENTS}].append(" not in src and f"st[{recording.EVENTS}] = [" not in src
    assert "('phase start', 'phase', " in src and "'event': 'phase start'" not in src
    explain = [chunk for chunk in src.split("\ndef ")[1:] if chunk.startswith(("AX_", "AXO_"))]
    assert explain and all("return [" not in chunk for chunk in explain)
    assert sum("return (_ck0," in chunk for chunk in explain) >= len(explain) // 2


@pytest.mark.parametrize("name", ["root", "shogun", "khan", "checkers"])
def test_kept_steps_hold_no_list_of_events_chance_or_checks(name: str) -> None:
    g, _ = _game(name, 4, 150, 0)
    steps = g._steps
    slots = [steps[i + s] for i in recording.step_starts(steps) if type(steps[i]) is str
             for s in (recording.EVENTS, recording.CHANCE, recording.CHECKS)]
    assert slots and all(type(x) is tuple for x in slots)
    assert any(x for x in slots)


def test_a_phase_s_events_leave_nothing_tracked() -> None:
    """Root's steps of phase events only: untracked once the collector has seen them."""
    g, _ = _game("root", 5, 200, 0)
    gc.collect()
    steps = g._steps
    events = [steps[i + recording.EVENTS] for i in recording.step_starts(steps) if type(steps[i]) is str]
    phase_only = [ev for ev in events if ev and all(len(e) == 3 and e[1] == "phase" for e in ev)]
    assert len(phase_only) > 20
    assert not any(gc.is_tracked(ev) for ev in phase_only)


@pytest.mark.parametrize("ev, record", [
    (("phase start", "phase", "setup"), {"event": "phase start", "phase": "setup"}),
    (("goto", "phase", "birdsong"), {"event": "goto", "phase": "birdsong"}),
    (("turn start", "Red"), {"event": "turn start", "player": "Red"}),
    ({"event": "log", "message": "hi"}, {"event": "log", "message": "hi"}),
])
def test_event_records(ev: object, record: dict) -> None:
    assert recording.event_record(ev) == record
    assert list(recording.event_record(ev)) == list(record)  # the keys in the trace's order


def test_a_noted_chance_value_is_kept_as_it_is_now() -> None:
    """`_kept` (a chance event's values, tested for plain values in C): a map of plain values
    copied, a list of them as it is, nested maps copied at each level."""
    flat = {"a": 1, "b": None, "c": "x", "d": True}
    assert recording._kept(flat) == flat and recording._kept(flat) is not flat
    items = ["x", 1, None]
    assert recording._kept(items) is items
    nested = {"a": {"b": 1}, "c": 2}
    kept = recording._kept(nested)
    assert kept == nested and kept["a"] is not nested["a"]
    thrown = [{"red": 2}, {"red": 0}]
    kept = recording._kept(thrown)
    assert kept == thrown and kept is not thrown and kept[0] is not thrown[0]
    flat["a"] = 5
    assert recording._kept(3) == 3 and recording._kept("s") == "s"
