"""`explained domain` (docs/architecture.md §5, `CodeGen.EXPLAINED_DOMAIN`): an explanation whose
check is one aggregate works its domain out as a statement before it, its sub-expressions kept
in locals, instead of through `_R`, a closure made at every check (Shogun's `assign`: `all o in
plan[current]: o.act != a`, explained at every traced move). Pinned: the choice and the form, and
the same explanations, traces and results with and without it (traced and untraced programs)."""

from __future__ import annotations

import json
import random

import pytest
from bundled import RULESETS
from playing import compiled_with, source_with

NAMES = ["shogun", "khan", "root"]


def _explained_games(name: str, on: bool, record: bool, seeds: range) -> str:
    """Every legal move's explanation at every 3rd decision, and the trace and result, of seeded
    random games, as JSON."""
    rules = compiled_with("EXPLAINED_DOMAIN", on, name)
    out: list = []
    for seed in seeds:
        g = rules.new_game(players=RULESETS[name][1][0], seed=seed, record=record)
        rnd = random.Random(seed)
        n = 0
        while not g.is_over and n < 120:
            moves = g.legal_actions()
            if n % 3 == 0:
                for m in moves[:12]:
                    ex = g.explain(m)
                    out.append([str(m), ex.legal, ex.reason, ex.checks])
            g.apply(rnd.choice(moves))
            n += 1
        out.append([g.trace, g.result])
    return json.dumps(out, sort_keys=True, default=str)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("record", [False, True])
def test_the_same_explanations_traces_and_results(name: str, record: bool) -> None:
    seeds = range(2)
    assert _explained_games(name, True, record, seeds) == _explained_games(name, False, record, seeds)


def test_the_choice_and_its_form() -> None:
    on = compiled_with("EXPLAINED_DOMAIN", True, "shogun").program(True)
    off = compiled_with("EXPLAINED_DOMAIN", False, "shogun").program(True)
    assert any(c.kind == "explained domain" and c.detail == "all o in plan[current]: o.act != a"
               for c in on.choices)
    assert not any(c.kind == "explained domain" for c in off.choices)
    src_on, src_off = source_with("EXPLAINED_DOMAIN", True, "shogun"), source_with("EXPLAINED_DOMAIN", False, "shogun")
    assert "def _R(" in src_off and "def _R(" not in src_on  # the explain functions of either program
    # the domain's local, charged by the comprehension or, as a loop, by its own line (`explained loop`)
    assert "_charged(G, _d" in src_on or any(c.kind == "explained loop" for c in on.choices)


NESTED = """game "Nested"
players X, O
enum Card = c_a, c_b, c_c
state
    hand: Player -> list Card = []
    n: int = 0
procedure deal
    for p in players
        set hand[p] = [c_a, c_b, c_c]
action take(c in hand[current])
    "Take a card when a b is among the others."
    require (any x in (list y in hand[current] where y != c_a: y): x == c_b) else "no b"
    remove c from hand[current]
    add 1 to n
flow
    do deal
    repeat 2 times
        turn
            play take
"""


@pytest.mark.parametrize("record", [False, True])
def test_a_domain_that_is_itself_a_comprehension_records_its_parts(record: bool) -> None:
    """The domain's own comprehension records through `_R` (no `:=` in a comprehension's
    iterable): the closure is made before the domain's statement (found by the grammar fuzzer:
    the closure came after it, and the traced listing failed with UnboundLocalError)."""
    import regelwerk

    rules = regelwerk.load_text(NESTED, "nested.rules")
    g = rules.new_game(seed=1, record=record)
    g.apply(g.legal_actions()[0])
    ex = g.explain(g.legal_actions()[0])
    assert ex.legal and any(c["value"] is True for c in ex.checks)
    while not g.is_over:
        moves = g.legal_actions()
        if not moves:
            break
        g.apply(moves[0])
