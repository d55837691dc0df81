"""interpreter/hoist.py: the parts of an action's preconditions worked out once, and that doing
so never changes which moves are legal."""

from __future__ import annotations

import regelwerk

SHARED = """players X, O
const T = [5, 0, 7, 0]
state
    cell: int -> int = {}
    n: int = 0
action a(k in 0..2)
    let x = k
    require T[x] > 0
    let x = k + 1
    require T[x] > 0
action b(k in 0..3)
    require T[k] > 0
    require T[k] != 5 or n == 0
action c(k in 0..3)
    require n == 0 or T[k] > 0
    require T[k] > 0
flow
    repeat
        turn
            play a, b, c
"""


def test_preconditions_share_a_part_but_not_across_a_name_bound_anew():
    """`b`'s second precondition reads `T[k]` again and shares the first one's value; `a`'s
    `let x` binds `x` anew, so `T[x]` after it is another value (a(2) would be legal if it
    were shared: T[2] = 7 but T[3] = 0); `c` reads `T[k]` first behind an `or`, which need not
    work it out, so nothing is shared from it."""
    game = regelwerk.load_text(SHARED, "shared.rules").new_game()
    assert [str(m) for m in game.legal_actions()] == ["b(0)", "b(2)", "c(0)", "c(2)"]
    source = game.prog.source
    enum_b = source[source.index("def AE_", source.index("def AE_") + 1):]
    enum_b = enum_b[:enum_b.index("\ndef ")]
    assert enum_b.count("_kc0[p0]") == 1, enum_b  # read once, shared by both preconditions
    for move in ["a(0)", "a(1)", "a(2)", "b(1)", "b(3)", "c(1)", "c(3)"]:
        assert not game.is_legal(move), move


def test_a_table_row_of_an_outer_parameter_is_looked_up_once_per_round():
    """interpreter/actiongen.rows_hoisted: `_T3[p0][p1]` inside the loop over p1 reads the same
    row of `_T3` in every round; outside that loop (and for an inner parameter) nothing moves."""
    from regelwerk.interpreter.actiongen import rows_hoisted

    names = iter(f"_row{i}" for i in range(10))
    lines = ["    for p0 in _E1:",
             "        if _T3[p0][p0] is None:",
             "            continue",
             "        for p1 in _E2:",
             "            x = _T3[p0][p1]",
             "            out.append(_M4[p0][p1])",
             "            y = _T3[p1][p0]",
             "    z = 1"]
    assert rows_hoisted(list(lines), 2, lambda _prefix: next(names), {"_T3", "_M4"}) == [
        "    for p0 in _E1:",
        "        if _T3[p0][p0] is None:",
        "            continue",
        "        _row0 = _T3[p0]",
        "        _row1 = _M4[p0]",
        "        for p1 in _E2:",
        "            x = _row0[p1]",
        "            out.append(_row1[p1])",
        "            y = _T3[p1][p0]",
        "    z = 1"]
    # a table filled as it is used (a memo) may lack a row: it is not looked up ahead
    assert rows_hoisted(list(lines), 2, lambda _prefix: next(names), {"_M4"})[3:6] == [
        "        _row2 = _M4[p0]",
        "        for p1 in _E2:",
        "            x = _T3[p0][p1]"]


NESTED = """players X, O
state
    hand: Player -> list int = []
    n: int = 0
action a
    require (sum x in hand[current]: 1) == len(hand[current]) + len(hand[current])
    set n = n + 1
define twice(p: Player) = len(hand[p]) + len(hand[p]) + (sum x in hand[p]: 1)
action b
    require twice(current) >= 0
    set n = n + 2
flow
    repeat 3 times
        turn
            play a, b
    finish draw
"""


def test_a_part_written_twice_inside_another_is_worked_out_first():
    """`len(hand[current])` is written twice and `hand[current]`, inside it, three times: both
    are worked out once before the precondition, the inner one first (the other order read
    its local before it was set: UnboundLocalError, in listing, in `possible` and in a
    definition)."""
    for record in (False, True):
        game = regelwerk.load_text(NESTED, "nested.rules").new_game(record=record)
        assert [str(m) for m in game.legal_actions()] == ["a", "b"]
        game.apply("a")
        game.apply("b")
        assert game.vars["n"] == 3
