"""Keys by value (interpreter/compiler/carry.py `key_test`, interpreter/engine/carried.py
`_keys_with`, `_keys_moved`): a loop over a board whose first test is `m[x] == v` walks the
keys whose entry is `v`, kept per (map, value) by the game and moved from one value's list to
another's by every write of an entry, in the board's order. Breakthrough's `step` and checkers'
`step` and `jump_paths` looked at all 64 squares to find the mover's pieces.

A kept list must never miss a change: every write form of the rules, a move taken back
(`abandon`), a change from outside (`invalidate`), a clone, a save loaded, undo, a scenario's
`given` lines. The keys walked are not tested on `m[x] == v` again; when the list cannot be
made, the loop walks the board testing it, so it fails as the scan did. The oracle is the
moves worked out in Python from the game's state at every decision, in the board's order; and
the same games (moves in order, results, traces) as with the transform switched off."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import pytest
from bundled import BUNDLED
from playing import play_checked, played
from regelwerk.interpreter.compiler import codegen
from regelwerk.interpreter.engine import carried, runtime
from regelwerk.interpreter.tools.scenario import run_scenarios

import regelwerk

STONES = """players Ann, Bob

board Square = grid 3 x 3

state
    cell: Square -> Player? = none
    turns: int = 0

define stones(p: Player): int = count s in Square where cell[s] == p

define open_to(p: Player) = list s in Square where cell[s] != p

action shift(from: Square, d in [N, E, S, W])
    "Move one of your stones to a free square next to it."
    require cell[from] == current else "not your stone"
    let to = neighbour(from, d)
    require to != none else "off the board"
    require cell[to] == none else "taken"
    set cell[to] = current
    clear cell[from]

action put(s: Square, bold: bool)
    "Put a stone on a free square; a bold one turns the stones next to it, unless the other player refuses."
    require cell[s] == none else "taken"
    require s in open_to(current) else "yours"
    require stones(current) < 4 else "four stones already"
    set cell[s] = current
    if bold
        for t in neighbours(s)
            if cell[t] != none
                set cell[t] = current
        choose yes in [true, false] by other(current) "let it stand?"
        if not yes
            abandon "the other player said no"

action wipe
    "Take every stone off the board."
    require turns % 7 == 6 else "only every seventh turn"
    clear cell

flow
    repeat 15 times
        for p in players
            turn p
                play shift, put, wipe
                add 1 to turns

scenario "stones set by hand are heard at once"
    do put(a1, false)
    expect legal put(b1, false)
    given
        set cell[b1] = Bob
        set cell[c1] = Bob
    expect illegal put(b1, false)
    expect legal shift(b1, N)
    do shift(b1, N)
    expect illegal shift(b2, N)
    expect legal shift(a1, N)
    expect illegal shift(a1, S)
    expect legal put(b1, true)
"""

STEPS = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}


@pytest.fixture(scope="module")
def stones(tmp_path_factory: pytest.TempPathFactory) -> regelwerk.Ruleset:
    path = tmp_path_factory.mktemp("keys") / "stones.rules"
    path.write_text(STONES, encoding="utf-8")
    return regelwerk.load(path)


def _neighbour(s: str, d: str) -> str | None:
    c, r = ord(s[0]) - ord("a") + STEPS[d][0], int(s[1:]) + STEPS[d][1]
    return f"{chr(ord('a') + c)}{r}" if 0 <= c < 3 and 1 <= r <= 3 else None


def _oracle(g: regelwerk.Game) -> list[tuple]:
    """`shift`'s and `put`'s moves worked out from the state as it is now, in the board's order."""
    cell, me = g.vars["cell"], g.current
    order = [f"{c}{r}" for r in "123" for c in "abc"]
    out: list[tuple] = [("shift", s, d) for s in order if cell[s] == me for d in STEPS
                        if (to := _neighbour(s, d)) is not None and cell[to] is None]
    if sum(cell[s] == me for s in order) < 4:
        out += [("put", s, b) for s in order if cell[s] is None for b in (False, True)]
    taken_back = g.abandoned or ()  # a move taken back is not offered again at this decision
    return [t for t in out if f"{t[0]}({', '.join(str(a).lower() for a in t[1:])})" not in taken_back]


def _listed(g: regelwerk.Game) -> list[tuple]:
    return [(m.name, *m.args) for m in g.legal_actions() if m.name in ("shift", "put")]


def _check(g: regelwerk.Game) -> None:
    if g.pending is not None and g.pending["kind"] == "play":  # not `put`'s question
        assert _listed(g) == _oracle(g), (g.step_no, g.vars)


