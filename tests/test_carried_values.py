"""Definitions' values carried from one decision to the next (interpreter/compiler/carry.py,
interpreter/engine/carried.py): a game keeps the value of `list x in T where W` (W
reading state only at `x`) and tests `W` again only at the keys written since. A kept value
must never outlive a change it did not hear of: every write form of the rules, a change from
outside (`invalidate`), a clone, a save loaded, undo, and a log grown too long. The oracle
here is the filter worked out in Python from the game's state at every decision."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import pytest
from bundled import BUNDLED
from playing import play_checked, played
from regelwerk.interpreter.compiler import codegen
from regelwerk.interpreter.engine import carried
from regelwerk.interpreter.tools.scenario import run_scenarios

import regelwerk

WALLS = """players Ann, Bob

board Square = grid 3 x 3

record Mark(hot: bool)

state
    cell: Square -> Player? = none
    walls: set Square
    marks: Square -> Mark = Mark(hot: false)
    turns: int = 0

define open_for(p: Player): list Square =
    list s in Square where cell[s] != p and s not in walls and not marks[s].hot

action place(s in open_for(current))
    "Put a stone on a square that is not yours, walled or hot."
    set cell[s] = current

action wall(s: Square)
    "Wall a square."
    require s not in walls else "walled already"
    add s to walls

action unwall(s in sorted(walls))
    "Take a wall down."
    remove s from walls

action heat(s: Square)
    "Make a square hot, or cool it."
    set marks[s].hot = not marks[s].hot

action bluff(s in open_for(current))
    "Put a stone down and wall it; the other player may make you take both back."
    set cell[s] = current
    add s to walls
    choose yes in [true, false] by other(current) "let it stand?"
    if not yes
        abandon "the other player said no"

action wipe
    "Take every stone off the board."
    require turns % 5 == 4 else "only every fifth turn"
    clear cell

flow
    repeat 12 times
        for p in players
            turn p
                play place, wall, unwall, heat, bluff, wipe
                add 1 to turns

scenario "squares set by hand leave the open squares at once"
    do place(a1)
    expect legal place(a1)
    expect legal place(b1)
    given
        set cell[b1] = Bob
        add c1 to walls
    expect illegal place(b1)
    expect illegal place(c1)
    expect legal place(a2)
    do place(a2)
    expect illegal place(a1)
    expect illegal place(c1)
    expect legal place(b1)
    expect legal place(a2)
