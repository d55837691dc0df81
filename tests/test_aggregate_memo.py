"""While moves are listed, an aggregate that reads the bindings only through data is looked up
in the listing's memo by those data values (codegen.CodeGen.remembered_aggregate,
memo.aggregate_key), as a looping definition is: Khan's reservation rule, `any u in Tile where
TILES[u].form == TILES[t].form: reserved_by_other(current, u)`, was worked out for every tile
in the supply, once per form is enough. The moves listed and the explanations stay the same."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from regelwerk.interpreter.compiler import codegen

import regelwerk

RULES = """players Ann, Bob, Cas
enum Kind = k1, k2, k3, k4, k5
record KindInfo(form: text)
data INFO: Kind -> KindInfo from "info.json"
board Sq = grid 3 x 2
state
    held: Kind -> Player? = none
    left: set Kind = Kind
    stone: Sq -> Player? = none
define held_by_other(p: Player, k: Kind): bool = held[k] != none and held[k] != p
action lay(k in sorted(left), s: Sq)
    "Lay a piece of a form nobody else holds."
    require player_count == 2 or not (any u in Kind where INFO[u].form == INFO[k].form: held_by_other(current, u)) else "held"
    require stone[s] == none else "taken"
    set stone[s] = current
    remove k from left
action hold(k: Kind)
    "Hold a kind."
    require held[k] == none else "held already"
    set held[k] = current
flow
    repeat 4 times
        for p in players
            turn p
                play lay, hold
"""

INFO = {"k1": {"form": "bar"}, "k2": {"form": "ell"}, "k3": {"form": "bar"}, "k4": {"form": "tee"},
        "k5": {"form": "ell"}}


def _load(d: Path) -> regelwerk.Ruleset:
    (d / "held.rules").write_text(RULES, encoding="utf-8")
    (d / "info.json").write_text(json.dumps(INFO), encoding="utf-8")
    return regelwerk.load(d / "held.rules")


def test_an_aggregate_read_through_data_is_remembered_by_that_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    memo = _load(tmp_path)
    noted = {c.detail for c in memo.program(False).choices if c.kind == "memo"}
    assert any(d.startswith("any u in Kind where INFO[u].form == INFO[k].form") and d.endswith("by INFO[k].form")
               for d in noted), noted
    monkeypatch.setattr(codegen.CodeGen, "remembered_aggregate", lambda *_args: None)
    plain = _load(tmp_path)
    assert not any(c.kind == "memo" for c in plain.program(False).choices)
    for seed in range(10):
        a, b = memo.new_game(seed=seed), plain.new_game(seed=seed)
        rnd = random.Random(seed)
        while not a.is_over:
            moves = [str(m) for m in a.legal_actions()]
            assert moves == [str(m) for m in b.legal_actions()]
            for k in ("k1", "k2", "k5"):
                assert a.explain(f"lay({k}, a1)").checks == b.explain(f"lay({k}, a1)").checks
            pick = rnd.choice(moves)
            a.apply(pick)
            b.apply(pick)
        assert a.vars == b.vars
