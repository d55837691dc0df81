"""interpreter/compiler/hoist.py: the parts of an action's preconditions worked out once, and that doing
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
    require T[k] > 0 and n >= 0
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
    """`b`'s second precondition reads `T[k]` again and shares the first one's value (the first
    reads state, so it is no prefilter, whose kept items skip it instead); `a`'s
    `let x` binds `x` anew, so `T[x]` after it is another value (a(2) would be legal if it
    were shared: T[2] = 7 but T[3] = 0); `c` reads `T[k]` first behind an `or`, which need not
    work it out, so nothing is shared from it."""
    game = regelwerk.load_text(SHARED, "shared.rules").new_game()
    assert [str(m) for m in game.legal_actions()] == ["b(0)", "b(2)", "c(0)", "c(2)"]
    shared = {(c.rule, c.detail) for c in game.prog.choices if c.kind == "share"}
    assert shared == {("action b", "T[k]")}  # read once, shared by both preconditions
    for move in ["a(0)", "a(1)", "a(2)", "b(1)", "b(3)", "c(1)", "c(3)"]:
        assert not game.is_legal(move), move


def test_a_table_row_of_an_outer_parameter_is_looked_up_once_per_round():
    """interpreter/pytree.hoist_rows: `T[p0][p1]` inside the loop over p1 reads the same row of
    `T` in every round; outside that loop (and for an inner parameter) nothing moves, and a
    text that looks like code is a constant no pass reaches."""
    import ast

    from regelwerk.interpreter.compiler import pytree

    source = """
def AE(G, out):
    for p0 in E1:
        if T[p0][p0] is None:
            continue
        for p1 in E2:
            x = T[p0][p1]
            out.append(M[p0][p1])
            y = T[p1][p0]
            G.note_log('T[p0][p1]')
    z = 1
"""

    def hoisted(complete: set[str]) -> str:
        names = iter(f"row{i}" for i in range(10))
        fn = pytree.functions(pytree.parse(source))["AE"]
        pytree.hoist_rows(fn, 2, lambda _prefix: next(names), complete)
        return ast.unparse(fn)

    assert hoisted({"T", "M"}) == ast.unparse(ast.parse("""
def AE(G, out):
    for p0 in E1:
        if T[p0][p0] is None:
            continue
        row0 = T[p0]
        row1 = M[p0]
        for p1 in E2:
            x = row0[p1]
            out.append(row1[p1])
            y = T[p1][p0]
            G.note_log('T[p0][p1]')
    z = 1
"""))
    # a table filled as it is used (a memo) may lack a row: it is not looked up ahead
    only_m = hoisted({"M"})
    assert "row0 = M[p0]" in only_m and "x = T[p0][p1]" in only_m and "T[p0]\n" not in only_m


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
