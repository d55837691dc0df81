"""The same game in every process: traces are byte-identical whatever PYTHONHASHSEED (set
iteration order must never leak into play), and a game saved in one process and continued in
another ends exactly as the game played in one go."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .tally import record

ROOT = Path(__file__).resolve().parents[2]
RULESETS = {
    "climb": ("rulesets/examples/climb.rules", 3),
    "canary": ("tests/fixtures/visibility/canary.rules", 3),
    "khan": ("rulesets/khan/khan.rules", 3),
    "shogun": ("rulesets/shogun/shogun.rules", 4),
    "root": ("rulesets/root/root.rules", 2),
}
PLAY = """
import hashlib, json, sys
import regelwerk
from regelwerk.interpreter.tools.agents import RandomAgent
from regelwerk.interpreter.tools.trace import trace_lines

path, players, seeds, cut = sys.argv[1], int(sys.argv[2]), [int(s) for s in sys.argv[3].split(",")], int(sys.argv[4])
rules = regelwerk.load(path)
out = {}
for seed in seeds:
    g = rules.new_game(players=players, seed=seed, record=True)
    agent = RandomAgent(seed)
    n = 0
    while not g.is_over and n < 150:
        if n == cut:
            with open(sys.argv[5], "w") as fh:
                json.dump({"save": g.to_json(), "agent": agent.rng.getstate()}, fh)
        g.apply(agent(g))
        n += 1
    if sys.argv[6] == "trace":
        out[seed] = hashlib.sha256("\\n".join(trace_lines(g)).encode()).hexdigest()
    else:
        out[seed] = {"vars": hashlib.sha256(json.dumps(g.to_json()["vars"], sort_keys=True).encode()).hexdigest(),
                     "result": g.result}
print(json.dumps(out))
"""
CONTINUE = """
import hashlib, json, random, sys
import regelwerk
from regelwerk.interpreter.tools.agents import RandomAgent

path, seed, cut = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rules = regelwerk.load(path)
data = json.load(open(sys.argv[4]))
g = rules.load_game(data["save"])
agent = RandomAgent(seed)
version, state, gauss = data["agent"]  # the agent's own generator, where the first process left it
agent.rng.setstate((version, tuple(state), gauss))
n = cut
while not g.is_over and n < 150:
    g.apply(agent(g))
    n += 1
print(json.dumps({"vars": hashlib.sha256(json.dumps(g.to_json()["vars"], sort_keys=True).encode()).hexdigest(),
                  "result": g.result}))
"""


def python(code: str, *args: str, hashseed: str = "0") -> str:
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONHASHSEED": hashseed}, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip().splitlines()[-1]


def test_traces_do_not_depend_on_the_hash_seed(tmp_path: Path):
    path, players = RULESETS["canary"]
    runs = {python(PLAY, path, str(players), "1,2,3,4", "-1", str(tmp_path / "x"), "trace", hashseed=h)
            for h in ("0", "4242")}
    record("determinism", "ok" if len(runs) == 1 else "traceback")
    assert len(runs) == 1, runs


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RULESETS))
def test_traces_do_not_depend_on_the_hash_seed_many(tmp_path: Path, name: str):
    path, players = RULESETS[name]
    seeds = ",".join(str(s) for s in range(20))
    runs = {python(PLAY, path, str(players), seeds, "-1", str(tmp_path / "x"), "trace", hashseed=h)
            for h in ("0", "1", "77", "random")}
    record("determinism", "ok" if len(runs) == 1 else "traceback")
    assert len(runs) == 1


def _final(path: str, players: int, seed: int, tmp: Path) -> dict:
    """The end of one game played in one process, as vars digest and result."""
    return json.loads(python(PLAY, path, str(players), str(seed), "-1", str(tmp / "x"), "final"))[str(seed)]


def check_replay(tmp_path: Path, name: str) -> None:
    path, players = RULESETS[name]
    seed, cut = 3, 4
    save = tmp_path / "save.json"
    python(PLAY, path, str(players), str(seed), str(cut), str(save), "final", hashseed="1")
    continued = json.loads(python(CONTINUE, path, str(seed), str(cut), str(save), hashseed="2"))
    assert continued == _final(path, players, seed, tmp_path)
    record("replay", "ok")


def test_a_game_continued_in_another_process_ends_the_same(tmp_path: Path):
    check_replay(tmp_path, "climb")


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RULESETS))
def test_a_game_continued_in_another_process_ends_the_same_many(tmp_path: Path, name: str):
    check_replay(tmp_path, name)
