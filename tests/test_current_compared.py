"""`current compared` (interpreter/compiler/curcompare.py, `CodeGen.CURRENT_COMPARED`): a look-up
compared with the current player, `m[k] == current` or `!=`, tests None and identity first with
the look-up kept in a local, since the current player is never None. The same answers for every
value the look-up may hold, the same games with and without."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import pytest
from playing import chosen_and_same, source_with
from regelwerk.interpreter.compiler.curcompare import current_compared
from treepass import passed, run

# names compared by value: `names by identity` (test_canonical.py) writes these comparisons
# as `is` before this pass sees them
BY_VALUE = (("NAMES_BY_IDENTITY", False),)

COMPARE = """def f(G, m, k):
    _cur = G.current
    return (m[k] == _cur, m[k] != _cur, _cur == m[k], _cur != m[k])
"""


def _pass(code: str) -> tuple[str, bool]:
    out, _constants, done = passed(code, {}, lambda fn, made: current_compared(fn, made.fresh))
    return out, done


def test_the_forms_answer_as_python_does_for_every_value_of_the_look_up() -> None:
    code, done = _pass(COMPARE)
    assert done and code.count(":= m[k]") == 4 and " is _cur" in code and "is None" in code
    ann = "Ann"
    also_ann = "".join(["A", "nn"])  # equal, not the same object
    for held, cur in itertools.product([None, ann, also_ann, "Bob", 0, ["Ann"]], [ann, also_ann, "Bob"]):
        m = {"a1": held}
        expected = (held == cur, held != cur, cur == held, cur != held)
        assert run(code, {}, SimpleNamespace(current=cur), m, "a1") == expected, (held, cur)
    with pytest.raises(KeyError):  # a failing look-up fails as before, once
        run(code, {}, SimpleNamespace(current=ann), {}, "a1")


@pytest.mark.parametrize("code", [
    "def f(G, m, k, _cur):\n    return m[k] == _cur\n",  # a parameter: it may be anything
    "def f(G, m, k):\n    _cur = m[k]\n    return m[k] == _cur\n",  # bound to something else
    "def f(G, m, k):\n    _cur = G.current\n    _cur = None\n    return m[k] == _cur\n",
    "def f(G, m, ks):\n    _cur = G.current\n    return [m[k] == _cur for k in ks]\n",  # `:=` in a comprehension
    "def f(G, m, k):\n    _cur = G.current\n    return m[k] < _cur\n",
    "def f(G, m, k):\n    _cur = G.current\n    return m[k][0] == _cur\n",  # not a plain look-up
])
def test_left_alone_where_current_is_not_known_or_the_pattern_differs(code: str) -> None:
    out, done = _pass(code)
    assert not done and ":=" not in out


def test_the_choice_is_made_in_the_win_tests() -> None:
    on = source_with("CURRENT_COMPARED", True, "connect4", held=BY_VALUE)
    assert ":= _sv0[" in on and " is _mover or " in on  # the win test inlined in the block
    assert ":= _sv0[" not in source_with("CURRENT_COMPARED", False, "connect4", held=BY_VALUE)


TILES = """game "Tiles"
players Ann, Bob
board Square = grid 3 x 2
state
    mark: Square -> Player? = none
define mine(s: Square): bool = mark[s] == current
action put(s in Square)
    "Mark a square that is not yours."
    require mark[s] != current else "yours"
    require (count t in Square where mark[t] == none) > 0 else "full"
    set mark[s] = current
    if (count t in Square where mine(t)) >= 3
        finish winner current
flow
    repeat
        turn
            play put
"""


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same("CURRENT_COMPARED", "current compared", "tiles", TILES, record, "connect4", BY_VALUE)
