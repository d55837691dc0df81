"""Two aggregates written as one call of a list's own C code (codegen `counted`, `repeated`):
`count x in xs where x == v` over a list, `v` a literal or a local, is `xs.count(v)`, and
`list i in D: v`, an item that is not `i`, is `[v] * len(D)` (Shogun's tower: `tally` counts
what fell out by colour, `cubes` makes `counts[c]` copies of each colour). The same values and
the same work charged as the loops and comprehensions they replace (CodeGen.LOOP_FORMS off);
anything else is left as it was."""

from __future__ import annotations

import pytest
from bundled import BUNDLED
from regelwerk.interpreter.compiler import codegen

import regelwerk

RULES = """players Ann, Bob
enum Colour = red, blue, green
state
    bag: list Colour = [red, blue, red, green, red]
    numbers: list int = [3, 1, 3, 3, 2]
    out: list int = []
    made: list Colour = []
define reds(xs: list Colour): int = count x in xs where x == red
define like(xs: list int, n: int): int = count x in xs where n == x
define selves(xs: list int): int = count x in xs where x == x
define odd(xs: list int): int = count x in xs where x == 2 * (x // 2) + 1
define copies(c: Colour, n: int): list Colour = list i in 1..n: c
define steps(n: int): list int = list i in 1..n: i
define each(c: Colour): list Colour = list k in Colour: c
action go(n in 0..3)
    "Count and copy."
    set out = [reds(bag), like(numbers, 3), like(numbers, n), selves(numbers), odd(numbers), len(steps(n))]
    set made = copies(blue, n) + copies(green, 0 - n) + each(red)
flow
    turn Ann
        play go
"""


def _played(forms: bool, n: int, monkeypatch: pytest.MonkeyPatch, these: bool = True) -> tuple:
    monkeypatch.setattr(codegen.CodeGen, "LOOP_FORMS", forms)
    if not these:  # the other loop forms, without these two
        monkeypatch.setattr(codegen.CodeGen, "counted", lambda *_: None)
        monkeypatch.setattr(codegen.CodeGen, "repeated", lambda *_: None)
    rules = regelwerk.load_text(RULES, "count.rules")
    g = rules.new_game()
    g.apply(f"go({n})")
    chosen = {(c.kind, c.detail) for c in rules.program(False).choices}
    return g.vars["out"], g.vars["made"], g.work, chosen


@pytest.mark.parametrize("n", [0, 1, 3])
def test_the_same_values_and_work_as_the_loops(n: int, monkeypatch: pytest.MonkeyPatch):
    out, made, work, chosen = _played(True, n, monkeypatch)
    assert out == [3, 3, [0, 1, 1, 3][n], 5, 4, n]
    assert made == ["blue"] * n + ["red"] * 3
    assert (out, made) == _played(False, n, monkeypatch)[:2]
    assert work == _played(True, n, monkeypatch, these=False)[2]  # the same charges
    assert ("count of a value", "count x in xs where x == red") in chosen
    assert ("count of a value", "count x in xs where n == x") in chosen
    assert ("repeated item", "list i in 1..n: c") in chosen
    assert ("repeated item", "list k in Colour: c") in chosen
    others = {d for k, d in chosen if k in ("count of a value", "repeated item")}
    assert not others & {"count x in xs where x == x", "count x in xs where x == 2 * (x // 2) + 1",
                         "list i in 1..n: i"}


def test_a_huge_repeat_is_charged_before_it_is_made(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(codegen.CodeGen, "LOOP_FORMS", True)
    text = RULES.replace("copies(blue, n)", "copies(blue, n * 1000000000000)")
    g = regelwerk.load_text(text, "count.rules").new_game()
    with pytest.raises(regelwerk.BudgetExceeded):
        g.apply("go(3)")


def test_shoguns_tower_tallies_and_copies_by_the_list():
    source = regelwerk.load(BUNDLED["shogun"]).program(False).source
    assert ".count('blue')" in source and ".count('peasant')" in source
    tower = source[source.index("def DR_0("):source.index("\ndef ", source.index("def DR_0(") + 1)]
    assert "] * _n" in tower and "range(1, " not in tower  # a run's count (`repeated run`: test_repeated_runs.py)
