"""The type objects shared by checker, compiler and saves (dsl/types.py)."""

from __future__ import annotations

import pytest
from regelwerk.dsl import ast as A
from regelwerk.dsl.types import (
    ANY,
    BOOL,
    INT,
    NONE,
    RANGE,
    TEXT,
    Elem,
    ListOf,
    MapOf,
    Opt,
    Record,
    SetOf,
    as_state,
    compatible,
    optional,
    resolve,
)

import regelwerk

SQ = Elem("Square")


def test_types_print_as_rules_write_them():
    assert str(MapOf(SQ, Opt(Elem("Player")))) == "Square -> Player?"
    assert str(ListOf(INT)) == "list int"
    assert str(SetOf(Elem("Colour"))) == "set Colour"
    assert str(ListOf(ANY)) == "list"
    assert str(Opt(TEXT)) == "text?"


def test_questions_code_asks():
    m = MapOf(SQ, INT)
    assert (m.item, m.value) == (SQ, INT)
    assert ListOf(SQ).item == SQ and ListOf(SQ).value == SQ
    assert Opt(ListOf(INT)).item == INT and Opt(ListOf(INT)).base == ListOf(INT)
    assert RANGE.item == INT
    assert [t.default() for t in (INT, BOOL, TEXT, ListOf(INT), SetOf(INT), Opt(INT), SQ)] == \
        [0, False, "", [], frozenset(), None, None]
    assert optional(Opt(INT)) == Opt(INT) and optional(ANY) == ANY


@pytest.mark.parametrize(("a", "b", "ok"), [
    (INT, Opt(INT), True), (INT, NONE, True), (INT, TEXT, False), (ListOf(INT), RANGE, True),
    (ListOf(INT), SetOf(INT), True), (ListOf(INT), ListOf(SQ), False), (MapOf(SQ, INT), MapOf(SQ, TEXT), True),
    (MapOf(SQ, INT), ListOf(INT), False), (Record("Unit"), Record("Card"), False), (ANY, Record("Unit"), True),
])
def test_compatible(a, b, ok):
    assert compatible(a, b) is ok and compatible(b, a) is ok


def test_resolve_written_types():
    span = A.NO_SPAN
    kinds = {"Square": "elem", "Unit": "record"}
    node = A.MapType(span, A.NamedType(span, "Square"), A.OptionalType(span, A.ListType(span, A.NamedType(span, "Unit"))))
    assert resolve(node, kinds) == MapOf(SQ, Opt(ListOf(Record("Unit"))))
    assert resolve(A.NamedType(span, "Nope"), kinds) == ANY


def test_state_maps_are_total_whatever_name_holds_them():
    """`pts[5]` and `let p = pts` then `p[5]` read the same default (the type decides, not the
    syntax); a constant table still fails on a key it lacks."""
    assert as_state(MapOf(INT, MapOf(INT, INT))).val.total and not MapOf(INT, INT).total
    assert MapOf(INT, INT, True) == MapOf(INT, INT)
    rules = """players A, B
const TABLE = {1: 10}
state
    pts: int -> int = {}
    seen: list int = []
flow
    let p = pts
    add pts[5] to seen
    add p[5] to seen
    add TABLE[1] to seen
    finish draw
"""
    g = regelwerk.load_text(rules, "total.rules").new_game()
    assert g.vars["seen"] == [0, 0, 10]
    bad = rules.replace("add TABLE[1] to seen", "add TABLE[2] to seen")
    with pytest.raises(regelwerk.RuleFailure):
        regelwerk.load_text(bad, "total.rules").new_game()
