"""`charges merged` (docs/architecture.md §5, `CodeGen.CHARGES_MERGED`, chargesmerged.py): two or
more straight-line charges of one counter, with only quiet statements between them (a
definition's quantifiers over one list: Shogun's `tally`), are charged at once where the counter
covers their sum, and as before where it does not. Pinned: the form (on a small ruleset and on
the pass alone), the same values, `out_of_work` calls and counters on a counter that runs out
inside the run, what it leaves alone, and the same games, saves, results and traces with it on
and off (the small ruleset and Shogun)."""

from __future__ import annotations

import ast

import pytest
from charging import run_counted
from playing import chosen_and_same, source_with
from regelwerk.interpreter.compiler.chargesmerged import charges_merged

TALLY = """\
players A, B
enum Colour = red, blue, green
state
    bag: list Colour = []
    score: Player -> int = 0
define tally(xs: list Colour): Colour -> int =
    {
        red: count x in xs where x == red,
        blue: count x in xs where x == blue,
        green: count x in xs where x == green
    }
action put(c: Colour)
    add c to bag
    set score[current] = score[current] + tally(bag)[c]
flow
    repeat 5 times
        for p in players
            turn p
                play put
    finish ranking q by score[q]
"""

COUNTS = """\
def f(G, xs, ys):
    _d1 = xs
    G.work -= len(_d1)
    if G.work < 0:
        G.out_of_work(1)
    a = _d1.count('r')
    _d2 = xs
    G.work -= len(_d2)
    if G.work < 0:
        G.out_of_work(2)
    b = _d2.count('b')
    G.work -= 3
    if G.work < 0:
        G.out_of_work(3)
    _d3 = ys
    G.work -= len(_d3)
    if G.work < 0:
        G.out_of_work(4)
    c = _d3.count(a)
    return a, b, c
"""


def _passed(code: str) -> tuple[str, bool]:
    tree = ast.parse(code)
    done = charges_merged(tree.body[0])  # type: ignore[arg-type]
    return ast.unparse(tree), done


def _run(code: str, work: int, *args: object) -> tuple:
    return run_counted(code, work, 5, *args)  # out_of_work refills the counter to 5


def test_the_form_of_the_program():
    on = source_with("CHARGES_MERGED", True, "tally", TALLY)
    off = source_with("CHARGES_MERGED", False, "tally", TALLY)
    tally = ("\n" + on).split("\ndef D_0(")[1].split("\ndef ")[0]
    assert "if G.work - 3 * len(p0) >= 0:" in tally and "G.work -= 3 * len(p0)" in tally
    fast = tally.split(">= 0:")[1].split("    else:")[0]
    assert "out_of_work" not in fast and fast.count(".count(") == 2  # the third is after the run
    assert "3 * len(p0)" not in off


@pytest.mark.parametrize("work", [100, 12, 9, 7, 4, 1, 0])
@pytest.mark.parametrize("xs", [[], ["r"], ["r", "b", "r", "x"]])
def test_the_values_calls_and_counters_as_before(work: int, xs: list):
    """On a counter that covers the run and on one that runs out inside it (refilled at each
    `out_of_work`): the same values, the same calls with the same counter, the same counter at
    the end."""
    out, done = _passed(COUNTS)
    assert done and "if G.work - (2 * len(xs) + len(ys) + 3) >= 0:" in out
    for ys in ([], [0, 1, 1], [2]):
        assert _run(out, work, xs, ys) == _run(COUNTS, work, xs, ys)
    assert _run(COUNTS, 4, ["r", "b"], [1])[1]  # runs out


@pytest.mark.parametrize("change", [
    ("    a = _d1.count('r')\n", "    a = _d1.count('r')\n    xs = ys\n"),  # a charged list rebound
    ("    a = _d1.count('r')\n", "    a = _d1.count('r')\n    n = G.work\n"),  # the counter read
    ("    a = _d1.count('r')\n", "    a = _d1.count('r')\n    G.note(a)\n"),  # the game
    ("    a = _d1.count('r')\n", "    a = _d1.count('r')\n    xs.append(a)\n"),  # a list changed
    ("    a = _d1.count('r')\n", "    a = len(_d1)\n    k = f(a)\n"),  # a call that could do anything
    ("    a = _d1.count('r')\n", "    a = _d1['r']\n"),  # a look-up that can fail
])
def test_left_alone(change: tuple[str, str]):
    """The first two charges as they were: a charged list rebound, the counter or the game read,
    a list changed, a call, a statement that can fail between them."""
    code = COUNTS.replace(*change)
    assert code != COUNTS
    out, _done = _passed(code)
    assert out.splitlines()[1:3] == ["    _d1 = xs", "    G.work -= len(_d1)"]  # (a later run may merge)


@pytest.mark.parametrize("record", [False, True])
def test_same_games_with_and_without(record):
    chosen_and_same("CHARGES_MERGED", "charges merged", "tally", TALLY, record, "shogun")
