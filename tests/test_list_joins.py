"""Lists joined by a statement's `a + b` are built by statements (codegen.CodeGen.joined: the
new list, then its charge to the work budget, as runtime._joined makes and charges it, without
the call: Shogun's tower does `let kept = kept + [s]` thousands of times a game), and a `for`
over a list walks it without a copy (a list is never changed in place). The same values, the
same charges and the same stop as without these forms (CodeGen.LOOP_FORMS off)."""

from __future__ import annotations

import pytest
from bundled import BUNDLED
from regelwerk.interpreter.compiler import codegen

import regelwerk
from regelwerk import BudgetExceeded

JOINS = """players Ann, Bob
state
    out: list int = []
action go
    "Sort the numbers."
    let kept = []
    let through = []
    for x in [1, 2, 3, 4, 5]
        if x % 2 == 0
            let kept = kept + [x]
        else
            let through = through + [x, x]
    for y in kept
        let kept = kept + [y * 10]
    let both = kept + through + sorted([9, 8])
    set out = both + []
flow
    turn Ann
        play go
"""

GROWS = """players Ann, Bob
state
    n: int = 0
action go
    "Grow a list without end."
    let xs = []
    while true
        let xs = xs + [1, 2]
flow
    turn Ann
        play go
"""


def _loaded(text: str, forms: bool, monkeypatch: pytest.MonkeyPatch) -> regelwerk.Ruleset:
    monkeypatch.setattr(codegen.CodeGen, "LOOP_FORMS", forms)
    return regelwerk.load_text(text, "joins.rules")


def _played(text: str, forms: bool, monkeypatch: pytest.MonkeyPatch, record: bool) -> tuple:
    g = _loaded(text, forms, monkeypatch).new_game(record=record)
    g.apply("go")
    return g.vars["out"], g.work


@pytest.mark.parametrize("record", [False, True])
def test_joined_lists_and_their_charges_are_those_of_the_call(monkeypatch: pytest.MonkeyPatch, record: bool):
    fast = _played(JOINS, True, monkeypatch, record)
    # the loop over `kept` walks the list it started with, not the one the body binds
    assert fast[0] == [2, 4, 20, 40, 1, 1, 3, 3, 5, 5, 8, 9]
    assert fast == _played(JOINS, False, monkeypatch, record)  # the work left too: the same charges


def test_a_statement_join_and_a_loop_over_a_list_are_written_out(monkeypatch: pytest.MonkeyPatch):
    source = _loaded(JOINS, True, monkeypatch).program(False).source
    assert "_joined(" not in source and "in list(" not in source
    plain = _loaded(JOINS, False, monkeypatch).program(False).source
    assert "_joined(" in plain and "in list(" in plain


@pytest.mark.parametrize("forms", [True, False])
def test_a_list_that_grows_without_end_stops_at_its_join(monkeypatch: pytest.MonkeyPatch, forms: bool):
    g = _loaded(GROWS, forms, monkeypatch).new_game()
    g.work_budget = 200_000
    with pytest.raises(BudgetExceeded) as err:
        g.apply("go")
    assert str(err.value).startswith("joins.rules:8:18: rule 'go'"), str(err.value)  # at the join's `+`


def test_shoguns_tower_appends_without_a_call():
    source = regelwerk.load(BUNDLED["shogun"]).program(False).source
    tower = source[source.index("def DR_0("):source.index("\ndef ", source.index("def DR_0(") + 1)]
    assert "_joined(" not in tower.replace("c_shuffled(G, _joined(", "")  # the shuffle's is an argument
    assert "in list(" not in tower
