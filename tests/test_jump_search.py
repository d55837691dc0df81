"""Three changes to the jump search of checkers-like rules (a multi-jump as one move), each
generic:

- `flat loop` of calls (codegen `flattens`, switch FLAT_CALLS): `flatten(list x in D: f(x))`
  of a definition `f` is one loop that extends the result by each call's value (checkers'
  `jump_paths`, `series_from` per first jump), where a comprehension made a list of lists,
  charged it and called `flatten`, in every position, with no jump as much as with one;
- `loop rows` (pytree.loop_rows, switch LOOP_ROWS): in a definition, a complete table's row of
  an outer loop's variable (`_T13[s]`, the jumps from a square) is looked up once per round of
  the outer loop, ahead of the inner one, not in every round of it;
- `_uniq` (runtime) hands back a copy of a list of none or one item without hashing it
  (checkers' jumps are lists: the general path turns each into a tuple).

None of them changes a move, its order, a result or a trace: the games are compared with the
program compiled with both switches off."""

from __future__ import annotations

import functools

import pytest
from bundled import BUNDLED
from playing import played
from regelwerk.interpreter.compiler.codegen import CodeGen
from regelwerk.interpreter.engine import runtime

import regelwerk

SWITCHES = ("FLAT_CALLS", "LOOP_ROWS")
# passes that take the rows loop rows looked up into tables of their own (paired.py, joined.py):
# off while the source is read, so it shows the loop rows' own form
LATER = ("PAIRED_ROWS", "JOINED_ROWS")


@functools.cache
def _compiled(on: bool) -> tuple[regelwerk.Ruleset, str]:
    """Checkers compiled once for this file (untraced and traced), with both switches on or
    off, and its untraced source (`Program.source` compiles again: read while they are set)."""
    rules = regelwerk.load(BUNDLED["checkers"])
    for s in SWITCHES:
        setattr(CodeGen, s, on)
    try:
        rules.program(False), rules.program(True)
        for s in LATER:
            setattr(CodeGen, s, False)
        source = rules.program(False).source
    finally:
        for s in SWITCHES + LATER:
            setattr(CodeGen, s, True)
    return rules, source


def _checkers(on: bool) -> regelwerk.Ruleset:
    return _compiled(on)[0]


def _function(source: str, head: str) -> str:
    start = source.index(head)
    end = source.find("\ndef ", start + 1)
    return source[start:] if end < 0 else source[start:end]


def test_jump_paths_extends_its_result_by_each_series_and_looks_rows_up_once_per_piece() -> None:
    prog, source = _checkers(True).program(False), _compiled(True)[1]
    kinds = {(c.kind, c.rule, c.detail) for c in prog.choices}
    assert ("flat loop", "define jump_paths", "list first in first_jumps(p): series_from(p, first)") in kinds
    assert {("loop rows", "define first_jumps", ""), ("loop rows", "define jump_paths", "")} <= kinds
    defines = list(_checkers(True).model.defines)
    jump_paths = _function(source, f"def D_{defines.index('jump_paths')}(")
    series_from = f"D_{defines.index('series_from')}"
    assert f".extend({series_from}(G, p0, " in jump_paths and "b_flatten" not in jump_paths
    # the rows of the jump and step tables, looked up before the loop over directions
    plain = jump_paths.split("\n    else:\n")[-1]  # `guard unswitched`: the loop's copy walking the kept keys
    rows = [line.strip() for line in plain.splitlines() if ".get(_a" in line]
    assert len(rows) == 2 and all(line.startswith("_row") for line in rows), rows
    loop = plain.index("for _a", plain.index(rows[-1]))
    assert not any(f"{table}[_a" in plain[loop:] for table in (r.split(" = ")[1].split(".")[0] for r in rows))
    off = _checkers(False).program(False)
    assert all(c.kind != "loop rows" for c in off.choices)
    assert "b_flatten([" in _function(_compiled(False)[1], f"def D_{defines.index('jump_paths')}(")


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without_the_changes(record: bool) -> None:
    seeds = range(3) if record else range(6)
    on = played(_checkers(True), None, record, seeds, 400, saved=True)
    off = played(_checkers(False), None, record, seeds, 400, saved=True)
    assert on == off
    # the games held captures, multi-jumps among them: the jump search was exercised
    moves = [m for row in on if isinstance(row, list) for m in row]
    assert any(m.startswith("jump") for m in moves)
    assert any(m.count(",") >= 2 and m.startswith("jump") for m in moves)


def test_perft_counts_the_same() -> None:
    from regelwerk.interpreter.tools.agents import perft

    assert perft(_checkers(True).new_game(), 4) == perft(_checkers(False).new_game(), 4) == 1469


def test_uniq_of_none_or_one_item_is_a_copy_with_the_general_answer() -> None:
    for items in ([], [["a1", "c3"]], ["x"], [("a", "b")]):
        got = runtime._uniq(items)
        assert got == items and got is not items
    assert runtime._uniq([["a1", "c3"], ["a1", "c3"], ["b2"]]) == [["a1", "c3"], ["b2"]]
    assert runtime._uniq((5,)) == [5] and runtime._uniq(frozenset()) == []


def _key(x: object) -> object:
    """`_hashable` as it was written before: a generator per list."""
    if type(x) is list:
        return tuple(_key(v) for v in x)
    if type(x) is dict:
        return tuple(sorted((k, _key(v)) for k, v in x.items()))
    return x


def _uniq_reference(items: object) -> list:
    """`_uniq` as it was written before lists as items were taken by value first: the items'
    keys made after `dict.fromkeys` raised."""
    key = _key
    try:
        return list(dict.fromkeys(items))  # type: ignore[call-overload]
    except TypeError:
        out, seen = [], set()
        for x in items:  # type: ignore[attr-defined]
            if key(x) not in seen:
                seen.add(key(x))
                out.append(x)
        return out


@pytest.mark.parametrize("items", [
    [["a1", "c3"], ["a1", "c3", "e5"], ["a1", "c3"], ["b2"]],  # series of jumps
    [["a1"], "a1", ("a1",), ["a1"]],  # a list first, then other items: a list and its tuple are one
    ["x", ["a", ["b"]], ["a", ["b"]], {"k": [1]}, {"k": [1]}],  # nested lists and dicts
    [[1, {"a": 2}], [1, {"a": 2}], [1, {"a": 3}]],
    [[], [], [[]], [[]]],
])
def test_uniq_of_lists_answers_as_before(items: list) -> None:
    assert runtime._uniq(items) == _uniq_reference(items)
    assert runtime._hashable(items) == _key(items)
    assert all(runtime._hashable(x) == _key(x) for x in items)


def test_uniq_of_unhashable_items_fails_as_before() -> None:
    with pytest.raises(TypeError):
        runtime._uniq([["a"], {1}])
    with pytest.raises(TypeError):
        _uniq_reference([["a"], {1}])
