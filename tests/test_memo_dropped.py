"""`memo dropped` (interpreter/compiler/memoonce.py): a listing's memo of a definition's calls
whose one look-up is keyed by the variable of a top-level loop over a constant of distinct
values can never be hit; the look-up becomes the call and the table goes. Kept where a key can
come again: a nested loop, a constant that repeats a value, the variable bound anew, a second
look-up of the table. The same moves, games and traces as without it."""

from __future__ import annotations

import pytest
from playing import chosen_and_same, compiled_with, source_with
from regelwerk.interpreter.compiler.memoonce import memo_dropped
from treepass import passed, run

LOOKUP = "(_mz1[p0] if p0 in _mz1 else _mz1.setdefault(p0, D_1(G, p0)))"

DROPPED = f"""def f(G):
    _mz1 = {{}}
    out = []
    for p0 in _E5:
        _h = {LOOKUP}
        if _h:
            out.append(p0)
    return out
"""


class _G:
    """A game as the code above sees it: it only counts the calls."""

    def __init__(self) -> None:
        self.calls: list[object] = []


def _d1(g: _G, x: int) -> bool:
    g.calls.append(x)
    return x % 2 == 0


def _dropped(code: str, tables: dict) -> tuple[str, list[str]]:
    said: list[str] = []

    def run_pass(fn, made) -> bool:  # noqa: ANN001 - treepass's protocol
        said.extend(memo_dropped(fn, made.constants))
        return bool(said)
    text, _constants, _done = passed(code, tables, run_pass)
    return text, said


def test_a_memo_keyed_by_a_distinct_loop_is_the_call() -> None:
    tables = {"_E5": [1, 2, 3, 4]}
    text, said = _dropped(DROPPED, tables)
    assert said == ["D_1 by p0"]
    assert "_mz1" not in text and "_h = D_1(G, p0)" in text
    before, after = _G(), _G()
    assert run(DROPPED, tables, before, D_1=_d1) == run(text, tables, after, D_1=_d1) == [2, 4]
    assert before.calls == after.calls == [1, 2, 3, 4]  # the same calls, in the same order


@pytest.mark.parametrize("code, tables", [
    (DROPPED, {"_E5": [1, 2, 1]}),  # a value twice: the memo hits
    (DROPPED, {"_E5": {1: 2}}),  # not a list or tuple
    (DROPPED.replace("_E5", "G.things"), {}),  # not a constant
    (DROPPED.replace("        if _h:", "        p0 = 3\n        if _h:"), {"_E5": [1, 2]}),  # bound anew
    (DROPPED.replace("        _h = ", "        for q in _E5:\n            _h = "), {"_E5": [1, 2]}),  # nested
    (DROPPED.replace("    return out", "    return _mz1"), {"_E5": [1, 2]}),  # read elsewhere
    (DROPPED.replace("        if _h:", f"        _k = {LOOKUP}\n        if _h:"), {"_E5": [1, 2]}),  # twice
    (DROPPED.replace(f"_h = {LOOKUP}", f"_h = [{LOOKUP} for q in _E5]"), {"_E5": [1, 2]}),  # comprehension
])
def test_kept_where_a_key_can_come_again(code: str, tables: dict) -> None:
    text, said = _dropped(code, tables)
    assert said == [] and "_mz1" in text


MEMO = """game "Memo"
players Ann, Bob
board Spot = graph
    a - b - c - d
    b - d
state
    stones: Player -> Spot -> int = {Ann: {a: 3, b: 1}, Bob: {d: 3, c: 1}}
    turns: int
define holds(p: Player, s: Spot): bool =
    stones[p][s] > 0 and (all q in players where q != p: stones[q][s] < stones[p][s])
action march(from: Spot, to in adjacent_nodes(from), n in 1..stones[current][from])
    "March: from or to held."
    require holds(current, from) or holds(current, to) else "hold one end"
    move n from stones[current][from] to stones[current][to]
    add 1 to turns
    if turns == 40
        finish draw
action rest()
    "Rest when nothing marches."
    require not possible(march) else "a march is possible"
    add 1 to turns
flow
    repeat
        turn
            play march, rest
"""


# `hoisted tests` (test_hoisted_tests.py) would test `holds(current, from)` in place: held off
HELD = (("HOISTED_TESTS", False),)


def test_the_listing_calls_the_definition_straight() -> None:
    on = compiled_with("MEMO_DROPPED", True, "memo", MEMO, HELD).program(False)
    assert [c.detail for c in on.choices if c.kind == "memo dropped"] == ["D_0 by p0"]
    assert "_mz" not in source_with("MEMO_DROPPED", True, "memo", MEMO, HELD)
    assert "setdefault(p0, D_0(G, _cur, p0))" in source_with("MEMO_DROPPED", False, "memo", MEMO, HELD)


@pytest.mark.parametrize("record", [False, True])
def test_the_same_moves_and_games_with_and_without(record: bool) -> None:
    chosen_and_same("MEMO_DROPPED", "memo dropped", "memo", MEMO, record, "root", HELD)
