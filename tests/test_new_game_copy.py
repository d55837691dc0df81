"""An untraced new game copied from its template (`Game._reseeded`): the template's fields
copied, then the copy's own values stored field by field (`clone`'s steps in line, not
saves.copy_changing's). The copy must be the game `clone` makes with the new seed: the same
fields and values, the same objects shared with the template and no others, the same games.
`Ruleset.new_game` finds the default template without a key tuple (`_defaults`): the same
template as `_templates`, forgotten with it when the limits change."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from copies import BUNDLED, MUTABLE, assert_copied_as_clone

import regelwerk
from regelwerk import Game
from regelwerk.api import _SEED_MASK

ROOT = Path(__file__).resolve().parent.parent


def template_of(rs: regelwerk.Ruleset) -> Game | None:
    rs.new_game(seed=0)
    return rs._templates.get((None, False))


def cloned(template: Game, seed: int) -> Game:
    g = template.clone()
    g.seed, g.rng = seed, seed & _SEED_MASK
    return g


@pytest.mark.parametrize("path", BUNDLED)
def test_a_copy_is_the_game_clone_makes(path: str) -> None:
    rs = regelwerk.load(ROOT / path)
    template = template_of(rs)
    if template is None:  # its start draws on chance: no template, nothing copied
        pytest.skip("no template")
    assert rs._defaults[False] is template
    short, other, long = rs.new_game(seed=7), rs.new_game(seed=7), cloned(template, 7)
    assert_copied_as_clone(short, other, long, template)
    for k, v in long.vars.items():  # and what clone copies one level down: the variables,
        if isinstance(v, MUTABLE):
            assert (short.vars[k] is template.vars[k]) == (v is template.vars[k]), k
    for mine, theirs in zip(short.frames, template.frames, strict=True):  # and the frames
        assert mine == theirs and mine is not theirs and mine[2] is not theirs[2]


def test_every_bundled_classic_game_has_a_template() -> None:
    """The test above would skip everything if no ruleset had a template: the classic ones do."""
    for name in ("tictactoe", "connect4", "breakthrough", "checkers"):
        assert template_of(regelwerk.load(ROOT / f"rulesets/classic/{name}.rules")) is not None


def digest(g: Game) -> str:
    return json.dumps([g.result, g.rng, g.to_json()], sort_keys=True, default=str)


def played(g: Game, seed: int) -> Game:
    rnd = random.Random(seed)
    for _ in range(200):
        if g.is_over:
            break
        g.apply(rnd.choice(g.legal_actions()))
    return g


@pytest.mark.parametrize("path", BUNDLED)
def test_the_same_games(path: str) -> None:
    """Seeded random games from a copy and from a clone of the template: the same results and
    saves, and the template untouched by either."""
    rs = regelwerk.load(ROOT / path)
    template = template_of(rs)
    if template is None:
        pytest.skip("no template")
    before = digest(template)
    for seed in range(4):
        assert digest(played(rs.new_game(seed=seed), seed)) == digest(played(cloned(template, seed), seed))
    assert digest(template) == before


def test_the_default_template_follows_the_limits() -> None:
    """After `set_limits` a new game is made from a template started with the new limits, on
    the hot path too (`_defaults` is forgotten with `_templates`)."""
    rs = regelwerk.load(ROOT / "rulesets/classic/tictactoe.rules")
    first = rs.new_game(seed=1)
    rs.set_limits(work_budget=1234)
    again = rs.new_game(seed=1)
    assert first.work_budget != 1234 and again.work_budget == 1234
    assert rs._defaults[False] is rs._templates[(None, False)]
    assert rs._defaults[False].work_budget == 1234
