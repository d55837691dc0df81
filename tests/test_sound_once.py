"""A device roll's draw `bernoulli(p, d)` whose `p` is a literal or a constant or option of the
rules, and `d` a literal, tests `0 <= p <= d` once at the roll's top with the game's part of
the fast path (`sound once`, codegen `sound_once`): Shogun's tower tested its two options at
every one of its thousands of draws. The same games, traces and failures as the test per draw."""

from __future__ import annotations

import json
import random

import pytest
from regelwerk.interpreter.compiler import codegen

import regelwerk
from regelwerk import RuleFailure

RULES = """players Ann, Bob
option p_in_10: int = 3 "chance in 10"
state
    total: int = 0
device coins(n: int): int
    "Flip n coins of each kind; how many came up heads."
    roll
        let heads = 0
        for i in 1..n
            let h = bernoulli(p_in_10, 10)
            if h
                let heads = heads + 1
            let f = bernoulli(1, 2)
            if f
                let heads = heads + 100
        result heads
action flip(n in 1..6)
    "Flip some coins."
    let heads = coins(n * 10)
    set total = total + heads
flow
    repeat 4 times
        for p in players
            turn p
                play flip
"""


def _rules(on: bool, monkeypatch: pytest.MonkeyPatch) -> regelwerk.Ruleset:
    monkeypatch.setattr(codegen.CodeGen, "SOUND_ONCE", on)
    rules = regelwerk.load_text(RULES, "sound.rules")
    rules.program(False), rules.program(True)  # compiled while the switch holds
    return rules


@pytest.mark.parametrize("record", [False, True])
def test_the_probability_is_tested_at_the_roll_top(record: bool, monkeypatch: pytest.MonkeyPatch):
    prog = _rules(True, monkeypatch).program(record)
    assert ("sound once", "p_in_10") in {(c.kind, c.detail) for c in prog.choices}
    roll = prog.source.split("def DR_0(")[1].split("\ndef ")[0]
    fd = codegen.ROLL_DRAWS
    assert f"{fd}0 = {fd} and 0 <= _kc0 <= 10" in roll and f"if not {fd}0:" in roll
    assert f"if not {fd}:" in roll  # the literal 1 in 2: sound when compiled
    assert "<= 10:" not in roll and "<= 2:" not in roll
    off = _rules(False, monkeypatch).program(record)
    assert not any(c.kind == "sound once" for c in off.choices)
    assert f"if not {fd} or not 0 <= _kc0 <= 10:" in off.source


def _played(rules: regelwerk.Ruleset, seed: int, record: bool, p: int) -> tuple:
    g = rules.new_game(seed=seed, record=record, options={"p_in_10": p})
    rnd = random.Random(seed)
    try:
        while not g.is_over:
            g.apply(rnd.choice(g.legal_actions()))
    except RuleFailure as err:
        return "failed", str(err), g.rng
    return g.vars["total"], g.rng, json.dumps(g.trace, sort_keys=True, default=str) if record else None


@pytest.mark.parametrize("p", [3, 0, 10, 11, -1])
def test_the_same_games_traces_and_failures(p: int, monkeypatch: pytest.MonkeyPatch):
    """An option out of range sends every draw to `c_bernoulli`, which fails as before."""
    for record in (False, True):
        for seed in (0, 4):
            once = _played(_rules(True, monkeypatch), seed, record, p)
            assert once == _played(_rules(False, monkeypatch), seed, record, p)
    assert (once[0] == "failed") == (p in (11, -1))
