"""`common expressions` (interpreter/compiler/common_exprs.py, `CodeGen.COMMON_EXPRESSIONS`): in a
definition or a listing, a pure expression (look-ups, arithmetic, comparisons, conditionals) that
a statement evaluates first and a later statement of the same list evaluates again is kept in a
local where it is first evaluated. Root's `rules(p, c)` worked `rule_strength(p, c)` out for its
`> 0` test and again as its `all`'s invariant; `dig`'s listing read `CARDS[k].suit` three times
per card and clearing. Only where no name it reads is bound anew in between and nothing it reads
is changed in place by the function (its own lists and memos are). The same moves, games and
traces as without it."""

from __future__ import annotations

import ast
import re

import pytest
from playing import compiled_with, games_digest, same_with_and_without, source_with
from regelwerk.interpreter.compiler.common_exprs import _settled_invariants, common_expressions

RIDGES = """game "Ridges"
players Ann, Bob, Cy
enum Hill = h1, h2, h3, h4, h5
record Tag(kind: text, worth: int)
const TAGS = {h1: Tag(kind: "rock", worth: 1), h2: Tag(kind: "wood", worth: 0), h3: Tag(kind: "rock", worth: 2), h4: Tag(kind: "sand", worth: 0), h5: Tag(kind: "wood", worth: 1)}
state
    men: Player -> Hill -> int = {Ann: {h1: 2, h2: 1, h3: 0, h4: 0, h5: 0}, Bob: {h1: 0, h2: 1, h3: 2, h4: 0, h5: 0}, Cy: {h1: 0, h2: 0, h3: 0, h4: 1, h5: 1}}
    forts: Hill -> int = 0
    moves: int = 0
define strength(p: Player, h: Hill): int = men[p][h] + (if p == Ann then forts[h] else TAGS[h].worth)
define holds(p: Player, h: Hill): bool =
    strength(p, h) > 0 and (all q in players where q != p: strength(q, h) < strength(p, h))
define alike(a: Hill, b: Hill): bool = TAGS[a].kind == "rock" or TAGS[a].kind == TAGS[b].kind
define rich(h: Hill): bool = (count q in players where men[q][h] > 1) >= 10 // (forts[h] + 1) - 9
action march(a: Hill, b: Hill)
    "March one man."
    require men[current][a] > 0 else "nobody there"
    require a != b else "stay"
    require holds(current, a) or holds(current, b) else "hold one end"
    move 1 from men[current][a] to men[current][b]
    add 1 to moves
    if moves == 12
        finish draw
action build(a: Hill, b: Hill)
    "Build a fort on a hill like another you hold."
    require a != b else "two hills"
    require alike(a, b) or rich(a) else "not alike"
    require holds(current, b) else "hold it"
    add 1 to forts[a]
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
            play march, build, wait
"""
TEXTS = {"ridges": RIDGES}
STRENGTH = "_sv0[p0][p1] + (_sv1[p1] if p0 == 'Ann' else _kc0[p1]['worth'])"


def _function(source: str, name: str) -> str:
    return ("\n" + source).split(f"\ndef {name}(")[1].split("\ndef ")[0]


def test_the_choice_is_made_and_the_strength_is_worked_out_once() -> None:
    choices = compiled_with("COMMON_EXPRESSIONS", True, "ridges", RIDGES).program(False).choices
    assert {"define holds", "define alike"} <= {c.rule for c in choices if c.kind == "common expressions"}
    on, off = (source_with("COMMON_EXPRESSIONS", flag, "ridges", RIDGES) for flag in (True, False))
    holds_on = next(part for part in on.split("\ndef ") if STRENGTH in part and "G.player_list" in part)
    holds_off = next(part for part in off.split("\ndef ") if STRENGTH in part and "G.player_list" in part)
    assert holds_off.count(STRENGTH) == 2 and holds_on.count(STRENGTH) == 1  # the `> 0`, the invariant
    local = re.search(rf"(_ce\d+) = {re.escape(STRENGTH)}\n", holds_on).group(1)
    assert f"if not {local} > 0:" in holds_on and f"< {local}:" in holds_on  # the loop reads it
    assert "_iv" not in holds_on and "_iv2 is None" in holds_off  # no invariant kept lazily
    alike = "(_ce" in on and re.search(r"\(_ce\d+ := _kc0\[p0\]\['kind'\]\) == 'rock' or _ce\d+ == ", on)
    assert alike and "_kc0[p0]['kind'] == 'rock' or _kc0[p0]['kind'] ==" in off
    root = compiled_with("COMMON_EXPRESSIONS", True, "root").program(False).choices
    assert {"define rules", "action dig", "action cat_build"} <= {c.rule for c in root if c.kind == "common expressions"}
    dig = _function(source_with("COMMON_EXPRESSIONS", True, "root"),
                    compiled_with("COMMON_EXPRESSIONS", True, "root").program(False).actions["dig"].enum.__name__)
    assert dig.count("['suit']") == 1  # the rows' key, read again from its local per clearing


