"""`pending with the successor` (interpreter/compiler/pendingnext.py, `CodeGen.PENDING_WITH_NEXT`):
where a turn's successor is the player the next decision asks, the fused apply takes that
player's pending record from the successor table's entry (`G._next`), not from `PLAYING` by
name. The table's records are the program's own; the same games, traces and saves with the
switch on and off; the pass rewrites only a look-up whose name is surely the successor."""

from __future__ import annotations

import ast

import pytest
from playing import chosen_and_same
from regelwerk.interpreter.compiler.pendingnext import pending_with_next
from test_fused_steps import _fused
from test_removed_where_offered import TAKEN

import regelwerk

FLAG = "PENDING_WITH_NEXT"

# three players on `removed where offered`'s six squares: a round starts every third turn, with
# the successor's record at hand
THREE = TAKEN.replace("players X, O", "players A, B, C")


@pytest.mark.parametrize("record", [False, True])
def test_tictactoe_takes_the_successors_record_from_the_table(record: bool) -> None:
    on, off = _fused(FLAG, True, "tictactoe", record), _fused(FLAG, False, "tictactoe", record)
    assert "G.pending = nxt_pending" in on and "PLAYING[" not in on
    assert "G.pending = PLAYING[who]" in off and "G.pending = nxt_pending" not in off


def test_the_table_holds_the_programs_own_records() -> None:
    for record in (False, True):
        rules = regelwerk.load_text(THREE, "three.rules")
        g = rules.new_game(record=record)
        playing = g.prog.namespace["PLAYING"]
        assert {p: (nxt, new_round) for p, (nxt, new_round, _) in g._next.items()} == \
            {"A": ("B", False), "B": ("C", False), "C": ("A", True)}
        for nxt, _, pending in g._next.values():
            assert pending is playing[nxt]


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same(FLAG, "pending with the successor", "three", THREE, record, "tictactoe")


FUSED = """
def BA_0(G, action, player=None):
    nxt_p, new_round, nxt_pending = G._next[G.current]
    if new_round:
        G.round += 1
    G.current = nxt_p
    who = nxt_p
    try:
        G.pending = PLAYING[who]
    except KeyError:
        G.pending = {'kind': 'play', 'player': who}
"""


@pytest.mark.parametrize("change,made", [
    ("", True),
    ("    who = G.current\n", False),  # the name bound again, to what the pass cannot see is the same
    ("    nxt_p = G.other\n", False),  # the successor's name bound again
    ("    for nxt_p in G.seats:\n        pass\n", False),  # ... anywhere inside a statement
    ("    nxt_pending = None\n", False),  # the record's name bound again
])
def test_the_pass_rewrites_only_the_successors_look_up(change: str, made: bool) -> None:
    fn = ast.parse(FUSED.replace("    try:\n", change + "    try:\n")).body[0]
    assert isinstance(fn, ast.FunctionDef)
    assert pending_with_next(fn) is made
    text = ast.unparse(fn)
    assert ("G.pending = nxt_pending" in text) is made and ("PLAYING[who]" in text) is not made


def test_the_pass_needs_the_unpacking_before_the_look_up_in_the_same_statements() -> None:
    nested = FUSED.replace("    who = nxt_p\n    try:\n        G.pending = PLAYING[who]\n"
                           "    except KeyError:\n        G.pending = {'kind': 'play', 'player': who}\n",
                           "    if G.x:\n        who = nxt_p\n        try:\n            G.pending = PLAYING[who]\n"
                           "        except KeyError:\n            G.pending = {'kind': 'play', 'player': who}\n")
    fn = ast.parse(nested).body[0]
    assert isinstance(fn, ast.FunctionDef) and not pending_with_next(fn)
    before = ast.parse(FUSED.replace("    nxt_p, new_round, nxt_pending = G._next[G.current]\n", "")
                       + "    nxt_p, new_round, nxt_pending = G._next[G.current]\n").body[0]
    assert isinstance(before, ast.FunctionDef) and not pending_with_next(before)
    direct = ast.parse(FUSED.replace("PLAYING[who]", "PLAYING[nxt_p]")).body[0]  # the successor's own name
    assert isinstance(direct, ast.FunctionDef) and pending_with_next(direct)


def test_the_rewritten_function_sets_the_successors_record() -> None:
    fn = ast.parse(FUSED).body[0]
    assert isinstance(fn, ast.FunctionDef) and pending_with_next(fn)
    ns: dict = {}
    exec(compile(ast.fix_missing_locations(ast.Module([fn], [])), "<test>", "exec"), ns)  # our own code
    records = {p: {"kind": "play", "player": p} for p in "AB"}

    class G:
        current, round, pending = "A", 0, None
        _next = {"A": ("B", False, records["B"]), "B": ("A", True, records["A"])}

    ns["BA_0"](G, None)
    assert G.current == "B" and G.pending is records["B"] and G.round == 0
    ns["BA_0"](G, None)
    assert G.current == "A" and G.pending is records["A"] and G.round == 1
