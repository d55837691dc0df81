"""Corrupted traces: real traces with a line edited field by field, cut short, doubled,
dropped, or with bytes that are not JSON or not UTF-8. `trace show` (as everyone, as one
player, with and without the rules) prints it or names the line and field that is wrong;
it never exits 70."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from regelwerk.interpreter.tools.agents import RandomAgent
from regelwerk.interpreter.tools.trace import trace_lines

import regelwerk

from .tally import outcome_of_cli, record

ROOT = Path(__file__).resolve().parents[2]
GAMES = {
    "tictactoe": (ROOT / "rulesets/classic/tictactoe.rules", 2),
    "climb": (ROOT / "rulesets/examples/climb.rules", 3),
    "offers": (ROOT / "tests/corpus/valid/abandon.rules", 2),
    "canary": (ROOT / "tests/fixtures/visibility/canary.rules", 3),
    "khan": (ROOT / "rulesets/khan/khan.rules", 3),
}


def trace_of(name: str) -> list[str]:
    path, players = GAMES[name]
    game = regelwerk.load(path).new_game(players=players, seed=4, record=True)
    agent = RandomAgent(4)
    while not game.is_over and len(game.trace) < 80:
        game.apply(agent(game))
    return trace_lines(game)


TRACES = {name: trace_of(name) for name in GAMES}
WEIRD = [None, True, 0, -1, 2**70, "", "x", [], {}, [[]], {"hidden": 3}, "hidden", {"event": 7}, [1, 2],
         {"path": 3, "old": 1}, "9" * 60]
BYTES = [b"\xff\xfe", b"\x00", b"{", b"]", b"\n\n", b'{"result": 1}', b"\xe2\x80\xa8", b"[" * 3000, b"1" * 5000]


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
def corrupted(draw: st.DrawFn, names: tuple[str, ...]) -> tuple[str, bytes]:
    name = draw(st.sampled_from(names))
    lines = list(TRACES[name])
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["field", "field", "field", "delete", "double", "drop", "cut", "bytes"]))
        if op in ("field", "delete"):
            try:
                obj = json.loads(lines[i])
            except (ValueError, RecursionError):  # an earlier edit broke this line already
                obj = None
            spots = [p for p in paths(obj) if p] if obj is not None else []
            if spots:
                where = draw(st.sampled_from(spots))
                parent = obj
                for k in where[:-1]:
                    parent = parent[k]
                if op == "delete":
                    del parent[where[-1]]
                else:
                    parent[where[-1]] = copy.deepcopy(draw(st.sampled_from(WEIRD)))
                lines[i] = json.dumps(obj)
        elif op == "double":
            lines.insert(i, lines[i])
        elif op == "drop" and len(lines) > 1:
            del lines[i]
        elif op == "cut":
            lines[i] = lines[i][:draw(st.integers(0, len(lines[i])))]
        elif op == "bytes":
            at = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:at] + draw(st.sampled_from(BYTES)).decode("latin-1") + lines[i][at:]
    return name, "\n".join(lines).encode("latin-1", errors="replace") + b"\n"


def check_trace(folder: Path, name: str, data: bytes, variant: int) -> None:
    path = folder / "t.jsonl"
    path.write_bytes(data)
    argv = ["trace", "show", str(path)]
    if variant % 3 >= 1:
        argv += ["--player", ["X", "North", "A", "Ann", "Ruler1"][variant % 5] if variant % 2 else "O"]
    if variant % 3 == 2:
        argv += ["--rules", str(GAMES[name][0])]
    outcome, err = outcome_of_cli(argv)
    assert record("trace", outcome) in ("ok", "located"), (outcome, err, argv)


FEW = settings(deadline=None, database=None, max_examples=150,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
SMALL = ("tictactoe", "climb", "offers", "canary")


@FEW
@given(c=corrupted(SMALL), variant=st.integers(0, 30))
def test_corrupted_traces(tmp_path_factory, c, variant: int):
    check_trace(tmp_path_factory.getbasetemp(), *c, variant)


@pytest.mark.slow
@settings(FEW, max_examples=2000)
@given(c=corrupted(tuple(GAMES)), variant=st.integers(0, 30))
def test_corrupted_traces_many(tmp_path_factory, c, variant: int):
    check_trace(tmp_path_factory.getbasetemp(), *c, variant)