def test_an_aggregate_helper_keeps_its_expressions_too() -> None:
    """Khan's second invariant, an `all` written as a helper function `_A<n>`, reads a
    square's yurt three times per square (traced games test it)."""
    khan = compiled_with("COMMON_EXPRESSIONS", True, "khan").program(True).choices
    assert "invariant 1" in {c.rule for c in khan if c.kind == "common expressions"}


@pytest.mark.parametrize("record", [False, True])
def test_the_same_khan_games_by_digest(record: bool) -> None:
    seeds = range(4)
    assert games_digest(compiled_with("COMMON_EXPRESSIONS", True, "khan"), 3, seeds, record) == \
        games_digest(compiled_with("COMMON_EXPRESSIONS", False, "khan"), 3, seeds, record)


def test_off_leaves_no_local() -> None:
    for name, text in (("ridges", RIDGES), ("root", None)):
        assert not re.search(r"\b_ce\d+\b", source_with("COMMON_EXPRESSIONS", False, name, text))
        assert all(c.kind != "common expressions"
                   for c in compiled_with("COMMON_EXPRESSIONS", False, name, text).program(False).choices)


@pytest.mark.parametrize("record", [False, True])
def test_the_same_moves_and_games_with_and_without(record: bool) -> None:
    same_with_and_without("COMMON_EXPRESSIONS", record, TEXTS, bundled="root")


@pytest.mark.parametrize("record", [False, True])
def test_the_same_root_games_by_digest(record: bool) -> None:
    seeds = range(10, 20)
    assert games_digest(compiled_with("COMMON_EXPRESSIONS", True, "root"), 2, seeds, record) == \
        games_digest(compiled_with("COMMON_EXPRESSIONS", False, "root"), 2, seeds, record)


# The pass on functions of its own: what it keeps, and what it must not.
CHANGED = {
    "appended": """def D_9(G, p0):
    xs = [p0, 1]
    if not xs[-1] * 2 > 0:
        return 0
    xs.append(5)
    return xs[-1] * 2""",
    "an alias appended": """def D_9(G, p0):
    xs = [p0, 1]
    if not xs[-1] * 2 > 0:
        return 0
    ys = xs
    ys.append(5)
    return xs[-1] * 2""",
    "inside another list": """def D_9(G, p0):
    xs = [p0, 1]
    box = [xs]
    if not xs[-1] * 2 > 0:
        return 0
    box[0].append(5)
    return xs[-1] * 2""",
    "held by another list": """def D_9(G, p0):
    xs = [p0, 1]
    box = [xs]
    if not box[0][-1] * 2 > 0:
        return 0
    xs.append(5)
    return box[0][-1] * 2""",
    "held by a memo": """def D_9(G, p0):
    xs = [p0, 1]
    memo = {}
    memo.setdefault(p0, xs)
    if not memo[p0][-1] * 2 > 0:
        return 0
    xs.append(5)
    return memo[p0][-1] * 2""",
    "passed to a call": """def D_9(G, p0):
    xs = [p0, 1]
    if not xs[-1] * 2 > 0:
        return 0
    grow(xs)
    return xs[-1] * 2""",
    "bound anew": """def D_9(G, p0):
    xs = [p0, 1]
    if not xs[-1] * 2 > 0:
        return 0
    xs = [3, 4]
    return xs[-1] * 2""",
}
KEPT = """def D_9(G, p0):
    out = []
    if not T[p0][0] + T[p0][1] > 0:
        return out
    for q in T:
        out.append(q)
        if T[q][0] < T[p0][0] + T[p0][1]:
            out.append(T[p0][0] + T[p0][1])
    return out"""


