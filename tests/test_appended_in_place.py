"""`let xs = xs + [x]` on a local list that nothing else can reach appends in place
(`appended in place`, interpreter/compiler/appends.py): Shogun's tower copied `kept`, `through`,
`upper` and `out` once per cube per ledge. The pass proves, by liveness and ownership over the
generated function, that no other live name, container or iterator holds the list; the same
games, traces, results and work charges as the copy."""

from __future__ import annotations

import ast
import hashlib
import json
import random
import textwrap

import pytest
from regelwerk.interpreter.compiler import codegen
from regelwerk.interpreter.compiler.appends import appends_in_place

import regelwerk

SHOGUN = "rulesets/shogun/shogun.rules"


def _fn(src: str) -> ast.FunctionDef:
    return ast.parse(textwrap.dedent(src)).body[0]


def _copy(lst: str, j: str, item: str, ind: str = "    ") -> str:
    return (f"{ind}{j} = [*{lst}, {item}]\n{ind}G.work -= len({j})\n{ind}if G.work < 0:\n"
            f"{ind}    G.out_of_work(SPANS[0])\n{ind}{lst} = {j}\n")


def _grown(body: str) -> list[str]:
    fn = _fn("def f(G, p0):\n" + textwrap.indent(textwrap.dedent(body), "    "))
    return appends_in_place(fn)


def test_an_owned_list_grows_in_place_and_keeps_its_charge():
    fn = _fn("def f(G, p0):\n    _l = []\n    for x in p0:\n" + _copy("_l", "_j", "x", "        ") + "    return len(_l)\n")
    assert appends_in_place(fn) == ["_l"]
    text = ast.unparse(fn)
    assert "_l.append(x)" in text and "G.work -= len(_l)" in text and "_j" not in text


@pytest.mark.parametrize("body", [
    # another live name holds the same list
    "_l = []\n_m = _l\nfor x in p0:\n" + _copy("_l", "_j", "x", "    ") + "return _m\n",
    # the list is iterated while it grows
    "_l = [1]\nfor x in _l:\n" + _copy("_l", "_j", "x", "    "),
    # it went into a call (which may keep it) before growing
    "_l = []\nkeep(_l)\n" + _copy("_l", "_j", "1", ""),
    # it went into a container, or is an item of the new list
    "_l = []\n_c = [_l]\n" + _copy("_l", "_j", "1", "") + "return _c\n",
    "_l = []\n" + _copy("_l", "_j", "_l", ""),
    # not made by a display: a value from elsewhere (a constant, a parameter, a call)
    "_l = p0\n" + _copy("_l", "_j", "1", ""),
    "_l = make()\n" + _copy("_l", "_j", "1", ""),
    # a bound method kept, a comprehension or lambda that reads it
    "_l = []\n_f = _l.append\n" + _copy("_l", "_j", "1", "") + "_f(2)\n",
    "_l = []\n_g = lambda: _l\n" + _copy("_l", "_j", "1", "") + "return _g\n",
    "_l = []\n_t = [y for y in _l]\n" + _copy("_l", "_j", "1", ""),
    # owned on one path only
    "if p0:\n    _l = []\nelse:\n    _l = p0\n" + _copy("_l", "_j", "1", ""),
    # the list moved to a name that is read again after the old one grows
    "_l = []\nfor x in p0:\n    _m = _l\n" + _copy("_l", "_j", "x", "    ") + "    use(_m)\n",
    "_l = []\n_m = _l\n" + _copy("_m", "_j", "1", "") + "return _l\n",
    "_l = []\n_m = _l\n" + _copy("_m", "_j", "1", "") + "_l += [2]\n",  # `+=` reads (and grows) it
    # a statement the analyses do not model
    "_l = []\ntry:\n" + _copy("_l", "_j", "1", "    ") + "except KeyError:\n    pass\n",
    # a `finally` that reads what its body binds, or that a `return` leaves through, reading the list
    "try:\n    _l = []\n" + _copy("_l", "_j", "1", "    ") + "finally:\n    use(_l)\n",
    "_l = []\ntry:\n    _m = _l\n" + _copy("_m", "_j", "1", "    ") + "    return 1\nfinally:\n    use(_l)\n",
])
def test_a_list_another_may_reach_is_copied(body: str):
    assert _grown(body) == []


