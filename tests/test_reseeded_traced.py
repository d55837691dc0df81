"""A traced new game copied from its template (`Game._reseeded_traced`): after the first copy,
which `clone` makes the long way, every copy starts from the template's `_fresh` fields and
makes only its own lists. The copies must be the games `clone` makes: the same fields, the same
objects shared with the template and no others, the same games, traces and undo."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from copies import BUNDLED, assert_copied_as_clone
from playing import played_with_undo_and_clones

import regelwerk
from regelwerk import Game

ROOT = Path(__file__).resolve().parent.parent


def template_of(rs: regelwerk.Ruleset) -> Game | None:
    """The traced default template, after the first new game made (the long way) from it."""
    rs.new_game(seed=0, record=True)
    return rs._templates.get((None, True))


def long_way(rs: regelwerk.Ruleset, seed: int) -> Game:
    """A traced new game made by `clone`, as before the short path: `_fresh` forgotten first
    (the next copy makes it again)."""
    template = rs._templates[(None, True)]
    template._fresh = None
    g = rs.new_game(seed=seed, record=True)
    assert template._fresh is not None, "the long way keeps the fields for the next copy"
    return g


@pytest.mark.parametrize("path", BUNDLED)
def test_a_copy_is_the_game_clone_makes(path: str) -> None:
    rs = regelwerk.load(ROOT / path)
    template = template_of(rs)
    if template is None:  # its start draws on chance: no template, nothing copied
        pytest.skip("no template")
    cloned = long_way(rs, 7)
    short, other = rs.new_game(seed=7, record=True), rs.new_game(seed=7, record=True)
    assert_copied_as_clone(short, other, cloned, template)
    assert short._fresh is None and short._start_of is template


def test_every_bundled_classic_game_has_a_traced_template() -> None:
    """The test above would skip everything if no ruleset had a template: the classic ones do."""
    for name in ("tictactoe", "connect4", "breakthrough", "checkers"):
        assert template_of(regelwerk.load(ROOT / f"rulesets/classic/{name}.rules")) is not None


def digest(g: Game) -> str:
    return json.dumps([g.result, g.rng, g.trace, g.to_json()], sort_keys=True, default=str)


@pytest.mark.parametrize("path", BUNDLED)
def test_the_same_games_traces_and_undo(path: str) -> None:
    """Seeded random games from a short-path copy and from a clone of the template: the same
    results, traces and saves, with moves taken back (to the first decision, whose snapshot
    is the template) and clones on the way."""
    rs = regelwerk.load(ROOT / path)
    if template_of(rs) is None:
        pytest.skip("no template")
    for seed in range(6):
        short = played_with_undo_and_clones(rs.new_game(seed=seed, record=True), seed, 60, 3)
        cloned = played_with_undo_and_clones(long_way(rs, seed), seed, 60, 3)
        assert digest(short) == digest(cloned)
        first = rs.new_game(seed=seed, record=True)
        if not first.is_over:
            start = digest(first)
            first.apply(random.Random(seed).choice(first.legal_actions()))
            first.undo()
            assert digest(first) == start
