"""`split conditional` (interpreter/compiler/codegen.py `conditional_test`,
`CodeGen.SPLIT_CONDITIONALS`): a test of `if C then T else E` — a require, a loop's filter, or
the body of a definition tested there — is `if C:` with T tested under it and E under its `else`,
so an `and` or an aggregate in a branch is written in place instead of a helper called per
candidate (Root's `rules(p, c)`, whose `all q in players where q != p: ...` was a call per
clearing). C runs first and then one branch, as in the expression. The same moves, games and
traces as without it."""

from __future__ import annotations

import pytest
from playing import compiled_with, listing_with, same_with_and_without

HILLS = """game "Hills"
players Ann, Bob, Cy
enum Hill = h1, h2, h3, h4, h5
state
    men: Player -> Hill -> int = {Ann: {h1: 2, h2: 1, h3: 0, h4: 0, h5: 0}, Bob: {h1: 0, h2: 1, h3: 2, h4: 0, h5: 0}, Cy: {h1: 0, h2: 0, h3: 0, h4: 1, h5: 1}}
    moves: int = 0
define strength(p: Player, h: Hill): int = men[p][h] + (if h == h5 then 1 else 0)
define holds(p: Player, h: Hill): bool =
    (if h == h3 then p == Bob
        else strength(p, h) > 0 and (all q in players where q != p: strength(q, h) < strength(p, h)))
define held(p: Player): list Hill = list h in Hill where holds(p, h)
action march(a: Hill, b: Hill)
    "March one man."
    require men[current][a] > 0 else "nobody there"
    require a != b else "stay"
    require holds(current, a) or holds(current, b) else "hold one end"
    move 1 from men[current][a] to men[current][b]
    add 1 to moves
    if moves == 12
        finish draw
action call(h: Hill)
    "Call a man where you hold none."
    require len(held(current)) < 3 else "enough"
    require (if men[current][h] > 1 then holds(current, h) else 10 // (men[current][h] + 1) > 5) else "no"
    add 1 to men[current][h]
    add 1 to moves
    if moves == 12
        finish draw
action wait
    "Wait."
    add 1 to moves
    if moves == 12
        finish draw
flow
    repeat
        turn
            play march, call, wait
"""
TEXTS = {"hills": HILLS}


def test_the_choice_is_made_and_the_loop_is_in_place() -> None:
    choices = compiled_with("SPLIT_CONDITIONALS", True, "hills", HILLS).program(False).choices
    split = {(c.rule, c.detail) for c in choices if c.kind == "split conditional"}
    assert ("action march", "h == h3") in split and ("define held", "h == h3") in split
    assert ("action call", "men[current][h] > 1") in split
    on = listing_with("SPLIT_CONDITIONALS", True, "hills", HILLS, "march")
    assert "for _a" in on and "in G.player_list:" in on and "_A" not in on.replace("_ACT", "")
    assert " else:\n" in on.replace("\n", "\n ")
    off = listing_with("SPLIT_CONDITIONALS", False, "hills", HILLS, "march")
    assert "_A" in off.replace("_ACT", "") and "in G.player_list:" not in off
    root = compiled_with("SPLIT_CONDITIONALS", True, "root").program(False).choices
    assert {c.rule for c in root if c.kind == "split conditional"} >= {"action take_move", "define ruled_by"}


@pytest.mark.parametrize("record", [False, True])
def test_the_same_moves_and_games_with_and_without(record: bool) -> None:
    same_with_and_without("SPLIT_CONDITIONALS", record, TEXTS, bundled="root")
