"""Issue 9 §5: messages on `expect legal` and `expect decision by`, `include ... without
scenarios`, the empty set `{}`, failing expectations that show every name's value, and
explanations of actions the flow does not offer now."""

from __future__ import annotations

from pathlib import Path

from regelwerk.dsl.parse import parse_text
from regelwerk.dsl.printer import print_module
from regelwerk.interpreter.tools.scenario import run_scenarios

import regelwerk
from regelwerk.api import main_files

BASE = """players A, B

enum Tile = t1, t2

state
    n: int
    done: bool
    supply: set Tile = {}
    pool: set Tile = Tile

action step
    require n < 2 else "te veel stappen"
    add 1 to n

action stop
    require not done else "al gestopt"
    set done = true
    set pool = {}

flow
    repeat 2 times
        turn
            play step
    turn
        play stop
"""


def _results(scenarios: str) -> list:
    return run_scenarios(regelwerk.load_text(BASE + scenarios, "b.rules"))


def test_expect_legal_and_decision_take_a_message():
    res = _results('scenario "s"\n    expect legal stop else "stoppen mag altijd"\n')[0]
    assert res.failure.startswith("stoppen mag altijd  (expected 'stop' to be legal, but: 'stop' is not offered now")
    res = _results('scenario "s"\n    expect decision by B else "B begint"\n')[0]
    assert res.failure == "B begint  (expected a decision by B, but it is A's)"
    assert _results('scenario "s"\n    expect legal step else "x"\n    expect decision by A else "y"\n')[0].passed


def test_the_new_forms_print_back():
    text = ('include "base.rules" without scenarios\n\nscenario "s"\n    expect legal step else "x"\n'
            '    expect decision by A else "y"\n')
    assert print_module(parse_text(text, "v.rules")) == text


def test_an_action_not_offered_now_says_so_and_what_its_own_conditions_say():
    g = regelwerk.load_text(BASE, "b.rules").new_game()
    g.apply("step")
    g.apply("step")
    ex = g.explain("step")
    assert not ex.legal and ex.reason == ("'step' is not offered now (offered: stop); its own "
                                         "conditions say: te veel stappen")
    assert ex.own_reason == "te veel stappen" and ex.at == "12:5" and ex.checks[0]["value"] is False
    g2 = regelwerk.load_text(BASE, "b.rules").new_game()
    ex = g2.explain("stop")
    assert ex.reason == "'stop' is not offered now (offered: step); its own conditions hold"
    assert ex.own_reason is None
    res = _results('scenario "s"\n    do step\n    do step\n    expect illegal step because "te veel stappen"\n')
    assert res[0].passed


def test_empty_braces_are_an_empty_set_where_a_set_is_meant():
    res = _results('scenario "s"\n    expect supply == {} and len(supply) == 0 and pool != {}\n'
                   '    do step\n    do step\n    do stop\n    expect pool == {} and {} == pool\n')
    assert [r.failure for r in res] == [None]


def test_a_failing_expect_shows_the_names_it_did_not_reach():
    res = _results('scenario "s"\n    expect n == 1 and len(pool) == 0 else "zo niet"\n')[0]
    assert res.failure == "zo niet  (where n = 0, n == 1 = false, pool = {t1, t2})"


def test_include_without_scenarios(tmp_path: Path):
    (tmp_path / "base.rules").write_text(BASE + 'scenario "fails"\n    expect n == 5\n', encoding="utf-8")
    variant = tmp_path / "variant.rules"
    variant.write_text('include "base.rules" without scenarios\n\nscenario "own"\n    expect n == 0\n',
                       encoding="utf-8")
    r = regelwerk.load(variant)
    assert [sc.name for sc in r.model.scenarios] == ["own"]
    assert [res.passed for res in run_scenarios(r)] == [True]
    assert main_files([tmp_path / "base.rules", variant]) == [tmp_path / "base.rules", variant]
    with_them = tmp_path / "with.rules"
    with_them.write_text('include "base.rules"\n', encoding="utf-8")
    assert [sc.name for sc in regelwerk.load(with_them).model.scenarios] == ["fails"]
    assert main_files([tmp_path / "base.rules", with_them]) == [with_them]


def test_a_value_outside_a_domain_is_judged_by_the_preconditions_first():
    r = regelwerk.load_text("""players A, B
state
    hand: Player -> list int = {A: [1, 2], B: [3]}
action play_card(c in hand[current])
    require c in hand[current] else "die kaart heb je niet"
    require c < 9 else "te hoog"
    remove c from hand[current]
flow
    turn
        play play_card
""", "d.rules")
    g = r.new_game()
    ex = g.explain("play_card(3)")
    assert (ex.legal, ex.reason, ex.at) == (False, "die kaart heb je niet", "5:5")
    assert g.explain("play_card(1)").legal
    r2 = regelwerk.load_text("""players A, B
action pick(n in 1..3)
    require n > 0 else "positief"
flow
    turn
        play pick
""", "e.rules")
    assert r2.new_game().explain("pick(7)").reason == "7 is not a possible value of 'n'"
