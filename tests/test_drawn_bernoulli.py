"""`bernoulli(num, den)` as a statement's value is drawn in place (codegen.CodeGen.drawn:
chance_bernoulli's fast path, the SplitMix64 step of rng.step_code, no call per draw; Shogun's
tower draws thousands a game). The same values and generator states as the call
(CodeGen.LOOP_FORMS off) and as a traced game; a script queue, explicit chance, a corrupt
state, a probability out of range, an output above rng.SAFE and, traced, a draw that is noted
(outside a device's roll) all go to `c_bernoulli` from the same state, which draws, notes,
asks or fails as it did: the same traces."""

from __future__ import annotations

import pytest
from regelwerk.interpreter.compiler import codegen
from regelwerk.interpreter.stdlib import rng
from test_rng_draws import TWO64, ref_randbelow, state_before

import regelwerk
from regelwerk import RuleFailure

RULES = """players Ann, Bob
option chance_in: int = 3 "chance in 20"
state
    hits: list bool = []
action draw(k in 1..3)
    "Draw some."
    let den = 10 * k
    let got = []
    for i in 1..20
        let a = bernoulli(chance_in, 20)
        let b = bernoulli(k, den)
        let c = bernoulli(1, 1099511627776)
        let got = got + [a, b, c]
    set hits = got
action odd
    "A probability above one."
    let a = bernoulli(5, 3)
    set hits = [a]
flow
    repeat
        turn Ann
            play draw
"""


def _rules(forms: bool, monkeypatch: pytest.MonkeyPatch) -> regelwerk.Ruleset:
    monkeypatch.setattr(codegen.CodeGen, "LOOP_FORMS", forms)
    return regelwerk.load_text(RULES, "draws.rules")


def _draws(rules: regelwerk.Ruleset, seed: int, record: bool = False, start: int | None = None) -> list:
    g = rules.new_game(seed=seed, record=record)
    if start is not None:
        g.rng = start
    out = []
    for k in (1, 2, 3, 2):
        g.apply(f"draw({k})")
        out.append((g.vars["hits"], g.rng))
    return out


@pytest.mark.parametrize("seed", [0, 1, 7, 12345])
def test_the_same_draws_as_the_call_and_a_traced_game(seed: int, monkeypatch: pytest.MonkeyPatch):
    fast = _rules(True, monkeypatch)
    assert ("drawn in place", "bernoulli(chance_in, 20)") in {(c.kind, c.detail) for c in fast.program(False).choices}
    assert "c_bernoulli(G, _kc" in fast.program(False).source  # the way round is there too
    drawn = _draws(fast, seed)
    assert drawn == _draws(fast, seed, record=True)
    assert drawn == _draws(_rules(False, monkeypatch), seed)
    assert any(any(h for h in hits) for hits, _ in drawn) and not all(all(hits) for hits, _ in drawn)


@pytest.mark.parametrize("output", [rng.SAFE - 1, rng.SAFE, rng.SAFE + 1, TWO64 - 16, TWO64 - 1])
def test_outputs_around_safe_take_the_long_way(output: int, monkeypatch: pytest.MonkeyPatch):
    start = state_before(output)
    g = _rules(True, monkeypatch).new_game()
    g.rng = start
    g.apply("draw(1)")
    drawn, state = ref_randbelow(start, 20)  # the first draw: bernoulli(3, 20)
    assert g.vars["hits"][0] == (drawn < 3)
    assert _draws(_rules(True, monkeypatch), 0, start=start) == _draws(_rules(False, monkeypatch), 0, start=start)


def test_a_script_queue_explicit_chance_and_failures_go_to_the_call(monkeypatch: pytest.MonkeyPatch):
    rules = _rules(True, monkeypatch)
    g = rules.new_game(start=False)
    for _ in range(60):
        g.script("bernoulli", True)
    g.start()
    g.apply("draw(3)")
    assert g.vars["hits"] == [True] * 60
    e = rules.new_game(chance="explicit")
    e.apply("draw(2)")
    assert e.is_chance_node and [w for _v, w in e.chance_outcomes()] == [pytest.approx(0.15), pytest.approx(0.85)]
    for forms in (True, False):  # a corrupt state: the same failure as the call's
        bad = _rules(forms, monkeypatch).new_game()
        bad.rng = -1
        with pytest.raises(RuleFailure, match=r"failed: ValueError: rng state must be an int"):
            bad.apply("draw(1)")
    monkeypatch.setattr(codegen.CodeGen, "LOOP_FORMS", True)
    text = RULES.replace("            play draw", "            play odd")
    odd = regelwerk.load_text(text, "draws.rules").new_game()
    with pytest.raises(RuleFailure, match=r"bernoulli\(5, 3\) is not a probability"):
        odd.apply("odd")


COINS = """players Ann, Bob
state
    total: int = 0
device coins(n: int): int
    "Flip n coins; how many came up heads."
    roll
        let heads = 0
        for i in 1..n
            let h = bernoulli(1, 2)
            if h
                let heads = heads + 1
        result heads
action flip(n in 1..6)
    "Flip some coins and a last one, noted on its own."
    let last = bernoulli(1, 3)
    let heads = coins(n * 10)
    set total = total + heads + (if last then 1 else 0)
flow
    repeat 5 times
        for p in players
            turn p
                play flip
"""


@pytest.mark.parametrize("seed", [0, 3])
def test_a_traced_devices_draws_in_place_and_a_noted_draw_the_call(seed: int, monkeypatch: pytest.MonkeyPatch):
    import json
    import random

    def trace(forms: bool) -> str:
        monkeypatch.setattr(codegen.CodeGen, "LOOP_FORMS", forms)
        g = regelwerk.load_text(COINS, "coins.rules").new_game(seed=seed, record=True)
        rnd = random.Random(seed)
        while not g.is_over:
            g.apply(rnd.choice(g.legal_actions()))
        return json.dumps(g.trace, sort_keys=True, default=str)

    fast = trace(True)
    assert fast == trace(False)
    assert '"bernoulli"' in fast  # the flip's own draw is noted; the device's are not, one by one
