"""Definitions that call themselves (docs/language.md §3.10): allowed with a declared type,
stopped when they never end, and usable wherever a definition is (legal moves, explain,
traces, saves)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import regelwerk
from regelwerk import BudgetExceeded, RuleFailure, RulesError
from regelwerk.cli import main

CHECKERS = Path(__file__).resolve().parent.parent / "rulesets/classic/checkers.rules"

RULES = """players A, B

state
    n: int = 0
    pile: list int = [3, 1, 4]

define fact(k: int): int = if k <= 1 then 1 else k * fact(k - 1)

define even(k: int): bool = if k == 0 then true else odd(k - 1)

define odd(k: int): bool = if k == 0 then false else even(k - 1)

define total_from(xs: list int, i: int): int =
    if i >= len(xs) then 0 else xs[i] + total_from(xs, i + 1)

define forever(k: int): int = forever(k + 1)

define twice(k: int): int = if k == 0 then 1 else twice(k - 1) + twice(k - 1)

action go(k in 1..6)
    require even(k) else "only an even number"
    require total_from(pile, 0) == 8 else "the pile no longer adds up to 8"
    set n = fact(k)
    set pile = pile + [k]
    if n > 100
        finish winner current

action loop
    set n = forever(0)

action blow
    set n = twice(40)

flow
    repeat
        turn
            play go, loop, blow
"""


@pytest.fixture(scope="module")
def rules() -> regelwerk.Ruleset:
    return regelwerk.load_text(RULES, "rec.rules")


def test_a_definition_that_calls_itself_works_out_its_value(rules):
    g = rules.new_game(record=True)
    assert [str(a) for a in g.legal_actions()] == ["go(2)", "go(4)", "go(6)", "loop", "blow"]
    g.apply("go(4)")
    assert g.vars["n"] == 24 and g.vars["pile"] == [3, 1, 4, 4]
    assert not g.explain("go(2)").legal  # the pile adds up to 12 now
    assert g.explain("go(2)").reason == "the pile no longer adds up to 8"
    assert any(s.get("rule") == "action go" or "go" in str(s.get("rule")) for s in g.trace)


def test_one_that_never_ends_is_stopped_with_the_rules_words(rules):
    g = rules.new_game()
    with pytest.raises(RuleFailure, match="calls itself without end"):
        g.apply("loop")
    g = rules.new_game()
    started = time.monotonic()
    with pytest.raises(BudgetExceeded, match=r"rec\.rules:18:1: definition 'twice' \(line 18\).*a definition that calls itself"):
        g.apply("blow")
    assert time.monotonic() - started < 5  # 100 steps a call: stopped long before the time limit


def test_without_a_declared_type_it_is_refused():
    text = RULES.replace("define even(k: int): bool =", "define even(k: int) =")
    with pytest.raises(RulesError) as err:
        regelwerk.load_text(text, "rec.rules")
    d = [x for x in err.value.diagnostics if x.code == "E241"]
    assert d and "definition 'even' calls itself (even → odd → even) without a declared type" in d[0].message
    assert "declare the type of 'even'" in (d[0].help or "")


def test_the_cli_reports_a_runaway_without_a_traceback(tmp_path, capsys):
    path = tmp_path / "rec.rules"
    path.write_text(RULES.replace("play go, loop, blow", "play loop"))
    assert main(["run", str(path), "--seed", "1"]) != 0
    err = capsys.readouterr().err
    assert "calls itself without end" in err and "Traceback" not in err


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_checkers_series_of_jumps_save_and_load_mid_game(seed):
    """Checkers' jump series are a definition that calls itself: a game saved at any point
    and loaded goes on to the same end."""
    import random


    r = regelwerk.load(CHECKERS)
    g = r.new_game(seed=seed)
    rnd = random.Random(seed)
    for _ in range(rnd.randrange(0, 60)):
        if g.is_over:
            break
        g.apply(rnd.choice(g.legal_actions()))
    back = r.load_game(g.to_json())
    assert back.legal_actions() == g.legal_actions()
    for _ in range(40):
        if g.is_over:
            break
        move = rnd.choice(g.legal_actions())
        g.apply(move)
        back.apply(move)
    assert back.vars == g.vars and back.result == g.result
