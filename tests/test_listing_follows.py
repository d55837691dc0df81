"""`listing follows the move` (interpreter/compiler/follows.py, machine.py `listing_follows`,
`CodeGen.LISTING_FOLLOWS`): where a move's writes are read by no other move's test, the fused
apply's next listing is the list the move was offered from, less the move when its own test now
fails. The same moves, games, traces and saves with and without it; refused wherever another
move's test could have changed."""

from __future__ import annotations

import random

import pytest
from playing import chosen_and_same, compiled_with, same_with_and_without, source_with
from test_lean_apply import _moves_and_errors

FLAG = "LISTING_FOLLOWS"
KIND = "listing follows the move"

# a square may be marked twice: the move stays offered after its first mark
TWICE = """players X, O
board Square = grid 2 x 2
state
    marks: Square -> int = 0
    total: int = 0
action mark(s: Square)
    "Mark a square, at most twice."
    require marks[s] < 2 else "marked twice"
    add 1 to marks[s]
    add 1 to total
    if total == 8
        finish draw
flow
    repeat
        turn
            play mark
"""


def _chosen(text: str, name: str, record: bool = False) -> bool:
    rules = compiled_with(FLAG, True, name, text)
    return any(c.kind == KIND for c in rules.program(record).choices)


@pytest.mark.parametrize("record", [False, True])
def test_tictactoe_offers_the_moves_it_was_offered_less_the_square_taken(record: bool) -> None:
    assert _chosen(None, "tictactoe", record)
    fused = ("\n" + source_with(FLAG, True, "tictactoe")).split("\ndef BA_")[1].split("\ndef ")[0]
    # no walk of the nine squares; the move taken out of the list by its position, where the
    # scan found it (`removed where offered`, tests/test_removed_where_offered.py)
    assert "del legal[_ix]" in fused and "in _EM" not in fused
    assert "legal.remove(action)" not in source_with(FLAG, False, "tictactoe")


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same(FLAG, KIND, "twice", TWICE, record, bundled="tictactoe")
    chosen_and_same(FLAG, KIND, "gravity", GRAVITY, record, bundled="connect4")


@pytest.mark.parametrize("record", [False, True])
def test_connect_four_tests_the_column_played_alone(record: bool) -> None:
    assert _chosen(None, "connect4", record)
    source = "\n" + source_with(FLAG, True, "connect4")
    fused = source.split("\ndef BA_")[1].split("\ndef ")[0]
    assert "legal.remove(action)" in fused and "KM_" not in fused  # not the kept listing's log
    # nor the block, where it lists in full: nothing kept, so no write is logged for it
    block = source.split("\ndef B_0(")[1].split("\ndef ")[0]
    assert "KM_" not in block and "KM_" in ("\n" + source_with(FLAG, False, "connect4")).split("\ndef B_0(")[1]
    game = compiled_with(FLAG, True, "connect4").new_game(seed=3, record=record)
    rnd = random.Random(3)
    for _ in range(10):
        game.apply(rnd.choice(game.legal_actions()))
    assert not game._carried and not game._wlog


@pytest.mark.parametrize("record", [False, True])
def test_every_way_of_handing_a_move_over_answers_the_same(record: bool) -> None:
    for name in ("tictactoe", "connect4"):
        on, off = compiled_with(FLAG, True, name), compiled_with(FLAG, False, name)
        for seed in range(8):
            assert _moves_and_errors(on, seed, record) == _moves_and_errors(off, seed, record)


def test_a_move_still_legal_after_it_stays_where_it_was_listed() -> None:
    g = compiled_with(FLAG, True, "twice", TWICE).new_game(seed=0)
    first = g.legal_actions()
    g.apply(first[2])
    assert [str(m) for m in g.legal_actions()] == [str(m) for m in first]
    g.apply(next(m for m in g.legal_actions() if str(m) == str(first[2])))
    assert [str(m) for m in g.legal_actions()] == [str(m) for m in first[:2] + first[3:]]


