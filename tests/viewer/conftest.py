"""Shared set-up for the viewer's tests: games played once per session, their traces and
pages (the headless Chromium they share with every browser test is tests/conftest.py's)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from regelwerk.interpreter.engine.values import jsonable
from regelwerk.interpreter.tools.agents import RandomAgent
from regelwerk.interpreter.tools.trace import write_trace
from viewer_browser import Opened

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


@pytest.fixture(scope="session")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Played]:
    folder = tmp_path_factory.mktemp("viewer")
    return {name: play(name, folder) for name in GAMES}


@pytest.fixture
def opened(browser: Any):
    """Open pages; every page is checked for console errors and network requests at the end."""
    pages: list[Opened] = []

    def open_page(path: Path, **kw: Any) -> Opened:
        p = Opened(browser, path, **kw)
        pages.append(p)
        return p

    yield open_page
    for p in pages:
        assert p.errors == [], f"console errors in {p.page.url}: {p.errors}"
        assert p.requests == [], f"the page tried to load {p.requests}"
        p.close()
