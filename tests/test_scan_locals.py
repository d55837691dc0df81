"""In a scanned loop (machine.py `scanned`), the block's locals the test reads are read from the
frame once per scan and the work budget's counter is kept in a local while the scan goes on
(`scan locals`, machine.py `scan_held`): Shogun's summer tested `o.act == a and owner[o.province]
== p` reading `a` and `p` from the frame, and charged `G.work`, for every planned card. The same
frames wherever the block stops (saves), the same work charged, the same games and traces."""

from __future__ import annotations

import pytest
from bundled import BUNDLED
from playing import fresh_with, games_digest, positions_played
from regelwerk.interpreter.compiler import codegen

import regelwerk

RULES = """players Ann, Bob
state
    marks: Player -> list int = []
    total: int = 0
    size: int = 6
    low: int = 6
procedure bump(n: int)
    set total = total + n
action mark(n in 1..9)
    "Mark a number."
    add n to marks[current]
action grow(n in 1..3)
    "Make the rounds longer."
    set size = size + n * 40000
action lower(n in 1..3)
    "Make the bar lower."
    set low = low - n
flow
    repeat 3 times
        for p in players
            turn p
                play mark, grow, lower
        for p in players
            let bar = low
            for x in marks[p]
                if x > bar and p != none
                    do bump(x)
                    turn p
                        play grow, lower
            for i in 1..size
                if i < 0 or i == bar + 100000000
                    turn p
                        play mark
            for j in 1..size
                if j == size - 1
                    do bump(j)
            for k in 1..size
                if k < 0
                    turn p
                        play mark
"""


def _rules(on: bool, monkeypatch: pytest.MonkeyPatch) -> regelwerk.Ruleset:
    return fresh_with("SCAN_LOCALS", on, RULES, "scan.rules", monkeypatch)


@pytest.mark.parametrize("record", [False, True])
def test_the_scans_hold_their_locals(record: bool, monkeypatch: pytest.MonkeyPatch):
    prog = _rules(True, monkeypatch).program(record)
    held = {c.detail for c in prog.choices if c.kind == "scan locals"}
    assert held == {"bar, p in x > bar and p != none", "bar in i < 0 or i == bar + 100000000"}
    assert "_wk -= 1" in prog.source and "L['bar']" not in prog.source.split("while i < n:")[1].split("else:")[0]
    off = _rules(False, monkeypatch).program(record)
    assert not any(c.kind == "scan locals" for c in off.choices) and "_wk" not in off.source
    assert any(c.kind == "scanned loop" for c in off.choices)


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
        played = [_played(rules, seed, False) for seed in range(6)]
        outcomes.append([(len(p), p[-2:]) for p in played])  # where it ran out: after as many moves
    assert outcomes[0] == outcomes[1]
    assert all("steps of work" in o[1][0] for o in outcomes[0])  # after a scan that found an item


def test_shogun_plays_the_same_games(monkeypatch: pytest.MonkeyPatch):
    def digest(on: bool) -> list:
        monkeypatch.setattr(codegen.CodeGen, "SCAN_LOCALS", on)
        rules = regelwerk.load(BUNDLED["shogun"])
        assert any(c.kind == "scan locals" and c.rule == "procedure:season_round"
                   for c in rules.program(False).choices) == on
        return games_digest(rules, 4, range(8), False) + games_digest(rules, 4, range(2), True)

    assert digest(True) == digest(False)


def test_khan_plays_the_same_games(monkeypatch: pytest.MonkeyPatch):
    """Khan's `ask_consent` scan (`if consent`, no block local read) keeps the work counter in a local."""
    def digest(on: bool) -> list:
        monkeypatch.setattr(codegen.CodeGen, "SCAN_LOCALS", on)
        rules = regelwerk.load(BUNDLED["khan"])
        assert ("_wk = G.work" in rules.program(False).source) == on
        return games_digest(rules, 3, range(4), False) + games_digest(rules, 3, range(1), True)

    assert digest(True) == digest(False)
