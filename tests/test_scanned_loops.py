"""A block's `for x in xs` whose body is `if C: ...` with C a test that cannot fail passes over
the items failing C in one plain loop, not a trip round the block's `pc` ladder and a new slot
list per item (`scanned loop`, machine.py `scanned`): Shogun's summer goes through every planned
card of every player for each action space. The same frames wherever the block stops (saves),
the same work charged, the same games and traces."""

from __future__ import annotations

import json
import random

import pytest
from playing import fresh_with, positions_played
from regelwerk.interpreter.compiler import codegen

import regelwerk

RULES = """players Ann, Bob
state
    marks: Player -> list int = []
    total: int = 0
    size: int = 6
procedure bump(n: int)
    set total = total + n
action mark(n in 1..9)
    "Mark a number."
    add n to marks[current]
action grow(n in 1..3)
    "Make the rounds longer."
    set size = size + n * 40000
flow
    repeat 3 times
        for p in players
            turn p
                play mark, grow
        for p in players
            for x in marks[p]
                if x > 6 and p != none
                    do bump(x)
                    turn p
                        play grow
            for x in marks[p]
                if x % 5 == 9
                    turn p
                        play mark
            for i in 1..size
                if i < 0
                    turn p
                        play mark
            for j in 1..size
                if j < 0 or j == 100000000
                    turn p
                        play mark
"""


def _rules(on: bool, monkeypatch: pytest.MonkeyPatch) -> regelwerk.Ruleset:
    return fresh_with("SCANNED_LOOPS", on, RULES, "scan.rules", monkeypatch)


@pytest.mark.parametrize("record", [False, True])
def test_the_loops_scan(record: bool, monkeypatch: pytest.MonkeyPatch):
    prog = _rules(True, monkeypatch).program(record)
    scanned = {c.detail for c in prog.choices if c.kind == "scanned loop"}
    assert scanned == {"for x ... if x > 6 and p != none", "for i ... if i < 0",
                       "for j ... if j < 0 or j == 100000000"}  # not `x % 5`: a remainder may fail
    assert "while i < n:" in prog.source
    off = _rules(False, monkeypatch).program(record)
    assert not any(c.kind == "scanned loop" for c in off.choices) and "while i < n:" not in off.source


def _played(rules: regelwerk.Ruleset, seed: int, record: bool) -> list:
    return positions_played(rules, seed, record, "total")


@pytest.mark.parametrize("seed", [0, 2, 3])
def test_the_same_frames_games_and_traces(seed: int, monkeypatch: pytest.MonkeyPatch):
    for record in (False, True):
        on = _played(_rules(True, monkeypatch), seed, record)
        assert on == _played(_rules(False, monkeypatch), seed, record)
    assert len(on) > 6


def test_the_budget_runs_out_where_it_did(monkeypatch: pytest.MonkeyPatch):
    outcomes = []
    for on in (True, False):
        rules = _rules(on, monkeypatch)
        rules.set_limits(work_budget=150_000)
        outcomes.append([_played(rules, seed, False)[-2:] for seed in range(6)])
    assert outcomes[0] == outcomes[1]
    assert any("steps of work" in o[0] and "at line" not in o[0] for o in outcomes[0])  # in the rounds


def test_shogun_plays_the_same_games(monkeypatch: pytest.MonkeyPatch):
    def digest(on: bool) -> list:
        monkeypatch.setattr(codegen.CodeGen, "SCANNED_LOOPS", on)
        rules = regelwerk.load("rulesets/shogun/shogun.rules")
        assert any(c.kind == "scanned loop" and c.rule == "procedure:season_round"
                   for c in rules.program(False).choices) == on
        out = []
        for record, seeds in ((False, range(8)), (True, range(2))):
            for s in seeds:
                g = rules.new_game(players=4, seed=s, record=record)
                rnd = random.Random(s)
                while not g.is_over:
                    g.apply(rnd.choice(g.legal_actions()))
                out.append(json.dumps([g.result, g.rng, g.trace if record else None], sort_keys=True, default=str))
        return out

    assert digest(True) == digest(False)
