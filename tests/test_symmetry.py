"""Board symmetries in exact analysis (interpreter/tools/symmetry.py): which rules respect them,
and that merging a position with its images changes no result."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from regelwerk.interpreter.tools.analysis import expected_outcome
from regelwerk.interpreter.tools.positions import position_key
from regelwerk.interpreter.tools.symmetry import SymmetricKeys, Symmetries, board_symmetries

import regelwerk
from regelwerk.cli import main

ROOT = Path(__file__).resolve().parent.parent
TTT = ROOT / "rulesets/classic/tictactoe.rules"

# Two in a row on a 3 x 2 board: a rectangle has 3 symmetries besides itself, not 7.
SMALL = """players X, O

board Square = grid 3 x 2

state
    cell: Square -> Player? = none

action place(s: Square)
    require cell[s] == none
    set cell[s] = current
    if any line in lines_through(s, 2): all t in line: cell[t] == current
        finish winner current
    elif all t in Square: cell[t] != none
        finish draw

flow
    repeat
        turn
            play place
"""


def _symmetries(text: str) -> Symmetries:
    prog = regelwerk.load_text(text, "t.rules").program(False)
    return board_symmetries(prog.model, prog.boards)


def test_tictactoe_is_worked_out_once_per_family_of_images_with_the_same_result():
    r = regelwerk.load(TTT)
    merged = expected_outcome(r.new_game(chance="explicit"))
    every = expected_outcome(r.new_game(chance="explicit"), symmetry=False)
    assert (merged.positions, merged.terminal) == (765, 138)
    assert (every.positions, every.terminal) == (5478, 958)
    assert (merged.win, merged.draw) == (every.win, every.draw)
    assert len(merged.symmetry.maps) == 7 and not every.symmetry


def test_a_rectangle_has_three_symmetries_and_the_same_result_with_them():
    g = regelwerk.load_text(SMALL, "t.rules")
    merged = expected_outcome(g.new_game(chance="explicit"))
    every = expected_outcome(g.new_game(chance="explicit"), symmetry=False)
    assert len(merged.symmetry.maps) == 3
    assert merged.positions < every.positions
    assert (merged.win, merged.draw) == (every.win, every.draw)


@pytest.mark.parametrize("change, reason", [
    ("square", "the rules name square a1"),
    ("row", "the rules call row()"),
    ("first", "the rules take 'first' over squares"),
    ("for", "the rules loop over squares with 'for'"),
    ("sorted", "the rules call sorted() on squares"),
    ("direction", "the rules name direction N"),
    ("constant", "constant 'START' holds squares"),
    ("record", "constant 'SPOTS' holds squares"),
])
def test_rules_that_tell_a_square_from_its_image_have_no_symmetry(change, reason):
    text = {
        "square": SMALL.replace("require cell[s] == none",
                                "require cell[s] == none and s != a1"),
        "row": SMALL.replace("require cell[s] == none", "require cell[s] == none and row(s) == 1"),
        "first": SMALL.replace("require cell[s] == none",
                               "require cell[s] == none and s == (first t in Square where cell[t] == none)"),
        "for": SMALL.replace("    set cell[s] = current\n",
                             "    set cell[s] = current\n    for t in Square\n        set cell[t] = cell[t]\n"),
        "sorted": SMALL.replace("require cell[s] == none",
                                "require cell[s] == none and len(sorted(lines_through(s, 2))) > 0"),
        "direction": SMALL.replace("    cell: Square -> Player? = none\n",
                                   "    cell: Square -> Player? = none\n    facing: Direction = N\n"),
        "constant": SMALL.replace("state\n", "const START = b1\n\nstate\n"),
        # a square inside a record inside a map: found through the record's fields
        "record": SMALL.replace("state\n", "record Spot(at: Square, n: int)\n\nconst SPOTS = {1: Spot(at: b1, n: 1)}\n\n"
                                "state\n").replace("require cell[s] == none",
                                                    "require cell[s] == none and s != SPOTS[1].at"),
    }[change]
    sym = _symmetries(text)
    assert not sym and sym.reason.startswith(reason), sym.reason


def test_the_classic_games_that_see_direction_or_order_are_refused():
    for name, reason in (("connect4", "the rules take 'first' over squares"),
                         ("breakthrough", "the rules name direction N")):
        prog = regelwerk.load(ROOT / f"rulesets/classic/{name}.rules").program(False)
        assert board_symmetries(prog.model, prog.boards).reason.startswith(reason)


def test_a_game_without_a_board_has_no_symmetry():
    prog = regelwerk.load(ROOT / "rulesets/examples/goofspiel.rules").program(False)
    sym = board_symmetries(prog.model, prog.boards)
    assert not sym and "board" in sym.reason


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 8))
def test_a_position_and_each_of_its_images_share_one_key(seed, plies):
    """The image of a reached position (every square moved by a symmetry) gets the same key,
    and a position that is no image of another gets a different one."""
    r = regelwerk.load(TTT)
    prog = r.program(False)
    sym = board_symmetries(prog.model, prog.boards)
    keys = SymmetricKeys(prog.model, sym)
    g = r.new_game(chance="explicit")
    rnd = random.Random(seed)
    for _ in range(plies):
        if g.is_over:
            break
        g.apply(rnd.choice(g.legal_actions()))
    key = keys.key(g)
    for sq in sym.maps:
        image = g.clone()
        image.vars["cell"] = {sq[s]: v for s, v in g.vars["cell"].items()}
        image.invalidate()
        assert keys.key(image) == key
    other = g.clone()
    empty = [s for s, v in g.vars["cell"].items() if v is None]
    if empty and not g.is_over:
        other.vars["cell"] = {**g.vars["cell"], empty[0]: "X" if g.vars["cell"].get(empty[0]) is None else None}
        assert keys.key(other) != key


def test_forcing_a_symmetry_the_rules_break_gives_a_wrong_answer():
    """Why the check matters: the same board with a rule that favours one corner, analysed as
    if its images were alike, comes out different."""
    text = SMALL.replace("    set cell[s] = current\n",
                         "    set cell[s] = current\n    if s == a1\n        finish winner current\n")
    rules = regelwerk.load_text(text, "t.rules")
    prog = rules.program(False)
    assert not board_symmetries(prog.model, prog.boards)
    right = expected_outcome(rules.new_game(chance="explicit"))
    forced = board_symmetries(regelwerk.load_text(SMALL, "t.rules").program(False).model, prog.boards)
    from regelwerk.interpreter.tools import analysis

    solver = analysis._Solver(10_000, None, key=SymmetricKeys(prog.model, forced).key)
    wrong = solver.value(rules.new_game(chance="explicit"))
    assert wrong[0] != tuple(right.win[p] for p in right.players)


def test_analyze_says_what_symmetry_it_used(capsys):
    assert main(["analyze", str(TTT), "-q"]) == 0
    out = capsys.readouterr().out
    assert "positions worked out: 765" in out and "7 symmetries of the board" in out
    assert main(["analyze", str(TTT), "-q", "--no-symmetry"]) == 0
    out = capsys.readouterr().out
    assert "positions worked out: 5,478" in out and "no board symmetry used: turned off" in out
    assert main(["analyze", str(ROOT / "rulesets/classic/connect4.rules"), "-q", "--max-positions", "5"]) != 0


def test_squares_inside_records_inside_lists_are_mapped_too():
    """A position's image maps a square held in a record in a list, not only the board map:
    else two positions that are no images of each other could share a key."""
    text = SMALL.replace("state\n", "record Mark(at: Square, by: Player)\n\nstate\n").replace(
        "    cell: Square -> Player? = none\n", "    cell: Square -> Player? = none\n    marks: list Mark = []\n").replace(
        "    set cell[s] = current\n", "    set cell[s] = current\n    set marks = marks + [Mark(at: s, by: current)]\n")
    rules = regelwerk.load_text(text, "t.rules")
    prog = rules.program(False)
    sym = board_symmetries(prog.model, prog.boards)
    assert sym, sym.reason
    keys = SymmetricKeys(prog.model, sym)
    g = rules.new_game(chance="explicit")
    g.apply("place(a1)")
    flip = next(m for m in sym.maps if m["a1"] == "c1")
    image = g.clone()
    image.vars["cell"] = {flip[s]: v for s, v in g.vars["cell"].items()}
    image.vars["marks"] = [{**m, "at": flip[m["at"]]} for m in g.vars["marks"]]
    assert keys.key(image) == keys.key(g)
    half = g.clone()  # the board mirrored, the record not: no image of g
    half.vars["cell"] = image.vars["cell"]
    assert keys.key(half) != keys.key(g)
    merged = expected_outcome(rules.new_game(chance="explicit"))
    every = expected_outcome(rules.new_game(chance="explicit"), symmetry=False)
    assert (merged.win, merged.draw) == (every.win, every.draw) and merged.positions < every.positions


def test_a_chance_event_half_way_through_a_move_keeps_its_own_key():
    """A chance node names its move as text (`place(a1)`): such a position is not merged
    with images whose move would have to be mapped too. The result is the same either way."""
    text = SMALL.replace("    if any line in lines_through(s, 2): all t in line: cell[t] == current\n",
                         "    let lucky = bernoulli(1, 2)\n"
                         "    if lucky and (any line in lines_through(s, 2): all t in line: cell[t] == current)\n")
    rules = regelwerk.load_text(text, "t.rules")
    prog = rules.program(False)
    keys = SymmetricKeys(prog.model, board_symmetries(prog.model, prog.boards))
    g = rules.new_game(chance="explicit")
    g.apply("place(a1)")  # the coin is tossed half-way through the move
    assert g.chance_node is not None and keys.key(g) == position_key(g)
    unlucky = next(x for x, _p in g.chance_outcomes() if x in (False, "false"))
    g.apply(unlucky)
    g.apply("place(a2)")  # O's move, half-way: X's a1 on the board
    other = g.clone()  # the same move text over the mirror image of the board: no image of g
    other.vars["cell"] = {s.replace("a", "_").replace("c", "a").replace("_", "c"): v
                          for s, v in g.vars["cell"].items()}
    assert other.vars["cell"]["c1"] == "X" and keys.key(other) != keys.key(g)
    merged = expected_outcome(rules.new_game(chance="explicit"))
    every = expected_outcome(rules.new_game(chance="explicit"), symmetry=False)
    assert len(merged.symmetry.maps) == 3
    assert (merged.win, merged.draw) == (every.win, every.draw) and merged.positions < every.positions