_play_checked = functools.partial(play_checked, check=_check)  # tests/playing.py


@pytest.mark.parametrize("record", [False, True])
def test_the_loops_walk_the_kept_keys(stones: regelwerk.Ruleset, record: bool, monkeypatch: pytest.MonkeyPatch):
    chosen = {(c.kind, c.rule, c.detail) for c in stones.program(record).choices}
    assert ("keys by value", "action shift", "from by cell[from] == current") in chosen
    assert ("keys by value", "action put", "s by cell[s] == none") in chosen
    assert ("keys by value", "define stones", "count s in Square where cell[s] == p") in chosen
    source = stones.program(record).source
    assert "_keys_with(" in source and "_insort(" in source  # walked, and kept by the writes (in place)
    for name, rule in (("breakthrough", "action step"), ("checkers", "action step"), ("checkers", "define jump_paths")):
        prog = regelwerk.load(BUNDLED[name]).program(record)
        assert rule in {c.rule for c in prog.choices if c.kind == "keys by value"}
    monkeypatch.setattr(codegen.CodeGen, "KEYS_BY_VALUE", False)
    plain = regelwerk.load(BUNDLED["checkers"]).program(record)
    assert not any(c.kind == "keys by value" for c in plain.choices)
    assert "_keys_with(" not in plain.source and "_keys_moved(" not in plain.source and "_insort(" not in plain.source


def test_a_loop_whose_first_test_is_another_is_not_walked_by_value(tmp_path: Path):
    """The kept keys stand for the first test only (a test before it could fail where the
    kept keys would skip it), and for a value that cannot fail: `other(current)` is a call."""
    for old, new in (('    require cell[from] == current else "not your stone"\n',
                      '    require turns >= 0 and cell[from] == current else "not your stone"\n'),
                     ("cell[from] == current", "cell[from] == other(current)")):
        path = tmp_path / "other.rules"
        path.write_text(STONES.replace(old, new), encoding="utf-8")
        rules = {c.rule for c in regelwerk.load(path).program(False).choices if c.kind == "keys by value"}
        assert "action shift" not in rules and "action put" in rules


@pytest.mark.parametrize("record", [False, True])
@pytest.mark.parametrize("seed", range(10))
def test_every_write_form_of_the_rules_is_heard(stones: regelwerk.Ruleset, seed: int, record: bool):
    """An entry set (`set cell[to]`, `set cell[t]` from one player's value to the other's), an
    entry cleared, a map cleared whole (`clear cell`), and a move taken back (`abandon`)."""
    _play_checked(stones.new_game(seed=seed, record=record), random.Random(seed), 40)


def test_a_change_from_outside_is_forgotten_by_invalidate(stones: regelwerk.Ruleset):
    g = stones.new_game(seed=3)
    _play_checked(g, random.Random(3), 6)
    free = [s for s, v in g.vars["cell"].items() if v is None]
    g.vars["cell"][free[0]] = g.current  # not by the rules: no write moves its key
    g.invalidate()
    _check(g)
    assert ("put", free[0], False) not in _listed(g)


def _failure(ruleset: regelwerk.Ruleset, record: bool) -> str:
    g = ruleset.new_game(seed=1, record=record)
    _play_checked(g, random.Random(1), 5)
    del g.vars["cell"]["b2"]  # from outside: a key the board has is missing
    g.invalidate()
    with pytest.raises(Exception) as err:
        g.legal_actions()
    return repr(err.value)