"""

SQUARES = [f"{c}{r}" for r in "123" for c in "abc"]


@pytest.fixture(scope="module")
def walls(tmp_path_factory: pytest.TempPathFactory) -> regelwerk.Ruleset:
    path = tmp_path_factory.mktemp("carried") / "walls.rules"
    path.write_text(WALLS, encoding="utf-8")
    return regelwerk.load(path)


def _open(g: regelwerk.Game) -> list[str]:
    """The oracle: `open_for(current)` worked out from the state as it is now."""
    v = g.vars
    return [s for s in SQUARES if v["cell"][s] != g.current and s not in v["walls"] and not v["marks"][s]["hot"]]


def _placed(g: regelwerk.Game) -> list[str]:
    return [m.args[0] for m in g.legal_actions() if m.name == "place"]


def _check(g: regelwerk.Game) -> None:
    if g.pending is not None and g.pending["kind"] == "play":  # not `bluff`'s question
        assert _placed(g) == _open(g), (g.step_no, g.vars)


_play_checked = functools.partial(play_checked, check=_check)  # tests/playing.py


@pytest.mark.parametrize("record", [False, True])
def test_the_definition_is_carried(walls: regelwerk.Ruleset, record: bool):
    chosen = {(c.kind, c.rule, c.detail) for c in walls.program(record).choices}
    assert ("carried", "define open_for", "open_for by cell, marks, walls") in chosen
    assert ("carried", "define layable", "layable by neutral, tile_on, yurt") in {
        (c.kind, c.rule, c.detail) for c in regelwerk.load(BUNDLED["khan"]).program(False).choices}


@pytest.mark.parametrize("record", [False, True])
@pytest.mark.parametrize("seed", range(12))
def test_every_write_form_of_the_rules_is_heard(walls: regelwerk.Ruleset, seed: int, record: bool):
    """An entry set (`cell[s]`), a set written whole (`add`/`remove`, walls), a field deeper than
    one key (`marks[s].hot`), a map cleared whole (`clear cell`), and a move taken back
    (`abandon`: the state before it put back)."""
    _play_checked(walls.new_game(seed=seed, record=record), random.Random(seed), 30)


def test_a_change_from_outside_is_forgotten_by_invalidate(walls: regelwerk.Ruleset):
    g = walls.new_game(seed=3)
    _play_checked(g, random.Random(3), 4)
    free = _open(g)
    g.vars["cell"][free[0]] = g.current  # not by the rules: no write is logged
    g.vars["walls"] = g.vars["walls"] | {free[1]}
    g.invalidate()
    assert _placed(g) == _open(g) and free[0] not in _placed(g) and free[1] not in _placed(g)


@pytest.mark.parametrize("record", [False, True])
def test_a_clone_and_its_original_part_ways(walls: regelwerk.Ruleset, record: bool):
    g = walls.new_game(seed=5, record=record)
    _play_checked(g, random.Random(5), 6)
    copy = g.clone()
    _play_checked(copy, random.Random(50), 8)  # the copy moves on; the original was kept
    _play_checked(g, random.Random(51), 8)
    _play_checked(copy, random.Random(52), 8)


def test_a_save_loaded_plays_on_with_the_same_places(walls: regelwerk.Ruleset):
    g = walls.new_game(seed=7)
    _play_checked(g, random.Random(7), 9)
    again = regelwerk.Game.from_json(json.loads(json.dumps(g.to_json())), walls)
    assert _placed(again) == _placed(g)
    _play_checked(again, random.Random(70), 20)


@pytest.mark.parametrize("record", [False, True])
def test_a_scenario_s_given_lines_are_heard(walls: regelwerk.Ruleset, record: bool):
    """`given` writes through the rules' own code and then invalidates the game; legality is
    asked through `explain`, which reads the carried value too."""
    assert [(r.passed, r.failure) for r in run_scenarios(walls, record)] == [(True, None)]


def test_undo_of_a_traced_game(walls: regelwerk.Ruleset):
    g = walls.new_game(seed=9, record=True)
    _play_checked(g, random.Random(9), 10)
    for _ in range(4):
        g.undo()
        _check(g)
    _play_checked(g, random.Random(90), 10)


def test_a_log_grown_too_long_is_dropped_with_the_kept_values(walls: regelwerk.Ruleset,
                                                               monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(carried, "LOG_LIMIT", 1)
    for seed in range(4):
        _play_checked(walls.new_game(seed=seed), random.Random(seed), 30)


@pytest.mark.parametrize(("name", "players", "seeds", "record"), [
    ("khan", 3, range(3), False), ("khan", 4, range(1), False), ("shogun", 4, range(1), False),
    ("khan", 3, range(1), True), ("shogun", 4, range(1), True)])
def test_the_same_games_as_without_carrying(name: str, players: int, seeds: range, record: bool,
                                            monkeypatch: pytest.MonkeyPatch):
    """The same moves at every decision, and traced, the same traces."""
    carrying = played(regelwerk.load(BUNDLED[name]), players, record, seeds, 400)
    monkeypatch.setattr(codegen.CodeGen, "CARRY", False)
    plain = regelwerk.load(BUNDLED[name])
    assert not any(c.kind == "carried" for c in plain.program(record).choices)
    assert carrying == played(plain, players, record, seeds, 400)


def test_a_filter_that_reads_more_than_its_item_is_not_carried(tmp_path: Path):
    path = tmp_path / "wide.rules"
    path.write_text(WALLS.replace("cell[s] != p and", "cell[s] != p and cell[a1] == none and"), encoding="utf-8")
    assert not any(c.kind == "carried" for c in regelwerk.load(path).program(False).choices)
