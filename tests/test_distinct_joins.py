"""`distinct joins` (`CodeGen.DISTINCT_JOINS`): a parameter's domain `a + b` whose two lists each
hold no item twice and can share none — a board function's result over every value its
arguments can take against a list of named values, `sorted` of a set in a conditional's other
branch — is walked as it is, without `_uniq`; a join whose parts may share an item keeps it, so
the repeat is still one move."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playing import listing_with, played, same_with_and_without

import regelwerk
from regelwerk import Ruleset

HOPS = """game "Hops"
players A, B
board Spot = graph from "spots.json"
state
    marks: set Spot = {}
    at: Player -> Spot = {A: a, B: d}
    hops: int = 0
define links(s: Spot): list Spot =
    (if s == hole then sorted(marks) else adjacent_nodes(s) + (if s in marks then [hole] else []))
define near(s: Spot): list Spot = adjacent_nodes(s) + [b]
action hop(from: Spot, to in links(from))
    "Hop."
    require at[current] == from else "you are elsewhere"
    set at[current] = to
    add 1 to hops
    if hops >= 14
        finish draw
action mark(from: Spot, s in near(from))
    "Mark."
    require at[current] == from else "you are elsewhere"
    add s to marks
    add 1 to hops
    if hops >= 14
        finish draw
flow
    repeat
        turn
            play hop, mark
"""
SPOTS = {"nodes": ["a", "b", "c", "d", "hole"], "edges": [["a", "b"], ["b", "c"], ["c", "d"], ["b", "d"]]}


def _hops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, on: bool,
          flag: str = "DISTINCT_JOINS") -> tuple[Ruleset, dict[str, str]]:
    """The ruleset above compiled while the switch is `on` (a graph from a data file: `hole` is
    a node no edge reaches), and its actions' listings (`source` compiles again: read while
    the switch holds)."""
    from regelwerk.interpreter.compiler.codegen import CodeGen

    (tmp_path / "spots.json").write_text(json.dumps(SPOTS))
    (tmp_path / "hops.rules").write_text(HOPS)
    with monkeypatch.context() as m:
        m.setattr(CodeGen, flag, on)
        rules = regelwerk.load(str(tmp_path / "hops.rules"))
        prog = rules.program(False)
        rules.program(True)
        source = "\n" + prog.source
        listings = {name: source.split(f"\ndef {prog.actions[name].enum.__name__}(")[1].split("\ndef ")[0]
                    for name in ("hop", "mark")}
    return rules, listings


def test_a_join_that_shares_no_item_is_walked_as_it_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (on, with_it), (_, without) = _hops(tmp_path, monkeypatch, True), _hops(tmp_path, monkeypatch, False)
    assert "_uniq(" not in with_it["hop"] and "_jw" in with_it["hop"]
    assert "_uniq(" in without["hop"]
    assert any(c.kind == "distinct domain" and c.rule == "action hop" for c in on.program(False).choices)
    # `[b]` is among `adjacent_nodes(a)`: at `a` the join holds `b` twice, which is one move
    assert "_uniq(" in with_it["mark"]
    g = on.new_game(seed=1)
    assert [str(m) for m in g.legal_actions()].count("mark(a, b)") == 1


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_with_and_without(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, record: bool) -> None:
    (on, _), (off, _) = _hops(tmp_path, monkeypatch, True), _hops(tmp_path, monkeypatch, False)
    assert played(on, None, record, range(6), 250, saved=True) == played(off, None, record, range(6), 250, saved=True)
    same_with_and_without("DISTINCT_JOINS", record, {}, "root")


def test_roots_links_need_no_repeats_dropped() -> None:
    """`links(from)`: the Burrow is on no printed path, so `adjacent_nodes(a) + [burrow]` never
    holds it twice, and `sorted(tunnels)` is of a set."""
    assert "_uniq(" not in listing_with("DISTINCT_JOINS", True, "root", None, "take_move")
    assert "_uniq(" in listing_with("DISTINCT_JOINS", False, "root", None, "take_move")


def test_a_joined_domain_is_worked_out_before_its_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`joined walked` (`CodeGen.JOINED_WALKED`): the loop over `links(from)` works the join out
    as statements ahead of it, charged as `_joined` charges it, the conditional as an `if`."""
    (on, with_it), (off, without) = (_hops(tmp_path, monkeypatch, True, "JOINED_WALKED"),
                                     _hops(tmp_path, monkeypatch, False, "JOINED_WALKED"))
    assert "_joined(" not in with_it["hop"] and "_joined(" in without["hop"]
    assert re.search(r"if p0 == 'hole':\n\s+(_jw\d+) = b_sorted\(_sv\d+\)\n\s+else:\n\s+\1 = \[\*_T\d+\[p0\], \*\(.*\)\]\n"
                     r"\s+G\.work -= len\(\1\)\n\s+if G\.work < 0:\n\s+G\.out_of_work\(SPANS\[\d+\]\)\n\s+for p1 in \1:",
                     with_it["hop"])
    for record in (False, True):
        assert played(on, None, record, range(6), 250, saved=True) == played(off, None, record, range(6), 250, saved=True)
    same_with_and_without("JOINED_WALKED", False, {}, "root")
