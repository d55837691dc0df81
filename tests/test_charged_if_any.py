"""`charged if any` (docs/architecture.md §5, `CodeGen.CHARGED_IF_ANY`, ifany.py): a loop's charge
of its domain's length to the work budget, `G.work -= len(d)` and its test, made under `if d:` where
`d` is a domain the function works out itself (a range, a list it makes, a name for one): an empty
one charges nothing. Pinned: the form (on the pass alone and in checkers' program), what it leaves
alone, the same counter and failures as before, and the same games, saves, results and traces with
it on and off."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from playing import chosen_and_same, compiled_with, source_with
from regelwerk.interpreter.compiler.ifany import charged_if_any
from treepass import passed, run

CHARGES = """def f(G, n, xs):
    _r = []
    for x in xs:
        if x > n:
            _r.append(x)
    _d = _r
    G.work -= len(_d)
    if G.work < 0:
        G.out_of_work('found')
    total = 0
    for x in _d:
        total += x
    _d2 = range(1, n - 1 + 1)
    G.work -= len(_d2)
    if G.work < 0:
        G.out_of_work('range')
    for i in _d2:
        total += i
    return total
"""

RANGES = """players Ann, Bob

board Square = grid 3 x 3

state
    marks: Square -> int = 0

define inner(n: int) = list i in 1..n - 1: i * 2

define ahead(p: Player) = list s in Square where marks[s] > 2

define total(p: Player): int = sum x in flatten(list s in ahead(p): inner(marks[s])): x

action mark(s: Square)
    require marks[s] < 5 else "full"
    require total(current) < 40 else "too much"
    add 1 to marks[s]

flow
    repeat 15 times
        for p in players
            turn p
                play mark else finish draw
"""


class _Game(SimpleNamespace):
    def out_of_work(self, span: str) -> None:
        self.spans.append(span)
        self.work = 3


def _pass(code: str) -> tuple[str, bool]:
    out, _constants, done = passed(code, {}, lambda fn, _made: charged_if_any(fn))
    return out, done


def test_the_charges_of_found_domains_are_tested_first() -> None:
    out, done = _pass(CHARGES)
    assert done and out.count("if _d:\n        G.work -= len(_d)") == 1
    assert out.count("if _d2:\n        G.work -= len(_d2)") == 1
    for work in (0, 2, 5, 100):
        for n, xs in ((0, []), (5, [1, 2]), (1, [3, 4, 5]), (4, [9])):
            games = [_Game(work=work, spans=[]) for _ in range(2)]
            assert run(CHARGES, {}, games[0], n, xs) == run(out, {}, games[1], n, xs)
            assert games[0] == games[1]  # the same counter and the same calls of out_of_work


@pytest.mark.parametrize("code", [
    # a parameter, a global: mostly not empty
    CHARGES.replace("    _d = _r\n", "").replace("len(_d)", "len(xs)"),
    CHARGES.replace("    _d = _r\n", "").replace("len(_d)", "len(ALL)"),
    # bound a second way (a loop's target)
    CHARGES.replace("    total = 0\n", "    total = 0\n    for _d in [[1]]:\n        pass\n"),
    # the test is not the next statement
    CHARGES.replace("    G.work -= len(_d)\n", "    G.work -= len(_d)\n    total = 0\n"),
])
def test_left_alone(code: str) -> None:
    out, done = _pass(code)
    assert "if _d:" not in out and ("if _d2:" in out) == done


def test_checkers_jump_scan_charges_its_first_jumps_if_any() -> None:
    on, off = source_with("CHARGED_IF_ANY", True, "checkers"), source_with("CHARGED_IF_ANY", False, "checkers")
    scan_on, scan_off = (src.split("\ndef D_18(")[1].split("\ndef ")[0] for src in (on, off))
    assert re.search(r"\n    if (_d\d+):\n        G\.work -= len\(\1\)\n        if G\.work < 0:", scan_on)
    assert not re.search(r"\n    if (_d\d+):\n        G\.work -= len", scan_off)
    chosen = {c.detail for c in compiled_with("CHARGED_IF_ANY", True, "checkers").program(False).choices
              if c.kind == "charged if any"}
    assert any(d.endswith(" D_18") for d in chosen)


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same("CHARGED_IF_ANY", "charged if any", "ranges", RANGES, record, "checkers")
