"""A scenario's verdict never depends on tracing: it checks the ruleset's invariants on its
position (after the start, after `given`, after every `do`) whether its game is traced or not,
and a broken one fails it naming the invariant and the scenario line (language.md §14)."""

from __future__ import annotations

from pathlib import Path

import pytest
from regelwerk.interpreter.tools.scenario import run_scenarios

import regelwerk
from regelwerk.api import main_files
from regelwerk.cli import main

ROOT = Path(__file__).parent.parent
BUNDLED = main_files(sorted((ROOT / "rulesets").rglob("*.rules")))
FIXTURE = ROOT / "tests" / "fixtures" / "scenario_invariants.rules"
WHERE = "tests/fixtures/scenario_invariants.rules"


def _verdicts(ruleset: regelwerk.Ruleset, record: bool) -> list[tuple]:
    return [(r.name, r.passed, r.failure, r.at and (r.at.file, r.at.line))
            for r in run_scenarios(ruleset, record=record)]


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: str(p.relative_to(ROOT / "rulesets")))
def test_every_bundled_scenario_has_the_same_verdict_traced_and_untraced(path):
    rules = regelwerk.load(path)
    untraced = _verdicts(rules, record=False)
    assert untraced == _verdicts(rules, record=True)
    assert [(name, failure) for name, passed, failure, _ in untraced if not passed] == []


def test_the_bundled_rulesets_have_scenarios():
    assert {p.name for p in BUNDLED} >= {"khan.rules", "root.rules", "shogun.rules", "tictactoe.rules"}


def _fixture(record: bool) -> dict[str, tuple]:
    rules = regelwerk.load(WHERE)  # from ROOT: the spans name the file as loaded
    return {name: (passed, failure, at) for name, passed, failure, at in _verdicts(rules, record)}


TOKENS = "at most three tokens: the box holds three"
CARDS = "every card lies in the deck or in one hand"


@pytest.mark.parametrize("record", [False, True], ids=["untraced", "traced"])
def test_a_broken_invariant_fails_the_scenario_naming_it_and_the_line(record, monkeypatch):
    monkeypatch.chdir(ROOT)
    got = _fixture(record)
    assert got["three tokens fit in the box"] == (True, None, None)
    assert got["starting after the deal, the cards placed as the deal would"] == (True, None, None)
    # a move whose rule breaks an invariant: the `do` line (a traced game raises, an untraced
    # one is checked by the scenario: the same words)
    assert got["the rule lets a fourth token in: the move that breaks the invariant fails"] == (
        False, f"the position after 'take_token' breaks an invariant: {WHERE}:12:1: {TOKENS}",
        (WHERE, 44))
    # a `given` that builds an illegal position: the `given` line
    assert got["a set-up with four tokens fails at its given"] == (
        False, f"the position 'given' sets up breaks an invariant: {WHERE}:12:1: {TOKENS}", (WHERE, 48))
    # `start in phase` skipping the deal: the `before start` line, the invariant and the pieces
    passed, failure, at = got["starting after the deal without dealing fails at the set-up"]
    assert not passed and at == (WHERE, 54)
    assert failure.startswith(f"the position the game starts from breaks an invariant: {WHERE}:14:1: {CARDS}; ")
    assert "c1 lies in no zone (line 14)" in failure


def test_the_fixture_gives_the_same_verdicts_traced_and_untraced():
    rules = regelwerk.load(FIXTURE)
    assert _verdicts(rules, False) == _verdicts(rules, True)
    assert [v[1] for v in _verdicts(rules, False)] == [True, False, False, False, True]


def test_start_in_phase_alone_is_blamed_when_there_is_no_before_start():
    text = FIXTURE.read_text(encoding="utf-8").split("\nscenario ")[0] + (
        '\nscenario "skips the deal"\n    players 2\n    start in phase play\n    expect tokens == 0\n')
    rules = regelwerk.load_text(text, "s.rules")
    for record in (False, True):
        (res,) = run_scenarios(rules, record=record)
        assert not res.passed and res.at.line == text.count("\n") - 1  # `start in phase play`
        assert res.failure.startswith("the position the game starts from breaks an invariant: s.rules:14:1: ")


def test_cli_test_traced_gives_the_same_report(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    outs = []
    for extra in ([], ["--traced"]):
        code = main(["test", *extra, str(FIXTURE.relative_to(ROOT))])
        outs.append((code, capsys.readouterr().out))
    assert outs[0] == outs[1]
    code, out = outs[0]
    assert code == 1 and out.endswith("2 passed, 3 failed\n")
    assert f"  {WHERE}:44:5: the position after 'take_token' breaks an invariant: {WHERE}:12:1: {TOKENS}\n" in out
