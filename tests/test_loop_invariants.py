"""A part of an aggregate's body that reads nothing the loop binds is worked out once per
loop, the first time it is needed (interpreter/compiler/hoist.loop_invariants): Khan's
`has_majority`, `all q in players: own(q, area) <= own(p, area)`, counted the mover's yurts
once per player. The values, the listed moves, explanations and errors stay the same."""

from __future__ import annotations

import random

import pytest
from regelwerk.interpreter.compiler import codegen

import regelwerk

LEAD = """players Ann, Bob, Cas
enum Sq = a1, a2, a3, a4, a5
state
    owner: Sq -> Player? = none
    boss: Player? = none
    cut: int = 2
define own(p: Player, area: list Sq): int = count s in area where owner[s] == p
define leads(p: Player, area: list Sq): bool =
    own(p, area) >= 1 and (all q in players: own(q, area) <= own(p, area))
define chief(p: Player): Player? = if boss == p then none else boss
define ranked(p: Player): bool = all q in players where q != p: chief(p) == none or q != chief(p)
define share(p: Player, area: list Sq): bool = all q in players: own(q, area) <= 10 // cut
action take(s in Sq)
    "Take a free square."
    require owner[s] == none else "taken"
    set owner[s] = current
action crown(s in Sq, t in Sq)
    "Crown yourself over two squares you lead."
    require s != t else "two squares"
    require leads(current, [s, t]) else "no lead"
    require ranked(current) else "outranked"
    require share(current, [s, t]) else "no share"
    set boss = current
    set cut = cut - 1
flow
    repeat 8 times
        for p in players
            turn p
                play take, crown
"""


def _load(monkeypatch: pytest.MonkeyPatch | None = None) -> regelwerk.Ruleset:
    if monkeypatch is not None:
        monkeypatch.setattr(codegen, "loop_invariants", lambda *_args: [])
    return regelwerk.load_text(LEAD, "lead.rules")


def test_the_compiler_says_what_it_works_out_once():
    kept = {c.detail for c in _load().program(False).choices if c.kind == "loop invariant"}
    assert "own(p, area) in all q in players: own(q, area) <= own(p, area)" in kept
    assert any(d.startswith("chief(p) in all q in players where q != p") for d in kept)


@pytest.mark.parametrize("record", [False, True])
def test_the_same_moves_explanations_and_errors_as_without(monkeypatch: pytest.MonkeyPatch, record: bool):
    """Random games, move for move: the listed moves, the explanation of every binding, and
    the failure once `cut` is 0 (`10 // cut` divides by zero inside the loop, a part that
    reads no loop variable: the same error, from the same rule)."""
    hoisted = _load()
    plain = _load(monkeypatch)
    assert not any(c.kind == "loop invariant" for c in plain.program(record).choices)
    errors = 0
    for seed in range(12):
        a = hoisted.new_game(seed=seed, record=record)
        b = plain.new_game(seed=seed, record=record)
        rnd = random.Random(seed)
        while not a.is_over:
            moves = [str(m) for m in a.legal_actions()]
            assert moves == [str(m) for m in b.legal_actions()]
            for s in ("a1", "a3"):
                for t in ("a2", "a5"):
                    assert a.explain(f"crown({s}, {t})").checks == b.explain(f"crown({s}, {t})").checks
            pick = rnd.choice(moves)
            try:  # the next listing runs as the move's block goes on
                a.apply(pick)
            except regelwerk.RuleFailure as err:
                with pytest.raises(regelwerk.RuleFailure) as other:
                    b.apply(pick)
                assert str(err) == str(other.value) and "division by zero" in str(err)
                errors += 1
                break
            b.apply(pick)
            assert a.vars == b.vars
    assert errors, "some game reached the division by zero"
