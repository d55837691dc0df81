"""`explained loop` (`CodeGen.EXPLAINED_LOOP`): an explanation whose check is one aggregate of the
loop kinds (`all`, `any`, `count`, ...) works it out as the loop a definition's would be, over the
domain's local that `explained domain` made, and records its value as the comprehension's was:
no generator, no call of `all` and of `_charged` at every check (Shogun's `assign`, explained at
every traced move). The same explanations, traces and results with and without it."""

from __future__ import annotations

import json
import random

import pytest
from bundled import RULESETS
from playing import compiled_with, source_with

CARDS = """game "Cards"
players X, O
enum Card = c_a, c_b, c_c, c_d
record Order(card: Card, n: int)
state
    plan: Player -> list Order = []
    seen: set Card
    n: int = 0
action put(c: Card, k in 1..2)
    "Put a card on the plan."
    require all o in plan[current]: o.card != c else "that card is planned already"
    require (count o in plan[current] where o.n == k) <= 1 else "two of that size already"
    require all s in seen: s != c or k == 1 else "a seen card goes small"
    add Order(card: c, n: k) to plan[current]
    add c to seen
    add k to n
flow
    repeat 3 times
        turn
            play put
"""


def _explained_games(rules: object, players: int | None, record: bool, seeds: range, extra: tuple = ()) -> str:
    out: list = []
    for seed in seeds:
        g = rules.new_game(players=players, seed=seed, record=record)  # type: ignore[attr-defined]
        rnd = random.Random(seed)
        n = 0
        while not g.is_over and n < 80:
            moves = g.legal_actions()
            if n % 3 == 0:
                for m in [*moves[:10], *extra]:
                    ex = g.explain(m)
                    out.append([str(m), ex.legal, ex.reason, ex.checks])
            g.apply(rnd.choice(moves))
            n += 1
        out.append([g.trace, g.result])
    return json.dumps(out, sort_keys=True, default=str)


def test_the_check_is_a_loop() -> None:
    rules = compiled_with("EXPLAINED_LOOP", True, "cards", CARDS)
    prog = rules.program(True)
    assert ("explained loop", "all o in plan[current]: o.card != c") in {(c.kind, c.detail) for c in prog.choices}
    ax = ("\n" + prog.source).split(f"\ndef {prog.actions['put'].explain.__name__}(")[1].split("\ndef ")[0]
    first = ax.split("_ck0 = ")[0]  # the first check, one aggregate (the second is a comparison)
    assert "all(" not in first and "_charged(" not in first and "for _a" in first
    assert "sum((1 for" in ax  # the count compared keeps its comprehension
    assert "= _seq(_d" in ax.split("_ck1 = ")[1]  # a set's domain walked in its fixed order
    off = source_with("EXPLAINED_LOOP", False, "cards", CARDS)
    assert "all((" in off


@pytest.mark.parametrize("record", [False, True])
def test_the_same_explanations_traces_and_results(record: bool) -> None:
    on = compiled_with("EXPLAINED_LOOP", True, "cards", CARDS)
    off = compiled_with("EXPLAINED_LOOP", False, "cards", CARDS)
    extra = ("put(c_a, 1)", "put(c_b, 2)")  # often illegal: the explanations of failing checks
    assert _explained_games(on, None, record, range(4), extra) == _explained_games(off, None, record, range(4), extra)


@pytest.mark.parametrize("name", ["shogun", "khan"])
def test_the_same_bundled_games(name: str) -> None:
    players = RULESETS[name][1][0]
    for record in (False, True):
        on = compiled_with("EXPLAINED_LOOP", True, name)
        off = compiled_with("EXPLAINED_LOOP", False, name)
        got = [_explained_games(r, players, record, range(1)) for r in (on, off)]
        assert got[0] == got[1]
