"""`unswitched sums` (docs/architecture.md §5, `CodeGen.UNSWITCHED_SUMS`, unswitch.py): a sum's
loop whose summand is a conditional on a comparison fixed for the loop (`if p == A then ... else
...`, a chain of them, `k == onyx and ...`) tests it once, one loop per branch. Pinned: the form
(on a small ruleset and on the pass alone), what it leaves alone (a test that reads the loop's
item or a name the loop binds), and the same games, saves, results and traces with it on and off
(the small ruleset and Root)."""

from __future__ import annotations

import ast

import pytest
from playing import chosen_and_same, source_with
from regelwerk.interpreter.compiler.unswitch import unswitched_sums

GEMS = """\
players A, B
enum Spot = s1, s2, s3, s4
enum Kind = ruby, jade, onyx
state
    rubies: Spot -> int = 0
    jades: Spot -> int = 0
    onyxes: Spot -> int = 0
    score: Player -> int = 0
define held(p: Player): int = sum s in Spot: if p == A then rubies[s] else jades[s]
define of_kind(k: Kind): int = sum s in Spot: if k == ruby then rubies[s] else if k == jade then jades[s] else if k == onyx and onyxes[s] > 1 then 2 else 0
action put(s in Spot, k in Kind)
    require held(current) < 6 else "full"
    require of_kind(k) < 5 else "that kind is full"
    if k == ruby
        add 1 to rubies[s]
    elif k == jade
        add 1 to jades[s]
    else
        add 1 to onyxes[s]
    set score[current] = held(current) + of_kind(onyx)
flow
    repeat 10 times
        turn
            play optional put
    finish ranking q by score[q]
"""


def _passed(code: str) -> tuple[str, bool]:
    tree = ast.parse(code)
    done = unswitched_sums(tree.body[0])  # type: ignore[arg-type]
    return ast.unparse(tree), done


def test_the_form_of_the_program():
    on = source_with("UNSWITCHED_SUMS", True, "gems", GEMS)
    off = source_with("UNSWITCHED_SUMS", False, "gems", GEMS)
    chain = on.split("\ndef D_1(")[1].split("\ndef ")[0]
    assert "if p0 == 'ruby':" in chain and "elif p0 == 'jade':" in chain and "elif p0 == 'onyx':" in chain
    assert "+= 2 if _sv2[" in chain  # the rest of `k == onyx and onyxes[s] > 1`, per item
    assert " if p0 == 'ruby' else " in off.split("\ndef D_1(")[1].split("\ndef ")[0]


def test_the_pass_and_its_values():
    code = ("def f(m, n, p, xs):\n    r = 0\n    for x in xs:\n        if x == 'skip':\n            continue\n"
            "        r += m[x] if p == 'A' else n[x]\n    return r\n")
    out, done = _passed(code)
    assert done and "if p == 'A':" in out and out.count("for x in xs:") == 2 and out.count("continue") == 2
    m, n = {"a": 1, "b": 2, "skip": 50}, {"a": 10, "b": 20, "skip": 500}
    for p in ("A", "B"):
        for xs in (["a", "b", "skip"], []):
            ns: dict = {}
            exec(compile(code, "<before>", "exec"), ns)  # noqa: S102 - the test's own code
            before = ns["f"](m, n, p, xs)
            exec(compile(out, "<after>", "exec"), ns)  # noqa: S102
            assert ns["f"](m, n, p, xs) == before


@pytest.mark.parametrize("code", [
    # the test reads the item
    "def f(m, n, xs):\n    r = 0\n    for x in xs:\n        r += m[x] if x == 'a' else n[x]\n    return r\n",
    # the test reads a name the loop binds
    "def f(m, n, xs):\n    r = 0\n    for x in xs:\n        p = m[x]\n        r += m[x] if p == 1 else n[x]\n    return r\n",
    # the test reads the sum itself
    "def f(m, n, xs):\n    r = 0\n    for x in xs:\n        r += m[x] if r == 0 else n[x]\n    return r\n",
    # not a comparison of names and literals: a look-up may fail
    "def f(m, n, p, xs):\n    r = 0\n    for x in xs:\n        r += m[x] if n[p] == 1 else 0\n    return r\n",
    # the loop has an else
    "def f(m, p, xs):\n    r = 0\n    for x in xs:\n        r += m[x] if p == 1 else 0\n    else:\n        r = -1\n    return r\n",
])
def test_left_alone(code):
    out, done = _passed(code)
    assert not done and out == ast.unparse(ast.parse(code))


@pytest.mark.parametrize("record", [False, True])
def test_same_games_with_and_without(record):
    chosen_and_same("UNSWITCHED_SUMS", "unswitched sums", "gems", GEMS, record, "root")
