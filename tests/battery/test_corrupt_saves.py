"""Corrupted saves: saves of real games at many points (a pending choice, a move that can be
taken back, a finished game) with one or more fields edited, deleted, retyped or blown up.
Loading one either works, and then the game goes on, or raises a SaveError naming the field
by its JSON path; the command line says the same and never exits 70."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from regelwerk.interpreter.engine.errors import EngineError, SaveError
from regelwerk.interpreter.tools.agents import RandomAgent

import regelwerk

from .tally import engine_error_located, outcome_of_cli, record, time_limit

ROOT = Path(__file__).resolve().parents[2]
GAMES = {
    "tictactoe": (ROOT / "rulesets/classic/tictactoe.rules", 2),
    "climb": (ROOT / "rulesets/examples/climb.rules", 3),
    "pig": (ROOT / "rulesets/examples/pig.rules", 2),
    "offers": (ROOT / "tests/corpus/valid/abandon.rules", 2),
    "canary": (ROOT / "tests/fixtures/visibility/canary.rules", 3),
    "khan": (ROOT / "rulesets/khan/khan.rules", 3),
    "root": (ROOT / "rulesets/root/root.rules", 2),
    "shogun": (ROOT / "rulesets/shogun/shogun.rules", 4),
}
RULES: dict[str, regelwerk.Ruleset] = {}


def saves_of(name: str) -> list[dict]:
    """Saves at the start, after some decisions, inside choices, and at the end."""
    path, players = GAMES[name]
    rules = RULES.setdefault(name, regelwerk.load(path))
    out = []
    for seed in range(2):
        game = rules.new_game(players=players, seed=seed)
        agent = RandomAgent(seed)
        n = 0
        while not game.is_over and n < 60:
            if n % 7 == 0 or game.pending["kind"] == "choose" or game.abandon is not None:
                out.append(json.loads(json.dumps(game.to_json())))
            game.apply(agent(game))
            n += 1
        out.append(json.loads(json.dumps(game.to_json())))
    return out


SAVES = {name: saves_of(name) for name in GAMES}
WEIRD = [None, True, False, 0, 1, -7, 2**64, 10**30, "", "x", "1", "save", "#0", "flow", "X", "North", [], {},
         [[[]]], {"kind": "play"}, {"kind": "choose", "player": "X", "var": "v", "options": []}, [0, 0, {}, "flow"],
         "9" * 50, 1.5]


def paths(v: Any, here: tuple = ()) -> list[tuple]:
    out = [here]
    if isinstance(v, dict):
        for k, x in v.items():
            out.extend(paths(x, (*here, k)))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            out.extend(paths(x, (*here, i)))
    return out


@st.composite
def corrupted(draw: st.DrawFn, names: tuple[str, ...]) -> tuple[str, dict]:
    name = draw(st.sampled_from(names))
    save = copy.deepcopy(draw(st.sampled_from(SAVES[name])))
    for _ in range(draw(st.integers(1, 3))):
        spots = [p for p in paths(save) if p]
        where = draw(st.sampled_from(spots))
        parent = save
        for k in where[:-1]:
            parent = parent[k]
        key = where[-1]
        op = draw(st.sampled_from(["replace", "replace", "delete", "wrap", "duplicate", "deep"]))
        if op == "replace":
            parent[key] = copy.deepcopy(draw(st.sampled_from(WEIRD)))
        elif op == "delete":
            del parent[key]
        elif op == "wrap":
            parent[key] = [parent[key]]
        elif op == "duplicate" and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        elif op == "deep":
            v: Any = 1
            for _ in range(draw(st.sampled_from([50, 500]))):
                v = [v]
            parent[key] = v
    return name, save


def check_save(name: str, save: dict) -> None:
    rules = RULES[name]
    try:
        with time_limit(20):
            game = rules.load_game(save)
            moves = game.legal_actions()
            if moves:
                game.apply(random.Random(0).choice(moves))
            game.to_json()
            game.clone()
    except SaveError as err:
        ok = err.message.startswith("save")
        assert record("save", "located" if ok else "unlocated") == "located", err.message
    except EngineError as err:  # the save held a legal but odd position and a rule failed
        assert record("save", "located" if engine_error_located(err, None) else "unlocated") == "located", err
    except Exception as err:  # noqa: BLE001
        record("save", "traceback")
        raise AssertionError(f"{type(err).__name__}: {err}") from err
    else:
        record("save", "ok")


FEW = settings(deadline=None, database=None, max_examples=150,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
SMALL = ("tictactoe", "climb", "pig", "offers", "canary")


@FEW
@given(c=corrupted(SMALL))
def test_corrupted_saves(c):
    check_save(*c)


@pytest.mark.slow
@settings(FEW, max_examples=2500)
@given(c=corrupted(tuple(GAMES)))
def test_corrupted_saves_many(c):
    check_save(*c)


@settings(FEW, max_examples=25)
@given(c=corrupted(SMALL), cut=st.integers(0, 400))
def test_corrupted_save_files_on_the_command_line(tmp_path_factory, c, cut: int):
    name, save = c
    folder = tmp_path_factory.getbasetemp()
    path = folder / "s.json"
    text = json.dumps(save)
    path.write_text(text[:len(text) - cut] if cut % 3 == 0 else text, encoding="utf-8")
    outcome, err = outcome_of_cli(["legal", str(GAMES[name][0]), "--state", str(path)])
    assert record("save-cli", outcome) in ("ok", "located"), (outcome, err)


def test_a_save_naming_another_file_is_refused_without_echoing_it(tmp_path: Path):
    secret = tmp_path / "secret.txt"
    secret.write_text("root:$6$secret:0:0\n", encoding="utf-8")
    save = copy.deepcopy(SAVES["tictactoe"][0])
    save["ruleset_file"] = str(secret)
    with pytest.raises(SaveError) as info:
        regelwerk.Game.from_json(save)
    # (a path is shown to its first 80 characters: a test worker's folder can be longer)
    assert info.value.message == f"save.ruleset_file: {str(secret)[:80]!r} is not a .rules file; pass the ruleset"
    renamed = secret.rename(tmp_path / "secret.rules")
    save["ruleset_file"] = str(renamed)
    with pytest.raises(SaveError) as info:
        regelwerk.Game.from_json(save)
    assert info.value.message == f"save.ruleset_file: cannot load {str(renamed)!r}: it does not check (E003 at 1:1)"
