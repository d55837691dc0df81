"""In a flat loop, a round `list i in a..b: v` (v a literal or a local other than `i`) is
written as its count `b + 1 - a`, charged and the result extended by `[v] * n`, with no range
made and no `_charged` call per round (`repeated run`, codegen `repeated_run`): Shogun's tower
lists each colour's cubes so four times a throw. The same lists, the same work charged (so the
budget runs out where it did), the same games and traces."""

from __future__ import annotations

import json
import random

import pytest
from regelwerk.interpreter.compiler import codegen
from regelwerk.interpreter.engine.errors import BudgetExceeded

import regelwerk
from regelwerk import RuleFailure

RULES = """players Ann, Bob
enum Colour = red, green, blue
option many: int = 0 "extra green items"
state
    low: Colour -> int = 0
    high: Colour -> int = 0
    total: int = 0
    made: list Colour = []
define items(counts: Colour -> int): list Colour = flatten(list c in Colour: list i in 1..counts[c]: c)
define spans(): list Colour = flatten(list c in Colour: list i in low[c]..high[c]: c)
define fixed(): list Colour = flatten(list c in Colour: list i in 1..2: c)
action set_up(c: Colour, a in -2..3, b in -1..4)
    "Choose a colour's span."
    set low[c] = a
    set high[c] = b + (if c == green then many else 0)
    set made = items(high) + spans() + fixed()
    set total = total + len(made)
flow
    repeat 3 times
        for p in players
            turn p
                play set_up
"""


def _rules(on: bool, monkeypatch: pytest.MonkeyPatch) -> regelwerk.Ruleset:
    monkeypatch.setattr(codegen.CodeGen, "REPEATED_RUNS", on)
    rules = regelwerk.load_text(RULES, "runs.rules")
    rules.program(False), rules.program(True)  # compiled while the switch holds
    return rules


@pytest.mark.parametrize("record", [False, True])
def test_each_round_is_a_count(record: bool, monkeypatch: pytest.MonkeyPatch):
    prog = _rules(True, monkeypatch).program(record)
    runs = {c.detail for c in prog.choices if c.kind == "repeated run"}
    assert runs == {"list i in 1..counts[c]: c", "list i in low[c]..high[c]: c", "list i in 1..2: c"}
    assert "_charged(" not in prog.source and "len(range(" not in prog.source and "] * _n" in prog.source
    off = _rules(False, monkeypatch).program(record)
    assert not any(c.kind == "repeated run" for c in off.choices) and "_charged(" in off.source


def _played(rules: regelwerk.Ruleset, seed: int, record: bool, many: int = 0) -> tuple:
    g = rules.new_game(seed=seed, record=record, options={"many": many})
    rnd = random.Random(seed)
    made = []
    try:
        while not g.is_over:
            g.apply(rnd.choice(g.legal_actions()))
            made.append(list(g.vars["made"]))
    except (RuleFailure, BudgetExceeded) as err:
        return "failed", str(err)
    return made, g.vars["total"], json.dumps(g.trace, sort_keys=True, default=str) if record else None


@pytest.mark.parametrize("seed", [0, 1, 2, 7])
def test_the_same_lists_games_and_traces(seed: int, monkeypatch: pytest.MonkeyPatch):
    for record in (False, True):
        on = _played(_rules(True, monkeypatch), seed, record)
        assert on == _played(_rules(False, monkeypatch), seed, record)
    assert any(m for m in on[0])


def test_the_budget_runs_out_where_it_did(monkeypatch: pytest.MonkeyPatch):
    """The work charged per round is the count, as `_charged` charged the range's length."""
    outcomes = []
    for on in (True, False):
        rules = _rules(on, monkeypatch)
        rules.set_limits(work_budget=250_000)
        outcomes.append([_played(rules, seed, False, many) for seed in (0, 3) for many in (10_000, 200_000)])
    assert outcomes[0] == outcomes[1]
    assert any(o[0] == "failed" and "steps of work" in o[1] for o in outcomes[0])
    assert any(o[0] != "failed" for o in outcomes[0])