def test_a_clone_keeps_its_own_list() -> None:
    """The list handed on is a copy where it changes: a clone made before the move, which
    shares the game's list, still offers the square."""
    g = compiled_with(FLAG, True, "tictactoe").new_game(seed=0)
    c = g.clone()
    g.apply(g.legal_actions()[4])
    assert len(c.legal_actions()) == 9 and len(g.legal_actions()) == 8
    rnd = random.Random(3)
    while not c.is_over:
        c.apply(rnd.choice(c.legal_actions()))
    assert len(g.legal_actions()) == 8


# discs fall to the lowest free square of a column: the tests read the column's squares, the
# move writes one of them (connect four's pattern, small)
GRAVITY = """players X, O
board Square = grid 3 x 3
state
    cell: Square -> Player? = none
    n: int = 0
define lowest_free(col: int) = first s in column_squares(col) where cell[s] == none
action drop(col in 1..3)
    "Drop a disc."
    let s = lowest_free(col)
    require s != none else "the column is full"
    set cell[s] = current
    add 1 to n
    if n == 9
        finish draw
flow
    repeat
        turn
            play drop
"""

# each of these reads or writes what one move's test could share with another's: refused
REFUSED = {
    # the tests of two squares read a common neighbour
    "overlap": TWICE.replace('require marks[s] < 2 else "marked twice"',
                             'require marks[s] < 2 and (all t in neighbours(s): marks[t] < 3) else "marked twice"'),
    # the move writes a square of another column (the first's), not its own
    "elsewhere": GRAVITY.replace("    set cell[s] = current\n",
                                 "    let t = first u in column_squares(1) where cell[u] == none\n"
                                 "    if t != none\n        set cell[t] = current\n"),
    # the effect writes another square too
    "neighbour": TWICE.replace("    add 1 to total\n", "    add 1 to total\n    set marks[a1] = 1\n"),
    # the test reads a bare variable the effect writes
    "bare": TWICE.replace('require marks[s] < 2 else "marked twice"',
                          'require marks[s] < 2 and total < 9 else "marked twice"'),
    # the test reads whose turn it is
    "current": TWICE.replace("marks: Square -> int = 0", "marks: Square -> int = 0\n    owner: Square -> Player? = none")
                    .replace('require marks[s] < 2 else "marked twice"',
                             'require marks[s] < 2 and owner[s] != current else "marked twice"'),
    # the parameter's name bound anew inside the effect
    "rebound": TWICE.replace("    add 1 to total\n", "    for s in Square\n        add 1 to total\n"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused_where_another_moves_test_could_change(name: str) -> None:
    rules = compiled_with(FLAG, True, name, REFUSED[name])
    kinds = {c.kind for c in rules.program(False).choices}
    assert "fused apply" in kinds and KIND not in kinds  # refused by the pass, not for want of a fused apply
    same_with_and_without(FLAG, False, {name: REFUSED[name]}, bundled="tictactoe")  # played either way


def _playouts(on: bool, name: str, text: str | None) -> list:
    """Playouts that pick their moves in the block (`Game.playout`), whole and stopped part way
    (then played on by `apply`): results, counts and saves."""
    rules = compiled_with(FLAG, on, name, text)
    out: list = []
    for seed in range(12):
        g = rules.new_game(seed=seed)
        out.append(g.playout(random.Random(seed), limit=None if seed % 2 else 3))
        rnd = random.Random(seed + 100)
        while not g.is_over:
            g.apply(rnd.choice(g.legal_actions()))
        out.append((g.result, g.step_no, g.to_json()))
    return out


@pytest.mark.parametrize("name,text", [("tictactoe", None), ("twice", TWICE), ("connect4", None), ("gravity", GRAVITY)])
def test_a_playout_picking_in_the_block_plays_the_same_games(name: str, text: str | None) -> None:
    source = source_with(FLAG, True, name, text)
    block = ("\n" + source).split("\ndef B_0(")[1].split("\ndef ")[0]
    assert "_picked" in block  # the block's own listing after a pick follows it too
    assert _playouts(True, name, text) == _playouts(False, name, text)
