"""An action's listing copied into a block (`enum`) holds the work counter its scans charge in
the local `_lw` while it runs, written back before each call that hands the game over, at its
end and when anything stops it (`work local`, interpreter/compiler/rolllocals.py `work_local`,
`CodeGen.WORK_LOCAL`): Shogun's `assign` listing charged `G.work` once per act and province it
scanned the plan for, an attribute read and write on the game each. Pinned: the form; the same
games, traces, budget run-outs and work counters with the switch on and off; the same Shogun
games."""

from __future__ import annotations

import json
import random

import pytest
from bundled import BUNDLED
from playing import fresh_with, games_digest
from regelwerk.interpreter.compiler import codegen
from regelwerk.interpreter.compiler.rolllocals import work_local
from regelwerk.interpreter.engine.errors import BudgetExceeded

import regelwerk
from regelwerk import RuleFailure

RULES = """players Ann, Bob
enum Act = march, tax, build, train
state
    plan: Player -> list Act = []
    score: Player -> int = 0
action pick(a: Act, n in 1..2)
    "Plan an act not planned yet, for one or two points."
    require all x in plan[current]: x != a
    set plan[current] = plan[current] + [a]
    add n to score[current]
action rest()
    "Plan nothing."
    add 0 to score[current]
flow
    repeat 3 times
        for p in players
            turn p
                play pick, rest
"""


def _rules(on: bool, monkeypatch: pytest.MonkeyPatch) -> regelwerk.Ruleset:
    return fresh_with("WORK_LOCAL", on, RULES, "plans.rules", monkeypatch)


@pytest.mark.parametrize("record", [False, True])
def test_the_listing_holds_the_counter_in_a_local(record: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    prog = _rules(True, monkeypatch).program(record)
    assert any(c.kind == "work local" for c in prog.choices)
    block = prog.source.split("def B_0(")[1].split("\ndef ")[0]
    listing = block[block.index("_lw = G.work"):]
    assert "_lw -= len(" in listing and "if _lw < 0:" in listing and "except:" in listing
    assert "G.work = _lw" in listing  # written back around `out_of_work` and at the end
    off = _rules(False, monkeypatch).program(record)
    assert not any(c.kind == "work local" for c in off.choices) and "_lw" not in off.source


def test_not_where_a_jump_would_leave_the_statements() -> None:
    """A `break` or `continue` outside every loop of the copied statements would leave them
    past the write-back: left as they are."""
    import ast

    inside = ast.parse("for x in xs:\n    G.work -= 1\n    if x:\n        continue\n").body
    assert work_local(inside) is not None
    outside = ast.parse("for x in xs:\n    G.work -= 1\nif y:\n    continue\n").body
    assert work_local(outside) is None


def _played(rules: regelwerk.Ruleset, seed: int, record: bool) -> tuple:
    g = rules.new_game(seed=seed, record=record)
    rnd = random.Random(seed)
    moves = 0
    try:
        while not g.is_over:
            g.apply(rnd.choice(g.legal_actions()))
            moves += 1
    except (RuleFailure, BudgetExceeded) as err:
        return "failed", moves, str(err), g.work, g._worked
    return g.vars["score"], g.work, json.dumps(g.trace, sort_keys=True, default=str) if record else None


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_and_counters(record: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    for seed in range(6):
        assert _played(_rules(True, monkeypatch), seed, record) == _played(_rules(False, monkeypatch), seed, record)


SECTION = """
_h = plan
_dom = helper(G, 3)
for p0 in acts:
    _d = _h
    G.work -= len(_d)
    if G.work < 0:
        G.out_of_work(p0)
    if p0 in _d:
        continue
    for p1 in _dom:
        G.work -= 1
        if G.work < 0:
            G.out_of_work(p1)
        if p1 == stop:
            raise KeyError(p1)
        legal.append((p0, p1))
"""


class _Game:
    """What the copied statements see of a game: the counter, and `out_of_work` as the engine's
    (a chunk used up is counted and the counter refilled; past the budget it raises)."""

    def __init__(self, work: int, budget: int):
        self.work, self.budget, self.used, self.calls = work, budget, 0, []

    def out_of_work(self, where: object) -> None:
        self.calls.append((where, self.work))
        self.used += 5 - self.work
        self.work = 5
        if self.used > self.budget:
            raise BudgetExceeded("the work budget", None)


def _run(stmts: list, work: int, budget: int, stop: object) -> tuple:
    import ast

    code = compile(ast.fix_missing_locations(ast.Module(stmts, [])), "<section>", "exec")
    G = _Game(work, budget)
    legal: list = []

    def helper(g: _Game, n: int) -> list:  # a call with the game: it charges too
        g.work -= n
        return list(range(n))

    ns = {"G": G, "plan": [1, 2], "acts": [0, 1, 2, 3, 4], "helper": helper, "legal": legal, "stop": stop}
    try:
        exec(code, ns)
        end = "done"
    except (KeyError, BudgetExceeded) as err:
        end = type(err).__name__
    return end, legal, G.calls, G.work, G.used


@pytest.mark.parametrize("work", [40, 9, 4, 1])
@pytest.mark.parametrize("stop", [None, 2])
def test_the_counter_calls_and_failures_as_before(work: int, stop: object) -> None:
    """The copied statements with the counter in `_lw` against them as they were, on a game
    whose counter runs out inside the scans: the same moves, the same `out_of_work` calls with
    the same counter, the same failure (the budget, or a KeyError raised inside), and the game's
    counter as they leave it."""
    import ast

    for budget in (3, 12, 100):
        plain = ast.parse(SECTION).body
        local = work_local(ast.parse(SECTION).body)
        assert local is not None and "_lw -= len(_d)" in ast.unparse(local)
        assert _run(local, work, budget, stop) == _run(plain, work, budget, stop)
    assert _run(plain, 4, 3, None)[0] == "BudgetExceeded" and _run(plain, 40, 100, 2)[0] == "KeyError"


@pytest.mark.parametrize("record", [False, True])
def test_shogun_plays_the_same_games(record: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    def digest(on: bool) -> list:
        monkeypatch.setattr(codegen.CodeGen, "WORK_LOCAL", on)
        rules = regelwerk.load(BUNDLED["shogun"])
        assert any(c.kind == "work local" for c in rules.program(record).choices) == on
        return games_digest(rules, 4, range(3) if record else range(8), record)

    assert digest(True) == digest(False)
