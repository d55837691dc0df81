"""A traced game keeps its closed steps and its journal flat (interpreter/engine/recording.py,
WIDTH and ENTRY): a step's slots and a write's entry are appended to one list per game, so a
traced game keeps no list per step and no tuple per write for the collector to count and walk.
Pinned here: the layout, the generated code's form, and the same traces, saves and results as
before it (digests of the games below worked out at the base 2b6b1c4, where each step was a list
and each entry a tuple), through undo, clones and traces read in the middle of a game."""

from __future__ import annotations

import functools
import hashlib
import json
import random

import pytest
from bundled import RULESETS
from playing import played, with_undo_and_clone
from regelwerk.interpreter.engine import recording

import regelwerk

# (ruleset, seed, decisions, undo every k decisions: two undone, a clone every 2k) -> digest of
# [trace, result, save without its file name], as the base made them
# (checkers' game 0 ends where nobody can move: since `fused apply` the block keeps the op it
# goes on at in the frame at once, so its finished save's frame says op 4, not the move's op 3)
BASE = {
    ("checkers", 0, 400, 0): "1d500c13ced14bdd", ("checkers", 1, 60, 7): "49744150feba9c1f",
    ("shogun", 0, 150, 0): "eebc5db744a3110b", ("shogun", 1, 80, 9): "419f7d02e80c9007",
    ("root", 0, 150, 0): "ab9faf2f5cc0bae4", ("root", 1, 60, 9): "a84ed1978804a28a",
    ("khan", 0, 80, 0): "b78abf1cd2e44dd2", ("offers", 0, 60, 5): "fd5ad73282398a56",
    ("pig", 2, 80, 6): "39d34f2d983f0dc0",
}


@functools.cache
def _load(name: str) -> regelwerk.Ruleset:
    return regelwerk.load(RULESETS[name][0])


def _digest(g: regelwerk.Game) -> str:
    save = g.to_json()
    save.pop("ruleset_file", None)  # the folder the tests run in
    return hashlib.sha256(json.dumps([g.trace, g.result, save], sort_keys=True, default=str).encode()).hexdigest()[:16]


def _game(name: str, seed: int, limit: int, undo_every: int, read_every: int = 0) -> regelwerk.Game:
    """A seeded random traced game; every `undo_every` decisions two taken back, every second
    time the game cloned and played on as its copy; the trace read every `read_every`."""
    g = _load(name).new_game(players=RULESETS[name][1][0], seed=seed, record=True)
    rnd = random.Random(seed)
    n = 0
    while not g.is_over and n < limit:
        g.apply(rnd.choice(g.legal_actions()))
        n += 1
        if read_every and n % read_every == 0:
            assert len(g.trace) == sum(1 for _ in recording.step_starts(g._steps))
        g = with_undo_and_clone(g, n, undo_every)
    return g


@pytest.mark.parametrize("case", list(BASE), ids=lambda c: "-".join(map(str, c)))
def test_the_same_traces_saves_and_results_as_with_a_list_per_step_and_a_tuple_per_write(case: tuple) -> None:
    assert _digest(_game(*case)) == BASE[case]
    assert _digest(_game(*case, read_every=11)) == BASE[case]  # cooked in pieces along the way


@pytest.mark.parametrize("name", ["checkers", "shogun", "root"])
def test_steps_and_entries_are_kept_flat(name: str) -> None:
    g = _game(name, 3, 120, 0)
    steps, journal = g._steps, g.journal
    assert len(journal) % recording.ENTRY == 0 and journal
    starts = list(recording.step_starts(steps))
    firsts = [steps[i] for i in starts]
    assert all(type(s) in (str, tuple, dict) for s in firsts)  # a key, a flow's turns, the result
    assert sum(type(s) is str for s in firsts) > 10
    # a step under its key has WIDTH slots, a flow's turns and the result one (no padding)
    assert [b - a for a, b in zip(starts, [*starts[1:], len(steps)], strict=True)] == \
        [recording.WIDTH if type(s) is str else 1 for s in firsts]
    assert None not in firsts
    assert not any(type(x) is list and len(x) == recording.WIDTH for x in steps)  # no step list kept
    assert not any(type(x) is tuple and len(x) == recording.ENTRY for x in journal)  # no entry tuple
    assert [e[4] for e in recording.entries(journal)] == journal[4::recording.ENTRY]
    source = _load(name).program(True).source
    assert "J.extend((" in source and "J.append((" not in source
    assert "G._steps.extend(" in source and "G._steps.extend((" not in source  # a step list's slots


@pytest.mark.parametrize("name", ["checkers", "shogun"])
def test_traced_and_untraced_games_make_the_same_moves(name: str) -> None:
    players = RULESETS[name][1][0]
    untraced = played(_load(name), players, False, range(2), 60)
    traced = played(_load(name), players, True, range(2), 60)
    assert [x for x in untraced if type(x) is list] == [x for x in traced if type(x) is list]
    assert [x[0] for x in untraced if type(x) is tuple] == [x[0] for x in traced if type(x) is tuple]
