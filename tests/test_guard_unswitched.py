"""`guard unswitched` (docs/architecture.md §5, `CodeGen.GUARD_UNSWITCHED`, guardswitch.py): a
loop whose body opens with `if flag:`, the flag a local bound once before it to an `is`
comparison (`keys by value`'s "not kept"), tests it once: the loop as it was where it holds, a
copy without the guard where not. Pinned: the form (on the pass alone and in checkers' program),
what it leaves alone, and the same games, saves, results and traces with it on and off, on the
kept keys' path and on the path where no list is kept."""

from __future__ import annotations

import random
import re

import pytest
from bundled import BUNDLED
from playing import chosen_and_same, fresh_with, source_with
from regelwerk.interpreter.compiler.guardswitch import guard_unswitched
from regelwerk.interpreter.engine import runtime
from treepass import passed, run

ALL = ["a", "b", "c", "d"]

SCAN = """def f(keys, m, p):
    out = []
    ks = keys.get(p)
    if ks is None:
        ks = ALL
    ku = ks is ALL
    for s in ks:
        if ku:
            if not m[s] == p:
                continue
        out.append(s)
    else:
        out.append('end')
    return out
"""


def _pass(code: str) -> tuple[str, bool]:
    out, _constants, done = passed(code, {"ALL": ALL}, lambda fn, _made: guard_unswitched(fn))
    return out, done


def test_the_loop_is_split_on_the_flag() -> None:
    out, done = _pass(SCAN)
    assert done
    head, rest = out.split("ku = ks is ALL\n")
    guarded, plain = rest.split("    else:\n        for s in ks:")
    assert guarded.lstrip().startswith("if ku:\n") and "if not m[s] == p" in guarded and "if ku" not in guarded[8:]
    assert "ku" not in plain and "out.append(s)" in plain and "out.append('end')" in plain
    m = {"a": "x", "b": "y", "c": "x", "d": None}
    for keys in ({}, {"x": ["a", "c"]}, {"x": []}):
        for p in ("x", "y"):
            assert run(out, {"ALL": ALL}, keys, m, p) == run(SCAN, {"ALL": ALL}, keys, m, p)
    with pytest.raises(KeyError):  # the not-kept path fails where the scan failed
        run(out, {"ALL": ALL}, {}, {"a": "x"}, "x")


@pytest.mark.parametrize("code", [
    # bound twice
    SCAN.replace("    return out", "    ku = False\n    return out"),
    # bound in the loop
    SCAN.replace("        out.append(s)", "        out.append(s)\n        ku = s is None"),
    # bound only after the loop's start, or in a branch before it (not in the loop's own list)
    SCAN.replace("    ku = ks is ALL\n", "    if keys:\n        ku = ks is ALL\n"),
    # not a comparison by identity (its truth could call anything)
    SCAN.replace("ku = ks is ALL", "ku = ks == ALL"),
    # a guard with an else
    SCAN.replace("                continue\n", "                continue\n        else:\n            pass\n"),
    # the guard is not the first statement
    SCAN.replace("        if ku:\n", "        out.append(0)\n        if ku:\n"),
])
def test_left_alone(code: str) -> None:
    out, done = _pass(code)
    assert not done and out.count("for s in ks") == 1


def test_the_board_games_test_the_flag_once() -> None:
    on = source_with("GUARD_UNSWITCHED", True, "checkers")
    off = source_with("GUARD_UNSWITCHED", False, "checkers")
    scan_on, scan_off = (src.split("\ndef D_18(")[1].split("\ndef ")[0] for src in (on, off))
    flag = re.search(r"(_ku\d+) = _ks\d+ is _E", scan_off).group(1)  # type: ignore[union-attr]
    assert f"        if {flag}:" in scan_off  # the jump scan asked for every own piece
    # (`bindings sunk` may bind the maps the loop reads between the test and the loop)
    assert re.search(rf"    if {flag}:\n(        _sv\d+ = V\[[^\]]+\]\n)*        for _a", scan_on)
    assert f"        if {flag}:" not in scan_on
    assert scan_on.count(" in _ks") == scan_off.count(" in _ks") + 1  # the loop over the pieces copied
    assert scan_on.count(" in (_JR") == scan_off.count(" in (_JR") + 1  # and the one over their rows


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(record: bool) -> None:
    chosen_and_same("GUARD_UNSWITCHED", "guard unswitched", "breakthrough", None, record, "checkers")


@pytest.mark.parametrize("record", [False, True])
def test_with_no_list_kept_the_same_games(record: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The flag's other side: `_keys_with` never keeps a list, every loop walks the board with
    its first test, and checkers plays the same moves with the switch on and off."""
    monkeypatch.setitem(runtime.RUNTIME, "_keys_with", lambda _G, _key, _name, _value, domain: domain)
    text = BUNDLED["checkers"].read_text(encoding="utf-8")

    def moves(on: bool) -> list:
        with monkeypatch.context() as m:
            rules = fresh_with("GUARD_UNSWITCHED", on, text, "checkers.rules", m)
        out = []
        for seed in range(3):
            g, rnd = rules.new_game(seed=seed, record=record), random.Random(seed)
            while not g.is_over and len(out) < 150 * (seed + 1):
                legal = g.legal_actions()
                out.append(legal)
                g.apply(rnd.choice(legal))
            out.append(g.result)
        return out

    assert moves(True) == moves(False)
