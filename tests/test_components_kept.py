"""`components kept` (interpreter/compiler/codegen.py `CodeGen.components_kept`): in a listing,
`component_of(n, items)` over items worked out once for the listing (`once per listing`) is
answered from a table of the listing's that each call fills for every node of the component it
found, so a component is flooded once per listing. The same moves, traces and saves as without."""

from __future__ import annotations

import functools

import pytest
from bundled import BUNDLED, ruleset
from playing import played
from regelwerk.interpreter.compiler.codegen import CodeGen

import regelwerk

# `reach(s)` floods the component of s among the heaped squares (worked out once per listing);
# `near(s, m)` floods among squares of at least m, which change with m: not kept
GROUPS = """game "Groups"
players Ann, Bob
board Square = grid 4 x 4
state
    heap: Square -> int = 0
    n: int = 0
define big(s: Square, k: int): bool = (sum q in [1, 2]: heap[s] * q) >= k * 3
define heaped(k: int): list Square = list s in Square where big(s, k)
define reach(t: Square): int = sum x in component_of(t, heaped(1)): heap[x]
define near(t: Square, k: int): int = len(component_of(t, heaped(k)))
action put(m in 1..2, s: Square)
    "Put."
    require heap[s] < 3 else "full"
    require reach(s) + m < 14 else "too much"
    require near(s, m) < 5 else "crowded"
    add m to heap[s]
    add 1 to n
    if n == 14
        finish draw
flow
    repeat
        turn
            play put
"""


def _groups() -> regelwerk.Ruleset:
    return regelwerk.load_text(GROUPS, "groups.rules")


def _without(load: object) -> regelwerk.Ruleset:
    """A ruleset compiled with the choice off (both programs compiled while it is off)."""
    rules = load()
    CodeGen.COMPONENTS_KEPT = False
    try:
        for record in (False, True):
            prog = rules.program(record)
            assert "_component_kept" not in prog.source
            assert all(c.kind != "components kept" for c in prog.choices)
    finally:
        CodeGen.COMPONENTS_KEPT = True
    return rules


@functools.cache
def _root_pair() -> tuple[regelwerk.Ruleset, regelwerk.Ruleset]:
    return ruleset("root/root.rules"), _without(lambda: regelwerk.load(BUNDLED["root"]))


def test_a_component_over_items_worked_out_once_is_kept_per_component() -> None:
    prog = _groups().program(False)
    assert [c.detail for c in prog.choices if c.kind == "components kept"] == ["component_of(t, heaped(1))"]
    listing = prog.source.split("def AE_")[1].split("\ndef ")[0]
    kept = [line.strip() for line in listing.splitlines() if "_component_kept(" in line]
    assert len(kept) == 1 and "b_component_of(p1, _once" in kept[0]  # over the once-per-listing local
    table = kept[0].split(" = ")[1].split("[")[0]
    assert f"    {table} = {{}}" in listing  # the listing's own table
    # `near(s, m)`: its items change with m, so it floods every time
    assert listing.count("b_component_of(") == 2


def test_the_same_moves_and_games_with_and_without() -> None:
    with_kept, without = _groups(), _without(_groups)
    for record in (False, True):
        assert played(with_kept, None, record, range(6), 20, saved=True) == \
            played(without, None, record, range(6), 20, saved=True)


def test_root_keeps_the_marquises_wood_components() -> None:
    prog = ruleset("root/root.rules").program(False)
    assert ("action cat_build", "component_of(c, ruled_by(Marquise))") in {
        (c.rule, c.detail) for c in prog.choices if c.kind == "components kept"}


@pytest.mark.parametrize("record", [False, True])
def test_root_plays_the_same_games_with_and_without(record: bool) -> None:
    with_kept, without = _root_pair()
    seeds = range(2 if record else 5)
    assert played(with_kept, None, record, seeds, 300, saved=True) == played(without, None, record, seeds, 300, saved=True)
