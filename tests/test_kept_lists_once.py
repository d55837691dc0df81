"""`kept lists once` (docs/architecture.md §5, `CodeGen.KEPT_ONCE`, keptonce.py): the writes of
entries of a map whose keys are kept by value that follow one another in a statement list look
the map's kept lists up in `G._carried` once, the later ones taking the first's local, where
nothing between them can reach the carried values. Pinned: the form (on the pass alone and in
checkers' program), what it leaves alone, and the same games, saves, results and traces with it
on and off."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from playing import chosen_and_same, compiled_with, switches
from regelwerk.interpreter.compiler.keptonce import kept_once
from treepass import passed, run

WRITES = """def f(G, m, a, b, v):
    o = m[a]
    m[a] = v
    if G._carried:
        kv1 = G._carried.get('=m')
        if kv1 is not None and o is not v:
            kl = kv1.get(o)
            if kl is not None:
                kl.remove(a)
            kl = kv1.get(v)
            if kl is not None:
                _insort(kl, a, key=ORDER.__getitem__)
    G.n = 1
    o2 = m[b]
    m[b] = None
    if G._carried:
        kv2 = G._carried.get('=m')
        if kv2 is not None and o2 is not None:
            kl = kv2.get(o2)
            if kl is not None:
                kl.remove(b)
    return kv2 if G._carried else None
"""
ORDER = {"a": 0, "b": 1, "c": 2}

SLIDES = """players Ann, Bob

board Square = grid 4 x 4

state
    cell: Square -> Player? = none

procedure set_up
    set cell[a1] = Ann
    set cell[b1] = Ann
    set cell[a4] = Bob
    set cell[b4] = Bob

action slide(from: Square, d in [N, E, S, W])
    require cell[from] == current else "not yours"
    let to = neighbour(from, d)
    require to != none else "off the board"
    require cell[to] == none else "taken"
    set cell[to] = current
    clear cell[from]

flow
    do set_up
    repeat 20 times
        for p in players
            turn p
                play slide else finish draw
"""


def _pass(code: str) -> tuple[str, bool]:
    out, _constants, done = passed(code, {}, lambda fn, _made: kept_once(fn))
    return out, done


def _insort(lst: list, x: object, key: object) -> None:
    lst.append(x)
    lst.sort(key=key)  # type: ignore[arg-type]


def test_the_later_write_takes_the_first_lookup() -> None:
    out, done = _pass(WRITES)
    assert done
    assert "kv2 = kv1" in out and out.count("G._carried.get(") == 1
    for carried in ({}, {"=m": {"x": ["b"], None: ["a", "c"]}}, {"=m": {"x": ["b"]}}, {"=x": {}}):
        results = []
        for code in (WRITES, out):
            c = {k: {v: list(ks) for v, ks in d.items()} for k, d in carried.items()}
            G, m = SimpleNamespace(_carried=c), {"a": None, "b": "x", "c": None}
            results.append((run(code, {"ORDER": ORDER, "_insort": _insort}, G, m, "a", "b", "x"), c, m))
        assert results[0] == results[1]


@pytest.mark.parametrize("between", [
    "    G.out_of_work(None)\n",  # a call that could reach the carried values
    "    _keys_with(G)\n",
    "    G._carried = {}\n",  # replaced
    "    G._carried.pop('=m', None)\n",  # changed
    "    kv1 = None\n",  # the first local bound again
])
def test_left_alone(between: str) -> None:
    code = WRITES.replace("    G.n = 1\n", between)
    out, done = _pass(code)
    assert not done and out.count("G._carried.get(") == 2


def test_nested_lists_are_their_own() -> None:
    """A lookup in a branch is not taken by a write after the branch (it may not have run)."""
    code = """def f(G, a):
    if a:
        if G._carried:
            kv1 = G._carried.get('=m')
    if G._carried:
        kv2 = G._carried.get('=m')
    return kv2
"""
    out, done = _pass(code)
    assert not done and out.count("G._carried.get(") == 2


@pytest.mark.parametrize("record", [False, True])
def test_checkers_step_looks_its_lists_up_once(record: bool) -> None:
    def source(on: bool) -> str:
        rules = compiled_with("KEPT_ONCE", on, "checkers")
        with switches((("KEPT_ONCE", on),)):
            return rules.program(record).source

    on, off = source(True), source(False)
    step_on, step_off = (s.split("\ndef AF_")[1].split("\ndef ")[0] for s in (on, off))
    assert step_off.count("G._carried.get('=cell')") == 2
    assert step_on.count("G._carried.get('=cell')") == 1 and re.search(r"_kv\d+ = _kv\d+\n", step_on)


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same("KEPT_ONCE", "kept lists once", "slides", SLIDES, record, "checkers")
