"""A move table whose last parameter ranges over `option..N` (actiongen.move_table: Root's
`dig(k, c, n in dig_min_warriors..4)` built every move when listed): the table holds the
values of the options' defaults, a value outside it (another option's value) is made when
listed. The same moves in the same order as without tables for any option's value, the moves
of the table the same objects in every game."""

from __future__ import annotations

import pytest
from bundled import BUNDLED
from regelwerk.interpreter.compiler import codegen

import regelwerk

TAKE = """players Ann, Bob
enum Hand = left, right
option lo: int = 1 "the least one takes"
state
    total: int = 0
action take(k: Hand, n in lo..3)
    "Take n."
    require n != 2 or k == right else "two only with the right hand"
    add n to total
flow
    repeat 2 times
        for p in players
            turn p
                play take
"""


def _moves(forms: bool, options: dict | None, monkeypatch: pytest.MonkeyPatch) -> tuple[list, list]:
    monkeypatch.setattr(codegen.CodeGen, "LOOP_FORMS", forms)
    g = regelwerk.load_text(TAKE, "take.rules").new_game(options=options)
    listed = []
    while not g.is_over:
        moves = g.legal_actions()
        listed.append(moves)
        g.apply(moves[-1])
    return listed, [g.vars["total"]]


@pytest.mark.parametrize("lo", [None, -2, 0, 1, 3, 4])
def test_the_same_moves_for_any_option_value(lo: int | None, monkeypatch: pytest.MonkeyPatch):
    options = None if lo is None else {"lo": lo}
    fast, plain = _moves(True, options, monkeypatch), _moves(False, options, monkeypatch)
    assert [[str(m) for m in ms] for ms in fast[0]] == [[str(m) for m in ms] for ms in plain[0]]
    assert fast[1] == plain[1]
    low = 1 if lo is None else lo
    expected = [f"take({k}, {n})" for k in ("left", "right") for n in range(low, 4) if n != 2 or k == "right"]
    assert [str(m) for m in (fast[0][0] if fast[0] else [])] == expected


def test_moves_in_the_table_are_made_once(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(codegen.CodeGen, "LOOP_FORMS", True)
    rules = regelwerk.load_text(TAKE, "take.rules")
    a, b = rules.new_game(seed=1), rules.new_game(seed=2, options={"lo": -1})
    by_text = {str(m): m for m in b.legal_actions()}
    for m in a.legal_actions():  # 1..3: in the table, the same objects in both games
        assert by_text[str(m)] is m
    assert "take(left, -1)" in by_text and "take(right, 0)" in by_text  # made when listed


def test_roots_dig_looks_its_moves_up():
    source = regelwerk.load(BUNDLED["root"]).program(False).source
    digs = [line.strip() for line in source.splitlines() if "'dig'" in line and "append(" in line]
    assert digs and all(".get(p2) or _TN(ACT, ('dig'" in line for line in digs), digs
