"""`safe in batch` (CodeGen.SAFE_IN_BATCH, codegen `safe_in_batch`): a device roll's batched draw
makes one test, that the batch's `before` entry is the generator's state, since rng.draws puts
None there for an output above rng.SAFE as for a batch used up; the draw keeps no copy of the
state and no output in a local and makes no comparison with SAFE. Pinned: the batch's entries,
the draw's form on and off, and the same games, traces, generator states and budget run-outs
with and without it, around outputs above SAFE too."""

from __future__ import annotations

import re

import pytest
from playing import chosen_and_same, fresh_with
from regelwerk.interpreter.compiler import codegen
from regelwerk.interpreter.stdlib import rng
from test_batched_draws import RULES, _played
from test_rng_draws import GAMMA, TWO64, ref_next, state_before

import regelwerk


def _compares_safe(code: str) -> bool:
    """Whether generated code compares an output with rng.SAFE (written in hex or decimal)."""
    return f"{rng.SAFE:#x}" in code or str(rng.SAFE) in code


def _rules(on: bool, monkeypatch: pytest.MonkeyPatch) -> regelwerk.Ruleset:
    return fresh_with("SAFE_IN_BATCH", on, RULES, "safe.rules", monkeypatch)


@pytest.mark.parametrize("at", [0, 1, 17, rng.DRAWS - 1])
@pytest.mark.parametrize("output", [rng.SAFE, rng.SAFE + 1, TWO64 - 1])
def test_a_batch_has_no_state_before_an_output_above_safe(at: int, output: int):
    state = (state_before(output) - at * GAMMA) % TWO64
    outputs, states, before = rng.draws(state)
    assert outputs[at] == output
    s = state
    for i in range(rng.DRAWS):
        z, after = ref_next(s)
        assert (outputs[i], states[i]) == (z, after)
        assert before[i] is None if z > rng.SAFE else before[i] == s
        s = after
    assert before[-1] is None


@pytest.mark.parametrize("record", [False, True])
def test_one_test_a_draw(record: bool, monkeypatch: pytest.MonkeyPatch):
    on = _rules(True, monkeypatch).program(record)
    roll = on.source.split("def DR_0(")[1].split("\ndef ")[0]
    assert ("safe in batch", "bernoulli(p_in_10, 10)") in {(c.kind, c.detail) for c in on.choices}
    assert f"{codegen.DRAW_BEFORE}[{codegen.DRAW_AT}] is _rg" in roll  # the roll's state in a local
    assert not _compares_safe(roll) and not re.search(r"\b_z\d", roll)  # no output kept, no comparison
    assert roll.count("_draws_from(") == 2 and roll.count("c_bernoulli(G, ") == 4
    off = _rules(False, monkeypatch).program(record)
    off_roll = off.source.split("def DR_0(")[1].split("\ndef ")[0]
    assert not any(c.kind == "safe in batch" for c in off.choices)
    assert _compares_safe(off_roll) and "_draws_from(" in off_roll


@pytest.mark.parametrize("at", [0, 1, rng.DRAWS - 1, rng.DRAWS, rng.DRAWS + 3])
@pytest.mark.parametrize("output", [rng.SAFE, rng.SAFE + 1, TWO64 - 1])
def test_an_output_above_safe_takes_the_long_way(at: int, output: int, monkeypatch: pytest.MonkeyPatch):
    start = (state_before(output) - at * GAMMA) % TWO64
    for record in (False, True):
        for seed in range(3):
            assert _played(_rules(True, monkeypatch), seed, record, {}, start) == \
                _played(_rules(False, monkeypatch), seed, record, {}, start)


@pytest.mark.parametrize("options", [{}, {"p_in_10": 10}, {"p_in_10": 11}])
def test_the_same_games_traces_and_failures(options: dict, monkeypatch: pytest.MonkeyPatch):
    for record in (False, True):
        for seed in range(5):
            assert _played(_rules(True, monkeypatch), seed, record, options) == \
                _played(_rules(False, monkeypatch), seed, record, options)


def test_the_budget_runs_out_where_it_did(monkeypatch: pytest.MonkeyPatch):
    outcomes = []
    for on in (True, False):
        rules = _rules(on, monkeypatch)
        rules.set_limits(work_budget=150_000)
        outcomes.append([_played(rules, seed, False, {"p_in_10": 10, "scale": 300}) for seed in range(6)])
    assert outcomes[0] == outcomes[1]
    assert any(o[0] == "failed" and "steps of work" in o[2] for o in outcomes[0])


@pytest.mark.parametrize("record", [False, True])
def test_chosen_and_the_same_games_as_without(record: bool):
    text = RULES.replace("[pick]", "[pick % 3]")  # games that play to their end
    chosen_and_same("SAFE_IN_BATCH", "safe in batch", "safe", text, record, "shogun")
