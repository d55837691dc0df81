"""What the tests of a new game copied from its template share (test_new_game_copy for the
untraced copy, test_reseeded_traced for the traced one): the copy must be the game `clone`
makes, field by field, sharing with the template exactly what `clone`'s copy shares."""

from __future__ import annotations

from collections import deque
from pathlib import Path

from regelwerk import Game

MUTABLE = (list, dict, set, deque, bytearray)
ROOT = Path(__file__).resolve().parent.parent
# every bundled ruleset a new game is made of (Root's main file only, no scenario files)
BUNDLED = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rulesets").glob("*/*.rules")
                 if "scenario" not in p.name and p.parent.name != "root" or p.name == "root.rules")


def assert_copied_as_clone(short: Game, other: Game, cloned: Game, template: Game) -> None:
    """`short` and `other`, two copies made the short way, against `cloned`, the long way's:
    the same fields and values, and each mutable one shared with the template (and so with
    the other copy) exactly where `clone`'s is."""
    t = template.__dict__
    assert set(short.__dict__) == set(cloned.__dict__) == set(t)
    for name, value in cloned.__dict__.items():
        mine = short.__dict__[name]
        assert mine == value, name
        if isinstance(value, MUTABLE):  # shared with the template exactly as clone shares it
            assert (mine is t[name]) == (value is t[name]), name
            assert (mine is other.__dict__[name]) == (value is t[name]), name
