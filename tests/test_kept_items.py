"""Items kept for the program's life by a test that reads only fixed things (an aggregate's
`fixed filter`, a parameter's `prefilter`) passed that test when they were kept, so the loop
over them does not test it again; it does where they could not be kept (working them out
failed: the domain is walked as written, and the test fails where and when it would have)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from regelwerk.interpreter.compiler import codegen

import regelwerk

INFO = {"k1": {"worth": 2}, "k2": {"worth": 5}, "k3": {"worth": 0}, "k4": {"worth": 4}}
RULES = """players Ann, Bob
enum Kind = k1, k2, k3, k4
record Info(worth: int)
data INFO: Kind -> Info from "info.json"
state
    held: Kind -> Player? = none
define steep(k: Kind): int = count u in Kind where 10 // INFO[u].worth >= INFO[k].worth: held[u] == none
action take(k in Kind)
    "Take a kind nobody holds."
    require held[k] == none else "held"
    require steep(k) >= 0 else "never"
    set held[k] = current
flow
    repeat 2 times
        for p in players
            turn p
                play take
"""


def _failure(path: Path) -> str:
    ruleset = regelwerk.load(path)
    with pytest.raises(regelwerk.EngineError) as caught:
        ruleset.new_game().legal_actions()
    return str(caught.value)


def test_a_fixed_filter_that_fails_tests_every_item_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    (tmp_path / "info.json").write_text(json.dumps(INFO), encoding="utf-8")
    path = tmp_path / "kinds.rules"
    path.write_text(RULES, encoding="utf-8")
    assert ("fixed filter", "count u in Kind where 10 // INFO[u].worth >= INFO[k].worth: held[u] == none") in {
        (c.kind, c.detail) for c in regelwerk.load(path).program(False).choices}
    kept = _failure(path)  # k3's worth 0: the items cannot be kept, the filter fails at k3
    assert "division by zero" in kept or "divid" in kept
    monkeypatch.setattr(codegen.CodeGen, "fixed_filter_keys", lambda *_args: None)
    assert kept == _failure(path)


def test_kept_items_give_the_same_moves(tmp_path: Path):
    (tmp_path / "info.json").write_text(json.dumps({**INFO, "k3": {"worth": 3}}), encoding="utf-8")
    path = tmp_path / "kinds.rules"
    path.write_text(RULES, encoding="utf-8")
    g = regelwerk.load(path).new_game()
    for expected in (["take(k1)", "take(k2)", "take(k3)", "take(k4)"], ["take(k2)", "take(k3)", "take(k4)"]):
        assert [str(m) for m in g.legal_actions()] == expected
        g.apply(g.legal_actions()[0])
