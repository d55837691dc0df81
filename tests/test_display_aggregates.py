"""`display of aggregates` (`CodeGen.DISPLAY_AGGREGATES`): a display (map, record, list) whose
parts are aggregates and names or literals has its aggregates written as loops ahead of it, in the
display's order, instead of a helper function each (Shogun's `tally`: six `count`s a map, six Python
calls a tally). A display with another part (one that could fail or charge work between them)
keeps its helpers. The same games, traces and budget failures either way."""

from __future__ import annotations

import pytest
from playing import chosen_and_same, compiled_with, source_with

from regelwerk import BudgetExceeded

TALLY = """game "Tally"
players Ann, Bob
enum Colour = red, blue
record Pair(low: int, high: int)
state
    drawn: list Colour
    seen: Colour -> int = 0
    pair: Pair = Pair(low: 0, high: 0)
    sizes: list int
define tally(xs: list Colour): Colour -> int =
    {red: count x in xs where x == red, blue: count x in xs where x == blue}
define spread(xs: list Colour) = Pair(low: count x in xs where x == red, high: len(xs) + 1)
define both(xs: list Colour) = [count x in xs where x == red, 3, any x in xs: x == blue]
action take(c: Colour)
    "Take a colour."
    add c to drawn
    set seen = tally(drawn)
    set pair = spread(drawn)
    set sizes = list b in [both(drawn)]: len(b)
flow
    repeat 6 times
        for p in players
            turn p
                play take
"""


def _define(source: str, n: int) -> str:
    return ("\n" + source).split(f"\ndef D_{n}(")[1].split("\ndef ")[0]


def test_the_aggregates_are_loops_ahead_of_the_display() -> None:
    rules = compiled_with("DISPLAY_AGGREGATES", True, "tally", TALLY)
    prog = rules.program(False)
    assert ("display of aggregates", "define tally") in {(c.kind, c.rule) for c in prog.choices}
    on = source_with("DISPLAY_AGGREGATES", True, "tally", TALLY)
    tally = _define(on, 0)
    assert ".count('red')" in tally and ".count('blue')" in tally and "_A" not in tally
    assert tally.index(".count('red')") < tally.index(".count('blue')")  # in the display's order
    assert "return {'red': _r" in tally
    # a record with another part (`len(xs) + 1`) keeps its helper
    assert "_A" in _define(on, 1)
    # a list of aggregates and a literal: loops ahead, in order
    both = _define(on, 2)
    assert "_A" not in both and both.index(".count('red')") < both.index("for ")
    off = source_with("DISPLAY_AGGREGATES", False, "tally", TALLY)
    assert "_A" in _define(off, 0)


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same("DISPLAY_AGGREGATES", "display of aggregates", "tally", TALLY, record, "shogun")


GROWING = """game "Growing"
players Ann, Bob
enum Colour = red, blue
state
    drawn: list Colour
    seen: Colour -> int = 0
define tally(xs: list Colour): Colour -> int =
    {red: count x in xs where x == red, blue: count x in xs where x == blue}
action grow(c: Colour)
    "Add many of a colour, then tally."
    set drawn = drawn + (list i in 1..30000: c)
    set seen = tally(drawn)
flow
    repeat 4 times
        for p in players
            turn p
                play grow
"""


@pytest.mark.parametrize("budget", [150_000, 250_000, 350_000])
def test_the_budget_runs_out_where_it_did(budget: int) -> None:
    """Each count charges the list's length where its helper charged it, so a budget runs out
    in the same count of the same move."""
    outcomes = []
    for on in (True, False):
        rules = compiled_with("DISPLAY_AGGREGATES", on, "growing", GROWING)
        rules.set_limits(work_budget=budget)
        g = rules.new_game(seed=1)
        got: tuple = ("played",)
        try:
            while not g.is_over:
                g.apply(g.legal_actions()[0])
        except BudgetExceeded as err:
            got = (str(err), len(g.vars["drawn"]), g.vars["seen"])
        outcomes.append(got)
    assert outcomes[0] == outcomes[1]
    assert "steps of work" in outcomes[0][0]