def test_a_list_moved_from_a_dead_name_grows_in_place():
    """Shogun's `let upper = kept`: `kept` is bound anew before it is read again."""
    body = ("_u = []\nfor c in p0:\n    _k = []\n    _d = _u\n    for s in _d:\n"
            + _copy("_k", "_j1", "s", "        ") + "    _u = _k\n" + _copy("_u", "_j2", "c", "    ") + "return len(_u)\n")
    assert sorted(_grown(body)) == ["_k", "_u"]


ALIAS = """players Ann, Bob
state
    total: int = 0
    saved: list int = []
procedure grow(n: int)
    let xs = []
    let ys = []
    let zs = []
    for i in 1..n
        let ys = xs
        let xs = xs + [i]
        let zs = zs + [i * 2]
    for z in zs
        let zs = zs + [z]
    set saved = zs
    let zs = zs + [0]
    set total = total + len(xs) * 10000 + len(ys) * 100 + len(zs) + len(saved)
action go(n in 1..4)
    "Grow some lists."
    do grow(n)
flow
    repeat 3 times
        for p in players
            turn p
                play go
"""


def _alias_game(on: bool, record: bool, monkeypatch: pytest.MonkeyPatch) -> tuple:
    monkeypatch.setattr(codegen.CodeGen, "APPEND_IN_PLACE", on)
    rules = regelwerk.load_text(ALIAS, "alias.rules")
    prog = rules.program(record)
    grown = [c.detail for c in prog.choices if c.kind == "appended in place"]
    g = rules.new_game(seed=1, record=record)
    for n in (3, 1, 4, 2, 2, 3):
        g.apply(f"go({n})")
    return grown, g.vars["total"], g.vars["saved"], json.dumps(g.trace, sort_keys=True, default=str) if record else None


@pytest.mark.parametrize("record", [False, True])
def test_aliased_iterated_and_stored_lists_keep_their_values(record: bool, monkeypatch: pytest.MonkeyPatch):
    on = _alias_game(True, record, monkeypatch)
    off = _alias_game(False, record, monkeypatch)
    assert on[0] == ["let zs = zs + [i * 2]"] and off[0] == []  # only the list nothing else holds
    assert on[1:] == off[1:]
    assert on[2] == [2, 4, 6, 2, 4, 6]  # the last go(3); `saved` is not grown by the later `zs + [0]`


def _shogun(on: bool, monkeypatch: pytest.MonkeyPatch) -> regelwerk.Ruleset:
    monkeypatch.setattr(codegen.CodeGen, "APPEND_IN_PLACE", on)
    rules = regelwerk.load(SHOGUN)
    rules.program(False), rules.program(True)  # compiled while the switch holds
    return rules


def test_shoguns_tower_appends_in_place(monkeypatch: pytest.MonkeyPatch):
    for record in (False, True):
        prog = _shogun(True, monkeypatch).program(record)
        grown = {c.detail for c in prog.choices if c.kind == "appended in place" and c.rule == "device tower"}
        assert grown == {"let kept = kept + [s]", "let through = through + [s]", "let upper = upper + [cube]",
                         "let lowest = lowest + [cube]", "let out = out + [s]"}
        roll = prog.source.split("def DR_0(")[1].split("\ndef ")[0]
        assert " = [*" not in roll and roll.count(".append(") == 8
    roll = _shogun(False, monkeypatch).program(False).source.split("def DR_0(")[1].split("\ndef ")[0]
    assert roll.count(" = [*") == 8 and ".append(" not in roll


def _digest(rules: regelwerk.Ruleset, record: bool, seeds: range) -> str:
    h = hashlib.sha256()
    for s in seeds:
        g = rules.new_game(players=4, seed=s, record=record)
        rnd = random.Random(s)
        while not g.is_over:
            g.apply(rnd.choice(g.legal_actions()))
        h.update(json.dumps([g.result, g.rng, g.trace if record else None], sort_keys=True, default=str).encode())
    return h.hexdigest()


@pytest.mark.parametrize("record", [False, True])
def test_shogun_plays_the_same_games(record: bool, monkeypatch: pytest.MonkeyPatch):
    seeds = range(3, 9) if record else range(12)
    assert _digest(_shogun(True, monkeypatch), record, seeds) == _digest(_shogun(False, monkeypatch), record, seeds)
