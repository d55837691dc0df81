"""`heads hoisted` (docs/architecture.md §5, `CodeGen.HEADS_HOISTED`, loophead.py): a loop over the
program's constant lists, none of them empty, has its first statements that every round would
work out alike (`x = e`, `e` of names, constants, look-ups, arithmetic and `b_len`, reading
nothing the loop binds or the function may change in place) worked out before it, right after its
domain. Pinned: the form (on the pass alone and in checkers' `series_from`), what it leaves
alone, the same values and failures, and the same games, saves, results and traces with it on and
off."""

from __future__ import annotations

import re

import pytest
from playing import compiled_with, same_with_and_without, source_with
from regelwerk.interpreter.compiler.loophead import heads_hoisted
from treepass import passed, run

TABLES = {"DIRS": ["a", "b"], "KING": ["a", "b", "c", "d"], "NONE": [], "STEP": {
    ("x", "a"): 1, ("x", "b"): 2, ("x", "c"): 3, ("x", "d"): 4, ("y", "a"): 5, ("y", "b"): 6,
    ("y", "c"): 7, ("y", "d"): 8}}

WALK = """def f(path, king):
    out = []
    for d in (KING if king else DIRS):
        last = path[b_len(path) - 1]
        n = b_len(path) * 2
        out.append(STEP[last, d] + n)
    return out
"""


def _pass(code: str) -> tuple[str, bool]:
    out, _constants, done = passed(code, TABLES, lambda fn, made: heads_hoisted(fn, TABLES, made.fresh))
    return out, done


def _outcome(code: str, *args: object) -> object:
    try:
        return run(code, TABLES, *args, b_len=len)
    except Exception as err:  # noqa: BLE001 - the failure is compared
        return type(err).__name__


def test_the_heads_are_worked_out_before_the_loop() -> None:
    out, done = _pass(WALK)
    assert done
    assert re.search(r"    (_it\d+) = KING if king else DIRS\n    last = path\[b_len\(path\) - 1\]\n"
                     r"    n = b_len\(path\) \* 2\n    for d in \1:\n        out.append", out)
    for args in ((["x"], False), (["y", "x"], True), ([], True), (["z"], False)):
        assert _outcome(out, *args) == _outcome(WALK, *args)  # the same values, the same failures


@pytest.mark.parametrize("code", [
    WALK.replace("(KING if king else DIRS)", "(KING if king else NONE)"),  # may run no round
    WALK.replace("(KING if king else DIRS)", "path"),  # a domain made as the game goes
    WALK.replace("last = path[b_len(path) - 1]", "last = path[b_len(path) - 1] + d"),  # reads the target
    WALK.replace("        out.append(", "        path = path[1:]\n        out.append("),  # bound in the loop
    WALK.replace("        out.append(", "        path.append(d)\n        out.append("),  # changed in place
    WALK.replace("last = path[b_len(path) - 1]", "last = g(path)"),  # a call
    WALK.replace("    out = []\n", "    out = []\n    try:\n        pass\n    except KeyError:\n        pass\n"),
    WALK.replace("    return out", "    last = None\n    return out"),  # bound twice
])
def test_left_alone(code: str) -> None:
    out, done = _pass(code)
    assert not done and "_it" not in out


def test_checkers_series_from_finds_the_last_square_once() -> None:
    on, off = source_with("HEADS_HOISTED", True, "checkers"), source_with("HEADS_HOISTED", False, "checkers")
    series_on, series_off = (src.split("\ndef D_17(")[1].split("\ndef ")[0] for src in (on, off))
    assert re.search(r"\n    (_it\d+) = [^\n]+\n    (_ce\d+) = p1\[b_len\(p1\) - 1\]\n    for _a\d+ in \1:\n", series_on)
    assert re.search(r"\n    for _a\d+ in [^\n]+:\n        _ce\d+ = p1\[b_len\(p1\) - 1\]\n", series_off)
    chosen = {c.detail.rsplit(" ", 1)[-1] for c in compiled_with("HEADS_HOISTED", True, "checkers").program(False).choices
              if c.kind == "heads hoisted"}
    assert "D_17" in chosen


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    same_with_and_without("HEADS_HOISTED", record, {}, bundled="checkers")