def _run(text: str, p0: object) -> object:
    def grow(xs: list) -> None:
        xs.append(7)

    space: dict = {"T": {"a": (1, 2), "b": (4, 0), "c": (0, 0)}, "grow": grow}
    exec(compile(text, "<test>", "exec"), space)  # noqa: S102 - the test's own source
    return space["D_9"](None, p0)


def _passed(text: str) -> tuple[str, bool]:
    tree = ast.parse(text)
    names = iter(range(100))
    done = common_expressions(tree.body[0], lambda prefix: f"_{prefix}{next(names)}")
    return ast.unparse(tree), done


@pytest.mark.parametrize("case", sorted(CHANGED))
def test_nothing_changed_in_place_or_bound_anew_is_kept(case: str) -> None:
    after, done = _passed(CHANGED[case])
    assert not done and "_ce" not in after
    assert _run(after, 3) == _run(CHANGED[case], 3)


def test_an_expression_read_again_is_kept_and_gives_the_same_values() -> None:
    after, done = _passed(KEPT)
    assert done and after.count("T[p0][0] + T[p0][1]") == 1
    assert "_ce0 = T[p0][0] + T[p0][1]" in after and "out.append(_ce0)" in after
    for p0 in ("a", "b", "c"):
        assert _run(after, p0) == _run(KEPT, p0)
    with pytest.raises(KeyError):  # fails where it did: the first evaluation
        _run(after, "z")


# a loop's invariant kept lazily (`X = None`, `if X is None: X = ...` in the loop) whose value
# became a kept local: read straight from it, unless X is read elsewhere or the local bound anew
LAZY = """def D_9(G, p0):
    if not T[p0][0] + T[p0][1] > 0:
        return False
    _r1 = True
    _iv2 = None
    for q in T:
        if not q != p0:
            continue
        if _iv2 is None:
            _iv2 = T[p0][0] + T[p0][1]
        if not T[q][0] + T[q][1] < _iv2:
            _r1 = False
            break
    return _r1"""
SETTLED = LAZY.replace("            _iv2 = T[p0][0] + T[p0][1]", "            _iv2 = n").replace(
    "    _r1 = True\n", "    _r1 = True\n    n = T[p0][0] + T[p0][1]\n")
LAZY_KEPT = {
    "read after the loop": SETTLED.replace("    return _r1", "    return (_r1, _iv2)"),
    "the local bound anew in the loop": SETTLED.replace("            _r1 = False\n", "            _r1 = False\n            n = 0\n"),
    "read before its test": SETTLED.replace("        if not q != p0:", "        if _iv2 == 3:\n            continue\n        if not q != p0:"),
}


def test_an_invariant_kept_lazily_reads_the_kept_local() -> None:
    after, done = _passed(LAZY)
    assert done and "_iv2" not in after and "< _ce0:" in after
    for p0 in ("a", "b", "c"):
        assert _run(after, p0) == _run(LAZY, p0)
    tree = ast.parse(SETTLED)
    _settled_invariants(tree.body[0], tree.body[0].body)
    assert "_iv2" not in ast.unparse(tree) and "< n:" in ast.unparse(tree)


@pytest.mark.parametrize("case", sorted(LAZY_KEPT))
def test_an_invariant_read_elsewhere_or_its_value_bound_anew_stays(case: str) -> None:
    tree = ast.parse(LAZY_KEPT[case])
    _settled_invariants(tree.body[0], tree.body[0].body)
    after = ast.unparse(tree)
    assert "_iv2 = None" in after and "if _iv2 is None:" in after
    for p0 in ("a", "b", "c"):
        assert _run(after, p0) == _run(LAZY_KEPT[case], p0)
