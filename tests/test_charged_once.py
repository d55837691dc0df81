"""`charged once` (docs/architecture.md §5, `CodeGen.CHARGED_ONCE`, chargedonce.py): a block's
loop whose rounds each charge the work counter the length of a list the loop does not change
(a listing's quantifier, kept across the rounds) charges them all at its top where the counter
covers every round, its nested loops of the form likewise, and runs as before where it does not.
Pinned: the form (on a small ruleset and on the pass alone), the same moves, `out_of_work` calls
and counters on a counter that runs out inside the loops, what it leaves alone, and the same
games, saves, results and traces with it on and off (the small ruleset and Shogun)."""

from __future__ import annotations

import ast

import pytest
from charging import run_counted
from playing import chosen_and_same, source_with
from regelwerk.interpreter.compiler.chargedonce import charged_once

PLANS = """\
players A, B
enum Act = dig, sow, reap, rest
enum Field = north, south, east, west
record Order(act: Act, field: Field)
state
    owner: Field -> Player? = none
    plan: Player -> list Order = []
    score: Player -> int = 0
define fields_of(p: Player) = list f in Field where owner[f] == p
action claim(f in Field)
    require owner[f] == none else "taken"
    set owner[f] = current
action assign(a: Act, f in fields_of(current))
    require all o in plan[current]: o.act != a else "that act is planned"
    require all o in plan[current]: o.field != f else "that field is planned"
    add Order(act: a, field: f) to plan[current]
flow
    repeat 2 times
        for p in players
            turn p
                play claim
    repeat 2 times
        for p in players
            turn p
                play up to 3 of assign
        for p in players
            add len(plan[p]) to score[p]
            clear plan[p]
    finish ranking q by score[q]
"""

LISTING = """\
def f(G, plan, acts, dom, stop):
    legal = []
    rows = None
    _h = plan
    _lw = G.work
    for p0 in acts:
        _d = _h
        _lw -= len(_d)
        if _lw < 0:
            G.work = _lw
            G.out_of_work(p0)
            _lw = G.work
        if p0 in _d:
            continue
        if rows is None:
            rows = []
            for p1 in dom:
                _lw -= 2
                if _lw < 0:
                    G.work = _lw
                    G.out_of_work(p1)
                    _lw = G.work
                if p1 == stop:
                    continue
                rows.append(p1)
        legal.extend(map(str, rows))
    G.work = _lw
    return legal
"""


def _passed(code: str) -> tuple[str, bool]:
    tree = ast.parse(code)
    done = charged_once(tree.body[0])  # type: ignore[arg-type]
    return ast.unparse(tree), done


def _run(code: str, work: int, *args: object) -> tuple:
    return run_counted(code, work, 7, *args)  # out_of_work refills the counter to 7


def test_the_form_of_the_program():
    on = source_with("CHARGED_ONCE", True, "plans", PLANS)
    off = source_with("CHARGED_ONCE", False, "plans", PLANS)
    block = on.split("\ndef B_0(")[1].split("\ndef ")[0]
    assert "if _lw - len(" in block and ">= 0:" in block  # the bound, tested once
    assert block.count("_lw -= len(") == 4  # the two loops' charges: at their tops, and as they were
    assert "if _lw - len(" not in off.split("\ndef B_0(")[1].split("\ndef ")[0]


@pytest.mark.parametrize("work", [100, 40, 17, 9, 4, 1])
@pytest.mark.parametrize("plan", [[], ["a"], ["a", "c", "x"]])
def test_the_moves_calls_and_counters_as_before(work: int, plan: list):
    """On a counter that covers the loops and on one that runs out inside them (refilled at
    each `out_of_work`): the same moves, the same calls with the same counter, the same counter
    at the end."""
    out, done = _passed(LISTING)
    assert done and out.count("for p0 in acts:") == 2 and "_lw -= len(acts) * len(_h)" in out
    assert "_lw -= len(dom) * 2" in out
    for dom in (["n", "s", "e"], [], ["n", "stop"]):
        args = (plan, ["a", "b", "c", "d"], dom, "stop")
        assert _run(out, work, *args) == _run(LISTING, work, *args)
    assert _run(LISTING, 4, plan, ["a", "b", "c", "d"], ["n", "s", "e"], "stop")[1] or not plan  # runs out


@pytest.mark.parametrize("change", [
    ("        if p0 in _d:\n            continue\n", "        if p0 in _d:\n            break\n"),  # a break
    ("        if p0 in _d:\n", "        _h = dom\n        if p0 in _d:\n"),  # the charged list rebound
    ("                rows.append(p1)\n", "                rows.append(p1)\n                plan.append(p1)\n"),
    ("                rows.append(p1)\n", "                rows.append(p1)\n                G.note(p1)\n"),  # the game
    ("                rows.append(p1)\n", "                rows.append(p1)\n                n = _lw\n"),  # the counter
    ("    _h = plan\n", "    _h = legal\n"),  # a list the loop grows, charged
    ("    _h = plan\n", "    _h = G.kept\n"),  # a field of the game: where a grown list could be
    ("    for p0 in acts:\n", "    acts = map(str, acts)\n    for p0 in acts:\n"),  # an iterator: no length
    ("    _h = plan\n", "    if dom:\n        _h = plan\n"),  # perhaps unbound before the loop
    ("    for p0 in acts:\n", "    try:\n        pass\n    except KeyError:\n        pass\n    for p0 in acts:\n"),
])
def test_left_alone(change: tuple[str, str]):
    """The outer loop as it was: a way out of it, a charged list rebound or grown, the game or the
    counter read, a charged name read from the game, a loop over an iterator, a name perhaps
    unbound, an error caught and gone on from."""
    code = LISTING.replace(*change)
    assert code != LISTING
    if "try:" in change[1]:  # a `try` before the loop changes nothing; one around it that goes on does
        code = _in_try(["    except KeyError:", "        pass"])
    out, _done = _passed(code)
    assert "len(acts)" not in out and out.count("for p0 in acts:") == 1  # (the inner loop may be alone)


def _in_try(handler: list[str]) -> str:
    """LISTING with its loop inside a `try` with `handler`."""
    head, rest = LISTING.split("    for p0 in acts:\n")
    loop, tail = rest.split("\n    G.work = _lw\n")
    inner = "".join("    " + line + "\n" for line in ("    for p0 in acts:\n" + loop).splitlines())
    return head + "    try:\n" + inner + "\n".join(handler) + "\n    G.work = _lw\n" + tail


def test_a_try_that_raises_again_is_no_obstacle():
    code = _in_try(["    except:", "        G.work = _lw", "        raise"])
    out, done = _passed(code)
    assert done
    for work in (100, 5):
        args = (["a"], ["a", "b", "c"], ["n", "s"], "stop")
        assert _run(out, work, *args) == _run(code, work, *args)


@pytest.mark.parametrize("record", [False, True])
def test_same_games_with_and_without(record):
    chosen_and_same("CHARGED_ONCE", "charged once", "plans", PLANS, record, "shogun")
