"""The bridge's first walk of a tree and Python's cyclic garbage collector
(regelwerk/openspiel_memo.py `to_old_generation`): the objects a memo's first walk makes live
as long as the game, so they go straight to the collector's oldest generation instead of being
examined again and again as young garbage. That must change no collector setting, leave a
caller's frozen objects frozen, leave no garbage in reference cycles behind (it would wait for
the next full collection), and stop when the memo is full."""

from __future__ import annotations

import gc
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import cfr, get_all_states  # noqa: E402

from regelwerk.openspiel import load_game  # noqa: E402

RULES = Path(__file__).resolve().parent.parent / "rulesets" / "examples"


def _load(name: str, **params: object) -> object:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load_game(RULES / f"{name}.rules", **params)


def _walk(game: object) -> dict:
    return get_all_states.get_all_states(game, -1, False, False, to_string=lambda s: s.history_str())


@contextmanager
def _young_collections() -> Iterator[list[int]]:
    """How many young (generation 0 and 1) collections ran inside the block."""
    out: list[int] = []
    before = [s["collections"] for s in gc.get_stats()]
    yield out
    after = [s["collections"] for s in gc.get_stats()]
    out.append(after[0] - before[0] + after[1] - before[1])


def _settings() -> tuple:
    return gc.isenabled(), gc.get_threshold(), gc.get_freeze_count(), gc.get_debug()


def test_a_first_walk_runs_without_young_collections() -> None:
    game = _load("leduc")
    gc.collect()
    with _young_collections() as ran:
        states = _walk(game)
    assert len(states) == 3780
    # before: about 100 young collections (one per 700 new objects), and a full one
    assert ran[0] <= 5, ran


def test_no_collector_setting_changes_and_frozen_objects_stay_frozen() -> None:
    before = _settings()
    _walk(_load("kuhn"))
    assert _settings() == before
    kept = [[i] for i in range(100)]  # objects a caller froze (a server before it forks)
    gc.freeze()
    try:
        assert gc.get_freeze_count() >= len(kept)
        solver = cfr.CFRSolver(_load("leduc"))
        solver.evaluate_and_update_policy()
        tracked = {id(o) for o in gc.get_objects()}  # every generation but the frozen objects
        assert not any(id(k) in tracked for k in kept)  # still frozen: not thawed by the bridge
    finally:
        gc.unfreeze()
    was = gc.get_threshold()
    gc.disable()
    try:
        _walk(_load("kuhn"))
        assert not gc.isenabled() and gc.get_threshold() == was and gc.get_freeze_count() == 0
    finally:
        gc.enable()


def test_a_first_walk_leaves_no_cyclic_garbage() -> None:
    """What the walk drops is freed at once: nothing waits in a cycle for a full collection."""
    for name in ("kuhn", "leduc"):
        game = _load(name)
        gc.collect()
        gc.disable()
        try:
            solver = cfr.CFRSolver(game)
            solver.evaluate_and_update_policy()
            found = gc.collect()
        finally:
            gc.enable()
        assert found == 0, (name, found)


def test_beyond_a_full_memo_the_collector_runs_as_usual() -> None:
    game = _load("leduc", memo=100)
    gc.collect()
    with _young_collections() as ran:
        _walk(game)
    assert ran[0] >= 20, ran
