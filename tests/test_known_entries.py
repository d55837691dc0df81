"""`known entries` (interpreter/compiler/known.py, `CodeGen.KNOWN_ENTRIES`): in a loop over the
keys kept by value (`cell[s] == current`), the body's reads of that entry are the value itself.
The pass on small functions (what it replaces and what it leaves), the choice on the bundled
checkers, and the same games and traces as without it."""

from __future__ import annotations

import ast

import pytest
from playing import compiled_with, games_digest, same_with_and_without, source_with
from regelwerk.interpreter.compiler.known import known_entries

LOOP = """
def f(keys, unkept, m, v):
    out = []
    for x in keys:
        if unkept:
            if not m[x] == v:
                continue
        out.append((x, 'dark' if m[x] == 'B' else 'light', m[x]))
    return out
"""


def _known(code: str) -> tuple[str, bool]:
    tree = ast.parse(code)
    done = known_entries(tree.body[0])  # type: ignore[arg-type]
    return ast.unparse(tree), done


def _run(code: str, *args: object) -> object:
    ns: dict = {}
    exec(compile(code, "<test>", "exec"), ns)  # noqa: S102 - the test's own code
    return ns["f"](*args)


def test_the_entry_read_in_the_body_is_the_value_the_keys_were_kept_for() -> None:
    after, done = _known(LOOP)
    assert done
    assert "'dark' if v == 'B'" in after and ", v))" in after
    assert "if not m[x] == v" in after  # the guard itself stays
    m = {"a": "B", "b": "W", "c": "B"}
    # kept: the keys whose entry is v; not kept: every key, the guard tests them
    for keys, unkept in ((["a", "c"], False), (["a", "b", "c"], True)):
        assert _run(after, keys, unkept, m, "B") == _run(LOOP, keys, unkept, m, "B") == \
            [("a", "dark", "B"), ("c", "dark", "B")]


def test_a_constant_value_is_written_as_that_constant() -> None:
    code = LOOP.replace("== v:", "== None:").replace("def f(keys, unkept, m, v)", "def f(keys, unkept, m)")
    after, done = _known(code)
    assert done and "'dark' if None == 'B'" in after
    assert _run(after, ["a", "b"], True, {"a": None, "b": "W"}) == [("a", "light", None)]


@pytest.mark.parametrize("change, why", [
    (("        out.append(", "        m[x] = 1\n        out.append("), "the body writes the map"),
    (("        out.append(", "        x = 'b'\n        out.append("), "the body binds the loop's variable again"),
    (("        out.append(", "        v = 'W'\n        out.append("), "the body binds the value again"),
    (("if not m[x] == v:", "if not m[x] != v:"), "another test"),
    (("if not m[x] == v:", "if not m[x] == v + 'x':"), "a value that is not a name or a constant"),
    (("        if unkept:\n            if not m[x] == v:\n                continue\n", ""), "no guard"),
])
def test_what_is_left_alone(change: tuple[str, str], why: str) -> None:
    code = LOOP.replace(*change)
    after, done = _known(code)
    assert not done, why
    assert after == ast.unparse(ast.parse(code))


def test_checkers_asks_the_pieces_colour_of_the_player_not_the_board() -> None:
    on = compiled_with("KNOWN_ENTRIES", True, "checkers")
    for record in (False, True):
        assert {c.rule for c in on.program(record).choices if c.kind == "known entries"} == \
            {"action step", "define first_jumps", "define jump_paths"}
    on, off = source_with("KNOWN_ENTRIES", True, "checkers"), source_with("KNOWN_ENTRIES", False, "checkers")
    # the directions of a man: by the player whose pieces are walked, not by the square's entry
    assert "if _cur == 'Black' else _JR" in on and "if _sv0[p0] == 'Black' else _JR" not in on
    assert "if _sv0[p0] == 'Black' else _JR" in off and "if _cur == 'Black' else _JR" not in off


@pytest.mark.parametrize("record", [False, True])
def test_the_same_checkers_games_with_and_without(record: bool) -> None:
    assert games_digest(compiled_with("KNOWN_ENTRIES", True, "checkers"), 2, range(6), record) == \
        games_digest(compiled_with("KNOWN_ENTRIES", False, "checkers"), 2, range(6), record)


COLOURS = """game "Colours"
players Ann, Bob
board Square = grid 3 x 3
state
    cell: Square -> Player? = none
    mark: Square -> int = 0
    turns: int = 0
procedure set_up
    set cell[a1] = Ann
    set cell[c3] = Bob
define weight(p: Player) = sum s in Square where cell[s] == p: (if cell[s] == Ann then 2 else 1) + mark[s]
action grow(from: Square, to: Square)
    "A piece marks its square and claims a free one."
    require cell[from] == current else "not yours"
    require cell[to] == none else "taken"
    require weight(cell[from]) < 12 else "too heavy"
    set cell[to] = current
    add 1 to mark[from]
    add 1 to turns
    if turns >= 8
        finish draw
flow
    do set_up
    repeat
        turn
            if possible(grow)
                play grow
            else
                finish draw
"""


@pytest.mark.parametrize("record", [False, True])
def test_the_same_moves_and_games_of_a_small_ruleset_with_and_without(record: bool) -> None:
    on = compiled_with("KNOWN_ENTRIES", True, "colours", COLOURS)
    assert any(c.kind == "known entries" for c in on.program(record).choices)
    same_with_and_without("KNOWN_ENTRIES", record, {"colours": COLOURS}, bundled="checkers")
