"""Requires on every item of a placement pushed into its domain (interpreter/compiler/pushdown.py,
issue 27): `require all s in area: C(s)` and `require not (any s in area: C(s))`, with `area in
placements(shape, R)`, become `placements(shape, [s in R where C(s)])` for the listing. The moves
listed, and their order, are those of the program without the transform, whether the pushed
requires hold, fail or fail to evaluate; explain and check still test every require."""

from __future__ import annotations

import pytest
from playing import listed, without
from regelwerk.interpreter.compiler import actiongen

import regelwerk

LAY = """players Ann, Bob
board Sq = grid 4 x 3
enum Piece = dom, tri, ell
const SHAPE = {dom: [[0, 0], [1, 0]], tri: [[0, 0], [1, 0], [2, 0]], ell: [[0, 0], [1, 0], [0, 1]]}
state
    stone: Sq -> Player? = none
    bar: set Sq = {}
    weight: Sq -> int = 1
    left: list Piece = [dom, tri, ell, dom]
define ground: list Sq = list s in Sq where s != d3 and s != c2 and s != d1
define barred(s: Sq): bool = s in bar
action lay(k in sorted(left), area in placements(SHAPE[k], ground()))
    "Lay a piece on free squares."
    require not (any s in area: barred(s)) else "a barred square"
    require all s in area: stone[s] == none and 6 // weight[s] >= 1 else "a stone is there"
    require k != tri or not (c1 in area) else "no tri on c1"
    for s in area
        set stone[s] = current
    remove k from left
action fill(area in placements([[0, 0], [0, 1]], ground()))
    "Fill two squares, one above the other."
    require all s in area: stone[s] == none else "a stone is there"
    for s in area
        set stone[s] = current
action put(s: Sq)
    "A stone."
    set stone[s] = current
action shut(s: Sq)
    "A bar."
    add s to bar
action weigh(s: Sq)
    "No weight: 6 // weight[s] fails there."
    set weight[s] = 0
flow
    repeat 40 times
        for p in players
            turn p
                play lay, fill, put, shut, weigh
"""


@pytest.fixture(scope="module")
def both() -> tuple[regelwerk.Ruleset, regelwerk.Ruleset]:
    pushed = regelwerk.load_text(LAY, "lay.rules")
    return pushed, without(lambda: regelwerk.load_text(LAY, "lay.rules"), actiongen, "pushable")


def test_the_compiler_notes_the_requires_it_pushed(both):
    pushed, plain = both
    kept = {c.detail for c in pushed.program(False).choices if c.kind == "push down"}
    assert kept == {"barred(s) into placements(SHAPE[k], ground())",
                    "stone[s] == none and 6 // weight[s] >= 1 into placements(SHAPE[k], ground())",
                    "stone[s] == none into placements([[0, 0], [0, 1]], ground())"}
    assert not any(c.kind == "push down" for c in plain.program(False).choices)


# each position: the moves played from the start (Ann, Bob, Ann, ...); then the listing compared
POSITIONS = {
    "every pushed require holds": [],
    "some fail": ["put(b1)", "shut(c2)", "shut(a3)"],
    "all placements of a shape fail": ["put(a1)", "put(c1)", "put(b2)", "put(d2)", "put(a3)", "put(c3)"],
    "C fails on a square no placement covers": ["weigh(d2)"],
    "C fails where an earlier pushed require rejects": ["shut(c1)", "weigh(c1)"],
    "after a piece is laid": ["lay(dom, [a1, b1])", "shut(c3)"],
}


@pytest.mark.parametrize("record", [False, True])
@pytest.mark.parametrize("moves", POSITIONS.values(), ids=POSITIONS.keys())
def test_the_same_moves_in_the_same_order(both, moves: list[str], record: bool):
    pushed, plain = both
    a, b = pushed.new_game(seed=1, record=record), plain.new_game(seed=1, record=record)
    for m in moves:
        a.apply(m)
        b.apply(m)
    assert listed(a) == listed(b)
    moves_now = listed(a)
    if isinstance(moves_now, list):
        assert any(m.startswith("lay(") for m in moves_now) or moves == POSITIONS["all placements of a shape fail"]


def test_an_error_of_a_pushed_require_on_a_covered_square_is_the_rules_error(both):
    """Where the require as written fails to evaluate, so does the listing: the filter's
    failure is not the answer, the requires as written run and fail the same way. (The
    place named differs only because the longer listing is no longer copied into the
    block that offers it: `in action 'lay'` rather than the `play` line of the flow.)"""
    pushed, plain = both
    a, b = pushed.new_game(seed=1), plain.new_game(seed=1)
    with pytest.raises(regelwerk.RuleFailure) as one:
        a.apply("weigh(b2)")
    with pytest.raises(regelwerk.RuleFailure) as other:
        b.apply("weigh(b2)")
    for err in (one.value, other.value):
        assert str(err).startswith("lay.rules:") and "division by zero (the divisor of // was 0)" in str(err)


@pytest.mark.parametrize(("move", "reason"), [
    ("lay(dom, [b1, c1])", "a barred square"),
    ("lay(tri, [a1, b1, c1])", "a barred square"),
    ("lay(tri, [b1, b2, b3])", "a stone is there"),
    ("lay(ell, [a2, a3, b2])", "a stone is there"),
    ("fill([a1, a2])", "a stone is there"),
])
def test_explain_of_a_placement_not_listed_names_its_require(both, move: str, reason: str):
    pushed, plain = both
    games = [r.new_game(seed=1, record=record) for r in both for record in (False, True)]
    for g in games:
        for m in ("put(a1)", "shut(c1)", "put(b2)"):
            g.apply(m)
    for g in games:
        assert move not in listed(g)
        why = g.explain(move)
        assert not why.legal and reason in why.reason, (move, why.reason)
    assert len({repr(g.explain(move).checks) for g in games}) == 1
