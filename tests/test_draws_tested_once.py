"""A device's roll that draws `bernoulli` in place (codegen `drawn`) tests once, at its top,
what the game decides of the draws' fast path: no script queued, no explicit chance, a sound
generator state (`draws tested once`, codegen `roll_draws_test`). Nothing in a roll can queue
a script or set the generator to anything but a state a draw leaves, so each draw then tests
only its own probability. The same games, traces and failures as with the test at every draw."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from regelwerk.interpreter.compiler import codegen
from test_drawn_bernoulli import COINS

import regelwerk
from regelwerk import RuleFailure


def _rules(once: bool, monkeypatch: pytest.MonkeyPatch) -> regelwerk.Ruleset:
    monkeypatch.setattr(codegen.CodeGen, "DRAWS_ONCE", once)
    monkeypatch.setattr(codegen.CodeGen, "SOUND_ONCE", False)  # its own test: test_sound_once.py
    rules = regelwerk.load_text(COINS, "coins.rules")
    rules.program(False), rules.program(True)  # compiled while the switch holds
    return rules


def _played(rules: regelwerk.Ruleset, seed: int, record: bool, scripts: int = 0) -> tuple:
    g = rules.new_game(seed=seed, record=record, start=False)
    for _ in range(scripts):
        g.script("bernoulli", True)
    g.start()
    rnd = random.Random(seed)
    while not g.is_over:
        g.apply(rnd.choice(g.legal_actions()))
    return g.vars["total"], g.rng, json.dumps(g.trace, sort_keys=True, default=str) if record else None


@pytest.mark.parametrize("record", [False, True])
def test_the_roll_tests_the_game_once_and_each_draw_its_probability(record: bool, monkeypatch: pytest.MonkeyPatch):
    prog = _rules(True, monkeypatch).program(record)
    assert ("draws tested once", "bernoulli(1, 2)") in {(c.kind, c.detail) for c in prog.choices}
    roll = prog.source.split("def DR_0(")[1].split("\ndef ")[0]
    assert roll.count(f"{codegen.ROLL_DRAWS} = not (G.scripted or G.explicit)") == 1
    assert f"if not {codegen.ROLL_DRAWS} or not 0 <= 1 <= 2:" in roll and roll.count("G.scripted") == 1
    flip = prog.source.split("def AF_")[1]  # the flip's own draw, outside the roll: tested in full
    assert codegen.ROLL_DRAWS not in flip and "G.scripted or G.explicit" in flip
    assert not any(c.kind == "draws tested once" for c in _rules(False, monkeypatch).program(record).choices)


@pytest.mark.parametrize("seed", [0, 5])
@pytest.mark.parametrize("scripts", [0, 7])
def test_the_same_games_traces_and_scripted_draws(seed: int, scripts: int, monkeypatch: pytest.MonkeyPatch):
    """With a script queued when a roll starts, its draws go the long way (the queue's outcomes
    first, then the generator), as when each draw tested it."""
    for record in (False, True):
        once = _played(_rules(True, monkeypatch), seed, record, scripts)
        assert once == _played(_rules(False, monkeypatch), seed, record, scripts)
    assert once[0] >= (scripts - 1 if scripts else 1)


def test_explicit_chance_and_a_corrupt_state_as_before(monkeypatch: pytest.MonkeyPatch):
    for once in (True, False):
        rules = _rules(once, monkeypatch)
        e = rules.new_game(chance="explicit")
        e.apply("flip(1)")
        nodes = 0
        while e.is_chance_node:  # the flip's own draw, then the roll's ten, each a node of its own
            assert [w for _v, w in e.chance_outcomes()] == ([Fraction(1, 3), Fraction(2, 3)] if nodes == 0 else [Fraction(1, 2)] * 2)
            e.apply(True)
            nodes += 1
        assert nodes == 11 and e.vars["total"] == 11
    first = COINS.replace("    let last = bernoulli(1, 3)\n    let heads = coins(n * 10)",
                          "    let heads = coins(n * 10)\n    let last = bernoulli(1, 3)")
    assert first != COINS
    for once in (True, False):  # the roll's first draw meets the corrupt state: the call's failure
        monkeypatch.setattr(codegen.CodeGen, "DRAWS_ONCE", once)
        bad = regelwerk.load_text(first, "coins.rules").new_game()
        bad.rng = -1
        with pytest.raises(RuleFailure, match=r"rng state must be an int"):
            bad.apply("flip(2)")
