"""A whole-number parameter walked only over the values its first require can let through
(interpreter/compiler/narrow.py): Root's `take_move(..., n in 1..20)` with `require
warriors[current][from] >= n`. The same moves in the same order, the same explanations and the
same failures, at the same place, as the range walked whole (`CodeGen.LOOP_FORMS` off)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bundled import BUNDLED
from regelwerk.interpreter.compiler import codegen

import regelwerk

# every operator, either side, a range of literals, one of constants, an empty one, and a bound
# that fails once `split` has set `parts` to 0
RULES = """game "Ranges"
players Ann, Bob
const LOW = 2
const HIGH = 6
option top: int = 5
state
    have: Player -> int = 3
    parts: int = 3
action up_to(n in 1..9)
    "At most what you have."
    require have[current] >= n else "you have fewer"
    add 1 to have[current]
action below(n in 0..top)
    "Fewer than you have."
    require n < have[current] else "not fewer"
action from_(n in LOW..HIGH)
    "At least what you have."
    require have[current] <= n else "not at least"
action above(n in 1..8)
    "More than you have."
    require n > have[current] else "not more"
action none_(n in 5..2)
    "An empty range: its bound is never worked out."
    require 12 // (parts - 3) >= n else "never"
action none_of_constants(n in HIGH..LOW)
    "An empty range of constants: likewise."
    require n <= 12 // (parts - 3) else "never"
action split(n in 1..9)
    "A bound that fails once there are no parts."
    require 12 // parts >= n else "too many"
    set parts = 0
flow
    repeat 6 times
        turn
            play up_to, below, from_, above, none_, none_of_constants, split
"""

CHOSEN = {"n by have[current] >= n", "n by n < have[current]", "n by have[current] <= n",
          "n by n > have[current]", "n by 12 // (parts - 3) >= n",
          "n by n <= 12 // (parts - 3)", "n by 12 // parts >= n"}


def _load(path: Path, narrowed: bool, monkeypatch: pytest.MonkeyPatch) -> regelwerk.Ruleset:
    monkeypatch.setattr(codegen.CodeGen, "LOOP_FORMS", narrowed)
    rules = regelwerk.load(path)
    rules.program(False), rules.program(True)  # compiled now, while the switch says so
    return rules


@pytest.fixture
def rules_file(tmp_path: Path) -> Path:
    path = tmp_path / "ranges.rules"
    path.write_text(RULES, encoding="utf-8")
    return path


def test_each_bounded_range_is_narrowed(rules_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    chosen = {c.detail for c in _load(rules_file, True, monkeypatch).program(False).choices
              if c.kind == "narrowed range"}
    assert chosen == CHOSEN
    root = {c.rule for c in regelwerk.load(BUNDLED["root"]).program(False).choices if c.kind == "narrowed range"}
    assert root == {"action take_move", "action dig", "action use_marshal"}


def _play(rules: regelwerk.Ruleset, seed: int, record: bool) -> list:
    game = rules.new_game(seed=seed, record=record)
    rnd = random.Random(seed)
    seen: list = []
    try:
        while not game.is_over:
            moves = game.legal_actions()
            seen.append([str(m) for m in moves])
            for probe in ("below(0)", "from_(2)", "above(8)", "up_to(9)"):
                seen.append(tuple(game.explain(probe)))
            game.apply(rnd.choice(moves))
    except regelwerk.RuleFailure as err:  # after `split`, listing its moves divides by 0
        seen.append(("failed", str(err), err.span.line if err.span else None))
    seen.append((game.result, game.trace if record else None))
    return seen


@pytest.mark.parametrize("record", [False, True])
def test_the_same_moves_explanations_and_failures_as_the_whole_range(rules_file: Path, record: bool,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    narrowed = _load(rules_file, True, monkeypatch)
    whole = _load(rules_file, False, monkeypatch)
    failed = 0
    for seed in range(12):
        a, b = _play(narrowed, seed, record), _play(whole, seed, record)
        assert a == b
        failed += any(isinstance(x, tuple) and x and x[0] == "failed" for x in a)
    assert failed, "some game reaches the bound that fails"


def test_a_failing_bound_is_reported_at_its_require(rules_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = _load(rules_file, True, monkeypatch).new_game()
    with pytest.raises(regelwerk.RuleFailure) as failure:
        game.apply("split(1)")  # the next decision's listing divides by 0
    assert failure.value.span.line == RULES.splitlines().index('    require 12 // parts >= n else "too many"') + 1
    assert "division by zero" in str(failure.value)
