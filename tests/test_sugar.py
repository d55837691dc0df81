"""The sentence-like forms of dsl/sugar.py: they check, run, explain and print back as written,
and stand for the constructs their docstrings name (issue 9 §4: Root's Sway and Parliament)."""

from __future__ import annotations

from pathlib import Path

import pytest
from regelwerk.dsl import ast as A
from regelwerk.dsl.diagnostics import RulesError
from regelwerk.dsl.parse import parse_text
from regelwerk.dsl.printer import expr_text, print_module
from regelwerk.dsl.sources import parse_file
from regelwerk.interpreter.tools.scenario import run_scenarios

import regelwerk

SUGAR = Path(__file__).parent / "corpus" / "valid" / "sugar.rules"
ROOT_DUCHY = Path(__file__).resolve().parent.parent / "rulesets" / "root" / "duchy.rules"


def test_the_forms_run_as_their_scenarios_say():
    r = regelwerk.load(SUGAR)
    assert [(x.name, x.failure) for x in run_scenarios(r) if not x.passed] == []


def test_the_forms_print_back_as_written():
    for path in (SUGAR, ROOT_DUCHY):
        text = path.read_text(encoding="utf-8")
        mod = parse_file(path)
        assert print_module(mod, text) == text
        assert parse_text(print_module(mod), str(path)).decls == mod.decls


def test_count_one_per_stands_for_a_matching():
    e = parse_text("const c = count k in hand one per s in Spot where fits(k, s)\n", "x.rules").decls[0].value
    assert isinstance(e, A.CountOnePer) and isinstance(e, A.Call) and e.func == "matching_size"
    (outer,) = e.args
    assert (outer.kind, outer.var, outer.body.kind, outer.body.var) == ("list", "k", "list", "s")
    assert expr_text(e) == "count k in hand one per s in Spot where fits(k, s)"
    assert expr_text(A.BinOp(e.span, "+", e, A.IntLit(e.span, 1))) == \
        "(count k in hand one per s in Spot where fits(k, s)) + 1"


def test_only_count_takes_one_per():
    with pytest.raises(RulesError) as err:
        parse_text("const c = max k in hand one per s in Spot where true\n", "x.rules")
    assert "only 'count' takes 'one per'" in str(err.value)


def test_choices_never_dead_end_and_are_explained():
    r = regelwerk.load(SUGAR)
    g = r.new_game()
    g.apply("show(3)")
    g.apply("choose(k3)")
    ex = g.explain("choose(k5)")
    assert not ex.legal and "k5 is not one of the options" in ex.reason


def test_for_chosen_takes_each_item_once_and_may_stop():
    text = SUGAR.read_text(encoding="utf-8")
    r = regelwerk.load_text(text, "s.rules")
    g = r.new_game()
    for move in ("show(1)", "choose(k1)", "visit", "choose(s3)"):
        g.apply(move)
    assert {str(a) for a in g.legal_actions()} == {"choose(s1)", "choose(s2)", "choose(none)"}
    g.apply("choose(none)")
    assert g.is_over and g.vars["order"] == ["s3"]
