"""A require pushed into a placement domain is not tested again on the squares of a source that
kept exactly the squares passing it (interpreter/compiler/implied.py): Khan's `all s in area:
yurt[s] != none or s in neutral or open_river(t, s)` over `layable(t)`, whose filter is that
test with `open_river`'s body in place. Anything else is still tested."""

from __future__ import annotations

from pathlib import Path

import pytest
from bundled import BUNDLED
from playing import played
from regelwerk.interpreter.compiler import actiongen
from regelwerk.interpreter.compiler.implied import implied

import regelwerk

BASE = """players Ann, Bob

board Square = grid 4 x 4

state
    cell: Square -> Player? = none
    stones: int = 0

define mine(p: Player, s: Square): bool = cell[s] == p

define ground(p: Player): list Square = list s in Square where cell[s] == p or cell[s] == none

action lay(area in placements([[0, 0], [1, 0]], ground(current)))
    "Lay a domino on your own or empty squares."
    require all s in area: REQUIRE else "not there"
    for s in area
        set cell[s] = current

action skip
    "Pass."
    add 1 to stones

flow
    repeat 6 times
        for p in players
            turn p
                play lay, skip
"""


def _implied(tmp_path: Path, require: str) -> set:
    path = tmp_path / "dominoes.rules"
    path.write_text(BASE.replace("REQUIRE", require), encoding="utf-8")
    ruleset = regelwerk.load(path)
    return {c.detail for c in ruleset.program(False).choices if c.kind == "implied"}


def test_khan_does_not_test_layable_again():
    chosen = {(c.kind, c.detail) for c in regelwerk.load(BUNDLED["khan"]).program(False).choices}
    assert ("implied", "yurt[s] != none or s in neutral or open_river(t, s) by layable(t)") in chosen


@pytest.mark.parametrize("require", [
    "cell[s] == current or cell[s] == none",
    "mine(current, s) or cell[s] == none",  # a definition's body in place
])
def test_the_source_filter_itself_is_implied(tmp_path: Path, require: str):
    assert _implied(tmp_path, require) == {f"{require} by ground(current)"}


@pytest.mark.parametrize("require", [
    "cell[s] == none or cell[s] == current",  # the same squares, not the same test: tested
    "cell[s] == current or cell[s] != none",
    "cell[s] == Ann or cell[s] == none",  # another player than the argument
    "cell[a1] == current or cell[s] == none",  # another square than the item
    "mine(Bob, s) or cell[s] == none",
    "(any q in players: cell[s] == q) or cell[s] == none",  # binds a name of its own
])
def test_any_other_require_is_still_tested(tmp_path: Path, require: str):
    assert _implied(tmp_path, require) == set()


def test_khan_plays_the_same_games_with_the_test_kept(monkeypatch: pytest.MonkeyPatch):
    quick = played(regelwerk.load(BUNDLED["khan"]), 3, False, range(2), 400)
    monkeypatch.setattr(actiongen, "implied", lambda *_args: False)
    kept = regelwerk.load(BUNDLED["khan"])
    assert not any(c.kind == "implied" for c in kept.program(False).choices)
    assert quick == played(kept, 3, False, range(2), 400)


def test_a_name_of_the_action_is_not_the_item(tmp_path: Path):
    """`cell[at]` against the filter's `cell[s]`: both names stand for something, not the same."""
    path = tmp_path / "two.rules"
    path.write_text(BASE.replace("action lay(area in", "action lay(at: Square, area in").replace(
        "REQUIRE", "cell[at] == current or cell[s] == none"), encoding="utf-8")
    m = regelwerk.load(path).model
    lay = m.actions["lay"]
    test = lay.body[0].test
    assert not implied(m, lay.params[1].domain.args[1], test.var, test.body, True, frozenset({"at", "area"}))