@pytest.mark.parametrize("record", [False, True])
def test_a_list_that_cannot_be_made_walks_the_board_and_fails_as_the_scan_did(
        stones: regelwerk.Ruleset, record: bool, monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    walked = _failure(stones, record)
    monkeypatch.setattr(codegen.CodeGen, "KEYS_BY_VALUE", False)
    path = tmp_path / "stones.rules"
    path.write_text(STONES, encoding="utf-8")
    assert walked == _failure(regelwerk.load(path), record) == "KeyError('b2')"


@pytest.mark.parametrize("record", [False, True])
def test_with_no_list_kept_the_loops_walk_the_board_testing_as_written(record: bool, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch):
    """The path of a list that could not be made, taken at every loop: the same moves."""
    monkeypatch.setitem(runtime.RUNTIME, "_keys_with", lambda _G, _key, _name, _value, domain: domain)
    path = tmp_path / "stones.rules"
    path.write_text(STONES, encoding="utf-8")
    for seed in range(4):
        _play_checked(regelwerk.load(path).new_game(seed=seed, record=record), random.Random(seed), 40)


@pytest.mark.parametrize("record", [False, True])
def test_a_clone_and_its_original_part_ways(stones: regelwerk.Ruleset, record: bool):
    g = stones.new_game(seed=5, record=record)
    _play_checked(g, random.Random(5), 6)
    copy = g.clone()
    _play_checked(copy, random.Random(50), 8)  # the copy moves on; the original was kept
    _play_checked(g, random.Random(51), 8)
    _play_checked(copy, random.Random(52), 8)


@pytest.mark.parametrize("record", [False, True])
def test_a_clone_keeps_copies_of_the_lists_and_parts_ways(stones: regelwerk.Ruleset, record: bool):
    """`Game.clone` gives its copy the keys by value (`carried.kept_for_clone`: perft clones
    every node), each list a copy, so neither game's writes reach the other's; not the
    carried definitions, whose log positions count the original's log."""
    g = stones.new_game(seed=5, record=record)
    _play_checked(g, random.Random(5), 6)
    copy = g.clone()
    assert copy._carried and all(type(k) is str for k in copy._carried)
    assert copy._carried == {k: v for k, v in g._carried.items() if type(k) is str}
    assert all(copy._carried[k][v] is not g._carried[k][v] for k in copy._carried for v in copy._carried[k])
    _play_checked(copy, random.Random(50), 8)
    _play_checked(g, random.Random(51), 8)
    _play_checked(copy, random.Random(52), 8)


def test_a_save_loaded_plays_on_with_the_same_moves(stones: regelwerk.Ruleset):
    g = stones.new_game(seed=7)
    _play_checked(g, random.Random(7), 9)
    again = regelwerk.Game.from_json(json.loads(json.dumps(g.to_json())), stones)
    assert _listed(again) == _listed(g)
    _play_checked(again, random.Random(70), 20)


@pytest.mark.parametrize("record", [False, True])
def test_a_scenario_s_given_lines_are_heard(stones: regelwerk.Ruleset, record: bool):
    assert [(r.passed, r.failure) for r in run_scenarios(stones, record)] == [(True, None)]


def test_undo_of_a_traced_game(stones: regelwerk.Ruleset):
    g = stones.new_game(seed=7, record=True)  # no move taken back in the first twelve: all undoable
    _play_checked(g, random.Random(7), 12)
    for _ in range(8):
        g.undo()
        _check(g)
    _play_checked(g, random.Random(70), 12)


def test_a_log_grown_too_long_drops_the_kept_keys_too(stones: regelwerk.Ruleset, monkeypatch: pytest.MonkeyPatch):
    """`open_to(p)` is carried, so writes of `cell` are logged; a log past its limit drops every
    carried value, the kept keys with them, and they are made again."""
    assert "define open_to" in {c.rule for c in stones.program(False).choices if c.kind == "carried"}
    monkeypatch.setattr(carried, "LOG_LIMIT", 1)
    for seed in range(4):
        _play_checked(stones.new_game(seed=seed), random.Random(seed), 40)


@pytest.mark.parametrize(("name", "players", "seeds", "record"), [
    ("breakthrough", 2, range(8), False), ("breakthrough", 2, range(3), True),
    ("checkers", 2, range(8), False), ("checkers", 2, range(3), True),
    ("shogun", 4, range(1), False), ("shogun", 4, range(1), True)])
def test_the_same_games_as_without_keys_by_value(name: str, players: int, seeds: range, record: bool,
                                                 monkeypatch: pytest.MonkeyPatch):
    """The same moves in the same order at every decision, the same results and traces."""
    walked = played(regelwerk.load(BUNDLED[name]), players, record, seeds, 400)
    monkeypatch.setattr(codegen.CodeGen, "KEYS_BY_VALUE", False)
    plain = regelwerk.load(BUNDLED[name])
    assert not any(c.kind == "keys by value" for c in plain.program(record).choices)
    assert walked == played(plain, players, record, seeds, 400)


@pytest.mark.parametrize("record", [False, True])
def test_the_same_games_as_without_on_the_test_board(stones: regelwerk.Ruleset, record: bool,
                                                    monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    walked = played(stones, 2, record, range(6), 200)
    monkeypatch.setattr(codegen.CodeGen, "KEYS_BY_VALUE", False)
    path = tmp_path / "stones.rules"
    path.write_text(STONES, encoding="utf-8")
    assert walked == played(regelwerk.load(path), 2, record, range(6), 200)
