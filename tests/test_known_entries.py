"""`known entries` (interpreter/compiler/known.py, `CodeGen.KNOWN_ENTRIES`): in a loop over the
keys kept by value (`cell[s] == current`), the body's reads of that entry are the value itself.
The pass on small functions (what it replaces and what it leaves), the choice on the bundled
checkers, and the same games and traces as without it."""

from __future__ import annotations

import ast

import pytest
from playing import chosen_and_same, compiled_with, games_digest, source_with
from regelwerk.interpreter.compiler.known import known_entries

LOOP = """
def f(G, m, v, dom):
    out = []
    keys = _keys_with(G, '=m', 'm', v, dom)
    unkept = keys is dom
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


def _run(code: str, kept: bool, *args: object) -> object:
    """`f(*args)` with the game's kept keys (`kept`) or without (the whole domain, tested)."""
    def keys_with(G: object, key: str, name: str, value: object, dom: list) -> list:
        return [x for x in dom if args[0][x] == value] if kept else dom

    ns: dict = {"_keys_with": keys_with}
    exec(compile(code, "<test>", "exec"), ns)  # noqa: S102 - the test's own code
    return ns["f"](None, *args)


def test_the_entry_read_in_the_body_is_the_value_the_keys_were_kept_for() -> None:
    after, done = _known(LOOP)
    assert done
    assert "'dark' if v == 'B'" in after and ", v))" in after
    assert "if not m[x] == v" in after  # the guard itself stays
    m = {"a": "B", "b": "W", "c": "B"}
    for kept in (True, False):
        assert _run(after, kept, m, "B", ["a", "b", "c"]) == _run(LOOP, kept, m, "B", ["a", "b", "c"]) == \
            [("a", "dark", "B"), ("c", "dark", "B")]


def test_a_constant_value_is_written_as_that_constant() -> None:
    code = LOOP.replace(" == v:", " == None:").replace("'m', v, dom)", "'m', None, dom)")
    after, done = _known(code)
    assert done and "'dark' if None == 'B'" in after
    for kept in (True, False):
        assert _run(after, kept, {"a": None, "b": "W"}, None, ["a", "b"]) == [("a", "light", None)]


@pytest.mark.parametrize("change, why", [
    (("        out.append(", "        m[x] = 1\n        out.append("), "the body writes the map"),
    (("        out.append(", "        x = 'b'\n        out.append("), "the body binds the loop's variable again"),
    (("        out.append(", "        v = 'W'\n        out.append("), "the body binds the value again"),
    (("if not m[x] == v:", "if not m[x] != v:"), "another test"),
    (("if not m[x] == v:", "if not m[x] == v + 'x':"), "a value that is not a name or a constant"),
    (("        if unkept:\n            if not m[x] == v:\n                continue\n", ""), "no guard"),
    (("    for x in keys:", "    for x in dom:"), "a loop over another list with the same guard"),
    (("        if unkept:", "        if dom:"), "another guard"),
    (("    unkept = keys is dom\n", "    unkept = keys is dom\n    v = 'W'\n"), "the value bound again after"),
    (("'m', v, dom)", "'m', 'W', dom)"), "the keys kept for another value"),
])
def test_what_is_left_alone(change: tuple[str, str], why: str) -> None:
    code = LOOP.replace(*change)
    after, done = _known(code)
    assert not done, why
    assert after == ast.unparse(ast.parse(code))


def test_a_list_kept_for_another_value_is_not_taken_for_one() -> None:
    """The generated form: the game's kept list for the value, made when there is none."""
    code = LOOP.replace("    keys = _keys_with(", "    keys = kv.get(v) if kv is not None else None\n"
                                               "    if keys is None:\n        keys = _keys_with(")
    code = code.replace("def f(G, m, v, dom):", "def f(G, m, v, dom, kv=None, w=None):")
    assert _known(code)[1]
    assert not _known(code.replace("kv.get(v)", "kv.get(w)"))[1]


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
    chosen_and_same("KNOWN_ENTRIES", "known entries", "colours", COLOURS, record, bundled="checkers")
