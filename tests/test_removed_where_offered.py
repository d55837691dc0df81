"""`removed where offered` (interpreter/compiler/offeredat.py, `CodeGen.REMOVED_WHERE_OFFERED`):
where a move surely fails its own test once played (follows.py `taken_by_its_move`), the fused
apply counts where it found the move among those offered and takes it out of the next listing
by that position, not by `list.remove`'s comparisons. The same games, traces and answers with
the switch on and off; the pass refuses any function where the position could be stale."""

from __future__ import annotations

import ast

import pytest
from playing import chosen_and_same, compiled_with
from regelwerk.interpreter.compiler.follows import taken_by_its_move
from regelwerk.interpreter.compiler.offeredat import removed_where_offered
from test_fused_steps import _fused
from test_lean_apply import _moves_and_errors
from test_listing_follows import GRAVITY, TWICE

import regelwerk

FLAG = "REMOVED_WHERE_OFFERED"

# a square is taken once: its move's own test (`cell[s] == none`) fails after it
TAKEN = """players X, O
board Square = grid 3 x 2
state
    cell: Square -> Player? = none
    n: int = 0
action take(s: Square)
    "Take an empty square."
    require cell[s] == none else "taken"
    set cell[s] = current
    add 1 to n
    if n == 6
        finish draw
flow
    repeat
        turn
            play take
"""


@pytest.mark.parametrize("record", [False, True])
def test_tictactoe_takes_the_move_out_by_its_position(record: bool) -> None:
    on, off = _fused(FLAG, True, "tictactoe", record), _fused(FLAG, False, "tictactoe", record)
    assert "del legal[_ix]" in on and "_ix += 1" in on and "legal.remove(action)" not in on
    assert "legal.remove(action)" in off and "_ix" not in off
    # the move's own check after it, which surely fails, is not written either
    assert "if not _sv0[p0] is None" in off and "if not _sv0[p0] is None" not in on
    # connect four's move leaves its column open but for the last disc: `remove` as before
    c4 = _fused(FLAG, True, "connect4", record)
    assert "legal.remove(action)" in c4 and "_ix" not in c4


@pytest.mark.parametrize("text,action,taken", [
    (TAKEN, "take", True),
    (GRAVITY, "drop", False),  # the square it fills is not the one its test names
    (TWICE, "mark", False),  # a count, not a none test
    (TAKEN.replace("set cell[s] = current", "set cell[s] = current\n    set cell[s] = none"), "take", False),
    (TAKEN.replace("    cell: Square -> Player? = none", "    cell: Square -> Player? = none\n    last: Player? = none")
     .replace("set cell[s] = current", "set cell[s] = last"), "take", False),  # the value may be none
    (TAKEN.replace("    set cell[s] = current\n", "    if n < 9\n        set cell[s] = current\n"), "take", False),
])
def test_taken_by_its_move(text: str, action: str, taken: bool) -> None:
    """Only where the effect surely fills the entry the move's test requires empty."""
    from regelwerk.interpreter.compiler.codegen import CodeGen

    rules = regelwerk.load_text(text, "t.rules")
    g = CodeGen(rules.model, False, {})
    assert taken_by_its_move(g, rules.model.actions[action]) is taken


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same(FLAG, "removed where offered", "taken", TAKEN, record, "tictactoe")


def test_every_way_of_handing_a_move_over_answers_the_same() -> None:
    for record in (False, True):
        on, off = compiled_with(FLAG, True, "tictactoe"), compiled_with(FLAG, False, "tictactoe")
        for seed in range(4):
            assert _moves_and_errors(on, seed, record) == _moves_and_errors(off, seed, record)


FUSED = """
def BA_0(G, action, player=None):
    legal = G._legal
    if player is None and legal is not None:
        for offered in legal:
            if offered is action:
                break
        else:
            return _GAME_APPLY(G, action, player)
        G.x = 1
        while True:
            if G.y:
                legal = legal.copy()
                legal.remove(action)
                break
            break
        G._legal = legal
"""


@pytest.mark.parametrize("change,made", [
    ("", True),
    ("        legal.append(PASS)\n", False),  # the list changed otherwise
    ("        legal = G.other\n", False),  # bound to another list
    ("        action = G.other\n", False),  # the move bound again
    ("        G.f(legal)\n", False),  # handed to what might change it
    ("        legal[0] = None\n", False),
])
def test_the_pass_refuses_a_stale_position(change: str, made: bool) -> None:
    fn = ast.parse(FUSED.replace("        G.x = 1\n", "        G.x = 1\n" + change)).body[0]
    assert isinstance(fn, ast.FunctionDef)
    assert removed_where_offered(fn) is made
    text = ast.unparse(fn)
    assert ("del legal[_ix]" in text) is made and ("legal.remove(action)" in text) is not made


def test_the_pass_refuses_a_removal_that_may_run_twice() -> None:
    twice = FUSED.replace("                break\n            break\n", "            \n            continue\n")
    fn = ast.parse(twice).body[0]
    assert isinstance(fn, ast.FunctionDef)
    assert not removed_where_offered(fn)


def test_the_position_found_is_the_moves() -> None:
    """The rewritten function run on a list: the copy loses exactly the move, wherever it is."""
    fn = ast.parse(FUSED).body[0]
    assert isinstance(fn, ast.FunctionDef) and removed_where_offered(fn)
    ns: dict = {"_GAME_APPLY": lambda *a: "outside"}
    exec(compile(ast.fix_missing_locations(ast.Module([fn], [])), "<test>", "exec"), ns)  # our own code

    class G:
        x = 0
        y = True

    moves = [("m", (i,)) for i in range(6)]
    for i, move in enumerate(moves):
        g = G()
        g._legal = moves
        ns["BA_0"](g, move)
        assert g._legal == moves[:i] + moves[i + 1:] and moves == [("m", (j,)) for j in range(6)]
    g = G()
    g._legal = moves
    assert ns["BA_0"](g, ("m", (2,))) == "outside"  # equal, not the offered object
