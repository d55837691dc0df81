"""While moves are listed, a call of a definition whose body is `any r in K: m[r] == x` is
`x in` the set of m's values made once for the listing (codegen.CodeGen.held_call), also where
the call is not inlined because an `and` may skip it: Khan's `free(s)` ends with `not
ruler_on(s)`, which was a remembered call per square. (A `require`'s `and` and `or` are now
tested part by part, `split test`, where the call is inlined and its `any` is the same look-up;
a held call remains for such an `and` elsewhere, as in a `let`.) The moves listed stay the
same."""

from __future__ import annotations

import random

import pytest
from regelwerk.interpreter.compiler import codegen

import regelwerk

RULERS = """players Ann, Bob
board Sq = grid 3 x 3
enum Ruler = red, blue
state
    ruler_at: Ruler -> Sq? = {red: b2}
    stone: Sq -> Player? = none
define ruler_on(s: Sq): bool = any r in Ruler: ruler_at[r] == s
action put(s: Sq)
    "A stone where no ruler stands."
    let open = stone[s] == none and not ruler_on(s)
    require open else "taken"
    set stone[s] = current
action walk(r in [red, blue], s: Sq)
    "A ruler walks to a free square."
    require ruler_at[r] != s else "already there"
    require stone[s] == none or ruler_on(s) else "a stone is there"
    set ruler_at[r] = s
flow
    repeat 6 times
        for p in players
            turn p
                play put, walk
"""


def test_a_held_call_lists_the_same_moves_as_a_call(monkeypatch: pytest.MonkeyPatch):
    held = regelwerk.load_text(RULERS, "rulers.rules")
    assert {c.detail for c in held.program(False).choices if c.kind == "held values"} == {"ruler_on(s)"}
    monkeypatch.setattr(codegen.CodeGen, "held_call", lambda *_args: None)
    plain = regelwerk.load_text(RULERS, "rulers.rules")
    assert not any(c.kind == "held values" for c in plain.program(False).choices)
    for seed in range(8):
        a, b = held.new_game(seed=seed), plain.new_game(seed=seed)
        rnd = random.Random(seed)
        while not a.is_over:
            moves = [str(m) for m in a.legal_actions()]
            assert moves == [str(m) for m in b.legal_actions()]
            assert all(a.explain(f"put({s})").checks == b.explain(f"put({s})").checks for s in ("a1", "b2"))
            pick = rnd.choice(moves)
            a.apply(pick)
            b.apply(pick)
        assert a.vars == b.vars
