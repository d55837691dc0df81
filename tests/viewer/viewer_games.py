"""The viewer tests' games, played once per session by tests/viewer/conftest.py: a module of
its own, so that test files import `Played` by a name no other conftest.py shares."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from regelwerk.interpreter.engine.values import jsonable
from regelwerk.interpreter.tools.agents import RandomAgent
from regelwerk.interpreter.tools.trace import write_trace

import regelwerk
from regelwerk.viewer import page_for

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
GAMES = {
    "khan": (ROOT / "rulesets/khan/khan.rules", 3, 1),
    "shogun": (ROOT / "rulesets/shogun/shogun.rules", 4, 1),
    "root": (ROOT / "rulesets/root/root.rules", 2, 1),
    "canary": (HERE / "canary.rules", 2, 2),
}


@dataclass
class Played:
    """One traced game: its rules, trace file, page, and the true state after each step
    that ended at a decision (trace length -> state), from the engine itself."""

    name: str
    rules: Path
    trace: Path
    page: Path
    lines: list[dict]
    truth: dict[int, dict[str, Any]]

    def page_for(self, player: str | None) -> Path:
        out = self.page.with_name(f"{self.name}-{player or 'all'}.html")
        if not out.exists():
            out.write_text(page_for(str(self.trace), str(self.rules), player), encoding="utf-8")
        return out


def play(name: str, folder: Path) -> Played:
    rules, players, seed = GAMES[name]
    game = regelwerk.load(rules).new_game(players=players, seed=seed, record=True)
    agent = RandomAgent(seed)

    def steps() -> int:
        return sum(1 for s in game.trace if "result" not in s)

    truth = {steps(): {k: jsonable(v) for k, v in game.vars.items()}}
    while not game.is_over:
        game.apply(agent(game))
        truth[steps()] = {k: jsonable(v) for k, v in game.vars.items()}
    trace = folder / f"{name}.jsonl"
    write_trace(game, trace)
    page = folder / f"{name}.html"
    page.write_text(page_for(str(trace), str(rules)), encoding="utf-8")
    lines = [json.loads(x) for x in trace.read_text(encoding="utf-8").splitlines()]
    return Played(name, rules, trace, page, lines, truth)
