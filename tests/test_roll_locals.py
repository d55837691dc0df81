"""In a device's roll, `G.rng` and `G.work` are held in the locals `_rg` and `_wk` between the
calls that hand the game to other code, and written back before each such call, at the roll's
end and when anything stops it (`roll locals`, interpreter/compiler/rolllocals.py): Shogun's
tower read and wrote the generator's state at each of its thousands of draws and charged each
cube it sorted to `G.work`. The same games, traces, generator states, budget run-outs and
failures, and the game's fields as the roll leaves them when it fails."""

from __future__ import annotations

import json
import random

import pytest
from bundled import BUNDLED
from playing import fresh_with, games_digest
from regelwerk.interpreter.compiler import codegen
from regelwerk.interpreter.engine.errors import BudgetExceeded

import regelwerk
from regelwerk import RuleFailure

RULES = """players Ann, Bob
option p_in_10: int = 3 "chance in 10"
option scale: int = 10 "coins a flip, times n"
state
    total: int = 0
    pick: int = 0
device coins(n: int): int
    "Flip n coins; the heads, and a pick from a list that may be too short."
    roll
        let heads = []
        for i in 1..n
            let h = bernoulli(p_in_10, 10)
            if h
                let heads = heads + [i]
        let extra = [0, 1, 2][pick]
        result len(heads) + extra
action flip(n in 1..6)
    "Flip some coins."
    let heads = coins(n * scale)
    set total = total + heads
action bump(n in 1..2)
    "Move the pick on."
    set pick = pick + n
flow
    repeat 4 times
        for p in players
            turn p
                play flip, bump
"""


def _rules(on: bool, monkeypatch: pytest.MonkeyPatch) -> regelwerk.Ruleset:
    return fresh_with("ROLL_LOCALS", on, RULES, "roll.rules", monkeypatch)


@pytest.mark.parametrize("record", [False, True])
def test_the_roll_holds_the_fields_in_locals(record: bool, monkeypatch: pytest.MonkeyPatch):
    prog = _rules(True, monkeypatch).program(record)
    assert ("roll locals", "device coins") in {(c.kind, c.rule) for c in prog.choices}
    roll = prog.source.split("def DR_0(")[1].split("\ndef ")[0]
    assert "_rg = G.rng" in roll and "_wk -= len(" in roll and "except:" in roll
    drawn = "_rg = _draw_s[" if codegen.CodeGen.BATCHED_DRAWS else "_rg = _s"  # a draw's new state: a batch's
    assert drawn in roll and "G.rng = _s" not in roll and "G.rng = _draw_s" not in roll  # the draws,
    assert "G.work -=" not in roll  # the charges
    off = _rules(False, monkeypatch).program(record)
    assert not any(c.kind == "roll locals" for c in off.choices) and "_rg" not in off.source


def _played(rules: regelwerk.Ruleset, seed: int, record: bool, options: dict) -> tuple:
    g = rules.new_game(seed=seed, record=record, options=options)
    rnd = random.Random(seed)
    moves = 0
    try:
        while not g.is_over:
            g.apply(rnd.choice(g.legal_actions()))
            moves += 1
    except (RuleFailure, BudgetExceeded) as err:
        return "failed", moves, str(err), g.rng, g.work, g.vars["total"]
    return g.vars["total"], g.rng, g.work, json.dumps(g.trace, sort_keys=True, default=str) if record else None


@pytest.mark.parametrize("options", [{}, {"p_in_10": 10}, {"p_in_10": 11}, {"p_in_10": 5, "scale": 3}])
def test_the_same_games_traces_and_failures(options: dict, monkeypatch: pytest.MonkeyPatch):
    """A pick past the list's end fails after the draws (the handler writes the fields back);
    an option out of range sends every draw to `c_bernoulli`, which fails in the call."""
    outcomes = []
    for record in (False, True):
        for seed in range(5):
            held = _played(_rules(True, monkeypatch), seed, record, options)
            assert held == _played(_rules(False, monkeypatch), seed, record, options)
            outcomes.append(held)
    assert any(o[0] == "failed" and "[IndexError]" in o[2] for o in outcomes) or options.get("p_in_10") == 11
    assert any(o[0] != "failed" for o in outcomes) or options.get("p_in_10") == 11


def test_the_budget_runs_out_where_it_did(monkeypatch: pytest.MonkeyPatch):
    outcomes = []
    for on in (True, False):
        rules = _rules(on, monkeypatch)
        rules.set_limits(work_budget=150_000)
        outcomes.append([_played(rules, seed, False, {"p_in_10": 10, "scale": 300}) for seed in range(6)])
    assert outcomes[0] == outcomes[1]
    assert any(o[0] == "failed" and "steps of work" in o[2] for o in outcomes[0])


@pytest.mark.parametrize("record", [False, True])
def test_shogun_plays_the_same_games(record: bool, monkeypatch: pytest.MonkeyPatch):
    def digest(on: bool) -> list:
        monkeypatch.setattr(codegen.CodeGen, "ROLL_LOCALS", on)
        rules = regelwerk.load(BUNDLED["shogun"])
        assert any(c.kind == "roll locals" and c.rule == "device tower" for c in rules.program(record).choices) == on
        return games_digest(rules, 4, range(3) if record else range(10), record)

    assert digest(True) == digest(False)
