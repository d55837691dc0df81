"""A listing keyed by rows (actiongen `_Listing.keyed_rows`: the inner parameter's bindings
found once per key) of an action of two parameters with a complete move table adds a row's
moves by `out.extend(map(table[p0].__getitem__, rows))` (Shogun's `assign(a, q)` lists some
thirty moves a decision), and the search that stops at the first move (`possible`,
CompiledAction.any) answers true only when that row is not empty. The same moves in the same
order as without the form (CodeGen.LOOP_FORMS off)."""

from __future__ import annotations

import random

import pytest
from bundled import BUNDLED
from regelwerk.interpreter.compiler import codegen

import regelwerk

CLAIM = """players Ann, Bob
enum Act = war, tax, build
enum Land = north, south
state
    done: Act -> bool = false
    held: Land -> bool = false
action claim(a: Act, q: Land)
    "Claim a land with an act not used yet."
    require not done[a] else "that act is used"
    require not held[q] else "that land is held"
    set done[a] = true
    set held[q] = true
flow
    repeat 3 times
        for p in players
            turn p
                play claim else finish draw
"""


def _played(forms: bool, seed: int, monkeypatch: pytest.MonkeyPatch) -> tuple[list, list]:
    monkeypatch.setattr(codegen.CodeGen, "LOOP_FORMS", forms)
    rules = regelwerk.load_text(CLAIM, "claim.rules")
    claim = rules.program(False).actions["claim"]
    g, rnd = rules.new_game(seed=seed), random.Random(seed)
    listed, found = [], []
    while not g.is_over:
        moves = g.legal_actions()
        listed.append([str(m) for m in moves])
        found.append((bool(claim.any(g)), any(str(m).startswith("claim(") for m in moves)))
        g.apply(rnd.choice(moves))
    found.append((bool(claim.any(g)), False))  # an act is left, but no land: no claim is possible
    return listed, found


@pytest.mark.parametrize("seed", range(4))
def test_the_same_moves_and_the_first_move_found_only_when_there_is_one(seed: int, monkeypatch: pytest.MonkeyPatch):
    fast = _played(True, seed, monkeypatch)
    assert fast == _played(False, seed, monkeypatch)
    assert all(a == b for a, b in fast[1]), fast[1]
    assert fast[1][-1] == (False, False) and fast[1][0] == (True, True)


def test_a_row_of_moves_is_looked_up_by_map(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(codegen.CodeGen, "LOOP_FORMS", True)
    source = regelwerk.load_text(CLAIM, "claim.rules").program(False).source
    assert "out.extend(map(_M" in source and "legal.extend(map(_M" in source
    shogun = regelwerk.load(BUNDLED["shogun"]).program(False).source
    assert "out.extend(map(_M" in shogun  # assign(a, q)
