"""`kept listing` (interpreter/compiler/carry.py `kept_listing`, engine/carried.py `_kept_moves`,
`CodeGen.KEPT_LISTINGS`): an untraced game keeps the moves of a one-parameter action whose
requires read state only at keys fixed by the parameter, and tests again only the values whose
keys were written since. Connect four tests one column a move instead of seven. The same moves,
games, saves and errors as without it."""

from __future__ import annotations

import random

import pytest
from playing import compiled_with, same_with_and_without
from regelwerk.interpreter.compiler.carry import kept_listing
from test_quiet_procedures import _undone_and_cloned

# four columns of three; `tip` writes two squares of two columns at once (the log then names
# several values, tested again in the domain's order), `wipe` writes a square, then the board whole (empty again), `clear`
# the board whole alone
COLUMNS = """game "Columns"
players Red, Blue
board Square = grid 4 x 3
state
    cell: Square -> Player? = none
    empty: Square -> Player? = none
    turns: int = 0
define lowest_free(col: int) = first s in column_squares(col) where cell[s] == none
action drop(col in 1..4)
    "Drop."
    let s = lowest_free(col)
    require s != none else "the column is full"
    set cell[s] = current
    add 1 to turns
    if turns == 30
        finish draw
action tip(col in 1..3)
    "Tip."
    require cell[b1] != none else "nothing to tip"
    set cell[b1] = none
    set cell[a1] = current
    add 1 to turns
action wipe
    "Wipe."
    require turns % 7 == 6 else "not now"
    set cell[a1] = current
    set cell = empty
    add 1 to turns
action clear
    "Clear."
    require turns % 7 == 3 else "not now"
    set cell = empty
    add 1 to turns
flow
    repeat
        turn
            play drop, tip, wipe, clear
"""
# the require reads `current` too: not kept
MINE = COLUMNS.replace('    require s != none else "the column is full"\n',
                       '    require s != none and cell[a1] != current else "the column is full"\n')
TEXTS = {"columns": COLUMNS}


def _kept(name: str, text: str | None = None, on: bool = True, record: bool = False) -> set[tuple[str, str]]:
    rules = compiled_with("KEPT_LISTINGS", on, name, text)
    return {(c.rule, c.detail) for c in rules.program(record).choices if c.kind == "kept listing"}


def test_connect_four_keeps_its_columns() -> None:
    assert _kept("connect4") == {("action drop", "drop by cell")}
    assert _kept("connect4", on=False) == set()
    assert _kept("connect4", record=True) == {("action drop", "drop by cell")}  # traced too (below)
    traced_off = compiled_with("KEPT_LISTINGS_TRACED", False, "connect4")
    assert not [c for c in traced_off.program(True).choices if c.kind == "kept listing"]
    assert [c for c in traced_off.program(False).choices if c.kind == "kept listing"]  # untraced: as ever


def test_what_is_kept_and_what_is_not() -> None:
    assert _kept("columns", COLUMNS) == {("action drop", "drop by cell")}
    rules = compiled_with("KEPT_LISTINGS", True, "columns", COLUMNS)
    tip = kept_listing(rules.model, rules.model.actions["tip"])
    assert tip is None  # `cell[b1]`: a key that is no function of `col`
    mine = compiled_with("KEPT_LISTINGS", True, "mine", MINE)
    assert kept_listing(mine.model, mine.model.actions["drop"]) is None  # reads `current`
    ttt = compiled_with("KEPT_LISTINGS", True, "tictactoe")
    assert kept_listing(ttt.model, ttt.model.actions["place"]) is None  # only `cell[s]`: a scan is as cheap


def test_the_same_moves_and_games_with_and_without() -> None:
    same_with_and_without("KEPT_LISTINGS", False, TEXTS, bundled="connect4")


def test_traced_the_same_games_traces_and_saves_with_and_without() -> None:
    """`kept listings traced` (`CodeGen.KEPT_LISTINGS_TRACED`): a traced game keeps them too."""
    same_with_and_without("KEPT_LISTINGS_TRACED", True, TEXTS, bundled="connect4")
    for name, text in (("columns", COLUMNS), ("connect4", None)):
        on, off = (compiled_with("KEPT_LISTINGS_TRACED", flag, name, text) for flag in (True, False))
        for seed in (1, 2):
            assert _undone_and_cloned(on, 2, seed, False) == _undone_and_cloned(off, 2, seed, False)


def _full(g) -> list[str]:
    """The moves the listing itself finds in `g`'s state now."""
    out: list = []
    for name in ("drop", "tip", "wipe", "clear"):
        g.prog.actions[name].enum(g, out)
    return [str(a) for a in out]


@pytest.mark.parametrize("seed", [1, 2])
def test_the_kept_moves_follow_every_change(seed: int) -> None:
    """Through moves, a change from outside (`invalidate`), a clone and undo's kin `from_json`,
    the moves offered are the listing's own."""
    rules = compiled_with("KEPT_LISTINGS", True, "columns", COLUMNS)
    g = rules.new_game(seed=seed)
    rnd = random.Random(seed)
    for step in range(40):
        if g.is_over:
            break
        assert [str(a) for a in g.legal_actions()] == _full(g)
        if step == 9:  # from outside: a column filled, then the game told
            for s in ("c1", "c2", "c3"):
                g.vars["cell"][s] = "Blue"
            g.invalidate()
            g._legal = None
            assert "drop(3)" not in [str(a) for a in g.legal_actions()]
        if step == 15:
            g = g.clone()
        if step == 20:
            g = type(g).from_json(g.to_json(), rules)
        g.apply(rnd.choice(g.legal_actions()))


def test_a_column_emptied_again_is_offered_again_in_its_place() -> None:
    """A value whose requires pass again goes back into the kept list at its place in the
    domain's order: `tip` empties the bottom of the full second column."""
    rules = compiled_with("KEPT_LISTINGS", True, "columns", COLUMNS)
    g = rules.new_game(seed=0)
    for _ in range(3):
        g.apply("drop(2)")
    assert [str(a) for a in g.legal_actions()][:3] == ["drop(1)", "drop(3)", "drop(4)"]
    g.apply("tip(3)")
    assert [str(a) for a in g.legal_actions()] == _full(g)
    assert [str(a) for a in g.legal_actions()][:3] == ["drop(1)", "drop(2)", "drop(3)"]


def test_a_clone_at_a_decision_keeps_the_kept_moves_and_parts_ways() -> None:
    """A clone made at a decision shares the kept list (never changed in place) with its log
    position at the start of its own empty log (`carried.kept_for_clone`): a perft node lists
    its moves from its parent's. Each game then goes its own way."""
    rules = compiled_with("KEPT_LISTINGS", True, "columns", COLUMNS)
    g = rules.new_game(seed=4)
    for move in ("drop(1)", "drop(2)", "drop(2)"):
        g.apply(move)
    g.legal_actions()
    copy = g.clone()
    kept = copy._carried[("listing", "drop")]
    assert kept == (g._carried[("listing", "drop")][0], 0) and copy._wlog == []
    copy.apply("drop(2)")  # fills the second column in the copy only
    assert [str(a) for a in copy.legal_actions()] == _full(copy) and "drop(2)" not in _full(copy)
    g.apply("drop(3)")
    assert [str(a) for a in g.legal_actions()] == _full(g) and "drop(2)" in _full(g)
