"""A scanned loop whose work counter is held in a local (`scan locals`) passes over its items
uncharged where the counter covers a charge for each item left, and charges their number where
the scan stops (`scan charged after`, machine.py `scan_charged_after`): Shogun's summer scans
`plan[p]` for each act and player, some 1,400 items passed over a game, each charged 1 with a
subtraction and a test. The counter must come out the same after every move, the budget run out
where it did, and the games, frames and traces be the same."""

from __future__ import annotations

import random

import pytest
from bundled import BUNDLED
from playing import fresh_with, games_digest, positions_played
from regelwerk.interpreter.compiler import codegen
from test_scan_locals import RULES

import regelwerk


def _rules(on: bool, monkeypatch: pytest.MonkeyPatch) -> regelwerk.Ruleset:
    return fresh_with("SCAN_CHARGED_AFTER", on, RULES, "scan.rules", monkeypatch)


@pytest.mark.parametrize("record", [False, True])
def test_the_scans_charge_where_they_stop(record: bool, monkeypatch: pytest.MonkeyPatch):
    prog = _rules(True, monkeypatch).program(record)
    chosen = {c.detail for c in prog.choices if c.kind == "scan charged after"}
    assert chosen == {"for x ... if x > bar and p != none", "for i ... if i < 0 or i == bar + 100000000",
                      "for k ... if k < 0"}
    src = prog.source
    assert src.count("if _wk >= n - i:") == 3 and src.count("G.work = _wk - (i - i0 - 1)") == 3
    assert src.count("G.work = _wk - (n - i0)") == 3
    fast = src.split("if _wk >= n - i:")[1].split("    else:")[0]
    assert "_wk -= 1" not in fast and "out_of_work" not in fast
    off = _rules(False, monkeypatch).program(record)
    assert not any(c.kind == "scan charged after" for c in off.choices)
    assert "_wk >= n - i" not in off.source and "_wk -= 1" in off.source


def _counters(rules: regelwerk.Ruleset, seed: int, record: bool) -> list:
    """The work counter and the work counted before it after every move of a seeded game."""
    g = rules.new_game(seed=seed, record=record)
    rnd = random.Random(seed)
    out = []
    while not g.is_over and len(out) < 60:
        g.apply(rnd.choice(g.legal_actions()))
        out.append((g.work, g._worked))
    return out


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_same_work_charged(seed: int, monkeypatch: pytest.MonkeyPatch):
    for record in (False, True):
        on = _counters(_rules(True, monkeypatch), seed, record)
        assert on == _counters(_rules(False, monkeypatch), seed, record)
        assert len({w for w, _ in on}) > 3  # the scans charged something, differently by move


@pytest.mark.parametrize("seed", [0, 2, 3])
def test_the_same_frames_games_and_traces(seed: int, monkeypatch: pytest.MonkeyPatch):
    for record in (False, True):
        on = positions_played(_rules(True, monkeypatch), seed, record, "total")
        assert on == positions_played(_rules(False, monkeypatch), seed, record, "total")
    assert len(on) > 6


def test_the_budget_runs_out_where_it_did(monkeypatch: pytest.MonkeyPatch):
    """Scans longer than the counter's chunk: the loop as it was, out of work at the same item."""
    outcomes = []
    for on in (True, False):
        rules = _rules(on, monkeypatch)
        rules.set_limits(work_budget=150_000)
        played = [positions_played(rules, seed, False, "total") for seed in range(6)]
        outcomes.append([(len(p), p[-2:]) for p in played])
    assert outcomes[0] == outcomes[1]
    assert all("steps of work" in o[1][0] for o in outcomes[0])


def test_shogun_plays_the_same_games(monkeypatch: pytest.MonkeyPatch):
    def digest(on: bool) -> list:
        monkeypatch.setattr(codegen.CodeGen, "SCAN_CHARGED_AFTER", on)
        rules = regelwerk.load(BUNDLED["shogun"])
        assert any(c.kind == "scan charged after" and c.rule == "procedure:season_round"
                   for c in rules.program(False).choices) == on
        return games_digest(rules, 4, range(8), False) + games_digest(rules, 4, range(2), True)

    assert digest(True) == digest(False)
