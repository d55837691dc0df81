"""`checks inlined` (interpreter/compiler/actiongen.py `_check_lines`, `CodeGen.CHECKS_INLINED`):
an action's check `AC_n` writes its lets and requires as statements, a small definition in
place and an aggregate as a loop, where it called the definition (`D_n(G, p0)`). A kept listing
(carried._kept_moves) tests one value a move through it: connect four's `lowest_free` cost a
Python call more a move. The form of the check, its answers, and the same games, saves and
traces as without it."""

from __future__ import annotations

import random
import re

from playing import chosen_and_same, compiled_with, same_with_and_without, source_with

# `drop`'s listing is kept (its requires read `cell` at its column's squares only): its check
# reads a definition in a let and another, with an aggregate, in a require; `pass_on`'s
# listing is not kept (and its check a plain comparison): its check is left as it was
COLUMNS = """game "Columns"
players Red, Blue
board Square = grid 4 x 3
state
    cell: Square -> Player? = none
    turns: int = 0
define lowest_free(col: int) = first s in column_squares(col) where cell[s] == none
define filled(col: int) = count s in column_squares(col) where cell[s] != none
action drop(col in 1..4)
    "Drop."
    let s = lowest_free(col)
    require s != none else "the column is full"
    require filled(col) < 3 else "no room"
    set cell[s] = current
    add 1 to turns
action pass_on
    "Pass."
    require turns % 5 == 4 else "not now"
    add 1 to turns
flow
    repeat
        turn
            if turns == 12
                finish draw
            play drop, pass_on
"""


def _check_of(source: str, action_at: str) -> str:
    """The text of the check function `AC_n` whose listing `AE_n` lists `action_at` moves."""
    start = source.index(f"def AC_{action_at}(")
    end = source.index("\ndef ", start + 1)
    return source[start:end]


def _drop_id(source: str) -> str:
    ids = re.findall(r"def AC_(\d+)\(G, p0\)", source)
    assert len(ids) == 1
    return ids[0]


def test_a_kept_listing_s_check_writes_the_definitions_in_place() -> None:
    on = source_with("CHECKS_INLINED", True, "columns", COLUMNS)
    off = source_with("CHECKS_INLINED", False, "columns", COLUMNS)
    check_on, check_off = _check_of(on, _drop_id(on)), _check_of(off, _drop_id(off))
    assert re.search(r"\bD_\d+\(G, p0\)", check_off)  # called before
    assert not re.search(r"\bD_\d+\(", check_on)  # written out now: the loops in place
    assert "for _a" in check_on and "return 0" in check_on and "return 1" in check_on
    assert "return -1" in check_on and "not in" in check_on  # the domain test stays first
    chose = {c.detail for c in compiled_with("CHECKS_INLINED", True, "columns", COLUMNS).program(False).choices
             if c.kind == "checks inlined"}
    assert chose == {"drop"}  # pass_on's listing is not kept


def test_the_check_answers_the_same_in_every_position() -> None:
    """For every value of the parameter (and values outside its domain), in the positions of
    random games: the same index of the first failing require, or -1, or the domain's -2."""
    on = compiled_with("CHECKS_INLINED", True, "columns", COLUMNS)
    off = compiled_with("CHECKS_INLINED", False, "columns", COLUMNS)
    asked = 0
    for seed in range(6):
        g_on, g_off = on.new_game(seed=seed), off.new_game(seed=seed)
        rnd = random.Random(seed)
        while not g_on.is_over:
            c_on = g_on.prog.actions["drop"].check
            c_off = g_off.prog.actions["drop"].check
            for col in (0, 1, 2, 3, 4, 5):
                assert c_on(g_on, col) == c_off(g_off, col)
                asked += 1
            moves = g_on.legal_actions()
            assert [str(m) for m in moves] == [str(m) for m in g_off.legal_actions()]
            k = rnd.randrange(len(moves))
            g_on.apply(moves[k])
            g_off.apply(g_off.legal_actions()[k])
        assert g_on.result == g_off.result
    assert asked > 100
    g = on.new_game(seed=0)
    for col in (1, 1, 1):
        g.apply(f"drop({col})")
    assert g.prog.actions["drop"].check(g, 1) == 0  # the column is full: the first require
    assert g.explain("drop(1)").reason == "the column is full"


def test_the_same_moves_and_games_with_and_without() -> None:
    chosen_and_same("CHECKS_INLINED", "checks inlined", "columns", COLUMNS, False, bundled="connect4")


def test_a_traced_program_keeps_its_listing_too_and_plays_the_same() -> None:
    """Traced games keep one-parameter listings as well (`kept listings traced`), with the
    check written out the same way; their games and traces are the same with and without."""
    assert any(c.kind == "checks inlined"
               for c in compiled_with("CHECKS_INLINED", True, "columns", COLUMNS).program(True).choices)
    same_with_and_without("CHECKS_INLINED", True, {"columns": COLUMNS}, bundled="connect4")
